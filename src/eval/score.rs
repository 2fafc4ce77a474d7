//! The score scale that the evaluation, the solvers and the search share, and the quiet evaluation of a
//! position with the numbers a tuner may move ([`EvalParams`]). Scores are from the side to move's view;
//! a win in n plies is `WIN - n`, and anything past `WIN_THRESHOLD` is a proven result, never an
//! evaluation.

use crate::eval::position::Position;

/// A win now; a win in n plies scores `WIN - n`.
pub const WIN: i32 = 30_000;
/// Scores beyond this are proven wins or losses.
pub const WIN_THRESHOLD: i32 = WIN - 1000;

/// The evaluation's numbers a tuner may move: the search's `Params` carry them, by the names given
/// here, and hand them to [`evaluate_with`]; [`EvalParams::DEFAULT`] is what the search was tuned with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EvalParams {
    /// The fitted evaluation is divided by this (`eval_divisor`), which sets the scale the search's
    /// margins apply to.
    pub divisor: i64,
    /// Pente: our weight-matrix sum counts this percentage against the opponent's, the side to move's
    /// tempo (`pente_own_percent`).
    pub pente_own_percent: i64,
    /// Pente: the weight sums' difference is divided by this (`pente_eval_divisor`).
    pub pente_divisor: i64,
    /// Pente: a captured stone is worth this (`pente_stone`), and `pente_race` more by the square of
    /// the share of the winning count reached.
    pub pente_stone: i32,
    /// See `pente_stone`.
    pub pente_race: i32,
    /// Pente: the side to move counts this many twelfths of its best capture's worth
    /// (`pente_cash_twelfths`), not all of it: the opponent gets a reply.
    pub pente_cash_twelfths: i64,
    /// Pente: the cost of each of our pairs the opponent could take (`pente_exposed`).
    pub pente_exposed: i64,
}

impl EvalParams {
    pub const DEFAULT: EvalParams = EvalParams {
        divisor: 10,
        pente_own_percent: 120,
        pente_divisor: 4,
        pente_stone: 20,
        pente_race: 400,
        pente_cash_twelfths: 8,
        pente_exposed: 12,
    };
}

/// A quiet evaluation from the side to move's view, with the tuned numbers (see [`evaluate_with`]).
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_with(pos, &EvalParams::DEFAULT)
}

/// A quiet evaluation from the side to move's view. Without captures it is the fitted evaluation of
/// the position (line shapes and classes of every empty cell, for the side to move and for the side
/// that waits, and which threat classes each side has at all; see `eval::model`). Pente keeps the
/// weight-matrix sum with its capture terms, which the fit knows nothing of.
///
/// The margins taken from Rapfi (reverse futility, fail-high reduction, razoring, aspiration) apply to
/// this value as it is, though it spreads about half as wide as Rapfi's: scaled up or down to meet
/// them, the evaluation played worse (docs/search.md, "Evaluation", Scale).
pub fn evaluate_with(pos: &Position, p: &EvalParams) -> i32 {
    if pos.capture_rule().is_none() {
        let v = pos.fitted_eval() / p.divisor;
        return v.clamp(-(WIN_THRESHOLD - 1) as i64, (WIN_THRESHOLD - 1) as i64) as i32;
    }
    let me = pos.side();
    let mine = pos.weight_sum(me);
    let theirs = pos.weight_sum(me.opp());
    let mut v = (mine * p.pente_own_percent / 100 - theirs) / p.pente_divisor;
    if let Some(rule) = pos.capture_rule() {
        let worth = |n: u32| capture_worth(p, n, rule.to_win as u32) as i64;
        let (took, lost) = (pos.captured(me), pos.captured(me.opp()));
        v += worth(took) - worth(lost);
        // The side to move cashes its best capture (most of it: the opponent gets a reply), and
        // every pair of ours the opponent could take is a weakness.
        let best = pos.capture_moves(me).iter().map(|m| m.1).max().unwrap_or(0);
        v += (worth(took + best) - worth(took)) * p.pente_cash_twelfths / 12;
        v -= p.pente_exposed * pos.capture_moves(me.opp()).len() as i64;
    }
    v.clamp(-(WIN_THRESHOLD - 1) as i64, (WIN_THRESHOLD - 1) as i64) as i32
}

/// What `n` captured stones are worth when `to_win` win: steadily more as the count nears the win.
fn capture_worth(p: &EvalParams, n: u32, to_win: u32) -> i32 {
    let n = n.min(to_win) as i32;
    let t = to_win.max(1) as i32;
    n * p.pente_stone + n * n * p.pente_race / (t * t)
}

/// The chance of winning a score stands for, for GUIs that show one (Yixin-Board's `WINRATE`): the
/// evaluation was fitted to Rapfi's win rate, `sigmoid(eval / 250)`, and spreads half as wide as its
/// evaluation (see [`evaluate`]), so a score converts with half that scale. Proven results are 0 and 1.
pub fn win_rate(v: i32) -> f64 {
    if v >= WIN_THRESHOLD {
        1.0
    } else if v <= -WIN_THRESHOLD {
        0.0
    } else {
        1.0 / (1.0 + (-(v as f64) / 125.0).exp())
    }
}

/// A score for people: `+W7` for a win in 7 plies, `-W4` for a loss, else the number.
pub fn score_text(v: i32) -> String {
    if v >= WIN_THRESHOLD {
        format!("+W{}", WIN - v)
    } else if v <= -WIN_THRESHOLD {
        format!("-W{}", WIN + v)
    } else {
        v.to_string()
    }
}
