//! The browser board's server for tests: `serve --port 0` started as a new user starts it, its address
//! read from the line it prints, and a plain HTTP/1.1 client over a socket (each request on its own
//! connection), so the tests speak to it as any browser or script would.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use wait_timeout::ChildExt;

pub struct Server {
    child: Child,
    /// `127.0.0.1:PORT`.
    pub addr: String,
}

impl Server {
    /// Starts the board with `args` after `serve --port 0`.
    pub fn start(args: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-quincunx"))
            .args(["serve", "--port", "0"])
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("serve starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("its stdout")).read_line(&mut line).expect("a line");
        let addr = line
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_string();
        Server { child, addr }
    }

    /// The address it listens on, `127.0.0.1:PORT`.
    pub fn addr(&self) -> &str {
        &self.addr
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// `(status, body)` of a request.
    pub fn request(&self, method: &str, path: &str, body: Option<(&str, &str)>) -> (u16, String) {
        http(&self.addr, method, path, body)
    }

    /// Opens the event stream as a page does and reads its first event; the stream stays open until
    /// the socket is dropped.
    pub fn open_events(&self) -> TcpStream {
        let mut s = TcpStream::connect(&self.addr).expect("the server takes connections");
        let head =
            format!("GET /api/events HTTP/1.1\r\nHost: {}\r\nAccept: text/event-stream\r\n\r\n", self.addr);
        s.write_all(head.as_bytes()).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
        let mut seen = String::new();
        let mut buf = [0u8; 4096];
        while !seen.contains("event: state") {
            let n = s.read(&mut buf).expect("the first event");
            assert!(n > 0, "the event stream closed: {seen}");
            seen.push_str(&String::from_utf8_lossy(&buf[..n]));
        }
        s
    }

    pub fn get(&self, path: &str) -> (u16, String) {
        self.request("GET", path, None)
    }

    /// A JSON request; the answer read as JSON when it is.
    pub fn post(&self, path: &str, body: &str) -> (u16, serde_json::Value) {
        let (status, text) = self.request("POST", path, Some(("application/json", body)));
        (status, serde_json::from_str(&text).unwrap_or(serde_json::Value::String(text)))
    }

    /// Opens a record, as the page sends it: its text in JSON.
    pub fn post_record(&self, text: &str) -> (u16, serde_json::Value) {
        self.post("/api/record", &serde_json::json!({ "text": text }).to_string())
    }

    pub fn state(&self) -> serde_json::Value {
        serde_json::from_str(&self.get("/api/state").1).expect("the state is JSON")
    }

    /// Polls the state until `done` holds (at most a minute).
    pub fn wait_for(&self, what: &str, done: impl Fn(&serde_json::Value) -> bool) -> serde_json::Value {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let s = self.state();
            if done(&s) {
                return s;
            }
            assert!(Instant::now() < deadline, "waited a minute for {what}: {s}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Sends Ctrl-C's signal and waits for the exit.
    pub fn interrupt(self) -> std::process::ExitStatus {
        self.signal("-INT")
    }

    /// Asks the server to terminate (SIGTERM) and waits for it to exit.
    pub fn terminate(self) -> std::process::ExitStatus {
        self.signal("-TERM")
    }

    /// Sends `which` and waits ten seconds at most for the exit; a server still running then fails the
    /// test and is killed as it is dropped.
    fn signal(mut self, which: &str) -> std::process::ExitStatus {
        let _ = Command::new("kill").args([which, &self.child.id().to_string()]).status();
        let status = self.child.wait_timeout(Duration::from_secs(10)).expect("wait");
        status.unwrap_or_else(|| panic!("the server did not stop on {which} within 10 s"))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `(status, body)` of one HTTP/1.1 request to `addr`, on a connection of its own; `body` is its
/// content type and text.
pub fn http(addr: &str, method: &str, path: &str, body: Option<(&str, &str)>) -> (u16, String) {
    let (kind, text) = body.unwrap_or(("text/plain", ""));
    let head = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: {kind}\r\n");
    exchange(addr, &head, text)
}

/// `(status, body)` of a request whose head (request line and headers, each ending in CR LF, without
/// the length and the blank line) is `head`, sent to `addr` with `body`.
pub fn exchange(addr: &str, head: &str, body: &str) -> (u16, String) {
    let mut s = TcpStream::connect(addr).expect("the server takes connections");
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let head = format!("{head}Content-Length: {}\r\nConnection: close\r\n\r\n", body.len());
    s.write_all(head.as_bytes()).unwrap();
    s.write_all(body.as_bytes()).unwrap();
    // Read by the answer's own length: a server may keep the connection open whatever was asked.
    let mut raw = vec![];
    let mut buf = [0u8; 16384];
    loop {
        let n = s.read(&mut buf).expect("an answer");
        raw.extend_from_slice(&buf[..n]);
        let text = String::from_utf8_lossy(&raw);
        if let Some((head, body)) = text.split_once("\r\n\r\n") {
            let lower = head.to_ascii_lowercase();
            let length = lower
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .and_then(|v| v.trim().parse::<usize>().ok());
            let complete = match length {
                Some(len) => body.len() >= len,
                None if lower.contains("transfer-encoding: chunked") => body.ends_with("0\r\n\r\n"),
                None => n == 0,
            };
            if complete || n == 0 {
                let status = head.split_whitespace().nth(1).and_then(|c| c.parse().ok()).expect("a status");
                let chunked = lower.contains("transfer-encoding: chunked");
                return (status, if chunked { unchunk(body) } else { body.to_string() });
            }
        }
        assert!(n > 0, "the connection closed before the answer's header");
    }
}

/// A chunked body's text.
fn unchunk(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 || rest.len() < n {
            break;
        }
        out.push_str(&rest[..n]);
        body = rest[n..].trim_start_matches("\r\n");
    }
    out
}
