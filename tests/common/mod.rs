//! Helpers shared by the data-driven tests: where the test data lives (`tests/data/`, whose README says
//! where each file came from), read as JSON values, and positions built from stone lists in pos notation
//! (`H8`).

#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use quincunx::game::board::{Board, Pos};
use serde_json::Value;

/// Runs `cmd` with piped output and waits at most two minutes for it: a hang fails the test instead
/// of hanging it.
pub fn output_within_deadline(cmd: &mut Command) -> Output {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let deadline = Instant::now() + Duration::from_secs(120);
    while child.try_wait().expect("wait").is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("{cmd:?} did not finish");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().expect("output")
}

/// The command that runs `tests/fault-engines/<name>.sh`, a scripted faulty brain.
pub fn fault_engine_command(name: &str) -> String {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fault-engines").join(format!("{name}.sh"));
    format!("bash {}", path.display())
}

/// `tests/data/<rel>` from the package root.
pub fn data_path(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(rel)
}

pub fn read_data(rel: &str) -> String {
    let p = data_path(rel);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("cannot read {}: {e}", p.display()))
}

/// The records of `tests/data/<rel>`, a JSON list of them.
pub fn read_json_list(rel: &str) -> Vec<Value> {
    serde_json::from_str(&read_data(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// The JSON lines of `tests/data/<rel>` (blank lines skipped).
pub fn read_json_lines(rel: &str) -> Vec<Value> {
    read_data(rel)
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{rel}: {e}: {l}")))
        .collect()
}

/// A point in the data's notation (`H8`, case-insensitive).
pub fn pos(s: &str) -> Pos {
    Pos::from_notation(s).unwrap_or_else(|| panic!("bad point '{s}'"))
}

/// The points of a JSON list of them in pos notation (`["H8", "I9"]`).
fn points(list: &Value) -> Vec<Pos> {
    list.as_array().expect("a list of points").iter().map(|p| pos(p.as_str().expect("a point"))).collect()
}

/// A set-up position from the data's black and white stone lists (any counts).
pub fn position(size: i64, black: &Value, white: &Value) -> Board {
    let mut b = Board::new(size, size).unwrap();
    b.set_position(&points(black), &points(white), &[]).unwrap();
    b
}

/// A game position from a move string in pos notation (`h8i9j10`), black first.
pub fn game(size: i64, moves: &str) -> Board {
    Board::from_moves(size, size, moves).unwrap_or_else(|e| panic!("{moves}: {e}"))
}

/// The game of a row of the VCF sets: its `board_size` and its `moves` string.
pub fn game_of(row: &Value) -> Board {
    game(row["board_size"].as_i64().expect("a board size"), row["moves"].as_str().expect("moves"))
}
#[cfg(feature = "board")]
pub mod board;
