//! `apocalypse serve`: a local web server for the solver. One page at `/` (a board to edit,
//! both players' mixed strategies drawn on it, games against the engine) and a small JSON API
//! under `/api/` that the page uses and any other client may use too.
//!
//! HTTP is oxhttp's: a thread per connection, at most `MAX_CONNECTIONS` of them, socket
//! timeouts so that a stalled client lets its thread go, and bounded header parsing. This
//! file only turns its requests into `api::Api::answer` calls and the answers into responses:
//! it caps the body, catches a panic as a 500, and logs one line per request on stderr.

mod api;
mod page;
mod problem;
mod replies;
mod requests;
mod shelf;

use std::io::Read;
use std::net::{IpAddr, SocketAddr, TcpListener};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use oxhttp::model::header::{CACHE_CONTROL, CONTENT_TYPE};
use oxhttp::model::{Body, Request, Response, StatusCode};
use oxhttp::Server;

use self::api::{Answer, Api};
use self::problem::Problem;
use crate::apocalypse::cli::tables::{build_on_first_use, default_dir};
use crate::apocalypse::rules::ruleset::RuleSet;
use crate::console::outln;

/// Largest request body read, in bytes: a request holds a position and a few fields.
pub const MAX_BODY_BYTES: usize = 16 * 1024;

/// Connections served at once, one thread each; more wait to be accepted.
const MAX_CONNECTIONS: usize = 64;

/// Read and write timeout of a connection: an idle or stalled client lets its thread go.
const SOCKET_TIMEOUT: Duration = Duration::from_secs(15);

/// The page may load nothing from outside and talk only to this server.
const PAGE_POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
    img-src data:; connect-src 'self'; base-uri 'none'; \
    form-action 'none'; frame-ancestors 'none'";

/// Arguments of `apocalypse serve`.
#[derive(clap::Args, Debug, Clone)]
pub struct ServeArgs {
    /// TCP port (0: any free port; the address is printed).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Address to listen on; the default serves this machine only.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: IpAddr,
    /// Directory of the tablebase files (default: $APOCALYPSE_TB_DIR, else the per-user data
    /// directory; the 4-piece tables are built there on first use).
    #[arg(long, default_value_os_t = default_dir())]
    pub tb_dir: PathBuf,
    /// The engine's thinking time per move in milliseconds (the page may ask for up to 10000).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=10_000))]
    pub movetime: u64,
}

/// Run `apocalypse serve` under `rules` (the rule set of requests that name none).
pub fn run(args: &ServeArgs, rules: RuleSet) -> Result<(), String> {
    serve(&ServeOptions {
        host: args.host,
        port: args.port,
        tb_dir: args.tb_dir.clone(),
        movetime_ms: args.movetime,
        rules,
    })
}

/// Where and how to serve.
#[derive(Clone, Debug)]
pub struct ServeOptions {
    /// Address to listen on.
    pub host: IpAddr,
    /// Port; 0 picks a free one.
    pub port: u16,
    /// Directory of the tablebase files.
    pub tb_dir: PathBuf,
    /// The engine's default thinking time per move.
    pub movetime_ms: u64,
    /// The rule set of requests that name none.
    pub rules: RuleSet,
}

/// Serve until the process is stopped; prints `listening on http://HOST:PORT/` once ready.
pub fn serve(options: &ServeOptions) -> Result<(), String> {
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |d| d.as_nanos() as u64);
    build_on_first_use(&options.tb_dir, options.rules);
    let api = Arc::new(Api::building_into(
        options.tb_dir.clone(),
        options.rules,
        options.movetime_ms,
        seed,
    ));
    let address = listen_address(options.host, options.port)?;
    let server = Server::new(move |request| respond(&api, request))
        .bind(address)
        .with_global_timeout(SOCKET_TIMEOUT)
        .with_max_concurrent_connections(MAX_CONNECTIONS)
        .spawn()
        .map_err(|e| format!("cannot listen on {address}: {e}"))?;
    outln!("listening on http://{address}/");
    server.join().map_err(|e| format!("server stopped: {e}"))
}

/// The address to bind; port 0 becomes a port the system has free right now.
fn listen_address(host: IpAddr, port: u16) -> Result<SocketAddr, String> {
    if port != 0 {
        return Ok(SocketAddr::new(host, port));
    }
    TcpListener::bind((host, 0))
        .and_then(|probe| probe.local_addr())
        .map_err(|e| format!("no free port on {host}: {e}"))
}

/// The response to one request.
fn respond(api: &Api, request: &mut Request<Body>) -> Response<Body> {
    let started = Instant::now();
    let method = request.method().as_str().to_string();
    let path = request.uri().path().to_string();
    let answer = match read_body(request) {
        Ok(body) => catch_unwind(AssertUnwindSafe(|| api.answer(&method, &path, &body)))
            .unwrap_or_else(|_| {
                Answer::problem(&Problem::Internal(format!(
                    "internal error answering {path}"
                )))
            }),
        Err(problem) => Answer::problem(&problem),
    };
    log::info!(
        "{method} {path} -> {} in {} ms",
        answer.status,
        started.elapsed().as_millis()
    );
    let mut response = Response::builder()
        .status(StatusCode::from_u16(answer.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR))
        .header(CONTENT_TYPE, answer.content_type)
        .header(CACHE_CONTROL, "no-store")
        .header("X-Content-Type-Options", "nosniff");
    if answer.content_type.starts_with("text/html") {
        response = response.header("Content-Security-Policy", PAGE_POLICY);
    }
    response
        .body(Body::from(answer.body))
        .unwrap_or_else(|_| Response::new(Body::from("internal error\n")))
}

/// The request body, at most `MAX_BODY_BYTES`; a longer one is refused before it is read
/// when its length is announced, else as soon as it passes the limit.
fn read_body(request: &mut Request<Body>) -> Result<Vec<u8>, Problem> {
    if request
        .body()
        .len()
        .is_some_and(|n| n > MAX_BODY_BYTES as u64)
    {
        return Err(Problem::TooLarge(MAX_BODY_BYTES));
    }
    let mut body = Vec::new();
    request
        .body_mut()
        .take(MAX_BODY_BYTES as u64 + 1)
        .read_to_end(&mut body)
        .map_err(|e| Problem::BadRequest(format!("cannot read the request body: {e}")))?;
    if body.len() > MAX_BODY_BYTES {
        return Err(Problem::TooLarge(MAX_BODY_BYTES));
    }
    Ok(body)
}
