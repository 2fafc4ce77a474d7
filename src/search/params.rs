//! The search's numbers: margins, move counts, reductions, ordering weights, budgets, each named once,
//! and those of the layers below that a tuner may move too: the evaluation's (`EvalParams`, see
//! [`Params::eval`]) and the time manager's shares of a match clock (`TimeShares`, see
//! [`Params::time_shares`]), flat here so that every parameter has one name. The fixed ones (array
//! sizes) are constants; the rest are [`Params`], held by the player and read by each worker, so that
//! a brain started with `--set NAME=VALUE` plays with other values and a tuner can move them. [`SPECS`]
//! lists every parameter with its default, its range and a step fit for SPSA. Each says what it bounds
//! and why it has its default; what each is worth is in docs/search.md, the runs in docs/ideas.tsv.

use std::fmt;

use super::*;

pub(super) const INF: i32 = WIN + 1;
/// Deepest ply a line may reach (forced replies extend without limit otherwise).
pub(super) const MAX_PLY: usize = 96;
/// The most moves a node picks by keeping the best while scanning (`top_near_moves`); more are sorted.
pub(super) const TOP_MOVES: usize = 16;
/// The deepest iteration a search starts.
pub const MAX_DEPTH: i32 = 60;

/// Declares [`Params`] and [`SPECS`] from one list: each parameter's doc, field, type, default,
/// range and SPSA step, so that the struct and the registry cannot disagree.
macro_rules! params {
    ($($(#[doc = $doc:literal])+ $field:ident: $ty:ty = $default:expr, $min:literal..=$max:literal,
       step $step:literal;)+) => {
        /// The search's tunable numbers (see the module's doc): what one search reads, by value.
        #[derive(Clone, Copy, Debug, PartialEq)]
        pub struct Params {
            $($(#[doc = $doc])+ pub $field: $ty,)+
        }

        impl Params {
            /// The values the search was tuned with.
            pub const DEFAULT: Params = Params { $($field: $default,)+ };
        }

        /// Every parameter, in the order of [`Params`]' fields.
        pub const SPECS: &[Spec] = &[$(Spec {
            name: stringify!($field),
            default: ($default) as i64,
            min: $min,
            max: $max,
            step: $step,
            get: |p| p.$field as i64,
            set: |p, v| p.$field = v as $ty,
        },)+];
    };
}

params! {
    /// Aspiration windows (see `Worker::root`) from this depth on: the first iterations are too quick
    /// to gain from one, and their scores swing the most.
    aspiration_from: i32 = 5, 1..=30, step 1;
    /// Half the first aspiration window's width, Rapfi's (on our evaluation's scale: see `evaluate`).
    aspiration_delta: i32 = 16, 1..=500, step 2;
    /// A failed window's half-width grows to three quarters of the last plus this, Rapfi's rule (more
    /// for large scores; see `Worker::root` for why that creeps, and why it stays).
    aspiration_widen: i32 = 6, 0..=200, step 2;
    /// The half-width beyond which a failing window opens fully (mate scores get there at once).
    aspiration_max: i32 = 1000, 16..=10000, step 50;
    /// A failed window grows by a quarter more for each `aspiration_scale` of its score's size (Rapfi's
    /// 1024): far from even, scores swing wider.
    aspiration_scale: i32 = 1024, 16..=65536, step 64;
    /// Root moves from this one on (in the last iteration's order) are reduced when quiet: the root
    /// searches every move near stones, often 40 or more, and a full-depth look at each cost half of
    /// the nodes. From the third move it played worse (docs/search.md, "The root").
    root_lmr_from: usize = 3, 1..=50, step 1;
    /// Root moves are reduced from this depth of the iteration on (each keeps a ply of search below it,
    /// so below 3 none is).
    root_lmr_depth: i32 = 3, 2..=30, step 1;
    /// The longest principal variation read back from the table for display (it moves no search: the
    /// table's line past a dozen moves is mostly stale).
    pv_max: usize = 12, 1..=96, step 1;
    /// Completed iterations in a row that must claim a win before the deepening stops early.
    claim_iterations: u32 = 3, 1..=20, step 1;
    /// The defences against an opponent's open three are searched up to this many plies past the
    /// horizon (see `Worker::horizon` for why).
    three_past_horizon: i32 = 2, 0..=8, step 1;
    /// Razoring: a quiet node off the principal variation, one to `razor_depth` plies from the horizon,
    /// whose evaluation is this much a ply below alpha returns it unsearched. Nearly every cut comes
    /// from evaluations far below alpha, so a smaller margin adds few cuts (docs/search.md, "A node",
    /// Razoring; it pays with the history malus of `search`).
    razor_margin: i32 = 64, 0..=1000, step 5;
    /// The deepest node razoring applies to, in plies from the horizon.
    razor_depth: i32 = 3, 0..=10, step 1;
    /// Reverse futility pruning: a quiet node off the principal variation returns its evaluation when
    /// that lies this much a ply above beta, from the second ply from the horizon on (at the first,
    /// any evaluation at or above beta). Rapfi's freestyle margin, on our evaluation's scale; its whole
    /// margin, with the improving and cut-node terms, played worse (docs/search.md, "A node",
    /// Reverse futility).
    futility_per_ply: i32 = 86, 0..=1000, step 5;
    /// The fail-high reduction's margin above beta: `fail_high_base + fail_high_per_ply * depth`, and
    /// `fail_high_fours` more when the opponent has a four to play (Rapfi's values, on our
    /// evaluation's scale: see `evaluate`).
    fail_high_base: i32 = 20, -500..=500, step 4;
    /// See `fail_high_base`.
    fail_high_per_ply: i32 = 8, 0..=300, step 2;
    /// See `fail_high_base`.
    fail_high_fours: i32 = 87, 0..=1000, step 5;
    /// ProbCut (see `Worker::probcut`) at calm nodes off the principal variation this many plies from
    /// the horizon and more.
    probcut_depth: i32 = 5, 1..=30, step 1;
    /// ProbCut's bound: this much above beta.
    probcut_margin: i32 = 100, 0..=1000, step 10;
    /// ProbCut's moves are searched this many plies shallower than a move's nominal depth.
    probcut_reduction: i32 = 3, 1..=20, step 1;
    /// ProbCut tries the first this many moves in the node's order (0: no ProbCut).
    probcut_moves: usize = 2, 0..=16, step 1;
    /// The late-move reduction of the prior's order, `lmr_base + ln(depth) ln(n) / lmr_divisor` (both
    /// in hundredths, rounded down): the usual log-log curve. The divisor is at its best from both
    /// sides (1.2 and 2.0 played worse), and the rounding down costs nothing
    /// (docs/search.md, "Reductions and extensions").
    lmr_base: i32 = 109, 0..=500, step 5;
    /// See `lmr_base`.
    lmr_divisor: i32 = 194, 20..=1000, step 10;
    /// The reduction of the weight matrix's order (Pente), `gentle_base + ln(depth) ln(n) /
    /// gentle_divisor` in hundredths: gentler than the prior's, over a flat 1-2 plies from the 5th move
    /// (docs/strength.md, Ideas tried).
    gentle_base: i32 = 30, 0..=500, step 5;
    /// See `gentle_base`.
    gentle_divisor: i32 = 200, 20..=1000, step 10;
    /// Late quiet moves are reduced from this one on (counting from 0) in the prior's order (better
    /// than from the next: docs/search.md, "Reductions and extensions").
    lmr_from: usize = 2, 1..=20, step 1;
    /// The same in the weight matrix's order (Pente).
    gentle_lmr_from: usize = 3, 1..=20, step 1;
    /// Late quiet moves are reduced at nodes this many plies from the horizon and more (at one ply a
    /// reduced move would go straight to the quiescence).
    lmr_depth: i32 = 2, 1..=20, step 1;
    /// The LMR extension's margin above alpha, `lmr_deeper_base + lmr_deeper_per_ply * reduction`
    /// (Rapfi's values).
    lmr_deeper_base: i32 = 34, 0..=500, step 3;
    /// See `lmr_deeper_base`.
    lmr_deeper_per_ply: i32 = 11, 0..=200, step 1;
    /// The most LMR extensions on one line (Rapfi's).
    max_lmr_extensions: u8 = 5, 0..=50, step 1;
    /// Extra plies off the late quiet moves of an expected cut node (see `search`): one of its first
    /// moves is expected to refute the parent's move, so a late one is rarely needed, and a wrong guess
    /// is only a shallower look, re-searched if the move beats alpha
    /// (docs/search.md, "Reductions and extensions").
    cut_extra: i32 = 1, 0..=5, step 1;
    /// Quiet moves searched at a node one ply from the horizon, the prior's best: near the horizon
    /// few, since a move the prior ranks ninth rarely matters two plies from the leaves
    /// (docs/search.md, "Move generation and ordering"). With the weight-matrix order (Pente) such limits
    /// never paid.
    quiet_moves_1: usize = 10, 1..=100, step 1;
    /// The same two plies from the horizon.
    quiet_moves_2: usize = 7, 1..=100, step 1;
    /// The same three to five plies from the horizon.
    quiet_moves_5: usize = 6, 1..=100, step 1;
    /// From six plies up, Rapfi's growing count `move_count_base + depth^(move_count_power / 100)`
    /// (13 at 6, 17 at 8, 21 at 10 at the second SPSA chain's values; Rapfi's 3 + d^1.32 gave 13, 18,
    /// 23): a flat 12 never searched the prior's 13th move however long the
    /// turn. Half of it (at least `defence_moves_min`) answers an open three
    /// (docs/search.md, "Move generation and ordering").
    move_count_base: i32 = 5, 0..=50, step 1;
    /// See `move_count_base`.
    move_count_power: i32 = 122, 50..=300, step 4;
    /// More quiet moves at a node on the principal variation (full window), where a missed move costs
    /// the most.
    pv_quiet_extra: usize = 4, 0..=50, step 1;
    /// Plies less reduction (never below one) for a late quiet move that makes a closed three or two
    /// open twos: the material of later fours and threes.
    material_relief: i32 = 1, 0..=5, step 1;
    /// The fewest answers to an opponent's open three searched at first (the rest wait until all of
    /// these lose). Better than PentaZen's 3/5/7/8 and than wider counts
    /// (docs/search.md, "Move generation and ordering").
    defence_moves_min: usize = 2, 1..=50, step 1;
    /// Quiet moves searched at a node in the weight-matrix order (Pente), and the other moves the root
    /// adds after its answers to an opponent's VCF threat.
    max_quiet_moves: usize = 14, 1..=200, step 1;
    /// The prior's best quiet moves added to the answers to an opponent's VCF threat (our fours and
    /// threes and the cells of its line; at the root the other moves follow). A quiet move can beat the
    /// threat too: one that gives the blocks of the opponent's fours a four of ours to make, or an
    /// attack that wins first. The table's move, when the node has one, is the first of them. Four did
    /// no better than two (docs/strength.md, Ideas tried).
    threat_quiet_moves: usize = 2, 0..=16, step 1;
    /// A quiet move's ordering score is its prior (hundredths of a logit) plus its history divided by
    /// this (see `score_move`): neither more nor less weight paid (docs/search.md, "History").
    history_divisor: i32 = 64, 4..=1024, step 4;
    /// Pente's ordering (the weight matrix, see `score_move`): the opponent's weight at a cell counts
    /// this percentage of ours, since a cell it wants is one to block.
    pente_block_percent: i32 = 80, 0..=200, step 5;
    /// Pente's ordering: so much a stone for a move that takes stones, and `pente_guard` a stone for
    /// standing where the opponent would take ours.
    pente_take: i32 = 150, 0..=2000, step 10;
    /// See `pente_take`.
    pente_guard: i32 = 120, 0..=2000, step 10;
    /// With helper threads, moves another thread is searching are put off from this depth up (see
    /// `busy`; from 2 or 5 the threads reached depth 14-15 later: `bench --threads 2` on middle30.txt).
    busy_depth: i32 = 3, 1..=60, step 1;
    /// Quiescence (`Worker::quiesce`): at most this many fours of ours in a row, and `leaf_vcf_nodes`
    /// nodes a leaf. Small on purpose: a four point is common at the leaves, and with the wide VCF a
    /// bigger budget ate most of a busy middle game's nodes; the narrow one rarely reaches it, and the
    /// next iteration finds what it misses, since a four's block costs no depth (docs/search.md,
    /// "Quiescence").
    leaf_vcf_fours: u32 = 8, 0..=50, step 1;
    /// See `leaf_vcf_fours`.
    leaf_vcf_nodes: u32 = 16, 0..=1000, step 2;
    /// The opponent's VCF threat at the root (its VCF if it could move again; not looked for inside
    /// the tree: see `search`): at most this many fours and `threat_vcf_nodes` nodes. A refuted check
    /// spends its whole budget, so the budget is small (docs/search.md, "The root").
    threat_vcf_fours: u32 = 8, 0..=50, step 1;
    /// See `threat_vcf_fours`.
    threat_vcf_nodes: u32 = 12, 0..=1000, step 2;
    /// The root's VCF solver: at most this many nodes (and the node limit), `root_vcf_fours` fours and
    /// one `root_vcf_share`-th of the hard time limit. What it proves is exact and played at once
    /// (docs/search.md, "One move").
    root_vcf_nodes: u64 = 200000, 0..=100000000, step 10000;
    /// See `root_vcf_nodes`.
    root_vcf_fours: u32 = 16, 0..=100, step 1;
    /// See `root_vcf_nodes`.
    root_vcf_share: u32 = 10, 1..=1000, step 1;
    /// The root's VCT solver: at most this many nodes, `root_vct_depth` threats and one
    /// `root_vct_share`-th of the hard time limit. A VCT inside the tree found fewer long wins, and a
    /// smaller, larger or no root VCT played the same: it stays for its exact proofs
    /// (docs/search.md, "One move").
    root_vct_nodes: u64 = 60000, 0..=100000000, step 5000;
    /// See `root_vct_nodes`.
    root_vct_depth: u32 = 7, 0..=30, step 1;
    /// See `root_vct_nodes`.
    root_vct_share: u32 = 5, 1..=1000, step 1;
    /// The evaluation's numbers (`EvalParams`, see `Params::eval`): the fitted evaluation's divisor,
    /// which sets the scale of every margin above (scaled either way to meet Rapfi's, it played worse:
    /// docs/search.md, "Evaluation").
    eval_divisor: i64 = EvalParams::DEFAULT.divisor, 1..=100, step 1;
    /// Pente's evaluation: our weight sum's percentage against the opponent's (see `EvalParams`).
    pente_own_percent: i64 = EvalParams::DEFAULT.pente_own_percent, 0..=300, step 5;
    /// Pente's evaluation: the weight sums' divisor.
    pente_eval_divisor: i64 = EvalParams::DEFAULT.pente_divisor, 1..=64, step 1;
    /// Pente's evaluation: a captured stone's worth, `pente_stone` a stone and `pente_race` by the
    /// square of the share of the winning count reached.
    pente_stone: i32 = EvalParams::DEFAULT.pente_stone, 0..=1000, step 5;
    /// See `pente_stone`.
    pente_race: i32 = EvalParams::DEFAULT.pente_race, 0..=10000, step 20;
    /// Pente's evaluation: the twelfths of its best capture's worth the side to move counts.
    pente_cash_twelfths: i64 = EvalParams::DEFAULT.pente_cash_twelfths, 0..=12, step 1;
    /// Pente's evaluation: the cost of each of our pairs the opponent could take.
    pente_exposed: i64 = EvalParams::DEFAULT.pente_exposed, 0..=200, step 2;
    /// The time manager's shares of a match clock (`TimeShares`, see `Params::time_shares`; they apply
    /// only with one, so games at a time a move never try them): spread over at most this many moves
    /// to come.
    time_moves_max: i64 = TimeShares::DEFAULT.moves_max, 1..=200, step 2;
    /// The hard limit: the clock over at most this many of them.
    time_hard_moves: i64 = TimeShares::DEFAULT.hard_moves, 1..=100, step 1;
    /// The soft limit (no new iteration past it): the clock over at most this many of them.
    time_soft_moves: i64 = TimeShares::DEFAULT.soft_moves, 1..=200, step 1;
    /// The soft limit with a match clock is also at most this percentage of the turn limit.
    time_soft_turn_percent: i64 = TimeShares::DEFAULT.soft_turn_percent, 10..=100, step 5;
}

impl Default for Params {
    fn default() -> Params {
        Params::DEFAULT
    }
}

/// One parameter: its name, its default, its range and its step for SPSA, and how to read and write
/// it in a [`Params`].
#[derive(Clone, Copy)]
pub struct Spec {
    pub name: &'static str,
    pub default: i64,
    pub min: i64,
    pub max: i64,
    /// A perturbation SPSA may take: about a twentieth of the useful range, and never less than 1.
    pub step: i64,
    get: fn(&Params) -> i64,
    set: fn(&mut Params, i64),
}

impl fmt::Debug for Spec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} = {} [{}, {}] step {}", self.name, self.default, self.min, self.max, self.step)
    }
}

impl Spec {
    /// The parameter named `name` (any case).
    pub fn find(name: &str) -> Option<&'static Spec> {
        SPECS.iter().find(|s| s.name.eq_ignore_ascii_case(name))
    }

    /// This parameter's value in `p`.
    pub fn get(&self, p: &Params) -> i64 {
        (self.get)(p)
    }
}

/// What is wrong with a parameter setting.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParamError {
    /// No parameter has this name (the command line suggests the nearest of [`SPECS`]).
    Unknown { name: String },
    /// The value is not a whole number.
    NotANumber { name: &'static str, value: String },
    /// The value lies outside the parameter's range.
    OutOfRange { name: &'static str, value: i64, min: i64, max: i64 },
    /// A setting that is not `NAME=VALUE`.
    Malformed(String),
}

impl fmt::Display for ParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParamError::Unknown { name } => write!(f, "unknown parameter '{name}' ('params' lists them)"),
            ParamError::NotANumber { name, value } => write!(f, "{name}: '{value}' is not a whole number"),
            ParamError::OutOfRange { name, value, min, max } => {
                write!(f, "{name}: {value} is outside {min}..={max}")
            }
            ParamError::Malformed(s) => write!(f, "'{s}' is not NAME=VALUE"),
        }
    }
}

impl std::error::Error for ParamError {}

impl Params {
    /// Sets the parameter `name` (any case) to `value`, within its range.
    pub fn set(&mut self, name: &str, value: i64) -> Result<(), ParamError> {
        let spec = Spec::find(name).ok_or_else(|| ParamError::Unknown { name: name.to_string() })?;
        if !(spec.min..=spec.max).contains(&value) {
            return Err(ParamError::OutOfRange { name: spec.name, value, min: spec.min, max: spec.max });
        }
        (spec.set)(self, value);
        Ok(())
    }

    /// Applies `NAME=VALUE[,NAME=VALUE…]` in order (blank items are skipped).
    pub fn apply(&mut self, settings: &str) -> Result<(), ParamError> {
        for item in settings.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (name, value) =
                item.split_once('=').ok_or_else(|| ParamError::Malformed(item.to_string()))?;
            let (name, value) = (name.trim(), value.trim());
            let spec = Spec::find(name).ok_or_else(|| ParamError::Unknown { name: name.to_string() })?;
            let v = value
                .parse::<i64>()
                .map_err(|_| ParamError::NotANumber { name: spec.name, value: value.to_string() })?;
            self.set(spec.name, v)?;
        }
        Ok(())
    }

    /// The defaults with `settings` (`NAME=VALUE[,NAME=VALUE…]`) applied.
    pub fn parse(settings: &str) -> Result<Params, ParamError> {
        let mut p = Params::DEFAULT;
        p.apply(settings)?;
        Ok(p)
    }

    /// The evaluation's numbers among these.
    pub fn eval(&self) -> EvalParams {
        EvalParams {
            divisor: self.eval_divisor,
            pente_own_percent: self.pente_own_percent,
            pente_divisor: self.pente_eval_divisor,
            pente_stone: self.pente_stone,
            pente_race: self.pente_race,
            pente_cash_twelfths: self.pente_cash_twelfths,
            pente_exposed: self.pente_exposed,
        }
    }

    /// The time manager's shares of a match clock among these.
    pub fn time_shares(&self) -> TimeShares {
        TimeShares {
            moves_max: self.time_moves_max,
            hard_moves: self.time_hard_moves,
            soft_moves: self.time_soft_moves,
            soft_turn_percent: self.time_soft_turn_percent,
        }
    }

    /// Plies taken off the `n`-th quiet move at `depth` in the prior's order: late moves rarely beat
    /// the first ones, so they get a shallower look first (re-searched in full if they beat alpha).
    /// Steeper than `gentle_reduction`.
    #[inline]
    pub(super) fn reduction(&self, depth: i32, n: usize) -> i32 {
        log_curve(self.lmr_base, self.lmr_divisor, depth, n)
    }

    /// The reduction of the weight matrix's order (Pente): growing with depth and move number.
    #[inline]
    pub(super) fn gentle_reduction(&self, depth: i32, n: usize) -> i32 {
        log_curve(self.gentle_base, self.gentle_divisor, depth, n)
    }

    /// Quiet moves searched at a node `depth` plies from the horizon, the prior's best (see
    /// `quiet_moves_1`, `move_count_base`).
    pub(super) fn quiet_moves(&self, depth: i32) -> usize {
        match depth {
            ..=1 => self.quiet_moves_1,
            2 => self.quiet_moves_2,
            3..=5 => self.quiet_moves_5,
            _ => self.rapfi_move_count(depth),
        }
    }

    /// Rapfi's move count `d` plies from the horizon (its futility move count where the evaluation is
    /// improving): 3 + d^1.32 at the defaults.
    pub(super) fn rapfi_move_count(&self, depth: i32) -> usize {
        (self.move_count_base as f32 + (depth as f32).powf(self.move_count_power as f32 / 100.0)) as usize
    }

    /// Answers to an opponent's open three searched at first, `depth` plies from the horizon: half of
    /// `rapfi_move_count` and at least `defence_moves_min` (3, 3, 4, 5, 6, 6, 7, 8 one to eight plies up
    /// at the defaults; Rapfi's counts where the evaluation is not improving gave 2, 2, 3, 4, 5, 6, 8, 9). Searched in full, these
    /// were the widest nodes of the tree; the rest wait until all of these lose (see `search`).
    pub(super) fn defence_moves(&self, depth: i32) -> usize {
        (self.rapfi_move_count(depth.max(1)) / 2).max(self.defence_moves_min)
    }
}

/// `base + ln(depth) ln(n) / divisor` (both in hundredths), rounded down, at least 1.
#[inline]
fn log_curve(base: i32, divisor: i32, depth: i32, n: usize) -> i32 {
    let r = base as f32 / 100.0 + (depth as f32).ln() * (n as f32).ln() / (divisor as f32 / 100.0);
    (r as i32).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_default_lies_in_its_range_and_reads_back() {
        let p = Params::DEFAULT;
        for s in SPECS {
            assert!(s.min <= s.default && s.default <= s.max, "{s:?}");
            assert!(s.step >= 1 && s.step <= s.max - s.min, "{s:?}");
            assert_eq!(s.get(&p), s.default, "{s:?}");
        }
    }

    #[test]
    fn every_value_of_a_range_fits_its_field() {
        for s in SPECS {
            for v in [s.min, s.max] {
                let mut p = Params::DEFAULT;
                p.set(s.name, v).expect("in range");
                assert_eq!(s.get(&p), v, "{s:?}");
            }
        }
    }

    #[test]
    fn the_evaluation_s_and_the_clock_s_numbers_default_to_their_own() {
        assert_eq!(Params::DEFAULT.eval(), EvalParams::DEFAULT);
        assert_eq!(Params::DEFAULT.time_shares(), TimeShares::DEFAULT);
    }

    #[test]
    fn every_time_share_at_either_end_keeps_the_limits_in_order_and_within_the_clock() {
        use crate::player::timeman::{Budget, Clock};
        use std::time::Instant;
        for s in SPECS.iter().filter(|s| s.name.starts_with("time_")) {
            for v in [s.min, s.max] {
                let mut p = Params::DEFAULT;
                p.set(s.name, v).expect("in range");
                for (turn, left, empty) in
                    [(5000, 100_000, 200), (0, 3000, 2), (30_000, 400, 100), (300, 1, 9)]
                {
                    let clock = Clock {
                        timeout_turn: turn,
                        timeout_match: 180_000,
                        time_left: Some(left),
                        overhead: 0,
                    };
                    let b = Budget::new(&clock, Instant::now(), empty, &p.time_shares());
                    let (soft, hard) = (b.soft.expect("limited"), b.hard.expect("limited"));
                    assert!(soft <= hard && hard.as_millis() < left as u128, "{}={v}: {b:?}", s.name);
                }
            }
        }
    }

    #[test]
    fn names_are_unique_lowercase_words() {
        for (i, s) in SPECS.iter().enumerate() {
            assert!(s.name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'));
            assert!(SPECS[..i].iter().all(|t| t.name != s.name), "{} twice", s.name);
        }
    }

    #[test]
    fn settings_apply_in_order_over_the_defaults() {
        let p = Params::parse("razor_margin=70, FUTILITY_PER_PLY=50,razor_margin=80").expect("valid");
        assert_eq!(p.razor_margin, 80);
        assert_eq!(p.futility_per_ply, 50);
        assert_eq!(Params { razor_margin: 64, futility_per_ply: 86, ..p }, Params::DEFAULT);
        assert_eq!(Params::parse(""), Ok(Params::DEFAULT));
    }

    #[test]
    fn an_unknown_name_is_refused_by_name() {
        let e = Params::parse("razor_margn=70").unwrap_err();
        assert_eq!(e, ParamError::Unknown { name: "razor_margn".into() });
    }

    #[test]
    fn a_value_out_of_range_or_not_a_number_is_refused() {
        assert_eq!(
            Params::parse("cut_extra=9"),
            Err(ParamError::OutOfRange { name: "cut_extra", value: 9, min: 0, max: 5 })
        );
        assert_eq!(
            Params::parse("cut_extra=one"),
            Err(ParamError::NotANumber { name: "cut_extra", value: "one".into() })
        );
        assert_eq!(Params::parse("cut_extra"), Err(ParamError::Malformed("cut_extra".into())));
    }

    #[test]
    fn the_curves_take_their_tuned_values_at_the_defaults() {
        // The second SPSA chain's values (docs/training.md): LMR 1.09 + ln d ln n / 1.94, move count
        // 5 + d^1.22; Pente's gentle curve as it was.
        let p = Params::DEFAULT;
        for depth in 1..40 {
            for n in 1..80 {
                let (d, m) = ((depth as f32).ln(), (n as f32).ln());
                assert_eq!(p.reduction(depth, n), ((109.0 / 100.0 + d * m / (194.0 / 100.0)) as i32).max(1));
                assert_eq!(p.gentle_reduction(depth, n), ((0.3 + d * m / 2.0) as i32).max(1));
            }
            assert_eq!(p.rapfi_move_count(depth), (5.0 + (depth as f32).powf(1.22)) as usize);
        }
        let counts: Vec<usize> = (1..=8).map(|d| p.defence_moves(d)).collect();
        assert_eq!(counts, [3, 3, 4, 5, 6, 6, 7, 8]);
        assert_eq!([1, 2, 3, 5, 6, 8, 10].map(|d| p.quiet_moves(d)), [10, 7, 6, 6, 13, 17, 21]);
    }
}
