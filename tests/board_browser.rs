//! The browser board in a real browser: headless Chromium, driven through ChromeDriver's WebDriver
//! API, opens the page, clicks the centre point, sees the engine's stone appear and saves a
//! screenshot (`target/board-screenshot.png`). It needs Debian's `chromium` and `chromium-driver`, so
//! it is ignored (reported as such, never as passed) unless asked for:
//! `cargo test --release --test board_browser -- --include-ignored`. `.ci/run` asks for it with
//! `QUINCUNX_BROWSER_TEST=required`, after installing them, and then their absence fails it.
#![cfg(feature = "board")]

mod common;

use std::net::TcpListener;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::board::{Server, http};
use serde_json::{Value, json};

const CHROMIUM: &str = "/usr/bin/chromium";
const DRIVER: &str = "/usr/bin/chromedriver";

struct Driver {
    child: Child,
    addr: String,
    session: String,
}

impl Driver {
    fn start() -> Driver {
        let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let child = Command::new(DRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let addr = format!("127.0.0.1:{port}");
        let deadline = Instant::now() + Duration::from_secs(20);
        while std::net::TcpStream::connect(&addr).is_err() {
            assert!(Instant::now() < deadline, "chromedriver did not listen");
            std::thread::sleep(Duration::from_millis(50));
        }
        let profile = std::env::temp_dir().join(format!("quincunx-chromium-{}", std::process::id()));
        // As Chromium runs on a machine without a network or a display: no background connections.
        let caps = json!({"capabilities": {"alwaysMatch": {"browserName": "chrome", "goog:chromeOptions": {
            "binary": CHROMIUM,
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                     "--disable-background-networking", "--disable-component-update", "--disable-sync",
                     "--window-size=1300,900", format!("--user-data-dir={}", profile.display())]
        }}}});
        let mut d = Driver { child, addr, session: String::new() };
        let v = d.call("POST", "/session", Some(caps));
        d.session = v["sessionId"].as_str().unwrap_or_else(|| panic!("no session: {v}")).to_string();
        d
    }

    /// A WebDriver command's `value`.
    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let text = body.map(|b| b.to_string());
        let (status, answer) =
            http(&self.addr, method, path, text.as_deref().map(|t| ("application/json", t)));
        let v: Value = serde_json::from_str(&answer).unwrap_or_else(|_| panic!("{path}: {answer}"));
        assert_eq!(status, 200, "{method} {path}: {v}");
        v["value"].clone()
    }

    fn session(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        self.call(method, &format!("/session/{}{path}", self.session), body)
    }

    fn script(&self, js: &str) -> Value {
        self.session("POST", "/execute/sync", Some(json!({"script": js, "args": []})))
    }

    fn wait_for(&self, what: &str, js: &str) -> Value {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let v = self.script(js);
            if v.as_bool() != Some(false) && !v.is_null() {
                return v;
            }
            assert!(Instant::now() < deadline, "waited a minute for {what}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = http(&self.addr, "DELETE", &format!("/session/{}", self.session), None);
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Standard base64, as WebDriver sends a screenshot.
fn base64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let digits: Vec<u8> = text.bytes().filter_map(value).collect();
    digits
        .chunks(4)
        .flat_map(|c| {
            let n = c.iter().enumerate().fold(0u32, |n, (i, &d)| n | u32::from(d) << (18 - 6 * i));
            let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
            bytes.into_iter().take(c.len() - 1)
        })
        .collect()
}

#[test]
#[ignore = "needs chromium and chromedriver (Debian packages): cargo test --release -- --include-ignored"]
fn a_click_on_the_page_gets_the_engines_answer() {
    if !Path::new(CHROMIUM).exists() || !Path::new(DRIVER).exists() {
        let required = std::env::var("QUINCUNX_BROWSER_TEST").is_ok_and(|v| v == "required");
        assert!(!required, "{CHROMIUM} and {DRIVER} are needed (apt-get install chromium chromium-driver)");
        eprintln!("skipped: no {CHROMIUM} or {DRIVER} (apt-get install chromium chromium-driver)");
        return;
    }
    let server = Server::start(&[]);
    server.post("/api/new", r#"{"rule": "freestyle", "size": 15, "human": "black", "time_ms": 300}"#);
    let driver = Driver::start();
    driver.session("POST", "/url", Some(json!({"url": server.url("/")})));
    driver.wait_for("the board", "return document.querySelectorAll('#board line').length === 30");
    // The centre of the board's picture is the centre point, h8.
    let board = driver.session("POST", "/element", Some(json!({"using": "css selector", "value": "#board"})));
    let id =
        board.as_object().and_then(|o| o.values().next()).and_then(Value::as_str).expect("the board element");
    driver.session("POST", &format!("/element/{id}/click"), Some(json!({})));
    driver.wait_for(
        "the engine's stone",
        "return document.querySelectorAll('#board circle.stone').length === 2",
    );
    let s = server.state();
    assert_eq!(s["moves"][0]["name"], "h8");
    assert_eq!(s["to_move"], "black");
    let status = driver.script("return document.getElementById('status').textContent");
    assert!(status.as_str().is_some_and(|t| t.starts_with("black to move")), "{status}");
    let png = base64(driver.session("GET", "/screenshot", None).as_str().expect("a screenshot"));
    assert!(png.starts_with(b"\x89PNG"));
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("board-screenshot.png");
    std::fs::write(&out, png).unwrap();
    eprintln!("screenshot: {}", out.display());

    // A refused request's reason stands next to the control that sent it: an analysis of no move.
    let study_error = "document.getElementById('analyse').closest('fieldset').querySelector('.error')";
    driver.script("document.getElementById('nbest').value = 0");
    let button =
        driver.session("POST", "/element", Some(json!({"using": "css selector", "value": "#analyse"})));
    let id = button.as_object().and_then(|o| o.values().next()).and_then(Value::as_str).expect("the button");
    driver.session("POST", &format!("/element/{id}/click"), Some(json!({})));
    driver.wait_for(
        "the error beside Analyse",
        &format!("const e = ({}); return !!e && e.textContent.length > 0", study_error),
    );
    let under_board = driver.script("return document.getElementById('error').textContent");
    assert_eq!(under_board, "", "the error is beside its control, not under the board");
}
