//! How long an engine takes for a node count: each position of a list sent as `BOARD` with
//! `INFO max_node N` and a turn limit far beyond it, on one thread, its answer timed. The count that
//! takes `ms` a move is then N × ms / (the mean time). A match at matched node counts (`match --nodes
//! A,B`) is the same whatever else the machine does; its counts come from here, measured once on an
//! idle machine (docs/strength.md).
//!
//! The first position is searched once before the timed ones: an engine sizes its table and builds its
//! tables at its first move.

use std::time::{Duration, Instant};

use crate::game::board::{Board, Cell};
use crate::game::rules::Rules;
use crate::tools::client::process::{Brain, Received, StderrMode, parse_move};

/// A turn limit no calibrated search reaches: the node count alone ends the thought.
const TURN_MS: u64 = 600_000;
/// A wait after each answer before the next position: Rapfi 0.43 can drop a line that comes within
/// microseconds of its own move (untimed, as a match's `--pause`).
const PAUSE: Duration = Duration::from_millis(5);

/// One engine's times for a node count.
#[derive(Clone, Debug, PartialEq)]
pub struct Calibration {
    pub nodes: u64,
    /// Each timed position's answer time, in order.
    pub times: Vec<Duration>,
}

impl Calibration {
    pub fn mean(&self) -> Duration {
        self.times.iter().sum::<Duration>() / self.times.len().max(1) as u32
    }

    /// Nodes a second, from the mean time.
    pub fn nodes_per_second(&self) -> f64 {
        self.nodes as f64 / self.mean().as_secs_f64().max(1e-9)
    }

    /// The node count whose search takes `ms` on average.
    pub fn nodes_for(&self, ms: u64) -> u64 {
        (self.nodes_per_second() * ms as f64 / 1000.0).round() as u64
    }
}

/// Times `command` (program and arguments) searching each of `boards` (black to move when the
/// counts are equal) to `nodes` under `rules`; `Err` says what went wrong with the engine.
pub fn calibrate(
    command: &[String],
    rules: &Rules,
    boards: &[Board],
    nodes: u64,
) -> Result<Calibration, String> {
    let first = boards.first().ok_or("no position to time")?;
    let mut brain = Brain::spawn(command, StderrMode::Ignore).map_err(|e| format!("cannot start: {e}"))?;
    let (w, h) = (first.width(), first.height());
    let start = if w == h { format!("START {w}") } else { format!("RECTSTART {w},{h}") };
    let settings = [
        start,
        format!("INFO rule {}", rules.mask()),
        format!("INFO timeout_turn {TURN_MS}"),
        "INFO timeout_match 0".into(),
        "INFO thread_num 1".into(),
        format!("INFO max_node {nodes}"),
    ];
    let mut skipped = vec![];
    for (k, line) in settings.iter().enumerate() {
        brain.send(line).map_err(|e| format!("cannot write to it: {e}"))?;
        if k == 0 {
            answer(&mut brain, Duration::from_secs(30), &mut skipped)?;
        }
    }
    answer_board(&mut brain, first, &mut skipped)?;
    let mut times = vec![];
    for board in boards {
        let at = Instant::now();
        answer_board(&mut brain, board, &mut skipped)?;
        times.push(at.elapsed());
    }
    brain.shutdown(Duration::from_millis(500));
    Ok(Calibration { nodes, times })
}

/// Sends `board` as BOARD (field 1 the side to move's stones) and waits for the move.
fn answer_board(brain: &mut Brain, board: &Board, skipped: &mut Vec<String>) -> Result<String, String> {
    let mover = board.side_to_move();
    std::thread::sleep(PAUSE);
    brain.send("BOARD").map_err(|e| e.to_string())?;
    for &p in board.history() {
        let field = if board.get(p) == Cell::Stone(mover) { 1 } else { 2 };
        brain.send(&format!("{},{},{field}", p.x, p.y)).map_err(|e| e.to_string())?;
    }
    brain.send("DONE").map_err(|e| e.to_string())?;
    let line = answer(brain, Duration::from_millis(TURN_MS + 10_000), skipped)?;
    parse_move(&line)
        .map(|_| line.clone())
        .ok_or_else(|| format!("answered '{line}' to a position, not a move"))
}

fn answer(brain: &mut Brain, within: Duration, skipped: &mut Vec<String>) -> Result<String, String> {
    match brain.recv_answer(Instant::now() + within, skipped) {
        Received::Line(l) => Ok(l),
        Received::Timeout => Err(format!("no answer within {} s", within.as_secs())),
        Received::Closed => Err("it exited".into()),
        Received::Flood => Err("a flood of lines and no answer".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_count_for_a_time_scales_with_the_mean_time() {
        let c = Calibration {
            nodes: 100_000,
            times: vec![Duration::from_millis(150), Duration::from_millis(250)],
        };
        assert_eq!(c.mean(), Duration::from_millis(200));
        assert_eq!(c.nodes_per_second().round(), 500_000.0);
        assert_eq!(c.nodes_for(300), 150_000);
    }
}
