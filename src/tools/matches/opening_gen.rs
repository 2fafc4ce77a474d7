//! Balanced random openings, so that no two measurements need share positions: a few stones dropped
//! at random in a small window placed anywhere on the board (edges and corners too), kept when our
//! own search, at a fixed depth (deeper for measurements than for training runs), scores the result
//! near even.
//!
//! Each opening has a stone count drawn evenly from the range, and candidates of that count are
//! drawn until one is kept (a rejected one is not replaced by one of another count, or the few-stone
//! openings, more often balanced, would crowd out the rest). A candidate: a window of 5x5 to 7x7
//! (wider for many stones, cut to the board) at a random place, the stones in it at random, black
//! first, each one that the rules refuse in an opening ([`stone_error`]: a renju foul, Pente's
//! opening rule, a capture, a win) drawn again. Under Pente the first stone goes on the centre, so
//! the window holds the centre and is at least 7 wide, which leaves room for the first player's
//! second stone 3 points away.
//!
//! A candidate is kept ([`assess`]) when neither side has a four (a point that makes five) or a VCF,
//! and the search to the fixed depth, one thread, a fresh table, no time limit, ends without a
//! shortcut (a forced answer, a proven result) and scores within the margin from the side to move's
//! view. A repeat of an opening already kept is drawn again.
//!
//! Invariant: the openings depend on the configuration alone ([`GenConfig`], the seed included), not
//! on the machine or its threads: opening `i` is drawn from a generator seeded from the seed and `i`
//! (so they are drawn in parallel), the search is deterministic on one thread, and repeats are
//! settled in order. So the first `k` openings of a seed are the same whatever the count.

use std::collections::HashSet;
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use rayon::prelude::*;

use crate::eval::position::Position;
use crate::game::board::{Board, Color, Pos};
use crate::game::pattern::Patterns;
use crate::game::random::Rng;
use crate::game::rules::{Rules, Variant};
use crate::search::tt::Tt;
use crate::search::{self, Setup};
use crate::threat::{Solver, ThreatLimits, five_points};
use crate::tools::record::opening::stone_error;

/// Stones per opening unless asked otherwise.
pub const DEFAULT_STONES: (usize, usize) = (3, 10);
/// The search depth that judges a candidate of a training run (`selfplay`, `tune`: many openings, each
/// game short): 50 openings on 15x15 took 0.15-0.2 s of CPU at depth 4, 0.4-0.55 s at 6 and 1.2-1.9 s
/// at 8 (freestyle, renju, caro).
pub const DEFAULT_DEPTH: i32 = 6;
/// ... of a measurement (`match --openings-random`, `openings`), where an opening one side has already
/// won measures nothing: judged again by a search of a million nodes, the openings kept at depth 6
/// were won or beyond ±150 in 22 of 80 (freestyle), 14 of 40 (exact five), 11 of 40 (renju); kept at
/// 12 in 7, 2 and 10 (depth 14 no better), for 0.25-0.55 s of CPU an opening.
pub const MEASURE_DEPTH: i32 = 12;
/// The same under Pente, whose search is slower (captures): 1.8 s of CPU at depth 4, 11.7 s at 6.
pub const PENTE_DEPTH: i32 = 4;
/// The largest search score, either way, of a balanced opening (the evaluation's scale, where a
/// typical position's score spreads with a standard deviation of about 260).
pub const DEFAULT_MARGIN: i32 = 60;
/// The VCF solver's node budget per side: a search that runs out counts as a VCF (not balanced).
const VCF_NODES: u64 = 20_000;
/// Candidates tried per opening before giving up: the rarest kept share measured (10 stones, a
/// margin of 60, depth 12) was one in 32 on 15x15 and one in 35 on 20x20, where 200 tries left one
/// slot in 300 empty (a run of 100 openings failed); 1000 leave one in 10^12 (see [`GenError::TooFew`]).
const TRIES_PER_OPENING: usize = 1000;

/// What to generate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenConfig {
    pub rules: Rules,
    pub width: usize,
    pub height: usize,
    /// Fewest and most stones, both included.
    pub stones: (usize, usize),
    pub depth: i32,
    pub margin: i32,
    pub seed: u64,
}

impl GenConfig {
    /// The defaults for `rules` on a `width` x `height` board.
    pub fn new(rules: Rules, width: usize, height: usize, seed: u64) -> GenConfig {
        GenConfig {
            rules,
            width,
            height,
            stones: DEFAULT_STONES,
            depth: if pente(&rules) { PENTE_DEPTH } else { DEFAULT_DEPTH },
            margin: DEFAULT_MARGIN,
            seed,
        }
    }

    /// The defaults of a measurement: judged to [`MEASURE_DEPTH`] (Pente to its own depth).
    pub fn for_measuring(rules: Rules, width: usize, height: usize, seed: u64) -> GenConfig {
        let cfg = GenConfig::new(rules, width, height, seed);
        GenConfig { depth: if pente(&rules) { PENTE_DEPTH } else { MEASURE_DEPTH }, ..cfg }
    }
}

/// Why openings could not be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GenError {
    /// The configuration cannot give openings (the reason in words).
    Config(String),
    /// After `tried` candidates only `found` of the `wanted` openings were balanced.
    TooFew { found: usize, wanted: usize, tried: usize },
}

impl fmt::Display for GenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GenError::Config(why) => f.write_str(why),
            GenError::TooFew { found, wanted, tried } => write!(
                f,
                "only {found} of {} {} balanced after {} (a wider margin or fewer stones finds more)",
                plural(*wanted as u64, "opening"),
                if *found == 1 { "was" } else { "were" },
                if *tried == 1 { "1 try".to_string() } else { format!("{tried} tries") }
            ),
        }
    }
}

impl std::error::Error for GenError {}

/// How the judge saw a candidate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Assessment {
    /// `Color` has a point that makes five.
    Four(Color),
    /// `Color` wins by a VCF (or the solver ran out of nodes looking for one).
    Vcf(Color),
    /// The search ended early: a forced answer or a proven result, not a score to compare.
    Shortcut,
    /// The search's score, from the side to move's view.
    Score(i32),
}

impl Assessment {
    pub fn balanced(self, margin: i32) -> bool {
        matches!(self, Assessment::Score(s) if s.abs() <= margin)
    }
}

/// The pattern tables the judge needs for `rules` (`None`: a line too long for them).
pub fn patterns(rules: &Rules) -> Option<Arc<Patterns>> {
    Patterns::new(rules).map(Arc::new)
}

/// Judges `board` (set up under the rules `pats` were built for) with a search to `depth`.
pub fn assess(board: &Board, pats: &Arc<Patterns>, depth: i32) -> Assessment {
    let mut pos = Position::new(board, Arc::clone(pats));
    let me = pos.side();
    for c in [me, me.opp()] {
        if !five_points(&pos, c).is_empty() {
            return Assessment::Four(c);
        }
    }
    let stop = AtomicBool::new(false);
    // The solvers know no captures (as in the search): under Pente the search alone judges.
    if pos.capture_rule().is_none() {
        for c in [me, me.opp()] {
            if c != me {
                pos.pass();
            }
            let mut solver = Solver::new(ThreatLimits { max_nodes: VCF_NODES, stop: &stop, deadline: None });
            let found = solver.vcf(&mut pos, 16).is_some() || solver.aborted();
            if c != me {
                pos.pass();
            }
            if found {
                return Assessment::Vcf(c);
            }
        }
    }
    let tt = Tt::new(1 << 20);
    // No root VCT (a fixed-depth search has none): it made 50 openings cost 10 to 20 times as much
    // (12 s against 0.3 s under caro) and changed one or two of them.
    let out = search::run(board, &Setup::fixed_depth(pats, &tt, depth, &stop));
    if out.shortcut.is_some() || out.depth < depth {
        return Assessment::Shortcut;
    }
    Assessment::Score(out.score)
}

/// Checks that `cfg` can give openings (only [`GenError::Config`]); the pattern tables of its rules.
pub fn check(cfg: &GenConfig) -> Result<Arc<Patterns>, GenError> {
    let bad = |why: String| Err(GenError::Config(why));
    if let Err(e) = Board::new(cfg.width as i64, cfg.height as i64) {
        return bad(e.to_string());
    }
    let (lo, hi) = cfg.stones;
    if lo == 0 {
        return bad(format!("the stone range {lo}-{hi} must start from 1"));
    }
    if hi < lo {
        return bad(format!(
            "the stone range {lo}-{hi} is reversed: {hi}-{lo} runs from the smaller count up"
        ));
    }
    // At most half of the widest window, cut to the board, may be taken: the rest is drawn from.
    let side = window_side(hi) + 2;
    if 2 * hi > side.min(cfg.width) * side.min(cfg.height) {
        let stones = plural(hi as u64, "stone");
        return bad(format!(
            "{stones} cannot be dropped in an opening of a {}x{} board",
            cfg.width, cfg.height
        ));
    }
    if cfg.depth < 1 {
        return bad(format!("the depth {} must be at least 1", cfg.depth));
    }
    if cfg.margin < 0 {
        return bad(format!("the margin {} must not be negative", cfg.margin));
    }
    if pente(&cfg.rules) && (cfg.width < 7 || cfg.height < 7) {
        return bad("Pente's opening rule needs a board of at least 7x7".into());
    }
    patterns(&cfg.rules)
        .ok_or_else(|| GenError::Config(format!("no search tables for a line of {}", cfg.rules.line)))
}

fn pente(rules: &Rules) -> bool {
    matches!(rules.variant, Variant::Pente { .. })
}

/// The smallest window side for `n` stones: 5, or wider so that at most half its points are taken.
fn window_side(n: usize) -> usize {
    let mut s = 5;
    while s * s < 2 * n {
        s += 1;
    }
    s
}

/// A random window of `cfg`'s board: (x0, y0, width, height).
fn window(cfg: &GenConfig, n: usize, rng: &mut Rng) -> (usize, usize, usize, usize) {
    let min = window_side(n).max(if pente(&cfg.rules) { 7 } else { 5 });
    let side = rng.between(min, min + 2);
    let (w, h) = (side.min(cfg.width), side.min(cfg.height));
    let span = |len: usize, board: usize, centre: usize| {
        if pente(&cfg.rules) {
            // The window holds the centre: x0 in [centre - len + 1, centre], on the board.
            (centre.saturating_sub(len - 1), centre.min(board - len))
        } else {
            (0, board - len)
        }
    };
    let (x_lo, x_hi) = span(w, cfg.width, cfg.width / 2);
    let (y_lo, y_hi) = span(h, cfg.height, cfg.height / 2);
    (rng.between(x_lo, x_hi), rng.between(y_lo, y_hi), w, h)
}

/// One candidate of `n` stones in order, or `None` when a stone found no legal point in its window.
fn candidate(cfg: &GenConfig, n: usize, rng: &mut Rng) -> Option<(Vec<Pos>, Board)> {
    let (x0, y0, w, h) = window(cfg, n, rng);
    let mut board = Board::new(cfg.width as i64, cfg.height as i64).ok()?;
    board.set_capture(cfg.rules.capture_rule());
    let mut stones = Vec::with_capacity(n);
    for k in 0..n {
        let p = if k == 0 && pente(&cfg.rules) {
            Pos::new(cfg.width / 2, cfg.height / 2)
        } else {
            // Redrawn until legal: a few tries find a point unless the window is nearly shut.
            (0..4 * w * h)
                .map(|_| Pos::new(x0 + rng.below(w), y0 + rng.below(h)))
                .find(|&p| stone_error(&cfg.rules, &board, p).is_none())?
        };
        board.play_unchecked(p);
        stones.push(p);
    }
    Some((stones, board))
}

/// One opening's draw: its own generator, its stone count and the candidates it has tried.
struct Slot {
    rng: Rng,
    stones: usize,
    tried: usize,
}

impl Slot {
    /// Opening `i` of `cfg`'s seed: its generator is seeded from the seed and `i` alone, so that the
    /// openings can be drawn in parallel and still come out the same. The seed is mixed before `i` is
    /// added: seeds 1 and 2 would otherwise share all openings but one, shifted by one place.
    fn new(cfg: &GenConfig, i: usize) -> Slot {
        let base = Rng::new(cfg.seed).next_u64();
        let mut rng = Rng::new(Rng::new(base.wrapping_add(i as u64)).next_u64());
        let stones = rng.between(cfg.stones.0, cfg.stones.1);
        Slot { rng, stones, tried: 0 }
    }

    /// The next balanced candidate, or `None` once the slot has tried its share.
    fn next(&mut self, cfg: &GenConfig, pats: &Arc<Patterns>) -> Option<Vec<Pos>> {
        while self.tried < TRIES_PER_OPENING {
            self.tried += 1;
            if let Some((stones, board)) = candidate(cfg, self.stones, &mut self.rng)
                && assess(&board, pats, cfg.depth).balanced(cfg.margin)
            {
                return Some(stones);
            }
        }
        None
    }
}

/// The position `stones` make: the same stones of each colour, whatever their order.
fn position_key(stones: &[Pos]) -> Vec<(usize, Pos)> {
    let mut key: Vec<(usize, Pos)> = stones.iter().enumerate().map(|(i, &p)| (i % 2, p)).collect();
    key.sort();
    key
}

/// `count` balanced openings for `cfg`, each its stones in order (black first).
pub fn generate(cfg: &GenConfig, count: usize) -> Result<Vec<Vec<Pos>>, GenError> {
    let pats = check(cfg)?;
    let mut slots: Vec<(Slot, Option<Vec<Pos>>)> = (0..count)
        .into_par_iter()
        .map(|i| {
            let mut slot = Slot::new(cfg, i);
            let stones = slot.next(cfg, &pats);
            (slot, stones)
        })
        .collect();
    // A repeat is drawn again, in order, so the set is the same however the threads ran.
    let mut seen = HashSet::new();
    let mut out = Vec::with_capacity(count);
    for (slot, stones) in &mut slots {
        while let Some(s) = stones.take() {
            if seen.insert(position_key(&s)) {
                out.push(s);
                break;
            }
            *stones = slot.next(cfg, &pats);
        }
    }
    let tried = slots.iter().map(|(slot, _)| slot.tried).sum();
    if out.len() < count {
        return Err(GenError::TooFew { found: out.len(), wanted: count, tried });
    }
    log::debug!("{count} openings from {tried} candidates");
    Ok(out)
}

/// `n` and `word` agreeing: `1 stone`, `2 openings` (the plural by an `s`), for the counts of stones and
/// openings that the generator, the match and `openings` tell.
pub fn plural(n: impl Into<u64>, word: &str) -> String {
    let n = n.into();
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::record::opening::check_stones;

    fn config(rules: Rules, width: usize, height: usize, seed: u64) -> GenConfig {
        GenConfig::new(rules, width, height, seed)
    }

    /// What every opening must be: on the board, a count in the range, legal stone by stone, no four
    /// for either side, and balanced when judged again.
    fn assert_sound(cfg: &GenConfig, openings: &[Vec<Pos>]) {
        let pats = patterns(&cfg.rules).unwrap();
        for stones in openings {
            assert!((cfg.stones.0..=cfg.stones.1).contains(&stones.len()), "{stones:?}");
            assert!(stones.iter().all(|p| (p.x as usize) < cfg.width && (p.y as usize) < cfg.height));
            let board = check_stones(&cfg.rules, cfg.width, cfg.height, stones).unwrap();
            let pos = Position::new(&board, Arc::clone(&pats));
            assert!(five_points(&pos, Color::Black).is_empty() && five_points(&pos, Color::White).is_empty());
            let judged = assess(&board, &pats, cfg.depth);
            assert!(judged.balanced(cfg.margin), "{stones:?}: {judged:?}");
        }
    }

    #[test]
    fn a_seed_gives_the_same_sound_openings_and_another_seed_others() {
        let cfg = config(Rules::default(), 15, 15, 11);
        let a = generate(&cfg, 12).unwrap();
        assert_eq!(a.len(), 12);
        assert_sound(&cfg, &a);
        assert_eq!(a, generate(&cfg, 12).unwrap());
        // The first openings of a seed do not depend on how many are asked for.
        assert_eq!(a[..5], generate(&cfg, 5).unwrap()[..]);
        let b = generate(&config(Rules::default(), 15, 15, 12), 12).unwrap();
        assert!(a.iter().all(|o| !b.contains(o)), "{a:?}\n{b:?}");
        let positions: HashSet<_> = a.iter().map(|o| position_key(o)).collect();
        assert_eq!(positions.len(), a.len());
    }

    #[test]
    fn every_rule_and_rectangular_boards() {
        for (name, w, h) in [("renju", 15, 15), ("caro", 20, 20), ("exact", 20, 12), ("freestyle", 9, 17)] {
            let mut cfg = config(Rules::named(name).unwrap(), w, h, 5);
            cfg.stones = (4, 8);
            let openings = generate(&cfg, 6).unwrap();
            assert_eq!(openings.len(), 6, "{name}");
            assert_sound(&cfg, &openings);
        }
    }

    #[test]
    fn pente_openings_obey_the_opening_rule() {
        for rules in [Rules::pente(false), Rules::pente(true), Rules::g_pente()] {
            let mut cfg = config(rules, 19, 19, 3);
            cfg.stones = (3, 6);
            let openings = generate(&cfg, 5).unwrap();
            assert_sound(&cfg, &openings);
            for stones in &openings {
                assert_eq!(stones[0], Pos::new(9, 9));
                let far = (stones[2].x as i32 - 9).abs().max((stones[2].y as i32 - 9).abs());
                assert!(far >= 3, "{stones:?}");
            }
        }
    }

    #[test]
    fn windows_reach_every_edge_of_the_board() {
        let cfg = config(Rules::default(), 20, 12, 1);
        let mut rng = Rng::new(9);
        let (mut left, mut right, mut top, mut bottom) = (false, false, false, false);
        for _ in 0..500 {
            let (x0, y0, w, h) = window(&cfg, 10, &mut rng);
            assert!(x0 + w <= 20 && y0 + h <= 12 && (5..=7).contains(&w) && (5..=7).contains(&h));
            left |= x0 == 0;
            right |= x0 + w == 20;
            top |= y0 == 0;
            bottom |= y0 + h == 12;
        }
        assert!(left && right && top && bottom);
        // Under Pente every window holds the centre.
        let pente = config(Rules::pente(false), 19, 19, 1);
        for _ in 0..200 {
            let (x0, y0, w, h) = window(&pente, 4, &mut rng);
            assert!((x0..x0 + w).contains(&9) && (y0..y0 + h).contains(&9) && w >= 7);
        }
    }

    #[test]
    fn stone_counts_are_spread_over_the_range() {
        let mut cfg = config(Rules::default(), 15, 15, 2);
        cfg.stones = (3, 5);
        cfg.depth = 2;
        let openings = generate(&cfg, 30).unwrap();
        for n in 3..=5 {
            assert!(openings.iter().filter(|o| o.len() == n).count() >= 5, "{n}");
        }
    }

    #[test]
    fn configurations_that_cannot_give_openings_are_refused() {
        let base = config(Rules::default(), 15, 15, 1);
        let with = |f: &dyn Fn(&mut GenConfig)| {
            let mut c = base.clone();
            f(&mut c);
            check(&c).map(|_| ())
        };
        assert!(with(&|_| {}).is_ok());
        for bad in [
            with(&|c| c.stones = (0, 3)),
            with(&|c| c.stones = (5, 4)),
            with(&|c| c.width = 4),
            with(&|c| (c.width, c.height, c.stones) = (5, 5, (3, 13))),
            with(&|c| c.depth = 0),
            with(&|c| c.margin = -1),
            with(&|c| (c.rules, c.width) = (Rules::pente(false), 6)),
        ] {
            assert!(matches!(bad, Err(GenError::Config(_))), "{bad:?}");
        }
    }
}
