//! The command line behaves like a well-kept Unix tool: `--version`, `--help` of every subcommand on
//! stdout with status 0, and a mistake answered by one `Error:` line and a usage hint on stderr with
//! status 2, never a backtrace (even with `RUST_BACKTRACE=1`).

use std::process::{Command, Output, Stdio};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pbrain-quincunx"))
        .args(args)
        .env("RUST_BACKTRACE", "1")
        .stdin(Stdio::null())
        .output()
        .expect("the binary starts")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A command-line mistake: status 2, nothing on stdout, exactly one `Error:` line and a usage hint.
fn assert_usage_error(args: &[&str]) {
    let o = run(args);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
    assert!(o.stdout.is_empty(), "{args:?} printed on stdout: {}", stdout(&o));
    let err = stderr(&o);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.iter().filter(|l| l.starts_with("Error: ")).count(), 1, "{args:?}: {err}");
    assert!(lines.len() <= 3, "{args:?}: a short message, not a usage dump or a backtrace: {err}");
    assert!(!err.contains("backtrace") && !err.contains("stack"), "{args:?}: {err}");
}

#[test]
fn version() {
    for flag in ["--version", "-V"] {
        let o = run(&[flag]);
        assert!(o.status.success());
        assert_eq!(stdout(&o).trim(), format!("pbrain-quincunx {}", env!("CARGO_PKG_VERSION")));
    }
}

#[test]
fn every_help_prints_its_usage_and_succeeds() {
    for args in [
        &["--help"][..],
        &["-h"],
        &["bench", "--help"],
        &["script", "--help"],
        &["play", "--help"],
        &["match", "--help"],
        &["analyze", "--help"],
    ] {
        let o = run(args);
        assert!(o.status.success(), "{args:?}");
        assert!(stdout(&o).starts_with("usage: pbrain-quincunx"), "{args:?}: {}", stdout(&o));
    }
}

#[test]
fn mistakes_are_one_error_line_and_status_2() {
    assert_usage_error(&["--bogus"]);
    assert_usage_error(&["--player", "nobody"]);
    assert_usage_error(&["--threads", "0"]);
    assert_usage_error(&["--threads"]);
    assert_usage_error(&["bench", "1", "2"]);
    assert_usage_error(&["bench", "zero"]);
    assert_usage_error(&["bench", "0"]);
    assert_usage_error(&["bench", "--threads", "0"]);
    assert_usage_error(&["bench", "--positions", "no/such/file.txt"]);
    assert_usage_error(&["bench", "--rule", "64"]);
    assert_usage_error(&["match", "--engine", "a", "--engine", "b", "--variant", "gomoku-ish"]);
    assert_usage_error(&["match", "--engine", "a", "--engine", "b", "--threads", "0"]);
    assert_usage_error(&["match", "--engine", "a"]);
    assert_usage_error(&["match", "--bogus"]);
    assert_usage_error(&["play", "--rules", "gomoku"]);
    assert_usage_error(&["play", "--threads", "0"]);
    assert_usage_error(&["play", "--size", "40"]);
    assert_usage_error(&["play", "--bogus"]);
    assert_usage_error(&["script", "--bogus"]);
    assert_usage_error(&["script"]);
    assert_usage_error(&["analyze"]);
    assert_usage_error(&["analyze", "--time", "0", "game.sgf"]);
}

#[test]
fn play_and_match_name_the_same_games() {
    // Every name play lists is a game match --variant plays, and the other way round.
    let play_help = stdout(&run(&["play", "--help"]));
    let match_help = stdout(&run(&["match", "--help"]));
    let err = stderr(&run(&["play", "--rules", "gomoku"]));
    for name in ["freestyle", "exact", "renju", "caro", "caro-exact", "pente", "keryo", "gpente"] {
        assert!(play_help.contains(name), "play --help lacks {name}");
        assert!(match_help.contains(name), "match --help lacks {name}");
        assert!(err.contains(name), "play's error does not list {name}: {err}");
    }
}

/// `bench --positions`: time to depth on a file of positions, with any number of threads; a line
/// that is not a game names its line number.
#[test]
fn bench_searches_a_file_of_positions() {
    let dir = std::env::temp_dir().join(format!("qx-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("good.txt");
    std::fs::write(&good, "# two positions\nh8i9j10\n\nh8h9i8i9\n").unwrap();
    for threads in ["1", "2"] {
        let o = run(&["bench", "3", "--threads", threads, "--positions", good.to_str().unwrap()]);
        assert!(o.status.success(), "{}", stderr(&o));
        let out = stdout(&o);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 3, "one line a position and the total: {out}");
        assert!(lines[0].starts_with("rule 0 15x15 h8i9j10: best "), "{out}");
        assert!(lines[2].starts_with("nodes "), "{out}");
    }
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "h8i9\nh8h8\n").unwrap();
    let o = run(&["bench", "--positions", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    std::fs::remove_dir_all(&dir).ok();
}

/// `--threads 4` searches on four threads even where the process may use one core: the helpers run
/// beside the main thread and their table entries change its node count, where helpers queued behind
/// it would leave the count exactly one thread's.
#[test]
fn four_threads_search_at_once_on_one_core() {
    let nodes = |threads: &str| {
        let o = Command::new("taskset")
            .args(["-c", "0", env!("CARGO_BIN_EXE_pbrain-quincunx"), "bench", "11", "--threads", threads])
            .stdin(Stdio::null())
            .output()
            .expect("taskset (util-linux) starts the binary");
        assert!(o.status.success(), "{}", stderr(&o));
        let out = stdout(&o);
        let last = out.lines().last().unwrap_or_default().to_string();
        last.split_whitespace().nth(1).and_then(|n| n.parse::<u64>().ok()).expect("nodes N nps M time T ms")
    };
    assert_ne!(nodes("4"), nodes("1"));
}
