//! `label` through the binary: labels are one-position game lines that `train` reads, the best move
//! last on an empty point; a run resumes where its file stops and makes the same labels, shards add up
//! to the whole run, and a file of another run is not continued.

mod common;

use std::path::Path;
use std::process::Command;

use common::output_within_deadline;
use quincunx::tools::learn::selfplay::{GameRecord, read_file};

fn run(args: &[&str], files: &[&Path]) -> std::process::Output {
    output_within_deadline(Command::new(env!("CARGO_BIN_EXE_pbrain-quincunx")).args(args).args(files))
}

/// The lines of a file, sorted by game and position.
fn lines(path: &Path) -> Vec<GameRecord> {
    let (header, mut lines) =
        read_file(&std::fs::read_to_string(path).expect("the file")).expect("game lines");
    assert!(header.is_some(), "a header names the run");
    lines.sort_by_key(|l| (l.index, l.opening));
    lines
}

fn label(out: &Path, games: &Path, extra: &[&str]) -> std::process::Output {
    let out = out.to_string_lossy();
    let mut args = vec!["label", "--out", &out, "--nodes", "2000", "--per-game", "2", "--concurrency", "1"];
    args.extend_from_slice(extra);
    run(&args, &[games])
}

#[test]
fn labels_are_one_position_lines_and_a_run_resumes_and_shards_to_the_same_labels() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let games = dir.join("games.txt");
    let games_arg = games.to_string_lossy().into_owned();
    let sp =
        ["selfplay", "--games", "6", "--nodes", "300", "--seed", "7", "--rule", "freestyle,renju", "--out"];
    assert!(run(&[&sp[..], &[&games_arg]].concat(), &[]).status.success());
    let source = lines(&games);

    let whole = dir.join("whole.txt");
    assert!(label(&whole, &games, &[]).status.success());
    let labels = lines(&whole);
    assert!(labels.len() >= 6, "about two a game: {}", labels.len());
    for l in &labels {
        let g = source.iter().find(|g| g.index == l.index).expect("its game");
        assert_eq!((l.rules, l.result, l.scores.len(), l.moves.len()), (g.rules, g.result, 1, l.opening + 1));
        assert_eq!(l.moves[..l.opening], g.moves[..l.opening], "the game's moves up to the position");
        assert!(!l.moves[..l.opening].contains(&l.moves[l.opening]), "the best move on an empty point");
    }

    // Again: nothing to add. Half, then the rest: the same labels. Shards: the same labels together.
    assert!(label(&whole, &games, &[]).status.success());
    assert_eq!(lines(&whole), labels);
    let (one, two) = (dir.join("one.txt"), dir.join("two.txt"));
    assert!(label(&one, &games, &["--shard", "1/2"]).status.success());
    assert!(label(&two, &games, &["--shard", "2/2"]).status.success());
    let mut shards = [lines(&one), lines(&two)].concat();
    shards.sort_by_key(|l| (l.index, l.opening));
    assert_eq!(shards, labels);

    // Another run's file is not continued; train reads a label file as it reads games.
    assert!(
        !run(&["label", "--out", &whole.to_string_lossy(), "--nodes", "3000"], &[&games]).status.success()
    );
    let model = dir.join("model.txt");
    let fit = run(&["train", "--epochs", "1", "--out", &model.to_string_lossy()], &[&whole]);
    assert!(fit.status.success(), "{}", String::from_utf8_lossy(&fit.stderr));
}
