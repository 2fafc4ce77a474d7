//! SPSA over the search's named parameters ([`crate::search::SPECS`]), in fishtest's form: each
//! iteration perturbs every tuned parameter by ±c_k at random, plays one pair of games between the
//! two sides θ+ and θ− on a fresh balanced opening (each side black once), and moves θ along the
//! perturbation by the pair's result. [`Spsa`] is that update alone, over any "play a pair" function,
//! so it can be tested on a made-up objective; [`run`] plays the pairs with two [`SearchPlayer`]s.
//!
//! The gains (docs/training.md, Tuning): c_k = c / (j+1)^γ and a_k = a / (A+j+1)^α for the chain's
//! j-th iteration (γ = 0.101, α = 0.602), c = the parameter's SPSA step × `c_scale`, A a tenth of the
//! planned iterations, and a chosen so that the first iteration moves a parameter by `rate` steps for
//! each point the pair's result is off even: a = rate · step · c · (A+1)^α. The run's answer is θ
//! averaged over the second half of its iterations ([`answer`]).
//!
//! Invariant: iteration k's opening and perturbation depend on the seed and k alone, and at a node
//! limit its games on nothing else but θ: a run stopped anywhere and resumed from its state file
//! ([`read_state`]) goes on exactly as if it had not stopped.

use std::fmt;
use std::io::Write;

use crate::game::board::Color;
use crate::game::random::Rng;
use crate::game::rules::Rules;
use crate::search::{Params, SearchPlayer, Spec};
use crate::tools::learn::selfplay::{MoveLimit, RunError, field_of, play_game, read_run};
use crate::tools::matches::opening_gen::{self, GenConfig};
use crate::tools::matches::shard::Shard;

/// Fishtest's exponents: a_k's decay (α) and c_k's (γ).
pub const ALPHA: f64 = 0.602;
pub const GAMMA: f64 = 0.101;

/// The update's constants for one chain of iterations.
#[derive(Clone, Debug, PartialEq)]
pub struct Schedule {
    /// The perturbation in SPSA steps (c = step × `c_scale`).
    pub c_scale: f64,
    /// The first iteration's move, in steps, for each point of the pair's result.
    pub rate: f64,
    /// The stability constant A: a tenth of the iterations the chain was first planned with.
    pub big_a: f64,
}

impl Default for Schedule {
    /// Twice the step as perturbation, and half a step a point at first: on a made-up objective these
    /// brought a parameter 48 steps off back within a dozen in 1000 iterations, where one step and a
    /// whole step a point wandered further from the optimum (see the tests).
    fn default() -> Schedule {
        Schedule { c_scale: 2.0, rate: 0.5, big_a: 0.0 }
    }
}

impl Schedule {
    /// The perturbation c of `spec` before its decay.
    pub fn c(&self, spec: &Spec) -> f64 {
        spec.step as f64 * self.c_scale
    }

    /// The gain a of `spec` before its decay.
    pub fn a(&self, spec: &Spec) -> f64 {
        self.rate * spec.step as f64 * self.c(spec) * (self.big_a + 1.0).powf(ALPHA)
    }

    /// c_k and a_k of `spec` at the chain's `j`-th iteration (from 0).
    pub fn gains(&self, spec: &Spec, j: usize) -> (f64, f64) {
        let c_k = self.c(spec) / (j as f64 + 1.0).powf(GAMMA);
        let a_k = self.a(spec) / (self.big_a + j as f64 + 1.0).powf(ALPHA);
        (c_k, a_k)
    }
}

/// SPSA over `specs` with `schedule`: the update alone, whatever plays the pairs.
#[derive(Clone, Debug)]
pub struct Spsa {
    pub specs: Vec<&'static Spec>,
    pub schedule: Schedule,
}

/// One iteration: the values each side played (in `specs`' order), the pair's result for θ+ (its score
/// minus θ−'s, from −2 to 2) and θ after it.
#[derive(Clone, Debug, PartialEq)]
pub struct Iteration {
    /// The iteration's number in the whole run, from 0.
    pub k: usize,
    pub plus: Vec<i64>,
    pub minus: Vec<i64>,
    pub r: f64,
    pub theta: Vec<f64>,
}

impl Spsa {
    /// A value played: `x` rounded to a whole number within `spec`'s range.
    fn played(spec: &Spec, x: f64) -> i64 {
        (x.round() as i64).clamp(spec.min, spec.max)
    }

    /// Iteration `k`, the chain's `j`-th, from `theta` with the perturbation signs `delta` (±1 each):
    /// `play(plus, minus)` plays the pair and says θ+'s score minus θ−'s.
    pub fn iterate(
        &self,
        k: usize,
        j: usize,
        theta: &[f64],
        delta: &[f64],
        play: &mut dyn FnMut(&[i64], &[i64]) -> f64,
    ) -> Iteration {
        let side = |sign: f64| -> Vec<i64> {
            self.specs
                .iter()
                .zip(theta.iter().zip(delta))
                .map(|(s, (&t, &d))| Spsa::played(s, t + sign * self.schedule.gains(s, j).0 * d))
                .collect()
        };
        let (plus, minus) = (side(1.0), side(-1.0));
        let r = play(&plus, &minus);
        let theta = self
            .specs
            .iter()
            .zip(theta.iter().zip(delta))
            .map(|(s, (&t, &d))| {
                let (c_k, a_k) = self.schedule.gains(s, j);
                (t + a_k * r / (c_k * d)).clamp(s.min as f64, s.max as f64)
            })
            .collect();
        Iteration { k, plus, minus, r, theta }
    }
}

/// Iteration `k`'s seed for its opening and its perturbation signs for `n` parameters.
pub fn draws(seed: u64, k: usize, n: usize) -> (u64, Vec<f64>) {
    let mut rng = Rng::new(seed ^ (k as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let opening_seed = rng.next_u64();
    let mut bits = 0u64;
    let delta = (0..n)
        .map(|i| {
            if i % 64 == 0 {
                bits = rng.next_u64();
            }
            if bits >> (i % 64) & 1 == 1 { 1.0 } else { -1.0 }
        })
        .collect();
    (opening_seed, delta)
}

/// The iterations of `shard`'s chain among a run's first `iterations`, in order: k with k mod N = K − 1.
pub fn chain(shard: Shard, iterations: usize) -> impl Iterator<Item = usize> + use<> {
    (0..).map_while(move |j| chain_position(shard, j).filter(|&k| k < iterations))
}

/// The `j`-th iteration of `shard`'s chain (from 0), computed at once: a state file's counts may be
/// anything, and walking to them could take forever.
pub fn chain_position(shard: Shard, j: usize) -> Option<usize> {
    j.checked_mul(shard.count)?.checked_add(shard.index - 1)
}

/// A tuning run: what decides its iterations (the state file's header names all of it).
#[derive(Clone, Debug)]
pub struct TuneConfig {
    /// The tuned parameters with the values they start from.
    pub params: Vec<(&'static Spec, f64)>,
    pub rules: Rules,
    pub width: usize,
    pub height: usize,
    /// Stones per opening.
    pub stones: (usize, usize),
    pub limit: MoveLimit,
    pub seed: u64,
    pub schedule: Schedule,
    /// This chain: shard K of N runs the iterations k with k mod N = K − 1.
    pub shard: Shard,
}

impl TuneConfig {
    /// The header line of the state file.
    pub fn header(&self) -> String {
        let names: Vec<&str> = self.params.iter().map(|(s, _)| s.name).collect();
        let start: Vec<String> = self.params.iter().map(|(_, v)| v.to_string()).collect();
        let s = &self.schedule;
        format!(
            "# quincunx tune v1 params={} start={} game={}:{}:{}x{} stones={}-{} {} seed={} c-scale={} rate={} A={} shard={}",
            names.join(","),
            start.join(","),
            self.rules.name(),
            self.rules.line,
            self.width,
            self.height,
            self.stones.0,
            self.stones.1,
            self.limit,
            self.seed,
            s.c_scale,
            s.rate,
            s.big_a,
            self.shard
        )
    }

    /// The iterations of this chain among the run's first `iterations`, in order.
    pub fn chain(&self, iterations: usize) -> impl Iterator<Item = usize> + use<> {
        chain(self.shard, iterations)
    }

    pub fn spsa(&self) -> Spsa {
        Spsa { specs: self.params.iter().map(|(s, _)| *s).collect(), schedule: self.schedule.clone() }
    }

    /// The start θ.
    pub fn start(&self) -> Vec<f64> {
        self.params.iter().map(|&(_, v)| v).collect()
    }

    /// The search's parameters with the tuned ones at `values`.
    pub fn params_at(&self, values: &[i64]) -> Params {
        let mut p = Params::DEFAULT;
        for ((spec, _), &v) in self.params.iter().zip(values) {
            // `Spsa::played` keeps every value within its range.
            p.set(spec.name, v.clamp(spec.min, spec.max)).expect("a value within its range");
        }
        p
    }
}

impl fmt::Display for Iteration {
    /// `k=K r=R theta=T,T,… plus=V,V,… minus=V,V,…` (θ in full, so a resumed run goes on exactly).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |v: &[i64]| v.iter().map(i64::to_string).collect::<Vec<_>>().join(",");
        let theta: Vec<String> = self.theta.iter().map(f64::to_string).collect();
        write!(
            f,
            "k={} r={} theta={} plus={} minus={}",
            self.k,
            self.r,
            theta.join(","),
            list(&self.plus),
            list(&self.minus)
        )
    }
}

/// A state line's `key=V,V,…` field as numbers.
fn numbers<T: std::str::FromStr>(line: &str, key: &str) -> Result<Vec<T>, String> {
    let field = field_of(line, key).ok_or_else(|| format!("no {key}= field"))?;
    field.split(',').map(|v| v.parse().map_err(|_| format!("bad {key}= value '{v}'"))).collect()
}

impl std::str::FromStr for Iteration {
    type Err = String;

    fn from_str(line: &str) -> Result<Iteration, String> {
        let field = |key: &str| field_of(line, key).ok_or_else(|| format!("no {key}= field"));
        let (list, whole) = (|key| numbers::<f64>(line, key), |key| numbers::<i64>(line, key));
        let k = field("k")?.parse().map_err(|_| "k= is not a count".to_string())?;
        let r = field("r")?.parse().map_err(|_| "r= is not a number".to_string())?;
        let (theta, plus, minus) = (list("theta")?, whole("plus")?, whole("minus")?);
        if plus.len() != theta.len() || minus.len() != theta.len() {
            return Err("theta=, plus= and minus= differ in length".into());
        }
        Ok(Iteration { k, plus, minus, r, theta })
    }
}

/// A block of a chain's consecutive iterations folded into one line of the state file: all that
/// resuming and the answer need of them, so that a chain of any length keeps a small file
/// (`tune --fold`; docs/training.md).
#[derive(Clone, Debug, PartialEq)]
pub struct Fold {
    /// The first and last iterations folded (numbers in the whole run).
    pub first: usize,
    pub last: usize,
    /// How many: the chain's iterations from `first` to `last`.
    pub n: usize,
    /// The sum of θ after each of them.
    pub sum: Vec<f64>,
    /// θ after the last.
    pub theta: Vec<f64>,
}

impl fmt::Display for Fold {
    /// `fold first=K last=L n=N theta=T,T,… sum=S,S,…` (in full, as an iteration's θ).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |v: &[f64]| v.iter().map(f64::to_string).collect::<Vec<_>>().join(",");
        let (first, last, n) = (self.first, self.last, self.n);
        write!(f, "fold first={first} last={last} n={n} theta={} sum={}", list(&self.theta), list(&self.sum))
    }
}

/// A line of a state file: one iteration, or a block of them folded.
#[derive(Clone, Debug, PartialEq)]
pub enum Entry {
    One(Iteration),
    Folded(Fold),
}

impl Entry {
    /// The iterations it stands for.
    pub fn n(&self) -> usize {
        match self {
            Entry::One(_) => 1,
            Entry::Folded(f) => f.n,
        }
    }

    /// θ after its last iteration.
    pub fn theta(&self) -> &[f64] {
        match self {
            Entry::One(it) => &it.theta,
            Entry::Folded(f) => &f.theta,
        }
    }
}

impl fmt::Display for Entry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Entry::One(it) => it.fmt(f),
            Entry::Folded(fold) => fold.fmt(f),
        }
    }
}

impl std::str::FromStr for Entry {
    type Err = String;

    fn from_str(line: &str) -> Result<Entry, String> {
        if !line.starts_with("fold ") {
            return line.parse().map(Entry::One);
        }
        let field = |key: &str| field_of(line, key).ok_or_else(|| format!("no {key}= field"));
        let count = |key: &str| field(key)?.parse::<usize>().map_err(|_| format!("{key}= is not a count"));
        let list = |key| numbers::<f64>(line, key);
        let fold = Fold {
            first: count("first")?,
            last: count("last")?,
            n: count("n")?,
            sum: list("sum")?,
            theta: list("theta")?,
        };
        if fold.n == 0 || fold.last < fold.first || fold.sum.len() != fold.theta.len() {
            return Err("a fold of no iterations, or sum= and theta= differ in length".into());
        }
        Ok(Entry::Folded(fold))
    }
}

/// How many iterations `done` stands for.
pub fn done_count(done: &[Entry]) -> usize {
    count(done.iter().map(Entry::n))
}

/// How many iterations chains of (iterations, θ) stand for together.
pub fn chains_count(chains: &[(usize, Vec<f64>)]) -> usize {
    count(chains.iter().map(|(n, _)| *n))
}

/// Counts added up, saturating: a file's counts are not trusted before `check_lines`.
fn count(counts: impl Iterator<Item = usize>) -> usize {
    counts.fold(0, usize::saturating_add)
}

/// A state file's header (if any) and its lines in order, a line cut by a stop dropped.
pub fn read_state(text: &str) -> Result<(Option<String>, Vec<Entry>), RunError> {
    read_run(text, "an iteration")
}

/// Checks that `done` is the start of `cfg`'s chain, each θ of the tuned parameters' count.
pub fn check_chain(cfg: &TuneConfig, done: &[Entry]) -> Result<(), RunError> {
    check_lines(cfg.shard, cfg.params.len(), done)
}

/// Checks that `done` is the start of `shard`'s chain, each θ (and each fold's sum) of `params`
/// numbers: what every reader of a state file checks before it trusts a count or a θ.
pub fn check_lines(shard: Shard, params: usize, done: &[Entry]) -> Result<(), RunError> {
    let k = |j: usize| chain_position(shard, j);
    let mut j = 0usize;
    for (line, entry) in done.iter().enumerate() {
        let (first, last) = match entry {
            Entry::One(it) => (it.k, it.k),
            Entry::Folded(f) => (f.first, f.last),
        };
        let (n, len) = (entry.n(), entry.theta().len());
        let end = j.checked_add(n - 1);
        if k(j) != Some(first) || end.and_then(k) != Some(last) || len != params {
            let why = match entry {
                Entry::One(_) => format!("iteration {first} of {len} parameters is not this chain's"),
                Entry::Folded(_) => {
                    format!("iterations {first} to {last} of {len} parameters are not this chain's")
                }
            };
            return Err(RunError::BadLine { line: line + 2, why });
        }
        j = j.saturating_add(n);
    }
    Ok(())
}

/// `done` with every whole block of `block` iterations (counted from the chain's first) folded into
/// one line; folds already there stay, and so do the iterations after the last whole block. Resuming
/// from it goes on exactly; its answer differs from the unfolded one only in the fold the last half
/// begins in, which counts at its mean.
pub fn fold(done: &[Entry], block: usize) -> Vec<Entry> {
    assert!(block > 0, "a block of at least one iteration");
    let mut out: Vec<Entry> = vec![];
    let mut pending: Vec<&Iteration> = vec![];
    let mut j = 0;
    let flush = |pending: &mut Vec<&Iteration>, out: &mut Vec<Entry>| {
        out.extend(pending.drain(..).map(|it| Entry::One(it.clone())));
    };
    for entry in done {
        match entry {
            Entry::One(it) => {
                if pending.is_empty() && j % block != 0 {
                    out.push(entry.clone());
                } else {
                    pending.push(it);
                    if pending.len() == block {
                        let (first, last) = (pending[0].k, it.k);
                        let sum =
                            (0..it.theta.len()).map(|i| pending.iter().map(|p| p.theta[i]).sum()).collect();
                        out.push(Entry::Folded(Fold { first, last, n: block, sum, theta: it.theta.clone() }));
                        pending.clear();
                    }
                }
            }
            Entry::Folded(_) => {
                flush(&mut pending, &mut out);
                out.push(entry.clone());
            }
        }
        j += entry.n();
    }
    flush(&mut pending, &mut out);
    out
}

/// Where a run stands, for a progress line.
#[derive(Clone, Debug, PartialEq)]
pub struct Progress {
    /// Iterations of the chain done, of `planned`.
    pub done: usize,
    pub planned: usize,
    /// Done by this process.
    pub now: usize,
    pub theta: Vec<f64>,
}

/// Plays the pair of iteration `k`: θ+ (`plus`) black then white on the iteration's opening, against
/// θ− (`minus`), both games at once when `concurrency` is 2. Returns θ+'s score minus θ−'s.
fn play_pair(
    cfg: &TuneConfig,
    k: usize,
    opening_seed: u64,
    values: (&[i64], &[i64]),
    concurrency: usize,
) -> Result<f64, RunError> {
    let drawn =
        GenConfig { stones: cfg.stones, ..GenConfig::new(cfg.rules, cfg.width, cfg.height, opening_seed) };
    let opening = opening_gen::generate(&drawn, 1).map_err(|e| RunError::Openings(e.to_string()))?;
    let opening = opening.first().ok_or_else(|| RunError::Openings("no opening".into()))?;
    let (plus, minus) = (cfg.params_at(values.0), cfg.params_at(values.1));
    // Each game its own players, so no table carries over from one game to the other.
    let game = |black: Params, white: Params| {
        let players = [&SearchPlayer::with_params(black), &SearchPlayer::with_params(white)];
        play_game(players, cfg.limit, k, cfg.rules, (cfg.width, cfg.height), opening).result
    };
    let (first, second) = if concurrency >= 2 {
        std::thread::scope(|s| {
            let other = s.spawn(|| game(minus, plus));
            let first = game(plus, minus);
            (first, other.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
        })
    } else {
        (game(plus, minus), game(minus, plus))
    };
    let score = first.score_for(Color::Black) + second.score_for(Color::White);
    Ok(score - (2.0 - score))
}

/// Runs `cfg`'s chain on from `done` (what its state file holds) up to the run's first `iterations`,
/// each iteration written to `out` and flushed as it ends; `progress` is told of each. Returns the
/// iterations played now.
pub fn run(
    cfg: &TuneConfig,
    done: &[Entry],
    iterations: usize,
    concurrency: usize,
    out: &mut dyn Write,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Vec<Iteration>, RunError> {
    let spsa = cfg.spsa();
    let mut played = vec![];
    let mut theta = done.last().map_or_else(|| cfg.start(), |e| e.theta().to_vec());
    let chain: Vec<usize> = cfg.chain(iterations).collect();
    let resumed = done_count(done);
    for (j, &k) in chain.iter().enumerate().skip(resumed) {
        let (opening_seed, delta) = draws(cfg.seed, k, cfg.params.len());
        let mut failure = None;
        let mut play =
            |plus: &[i64], minus: &[i64]| match play_pair(cfg, k, opening_seed, (plus, minus), concurrency) {
                Ok(r) => r,
                Err(e) => {
                    failure = Some(e);
                    0.0
                }
            };
        let it = spsa.iterate(k, j, &theta, &delta, &mut play);
        if let Some(e) = failure {
            return Err(e);
        }
        writeln!(out, "{it}")?;
        out.flush()?;
        theta = it.theta.clone();
        played.push(it);
        progress(&Progress { done: j + 1, planned: chain.len(), now: j + 1 - resumed, theta: theta.clone() });
    }
    Ok(played)
}

/// A chain's answer: θ averaged over the second half of its iterations (Polyak's averaging), `start`
/// when it has none; a fold the last half begins in counts at its mean. At these gains the last θ alone jitters by several steps from one iteration to
/// the next; the mean keeps the drift and averages the jitter out.
pub fn answer(start: &[f64], done: &[Entry]) -> Vec<f64> {
    let total = done_count(done);
    let from = total / 2;
    if total == from {
        return start.to_vec();
    }
    let mut sum = vec![0.0; start.len()];
    let mut j = 0usize;
    for entry in done {
        let n = entry.n();
        // The part of this line's iterations within the last half.
        let inside = j.saturating_add(n).saturating_sub(from.max(j));
        if inside > 0 {
            let (source, share) = match entry {
                Entry::One(it) => (&it.theta, 1.0),
                Entry::Folded(f) => (&f.sum, inside as f64 / n as f64),
            };
            sum.iter_mut().zip(source).for_each(|(s, v)| *s += v * share);
        }
        j = j.saturating_add(n);
    }
    sum.iter().map(|s| s / (total - from) as f64).collect()
}

/// θ averaged over chains, each weighted by its iterations (`start` when none has any).
pub fn merge(start: &[f64], chains: &[(usize, Vec<f64>)]) -> Vec<f64> {
    let total = chains_count(chains);
    if total == 0 {
        return start.to_vec();
    }
    (0..start.len())
        .map(|i| chains.iter().map(|(n, t)| *n as f64 * t[i]).sum::<f64>() / total as f64)
        .collect()
}

/// The values to play: θ rounded within each range, as `--set` takes them.
pub fn set_line(specs: &[&Spec], theta: &[f64]) -> String {
    let items: Vec<String> =
        specs.iter().zip(theta).map(|(s, &t)| format!("{}={}", s.name, Spsa::played(s, t))).collect();
    format!("--set {}", items.join(","))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(name: &str) -> &'static Spec {
        Spec::find(name).expect("a parameter")
    }

    /// A made-up engine whose strength peaks at `optimum`: it loses `elo_per_step2` Elo per squared
    /// step away from it, in each parameter; a game is won with the logistic chance of the Elo gap.
    fn synthetic_pair(
        specs: &[&'static Spec],
        optimum: &[f64],
        elo_per_step2: f64,
        rng: &mut Rng,
        plus: &[i64],
        minus: &[i64],
    ) -> f64 {
        let elo = |v: &[i64]| -> f64 {
            specs
                .iter()
                .zip(v.iter().zip(optimum))
                .map(|(s, (&x, &o))| -elo_per_step2 * ((x as f64 - o) / s.step as f64).powi(2))
                .sum()
        };
        let p = 1.0 / (1.0 + 10f64.powf(-(elo(plus) - elo(minus)) / 400.0));
        let mut r = 0.0;
        for _ in 0..2 {
            let u = rng.next_u64() as f64 / u64::MAX as f64;
            r += if u < p { 1.0 } else { -1.0 };
        }
        r
    }

    fn tune_synthetic(start: &[f64], optimum: &[f64], iterations: usize, seed: u64) -> Vec<f64> {
        let specs = vec![spec("razor_margin"), spec("quiet_moves_1")];
        let schedule = Schedule { big_a: iterations as f64 / 10.0, ..Schedule::default() };
        let spsa = Spsa { specs: specs.clone(), schedule };
        let mut rng = Rng::new(seed);
        let mut theta = start.to_vec();
        for k in 0..iterations {
            let (_, delta) = draws(seed, k, specs.len());
            let mut play = |p: &[i64], m: &[i64]| synthetic_pair(&specs, optimum, 0.5, &mut rng, p, m);
            theta = spsa.iterate(k, k, &theta, &delta, &mut play).theta;
        }
        theta
    }

    #[test]
    fn spsa_moves_a_bad_parameter_back_toward_its_optimum_and_keeps_a_good_one() {
        // razor_margin starts 48 steps off its optimum (460 Elo worse), quiet_moves_1 at its own.
        for seed in 1..=4 {
            let theta = tune_synthetic(&[300.0, 8.0], &[60.0, 8.0], 1000, seed);
            assert!((theta[0] - 60.0).abs() < 60.0, "seed {seed}: razor_margin ended at {}", theta[0]);
            assert!((theta[1] - 8.0).abs() < 6.0, "seed {seed}: quiet_moves_1 ended at {}", theta[1]);
        }
    }

    #[test]
    fn the_gains_decay_and_the_first_move_is_rate_steps_a_point() {
        let s = spec("razor_margin");
        let schedule = Schedule { c_scale: 2.0, rate: 0.5, big_a: 100.0 };
        let (c0, a0) = schedule.gains(s, 0);
        assert_eq!(c0, 10.0);
        assert!((a0 / c0 - 0.5 * 5.0).abs() < 1e-9, "one point moves θ by rate steps");
        let (c9, a9) = schedule.gains(s, 9);
        assert!(c9 < c0 && a9 < a0);
        assert!((c9 - 10.0 / 10f64.powf(GAMMA)).abs() < 1e-9);
    }

    #[test]
    fn an_iteration_plays_the_sides_rounded_within_range_and_moves_along_the_perturbation() {
        let spsa = Spsa {
            specs: vec![spec("razor_margin"), spec("cut_extra")],
            schedule: Schedule { c_scale: 1.0, rate: 1.0, big_a: 0.0 },
        };
        let mut seen = vec![];
        let mut play = |p: &[i64], m: &[i64]| {
            seen.push((p.to_vec(), m.to_vec()));
            2.0
        };
        let it = spsa.iterate(0, 0, &[60.4, 5.0], &[1.0, -1.0], &mut play);
        // cut_extra's + side would be 6: its range ends at 5.
        assert_eq!(seen, [(vec![65, 4], vec![55, 5])]);
        assert_eq!((it.plus.clone(), it.minus.clone()), (vec![65, 4], vec![55, 5]));
        // θ+ won: θ moves toward it by rate steps a point, and stays within range.
        assert!((it.theta[0] - 70.4).abs() < 1e-9, "{:?}", it.theta);
        assert!((it.theta[1] - 3.0).abs() < 1e-9, "{:?}", it.theta);
        let line = it.to_string();
        assert_eq!(line.parse::<Iteration>(), Ok(it));
    }

    #[test]
    fn draws_depend_on_the_seed_and_the_iteration_alone() {
        assert_eq!(draws(7, 3, 5), draws(7, 3, 5));
        assert_ne!(draws(7, 3, 5).0, draws(7, 4, 5).0);
        assert_ne!(draws(7, 3, 5).0, draws(8, 3, 5).0);
        let (_, many) = draws(1, 0, 200);
        assert!(many.iter().all(|d| d.abs() == 1.0));
        let plus = many.iter().filter(|&&d| d > 0.0).count();
        assert!((70..130).contains(&plus), "{plus} of 200 positive");
    }

    #[test]
    fn a_cut_last_line_is_dropped_and_chains_answer_by_their_last_half_merged_by_weight() {
        let it = Iteration { k: 0, plus: vec![1], minus: vec![0], r: 0.0, theta: vec![0.5] };
        let text = format!("# h\n{it}\n{}", &it.to_string()[..6]);
        let (header, done) = read_state(&text).expect("the cut line is the last");
        assert_eq!((header.as_deref(), done.len()), (Some("# h"), 1));
        assert!(read_state(&format!("{}\n{it}\n", &it.to_string()[..6])).is_err());
        assert_eq!(merge(&[1.0], &[(3, vec![2.0]), (1, vec![6.0])]), vec![3.0]);
        assert_eq!(merge(&[1.0], &[(0, vec![2.0])]), vec![1.0]);
        let at = |k: usize, t: f64| Iteration { k, theta: vec![t], ..it.clone() };
        let done = [at(0, 9.0), at(1, 2.0), at(2, 4.0), at(3, 6.0), at(4, 8.0)].map(Entry::One);
        assert_eq!(answer(&[1.0], &done), vec![6.0], "the mean of the last half");
        assert_eq!(answer(&[1.0], &[]), vec![1.0]);
    }

    /// A chain of `n` iterations of the made-up objective, as its state file's lines.
    fn synthetic_chain(n: usize) -> Vec<Entry> {
        let specs = vec![spec("razor_margin"), spec("quiet_moves_1")];
        let spsa = Spsa { specs: specs.clone(), schedule: Schedule { big_a: 20.0, ..Schedule::default() } };
        let mut rng = Rng::new(5);
        let mut theta = vec![200.0, 8.0];
        (0..n)
            .map(|k| {
                let (_, delta) = draws(5, k, 2);
                let mut play =
                    |p: &[i64], m: &[i64]| synthetic_pair(&specs, &[60.0, 8.0], 0.5, &mut rng, p, m);
                let it = spsa.iterate(k, k, &theta, &delta, &mut play);
                theta = it.theta.clone();
                Entry::One(it)
            })
            .collect()
    }

    #[test]
    fn a_folded_state_file_keeps_the_count_the_last_theta_and_the_answer() {
        let done = synthetic_chain(250);
        let folded = fold(&done, 100);
        // Two blocks of 100 folded, the 50 after them kept as they were.
        assert_eq!(folded.len(), 52);
        assert_eq!(folded[..2].iter().map(Entry::n).collect::<Vec<_>>(), [100, 100]);
        assert_eq!(folded[2..], done[200..]);
        assert_eq!(done_count(&folded), 250);
        assert_eq!(folded.last().map(Entry::theta), done.last().map(Entry::theta));
        // Every line reads back as written.
        let text: String = folded.iter().map(|e| format!("{e}\n")).collect();
        assert_eq!(read_state(&text).expect("a state file").1, folded);
        // At 200 iterations the last half is the second fold: the same answer, to rounding.
        let close = |a: &[f64], b: &[f64]| a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-9);
        let (whole, part) = (&done[..200], fold(&done[..200], 100));
        assert!(close(&answer(&[0.0, 0.0], whole), &answer(&[0.0, 0.0], &part)));
        // At 250 the last half begins inside the second fold, which counts at its mean there.
        let (exact, approx) = (answer(&[0.0, 0.0], &done), answer(&[0.0, 0.0], &folded));
        assert!((exact[0] - approx[0]).abs() < 5.0, "{exact:?} against {approx:?}");
        // Folding again changes nothing; a longer block later leaves the old folds alone.
        assert_eq!(fold(&folded, 100), folded);
        assert_eq!(fold(&folded, 1000), folded);
    }

    #[test]
    fn a_folded_chain_is_checked_like_the_lines_it_replaced() {
        let specs = [spec("razor_margin"), spec("quiet_moves_1")];
        let cfg = TuneConfig {
            params: specs.iter().map(|&s| (s, s.default as f64)).collect(),
            rules: Rules::default(),
            width: 15,
            height: 15,
            stones: (3, 10),
            limit: MoveLimit::Nodes(1000),
            seed: 5,
            schedule: Schedule::default(),
            shard: Shard::WHOLE,
        };
        let folded = fold(&synthetic_chain(250), 100);
        assert!(check_chain(&cfg, &folded).is_ok());
        // A fold that claims more iterations than its numbers span is not this chain's.
        let mut wrong = folded.clone();
        if let Entry::Folded(f) = &mut wrong[1] {
            f.n = 99;
        }
        assert!(check_chain(&cfg, &wrong).is_err());
        assert!(check_chain(&cfg, &folded[1..]).is_err(), "the first block missing");
    }
}
