//! `selfplay` through the binary: games at a node limit are the same whatever was played before or
//! beside them, a run resumes where its file stops, shards add up to the whole run, and a file of
//! another run is not continued.

mod common;

use std::path::Path;
use std::process::Command;

use common::output_within_deadline;
use quincunx::tools::learn::selfplay::{GameRecord, read_file};

fn selfplay(out: &Path, games: usize, extra: &[&str]) -> std::process::Output {
    let games = games.to_string();
    let mut args = vec!["selfplay", "--games", &games, "--nodes", "300", "--seed", "7", "--stones", "4-6"];
    args.extend_from_slice(extra);
    output_within_deadline(
        Command::new(env!("CARGO_BIN_EXE_pbrain-quincunx")).args(&args).arg("--out").arg(out),
    )
}

/// The games of a data file, by number.
fn games(path: &Path) -> Vec<GameRecord> {
    let text = std::fs::read_to_string(path).expect("the data file");
    let (header, mut games) = read_file(&text).expect("a data file");
    assert!(header.is_some(), "a header names the run");
    games.sort_by_key(|g| g.index);
    games
}

#[test]
fn a_run_resumes_where_its_file_stops_and_plays_the_same_games() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let (whole, resumed) = (dir.join("whole.txt"), dir.join("resumed.txt"));
    assert!(selfplay(&whole, 5, &["--rule", "freestyle,renju"]).status.success());
    assert!(selfplay(&resumed, 2, &["--rule", "freestyle,renju"]).status.success());
    assert_eq!(games(&resumed).len(), 2);
    assert!(selfplay(&resumed, 5, &["--rule", "freestyle,renju", "--concurrency", "2"]).status.success());
    let (a, b) = (games(&whole), games(&resumed));
    assert_eq!(a.iter().map(|g| g.index).collect::<Vec<_>>(), [0, 1, 2, 3, 4]);
    assert_eq!(a, b, "the same games, each once");
    for g in &a {
        let positions = g.positions().expect("a legal game");
        assert_eq!(positions.len(), g.moves.len() - g.opening);
        assert!(g.moves.len() > g.opening, "a game is played past its opening");
    }
}

#[test]
fn shards_add_up_to_the_whole_run() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let (whole, one, two) = (dir.join("whole.txt"), dir.join("1.txt"), dir.join("2.txt"));
    // 20 games: batch 0 (games 0-15) is shard 1's, batch 1 (16-19) shard 2's.
    assert!(selfplay(&whole, 20, &[]).status.success());
    assert!(selfplay(&one, 20, &["--shard", "1/2"]).status.success());
    assert!(selfplay(&two, 20, &["--shard", "2/2"]).status.success());
    let mut parts = games(&one);
    assert!(parts.iter().all(|g| g.index < 16));
    parts.extend(games(&two));
    parts.sort_by_key(|g| g.index);
    assert_eq!(parts, games(&whole));
}

#[test]
fn another_runs_file_and_bad_options_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let file = dir.join("data.txt");
    assert!(selfplay(&file, 1, &[]).status.success());
    let before = std::fs::read_to_string(&file).expect("written");
    let other = selfplay(&file, 1, &["--rule", "renju"]);
    assert_eq!(other.status.code(), Some(1), "another rule is another run");
    assert_eq!(std::fs::read_to_string(&file).expect("kept"), before, "the file is left as it was");
    for bad in [&["--rule", "chess"][..], &["--time", "10"], &["--shard", "3/2"]] {
        assert_eq!(selfplay(&dir.join("bad.txt"), 1, bad).status.code(), Some(2), "{bad:?}");
    }
}
