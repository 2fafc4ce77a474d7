//! The command line behaves like a well-kept Unix tool: `--version`, `--help` of every subcommand on
//! stdout with status 0, and a mistake answered by one `Error:` line and a usage hint on stderr with
//! status 2, never a backtrace (even with `RUST_BACKTRACE=1`).

mod common;

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
    assert_usage_error(&["match", "--engine", "a", "--engine", "b", "--rule", "gomoku-ish"]);
    assert_usage_error(&["match", "--engine", "a", "--engine", "b", "--threads", "0"]);
    assert_usage_error(&["match", "--engine", "a"]);
    assert_usage_error(&["match", "--engine", "a", "--engine", "b", "--nodes", "1,2,3"]);
    assert_usage_error(&["match", "--engine", "a", "--engine", "b", "--nodes", "1,x"]);
    assert_usage_error(&["match", "--bogus"]);
    assert_usage_error(&["play", "--rule", "gomoku"]);
    assert_usage_error(&["play", "--threads", "0"]);
    assert_usage_error(&["play", "--size", "40"]);
    assert_usage_error(&["play", "--bogus"]);
    assert_usage_error(&["script", "--bogus"]);
    assert_usage_error(&["script"]);
    assert_usage_error(&["analyze"]);
    assert_usage_error(&["analyze", "--time", "0", "game.sgf"]);
    assert_usage_error(&["params", "--bogus"]);
    // bench's game options are those of --positions: alone they would change nothing.
    assert_usage_error(&["bench", "--rule", "renju"]);
    assert_usage_error(&["bench", "--size", "20"]);
}

/// `--threads` takes at most what `INFO thread_num` takes (256), in the brain and every subcommand.
#[test]
fn threads_are_capped_alike_everywhere() {
    assert_usage_error(&["--threads", "100000"]);
    assert_usage_error(&["--threads", "257"]);
    assert_usage_error(&["bench", "--threads", "257"]);
    assert_usage_error(&["play", "--threads", "257"]);
    assert_usage_error(&["analyze", "--threads", "257", "game.sgf"]);
    assert_usage_error(&["match", "--engine", "a", "--engine", "b", "--threads", "257"]);
    assert_usage_error(&["serve", "--threads", "257"]);
    let o = run(&["bench", "1", "--threads", "256"]);
    assert!(o.status.success(), "{}", stderr(&o));
}

/// What `--help` lists is what the command takes: `bench` its search options, `match` a move's
/// time as `--time`, as every subcommand names it (`--turn` still read, for one release).
#[test]
fn help_lists_what_the_command_takes() {
    let bench = stdout(&run(&["bench", "--help"]));
    for flag in ["--set", "--weights", "--threads", "--positions", "--rule"] {
        assert!(bench.contains(flag), "bench --help lacks {flag}");
    }
    let help = stdout(&run(&["match", "--help"]));
    assert!(help.lines().any(|l| l.trim_start().starts_with("--time")), "{help}");
    assert!(help.contains("--turn"), "the alias is told: {help}");
    for time in ["--time", "--turn"] {
        // Neither a move's time nor a game's: refused before any engine starts.
        assert_usage_error(&["match", "--engine", "a", "--engine", "b", time, "0", "--game", "0"]);
    }
}

#[test]
fn play_and_match_name_the_same_games() {
    // Every name play lists is a game match --rule plays, and the other way round.
    let play_help = stdout(&run(&["play", "--help"]));
    let match_help = stdout(&run(&["match", "--help"]));
    let err = stderr(&run(&["play", "--rule", "gomoku"]));
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
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good.txt");
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
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "h8i9\nh8h8\n").unwrap();
    let o = run(&["bench", "--positions", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
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

/// The one `Error:` line of a command-line mistake (see [`assert_usage_error`]).
fn error_line(args: &[&str]) -> String {
    assert_usage_error(args);
    let err = stderr(&run(args));
    err.lines().find(|l| l.starts_with("Error: ")).unwrap_or_default().to_string()
}

#[test]
fn an_unknown_option_names_the_nearest_one() {
    for (args, meant) in [
        (&["play", "--rulez", "renju"][..], "--rule"),
        (&["match", "--engine", "a", "--engine", "b", "--tme", "100"], "--time"),
        (&["openings", "--cuont", "3"], "--count"),
        (&["analyze", "--szie", "15", "game.txt"], "--size"),
        (&["bench", "--thread", "2"], "--threads"),
        (&["--playr", "weights"], "--player"),
    ] {
        let line = error_line(args);
        assert!(line.contains(&format!(" {meant}?")), "{args:?}: {line}");
    }
    // Nothing near: no guess.
    assert!(!error_line(&["play", "--colour", "red"]).contains('?'));
}

#[test]
fn every_game_subcommand_takes_rule_by_code_or_name_and_size_alike() {
    // `play` and `openings` take a name or a code after --rule (old spellings too, unlisted).
    for rule in [&["--rule", "renju"][..], &["--rule", "4"], &["--rules", "renju"], &["--variant", "renju"]] {
        let o = run(&[&["openings", "--count", "1", "--seed", "1", "--size", "9x11"], rule].concat());
        assert!(o.status.success(), "{rule:?}: {}", stderr(&o));
        assert!(stderr(&o).starts_with("1 opening for renju on 9x11,"), "{rule:?}: {}", stderr(&o));
        let o = run(&[&["play", "--size", "9", "--depth", "1", "--seed", "1"], rule].concat());
        assert!(o.status.success(), "{rule:?}: {}", stderr(&o));
        assert!(stdout(&o).contains("a tournament of renju on 9x9"), "{rule:?}: {}", stdout(&o));
    }
    // The Pente family is on 19x19 unless told, in every subcommand.
    let o = run(&["openings", "--count", "1", "--seed", "1", "--rule", "pente"]);
    assert!(stderr(&o).contains(" on 19x19,"), "{}", stderr(&o));
    let o = run(&["play", "--rule", "pente", "--depth", "1", "--seed", "1"]);
    assert!(stdout(&o).contains(" on 19x19 "), "{}", stdout(&o));
    // A board's side is 5 to 32 everywhere, given the same way.
    for cmd in [&["openings", "--count", "1"][..], &["play"], &["analyze", "x.txt"]] {
        assert_usage_error(&[cmd, &["--size", "4"]].concat());
        assert_usage_error(&[cmd, &["--size", "15x"]].concat());
        assert_usage_error(&[cmd, &["--rule", "64"]].concat());
    }
}

#[test]
fn messages_are_in_words_with_numbers_that_agree() {
    // A bad number is told as such, not as Rust's parse error.
    let line = error_line(&["play", "--time", "-5"]);
    assert!(line.starts_with("Error: --time: '-5'") && !line.contains("digit"), "{line}");
    // A reversed range is told as reversed, with the range meant.
    let line = error_line(&["openings", "--count", "2", "--stones", "10-3"]);
    assert!(line.contains("3-10"), "{line}");
    // One opening is one, not "1 openings".
    let o = run(&["openings", "--count", "1", "--seed", "2", "--size", "9"]);
    assert!(o.status.success());
    assert!(stderr(&o).starts_with("1 opening for "), "{}", stderr(&o));
    // match --help names every rule code it lists.
    let help = stdout(&run(&["match", "--help"]));
    let rule = help.lines().find(|l| l.trim_start().starts_with("--rule")).unwrap_or_default();
    assert!(rule.contains("9 caro-exact"), "{rule}");
}

#[test]
fn every_help_that_shows_squares_says_how_they_are_named() {
    for cmd in ["play", "match", "openings", "analyze"] {
        let help = stdout(&run(&[cmd, "--help"]));
        assert!(help.contains("row number from 1 at the top"), "{cmd}: {help}");
    }
}

#[test]
fn begin_on_an_empty_board_claims_no_forced_move() {
    let input = b"START 15\nINFO timeout_turn 300\nBEGIN\nEND\n";
    let out = common::output_with_input(&mut Command::new(env!("CARGO_BIN_EXE_pbrain-quincunx")), input);
    let out = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.lines().any(|l| l == "7,7"), "the centre is played:\n{out}");
    assert!(!out.lines().any(|l| l == "MESSAGE forced move"), "{out}");
}

/// `pbrain-quincunx bench | head -1`: a reader that went away before the output was written ends the
/// program quietly, with status 0 and nothing on stderr, not a panic.
#[test]
fn a_closed_pipe_on_stdout_ends_quietly() {
    let games = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/games/blunder.psq");
    for args in [&["bench"][..], &["analyze", "--time", "50", "--no-svg", games]] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-quincunx"))
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary starts");
        // Both think for a while before they print: the reader is gone by then.
        drop(child.stdout.take());
        let o = common::wait_within_deadline(child, &format!("{args:?}"));
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {err}");
        assert!(!err.contains("Broken pipe") && !err.contains("panicked"), "{args:?}: {err}");
    }
}
