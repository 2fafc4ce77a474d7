//! The engine's turn: the search for the side to move under the tournament's limits, its one-line
//! account, and, on a terminal, a line that shows it thinking (the time so far, the depth reached and
//! the best move yet) rewritten in place until it answers, so that the screen is not still for the
//! whole of the move's time.

use std::fmt::Write as _;
use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use anyhow::Result;

use super::screen::{cell_name, eval_words};
use super::{Tournament, refusal};
use crate::eval::score::score_text;
use crate::eval::weights::WeightMatrix;
use crate::game::board::{Board, Pos};
use crate::player::timeman::Budget;
use crate::player::{Limits, Player, Progress, TOOL_MEMORY};
use crate::search::tt::Tt;
use crate::search::{Outcome, SearchPlayer, Setup, run, tt_bytes};

/// The engine's side: the search player and its table, kept between moves.
pub(super) struct EngineSide {
    player: SearchPlayer,
    pub(super) tt: Tt,
}

impl EngineSide {
    pub(super) fn new() -> EngineSide {
        EngineSide { player: SearchPlayer::default(), tt: Tt::new(tt_bytes(TOOL_MEMORY, None)) }
    }
}

/// The engine's answer for the side to move.
pub(super) struct Reply {
    pub(super) mv: Option<Pos>,
    /// The search's score, from the mover's side (`None` when no search ran).
    pub(super) score: Option<i32>,
    /// Its one-line account.
    pub(super) text: String,
}

/// How often the thinking line is redrawn when the search has nothing new to tell.
const TICK: Duration = Duration::from_millis(100);

/// Starts the thinking line: a terminal's line is rewritten from its start (`\r`) and cleared to its
/// end (`ESC [K`), so each frame replaces the last.
const REDRAW: &str = "\r\x1b[K";

/// The engine's choice for the side to move, with its one-line account, told as `me` would say it to
/// `other` (the engine to the person, or the hint to the person). With `live` (a terminal) the
/// thinking line is shown on `out` meanwhile, headed `label`, and cleared before this returns.
pub(super) fn think(
    t: &Tournament,
    engine: &EngineSide,
    board: &Board,
    (me, other): (&str, &str),
    live: Option<(&mut dyn Write, &str)>,
) -> Result<Reply> {
    let rules = t.cfg.rules;
    let stop = AtomicBool::new(false);
    // With a depth limit the depth alone ends the thought.
    let ms = if t.cfg.depth.is_some() { 0 } else { t.cfg.time_ms };
    let limits = Limits {
        max_depth: t.cfg.depth,
        ..Limits::new(Budget::per_move(ms, board.empty_count()), t.cfg.threads.max(1), TOOL_MEMORY)
    };
    let started = limits.budget.start;
    let Some(pats) = engine.player.patterns(&rules) else {
        let th = engine.player.think(board, &rules, &limits, &stop);
        return Ok(Reply { mv: th.mv, score: None, text: String::new() });
    };
    let pool = engine.player.pool(limits.threads);
    let setup = Setup {
        pats,
        tt: &engine.tt,
        limits: Some(&limits),
        max_depth: t.cfg.depth.map_or(60, |d| d.clamp(1, 60) as i32),
        pool: pool.as_deref(),
        stop: &stop,
        use_vct: true,
        progress: None,
        exclude: &[],
        params: &engine.player.params,
        evaluator: engine.player.evaluator,
    };
    let outcome = match live {
        None => run(board, &setup),
        Some((out, label)) => {
            let (send, iterations) = channel();
            std::thread::scope(|scope| {
                let searching = scope.spawn(|| {
                    // The sender goes when the search ends: the thinking line stops then.
                    let send = send;
                    let tell = move |p: &Progress| {
                        if let Progress::Iteration(it) = p {
                            let _ = send.send((it.depth, it.best, it.score));
                        }
                    };
                    run(board, &Setup { progress: Some(&tell), ..setup })
                });
                let shown = show_thinking(out, label, &iterations, started);
                // The search ends on its own limits, whatever became of the screen.
                let outcome: Outcome = searching.join().unwrap_or_else(|e| std::panic::resume_unwind(e));
                shown.map(|()| outcome)
            })?
        }
    };
    let mut mv = outcome.mv.filter(|&p| board.is_empty(p) && refusal(&t.cfg, board, p).is_none());
    let searched = mv.is_some();
    if mv.is_none() {
        // The search knows the opening rule only under Pente: elsewhere the first player's second
        // stone is the heaviest legal cell of the weight matrix.
        let me = board.side_to_move();
        let matrix = WeightMatrix::default().matrix(board, &rules, me);
        mv = board
            .points()
            .filter(|&p| refusal(&t.cfg, board, p).is_none())
            .max_by_key(|p| (matrix[p.y as usize * board.width() + p.x as usize], std::cmp::Reverse(*p)));
    }
    let verdict = if searched { "" } else { "; the opening rule moved it to the best cell 3 points out" };
    // No-break spaces (see `screen::wrap`) keep each number with its word when the line is wrapped.
    let text = format!(
        "eval\u{a0}{}, depth\u{a0}{}, {}\u{a0}nodes, {:.2}\u{a0}s{verdict}",
        eval_words(outcome.score, me, other),
        outcome.depth,
        outcome.nodes,
        started.elapsed().as_secs_f64()
    );
    Ok(Reply { mv, score: Some(outcome.score), text })
}

/// Shows the thinking line until the search hangs up: a frame at once, one for each iteration it
/// tells of, and one every [`TICK`] between (the spinner and the time move even while a deep
/// iteration or a threat solver runs). The frames stay well within 80 columns.
fn show_thinking(
    out: &mut dyn Write,
    label: &str,
    iterations: &Receiver<(i32, Pos, i32)>,
    started: Instant,
) -> std::io::Result<()> {
    const SPINNER: [char; 4] = ['|', '/', '-', '\\'];
    let mut latest = None;
    for frame in 0usize.. {
        let mut line = format!("{} {label} {:.1} s", SPINNER[frame % 4], started.elapsed().as_secs_f64());
        if let Some((depth, mv, score)) = latest {
            let _ = write!(line, ": depth {depth}, best {}, eval {}", cell_name(mv), score_text(score));
        }
        write!(out, "{REDRAW}{line}")?;
        out.flush()?;
        match iterations.recv_timeout(TICK) {
            Ok(told) => latest = Some(told),
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => break,
        }
    }
    write!(out, "{REDRAW}")?;
    out.flush()
}

/// Wipes the `n` lines above the cursor and leaves it on the highest: each line typed while the
/// engine thought was echoed by the terminal, its Enter leaving a line with an old frame and the
/// typed text on it.
pub(super) fn wipe_lines_above(out: &mut impl Write, n: usize) -> std::io::Result<()> {
    for _ in 0..n {
        // Up a line (ESC [A), then clear all of it (ESC [2K).
        write!(out, "\x1b[A\x1b[2K")?;
    }
    out.flush()
}
