//! Start `apocalypse serve` on a free port and talk HTTP/1.1 to it over plain sockets: whole
//! requests for the API, raw bytes for the malformed ones a browser would never send.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// A running server, stopped when dropped; a `Client` of it.
pub struct ServerProcess {
    child: Child,
    client: Client,
    tb_dir: std::path::PathBuf,
}

/// Sends requests to a server.
#[derive(Clone)]
pub struct Client {
    /// `127.0.0.1:PORT`.
    pub address: String,
}

impl std::ops::Deref for ServerProcess {
    type Target = Client;

    fn deref(&self) -> &Client {
        &self.client
    }
}

/// A response: status code, headers and body.
#[derive(Debug)]
pub struct Reply {
    /// HTTP status (0 when the server closed the connection without a status line).
    pub status: u16,
    /// The header lines, names in lower case.
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: String,
}

impl Reply {
    /// The value of the header `name` (lower case), if sent.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The body as JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {} {}", self.status, self.body))
    }
}

/// A path under the temporary directory that no other test or run uses: `prefix`, the process
/// id and the time in nanoseconds.
pub fn unique_temp_path(prefix: &str) -> PathBuf {
    std::env::temp_dir().join(format!(
        "{prefix}-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos()
    ))
}

impl ServerProcess {
    /// `apocalypse serve --port 0` with an empty tablebase directory and `args`, building no
    /// tablebases.
    pub fn start(args: &[&str]) -> ServerProcess {
        let tb_dir = unique_temp_path("apocalypse-serve-test");
        std::fs::create_dir_all(&tb_dir).unwrap();
        let mut server = ServerProcess::start_with_tables(
            &tb_dir,
            false,
            &[&["--tb-dir"], &[tb_dir.to_str().unwrap()], args].concat(),
        );
        server.tb_dir = tb_dir;
        server
    }

    /// `apocalypse serve --port 0 args` with `APOCALYPSE_TB_DIR` set to `tb_dir` (which the
    /// caller owns and removes), building the first-use tablebases there when `build`, else
    /// with `APOCALYPSE_NO_TB_BUILD=1`.
    pub fn start_with_tables(
        tb_dir: &std::path::Path,
        build: bool,
        args: &[&str],
    ) -> ServerProcess {
        let mut command = Command::new(env!("CARGO_BIN_EXE_apocalypse"));
        command
            .env("APOCALYPSE_TB_DIR", tb_dir)
            .env_remove("APOCALYPSE_NO_TB_BUILD");
        if !build {
            command.env("APOCALYPSE_NO_TB_BUILD", "1");
        }
        let mut child = command
            .args(["serve", "--port", "0"])
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start apocalypse serve");
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = BufReader::new(stdout).read_line(&mut line);
            let _ = tx.send(line);
        });
        let line = rx
            .recv_timeout(Duration::from_secs(30))
            .expect("the server prints its address");
        let address = line
            .trim()
            .strip_prefix("listening on http://")
            .and_then(|rest| rest.strip_suffix('/'))
            .unwrap_or_else(|| panic!("unexpected first line: {line:?}"))
            .to_string();
        ServerProcess {
            child,
            client: Client { address },
            tb_dir: std::path::PathBuf::new(),
        }
    }

    /// Whether the process is still alive.
    pub fn is_running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }
}

impl Client {
    /// `http://ADDRESS/`.
    pub fn url(&self) -> String {
        format!("http://{}/", self.address)
    }

    /// Send `bytes` as they are and read the response until the server closes.
    pub fn raw(&self, bytes: &[u8]) -> Reply {
        let mut stream = TcpStream::connect(&self.address).expect("connect");
        stream
            .set_read_timeout(Some(Duration::from_secs(60)))
            .unwrap();
        let _ = stream.write_all(bytes);
        let mut response = Vec::new();
        let _ = stream.read_to_end(&mut response);
        parse_response(&response)
    }

    /// A request with `Connection: close`.
    pub fn request(&self, method: &str, path: &str, body: &str) -> Reply {
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            self.address,
            body.len()
        );
        self.raw(&[head.as_bytes(), body.as_bytes()].concat())
    }

    /// POST a JSON body.
    pub fn post(&self, path: &str, body: &str) -> Reply {
        self.request("POST", path, body)
    }

    /// GET a path.
    pub fn get(&self, path: &str) -> Reply {
        self.request("GET", path, "")
    }
}

fn parse_response(response: &[u8]) -> Reply {
    let text = String::from_utf8_lossy(response);
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let (head, body) = text
        .split_once("\r\n\r\n")
        .map_or((text.as_ref(), ""), |(h, b)| (h, b));
    let headers = head
        .lines()
        .skip(1)
        .filter_map(|line| line.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    Reply {
        status,
        headers,
        body: body.to_string(),
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        if !self.tb_dir.as_os_str().is_empty() {
            let _ = std::fs::remove_dir_all(&self.tb_dir);
        }
    }
}
