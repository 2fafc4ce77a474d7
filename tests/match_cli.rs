//! `pbrain-quincunx match` through its real binary: what reaches the user (exit status, summary, record
//! files) when the SPRT decides, an output path or an engine is bad, names repeat or openings do not
//! fit. The engines are this binary's fast deterministic `--player weights` and the scripted
//! `tests/fault-engines`.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_pbrain-quincunx");

fn weights() -> String {
    format!("{BIN} --player weights")
}

fn fault_engine(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fault-engines").join(format!("{name}.sh"));
    format!("bash {}", path.display())
}

/// An empty directory of this test's own.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("quincunx-match-cli-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temporary directory");
    dir
}

/// An engine that leaves `marker` behind when it is started: a way to see whether the runner started
/// any engine at all.
fn marking_engine(marker: &Path) -> String {
    format!("bash -c 'touch {}; exec {BIN} --player weights'", marker.display())
}

/// Runs `match` with `args` (fast settings first, so that the test's own come after and win), with a
/// watchdog: a runner that hangs fails the test instead of hanging it.
fn run_match(args: &[&str]) -> Output {
    let mut child = Command::new(BIN)
        .args(["match", "--quiet", "--turn", "1000", "--pause", "0"])
        .args(args)
        .env("RUST_LOG", "warn")
        .env("RUST_BACKTRACE", "0")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let deadline = Instant::now() + Duration::from_secs(120);
    while child.try_wait().expect("wait").is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("match {args:?} did not finish");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().expect("output")
}

/// The first pairing's wins, losses and draws from the summary (`a vs b: +W -L =D ...`).
fn pairing(out: &Output) -> Option<(u32, u32, u32)> {
    let stdout = String::from_utf8_lossy(&out.stdout);
    let line = stdout.lines().find(|l| l.contains(" vs ") && l.contains(": +"))?;
    let mut words = line.split(": ").nth(1)?.split_whitespace();
    let mut count = |sign: char| words.next()?.strip_prefix(sign)?.parse().ok();
    Some((count('+')?, count('-')?, count('=')?))
}

/// The SPRT's LLR from the summary (`SPRT ...: LLR x in [lo, hi], ...`).
fn llr(out: &Output) -> Option<f64> {
    let stdout = String::from_utf8_lossy(&out.stdout);
    let line = stdout.lines().find(|l| l.starts_with("SPRT "))?;
    line.split("LLR ").nth(1)?.split_whitespace().next()?.parse().ok()
}

#[test]
fn a_match_one_engine_wins_every_game_of_stops_with_h1() {
    // The weights player beats the first-free-point script every game; at elo0 = 0, elo1 = 50 the
    // 23rd straight win takes the LLR to 3.07, past ln(0.95/0.05) = 2.94 (22 give 2.939).
    let (w, f) = (weights(), fault_engine("first_free"));
    let out = run_match(&["--engine", &w, "--engine", &f, "--games", "30", "--sprt", "0,50"]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(pairing(&out), Some((23, 0, 0)), "{out:?}");
    assert!(llr(&out).is_some_and(|v| v >= (0.95f64 / 0.05).ln()), "{out:?}");
}

/// A match whose `extra` options name a path it cannot use (`path` builds it inside a scratch
/// directory) fails before any engine starts; `quiet_stdout`: nothing is printed on stdout either.
fn assert_fails_before_any_engine(
    name: &str,
    path: impl Fn(&Path) -> PathBuf,
    flag: &str,
    quiet_stdout: bool,
) {
    let dir = scratch(name);
    let marker = dir.join("started");
    let target = path(&dir);
    let e = marking_engine(&marker);
    let mut args = vec!["--engine", &e, "--engine", &e];
    if flag != "--openings" {
        args.extend(["--games", "2"]);
    }
    args.extend([flag, target.to_str().unwrap()]);
    let out = run_match(&args);
    assert!(!out.status.success(), "{out:?}");
    if quiet_stdout {
        assert!(out.stdout.is_empty(), "{out:?}");
    }
    assert!(!marker.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_sgf_path_in_a_missing_directory_fails_before_any_engine_starts() {
    assert_fails_before_any_engine("sgf-missing-dir", |d| d.join("no/such/dir/games.sgf"), "--sgf", true);
}

#[test]
fn a_psq_directory_that_cannot_be_made_fails_before_any_engine_starts() {
    let under_a_file = |d: &Path| {
        let file = d.join("a-file");
        std::fs::write(&file, "").unwrap();
        file.join("games")
    };
    assert_fails_before_any_engine("psq-under-file", under_a_file, "--psq", true);
}

#[test]
fn a_missing_openings_file_fails_before_any_engine_starts() {
    assert_fails_before_any_engine("openings-missing", |d| d.join("absent.txt"), "--openings", false);
}

#[test]
fn a_record_that_cannot_be_written_stops_the_match_and_keeps_the_summary() {
    // /dev/full takes the file open and refuses every write: the first game's record fails.
    if !Path::new("/dev/full").exists() {
        return;
    }
    let w = weights();
    let out = run_match(&["--engine", &w, "--engine", &w, "--games", "6", "--sgf", "/dev/full"]);
    assert!(!out.status.success(), "{out:?}");
    let (wins, losses, draws) = pairing(&out).expect("a summary");
    assert_eq!(wins + losses + draws, 1, "{out:?}");
}

#[test]
fn records_are_written_and_repeated_names_made_distinct() {
    let dir = scratch("records");
    let (psq, sgf) = (dir.join("psq"), dir.join("games.sgf"));
    let w = weights();
    let out = run_match(&[
        "--engine",
        &w,
        "--engine",
        &w,
        "--games",
        "4",
        "--psq",
        psq.to_str().unwrap(),
        "--sgf",
        sgf.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{out:?}");
    let games = std::fs::read_to_string(&sgf).unwrap();
    assert_eq!(games.matches("(;GM[4]").count(), 4);
    let mut files: Vec<_> = std::fs::read_dir(&psq).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    assert_eq!(files.len(), 4, "{files:?}");
    // A PSQ file ends with the black player's name, the white player's and the result.
    let mut names = BTreeSet::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        names.insert(lines[lines.len() - 3].to_string());
        names.insert(lines[lines.len() - 2].to_string());
    }
    let expected: BTreeSet<String> = ["pbrain-quincunx", "pbrain-quincunx#2"].map(String::from).into();
    assert_eq!(names, expected);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_engine_that_cannot_start_stops_the_run_before_any_game() {
    let w = weights();
    let out = run_match(&["--engine", "/nonexistent/engine", "--engine", &w, "--games", "2"]);
    assert!(!out.status.success(), "{out:?}");
    assert!(out.stdout.is_empty(), "{out:?}");
}

#[test]
fn an_engine_that_refuses_its_first_start_stops_the_run_before_any_game() {
    let (w, bad) = (weights(), fault_engine("bad_start"));
    let out = run_match(&["--engine", &w, "--engine", &bad, "--games", "2"]);
    assert!(!out.status.success(), "{out:?}");
    assert!(out.stdout.is_empty(), "{out:?}");
}

#[test]
fn openings_that_do_not_fit_are_reported_in_one_line() {
    let dir = scratch("unfit-openings");
    let openings = dir.join("openings.txt");
    // One opening fits 15x15; three have a stone off the board.
    std::fs::write(&openings, "0,0, 1,0\n-8,-6, 0,1\n7,8, 0,0\n0,0, 9,9\n").unwrap();
    let w = weights();
    let out = run_match(&[
        "--engine",
        &w,
        "--engine",
        &w,
        "--games",
        "2",
        "--openings",
        openings.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(pairing(&out).map(|(w, l, d)| w + l + d), Some(2), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.lines().filter(|l| !l.trim().is_empty()).count(), 1, "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}
