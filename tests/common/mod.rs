//! Helpers shared by the data-driven tests: where the test data lives (`tests/data/`, whose README says
//! where each file came from), read as JSON values, and positions built from stone lists in pos notation
//! (`H8`).

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread::JoinHandle;
use std::time::Duration;

use quincunx::game::board::{Board, Pos};
use serde_json::Value;
use wait_timeout::ChildExt;

/// How long `output_within_deadline` waits for a command, and `next_line` for a line.
pub const DEADLINE: Duration = Duration::from_secs(120);

/// Runs `cmd` with piped output and waits at most `DEADLINE` for it: a child that hangs is killed and
/// fails the test instead of hanging it.
pub fn output_within_deadline(cmd: &mut Command) -> Output {
    output_fed(cmd.stdin(Stdio::null()), None)
}

/// As [`output_within_deadline`], with `input` written to the command's stdin and then closed (a
/// command that exits before reading it all is no matter).
pub fn output_with_input(cmd: &mut Command, input: &[u8]) -> Output {
    output_fed(cmd.stdin(Stdio::piped()), Some(input.to_vec()))
}

fn output_fed(cmd: &mut Command, input: Option<Vec<u8>>) -> Output {
    let mut child = cmd.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("the binary starts");
    if let (Some(input), Some(mut stdin)) = (input, child.stdin.take()) {
        std::thread::spawn(move || {
            let _ = stdin.write_all(&input);
        });
    }
    wait_within_deadline(child, &format!("{cmd:?}"))
}

/// Waits at most `DEADLINE` for `child` to exit, reading what is left of its piped stdout and stderr
/// meanwhile (one that writes more than a pipe holds would otherwise be blocked until the deadline);
/// a child that hangs is killed and fails the test instead of hanging it.
pub fn wait_within_deadline(mut child: Child, what: &str) -> Output {
    let stdout = child.stdout.take().map(read_to_end);
    let stderr = child.stderr.take().map(read_to_end);
    let Some(status) = child.wait_timeout(DEADLINE).expect("wait") else {
        let _ = child.kill();
        let _ = child.wait();
        panic!("{what} did not finish within {} s and was killed", DEADLINE.as_secs());
    };
    let joined =
        |h: Option<JoinHandle<Vec<u8>>>| h.map(|h| h.join().expect("a pipe read")).unwrap_or_default();
    Output { status, stdout: joined(stdout), stderr: joined(stderr) }
}

/// The lines of `pipe` as they come, read on a thread of their own, for [`next_line`].
pub fn lines_of(pipe: impl Read + Send + 'static) -> Receiver<String> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(pipe).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}

/// The first line of [`lines_of`] that `wanted` takes, waiting at most `DEADLINE` in all (a child that
/// prints on but never that line fails the test instead of hanging it); none at the end of the pipe.
pub fn line_where(lines: &Receiver<String>, wanted: impl Fn(&str) -> bool) -> Option<String> {
    let deadline = std::time::Instant::now() + DEADLINE;
    loop {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        match lines.recv_timeout(left) {
            Ok(line) if wanted(&line) => return Some(line),
            Ok(_) => {}
            Err(RecvTimeoutError::Disconnected) => return None,
            Err(RecvTimeoutError::Timeout) => panic!("no such line within {} s", DEADLINE.as_secs()),
        }
    }
}

/// Everything `pipe` gives until its end, read on a thread of its own.
fn read_to_end(mut pipe: impl Read + Send + 'static) -> JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = pipe.read_to_end(&mut bytes);
        bytes
    })
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
