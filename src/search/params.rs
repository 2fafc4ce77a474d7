//! The search's tuned numbers: margins, move counts, reductions, budgets. Each says what it bounds and
//! what it measured; docs/strength.md (Ideas tried) has the runs behind them.

use super::*;

pub(super) const INF: i32 = WIN + 1;
/// Deepest ply a line may reach (forced replies extend without limit otherwise).
pub(super) const MAX_PLY: usize = 96;
/// Nodes between two looks at the clock and the stop flag: a node can cost tens of microseconds
/// (threat defences are tried move by move, renju's forbidden test recurses), so this stays small:
/// at 64 a renju answer once came 296 ms into a 300 ms turn.
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
/// Quiescence (`Worker::quiesce`): at most this many fours of ours on a line, and this many fours
/// tried per leaf. Small on purpose: a side with a four point is common at the leaves, and a bigger
/// budget ate most of the nodes (81% in a busy middle game at 48 nodes) for wins the next iteration
/// finds anyway (fours are forcing: the block costs no depth). Self-play, 100 ms, 400 games each, with
/// the mate-only VCF that came before: 48 -> 20 nodes +41 Elo, 20 -> 10 +23, 10 -> 4 +23, 4 -> 2 -5
/// (all +- 34); the narrow VCF's moves (`threat::narrow_vcf`: only fours that build something, near
/// the last one) went deeper for less: 16 nodes of it against 4 of the wide one, +36 +- 34.
pub(super) const LEAF_VCF_FOURS: u32 = 8;
pub(super) const LEAF_VCF_NODES: u32 = 16;
/// The opponent's VCF threat at the root (its VCF if it could move again; inside the tree it is not
/// looked for: see `search`), at most this many fours and nodes. A refuted check
/// searched its whole budget, 18 nodes on average at 64. Self-play, 100 ms, 400 games: 64 -> 24 nodes
/// +29 Elo, 64 -> 12 +46; on top of the check starting at depth 2, 24, 12 and 6 nodes all scored
/// 225.5-227 against 64 without it (+45 +- 34).
/// Against Rapfi at 300 ms with 64 nodes: 35.5% of 320 freestyle games, the search with 12 nodes 40.3%
/// over 5760 (README, Strength, "Fortieth session").
pub(super) const THREAT_VCF_FOURS: u32 = 8;
pub(super) const THREAT_VCF_NODES: u32 = 12;
/// The prior's best quiet moves added to the answers to an opponent's VCF threat (our fours and threes and
/// the cells of its line; at the root, where the rest of the moves follow them). A quiet move can beat the
/// threat too: one that gives the blocks of the opponent's fours a four of ours to make, or builds an attack
/// that wins first. Without it such a move was searched only when every listed answer lost, so a node where
/// one of them merely held never saw it: black's i10, move 13 of game 135 in the thirteenth session's fourth
/// 300 ms run against Rapfi, lost to e7 d6 e8, and e8 (a closed three and a two) was not among white's
/// answers after d6. Our search chose i10 at every depth up to 16 (1 s), and with i10 alone rated it +128 at
/// depth 19. The table's move, when the node has one, is the first of the two (it outranks every other
/// candidate), so it too is searched now. Two moves leave the `bench 10` count nearly as it was (242741
/// against 243224); one made it 269256, three 299653. Four (`bench 10` 218376 with the present search):
/// 125-195 of 320 freestyle games against Rapfi at 300 ms (39.1%), two 40.3% over 5760, the same (README,
/// Strength, "Forty-second session").
pub(super) const THREAT_QUIET_MOVES: usize = 2;
/// Quiet moves searched at a node in the weight-matrix order (Pente), and the other moves the root adds
/// after its answers to an opponent's VCF threat.
pub(super) const MAX_QUIET_MOVES: usize = 14;
/// The most moves a node picks by keeping the best while scanning (`top_near_moves`); more are sorted.
pub(super) const TOP_MOVES: usize = 16;
/// Root moves from this one on (by the last iteration's order) are reduced when quiet: the root
/// searches every move near stones, often 40 or more, and a full-depth look at each cost half of
/// the nodes. Self-play, 100 ms, 400 games: 241-159 (+72 +- 35 Elo) against no root reductions.
/// Against Rapfi at 300 ms in freestyle: without them (twice the `bench 10` nodes) 59-110 of 169 games
/// (34.9%), from the third move instead of the fourth 127-193 of 320 (39.7%), the search as it is
/// 40.3% over 5760 (README, Strength, "Forty-third session").
pub(super) const ROOT_LMR_FROM: usize = 3;
/// Razoring: a quiet node off the principal variation, one to three plies from the horizon, whose
/// evaluation is this much a ply below alpha returns it unsearched (PentaZen razors below depth 5).
/// Nearly every cut comes from evaluations far below alpha (40 a ply cut 1% more bench nodes than
/// 60). Self-play, 100 ms, 400 games each against f933746: 210-190 (+17), 204.5-195.5 at 40 a ply
/// (+8), and 218.5-181.5 (+32) with the history malus (see `search`): 52.8% over the 1200 games.
/// Rapfi's form (33 and 47 below alpha one and two plies up, into the quiescence over fours, with
/// fours of ours too), played together with Rapfi's killer move exempt from `CUT_EXTRA`, scored
/// 41.9% of 320 games against Rapfi at 300 ms, the same as this (Strength, "Twenty-seventh session").
/// No razoring at all (11% more `bench` nodes): 39.7% of 320, the search with it 40.3% over 5440, the
/// same (Strength, "Thirty-ninth session").
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
/// Extra plies off the late quiet moves of an expected cut node (see `search`): one of its first
/// moves is expected to refute the parent's move, so a late one is rarely needed, and a wrong guess
/// is only a shallower look that is re-searched if the move beats alpha. Self-play, 100 ms, 400
/// games: 212-188 twice (+21 +- 24 Elo over 800), renju 203-197; two plies 201-199. Against Rapfi
/// at 300 ms without it (25% more `bench 10` nodes): 40.6% of 320, the same as with it (Strength,
/// "Thirty-third session").
pub(super) const CUT_EXTRA: i32 = 1;
/// Reverse futility pruning: a quiet node off the principal variation returns its evaluation when
/// that lies this much a ply above beta, from the second ply from the horizon on (at the first, any
/// evaluation at or above beta). Rapfi's freestyle margin, on our evaluation's scale (see `evaluate`).
/// Self-play, 100 ms, 400 games each: +47 +- 34 Elo in freestyle, +40 +- 34 in renju; 40% fewer
/// `bench 10` nodes. (Tried twice before with the weight matrix's evaluation, at 80 a ply and
/// without a depth limit: -15 and -23.) Rapfi's whole margin, a ply less where the side to move's
/// evaluation has risen since its previous node and 12 a ply less at an expected cut node with no
/// table entry, scored 35.8% of 320 games against Rapfi at 300 ms, where this one scores about 41%
/// (Strength, "Twenty-seventh session").
pub(super) const FUTILITY_PER_PLY: i32 = 63;

/// Plies taken off the `n`-th quiet move at `depth` in the prior's order: late moves rarely beat the
/// first ones, so they get a shallower look first (re-searched in full if they do beat alpha). The
/// usual log-log shape, steeper than `gentle_reduction`: with the weight-matrix order it gave +28 (not
/// kept), with the prior's (and the extra ply off the principal variation, see `child`) +47 +- 34 Elo
/// in self-play (100 ms, 400 games). The move number stands for the prior's judgement well enough: a
/// ply more for a move whose prior lies 2 logits below the node's best (two at 4), as Rapfi reduces
/// by its policy, scored 129.5-190.5 of 320 against Rapfi at 300 ms (40.5%, the same as without).
/// Nor does the rounding down cost anything: with the depth in sixteenths of a ply (a fraction left at
/// the horizon buying a whole ply, as in Rapfi) the reduction unrounded scored 37.3%, 40.0% and 39.1%
/// of 320 with 0, 0.5 and 1 ply taken off it, the search as it is 37.5% the same day (Strength,
/// "Thirty-fourth session"). The divisor is at its best from both sides: 1.2 (steeper) scored 38.4% of
/// 320 in the twenty-third session, 2.0 (milder; 40% more `bench 10` nodes) 36.4% where the search as
/// it is scores about 41% (Strength, "Twenty-third session" and "Thirty-seventh session").
pub(super) fn reduction(depth: i32, n: usize) -> i32 {
    let r = 0.5 + (depth as f32).ln() * (n as f32).ln() / 1.6;
    (r as i32).max(1)
}

/// The reduction of the weight matrix's order (Pente). Growing with both depth and move number
/// against the old flat 1-2 plies from the 5th move: +41 +- 34 Elo in self-play (100 ms, 400 games);
/// one ply less on the principal variation changed nothing (-3).
pub(super) fn gentle_reduction(depth: i32, n: usize) -> i32 {
    let r = 0.3 + (depth as f32).ln() * (n as f32).ln() / 2.0;
    (r as i32).max(1)
}

/// Quiet moves searched at a node `depth` plies from the horizon: near it only the best few by the
/// prior (a move the prior ranks ninth rarely matters two plies from the leaves). Self-play at 100 ms,
/// 400 games each: 8, 10 and then 12 moves at depths 1, 2 and 3 on scored 214-186 (+24 +- 34 Elo)
/// against the flat 14 with the prior's order, and 223-177 (+40 +- 34) against the weight-matrix
/// order with the flat 14; 6/6/8/10/12 lost 189-211 to them. With the weight-matrix order such
/// limits never paid.
///
/// From six plies up the count grows with the depth as Rapfi's does (3 + d^1.32: 13 at 6, 16 at 7,
/// 18 at 8, 23 at 10). A flat 12 left the prior's 13th move unsearched however long the turn, and
/// Rapfi's lead grew with the time (our score fell from 45% at 100 ms to 36.5% at 300 ms). The extra
/// moves come late, so they are reduced by several plies: 2% more `bench 10` nodes. Against Rapfi at
/// 300 ms (freestyle, with the growing `defence_moves`): 466-654 in four runs, 41.6% over 1120
/// games, where the flat counts scored 36.5% over 800 (2.3 standard errors), most of it gained
/// with white; at 100 ms 43.3% over 480 (the flat counts 44.9% over 1920). Renju and exact five stayed
/// where they were. Growing faster (3 + d^1.45) scored 36.7% over 320, slower (3 + d^1.25) 41.9%, and
/// Rapfi's counts near the horizon too (4, 5, 7, 9, 11) 39.8%; a control of these counts in the next
/// session 41.2% (41.5% over 1440).
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

/// Answers to an opponent's open three searched at first, `depth` plies from the horizon: Rapfi's move
/// counts where the evaluation is not improving, half of `rapfi_move_count` and at least 2 (2, 2, 3, 4, 5,
/// 6, 8 and 9 one to eight plies from the horizon). Every defence and every four of ours used to be
/// searched at full depth there, the widest nodes of the tree; PentaZen's counts near the leaves (3, 5, 7,
/// 8, then `rapfi_move_count`) scored 226.5-173.5 (+46 +- 33 Elo) against that in self-play at 100 ms.
/// Against Rapfi at 300 ms (freestyle, 320 games each) these halved counts scored 156-164, 155.5-164.5
/// and 163-157 (474.5-485.5 over 960, 49.4%; `bench 10` 177674 to 154112 nodes), PentaZen's 45.1% over
/// 960; with `root`'s shallower re-search after fail highs 138.5-181.5 (43.3%); wider counts (4, 6, 8,
/// 10, then two more than PentaZen's) 141-179 (44.1%) (Strength, "Fifty-fourth session" and
/// "Fifty-fifth session").
pub(super) fn defence_moves(depth: i32) -> usize {
    (rapfi_move_count(depth.max(1)) / 2).max(2)
}
