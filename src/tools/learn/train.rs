//! Fitting the evaluation model to self-play: the quiet positions of `selfplay` files, each with the
//! game's result and the search's score, and a logistic regression of a blend of the two on the
//! model's values.
//!
//! The model's evaluation is linear in its values (`eval::model`): a position is a sparse count of
//! which values it sums (each empty cell's four-shape combination for the side to move and for the
//! side that waits, its threat combination, its constant), so the fit is a logistic regression on
//! those counts: `p = sigmoid(eval / (10 S))` against the target `λ result + (1 − λ) sigmoid(score / S)`,
//! with a Gaussian prior that keeps each value near the starting model's (a value the data rarely
//! sees stays as it was). Full-batch Adam; the games whose number ends in 0 are held out, and the
//! log-loss of the result alone on them is the measure.
//!
//! Invariant: [`Sample::eval`] of the starting model is exactly `Position::fitted_eval` of the
//! position (a test holds them equal), so the fit improves the evaluation the search runs.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use rayon::prelude::*;

use crate::eval::model::{EvalModel, FAMILIES, KEYS, THREATS, cell_index, family, key_of};
use crate::eval::position::Position;
use crate::eval::score::WIN_THRESHOLD;
use crate::game::board::Color;
use crate::game::pattern::{Class, Patterns};
use crate::game::rules::{Rules, Variant};
use crate::tools::learn::selfplay::GameRecord;

/// Values of a model, flattened: the cells, then the threat values, then the constants.
const CELLS: usize = 4 * 2 * 2 * KEYS;
const THREAT_AT: usize = CELLS;
const BIAS_AT: usize = CELLS + 4 * THREATS;
const VALUES: usize = BIAS_AT + 4 * 2;

/// One quiet position: the values it sums (index, count), the result for the side to move (1, ½,
/// 0), and the search's score of it from that side's view.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    pub counts: Vec<(u32, f32)>,
    pub result: f32,
    pub score: i32,
    /// Held out of the fit (its game's number ends in 0).
    pub held_out: bool,
}

impl Sample {
    /// The evaluation (tenths of a point) `values` give this position.
    pub fn eval(&self, values: &[f64]) -> f64 {
        self.counts.iter().map(|&(j, n)| values[j as usize] * n as f64).sum()
    }
}

/// A model's values, flattened (see [`VALUES`]).
pub fn flatten(m: &EvalModel) -> Vec<f64> {
    let mut v: Vec<f64> = m.cells.iter().map(|&x| x as f64).collect();
    v.extend(m.threat.iter().map(|&x| x as f64));
    v.extend(m.bias.iter().flatten().map(|&x| x as f64));
    debug_assert_eq!(v.len(), VALUES);
    v
}

/// Whether a family's rules are the same for both colours (all but renju): then a position and the
/// same one with the colours swapped are one position, and the fit keeps one value for both colours
/// (black's slots; [`unflatten`] copies them to white's), so that the evaluation cannot favour a colour.
pub fn colour_blind(family: usize) -> bool {
    FAMILIES[family] != "renju"
}

/// The model of flattened values, rounded, with `about` (colour-blind families' white values copied
/// from black's).
pub fn unflatten(v: &[f64], about: Vec<String>) -> EvalModel {
    let round = |x: f64| x.round().clamp(i32::MIN as f64, i32::MAX as f64) as i32;
    let mut m = EvalModel::zero();
    for (c, x) in m.cells.iter_mut().zip(&v[..CELLS]) {
        *c = round(*x);
    }
    for (t, x) in m.threat.iter_mut().zip(&v[THREAT_AT..BIAS_AT]) {
        *t = round(*x);
    }
    for f in 0..4 {
        m.bias[f] = [round(v[BIAS_AT + 2 * f]), round(v[BIAS_AT + 2 * f + 1])];
        if colour_blind(f) {
            m.bias[f][1] = m.bias[f][0];
            for role in 0..2 {
                let (black, white) = (cell_index(f, 0, role, 0), cell_index(f, 1, role, 0));
                m.cells.copy_within(black..black + KEYS, white);
            }
        }
    }
    m.about = about;
    m
}

/// The sample of `pos` (the side to move's view) when it is quiet: the side to move has no five and
/// no open four to make, the other side no five, and the search scored it short of a proven result.
pub fn sample(
    pos: &Position,
    rules: &Rules,
    score: Option<i32>,
    result: f64,
    held_out: bool,
) -> Option<Sample> {
    let score = score.filter(|s| s.abs() < WIN_THRESHOLD)?;
    let me = pos.side();
    let opp = me.opp();
    if pos.count(me, Class::Five) + pos.count(me, Class::Flex4) + pos.count(opp, Class::Five) > 0 {
        return None;
    }
    let f = family(rules);
    let colour = |c: Color| if colour_blind(f) { 0 } else { c.index() };
    let mut counts: HashMap<u32, f32> = HashMap::new();
    for i in pos.indices().filter(|&i| pos.is_empty(i)) {
        for (c, role) in [(me, 0), (opp, 1)] {
            // A renju foul is worth nothing to its side: no value of the model is summed.
            if pos.class(i, c) == Class::Forbidden {
                continue;
            }
            let j = cell_index(f, colour(c), role, key_of(pos.shapes(i, c)));
            *counts.entry(j as u32).or_default() += 1.0;
        }
    }
    *counts.entry((THREAT_AT + f * THREATS + pos.threat_mask()) as u32).or_default() += 1.0;
    *counts.entry((BIAS_AT + 2 * f + colour(me)) as u32).or_default() += 1.0;
    let mut counts: Vec<(u32, f32)> = counts.into_iter().collect();
    counts.sort_by_key(|&(j, _)| j);
    Some(Sample { counts, result: result as f32, score, held_out })
}

/// What the files gave.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Gathered {
    pub samples: Vec<Sample>,
    /// Where each sample was found: its game's place in the slice given and the moves played before it.
    pub origins: Vec<(usize, usize)>,
    pub games: usize,
    /// Positions read, and those left out as repeats or as not quiet.
    pub positions: usize,
    pub repeats: usize,
    pub not_quiet: usize,
}

/// The pattern tables of `rules`, built once per rule set in `cache`; `None` where there are none.
pub fn patterns_for(cache: &mut HashMap<Rules, Arc<Patterns>>, rules: &Rules) -> Option<Arc<Patterns>> {
    if let Some(p) = cache.get(rules) {
        return Some(Arc::clone(p));
    }
    let p = Arc::new(Patterns::new(rules)?);
    cache.insert(*rules, Arc::clone(&p));
    Some(p)
}

/// The quiet positions of `games` (Pente's left out: its evaluation is not the model's), each once.
pub fn gather(games: &[GameRecord]) -> Gathered {
    let mut patterns: HashMap<Rules, Arc<Patterns>> = HashMap::new();
    let mut seen: HashSet<(usize, u64)> = HashSet::new();
    let mut g = Gathered::default();
    for (game_at, game) in games.iter().enumerate() {
        if matches!(game.rules.variant, Variant::Pente { .. }) {
            continue;
        }
        let Some(positions) = game.positions() else { continue };
        let Some(pats) = patterns_for(&mut patterns, &game.rules) else { continue };
        g.games += 1;
        let held_out = game.index % 10 == 0;
        for (k, (board, score, result)) in positions.into_iter().enumerate() {
            g.positions += 1;
            let pos = Position::new(&board, Arc::clone(&pats));
            if !seen.insert((family(&game.rules), pos.hash())) {
                g.repeats += 1;
                continue;
            }
            match sample(&pos, &game.rules, score, result, held_out) {
                Some(s) => {
                    g.samples.push(s);
                    g.origins.push((game_at, game.opening + k));
                }
                None => g.not_quiet += 1,
            }
        }
    }
    g
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Cross-entropy of `p` against the target `t`.
fn log_loss(t: f64, p: f64) -> f64 {
    let p = p.clamp(1e-9, 1.0 - 1e-9);
    -(t * p.ln() + (1.0 - t) * (1.0 - p).ln())
}

/// The mean log-loss of the results of `samples` (held out or not, as `held_out` says) under `values`
/// at the scale `scale` (points).
pub fn result_loss(samples: &[Sample], values: &[f64], scale: f64, held_out: bool) -> f64 {
    let (sum, n) = samples
        .par_iter()
        .filter(|s| s.held_out == held_out)
        .map(|s| (log_loss(s.result as f64, sigmoid(s.eval(values) / (10.0 * scale))), 1usize))
        .reduce(|| (0.0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    if n == 0 { f64::NAN } else { sum / n as f64 }
}

/// The scale (points) at which `values` predict the fitted samples' results best: a golden-section
/// search of the log-loss from 20 to 2000.
pub fn best_scale(samples: &[Sample], values: &[f64]) -> f64 {
    let loss = |s: f64| result_loss(samples, values, s, false);
    let (mut a, mut b) = (20f64.ln(), 2000f64.ln());
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let (c, d) = (b - g * (b - a), a + g * (b - a));
        if loss(c.exp()) < loss(d.exp()) { b = d } else { a = c }
    }
    ((a + b) / 2.0).exp()
}

/// How to fit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FitConfig {
    /// The result's share of the target; the search score's is the rest.
    pub lambda: f64,
    /// Points for which the evaluation's odds change by e (the logistic scale).
    pub scale: f64,
    /// The prior's width (tenths of a point) around each starting value.
    pub sigma: f64,
    pub epochs: usize,
    /// Adam's step (tenths of a point).
    pub rate: f64,
}

/// One epoch's figures.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Epoch {
    pub epoch: usize,
    /// The training objective (the blended target's log-loss, without the prior).
    pub train: f64,
    /// The held-out log-loss of the result.
    pub held_out: f64,
}

/// Fits `start` to the samples not held out; `progress` is told of every tenth epoch. Returns the
/// fitted values.
pub fn fit(samples: &[Sample], start: &[f64], cfg: &FitConfig, progress: &mut dyn FnMut(Epoch)) -> Vec<f64> {
    let train: Vec<&Sample> = samples.iter().filter(|s| !s.held_out).collect();
    let k = 10.0 * cfg.scale;
    // The cross-entropy against the blended target, and its gradient.
    let gradient = |s: &Sample, w: &[f64], g: &mut [f64]| {
        let t = cfg.lambda * s.result as f64 + (1.0 - cfg.lambda) * sigmoid(s.score as f64 / cfg.scale);
        let p = sigmoid(s.eval(w) / k);
        let d = (p - t) / k;
        for &(j, c) in &s.counts {
            g[j as usize] += d * c as f64;
        }
        log_loss(t, p)
    };
    let adam = Adam { start, rate: cfg.rate, sigma: cfg.sigma, epochs: cfg.epochs };
    adam.fit(&train, gradient, |epoch, w, train| {
        progress(Epoch { epoch, train, held_out: result_loss(samples, w, cfg.scale, true) })
    })
}

/// Full-batch Adam from `start`, with a Gaussian prior of width `sigma` around it that keeps a value
/// the data rarely sees near where it began: the one optimiser of the evaluation's and the move
/// prior's fits.
pub struct Adam<'a> {
    pub start: &'a [f64],
    pub rate: f64,
    pub sigma: f64,
    pub epochs: usize,
}

impl Adam<'_> {
    /// The values fitted to `items`: `gradient` adds an item's gradient at the values to the slice
    /// and returns its loss; `progress` hears of every tenth epoch (the epoch, the values, the items'
    /// mean loss).
    pub fn fit<T: Sync>(
        &self,
        items: &[&T],
        gradient: impl Fn(&T, &[f64], &mut [f64]) -> f64 + Sync,
        mut progress: impl FnMut(usize, &[f64], f64),
    ) -> Vec<f64> {
        let n = items.len().max(1) as f64;
        let mut w = self.start.to_vec();
        let (mut m, mut v) = (vec![0.0; w.len()], vec![0.0; w.len()]);
        let (b1, b2, eps) = (0.9, 0.999, 1e-8);
        for epoch in 1..=self.epochs {
            // The summed gradient and loss, in chunks on every core.
            let (grad, loss) = items
                .par_chunks(1024)
                .map(|chunk| {
                    let mut g = vec![0.0; w.len()];
                    let loss: f64 = chunk.iter().map(|item| gradient(item, &w, &mut g)).sum();
                    (g, loss)
                })
                .reduce(
                    || (vec![0.0; w.len()], 0.0),
                    |mut a, b| {
                        for (x, y) in a.0.iter_mut().zip(&b.0) {
                            *x += y;
                        }
                        (a.0, a.1 + b.1)
                    },
                );
            let t = epoch as f64;
            for j in 0..w.len() {
                let gj = grad[j] / n + (w[j] - self.start[j]) / (self.sigma * self.sigma * n);
                if gj == 0.0 && m[j] == 0.0 {
                    continue;
                }
                m[j] = b1 * m[j] + (1.0 - b1) * gj;
                v[j] = b2 * v[j] + (1.0 - b2) * gj * gj;
                let mh = m[j] / (1.0 - b1.powf(t));
                let vh = v[j] / (1.0 - b2.powf(t));
                w[j] -= self.rate * mh / (vh.sqrt() + eps);
            }
            if epoch % 10 == 0 || epoch == self.epochs {
                progress(epoch, &w, loss / n);
            }
        }
        w
    }
}

/// The families the samples come from, by name (for the model's notes).
pub fn families_of(samples: &[Sample]) -> Vec<&'static str> {
    let mut seen = [false; 4];
    for s in samples {
        if let Some(&(j, _)) = s.counts.last() {
            let j = j as usize;
            if j >= BIAS_AT {
                seen[(j - BIAS_AT) / 2] = true;
            }
        }
    }
    FAMILIES.iter().zip(seen).filter(|(_, s)| *s).map(|(f, _)| *f).collect()
}

/// The colour a sample's side to move has (for tests and notes).
pub fn side_of(sample: &Sample) -> Option<Color> {
    let &(j, _) = sample.counts.last()?;
    let j = j as usize;
    (j >= BIAS_AT).then(|| if (j - BIAS_AT).is_multiple_of(2) { Color::Black } else { Color::White })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::board::{Board, Pos};
    use crate::tools::learn::selfplay::GameResult;

    fn game(rule: &str, moves: &str, index: usize) -> GameRecord {
        let moves = Pos::parse_list(moves).expect("moves");
        GameRecord {
            index,
            rules: Rules::named(rule).expect("a rule"),
            width: 15,
            height: 15,
            result: GameResult::BlackWins,
            opening: 2,
            scores: vec![Some(10); moves.len() - 2],
            moves,
        }
    }

    #[test]
    fn a_samples_eval_under_the_embedded_model_is_the_positions_evaluation() {
        let start = flatten(EvalModel::embedded());
        for (rule, moves) in
            [("freestyle", "h8i9j10h10i10i11"), ("renju", "h8h9i8i9j8g8j9"), ("caro", "a1b2c3d4h8")]
        {
            let rules = Rules::named(rule).expect("a rule");
            let pats = Arc::new(Patterns::new(&rules).expect("tables"));
            let board = Board::from_moves(15, 15, moves).expect("a game");
            let pos = Position::new(&board, pats);
            let s = sample(&pos, &rules, Some(0), 1.0, false).expect("quiet");
            assert_eq!(s.eval(&start), pos.fitted_eval() as f64, "{rule} {moves}");
            let side = if colour_blind(family(&rules)) { Color::Black } else { board.side_to_move() };
            assert_eq!(side_of(&s), Some(side));
        }
    }

    #[test]
    fn a_model_survives_flattening() {
        let m = EvalModel::embedded();
        assert_eq!(&unflatten(&flatten(m), m.about.clone()), m);
    }

    #[test]
    fn repeats_and_decided_positions_are_left_out_and_every_tenth_game_is_held_out() {
        let games = [game("freestyle", "h8i9j10k11", 0), game("freestyle", "h8i9j10k11", 1)];
        let g = gather(&games);
        assert_eq!((g.games, g.positions, g.repeats), (2, 4, 2));
        assert_eq!(g.samples.len(), 2);
        assert!(g.samples.iter().all(|s| s.held_out), "game 0's positions came first");
        let mut decided = game("freestyle", "h8a1i8a2j8a3k8", 3);
        decided.scores = vec![Some(29990); decided.moves.len() - 2];
        assert!(gather(&[decided]).samples.is_empty());
    }

    #[test]
    fn the_fit_moves_a_value_toward_what_the_results_say() {
        // Two kinds of position: the one with a constant of its own always won. The fit raises it.
        let win = Sample { counts: vec![(BIAS_AT as u32, 1.0)], result: 1.0, score: 0, held_out: false };
        let lose = Sample { counts: vec![(BIAS_AT as u32 + 1, 1.0)], result: 0.0, score: 0, held_out: false };
        let samples: Vec<Sample> = (0..100).flat_map(|_| [win.clone(), lose.clone()]).collect();
        let start = vec![0.0; VALUES];
        let cfg = FitConfig { lambda: 1.0, scale: 100.0, sigma: 1e6, epochs: 100, rate: 20.0 };
        let w = fit(&samples, &start, &cfg, &mut |_| {});
        assert!(w[BIAS_AT] > 500.0 && w[BIAS_AT + 1] < -500.0, "{} {}", w[BIAS_AT], w[BIAS_AT + 1]);
    }
}
