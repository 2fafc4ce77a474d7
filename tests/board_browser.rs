//! The browser board in a real browser: headless Chromium, driven through ChromeDriver's WebDriver
//! API, plays and studies a game on the page (a click answered by the engine, a refused request's
//! reason beside its control, the N best values on their points and the eval bar, Stop keeping the
//! person's side, the chart going with its game) and shows games between engines (two brains
//! playing on the page, each move's eval, depth and time, and a running match followed from its live
//! file). It saves a screenshot of each stage in `target/board-screenshots/` for a person to look
//! at. It needs Debian's `chromium` and `chromium-driver`, so it is ignored (reported as such, never
//! as passed) unless asked for: `cargo test --release --test board_browser -- --include-ignored`.
//! `.ci/run` asks for it with `QUINCUNX_BROWSER_TEST=required`, after installing them, and then their
//! absence fails it.
#![cfg(feature = "board")]

mod common;

use std::net::TcpListener;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::board::{Server, http};
use serde_json::{Value, json};
use tempfile::TempDir;

const CHROMIUM: &str = "/usr/bin/chromium";
const DRIVER: &str = "/usr/bin/chromedriver";

struct Driver {
    child: Child,
    addr: String,
    session: String,
    /// Chromium's profile, removed with the driver.
    _profile: TempDir,
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
        let profile = tempfile::tempdir().unwrap();
        // As Chromium runs on a machine without a network or a display: no background connections.
        let caps = json!({"capabilities": {"alwaysMatch": {"browserName": "chrome", "goog:chromeOptions": {
            "binary": CHROMIUM,
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                     "--disable-background-networking", "--disable-component-update", "--disable-sync",
                     "--window-size=1300,900", format!("--user-data-dir={}", profile.path().display())]
        }}}});
        let mut d = Driver { child, addr, session: String::new(), _profile: profile };
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

    /// The WebDriver id of the first element `css` finds.
    fn element(&self, css: &str) -> String {
        let e = self.session("POST", "/element", Some(json!({"using": "css selector", "value": css})));
        let id = e.as_object().and_then(|o| o.values().next()).and_then(Value::as_str);
        id.unwrap_or_else(|| panic!("no element {css}: {e}")).to_string()
    }

    /// Clicks the element `css` finds, as a person does (at its centre).
    fn click(&self, css: &str) {
        let id = self.element(css);
        self.session("POST", &format!("/element/{id}/click"), Some(json!({})));
    }

    /// Clicks the board's point (x, y) with the mouse: where the board's picture draws it.
    fn click_point(&self, x: u64, y: u64) {
        let at = self.script(&format!(
            "const svg = document.getElementById('board'); const p = svg.createSVGPoint(); \
             p.x = 44 + 40 * {x}; p.y = 44 + 40 * {y}; const q = p.matrixTransform(svg.getScreenCTM()); \
             return [Math.round(q.x), Math.round(q.y)]"
        ));
        let (cx, cy) = (at[0].as_i64().expect("x"), at[1].as_i64().expect("y"));
        let mouse = json!({"actions": [{"type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"},
            "actions": [{"type": "pointerMove", "origin": "viewport", "x": cx, "y": cy},
                        {"type": "pointerDown", "button": 0}, {"type": "pointerUp", "button": 0}]}]});
        self.session("POST", "/actions", Some(mouse));
    }

    /// Sets a form field's value as if typed.
    fn set(&self, id: &str, value: &str) {
        self.script(&format!("document.getElementById('{id}').value = {}", json!(value)));
    }

    fn text(&self, css: &str) -> String {
        let v = self.script(&format!("return document.querySelector({}).textContent", json!(css)));
        v.as_str().unwrap_or_default().to_string()
    }

    /// Saves the page as `name` under `target/board-screenshots/`.
    fn screenshot(&self, name: &str) {
        let png = base64(self.session("GET", "/screenshot", None).as_str().expect("a screenshot"));
        assert!(png.starts_with(b"\x89PNG"));
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).parent().expect("target/").join("board-screenshots");
        std::fs::create_dir_all(&dir).unwrap();
        let out = dir.join(name);
        std::fs::write(&out, png).unwrap();
        eprintln!("screenshot: {}", out.display());
    }

    fn open(&self, url: &str) {
        self.session("POST", "/url", Some(json!({"url": url})));
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

/// Whether the browser is here; without it the test (asked for by --include-ignored) ends with a note,
/// unless it is required.
fn browser_here() -> bool {
    if Path::new(CHROMIUM).exists() && Path::new(DRIVER).exists() {
        return true;
    }
    let required = std::env::var("QUINCUNX_BROWSER_TEST").is_ok_and(|v| v == "required");
    assert!(!required, "{CHROMIUM} and {DRIVER} are needed (apt-get install chromium chromium-driver)");
    eprintln!("skipped: no {CHROMIUM} or {DRIVER} (apt-get install chromium chromium-driver)");
    false
}

/// One browser for every stage, one after another: two at once would share the machine's two cores
/// with the engines they watch.
#[test]
#[ignore = "needs chromium and chromium-driver (Debian packages): cargo test --release --test board_browser -- --include-ignored"]
fn the_page_plays_studies_and_shows_engines_games() {
    if !browser_here() {
        return;
    }
    let driver = Driver::start();
    a_game_is_played_and_studied(&driver);
    engines_play_and_a_running_match_is_followed(&driver);
}

fn stones(s: &Value) -> usize {
    s["stones"].as_array().map_or(0, Vec::len)
}

/// Items 2 to 5 of the board: a click answered, an error beside its control, the N best values on
/// their points and the bar, Stop keeping the person's side, the chart going with its game.
fn a_game_is_played_and_studied(driver: &Driver) {
    let server = Server::start(&[]);
    server.post("/api/new", r#"{"rule": "freestyle", "size": 15, "human": "black", "time_ms": 300}"#);
    driver.open(&server.url("/"));
    driver.wait_for("the board", "return document.querySelectorAll('#board line').length === 30");
    // The centre of the board's picture is the centre point, h8.
    driver.click("#board");
    driver.wait_for(
        "the engine's stone",
        "return document.querySelectorAll('#board circle.stone').length === 2",
    );
    let s = server.wait_for("the engine's move to end", |s| s["thinking"].is_null());
    assert_eq!((&s["moves"][0]["name"], &s["to_move"]), (&Value::from("h8"), &Value::from("black")));
    assert!(driver.text("#status").starts_with("black to move"));
    // The bar stands at the engine's evaluation (black's view, 1000 at the top).
    let eval = s["eval"].as_f64().expect("the engine's move leaves its evaluation");
    driver.wait_for(
        "the bar at the engine's evaluation",
        &format!(
            "return Math.abs(parseFloat(document.getElementById('evalfill').style.height) - {}) < 0.01",
            50.0 + eval / 20.0
        ),
    );
    driver.screenshot("1-a-move-answered.png");

    // A refused request's reason stands next to the control that sent it: an analysis of no move.
    let study_error = "document.getElementById('analyse').closest('fieldset').querySelector('.error')";
    driver.set("nbest", "0");
    driver.click("#analyse");
    driver.wait_for(
        "the error beside Analyse",
        &format!("const e = ({study_error}); return !!e && e.textContent.length > 0"),
    );
    assert_eq!(driver.text("#error"), "", "the error is beside its control, not under the board");

    // The N best moves' values stand on their points, as the state lists them.
    driver.set("nbest", "3");
    driver.click("#analyse");
    let s = server.wait_for("three best moves", |s| s["lines"].as_array().is_some_and(|l| l.len() == 3));
    driver.wait_for(
        "the values on the board",
        "return document.querySelectorAll('#board text.nbest').length === 3",
    );
    driver.screenshot("2-the-best-moves-on-their-points.png");
    let shown = driver.script(
        "return [...document.querySelectorAll('#board text.nbest')].map(t => t.textContent).filter(t => t)",
    );
    assert!(shown.as_array().is_some_and(|v| !v.is_empty()), "{shown} for {}", s["lines"]);

    // Stop ends the analysis, not the game: the person still plays black, and the engine answers.
    driver.click("#stop");
    let s = server.wait_for("the analysis to stop", |s| s["mode"] == "play" && s["thinking"].is_null());
    assert_eq!(s["human"], "black");
    assert_eq!(driver.script("return document.getElementById('human').value"), "black");
    driver.click_point(0, 0);
    let s = server.wait_for("the engine's answer after Stop", |s| stones(s) == 4 && s["thinking"].is_null());
    assert_eq!(s["moves"][2]["name"], "a1");

    // The chart is the game's: a new game takes it away, on the page too.
    driver.set("charttime", "20");
    driver.click("#chartbtn");
    driver.wait_for("the chart", "return !!document.querySelector('#chart svg')");
    driver.screenshot("3-the-chart.png");
    driver.click("#new");
    driver.wait_for("the chart to go", "return document.getElementById('chart').innerHTML === ''");
    assert!(server.state()["chart"].is_null());
}

/// Item 6: two brains play on the page, each move showing both engines' eval, depth and time, and the
/// game is saved; a running match is followed from its live file, its games listed and the chosen one
/// shown to its end, with its chart.
fn engines_play_and_a_running_match_is_followed(driver: &Driver) {
    let dir = tempfile::tempdir().unwrap();
    let live = dir.path().join("live.txt");
    let bin = env!("CARGO_BIN_EXE_pbrain-quincunx");
    let live_arg = live.display().to_string();
    let server = Server::start(&[
        "--engine", bin, "--name", "one", "--engine", bin, "--name", "two", "--turn", "1000", "--follow",
        &live_arg,
    ]);
    driver.open(&server.url("/"));
    driver.wait_for("the engines listed", "return document.getElementById('duelwhite').options.length === 2");
    assert_eq!(driver.script("return document.getElementById('duelwhite').value"), "1");
    driver.set("duelturn", "150");
    driver.click("#duel");
    let s = server.wait_for("both engines' moves", |s| {
        s["moves"].as_array().is_some_and(|m| m.len() >= 6) && !s["players"][1]["depth"].is_null()
    });
    assert_eq!(
        (&s["players"][0]["name"], &s["players"][1]["name"]),
        (&Value::from("one"), &Value::from("two"))
    );
    driver.wait_for(
        "the players on the page",
        "return document.querySelector('#player1 .told').textContent.includes('depth')",
    );
    driver.screenshot("4-engines-playing.png");
    let s = server.wait_for("the engines' game to end", |s| s["watching"]["live"] == false);
    assert!(!s["ending"].is_null(), "{s}");
    driver.wait_for("its chart", "return !!document.querySelector('#chart svg')");
    assert_eq!(driver.text("#player0 .name"), "one");
    driver.screenshot("5-engines-game-over.png");
    let (status, psq) = server.get("/api/record?format=psq");
    let moves = s["moves"].as_array().unwrap().len();
    assert_eq!((status, psq.lines().skip(1).filter(|l| l.matches(',').count() == 2).count()), (200, moves));
    assert!(psq.contains("\none\ntwo\n"), "{psq}");

    // A match writes its live file as it plays; the page lists its games and follows the one chosen.
    let mut running = std::process::Command::new(bin)
        .args(["match", "--engine", bin, "--engine", bin, "--games", "2", "--turn", "200", "--quiet"])
        .args(["--live", &live_arg, "--psq", &dir.path().join("psq").display().to_string()])
        .stdout(std::process::Stdio::null())
        .spawn()
        .expect("the match starts");
    driver.wait_for(
        "the match's first game listed",
        "return document.querySelectorAll('#games li').length >= 1",
    );
    driver.click("#games li");
    let s = server.wait_for("the followed game", |s| s["watching"]["game"] == 1 && stones(s) > 0);
    assert_eq!(s["watching"]["kind"], "match");
    driver.wait_for("it marked as chosen", "return !!document.querySelector('#games li.chosen')");
    driver.screenshot("6-a-match-followed.png");
    let s = server
        .wait_for("the followed game's end", |s| s["watching"]["live"] == false && !s["ending"].is_null());
    driver.wait_for("its chart", "return !!document.querySelector('#chart svg')");
    driver.screenshot("7-a-match-game-over.png");
    assert!(running.wait().expect("the match ends").success());
    // The board shows the game the match recorded, move for move.
    let psq = std::fs::read_to_string(dir.path().join("psq/game-00001.psq")).unwrap();
    let recorded: Vec<String> = psq
        .lines()
        .skip(1)
        .take_while(|l| l.matches(',').count() == 2)
        .map(|l| {
            let v: Vec<u64> = l.split(',').map(|n| n.parse().unwrap()).collect();
            format!("{},{}", v[0] - 1, v[1] - 1)
        })
        .collect();
    let shown: Vec<String> =
        s["moves"].as_array().unwrap().iter().map(|p| format!("{},{}", p["x"], p["y"])).collect();
    assert_eq!(shown, recorded);
}
