//! Protocol lines piped in and then the end of input, as a newcomer tries the engine from a shell
//! (`printf 'START 15\n…TURN 7,7\n' | pbrain-quincunx`): the thought under way is finished, so the
//! answer is the move the engine gives when its input stays open.

mod common;

use std::io::Write;
use std::process::{Command, Stdio};

fn binary() -> &'static str {
    env!("CARGO_BIN_EXE_pbrain-quincunx")
}

/// The last non-MESSAGE line the engine prints for `input`, followed by the end of input.
fn answer_piped(input: &str) -> String {
    let out = common::output_with_input(&mut Command::new(binary()), input.as_bytes());
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.lines().rfind(|l| !l.starts_with("MESSAGE")).unwrap_or_default().to_string()
}

/// The engine's move for `input` with its input kept open until the move has come (then END).
fn answer_open(input: &str) -> String {
    let mut child =
        Command::new(binary()).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().expect("it starts");
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input.as_bytes()).unwrap();
    stdin.flush().unwrap();
    let lines = common::lines_of(child.stdout.take().unwrap());
    let answer =
        common::line_where(&lines, |l| l.contains(',') && !l.starts_with("MESSAGE")).expect("a move");
    writeln!(stdin, "END").unwrap();
    drop(stdin);
    // The rest of its output is read to the end, so that it exits on END, not on a closed pipe.
    while common::line_where(&lines, |_| true).is_some() {}
    let status = common::wait_within_deadline(child, "the brain").status;
    assert!(status.success(), "{status}");
    answer
}

/// A fixed depth on one thread is deterministic, and deep enough that a cut search (depth 0) answers
/// another move on this position.
const SETUP: &str = "START 15\nINFO thread_num 1\nINFO max_depth 6\n";

#[test]
fn a_move_under_a_time_limit_is_finished_at_the_end_of_input() {
    let input = format!("{SETUP}INFO timeout_turn 5000\nTURN 7,7\n");
    assert_eq!(answer_piped(&input), answer_open(&input));
}

#[test]
fn a_move_with_only_a_depth_limit_is_finished_too() {
    let input = format!("{SETUP}INFO timeout_turn 0\nTURN 7,7\n");
    assert_eq!(answer_piped(&input), answer_open(&input));
}

#[test]
fn a_move_with_no_limit_at_all_answers_at_once() {
    // Unlimited thinking ends only when stopped; the end of input stops it, and a move still comes.
    let input = "START 15\nINFO thread_num 1\nINFO timeout_turn 0\nTURN 7,7\n";
    let answer = answer_piped(input);
    let (x, y) = answer.split_once(',').expect("a move X,Y");
    assert!(x.parse::<u32>().unwrap() < 15 && y.parse::<u32>().unwrap() < 15);
}
