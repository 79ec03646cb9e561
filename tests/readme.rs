//! The README as a new user meets it: every command line it shows runs as written, its table of
//! engine options is exactly what `extinction uci` prints, and neither it nor `docs/`, `src/`
//! or `tests/` carries a `../shared` path or wording from a work log.
//!
//! Commands are the README's indented code lines and the backquoted cells of its tables that
//! start with one of our programs, `xboard`, `cutechess-cli` or `cargo`. They run in a scratch
//! directory holding links to the repository's `engines.json` and `docs/` and to the binaries
//! under test as `target/release`, with those binaries first on `PATH`, so `extinction ...`
//! means this build. Limits are
//! shortened only where the README shows them and a command would otherwise take minutes: a
//! match's time control and a tablebase build's piece count. A GUI or server command is
//! started, checked to be serving (XBoard must have started the engine, the server must answer
//! on its printed address) and stopped. Cargo commands cannot run inside `cargo test` (it holds
//! the build directory), so `cargo run --release --bin NAME -- ARGS` runs the binary this test
//! run built, and the other cargo commands are only checked to be ones this README's reader
//! can run here.

mod common;

use std::collections::{BTreeMap, HashMap};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const REPO: &str = env!("CARGO_MANIFEST_DIR");

fn readme() -> String {
    std::fs::read_to_string(Path::new(REPO).join("README.md")).expect("README.md")
}

/// Programs whose command lines the README shows and this test runs.
const PROGRAMS: [&str; 6] = [
    "extinction",
    "apocalypse",
    "cargo",
    "xboard",
    "cutechess-cli",
    "target/release/",
];

fn is_command(text: &str) -> bool {
    let text = text.trim();
    text.contains(' ') && PROGRAMS.iter().any(|p| text.starts_with(p))
}

/// Every command line of the README, in reading order: indented code lines (comments after
/// ` #` removed) and backquoted table cells.
fn readme_commands(readme: &str) -> Vec<String> {
    let mut commands = Vec::new();
    for line in readme.lines() {
        if let Some(code) = line.strip_prefix("    ") {
            let code = code.split(" #").next().unwrap_or("").trim();
            if is_command(code) {
                commands.push(code.to_string());
            }
        } else if line.starts_with('|') {
            for (i, span) in line.split('`').enumerate() {
                if i % 2 == 1 && is_command(span) {
                    commands.push(span.trim().to_string());
                }
            }
        }
    }
    commands
}

/// Split a command line into words as a POSIX shell would for the quoting the README uses.
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (None, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    assert!(
        quote.is_none(),
        "unbalanced quotes in README command: {line}"
    );
    if in_word {
        words.push(word);
    }
    words
}

#[test]
fn shell_words_follow_the_quotes() {
    assert_eq!(
        shell_words(r#"xboard -fcp "extinction xboard" -x 'a b'"#),
        ["xboard", "-fcp", "extinction xboard", "-x", "a b"]
    );
}

#[test]
fn commands_are_found_in_code_lines_and_table_cells() {
    let text = "    cargo test --release   # the suite\n\
                | use | `extinction bench` | `extinction` |\n\
                prose `apocalypse serve` is not a command line\n";
    assert_eq!(
        readme_commands(text),
        ["cargo test --release", "extinction bench"]
    );
}

/// The directory of the binaries under test (`target/release` under `cargo test --release`).
fn binary_dir() -> PathBuf {
    Path::new(env!("CARGO_BIN_EXE_extinction"))
        .parent()
        .expect("binary directory")
        .to_path_buf()
}

fn scratch_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("readme-commands-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    for name in ["engines.json", "docs"] {
        std::os::unix::fs::symlink(Path::new(REPO).join(name), dir.join(name)).expect("link");
    }
    // The binaries under test stand where the README's commands look for them, whether cargo
    // built them in the repository's `target/` or under CARGO_TARGET_DIR.
    std::fs::create_dir_all(dir.join("target")).expect("scratch target dir");
    std::os::unix::fs::symlink(binary_dir(), dir.join("target/release")).expect("link");
    dir
}

fn search_path() -> String {
    let old = std::env::var("PATH").unwrap_or_default();
    // Debian installs XBoard in /usr/games, which not every PATH holds.
    format!("{}:{old}:/usr/games", binary_dir().display())
}

fn on_path(program: &str) -> bool {
    std::env::split_paths(&search_path())
        .any(|dir| common::executable(&dir.join(program).to_string_lossy()))
}

/// Shorter limits where a README command would take minutes: a match's time control and a
/// tablebase build's piece count (only where the README itself gives them).
fn shortened(words: &[String]) -> Vec<String> {
    let mut out: Vec<String> = words.to_vec();
    for i in 0..out.len() {
        if out[i].starts_with("tc=") && words[0] == "cutechess-cli" {
            out[i] = "tc=1+0.01".to_string();
        }
        if i > 0 && out[i - 1] == "--max-pieces" && out[i].parse::<u32>().is_ok_and(|k| k > 4) {
            out[i] = "3".to_string();
        }
    }
    out
}

struct Finished {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

/// Run `words` in `dir` with stdin closed, to completion within `limit`.
fn run_to_end(words: &[String], dir: &Path, limit: Duration) -> Finished {
    let mut child = spawn(words, dir);
    let deadline = Instant::now() + limit;
    let mut out = child.stdout.take().expect("stdout");
    let mut err = child.stderr.take().expect("stderr");
    let out_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = out.read_to_string(&mut s);
        s
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = err.read_to_string(&mut s);
        s
    });
    let code = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status.code();
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "README command `{}` still runs after {limit:?}",
                words.join(" ")
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Finished {
        code,
        stdout: out_reader.join().unwrap_or_default(),
        stderr: err_reader.join().unwrap_or_default(),
    }
}

fn spawn(words: &[String], dir: &Path) -> Child {
    Command::new(&words[0])
        .args(&words[1..])
        .current_dir(dir)
        .env("PATH", search_path())
        // Apocalypse's tablebases go to the scratch directory, never the user's own.
        .env("APOCALYPSE_TB_DIR", dir.join("tablebases"))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start README command `{}`: {e}", words.join(" ")))
}

fn stop(child: &mut Child) {
    let _ = child.kill();
    let _ = child.wait();
}

/// Parent of each running process, from /proc.
fn parents() -> HashMap<u32, u32> {
    let mut map = HashMap::new();
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // `pid (name) state ppid ...`: the name may hold spaces, so read after its last ')'.
        let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
        if let Some(ppid) = after.split_whitespace().nth(1).and_then(|p| p.parse().ok()) {
            map.insert(pid, ppid);
        }
    }
    map
}

/// Every process descended from `root`.
fn descendants(root: u32) -> Vec<u32> {
    let parents = parents();
    let mut found = Vec::new();
    for (&pid, _) in parents.iter() {
        let mut p = pid;
        let mut depth = 0;
        while let Some(&parent) = parents.get(&p) {
            if parent == root {
                found.push(pid);
                break;
            }
            p = parent;
            depth += 1;
            if p <= 1 || depth > 32 {
                break;
            }
        }
    }
    found
}

/// Command lines of every process descended from `root`.
fn descendants_command_lines(root: u32) -> Vec<String> {
    descendants(root)
        .into_iter()
        .map(|pid| {
            let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
            String::from_utf8_lossy(&cmdline).replace('\0', " ")
        })
        .collect()
}

/// Stop `child` and everything it started: `xvfb-run` is a shell script, and killing it alone
/// would leave Xvfb, XBoard and the engine running.
fn stop_tree(child: &mut Child) {
    let pids: Vec<String> = descendants(child.id()).iter().map(u32::to_string).collect();
    if !pids.is_empty() {
        let _ = Command::new("kill").arg("-TERM").args(&pids).status();
    }
    stop(child);
}

/// XBoard under Xvfb: the GUI must start the engine the README names, with the protocol it
/// names, and keep running.
fn check_xboard(words: &[String], dir: &Path) {
    let xvfb = Command::new("sh")
        .args(["-c", "command -v xvfb-run"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !common::outside_program_present(
        "XBoard under Xvfb (xboard, xvfb-run)",
        on_path("xboard") && xvfb,
    ) {
        return;
    }
    let mut wrapped = vec!["xvfb-run".to_string(), "-a".to_string()];
    wrapped.extend(words.iter().cloned());
    let mut gui = spawn(&wrapped, dir);
    let engine = words
        .iter()
        .position(|w| w == "-fcp")
        .map(|i| words[i + 1].clone())
        .expect("the XBoard command names its engine with -fcp");
    let deadline = Instant::now() + Duration::from_secs(20);
    let started = loop {
        let found = descendants_command_lines(gui.id()).iter().any(|line| {
            line.trim_end().ends_with(&engine) || line.contains(&format!("{} ", engine))
        });
        if found || Instant::now() > deadline {
            break found;
        }
        if let Ok(Some(status)) = gui.try_wait() {
            let mut err = String::new();
            let _ = gui.stderr.take().map(|mut e| e.read_to_string(&mut err));
            panic!(
                "`{}` ended ({status}) before starting the engine: {err}",
                words.join(" ")
            );
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    let still_running = gui.try_wait().expect("wait").is_none();
    stop_tree(&mut gui);
    assert!(
        started,
        "`{}` did not start `{engine}` within 20 s",
        words.join(" ")
    );
    assert!(still_running, "`{}` ended by itself", words.join(" "));
}

/// `apocalypse serve`: it prints its address and answers the page there.
fn check_server(words: &[String], dir: &Path) {
    let mut server = spawn(words, dir);
    let mut lines = BufReader::new(server.stdout.take().expect("stdout")).lines();
    let first = lines.next().and_then(Result::ok).unwrap_or_default();
    if first.is_empty() {
        let mut err = String::new();
        let _ = server.stderr.take().map(|mut e| e.read_to_string(&mut err));
        stop(&mut server);
        if err.contains("in use") {
            // Another program holds the README's port: nothing this build could change.
            let _ = writeln!(
                std::io::stderr(),
                "skipped `{}`: {}",
                words.join(" "),
                err.trim()
            );
            return;
        }
        panic!("`{}` printed no address: {err}", words.join(" "));
    }
    let address = first
        .split_whitespace()
        .find_map(|w| w.strip_prefix("http://"))
        .map(|a| a.trim_end_matches('/').to_string())
        .unwrap_or_else(|| panic!("no address in `{first}`"));
    let reply = (|| -> std::io::Result<String> {
        let mut stream = TcpStream::connect(&address)?;
        stream.set_read_timeout(Some(Duration::from_secs(10)))?;
        stream.write_all(b"GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")?;
        let mut reply = String::new();
        stream.read_to_string(&mut reply)?;
        Ok(reply)
    })();
    stop(&mut server);
    let reply = reply.unwrap_or_else(|e| panic!("no answer from {address}: {e}"));
    assert!(
        reply.starts_with("HTTP/1.1 200"),
        "GET / on {address}: {reply:.200}"
    );
}

/// `cutechess-cli` with the shipped `engines.json`: the games are played and saved.
///
/// cutechess-cli is in no package registry and the project may not ship a script that builds
/// it, so `.ci/run` cannot provide it: without it this command is skipped with a notice even
/// when `CI` is set (`scripts/match.sh` plays the same kind of match where it is built).
fn check_cutechess(words: &[String], dir: &Path) {
    if !on_path("cutechess-cli") {
        let _ = writeln!(
            std::io::stderr(),
            "skipped `{}`: cutechess-cli not found (build it from its public source)",
            words.join(" ")
        );
        return;
    }
    let run = run_to_end(words, dir, Duration::from_secs(600));
    assert_eq!(
        run.code,
        Some(0),
        "`{}`: {}{}",
        words.join(" "),
        run.stdout,
        run.stderr
    );
    if let Some(i) = words.iter().position(|w| w == "-pgnout") {
        let pgn =
            std::fs::read_to_string(dir.join(&words[i + 1])).expect("the PGN cutechess-cli wrote");
        let games = words
            .iter()
            .position(|w| w == "-games")
            .and_then(|i| words[i + 1].parse::<usize>().ok())
            .unwrap_or(1);
        let finished = pgn
            .lines()
            .filter(|l| {
                [
                    "[Result \"1-0\"]",
                    "[Result \"0-1\"]",
                    "[Result \"1/2-1/2\"]",
                ]
                .contains(l)
            })
            .count();
        assert_eq!(finished, games, "games finished in {pgn}");
        assert!(!run.stdout.contains("forfeit"), "{}", run.stdout);
    }
}

/// `cargo run --release --bin NAME -- ARGS` is the binary this test run built; other cargo
/// commands are checked for a subcommand and arguments this repository accepts.
fn cargo_as_binary(words: &[String]) -> Option<Vec<String>> {
    let sub = words.get(1).map(String::as_str);
    match sub {
        Some("run") => {
            let bin = words
                .iter()
                .position(|w| w == "--bin")
                .map(|i| words[i + 1].clone());
            let bin = bin.expect("`cargo run` in the README names its --bin");
            assert!(
                words.contains(&"--release".to_string()),
                "`cargo run` without --release"
            );
            let rest = words
                .iter()
                .position(|w| w == "--")
                .map_or(&[][..], |i| &words[i + 1..]);
            let mut out = vec![binary_dir().join(bin).to_string_lossy().into_owned()];
            out.extend(rest.iter().cloned());
            Some(out)
        }
        Some("test" | "build" | "install" | "fmt" | "clippy") => {
            let _ = writeln!(
                std::io::stderr(),
                "not run inside cargo test: `{}` (cargo holds the build directory)",
                words.join(" ")
            );
            None
        }
        other => panic!("README shows an unexpected cargo command: {other:?} in {words:?}"),
    }
}

#[test]
fn every_command_line_of_the_readme_runs() {
    let commands = readme_commands(&readme());
    assert!(commands.len() >= 10, "too few commands found: {commands:?}");
    let dir = scratch_dir();
    for line in &commands {
        let mut words = shortened(&shell_words(line));
        if words[0] == "cargo" {
            match cargo_as_binary(&words) {
                Some(binary) => words = binary,
                None => continue,
            }
        }
        if let Some(rest) = words[0].strip_prefix("target/release/") {
            words[0] = binary_dir().join(rest).to_string_lossy().into_owned();
        }
        let program = Path::new(&words[0])
            .file_name()
            .map(|n| n.to_string_lossy().into_owned());
        match (program.as_deref(), words.get(1).map(String::as_str)) {
            (Some("xboard"), _) => check_xboard(&words, &dir),
            (Some("cutechess-cli"), _) => check_cutechess(&words, &dir),
            (Some("apocalypse"), Some("serve")) => check_server(&words, &dir),
            _ => {
                let run = run_to_end(&words, &dir, Duration::from_secs(300));
                assert_eq!(
                    run.code,
                    Some(0),
                    "README command `{line}` failed:\n{}\n{}",
                    run.stdout,
                    run.stderr
                );
                let reads_stdin = matches!(
                    words.get(1).map(String::as_str),
                    Some("uci" | "xboard" | "play-human")
                );
                assert!(
                    reads_stdin || !run.stdout.trim().is_empty(),
                    "README command `{line}` printed nothing"
                );
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// One engine option: type, default, min, max and combo values, as text.
#[derive(Debug, PartialEq, Default)]
struct OptionSpec {
    kind: String,
    default: String,
    min: String,
    max: String,
    values: Vec<String>,
}

/// The options `extinction uci` announces, by name.
fn engine_options() -> BTreeMap<String, OptionSpec> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_extinction"))
        .arg("uci")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("extinction uci");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(b"uci\nquit\n")
        .expect("write");
    let mut out = String::new();
    child
        .stdout
        .take()
        .expect("stdout")
        .read_to_string(&mut out)
        .expect("read");
    child.wait().expect("wait");
    let mut options = BTreeMap::new();
    for line in out.lines() {
        let Some(rest) = line.strip_prefix("option name ") else {
            continue;
        };
        let (name, rest) = rest.split_once(" type ").expect("option with a type");
        let mut words = rest.split(' ');
        let mut spec = OptionSpec {
            kind: words.next().unwrap_or("").to_string(),
            ..OptionSpec::default()
        };
        let mut key = "";
        for word in words {
            match word {
                "default" | "min" | "max" | "var" => {
                    key = word;
                    if word == "var" {
                        spec.values.push(String::new());
                    }
                }
                _ => {
                    let field = match key {
                        "default" => &mut spec.default,
                        "min" => &mut spec.min,
                        "max" => &mut spec.max,
                        "var" => spec.values.last_mut().expect("var"),
                        _ => panic!("unreadable option line: {line}"),
                    };
                    if !field.is_empty() {
                        field.push(' ');
                    }
                    field.push_str(word);
                }
            }
        }
        options.insert(name.to_string(), spec);
    }
    assert!(out.contains("uciok"), "{out}");
    options
}

/// The README's options table, by name; a combo's values are the backquoted words of its row's
/// last cell.
fn readme_options(readme: &str) -> BTreeMap<String, OptionSpec> {
    let mut lines = readme
        .lines()
        .skip_while(|l| !l.starts_with("| option | type | default | min | max |"));
    assert!(lines.next().is_some(), "README has no options table");
    let mut options = BTreeMap::new();
    for line in lines.skip(1).take_while(|l| l.starts_with('|')) {
        let cells: Vec<&str> = line
            .trim()
            .trim_matches('|')
            .split('|')
            .map(str::trim)
            .collect();
        assert_eq!(cells.len(), 6, "options table row: {line}");
        let values = if cells[1] == "combo" {
            cells[5]
                .split('`')
                .skip(1)
                .step_by(2)
                .map(str::to_string)
                .collect()
        } else {
            Vec::new()
        };
        let spec = OptionSpec {
            kind: cells[1].to_string(),
            default: cells[2].to_string(),
            min: cells[3].to_string(),
            max: cells[4].to_string(),
            values,
        };
        options.insert(cells[0].to_string(), spec);
    }
    options
}

#[test]
fn the_readme_options_table_is_what_the_engine_prints() {
    let engine = engine_options();
    assert!(
        engine.len() >= 5,
        "extinction uci printed too few options: {engine:?}"
    );
    let table = readme_options(&readme());
    for (name, spec) in &engine {
        assert_eq!(
            table.get(name),
            Some(spec),
            "option {name}: README table against `extinction uci`"
        );
    }
    for name in table.keys() {
        assert!(
            engine.contains_key(name),
            "README lists option {name}, which `extinction uci` does not"
        );
    }
}

/// Every file under `dir` (recursively) whose name ends with one of `extensions`.
fn files_under(dir: &Path, extensions: &[&str], found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            files_under(&path, extensions, found);
        } else if extensions
            .iter()
            .any(|e| path.to_string_lossy().ends_with(e))
        {
            found.push(path);
        }
    }
}

/// Where `text` speaks of a work session or cites a numbered issue or clarification, one
/// excerpt per finding. A protocol session (the session loop) is a different thing.
fn work_log_wording(text: &str) -> Vec<String> {
    let lower = text.to_lowercase();
    let mut found = Vec::new();
    let ordinals = [
        "this", "that", "last", "previous", "next", "first", "second", "third", "fourth", "fifth",
        "sixth", "seventh", "eighth", "ninth", "tenth",
    ];
    for ordinal in ordinals {
        let phrase = [ordinal, "session"].join(" ");
        for (at, _) in lower.match_indices(&phrase) {
            let starts_word = at == 0 || !lower.as_bytes()[at - 1].is_ascii_alphanumeric();
            if starts_word {
                found.push(excerpt(text, at));
            }
        }
    }
    for word in ["issue", "clarification"] {
        for (at, _) in lower.match_indices(word) {
            let starts_word = at == 0 || !lower.as_bytes()[at - 1].is_ascii_alphanumeric();
            let after = lower[at + word.len()..].trim_start_matches([' ', '#', 's']);
            if starts_word && after.starts_with(|c: char| c.is_ascii_digit()) {
                found.push(excerpt(text, at));
            }
        }
    }
    for (at, _) in lower.match_indices(&["session", " of 20"].concat()) {
        found.push(excerpt(text, at));
    }
    found
}

fn excerpt(text: &str, at: usize) -> String {
    let start = text[..at]
        .char_indices()
        .rev()
        .nth(20)
        .map_or(0, |(i, _)| i);
    let end = text[at..]
        .char_indices()
        .nth(40)
        .map_or(text.len(), |(i, _)| at + i);
    text[start..end].replace('\n', " ")
}

#[test]
fn work_log_wording_is_recognised() {
    let numbered = ["as ", "issue", " 15 asks"].concat();
    assert_eq!(work_log_wording(&numbered).len(), 1);
    let clarified = ["(", "clarification", " 3)"].concat();
    assert_eq!(work_log_wording(&clarified).len(), 1);
    let session = ["before ", "this", " session's work"].concat();
    assert_eq!(work_log_wording(&session).len(), 1);
    assert!(work_log_wording("the session loop hands the line on; see the issues page").is_empty());
}

#[test]
fn readme_and_docs_have_no_outside_paths_and_no_work_log_wording() {
    let root = Path::new(REPO);
    let mut files = vec![root.join("README.md")];
    files_under(&root.join("docs"), &[".md"], &mut files);
    let shared = ["..", "/shared"].concat();
    let mut problems = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("read");
        if text.contains(&shared) {
            problems.push(format!("{}: names {shared}", file.display()));
        }
    }
    let mut code = Vec::new();
    for dir in ["src", "tests"] {
        files_under(
            &root.join(dir),
            &[".rs", ".py", ".js", ".html", ".css", ".md"],
            &mut code,
        );
    }
    files.extend(code);
    for file in &files {
        let text = std::fs::read_to_string(file).expect("read");
        for finding in work_log_wording(&text) {
            problems.push(format!("{}: \"{finding}\"", file.display()));
        }
    }
    assert!(
        problems.is_empty(),
        "{} findings:\n{}",
        problems.len(),
        problems.join("\n")
    );
}
