//! The search's tuned numbers: margins, move counts, reductions, budgets. Each says what it bounds and
//! what it measured; docs/strength.md (Ideas tried) has the runs behind them.

use super::*;

pub(super) const INF: i32 = WIN + 1;
/// Deepest ply a line may reach (forced replies extend without limit otherwise).
pub(super) const MAX_PLY: usize = 96;
/// Nodes between two looks at the clock and the stop flag: a node can cost tens of microseconds
/// (threat defences are tried move by move, renju's forbidden test recurses), so this stays small:
/// at 64 a renju answer took 296 ms of a 300 ms turn.
pub(super) const CHECK_EVERY: u64 = 16;
/// Aspiration windows (see `Worker::root`) from this depth on: the first iterations are too quick to
/// gain from one, and their scores swing the most.
pub(super) const ASPIRATION_FROM: i32 = 5;
/// Half the first aspiration window's width, Rapfi's (on our evaluation's scale: see `evaluate`). A failed
/// window's bound is set past the score by Rapfi's rule too: three quarters of the last width plus 6,
/// more for large scores (see `Worker::root` for why that creeps, and why it stays).
pub(super) const ASPIRATION_DELTA: i32 = 16;
/// The half-width beyond which a failing window opens fully (mate scores get there at once).
pub(super) const ASPIRATION_MAX: i32 = 1000;
/// Quiescence (`Worker::quiesce`): at most this many fours of ours in a row, and this many nodes a
/// leaf. Small on purpose: a four point is common at the leaves, a bigger budget ate most of the nodes
/// (81% of a busy middle game's at 48), and the next iteration finds what it misses, since a four's block
/// costs no depth. (The narrow VCF's 16 nodes over the wide one's 4: +36 ± 34 Elo, 100 ms self-play;
/// the halvings to 4 before it in docs/strength.md, Ideas tried.)
pub(super) const LEAF_VCF_FOURS: u32 = 8;
pub(super) const LEAF_VCF_NODES: u32 = 16;
/// The opponent's VCF threat at the root (its VCF if it could move again; not looked for inside the
/// tree: see `search`): at most this many fours and nodes. A refuted check spends its whole budget, so
/// the budget is small: 12 nodes over 64 (+46 Elo, 100 ms self-play); with 64, 35.5% of 320 games
/// against Rapfi at 300 ms, 40.3% with 12 (docs/strength.md, Ideas tried).
pub(super) const THREAT_VCF_FOURS: u32 = 8;
pub(super) const THREAT_VCF_NODES: u32 = 12;
/// The prior's best quiet moves added to the answers to an opponent's VCF threat (our fours and threes
/// and the cells of its line; at the root the other moves follow). A quiet move can beat the threat too:
/// one that gives the blocks of the opponent's fours a four of ours to make, or an attack that wins
/// first (the test `a_quiet_move_answers_a_vcf_threat_when_it_wins_first`). The table's move, when the
/// node has one, is the first of them. Four instead of two: 39.1% of 320 games against Rapfi at 300 ms,
/// two 40.3% (docs/strength.md, Ideas tried).
pub(super) const THREAT_QUIET_MOVES: usize = 2;
/// Quiet moves searched at a node in the weight-matrix order (Pente), and the other moves the root adds
/// after its answers to an opponent's VCF threat.
pub(super) const MAX_QUIET_MOVES: usize = 14;
/// The most moves a node picks by keeping the best while scanning (`top_near_moves`); more are sorted.
pub(super) const TOP_MOVES: usize = 16;
/// Root moves from this one on (in the last iteration's order) are reduced when quiet: the root searches
/// every move near stones, often 40 or more, and a full-depth look at each cost half of the nodes.
/// (+72 ± 35 Elo, 100 ms self-play; from the third move 39.7% of 320 games against Rapfi at 300 ms, from
/// the fourth 40.3%; docs/strength.md, Ideas tried.)
pub(super) const ROOT_LMR_FROM: usize = 3;
/// Razoring: a quiet node off the principal variation, one to three plies from the horizon, whose
/// evaluation is this much a ply below alpha returns it unsearched. Nearly every cut comes from
/// evaluations far below alpha (40 a ply cut 1% more `bench` nodes than 60). (+32 Elo with the history
/// malus of `search`, 100 ms self-play; without razoring 39.7% of 320 games against Rapfi at 300 ms,
/// with it 40.3%; docs/strength.md, Ideas tried.)
pub(super) const RAZOR_MARGIN: i32 = 60;

/// Completed iterations in a row that must claim a win before the deepening stops early.
pub(super) const CLAIM_ITERATIONS: u32 = 3;

/// The fail-high reduction's margin above beta: `FAIL_HIGH_BASE + FAIL_HIGH_PER_PLY * depth`, and
/// `FAIL_HIGH_FOURS` more when the opponent has a four to play (Rapfi's values, on our evaluation's
/// scale: see `evaluate`).
pub(super) const FAIL_HIGH_BASE: i32 = -9;
pub(super) const FAIL_HIGH_PER_PLY: i32 = 15;
pub(super) const FAIL_HIGH_FOURS: i32 = 87;
/// The LMR extension's margin above alpha, `LMR_DEEPER_BASE + LMR_DEEPER_PER_PLY * reduction`, and
/// the most such extensions on one line (Rapfi's values).
pub(super) const LMR_DEEPER_BASE: i32 = 34;
pub(super) const LMR_DEEPER_PER_PLY: i32 = 11;
pub(super) const MAX_LMR_EXTENSIONS: u8 = 5;
/// Extra plies off the late quiet moves of an expected cut node (see `search`): one of its first moves
/// is expected to refute the parent's move, so a late one is rarely needed, and a wrong guess is only a
/// shallower look, re-searched if the move beats alpha. (+21 ± 24 Elo, 800 games of 100 ms self-play;
/// docs/strength.md, Ideas tried.)
pub(super) const CUT_EXTRA: i32 = 1;
/// Reverse futility pruning: a quiet node off the principal variation returns its evaluation when
/// that lies this much a ply above beta, from the second ply from the horizon on (at the first, any
/// evaluation at or above beta). Rapfi's freestyle margin, on our evaluation's scale (see `evaluate`).
/// (+47 ± 34 Elo, renju +40 ± 34, 100 ms self-play; Rapfi's whole margin 35.8% of 320 games against
/// Rapfi at 300 ms, this one about 41%; docs/strength.md, Ideas tried.)
pub(super) const FUTILITY_PER_PLY: i32 = 63;

/// Plies taken off the `n`-th quiet move at `depth` in the prior's order: late moves rarely beat the
/// first ones, so they get a shallower look first (re-searched in full if they beat alpha). The usual
/// log-log curve, steeper than `gentle_reduction` (+47 ± 34 Elo with the null-window ply of `child`,
/// 100 ms self-play). The divisor is at its best from both sides: 1.2 scored 38.4% and 2.0 36.4% of 320
/// games against Rapfi at 300 ms, 1.6 about 41%. The move number stands in well enough for the prior's
/// own judgement, and the rounding down costs nothing (docs/strength.md, Ideas tried).
pub(super) fn reduction(depth: i32, n: usize) -> i32 {
    let r = 0.5 + (depth as f32).ln() * (n as f32).ln() / 1.6;
    (r as i32).max(1)
}

/// The reduction of the weight matrix's order (Pente): growing with depth and move number, over a flat
/// 1-2 plies from the 5th move (+41 ± 34 Elo, 100 ms self-play).
pub(super) fn gentle_reduction(depth: i32, n: usize) -> i32 {
    let r = 0.3 + (depth as f32).ln() * (n as f32).ln() / 2.0;
    (r as i32).max(1)
}

/// Quiet moves searched at a node `depth` plies from the horizon, the prior's best. Near the horizon
/// few, since a move the prior ranks ninth rarely matters two plies from the leaves: 8, 10, then 12
/// (+24 ± 34 Elo over a flat 14, 100 ms self-play). From six plies up Rapfi's growing count (3 + d^1.32:
/// 13 at 6, 18 at 8, 23 at 10): a flat 12 never searched the prior's 13th move however long the turn
/// (41.6% of 1120 games against Rapfi at 300 ms, the flat counts 36.5% of 800; docs/strength.md, Ideas
/// tried). With the weight-matrix order (Pente) such limits never paid.
pub(super) fn quiet_moves(depth: i32) -> usize {
    match depth {
        ..=1 => 8,
        2 => 10,
        3..=5 => 12,
        _ => rapfi_move_count(depth),
    }
}

/// Rapfi's move count `d` plies from the horizon (its futility move count where the evaluation is
/// improving): 3 + d^1.32.
pub(super) fn rapfi_move_count(depth: i32) -> usize {
    (3.0 + (depth as f32).powf(1.32)) as usize
}

/// Answers to an opponent's open three searched at first, `depth` plies from the horizon: half of
/// `rapfi_move_count` and at least 2 (2, 2, 3, 4, 5, 6, 8, 9 one to eight plies up; Rapfi's counts
/// where the evaluation is not improving). Searched in full, these were the widest nodes of the tree;
/// the rest wait until all of these lose (see `search`). (49.4% vs 45.1% of 960 games against Rapfi,
/// 300 ms, over PentaZen's 3/5/7/8; docs/strength.md, Ideas tried.)
pub(super) fn defence_moves(depth: i32) -> usize {
    (rapfi_move_count(depth.max(1)) / 2).max(2)
}

/// With helper threads, moves another thread is searching are put off from this depth up (see `busy`;
/// from 2 or 5 the threads reached depth 14-15 later: `bench --threads 2` on middle30.txt).
pub const BUSY_DEPTH: i32 = 3;
