//! The browser board's HTTP API, as the page uses it: a game played to its end against the engine, bad
//! requests refused with nothing changed, records opened and saved, Pente's captures, analysis with
//! its best moves, the chart, another brain behind the board, and Ctrl-C.
#![cfg(feature = "board")]

mod common;

use common::board::Server;
use serde_json::Value;

fn stones(s: &Value) -> usize {
    s["stones"].as_array().map_or(0, Vec::len)
}

/// The first empty point in reading order: the person's moves in a game the engine must win.
fn first_empty(s: &Value) -> (u64, u64) {
    let taken: Vec<(u64, u64)> = s["stones"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| (t[0].as_u64().unwrap(), t[1].as_u64().unwrap()))
        .collect();
    let w = s["width"].as_u64().unwrap();
    (0..w * w).map(|i| (i % w, i / w)).find(|p| !taken.contains(p)).unwrap()
}

#[test]
fn a_game_against_the_engine_is_played_to_its_end() {
    let server = Server::start(&[]);
    let (status, s) =
        server.post("/api/new", r#"{"rule": "freestyle", "size": 15, "human": "black", "time_ms": 50}"#);
    assert_eq!(status, 200, "{s}");
    assert_eq!((s["width"].as_u64(), stones(&s)), (Some(15), 0));
    let (status, s) = server.post("/api/move", r#"{"point": "h8"}"#);
    assert_eq!((status, stones(&s)), (200, 1));
    // The engine answers on its own; the person plays the first empty point each time and loses.
    let mut s = server.wait_for("the engine's answer", |s| stones(s) == 2);
    for _ in 0..60 {
        if !s["ending"].is_null() {
            break;
        }
        let (x, y) = first_empty(&s);
        let n = stones(&s);
        let (status, answer) = server.post("/api/move", &format!(r#"{{"x": {x}, "y": {y}}}"#));
        assert_eq!(status, 200, "{answer}");
        s = server.wait_for("the engine's answer", |s| !s["ending"].is_null() || stones(s) == n + 2);
    }
    let ending = &s["ending"];
    assert_eq!(ending["winner"], "white", "{s}");
    assert_eq!(ending["line"].as_array().map(Vec::len), Some(5));
    // Undo takes back the engine's five and the person's move before it.
    let n = s["moves"].as_array().unwrap().len();
    let (status, s) = server.post("/api/undo", "{}");
    assert_eq!((status, s["moves"].as_array().unwrap().len(), s["ending"].is_null()), (200, n - 2, true));
}

#[test]
fn bad_requests_are_refused_and_change_nothing() {
    let server = Server::start(&[]);
    server.post("/api/new", r#"{"rule": "renju", "human": "both"}"#);
    server.post("/api/move", r#"{"point": "h8"}"#);
    let before = server.state();
    for (path, body) in [
        ("/api/move", r#"{"point": "h8"}"#),
        ("/api/move", r#"{"x": 15, "y": 3}"#),
        ("/api/move", r#"{"x": -1, "y": 3}"#),
        ("/api/move", r#"{"point": "zz99"}"#),
        ("/api/move", r#"{"x": 1}"#),
        ("/api/move", "not json"),
        ("/api/move", r#"{"x": 1, "y": 1, "colour": "red"}"#),
        ("/api/new", r#"{"rule": "chess"}"#),
        ("/api/new", r#"{"rule": "freestyle", "size": 500}"#),
        ("/api/new", r#"{"rule": "renju", "line": 6}"#),
        ("/api/goto", r#"{"ply": 7}"#),
        ("/api/undo", "{}"),
        ("/api/undo", "{}"),
        ("/api/mode", r#"{"mode": "analyse", "nbest": 0}"#),
        ("/api/setup", r#"{"point": "a1", "stone": "green"}"#),
        ("/api/record", r#"{"text": "(;GM[4]SZ[15];B[hh];W[hh])"}"#),
        ("/api/chart", r#"{"time_ms": 0}"#),
    ] {
        let (status, answer) = server.post(path, body);
        let state = server.state();
        if path == "/api/undo" && status == 200 {
            // The one move there was is taken back: play it again for the next case.
            server.post("/api/move", r#"{"point": "h8"}"#);
            continue;
        }
        assert!((400..500).contains(&status), "{path} {body}: {status} {answer}");
        assert_eq!(
            (state["moves"].clone(), state["stones"].clone()),
            (before["moves"].clone(), before["stones"].clone()),
            "{path} {body}"
        );
    }
    let (status, _) = server.get("/api/record?format=doc");
    assert_eq!(status, 400);
    let (status, _) = server.get("/no/such/page");
    assert_eq!(status, 404);
}

#[test]
fn records_are_opened_and_saved() {
    let server = Server::start(&[]);
    let sgf = "(;GM[4]FF[4]SZ[15]RU[1]PB[one]PW[two];B[hh];W[ii];B[ih])";
    let (status, s) = server.post_record(sgf);
    assert_eq!(status, 200, "{s}");
    assert_eq!((s["rule"].as_str(), s["cursor"].as_u64(), stones(&s)), (Some("exact"), Some(3), 3));
    let (status, psq) = server.get("/api/record?format=psq");
    assert_eq!(status, 200);
    assert!(psq.starts_with("Piskvorky 15x15") && psq.contains("8,8,0\n9,9,0\n9,8,0\none\ntwo"), "{psq}");
    let (_, pos) = server.get("/api/record?format=pos");
    assert_eq!(pos.trim(), "h8i9i8");
    // Stepping back and forth keeps the game; a move played back there starts a new line.
    let (_, s) = server.post("/api/goto", r#"{"ply": 1}"#);
    assert_eq!((s["cursor"].as_u64(), s["moves"].as_array().unwrap().len()), (Some(1), 3));
    // A PSQ and a move list open too.
    let (status, s) = server.post_record("Piskvorky 15x15, 11:11, 0\n8,8,0\n9,9,0\n-1\n");
    assert_eq!((status, stones(&s)), (200, 2));
    let (status, s) = server.post_record("h8i9j10");
    assert_eq!((status, stones(&s)), (200, 3));
}

#[test]
fn pente_counts_captures() {
    let server = Server::start(&[]);
    let (status, s) = server.post("/api/new", r#"{"rule": "pente", "human": "both"}"#);
    assert_eq!((status, s["width"].as_u64(), s["pente"].as_bool()), (200, Some(19), Some(true)));
    // The first player's second stone must keep 3 points from the centre (the tournament rule).
    for m in ["j10", "k10"] {
        assert_eq!(server.post("/api/move", &format!(r#"{{"point": "{m}"}}"#)).0, 200);
    }
    assert_eq!(server.post("/api/move", r#"{"point": "j11"}"#).0, 400);
    for m in ["j4", "l10", "m10"] {
        assert_eq!(server.post("/api/move", &format!(r#"{{"point": "{m}"}}"#)).0, 200);
    }
    let s = server.state();
    assert_eq!((s["captures"][0].as_u64(), stones(&s)), (Some(2), 3), "{s}");
}

#[test]
fn analysis_lists_the_best_moves_until_stopped_and_the_chart_follows_the_game() {
    let server = Server::start(&[]);
    server.post_record("h8i9h9i8h10");
    let (status, _) = server.post("/api/mode", r#"{"mode": "analyse", "nbest": 2}"#);
    assert_eq!(status, 200);
    let s = server.wait_for("two best moves", |s| s["lines"].as_array().is_some_and(|l| l.len() == 2));
    assert_eq!(s["thinking"], "analysis");
    // White must block the three: its best moves are at the ends of h8-h10.
    let best = &s["lines"][0]["mv"]["name"];
    assert!(best == "h7" || best == "h11", "{s}");
    let (_, s) = server.post("/api/stop", "{}");
    assert!(s["thinking"].is_null() && s["mode"] == "play", "{s}");
    let (status, _) = server.post("/api/chart", r#"{"time_ms": 20}"#);
    assert_eq!(status, 200);
    let s = server.wait_for("the chart", |s| !s["chart"].is_null());
    assert_eq!(s["chart"]["moves"].as_u64(), Some(5));
    assert!(s["chart"]["svg"].as_str().unwrap().starts_with("<svg"));
    // The chart is the game's: a new game, an opened record or a set-up stone takes it away.
    for (path, body) in [
        ("/api/new", r#"{"rule": "renju", "human": "both"}"#),
        ("/api/record", r#"{"text": "h8i9j10"}"#),
        ("/api/setup", r#"{"point": "a1", "stone": "black"}"#),
    ] {
        server.post_record("h8i9h9");
        server.post("/api/chart", r#"{"time_ms": 20}"#);
        server.wait_for("a chart", |s| !s["chart"].is_null());
        let (status, s) = server.post(path, body);
        assert_eq!((status, &s["chart"]), (200, &Value::Null), "{path}: {s}");
    }
}

#[test]
fn closing_the_last_page_stops_the_thought_and_ctrl_c_the_server() {
    let server = Server::start(&[]);
    let page = server.open_events();
    server.post_record("h8i9h9");
    server.post("/api/mode", r#"{"mode": "analyse"}"#);
    server.wait_for("the analysis", |s| s["thinking"] == "analysis" && !s["best"].is_null());
    drop(page);
    let s = server.wait_for("the analysis to stop", |s| s["thinking"].is_null());
    assert_eq!(s["mode"], "analyse");
    // A page that comes back starts it again.
    let _page = server.open_events();
    server.wait_for("the analysis again", |s| s["thinking"] == "analysis");
    let status = server.interrupt();
    assert!(status.success(), "Ctrl-C stops the board cleanly: {status}");
}

#[test]
fn another_brain_plays_behind_the_board_and_ctrl_c_stops_the_server() {
    let server = Server::start(&["--engine", env!("CARGO_BIN_EXE_pbrain-quincunx")]);
    let s = server.state();
    assert!(s["engine"].as_str().unwrap().contains("pbrain-quincunx"));
    server.post("/api/new", r#"{"rule": "exact", "human": "white", "time_ms": 100}"#);
    let s = server.wait_for("the brain's first move", |s| stones(s) == 1);
    assert_eq!(s["to_move"], "white");
    // Its analysis lists the best moves by YXNBEST.
    server.post("/api/mode", r#"{"mode": "analyse", "nbest": 2}"#);
    server.wait_for("the brain's two best moves", |s| s["lines"].as_array().is_some_and(|l| l.len() == 2));
    let status = server.interrupt();
    assert!(status.success(), "Ctrl-C stops the board cleanly: {status}");
}

/// Another site's page may send requests to the board (a form, a `text/plain` fetch), and a name of
/// its own may resolve to 127.0.0.1 (DNS rebinding): the board refuses both, and changes nothing,
/// while its own page's requests work.
#[test]
fn only_the_board_s_own_page_may_change_the_game() {
    let server = Server::start(&[]);
    server.post("/api/new", r#"{"rule": "freestyle", "size": 15, "human": "both"}"#);
    server.post("/api/move", r#"{"point": "h8"}"#);
    let before = server.state();
    let addr = server.addr().to_string();
    let own = format!("Host: {addr}\r\n");
    let record = r#"{"text": "h8i9j10"}"#;
    for (what, head, body, want) in [
        (
            "another Origin",
            format!(
                "POST /api/record HTTP/1.1\r\n{own}Origin: http://evil.example\r\nContent-Type: application/json\r\n"
            ),
            record,
            403,
        ),
        (
            "another Origin, no body",
            format!("POST /api/undo HTTP/1.1\r\n{own}Origin: http://evil.example\r\n"),
            "",
            403,
        ),
        (
            "a text/plain body",
            format!("POST /api/record HTTP/1.1\r\n{own}Content-Type: text/plain\r\n"),
            "h8i9j10",
            415,
        ),
        (
            "a form",
            format!("POST /api/move HTTP/1.1\r\n{own}Content-Type: application/x-www-form-urlencoded\r\n"),
            "point=a1",
            415,
        ),
        (
            "another Origin setting engines to play",
            format!(
                "POST /api/duel HTTP/1.1\r\n{own}Origin: http://evil.example\r\nContent-Type: application/json\r\n"
            ),
            r#"{"black": 0, "white": 0, "rule": "freestyle"}"#,
            403,
        ),
        (
            "a text/plain body choosing a match's game",
            format!("POST /api/follow HTTP/1.1\r\n{own}Content-Type: text/plain\r\n"),
            r#"{"game": 1}"#,
            415,
        ),
        (
            "a foreign Host reading a match",
            "GET /api/match HTTP/1.1\r\nHost: rebound.example:8080\r\n".into(),
            "",
            403,
        ),
        ("a foreign Host", "POST /api/undo HTTP/1.1\r\nHost: evil.example:80\r\n".into(), "", 403),
        (
            "a foreign Host reading",
            "GET /api/state HTTP/1.1\r\nHost: rebound.example:8080\r\n".into(),
            "",
            403,
        ),
        ("no Host", "GET /api/state HTTP/1.0\r\n".into(), "", 403),
    ] {
        let (status, answer) = common::board::exchange(&addr, &head, body);
        assert_eq!(status, want, "{what}: {answer}");
        let now = server.state();
        assert_eq!((&now["moves"], &now["stones"]), (&before["moves"], &before["stones"]), "{what}");
    }
    // The page's own requests: its Origin, JSON; localhost names the same server.
    let port = addr.rsplit_once(':').map(|(_, p)| p).unwrap();
    for host in [addr.clone(), format!("localhost:{port}")] {
        let head = format!(
            "POST /api/undo HTTP/1.1\r\nHost: {host}\r\nOrigin: http://{host}\r\nContent-Type: application/json\r\n"
        );
        let (status, answer) = common::board::exchange(&addr, &head, "{}");
        assert_eq!(status, 200, "{host}: {answer}");
        server.post("/api/move", r#"{"point": "h8"}"#);
    }
    let status = server.terminate();
    assert!(status.success(), "SIGTERM stops the board cleanly: {status}");
}

/// Stop ends an analysis, not the game: the person's side stays theirs and the engine answers again.
#[test]
fn stop_after_an_analysis_keeps_the_game_as_it_was() {
    let server = Server::start(&[]);
    server.post("/api/new", r#"{"rule": "freestyle", "size": 15, "human": "black", "time_ms": 50}"#);
    server.post("/api/move", r#"{"point": "h8"}"#);
    server.wait_for("the engine's answer", |s| stones(s) == 2 && s["thinking"].is_null());
    server.post("/api/mode", r#"{"mode": "analyse"}"#);
    server.wait_for("the analysis", |s| s["thinking"] == "analysis");
    let (status, s) = server.post("/api/stop", "{}");
    assert_eq!((status, &s["mode"], &s["human"]), (200, &Value::from("play"), &Value::from("black")), "{s}");
    let (status, s) =
        server.post("/api/move", &format!(r#"{{"x": {}, "y": {}}}"#, first_empty(&s).0, first_empty(&s).1));
    assert_eq!(status, 200, "{s}");
    server.wait_for("the engine's next answer", |s| stones(s) == 4);
}

/// The eval bar follows the game: the engine's evaluation stays while it plays, and a won game stands
/// at the bar's end.
#[test]
fn the_evaluation_stays_while_the_game_goes_on_and_a_win_ends_at_the_bar_s_end() {
    let server = Server::start(&[]);
    server.post("/api/new", r#"{"rule": "freestyle", "size": 15, "human": "black", "time_ms": 50}"#);
    server.post("/api/move", r#"{"point": "h8"}"#);
    let s = server.wait_for("the engine's answer", |s| stones(s) == 2 && s["thinking"].is_null());
    assert!(s["eval"].is_i64(), "the engine's move leaves its evaluation: {s}");
    server.post_record("h8a1i8a2j8a3k8a4l8");
    let s = server.state();
    assert!(!s["ending"].is_null(), "{s}");
    assert!(s["eval"].as_i64().is_some_and(|v| v >= 1000), "black has won: {s}");
}

/// The server with two copies of our brain to set against each other, as `one` and `two`.
fn two_brains(extra: &[&str]) -> Server {
    let bin = env!("CARGO_BIN_EXE_pbrain-quincunx");
    let mut args = vec!["--engine", bin, "--name", "one", "--engine", bin, "--name", "two"];
    args.extend_from_slice(extra);
    Server::start(&args)
}

fn move_count(s: &Value) -> usize {
    s["moves"].as_array().map_or(0, Vec::len)
}

/// Two brains play on the board by the clock asked for, each move with its engine's eval, depth and
/// time; nothing changes their game by hand while it goes on; it ends with its chart and is saved.
#[test]
fn two_brains_play_each_other_on_the_board_and_the_game_is_saved() {
    let server = two_brains(&["--turn", "5000"]);
    let (status, s) = server
        .post("/api/duel", r#"{"black": 0, "white": 1, "rule": "freestyle", "size": 15, "turn_ms": 100}"#);
    assert_eq!(status, 200, "{s}");
    assert_eq!(
        (&s["thinking"], &s["watching"]["kind"], &s["watching"]["live"]),
        (&Value::from("duel"), &Value::from("duel"), &Value::from(true))
    );
    let s = server.wait_for("four moves", |s| move_count(s) >= 4);
    for (path, body) in [
        ("/api/move", r#"{"point": "a1"}"#),
        ("/api/undo", "{}"),
        ("/api/mode", r#"{"mode": "analyse"}"#),
        ("/api/setup", r#"{"point": "a1", "stone": "black"}"#),
        ("/api/chart", "{}"),
    ] {
        let (status, _) = server.post(path, body);
        assert_eq!(status, 400, "{path} during the engines' game");
    }
    assert!(
        server.state()["stones"]
            .as_array()
            .unwrap()
            .iter()
            .all(|t| (t[0].as_u64(), t[1].as_u64()) != (Some(0), Some(0))),
        "{s}"
    );
    // Stepping back is only looking: the game goes on, and the board stays where the person looks.
    let (status, s) = server.post("/api/goto", r#"{"ply": 1}"#);
    assert_eq!((status, s["cursor"].as_u64()), (200, Some(1)));
    let s = server.wait_for("the end of the game", |s| s["watching"]["live"] == false);
    assert_eq!(s["cursor"].as_u64(), Some(1));
    let (_, s) = server.post("/api/goto", &format!(r#"{{"ply": {}}}"#, move_count(&s)));
    assert!(!s["ending"].is_null(), "{s}");
    let players = &s["players"];
    assert_eq!((&players[0]["name"], &players[1]["name"]), (&Value::from("one"), &Value::from("two")));
    for p in players.as_array().unwrap() {
        // Each answer within its 100 ms and the tolerance, the time of all its moves added up.
        assert!(
            p["ms"].as_u64().is_some_and(|ms| ms <= 600) && p["used_ms"].as_u64() >= p["ms"].as_u64(),
            "{p}"
        );
        assert!(p["depth"].is_i64(), "{p}");
    }
    assert_eq!(s["chart"]["moves"].as_u64(), Some(move_count(&s) as u64));
    // The record has the engines' names, every move and its time.
    let (status, psq) = server.get("/api/record?format=psq");
    assert_eq!(status, 200);
    let lines: Vec<&str> = psq.lines().collect();
    assert_eq!(&lines[1 + move_count(&s)..1 + move_count(&s) + 2], ["one", "two"], "{psq}");
    let winner = s["ending"]["winner"].as_str().map_or("draw".to_string(), |w| format!("({w}) wins"));
    assert!(lines[3 + move_count(&s)].contains(&winner), "{psq}");
    // The board is the person's again.
    let (status, _) = server.post("/api/new", r#"{"rule": "freestyle", "human": "both"}"#);
    assert_eq!(status, 200);
    assert_eq!(server.post("/api/move", r#"{"point": "h8"}"#).0, 200);
}

/// Stop ends the engines' game after the answer under way; a new game ends it too.
#[test]
fn stop_ends_the_engines_game_and_the_board_is_free_again() {
    let server = two_brains(&["--turn", "300"]);
    server.post_record("h8i9");
    let (status, s) = server.post("/api/duel", r#"{"black": 1, "white": 0, "from_here": true}"#);
    assert_eq!(status, 200, "{s}");
    assert_eq!((move_count(&s), &s["players"][0]["name"]), (2, &Value::from("two")));
    server.wait_for("a move of theirs", |s| move_count(s) >= 3);
    let (status, _) = server.post("/api/stop", "{}");
    assert_eq!(status, 200);
    let s =
        server.wait_for("the game to stop", |s| s["watching"]["live"] == false && s["thinking"].is_null());
    assert!(s["ending"].is_null(), "a stopped game has no result: {s}");
    let n = move_count(&s);
    std::thread::sleep(std::time::Duration::from_millis(800));
    assert_eq!(move_count(&server.state()), n, "no move after Stop");
    assert_eq!(server.post("/api/undo", "{}").0, 200);
    // A new game while they play ends their game: its moves go with it.
    server.post("/api/duel", r#"{"black": 0, "white": 1, "rule": "renju"}"#);
    server.wait_for("their first move", |s| move_count(s) >= 1);
    let (status, s) = server.post("/api/new", r#"{"rule": "freestyle", "human": "both"}"#);
    assert_eq!((status, move_count(&s), &s["watching"]), (200, 0, &Value::Null));
    std::thread::sleep(std::time::Duration::from_millis(800));
    assert_eq!(move_count(&server.state()), 0);
}

#[test]
fn a_game_of_brains_that_cannot_be_played_is_refused_and_changes_nothing() {
    let server = two_brains(&[]);
    server.post_record("h8i9h9");
    let before = server.state();
    for body in [
        r#"{"black": 0, "white": 2, "rule": "freestyle"}"#,
        r#"{"black": 0, "white": 1}"#,
        r#"{"black": 0, "white": 1, "rule": "chess"}"#,
        r#"{"black": 0, "white": 1, "rule": "freestyle", "turn_ms": 0, "game_ms": 0}"#,
        r#"{"black": 0, "white": 1, "rule": "freestyle", "turn_ms": 99999999999}"#,
        r#"{"black": 0, "white": 1, "from_here": true, "size": 19}"#,
        r#"{"black": -1, "white": 1, "rule": "freestyle"}"#,
        r#"{"black": 0, "white": 1, "rule": "freestyle", "colour": "red"}"#,
    ] {
        let (status, answer) = server.post("/api/duel", body);
        assert!((400..500).contains(&status), "{body}: {status} {answer}");
        let now = server.state();
        assert_eq!(
            (&now["moves"], &now["watching"], &now["thinking"]),
            (&before["moves"], &Value::Null, &Value::Null),
            "{body}"
        );
    }
    // A won game, and set-up stones, are no place to start from.
    server.post_record("h8a1i8a2j8a3k8a4l8");
    assert_eq!(server.post("/api/duel", r#"{"black": 0, "white": 1, "from_here": true}"#).0, 400);
    server.post("/api/setup", r#"{"point": "a1", "stone": "black"}"#);
    assert_eq!(server.post("/api/duel", r#"{"black": 0, "white": 1, "from_here": true}"#).0, 400);
    // Without two brains there is no one to play, and no match is followed.
    let plain = Server::start(&[]);
    assert_eq!(plain.post("/api/duel", r#"{"black": 0, "white": 1, "rule": "freestyle"}"#).0, 400);
    assert_eq!(plain.get("/api/match").0, 404);
    assert_eq!(plain.post("/api/follow", r#"{"game": 1}"#).0, 400);
}

/// A live file written line by line, as `match --live` writes it: the page lists its games and the
/// chosen one grows on the board until its end, with the chart of its engines' evaluations.
#[test]
fn a_match_is_followed_from_its_live_file_as_it_grows() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("live.txt");
    let server = Server::start(&["--follow", path.to_str().unwrap()]);
    let s = server.state();
    assert_eq!((&s["follow"]["missing"], &s["follow"]["games"]), (&Value::from(true), &Value::from(0)));
    let append = |text: &str| {
        use std::io::Write;
        let mut f = std::fs::OpenOptions::new().create(true).append(true).open(&path).unwrap();
        f.write_all(text.as_bytes()).unwrap();
    };
    let game = |n: u32, rule: &str, opening: &str, black: &str, white: &str| {
        format!(
            r#"{{"event":"game","game":{n},"rule":"{rule}","line":5,"width":15,"height":15,"opening":"{opening}","black":"{black}","white":"{white}"}}"#
        )
    };
    let mv = |n: u32, point: &str, ms: u32, eval: &str, depth: &str| {
        format!(r#"{{"event":"move","game":{n},"point":"{point}","ms":{ms},"eval":{eval},"depth":{depth}}}"#)
    };
    append(&format!(
        "{}\n{}\n",
        r#"{"format":"quincunx-live","version":2}"#,
        game(1, "freestyle", "h8i9", "one", "two")
    ));
    // The move after them arrives in two pieces.
    let j10 = mv(1, "j10", 400, r#""10""#, "7");
    let (next, last) = j10.split_at(40);
    append(&format!(
        "{}\n{}\n{}\n{}\n{next}",
        mv(1, "h9", 40, r#""35""#, "9"),
        mv(1, "g10", 50, r#""-20""#, "8"),
        game(2, "renju", "", "two", "one"),
        mv(2, "h8", 1, r#""0""#, "0"),
    ));
    let s = server.wait_for("two games", |s| s["follow"]["games"] == 2);
    assert_eq!(s["follow"]["missing"], false);
    let (status, list) = server.get("/api/match");
    let list: Value = serde_json::from_str(&list).unwrap();
    assert_eq!(status, 200);
    let games = list["games"].as_array().unwrap();
    assert_eq!(
        (games[0]["number"].as_u64(), games[0]["moves"].as_u64(), &games[0]["over"]),
        (Some(1), Some(4), &Value::from(false))
    );
    assert_eq!((&games[1]["black"], &games[1]["white"]), (&Value::from("two"), &Value::from("one")));
    let (status, s) = server.post("/api/follow", r#"{"game": 1}"#);
    assert_eq!(status, 200, "{s}");
    assert_eq!(
        (move_count(&s), &s["watching"]["live"], &s["watching"]["game"]),
        (4, &Value::from(true), &Value::from(1))
    );
    assert_eq!(
        (&s["players"][0]["eval"], &s["players"][0]["depth"], &s["players"][1]["ms"]),
        (&Value::from("35"), &Value::from(9), &Value::from(50))
    );
    // Black's 35 after its move: the bar leans to black; white's -20 is then black's +20.
    assert_eq!(s["eval"].as_i64(), Some(20));
    assert_eq!(server.post("/api/move", r#"{"point": "a1"}"#).0, 400);
    // The rest of a line counts once it is complete; the board follows the game to its end.
    append(&format!("{last}\n{}\n", mv(1, "i10", 1, r#""+W3""#, "0")));
    let s = server.wait_for("the next moves", |s| move_count(s) == 6);
    assert_eq!((&s["moves"][4]["name"], s["cursor"].as_u64()), (&Value::from("j10"), Some(6)));
    append(r#"{"event":"end","game":1,"winner":"white","reason":"white: no answer in time"}"#);
    append("\n");
    let s = server.wait_for("the end", |s| s["watching"]["live"] == false);
    assert_eq!(
        (&s["ending"]["winner"], &s["ending"]["reason"]),
        (&Value::from("white"), &Value::from("white: no answer in time"))
    );
    assert_eq!(s["chart"]["moves"].as_u64(), Some(6));
    let (_, list) = server.get("/api/match");
    assert!(list.contains("\"over\":true"), "{list}");
    // A game not in the file, or a bad line, is told; the game shown stays.
    assert_eq!(server.post("/api/follow", r#"{"game": 7}"#).0, 400);
    append(&format!("{}\n", mv(2, "h8", 1, "null", "null")));
    let s = server.wait_for("the bad line told", |s| s["follow"]["error"].is_string());
    assert!(s["follow"]["error"].as_str().unwrap().starts_with("line 10"), "{s}");
    assert_eq!(move_count(&s), 6);
}

/// A real match writes its live file as it plays; the board follows its first game to the end, move
/// for move as the match recorded it.
#[test]
fn a_running_match_is_followed_to_the_end_of_its_game() {
    let dir = tempfile::tempdir().unwrap();
    let (live, psq) = (dir.path().join("live.txt"), dir.path().join("psq"));
    let server = Server::start(&["--follow", live.to_str().unwrap()]);
    let bin = env!("CARGO_BIN_EXE_pbrain-quincunx");
    let mut running = std::process::Command::new(bin)
        .args(["match", "--engine", bin, "--engine", bin, "--games", "2", "--turn", "100", "--quiet"])
        .args(["--live", live.to_str().unwrap(), "--psq", psq.to_str().unwrap()])
        .stdout(std::process::Stdio::null())
        .spawn()
        .expect("the match starts");
    server.wait_for("the first game", |s| s["follow"]["games"].as_u64() >= Some(1));
    let (status, s) = server.post("/api/follow", r#"{"game": 1}"#);
    assert_eq!(status, 200, "{s}");
    let s = server.wait_for("its end", |s| s["watching"]["live"] == false);
    assert!(running.wait().unwrap().success());
    let record = std::fs::read_to_string(psq.join("game-00001.psq")).unwrap();
    let recorded: Vec<(u64, u64)> = record
        .lines()
        .skip(1)
        .take_while(|l| l.matches(',').count() == 2)
        .map(|l| {
            let v: Vec<u64> = l.split(',').map(|n| n.parse().unwrap()).collect();
            (v[0] - 1, v[1] - 1)
        })
        .collect();
    let shown: Vec<(u64, u64)> = s["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["x"].as_u64().unwrap(), p["y"].as_u64().unwrap()))
        .collect();
    assert_eq!(shown, recorded);
    assert!(!s["ending"].is_null() && !s["chart"].is_null(), "{s}");
}
