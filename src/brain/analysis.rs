//! Yixin-Board's analysis tasks over any [`Player`]: the N best moves (`YXNBEST`) and a move, or a
//! pair of moves, that leaves the position balanced (`YXBALANCEONE`, `YXBALANCETWO`).
//!
//! Both deepen in rounds, as one search deepens in iterations: each round asks the player at a fixed
//! depth, one deeper than the last, and a round counts only once it is complete. They stop at the
//! budget's soft limit between rounds, at its hard limit or the stop flag within one (the last
//! complete round answers), or at the depth limit; with no limit at all they go on until YXSTOP.
//!
//! Invariant: the board is never changed; every move named is legal for its side (renju fouls and
//! Pente's opening rule are never proposed).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::eval::score::WIN_THRESHOLD;
use crate::game::board::{Board, Pos};
use crate::game::rules::{Rules, Verdict};
use crate::player::{Limits, Player, Progress, Shortcut, Thought, Watch};

/// What a thought is asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Task {
    /// A move in a game (TURN, BEGIN, BOARD).
    Move,
    /// The best `n` moves, best first (`YXNBEST n`).
    NBest(usize),
    /// A move after which the position scores `bias` for the side that moved (`YXBALANCEONE`), or
    /// with `two`, a move and the opponent's answer after which it scores `bias` for the side to move
    /// now (`YXBALANCETWO`).
    Balance { two: bool, bias: i32 },
}

/// One analysed move: its score from the side to move's view, the depth it comes from (0: a
/// solver's proof) and its line.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    pub mv: Pos,
    pub score: i32,
    pub depth: i32,
    pub pv: Vec<Pos>,
}

/// What a task answers.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Answer {
    /// The thought whose move is answered and played: a game's move, the first of the N best, the
    /// balanced move (its score the balanced position's).
    pub thought: Thought,
    /// `YXNBEST`'s moves, best first.
    pub lines: Vec<Line>,
    /// `YXBALANCETWO`'s second stone, the opponent's.
    pub second: Option<Pos>,
    /// The player failed (it panicked), as this says: no move of its is answered, the engine plays
    /// any legal one.
    pub fault: Option<String>,
}

/// The depth the rounds start from: below it a round says little and costs nothing worth saving.
const FIRST_ROUND_DEPTH: u64 = 2;
/// The deepest round without a depth limit.
const LAST_ROUND_DEPTH: u64 = 60;
/// `YXBALANCETWO` tries this many first stones.
const BALANCE_FIRST_STONES: usize = 4;
/// A balance candidate's search may spend `CHILD_NODES * 2^depth` nodes.
const CHILD_NODES: u64 = 1000;
/// Candidate cells for a balanced move: empty points this close (king's moves) to a stone.
const BALANCE_RADIUS: i32 = 2;

/// Runs `task` for the side to move on `board`.
pub fn run(
    player: &dyn Player,
    board: &Board,
    rules: &Rules,
    limits: &Limits,
    stop: &AtomicBool,
    task: Task,
) -> Answer {
    match task {
        Task::Move => Answer { thought: player.think(board, rules, limits, stop), ..Answer::default() },
        Task::NBest(n) => n_best(player, board, rules, limits, stop, n.max(1)),
        Task::Balance { two, bias } => {
            let answer = balance(player, board, rules, limits, stop, two, bias);
            if answer.thought.mv.is_some() {
                return answer;
            }
            // No candidate could be scored (a player without scores, or no time): its own move, and
            // for two stones its own answer to that.
            let thought = player.think(board, rules, limits, stop);
            let second = match thought.mv {
                Some(m) if two => player.think(&after(board, &[m]), rules, limits, stop).mv,
                _ => None,
            };
            Answer { thought, second, ..Answer::default() }
        }
    }
}

/// The rounds' depths, shallowest first, within the depth limit.
fn round_depths(limits: &Limits) -> impl Iterator<Item = u64> {
    let last = limits.max_depth.unwrap_or(LAST_ROUND_DEPTH).max(1);
    FIRST_ROUND_DEPTH.min(last)..=last
}

/// Whether a round under way must be abandoned.
fn cut(limits: &Limits, stop: &AtomicBool) -> bool {
    stop.load(Ordering::Relaxed) || limits.budget.past_hard()
}

/// A thought as a line, `None` when it named no move.
fn line_of(t: &Thought) -> Option<Line> {
    let mv = t.mv?;
    let pv = match &t.shortcut {
        Some(Shortcut::Vcf(line) | Shortcut::Vct(line)) => line.clone(),
        _ => t.iterations.iter().rev().find(|it| !it.partial).map_or_else(|| vec![mv], |it| it.pv.clone()),
    };
    Some(Line { mv, score: t.score.unwrap_or(0), depth: t.depth, pv })
}

/// `watch` told only of what happens at `depth` and below it: a round's search goes over the depths the
/// rounds before it have told of already.
fn deeper_only(watch: &Option<Watch>, depth: u64) -> Option<Watch> {
    let w = watch.clone()?;
    let depth = depth as i32;
    Some(Watch(Arc::new(move |p: &Progress| {
        let at = match p {
            Progress::Iteration(it) => it.depth,
            Progress::Searching { depth, .. } | Progress::Searched { depth, .. } => *depth,
        };
        if at >= depth {
            (w.0)(p);
        }
    })))
}

/// `YXNBEST`: each round finds the best move, then the best of the others, and so on, `n` times (or
/// until no move is left), at the round's depth, and lists them best first: a later search may score its
/// move above an earlier one's. The first line's search is watched.
fn n_best(
    player: &dyn Player,
    board: &Board,
    rules: &Rules,
    limits: &Limits,
    stop: &AtomicBool,
    n: usize,
) -> Answer {
    let mut answer = Answer::default();
    for depth in round_depths(limits) {
        let mut round: Vec<(Line, Thought)> = vec![];
        while round.len() < n {
            let sub = Limits {
                max_depth: Some(depth),
                exclude: round.iter().map(|(l, _)| l.mv).collect(),
                watch: if round.is_empty() { deeper_only(&limits.watch, depth) } else { None },
                ..limits.clone()
            };
            let t = player.think(board, rules, &sub, stop);
            let line = line_of(&t);
            if cut(limits, stop) {
                // Cut before any round was complete: what this one found is all there is.
                if answer.lines.is_empty() {
                    if let Some(line) = line {
                        round.push((line, t));
                    }
                    return best_first(round).unwrap_or_default();
                }
                return answer;
            }
            let Some(line) = line else { break };
            round.push((line, t));
        }
        let Some(complete) = best_first(round) else { return answer };
        answer = complete;
        if cut(limits, stop) || limits.budget.past_soft() {
            break;
        }
    }
    answer
}

/// A round's lines as an answer: best first (a stable sort: equal scores keep the order found), the
/// best line's thought answered. `None` for a round that found no line.
fn best_first(mut round: Vec<(Line, Thought)>) -> Option<Answer> {
    round.sort_by_key(|(l, _)| std::cmp::Reverse(l.score));
    let thought = round.first()?.1.clone();
    Some(Answer { thought, lines: round.into_iter().map(|(l, _)| l).collect(), ..Answer::default() })
}

/// The empty points near the stones where the side to move may play without winning at once (a five
/// is no balanced move): the candidates for a balanced move. On an empty board, the centre's area.
fn balance_candidates(board: &Board, rules: &Rules) -> Vec<Pos> {
    let (w, h) = (board.width() as i32, board.height() as i32);
    let near = |p: Pos| {
        if board.stone_count() == 0 {
            return (p.x as i32 - w / 2).abs() <= 3 && (p.y as i32 - h / 2).abs() <= 3;
        }
        (-BALANCE_RADIUS..=BALANCE_RADIUS).any(|dy| {
            (-BALANCE_RADIUS..=BALANCE_RADIUS).any(|dx| {
                let (x, y) = (p.x as i32 + dx, p.y as i32 + dy);
                board.pos(x as i64, y as i64).is_some_and(|q| !board.is_empty(q))
            })
        })
    };
    board
        .points()
        .filter(|&p| board.is_empty(p) && near(p) && rules.verdict(board, p) == Verdict::Continue)
        .collect()
}

/// The position after `moves`, played on a copy.
fn after(board: &Board, moves: &[Pos]) -> Board {
    let mut b = board.clone();
    for &m in moves {
        b.play_unchecked(m);
    }
    b
}

/// The score of `board` for its side to move at `depth`, `None` when the player answered without a
/// search that says anything (a forced reply scores 0 without being even) or when cut.
fn score_at(
    player: &dyn Player,
    board: &Board,
    rules: &Rules,
    limits: &Limits,
    stop: &AtomicBool,
    depth: u64,
) -> Option<Thought> {
    // A node cap that grows with the depth bounds what a player spends before its search (the root's
    // threat solvers take their share of the limit), which a round repeats for every candidate.
    let cap = CHILD_NODES.saturating_mul(1 << depth.min(40));
    let max_nodes = Some(limits.max_nodes.map_or(cap, |n| n.min(cap)));
    let sub = Limits { max_depth: Some(depth), max_nodes, exclude: vec![], watch: None, ..limits.clone() };
    let t = player.think(board, rules, &sub, stop);
    let score = t.score?;
    (t.mv.is_some() && (t.depth > 0 || score.abs() >= WIN_THRESHOLD) && !cut(limits, stop)).then_some(t)
}

/// `YXBALANCEONE` / `YXBALANCETWO`: each round scores every candidate (pair) at the round's depth and
/// keeps the one whose score lies nearest `bias`.
fn balance(
    player: &dyn Player,
    board: &Board,
    rules: &Rules,
    limits: &Limits,
    stop: &AtomicBool,
    two: bool,
    bias: i32,
) -> Answer {
    let firsts = balance_candidates(board, rules);
    // YXBALANCETWO's first stones: the few that leave the position nearest the bias by a shallow look
    // (the mover's best stones leave it too good for any answer to even out).
    let firsts: Vec<Pos> = if two {
        let mut scored: Vec<(i32, Pos)> = firsts
            .iter()
            .filter_map(|&m| {
                let t = score_at(player, &after(board, &[m]), rules, limits, stop, FIRST_ROUND_DEPTH)?;
                // The child's score is the opponent's.
                Some(((-t.score? - bias).abs(), m))
            })
            .collect();
        scored.sort_by_key(|&(distance, m)| (distance, m));
        scored.into_iter().take(BALANCE_FIRST_STONES).map(|(_, m)| m).collect()
    } else {
        firsts
    };
    let pairs: Vec<Vec<Pos>> = if two {
        firsts
            .iter()
            .flat_map(|&m| {
                balance_candidates(&after(board, &[m]), rules).into_iter().map(move |r| vec![m, r])
            })
            .collect()
    } else {
        firsts.iter().map(|&m| vec![m]).collect()
    };
    let mut answer = Answer::default();
    for depth in round_depths(limits) {
        // (distance from the bias, score for the mover, the moves, the thought)
        let mut best: Option<(i32, i32, &Vec<Pos>, Thought)> = None;
        let mut complete = true;
        for moves in &pairs {
            let Some(t) = score_at(player, &after(board, moves), rules, limits, stop, depth) else {
                if cut(limits, stop) {
                    complete = false;
                    break;
                }
                continue;
            };
            let Some(s) = t.score else { continue };
            // After one stone the opponent moves: its score is the mover's negated.
            let score = if two { s } else { -s };
            let distance = (score - bias).abs();
            if best.as_ref().is_none_or(|b| distance < b.0) {
                best = Some((distance, score, moves, t));
            }
        }
        // A round cut short answers only when no round before it is complete.
        if !complete && answer.thought.mv.is_some() {
            break;
        }
        let Some((_, score, moves, t)) = best else { break };
        let thought = Thought {
            mv: Some(moves[0]),
            score: Some(score),
            depth: depth as i32,
            shortcut: None,
            iterations: t.iterations,
        };
        answer = Answer { thought, second: moves.get(1).copied(), ..Answer::default() };
        if !complete || cut(limits, stop) || limits.budget.past_soft() {
            break;
        }
    }
    answer
}
