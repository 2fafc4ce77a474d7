//! The search's tuned numbers: margins, move counts, reductions, budgets. Each says what it bounds and
//! why it has this value; what each is worth is in docs/search.md, the runs in docs/strength.md (Ideas
//! tried).

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
/// leaf. Small on purpose: a four point is common at the leaves, and with the wide VCF a bigger budget
/// ate most of a busy middle game's nodes; the narrow one rarely reaches it, and the next iteration
/// finds what it misses, since a four's block costs no depth (docs/search.md §8).
pub(super) const LEAF_VCF_FOURS: u32 = 8;
pub(super) const LEAF_VCF_NODES: u32 = 16;
/// The opponent's VCF threat at the root (its VCF if it could move again; not looked for inside the
/// tree: see `search`): at most this many fours and nodes. A refuted check spends its whole budget, so
/// the budget is small (docs/search.md §2).
pub(super) const THREAT_VCF_FOURS: u32 = 8;
pub(super) const THREAT_VCF_NODES: u32 = 12;
/// The prior's best quiet moves added to the answers to an opponent's VCF threat (our fours and threes
/// and the cells of its line; at the root the other moves follow). A quiet move can beat the threat too:
/// one that gives the blocks of the opponent's fours a four of ours to make, or an attack that wins
/// first (the test `a_quiet_move_answers_a_vcf_threat_when_it_wins_first`). The table's move, when the
/// node has one, is the first of them. Four did no better than two (docs/strength.md, Ideas tried).
pub(super) const THREAT_QUIET_MOVES: usize = 2;
/// Quiet moves searched at a node in the weight-matrix order (Pente), and the other moves the root adds
/// after its answers to an opponent's VCF threat.
pub(super) const MAX_QUIET_MOVES: usize = 14;
/// The most moves a node picks by keeping the best while scanning (`top_near_moves`); more are sorted.
pub(super) const TOP_MOVES: usize = 16;
/// Root moves from this one on (in the last iteration's order) are reduced when quiet: the root searches
/// every move near stones, often 40 or more, and a full-depth look at each cost half of the nodes.
/// From the third move it played worse (docs/search.md §2).
pub(super) const ROOT_LMR_FROM: usize = 3;
/// Razoring: a quiet node off the principal variation, one to three plies from the horizon, whose
/// evaluation is this much a ply below alpha returns it unsearched. Nearly every cut comes from
/// evaluations far below alpha, so a smaller margin adds few cuts (docs/search.md §5.5; it pays with
/// the history malus of `search`).
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
/// shallower look, re-searched if the move beats alpha (docs/search.md §7).
pub(super) const CUT_EXTRA: i32 = 1;
/// Reverse futility pruning: a quiet node off the principal variation returns its evaluation when
/// that lies this much a ply above beta, from the second ply from the horizon on (at the first, any
/// evaluation at or above beta). Rapfi's freestyle margin, on our evaluation's scale (see `evaluate`);
/// its whole margin, with the improving and cut-node terms, played worse (docs/search.md §5.6).
pub(super) const FUTILITY_PER_PLY: i32 = 63;

/// Plies taken off the `n`-th quiet move at `depth` in the prior's order: late moves rarely beat the
/// first ones, so they get a shallower look first (re-searched in full if they beat alpha). The usual
/// log-log curve, steeper than `gentle_reduction`. The divisor is at its best from both sides (1.2 and
/// 2.0 played worse), the move number stands in well enough for the prior's own judgement, and the
/// rounding down costs nothing (docs/search.md §7).
pub(super) fn reduction(depth: i32, n: usize) -> i32 {
    let r = 0.5 + (depth as f32).ln() * (n as f32).ln() / 1.6;
    (r as i32).max(1)
}

/// The reduction of the weight matrix's order (Pente): growing with depth and move number, over a flat
/// 1-2 plies from the 5th move (docs/strength.md, Ideas tried).
pub(super) fn gentle_reduction(depth: i32, n: usize) -> i32 {
    let r = 0.3 + (depth as f32).ln() * (n as f32).ln() / 2.0;
    (r as i32).max(1)
}

/// Quiet moves searched at a node `depth` plies from the horizon, the prior's best. Near the horizon
/// few, since a move the prior ranks ninth rarely matters two plies from the leaves: 8, 10, then 12.
/// From six plies up Rapfi's growing count (3 + d^1.32: 13 at 6, 18 at 8, 23 at 10): a flat 12 never
/// searched the prior's 13th move however long the turn (docs/search.md §6). With the weight-matrix
/// order (Pente) such limits never paid.
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
/// the rest wait until all of these lose (see `search`). Better than PentaZen's 3/5/7/8 and than wider
/// counts (docs/search.md §6).
pub(super) fn defence_moves(depth: i32) -> usize {
    (rapfi_move_count(depth.max(1)) / 2).max(2)
}

/// With helper threads, moves another thread is searching are put off from this depth up (see `busy`;
/// from 2 or 5 the threads reached depth 14-15 later: `bench --threads 2` on middle30.txt).
pub const BUSY_DEPTH: i32 = 3;
