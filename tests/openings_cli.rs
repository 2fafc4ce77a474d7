//! `pbrain-quincunx openings` and `match`'s fresh openings through the real binary: the same seed
//! writes the same file, every opening is sound (on the board, its stone count in the range, legal,
//! no four, balanced when our search judges it again), both notations name the same stones, and
//! `match` plays what it draws and what a `pos` file holds. Command-line mistakes exit with status 2.

use std::path::Path;
use std::process::{Command, Output, Stdio};

use quincunx::eval::position::Position;
use quincunx::game::board::{Color, Pos};
use quincunx::game::rules::Rules;
use quincunx::threat::five_points;
use quincunx::tools::matches::opening_gen::{assess, patterns};
use quincunx::tools::record::opening::{check_stones, parse_openings};

mod common;

const BIN: &str = env!("CARGO_BIN_EXE_pbrain-quincunx");

fn run(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .env("RUST_LOG", "warn")
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs")
}

/// The openings `openings` printed, placed on a `width` x `height` board.
fn placed(out: &Output, width: usize, height: usize) -> Vec<Vec<Pos>> {
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    parse_openings(&text).unwrap().iter().map(|o| o.place(width, height).unwrap()).collect()
}

/// Every opening is legal under `rules`, has no four for either side, has a stone count in `stones`
/// and is balanced within `margin` by our search to `depth`.
fn assert_sound(
    rules: Rules,
    (w, h): (usize, usize),
    openings: &[Vec<Pos>],
    stones: (usize, usize),
    depth: i32,
    margin: i32,
) {
    let pats = patterns(&rules).unwrap();
    for o in openings {
        assert!((stones.0..=stones.1).contains(&o.len()), "{o:?}");
        let board = check_stones(&rules, w, h, o).unwrap();
        let pos = Position::new(&board, pats.clone());
        assert!(five_points(&pos, Color::Black).is_empty() && five_points(&pos, Color::White).is_empty());
        let judged = assess(&board, &pats, depth);
        assert!(judged.balanced(margin), "{o:?}: {judged:?}");
    }
}

#[test]
fn a_seed_writes_the_same_sound_file_and_another_seed_another() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let file = dir.join("openings.txt");
    let args = ["openings", "--count", "10", "--stones", "3-8", "--depth", "4", "--margin", "80"];
    let out = run(&[&args[..], &["--seed", "42", "--out", file.to_str().unwrap()]].concat());
    assert!(out.status.success() && out.stdout.is_empty(), "{out:?}");
    let written = std::fs::read_to_string(&file).unwrap();
    assert_eq!(written.lines().count(), 10);
    let again = run(&[&args[..], &["--seed", "42"]].concat());
    assert_eq!(String::from_utf8_lossy(&again.stdout), written);
    let openings = placed(&again, 15, 15);
    assert_sound(Rules::default(), (15, 15), &openings, (3, 8), 4, 80);
    let other = placed(&run(&[&args[..], &["--seed", "43"]].concat()), 15, 15);
    assert!(openings.iter().all(|o| !other.contains(o)));
}

#[test]
fn rectangular_boards_and_both_notations() {
    let args =
        ["openings", "--count", "6", "--variant", "renju", "--size", "20x12", "--seed", "3", "--depth", "4"];
    let offsets = placed(&run(&args), 20, 12);
    assert_sound(Rules::named("renju").unwrap(), (20, 12), &offsets, (3, 10), 4, 60);
    let pos = placed(&run(&[&args[..], &["--format", "pos"]].concat()), 20, 12);
    assert_eq!(pos, offsets);
}

#[test]
fn pente_openings_start_on_the_centre_and_keep_the_third_stone_away() {
    let out = run(&[
        "openings",
        "--count",
        "5",
        "--variant",
        "pente",
        "--size",
        "19",
        "--stones",
        "3-7",
        "--seed",
        "9",
    ]);
    let openings = placed(&out, 19, 19);
    assert_sound(Rules::pente(false), (19, 19), &openings, (3, 7), 4, 60);
    for o in &openings {
        assert_eq!(o[0], Pos::new(9, 9));
        assert!((o[2].x as i32 - 9).abs().max((o[2].y as i32 - 9).abs()) >= 3, "{o:?}");
    }
}

#[test]
fn command_line_mistakes_are_usage_errors() {
    for args in [
        &["openings"][..],
        &["openings", "--count", "x"],
        &["openings", "--count", "0"],
        &["openings", "--count", "3", "--stones", "5-2"],
        &["openings", "--count", "3", "--format", "sgf"],
        &["openings", "--count", "3", "--size", "4"],
        &["openings", "--count", "3", "--variant", "chess"],
        &["openings", "--count", "3", "--frobnicate"],
    ] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    assert!(run(&["openings", "--help"]).status.success());
}

fn weights() -> String {
    format!("{BIN} --player weights")
}

fn run_match(args: &[&str]) -> Output {
    let w = weights();
    run(&[&["match", "--quiet", "--time", "1000", "--pause", "0", "--engine", &w, "--engine", &w][..], args]
        .concat())
}

/// The summary's first line: the games played and the seed of fresh openings, if it names one.
fn header(out: &Output) -> (usize, Option<u64>) {
    let stdout = String::from_utf8_lossy(&out.stdout);
    let line = stdout.lines().next().unwrap_or("");
    let games = line.split_whitespace().next().and_then(|n| n.parse().ok()).unwrap_or(0);
    let seed =
        line.split("seed ").nth(1).and_then(|s| s.split_whitespace().next()).and_then(|s| s.parse().ok());
    (games, seed)
}

/// The first `n` stones of a PSQ record, as points.
fn psq_opening(path: &Path, n: usize) -> Vec<Pos> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .skip(1)
        .take(n)
        .map(|l| {
            let v: Vec<usize> = l.split(',').map(|t| t.trim().parse().unwrap()).collect();
            Pos::new(v[0] - 1, v[1] - 1)
        })
        .collect()
}

#[test]
fn a_match_draws_fresh_openings_and_plays_each_with_both_colours() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let psq = dir.join("psq");
    let out = run_match(&["--openings-random", "4", "--seed", "1", "--psq", psq.to_str().unwrap()]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(header(&out), (8, Some(1)));
    // The match's openings are those `openings` writes for the same seed, rule and board.
    let written = placed(&run(&["openings", "--count", "4", "--seed", "1"]), 15, 15);
    for (game, opening) in [(1, &written[0]), (2, &written[0]), (3, &written[1]), (8, &written[3])] {
        let record = psq.join(format!("game-{game:05}.psq"));
        assert_eq!(&psq_opening(&record, opening.len()), opening, "game {game}");
    }
    // Without a seed the clock gives one, and the summary tells it.
    let out = run_match(&["--openings-random", "1"]);
    assert!(out.status.success(), "{out:?}");
    assert!(matches!(header(&out), (2, Some(_))), "{out:?}");
}

#[test]
fn fresh_openings_do_not_mix_with_a_file_and_their_options_need_them() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let file = dir.join("openings.txt");
    std::fs::write(&file, "0,0, 1,1\n").unwrap();
    for args in [
        &["--openings-random", "2", "--openings", file.to_str().unwrap()][..],
        &["--seed", "3"],
        &["--stones", "3-5"],
        &["--depth", "8"],
        &["--openings-random", "0"],
        &["--openings-random", "2", "--depth", "0"],
        &["--openings-random", "2", "--stones", "9-3"],
    ] {
        let out = run_match(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn a_match_reads_pos_openings_beside_offset_ones() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let (file, psq) = (dir.join("openings.txt"), dir.join("psq"));
    // c-gomoku-cli's pos notation counts from the top-left corner: h8 is the centre of 15x15.
    std::fs::write(&file, "h8i9j10\n0,0, 1,1, 2,2, -3,4\nb2c3\n").unwrap();
    let out =
        run_match(&["--games", "6", "--openings", file.to_str().unwrap(), "--psq", psq.to_str().unwrap()]);
    assert!(out.status.success(), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).trim().is_empty(), "{out:?}");
    assert_eq!(header(&out), (6, None));
    let p = |x, y| Pos::new(x, y);
    assert_eq!(psq_opening(&psq.join("game-00001.psq"), 3), [p(7, 7), p(8, 8), p(9, 9)]);
    assert_eq!(psq_opening(&psq.join("game-00003.psq"), 4), [p(7, 7), p(8, 8), p(9, 9), p(4, 11)]);
    assert_eq!(psq_opening(&psq.join("game-00005.psq"), 2), [p(1, 1), p(2, 2)]);
}
