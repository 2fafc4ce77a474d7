//! `pbrain-quincunx match` through its real binary: what reaches the user (exit status, summary, record
//! files) when the SPRT decides, an output path or an engine is bad, names repeat or openings do not
//! fit; a run split into shards (`--shard`, `--results`) and merged again (`--merge`). The engines are
//! this binary's fast deterministic `--player weights` (its tables and styles differ) and the scripted
//! `tests/fault-engines`.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

mod common;
use common::output_within_deadline;

const BIN: &str = env!("CARGO_BIN_EXE_pbrain-quincunx");

fn weights() -> String {
    format!("{BIN} --player weights")
}

fn fault_engine(name: &str) -> String {
    common::fault_engine_command(name)
}

/// An engine that leaves `marker` behind when it is started: a way to see whether the runner started
/// any engine at all.
fn marking_engine(marker: &Path) -> String {
    format!("bash -c 'touch {}; exec {BIN} --player weights'", marker.display())
}

/// Runs `match` with `args` (fast settings first, so that the test's own come after and win), with a
/// watchdog: a runner that hangs fails the test instead of hanging it.
fn run_match(args: &[&str]) -> Output {
    output_within_deadline(
        Command::new(BIN)
            .args(["match", "--quiet", "--time", "1000", "--pause", "0"])
            .args(args)
            .env("RUST_LOG", "warn")
            .env("RUST_BACKTRACE", "0"),
    )
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

/// A match whose `extra` options name a path it cannot use (`path` builds it inside a temporary
/// directory) fails before any engine starts; `quiet_stdout`: nothing is printed on stdout either.
fn assert_fails_before_any_engine(path: impl Fn(&Path) -> PathBuf, flag: &str, quiet_stdout: bool) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let marker = dir.join("started");
    let target = path(dir);
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
}

#[test]
fn an_sgf_path_in_a_missing_directory_fails_before_any_engine_starts() {
    assert_fails_before_any_engine(|d| d.join("no/such/dir/games.sgf"), "--sgf", true);
}

#[test]
fn a_live_file_in_a_missing_directory_fails_before_any_engine_starts() {
    assert_fails_before_any_engine(|d| d.join("no/such/dir/live.txt"), "--live", true);
}

#[test]
fn a_psq_directory_that_cannot_be_made_fails_before_any_engine_starts() {
    let under_a_file = |d: &Path| {
        let file = d.join("a-file");
        std::fs::write(&file, "").unwrap();
        file.join("games")
    };
    assert_fails_before_any_engine(under_a_file, "--psq", true);
}

#[test]
fn a_missing_openings_file_fails_before_any_engine_starts() {
    assert_fails_before_any_engine(|d| d.join("absent.txt"), "--openings", false);
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
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let (psq, sgf, live) = (dir.join("psq"), dir.join("games.sgf"), dir.join("live.txt"));
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
        "--live",
        live.to_str().unwrap(),
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
    // The live file has every game: its start, one line a move (as many as its record has), its end.
    let live = std::fs::read_to_string(&live).unwrap();
    let lines: Vec<serde_json::Value> = live.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!((&lines[0]["format"], &lines[0]["version"]), (&"quincunx-live".into(), &2.into()));
    for (k, f) in files.iter().enumerate() {
        let record = std::fs::read_to_string(f).unwrap();
        let moves = record.lines().skip(1).take_while(|l| l.matches(',').count() == 2).count();
        let of_game = |key: &str| lines.iter().filter(|l| l["event"] == key && l["game"] == k + 1).count();
        assert_eq!((of_game("game"), of_game("move"), of_game("end")), (1, moves, 1), "game {}", k + 1);
    }
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
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
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
}

/// Runs `match` with `args` as they are (a merge plays nothing), with the same watchdog.
fn run_merge(args: &[&str]) -> Output {
    let out = Command::new(BIN)
        .arg("match")
        .args(args)
        .env("RUST_LOG", "warn")
        .env("RUST_BACKTRACE", "0")
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs");
    assert_ne!(out.status.code(), Some(101), "a panic: {out:?}");
    out
}

/// The summary without what varies from run to run (the time of the run and the answer times): every
/// W/L/D line, per pairing, colour and opening, the SPRT and the faults.
fn tally(out: &Output) -> Vec<String> {
    let stdout = String::from_utf8_lossy(&out.stdout);
    stdout.lines().skip(1).filter(|l| !l.contains(" ms / ")).map(String::from).collect()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Each PSQ file of `dir` by name, with its moves (without their times) and its players.
fn games_in(dir: &Path) -> std::collections::BTreeMap<String, Vec<String>> {
    let mut games = std::collections::BTreeMap::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        // `x,y,ms` lines lose their time; the header, the names and the result stay.
        let lines = text.lines().map(|l| match l.rsplit_once(',') {
            Some((xy, ms)) if ms.parse::<u64>().is_ok() => xy.to_string(),
            _ => l.to_string(),
        });
        games.insert(path.file_name().unwrap().to_string_lossy().into_owned(), lines.collect());
    }
    games
}

#[test]
fn shards_play_disjoint_parts_of_the_run_and_merge_into_its_summary() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let openings = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/openings/freestyle15-40.txt");
    let (w, p, d) =
        (weights(), format!("{BIN} --player weights --table proportional"), weights() + " --style defensive");
    // Three engines, so three pairings; 9 games a pairing: the last opening is played once.
    let run = |extra: &[&str]| {
        let mut args = vec!["--engine", &w, "--name", "w", "--engine", &p, "--name", "p"];
        args.extend(["--engine", &d, "--name", "d", "--games", "9", "--random", "3", "--by-opening"]);
        args.extend(["--openings", openings.to_str().unwrap()]);
        args.extend(extra);
        let out = run_match(&args);
        assert!(out.status.success(), "{out:?}");
        out
    };
    let whole = run(&["--results", &path("whole.txt"), "--psq", &path("whole")]);
    let a = run(&["--shard", "1/2", "--results", &path("a.txt"), "--psq", &path("a")]);
    let b = run(&["--shard", "2/2", "--results", &path("b.txt"), "--psq", &path("b")]);
    assert!(String::from_utf8_lossy(&a.stdout).starts_with("15 games in "), "{a:?}");
    assert!(String::from_utf8_lossy(&b.stdout).starts_with("12 games in "), "{b:?}");

    // The shards played the whole run's games, each once, with its numbers, openings and colours.
    let (all, part_a, part_b) =
        (games_in(&dir.join("whole")), games_in(&dir.join("a")), games_in(&dir.join("b")));
    assert_eq!(all.len(), 27);
    assert_eq!(part_a.len() + part_b.len(), 27);
    for (name, game) in part_a.iter().chain(&part_b) {
        assert_eq!(all.get(name), Some(game), "{name}");
    }
    // An opening's two games (1 and 4: w-p with w black, then with p black) stay in one shard.
    assert!(part_a.contains_key("game-00001.psq") && part_a.contains_key("game-00004.psq"));
    assert!(part_b.contains_key("game-00007.psq") && part_b.contains_key("game-00010.psq"));

    let merged = run_merge(&["--merge", &path("a.txt"), &path("b.txt"), "--by-opening"]);
    assert!(merged.status.success(), "{merged:?}");
    assert!(String::from_utf8_lossy(&merged.stdout).starts_with("27 games in "), "{merged:?}");
    assert_eq!(tally(&merged), tally(&whole));
    assert!(tally(&whole).iter().any(|l| l.contains(" as white: ")));
    // Five openings in each of the three tables (the ninth game plays the fifth with one colour).
    assert_eq!(tally(&whole).iter().filter(|l| l.ends_with("%)")).count(), 3 * 5, "{whole:?}");
    // The whole run's own file merges into exactly its summary, answer times included.
    let alone = run_merge(&["--merge", &path("whole.txt"), "--by-opening"]);
    assert!(alone.status.success(), "{alone:?}");
    assert_eq!(
        String::from_utf8_lossy(&alone.stdout).lines().skip(1).collect::<Vec<_>>(),
        String::from_utf8_lossy(&whole.stdout).lines().skip(1).collect::<Vec<_>>()
    );
    // The order of the files is no matter.
    let swapped = run_merge(&["--merge", &path("b.txt"), &path("a.txt"), "--by-opening"]);
    assert_eq!(tally(&swapped), tally(&whole));
}

#[test]
fn shards_of_fresh_openings_play_out_the_sprt_and_the_merge_judges_it() {
    // The whole run stops at the 23rd straight win (a_match_one_engine_wins_every_game_of_stops_with_h1);
    // each shard plays its part in full, and the merge judges the SPRT on all 30 games.
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let (w, f) = (weights(), fault_engine("first_free"));
    let run = |extra: &[&str]| {
        let mut args = vec!["--engine", &w, "--engine", &f, "--games", "30", "--sprt", "0,50"];
        // (A shallow judge: the openings are drawn four times, and their balance is no matter here.)
        args.extend(["--openings-random", "4", "--seed", "5", "--stones", "3-4", "--depth", "4"]);
        args.extend(extra);
        let out = run_match(&args);
        assert!(out.status.success(), "{out:?}");
        out
    };
    let whole = run(&[]);
    let (w_games, l_games, d_games) = pairing(&whole).expect("a summary");
    assert!(w_games + l_games + d_games < 30, "{whole:?}");
    let mut files = vec![];
    for k in 1..=3 {
        let file = path(&format!("{k}.txt"));
        let out = run(&["--shard", &format!("{k}/3"), "--results", &file]);
        assert!(llr(&out).is_none(), "a shard judges no SPRT: {out:?}");
        files.push(file);
    }
    let mut args = vec!["--merge"];
    args.extend(files.iter().map(String::as_str));
    let merged = run_merge(&args);
    assert!(merged.status.success(), "{merged:?}");
    let stdout = String::from_utf8_lossy(&merged.stdout);
    assert!(stdout.starts_with("30 games in ") && stdout.contains("4 fresh openings, seed 5"), "{stdout}");
    assert_eq!(pairing(&merged).map(|(w, l, d)| w + l + d), Some(30));
    assert!(llr(&merged).is_some(), "{merged:?}");
}

#[test]
fn files_of_other_runs_repeated_shards_and_bad_files_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let w = weights();
    let run = |extra: &[&str]| {
        let mut args = vec!["--engine", &w, "--engine", &w, "--games", "4", "--openings-random", "2"];
        args.extend(extra);
        let out = run_match(&args);
        assert!(out.status.success(), "{out:?}");
    };
    run(&["--seed", "1", "--shard", "1/2", "--results", &path("a.txt")]);
    run(&["--seed", "2", "--shard", "2/2", "--results", &path("other.txt")]);
    run(&["--seed", "1", "--results", &path("whole.txt")]);
    let refused = |files: &[&str], why: &str| {
        let mut args = vec!["--merge"];
        args.extend(files);
        let out = run_merge(&args);
        assert_eq!(out.status.code(), Some(1), "{out:?}");
        assert!(out.stdout.is_empty(), "{out:?}");
        let err = stderr(&out);
        assert!(err.starts_with("Error: ") && err.contains(why), "{why}: {err}");
    };
    refused(&[&path("a.txt"), &path("other.txt")], "is not of the same run");
    refused(&[&path("a.txt"), &path("whole.txt")], "shards");
    refused(&[&path("a.txt"), &path("a.txt")], "are both shard 1/2");
    std::fs::write(path("garbage.txt"), "1 2 3\n").unwrap();
    refused(&[&path("a.txt"), &path("garbage.txt")], "not a results file");
    let text = std::fs::read_to_string(path("a.txt")).unwrap();
    std::fs::write(path("cut.txt"), &text[..text.len() / 2]).unwrap();
    refused(&[&path("cut.txt")], "cut.txt");
    refused(&[&path("absent.txt")], "cannot read");
    // A missing shard is told, in words (no module path of the program's), and the rest merged.
    let out = run_merge(&["--merge", &path("a.txt")]);
    assert!(out.status.success(), "{out:?}");
    let warning = stderr(&out).lines().find(|l| l.contains("shards missing: 2/2")).map(str::to_string);
    assert!(warning.as_deref().is_some_and(|w| w.starts_with("Warning: ") && !w.contains("::")), "{out:?}");
}

#[test]
fn bad_shards_are_refused_before_any_engine_starts() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let marker = dir.join("started");
    let e = marking_engine(&marker);
    for bad in ["0/2", "3/2", "x/y", "2", "1/0"] {
        let out = run_match(&["--engine", &e, "--engine", &e, "--shard", bad]);
        assert_eq!(out.status.code(), Some(2), "{bad}: {out:?}");
        assert!(stderr(&out).contains(&format!("--shard: '{bad}'")), "{bad}: {out:?}");
    }
    assert!(!marker.exists());
    let out = run_merge(&["--merge"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
}

#[test]
fn a_run_with_no_time_limit_at_all_is_refused_before_any_engine_starts() {
    // Our search, told neither a turn nor a game limit, thinks until it is stopped: the run would
    // never end. One of the two limits is enough.
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let marker = dir.join("started");
    let e = format!("bash -c 'touch {}; exec {BIN}'", marker.display());
    // --turn, the old name of --time, is read as it (for one release).
    let out = run_match(&["--engine", &e, "--engine", &e, "--turn", "0", "--game", "0"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    assert_eq!(stderr(&out).lines().filter(|l| l.starts_with("Error: ")).count(), 1, "{out:?}");
    assert!(out.stdout.is_empty() && !marker.exists(), "{out:?}");
    let w = weights();
    let out = run_match(&["--engine", &w, "--engine", &w, "--turn", "0", "--game", "20000", "--games", "1"]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(pairing(&out).map(|(w, l, d)| w + l + d), Some(1), "{out:?}");
}

/// `--nodes N` sends `INFO max_node N`: two searches limited by nodes, not by the clock, play the same
/// games however busy the machine is, so two runs of one match agree game by game.
#[test]
fn a_match_at_a_node_limit_plays_the_same_games_twice() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let search = format!("{BIN} --threads 1");
    let other = format!("{BIN} --threads 1 --set razor_margin=30");
    let run = |name: &str| {
        let sgf = dir.join(name);
        let sgf_arg = sgf.to_str().expect("a path");
        let o = run_match(&[
            "--engine",
            &search,
            "--engine",
            &other,
            "--nodes",
            "1500",
            "--turn",
            "20000",
            "--threads",
            "1",
            "--openings-random",
            "2",
            "--seed",
            "11",
            "--sgf",
            sgf_arg,
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        std::fs::read_to_string(&sgf).expect("the records")
    };
    let moves = |sgf: &str| -> Vec<String> {
        sgf.split(';')
            .filter(|n| n.starts_with("B[") || n.starts_with("W["))
            .map(|n| n[..5].to_string())
            .collect()
    };
    let (first, second) = (run("a.sgf"), run("b.sgf"));
    assert!(moves(&first).len() > 20, "games were played");
    assert_eq!(moves(&first), moves(&second));
}
