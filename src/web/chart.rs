//! The chart of a game as the page draws it: `analyze`'s judgement of every move by the board's
//! engine ([`analysed`]), or, for a game engines played, the evaluations they told with their moves
//! ([`of_notes`]); an SVG from `tools::analyze::chart` with the geometry that turns a click into a move.
//!
//! Invariant: a chart has one point per move of the game it was drawn for, the opening's stones
//! included (a move with no value is a hollow point).

use std::sync::atomic::{AtomicBool, Ordering};

use serde::Serialize;

use crate::game::board::{Board, Color};
use crate::game::rules::Rules;
use crate::tools::analyze::{self, DEFAULT_MARGIN, Report, Row};
use crate::tools::client::judge::{Judge, Opinion};
use crate::tools::record::read::Replayed;
use crate::web::game::Game;

/// A finished game's analysis, for the page.
#[derive(Clone, Debug, Serialize)]
pub struct Chart {
    pub svg: String,
    /// The chart's geometry, so a click finds its move: the plot's left edge and width in the SVG's
    /// units, and the number of moves.
    pub left: f64,
    pub plot_width: f64,
    pub width: f64,
    pub moves: usize,
    /// The moves marked as mistakes (numbers from 1) and what they lost.
    pub mistakes: Vec<(usize, i32)>,
}

/// `analyze`'s chart of `game` by `judge` (its marks against the default margin), given up once `stop`
/// is set; `progress` is told each move's number and the number of moves.
pub fn analysed(
    game: &Replayed,
    winner: Option<Color>,
    judge: Box<dyn Judge + Send>,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Chart, String> {
    let mut judge = Stoppable { inner: judge, stop };
    analyze::analyse(game, winner, &mut judge, DEFAULT_MARGIN, progress)
        .map(|r| chart_of(&r, "the game", None))
}

/// A judge that gives up once its stop flag is set.
struct Stoppable<'a> {
    inner: Box<dyn Judge + Send>,
    stop: &'a AtomicBool,
}

impl Judge for Stoppable<'_> {
    fn new_game(&mut self, rules: &Rules, width: usize, height: usize) -> Result<(), String> {
        self.inner.new_game(rules, width, height)
    }

    fn judge(&mut self, board: &Board, rules: &Rules) -> Result<Opinion, String> {
        if self.stop.load(Ordering::Relaxed) {
            return Err("stopped".into());
        }
        self.inner.judge(board, rules)
    }

    fn scores(&self) -> bool {
        self.inner.scores()
    }
}

/// The chart of the evaluations a watched game's engines told with their moves (the mover's view),
/// without marks: none when they told none.
pub fn of_notes(game: &Game) -> Option<Chart> {
    if !game.notes.iter().any(|n| n.is_some_and(|n| n.eval.is_some())) {
        return None;
    }
    let rows = (game.moves.iter().zip(&game.notes).enumerate())
        .map(|(i, (&played, note))| Row {
            number: i + 1,
            color: game.mover(i),
            played,
            best: None,
            before: None,
            after: note.and_then(|n| n.eval),
            proof: None,
            mistake: None,
            let_go: false,
        })
        .collect();
    let at_end = Game { cursor: game.moves.len(), ..game.clone() };
    let ending = at_end.ending();
    let r = Report { rows, winner: ending.as_ref().and_then(|e| e.winner) };
    let title = format!("{} v {}: their own evaluations", game.names[0], game.names[1]);
    Some(chart_of(&r, &title, ending.map(|e| e.reason)))
}

fn chart_of(r: &Report, title: &str, why: Option<String>) -> Chart {
    let result = match r.winner {
        Some(c) => format!("{} wins", c.name()),
        None => "no winner".into(),
    };
    let result = match why {
        Some(why) => format!("{result}: {why}"),
        None => result,
    };
    Chart {
        svg: analyze::chart(r, title, &result),
        left: analyze::LEFT,
        plot_width: analyze::WIDTH - analyze::LEFT - analyze::RIGHT,
        width: analyze::WIDTH,
        moves: r.rows.len(),
        mistakes: r.rows.iter().filter_map(|row| row.mistake.map(|m| (row.number, m))).collect(),
    }
}
