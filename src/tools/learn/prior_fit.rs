//! Fitting the move prior (`eval::policy`) to the best moves of deep labels: a conditional logit
//! model, where each candidate's logit is the prior's score of it in hundredths, fitted by maximum
//! likelihood that the deep search's best move is the one chosen among the position's candidates.
//!
//! A choice is one quiet position (no five and no open-four point for either side: the classes that
//! decide those keep their hand-set values) with its candidates, the empty cells near the stones that
//! the search tries (renju black's fouls left out), each as the prior's numbers it sums. The labels of
//! games whose number ends in 0 are held out, as in `train`'s fit of the evaluation; the held-out
//! log-loss of the best move and how often the prior ranks it first are the measure.
//!
//! Invariant: under [`flatten`] of a prior, a candidate's logit is exactly `Position::prior` of its
//! cell under that prior (a test holds them equal), so the fit improves the order the search uses.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use rayon::prelude::*;

use crate::eval::model::family;
use crate::eval::policy::{DISTANCES, Prior};
use crate::eval::position::Position;
use crate::game::board::Pos;
use crate::game::pattern::{Class, Patterns, Shape};
use crate::game::rules::{Rules, Variant};
use crate::tools::learn::selfplay::GameRecord;
use crate::tools::learn::train::{Adam, patterns_for};

/// A prior's numbers, flattened: line shapes, classes, pairs of shapes (each by role), distances.
const SHAPE_AT: usize = 0;
const CLASS_AT: usize = SHAPE_AT + 2 * Shape::COUNT;
const PAIR_AT: usize = CLASS_AT + 2 * Class::COUNT;
const DISTANCE_AT: usize = PAIR_AT + 2 * Shape::COUNT * Shape::COUNT;
/// How many numbers a prior has.
pub const VALUES: usize = DISTANCE_AT + 2 * DISTANCES;

/// A prior's numbers in one list (see the offsets above).
pub fn flatten(p: &Prior) -> Vec<f64> {
    let mut v = Vec::with_capacity(VALUES);
    v.extend(p.shape.iter().flatten().map(|&x| x as f64));
    v.extend(p.class.iter().flatten().map(|&x| x as f64));
    v.extend(p.pair.iter().flatten().map(|&x| x as f64));
    v.extend(p.distance.iter().flatten().map(|&x| x as f64));
    debug_assert_eq!(v.len(), VALUES);
    v
}

/// The prior of flattened numbers, rounded (each kept within `i16`, as the tables hold them).
pub fn unflatten(v: &[f64]) -> Prior {
    let round = |x: f64| x.round().clamp(-32768.0, 32767.0) as i32;
    let mut p = Prior::STANDARD;
    let mut it = v.iter().map(|&x| round(x));
    for slot in p.shape.iter_mut().flatten() {
        *slot = it.next().unwrap_or(*slot);
    }
    for slot in p.class.iter_mut().flatten() {
        *slot = it.next().unwrap_or(*slot);
    }
    for slot in p.pair.iter_mut().flatten() {
        *slot = it.next().unwrap_or(*slot);
    }
    for slot in p.distance.iter_mut().flatten() {
        *slot = it.next().unwrap_or(*slot);
    }
    p
}

/// One candidate: the prior's numbers its score sums (index, count).
type Candidate = Vec<(u16, f32)>;

/// One labelled position: its candidates and which of them the deep search chose.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice {
    pub candidates: Vec<Candidate>,
    pub best: usize,
    /// Held out of the fit (its game's number ends in 0).
    pub held_out: bool,
}

impl Choice {
    fn logits(&self, w: &[f64]) -> Vec<f64> {
        self.candidates
            .iter()
            .map(|c| c.iter().map(|&(j, n)| w[j as usize] * n as f64).sum::<f64>() / 100.0)
            .collect()
    }

    /// The log-loss of the best move under `w`, and whether `w` ranks it first (ties count against).
    pub fn judge(&self, w: &[f64]) -> (f64, bool) {
        let z = self.logits(w);
        let top = z.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        let sum: f64 = z.iter().map(|x| (x - top).exp()).sum();
        let first = z.iter().enumerate().all(|(k, &x)| k == self.best || x < z[self.best]);
        (top + sum.ln() - z[self.best], first)
    }
}

/// The choice of `pos` with the deep search's move `best`, when the position is quiet and the move one
/// of its candidates.
pub fn choice(pos: &Position, best: Pos, held_out: bool) -> Option<Choice> {
    let me = pos.side();
    let opp = me.opp();
    if [me, opp].iter().any(|&c| pos.count(c, Class::Five) + pos.count(c, Class::Flex4) > 0) {
        return None;
    }
    let recent: Vec<usize> = pos.history().iter().rev().take(2).copied().collect();
    let mut candidates = vec![];
    let mut at = None;
    for i in pos.indices().filter(|&i| pos.is_empty(i) && pos.is_near(i)) {
        if pos.class(i, me) == Class::Forbidden {
            continue;
        }
        let mut counts: HashMap<u16, f32> = HashMap::new();
        for (c, role) in [(me, 0), (opp, 1)] {
            let shapes = pos.shapes(i, c);
            for s in shapes {
                *counts.entry((SHAPE_AT + role * Shape::COUNT + s as usize) as u16).or_default() += 1.0;
            }
            *counts.entry((CLASS_AT + role * Class::COUNT + pos.class(i, c) as usize) as u16).or_default() +=
                1.0;
            let pair = PAIR_AT + role * Shape::COUNT * Shape::COUNT + Shape::pair_index(shapes);
            *counts.entry(pair as u16).or_default() += 1.0;
        }
        for (role, &j) in recent.iter().enumerate() {
            let d = pos.distance(i, j).clamp(1, DISTANCES) - 1;
            *counts.entry((DISTANCE_AT + role * DISTANCES + d) as u16).or_default() += 1.0;
        }
        if pos.pos_of(i) == best {
            at = Some(candidates.len());
        }
        let mut counts: Candidate = counts.into_iter().collect();
        counts.sort_by_key(|&(j, _)| j);
        candidates.push(counts);
    }
    Some(Choice { best: at?, candidates, held_out })
}

/// The choices of label records: each position after a record's opening with the move played there
/// (a label's one move is its deep best move), each position once; Pente left out (its order is the
/// weight matrix's). Also returns how many positions were read.
pub fn gather(records: &[GameRecord]) -> (Vec<Choice>, usize) {
    let mut patterns: HashMap<Rules, Arc<Patterns>> = HashMap::new();
    let mut seen: HashSet<(usize, u64)> = HashSet::new();
    let mut out = vec![];
    let mut read = 0;
    for r in records {
        if matches!(r.rules.variant, Variant::Pente { .. }) {
            continue;
        }
        let (Some(positions), Some(pats)) = (r.positions(), patterns_for(&mut patterns, &r.rules)) else {
            continue;
        };
        for (k, (board, _, _)) in positions.into_iter().enumerate() {
            read += 1;
            let pos = Position::new(&board, Arc::clone(&pats));
            if !seen.insert((family(&r.rules), pos.hash())) {
                continue;
            }
            out.extend(choice(&pos, r.moves[r.opening + k], r.index % 10 == 0));
        }
    }
    (out, read)
}

/// The held-out (or fitted, as `held_out` says) choices' mean log-loss and share ranked first.
pub fn measure(choices: &[Choice], w: &[f64], held_out: bool) -> (f64, f64) {
    let (loss, first, n) = choices
        .par_iter()
        .filter(|c| c.held_out == held_out)
        .map(|c| {
            let (l, f) = c.judge(w);
            (l, usize::from(f), 1usize)
        })
        .reduce(|| (0.0, 0, 0), |a, b| (a.0 + b.0, a.1 + b.1, a.2 + b.2));
    if n == 0 { (f64::NAN, f64::NAN) } else { (loss / n as f64, first as f64 / n as f64) }
}

/// How to fit the prior.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PriorFitConfig {
    pub epochs: usize,
    /// Adam's step (hundredths).
    pub rate: f64,
    /// The width (hundredths) of the Gaussian that keeps each number near its starting value.
    pub sigma: f64,
}

/// Fits `start` to the choices not held out; `progress` hears of every tenth epoch (the epoch, the
/// fitted choices' mean log-loss, the held-out one). Returns the fitted numbers.
pub fn fit(
    choices: &[Choice],
    start: &[f64],
    cfg: &PriorFitConfig,
    progress: &mut dyn FnMut(usize, f64, f64),
) -> Vec<f64> {
    let train: Vec<&Choice> = choices.iter().filter(|c| !c.held_out).collect();
    // The log-loss of the chosen move under the softmax of the logits, and its gradient.
    let gradient = |c: &Choice, w: &[f64], g: &mut [f64]| {
        let z = c.logits(w);
        let top = z.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        let e: Vec<f64> = z.iter().map(|x| (x - top).exp()).collect();
        let sum: f64 = e.iter().sum();
        for (k, cand) in c.candidates.iter().enumerate() {
            let d = (e[k] / sum - f64::from(u8::from(k == c.best))) / 100.0;
            for &(j, cnt) in cand {
                g[j as usize] += d * cnt as f64;
            }
        }
        top + sum.ln() - z[c.best]
    };
    let adam = Adam { start, rate: cfg.rate, sigma: cfg.sigma, epochs: cfg.epochs };
    adam.fit(&train, gradient, |epoch, w, loss| progress(epoch, loss, measure(choices, w, true).0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::board::Board;

    fn position(rule: &str, moves: &str) -> Position {
        let rules = Rules::named(rule).expect("a rule");
        let pats = Arc::new(Patterns::new(&rules).expect("tables"));
        Position::new(&Board::from_moves(15, 15, moves).expect("a game"), pats)
    }

    #[test]
    fn a_candidates_logit_is_the_positions_prior_of_its_cell() {
        let w = flatten(&Prior::STANDARD);
        assert_eq!(unflatten(&w), Prior::STANDARD);
        for (rule, moves) in [("freestyle", "h8i9j10h10i10i11"), ("renju", "h8h9i8i9j8g8j9k10")] {
            let pos = position(rule, moves);
            let cells: Vec<usize> = pos
                .indices()
                .filter(|&i| {
                    pos.is_empty(i) && pos.is_near(i) && pos.class(i, pos.side()) != Class::Forbidden
                })
                .collect();
            let c = choice(&pos, pos.pos_of(cells[0]), false).expect("quiet");
            assert_eq!(c.candidates.len(), cells.len());
            for (z, &i) in c.logits(&w).iter().zip(&cells) {
                assert_eq!((z * 100.0).round(), pos.prior(i) as f64, "{rule} {}", pos.pos_of(i).notation());
            }
        }
    }

    #[test]
    fn the_fit_learns_to_rank_the_chosen_move_first() {
        // Black to move beside its two stones, always choosing to extend the line to an open three:
        // whatever the starting prior ranks first, the fit moves the three's point up.
        let pos = position("freestyle", "h8a1i8a15");
        let three = Pos::parse_list("j8").expect("a point")[0];
        let c = choice(&pos, three, false).expect("quiet");
        let choices = vec![c.clone(); 50];
        let mut start = flatten(&Prior::STANDARD);
        for x in start.iter_mut().take(CLASS_AT + Class::COUNT).skip(CLASS_AT) {
            *x = 0.0;
        }
        let before = c.judge(&start).0;
        let cfg = PriorFitConfig { epochs: 100, rate: 5.0, sigma: 1e6 };
        let w = fit(&choices, &start, &cfg, &mut |_, _, _| {});
        let (after, first) = c.judge(&w);
        assert!(after < before && first, "{before} -> {after}");
    }
}
