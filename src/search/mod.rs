//! The search: threat-space solvers at the root, then iterative-deepening alpha-beta (PVS) over the
//! incremental position, with a shared transposition table and Lazy SMP threads.
//!
//! Roadmap of one move ([`SearchPlayer::think`]):
//! 1. Forced answers at once: our five, the block of the opponent's only five, a single legal move.
//! 2. VCF for us (a proven win is played at once), then VCT within a share of the time.
//! 3. Iterative deepening: each depth searches all root moves with PVS (late quiet ones reduced first);
//!    helper threads search the same tree (odd ones a ply deeper) and share what they learn through
//!    the table. Every thread publishes the deepest iteration it completes; the others abandon that
//!    depth and go on past it, and the deepest result of any thread is the one played.
//! 4. The move of the last completed depth is played; a proven loss still gets the longest resistance.
//!    A win the search finds (as opposed to a solver's proof) ends the deepening early only once three
//!    iterations in a row have found it; a loss it finds never does.
//!
//! At every node the threats decide the moves before any ordering does (the "threat-space" part):
//! a five wins; the opponent's five must be blocked; our open four wins in three; an opponent's open
//! three (a point where it makes an open four) must be defended or met with a four of ours. Only quiet
//! nodes look at the candidate moves near stones, ordered by the table move, then by the move prior
//! (`policy`; the weight matrix under Pente) and history, the best few by depth; off the principal
//! variation a quiet node far below alpha near the horizon is razored, and one far above beta returns
//! its evaluation (reverse futility) or searches its moves a ply shallower (fail-high reduction).
//!
//! Scores are from the side to move's view; a win in n plies is `WIN - n`.

pub mod bench;
pub mod tt;

use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use crate::eval::position::Position;
use crate::eval::weights::WeightMatrix;
use crate::game::board::{Board, Color, Pos};
use crate::game::pattern::Class;
use crate::game::pattern::Patterns;
use crate::game::rules::{Rules, Variant};
use crate::player::{Limits, Player, Thought};
use crate::search::tt::{Bound, Tt};
use crate::threat::{
    Solver, ThreatLimits, block_point, defences, five_point_near, five_points, five_stops, fives_around,
    four_moves, four_three_defences, four_three_wins, makes_four, stops_off_the_point, three_moves,
    vcf_candidates,
};

pub const WIN: i32 = 30_000;
/// Scores beyond this are proven wins or losses.
pub const WIN_THRESHOLD: i32 = WIN - 1000;
const INF: i32 = WIN + 1;
/// Deepest ply a line may reach (forced replies extend without limit otherwise).
const MAX_PLY: usize = 96;
/// Nodes between two looks at the clock and the stop flag: a node can cost tens of microseconds
/// (threat defences are tried move by move, renju's forbidden test recurses), so this stays small:
/// at 64 a renju answer once came 296 ms into a 300 ms turn.
const CHECK_EVERY: u64 = 16;
/// Aspiration windows (see `Worker::root`) from this depth on: the first iterations are too quick to
/// gain from one, and their scores swing the most.
const ASPIRATION_FROM: i32 = 5;
/// Half the first aspiration window's width, Rapfi's (on our evaluation's scale: see `evaluate`). A failed
/// window's bound is set past the score by Rapfi's rule too: three quarters of the last width plus 6,
/// more for large scores (see `Worker::root` for why that creeps, and why it stays).
const ASPIRATION_DELTA: i32 = 16;
/// The half-width beyond which a failing window opens fully (mate scores get there at once).
const ASPIRATION_MAX: i32 = 1000;
/// Quiescence (`Worker::quiesce`): at most this many fours of ours on a line, and this many fours
/// tried per leaf. Small on purpose: a side with a four point is common at the leaves, and a bigger
/// budget ate most of the nodes (81% in a busy middle game at 48 nodes) for wins the next iteration
/// finds anyway (fours are forcing: the block costs no depth). Self-play, 100 ms, 400 games each, with
/// the mate-only VCF that came before: 48 -> 20 nodes +41 Elo, 20 -> 10 +23, 10 -> 4 +23, 4 -> 2 -5
/// (all +- 34); the narrow VCF's moves (`threat::narrow_vcf`: only fours that build something, near
/// the last one) went deeper for less: 16 nodes of it against 4 of the wide one, +36 +- 34.
const LEAF_VCF_FOURS: u32 = 8;
const LEAF_VCF_NODES: u32 = 16;
/// The opponent's VCF threat at the root (its VCF if it could move again; inside the tree it is not
/// looked for: see `search`), at most this many fours and nodes. A refuted check
/// searched its whole budget, 18 nodes on average at 64. Self-play, 100 ms, 400 games: 64 -> 24 nodes
/// +29 Elo, 64 -> 12 +46; on top of the check starting at depth 2, 24, 12 and 6 nodes all scored
/// 225.5-227 against 64 without it (+45 +- 34).
/// Against Rapfi at 300 ms with 64 nodes: 35.5% of 320 freestyle games, the search with 12 nodes 40.3%
/// over 5760 (README, Strength, "Fortieth session").
const THREAT_VCF_FOURS: u32 = 8;
const THREAT_VCF_NODES: u32 = 12;
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
const THREAT_QUIET_MOVES: usize = 2;
/// Quiet moves searched at a node in the weight-matrix order (Pente), and the other moves the root adds
/// after its answers to an opponent's VCF threat.
const MAX_QUIET_MOVES: usize = 14;
/// The most moves a node picks by keeping the best while scanning (`top_near_moves`); more are sorted.
const TOP_MOVES: usize = 16;
/// Root moves from this one on (by the last iteration's order) are reduced when quiet: the root
/// searches every move near stones, often 40 or more, and a full-depth look at each cost half of
/// the nodes. Self-play, 100 ms, 400 games: 241-159 (+72 +- 35 Elo) against no root reductions.
/// Against Rapfi at 300 ms in freestyle: without them (twice the `bench 10` nodes) 59-110 of 169 games
/// (34.9%), from the third move instead of the fourth 127-193 of 320 (39.7%), the search as it is
/// 40.3% over 5760 (README, Strength, "Forty-third session").
const ROOT_LMR_FROM: usize = 3;
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
const RAZOR_MARGIN: i32 = 60;

/// Completed iterations in a row that must claim a win before the deepening stops early.
const CLAIM_ITERATIONS: u32 = 3;

/// The fail-high reduction's margin above beta: `FAIL_HIGH_BASE + FAIL_HIGH_PER_PLY * depth`, and
/// `FAIL_HIGH_FOURS` more when the opponent has a four to play (Rapfi's values, on our evaluation's
/// scale: see `evaluate`).
const FAIL_HIGH_BASE: i32 = -9;
const FAIL_HIGH_PER_PLY: i32 = 15;
const FAIL_HIGH_FOURS: i32 = 87;
/// The LMR extension's margin above alpha, `LMR_DEEPER_BASE + LMR_DEEPER_PER_PLY * reduction`, and
/// the most such extensions on one line (Rapfi's values).
const LMR_DEEPER_BASE: i32 = 34;
const LMR_DEEPER_PER_PLY: i32 = 11;
const MAX_LMR_EXTENSIONS: u8 = 5;
/// Extra plies off the late quiet moves of an expected cut node (see `search`): one of its first
/// moves is expected to refute the parent's move, so a late one is rarely needed, and a wrong guess
/// is only a shallower look that is re-searched if the move beats alpha. Self-play, 100 ms, 400
/// games: 212-188 twice (+21 +- 24 Elo over 800), renju 203-197; two plies 201-199. Against Rapfi
/// at 300 ms without it (25% more `bench 10` nodes): 40.6% of 320, the same as with it (Strength,
/// "Thirty-third session").
const CUT_EXTRA: i32 = 1;
/// Reverse futility pruning: a quiet node off the principal variation returns its evaluation when
/// that lies this much a ply above beta, from the second ply from the horizon on (at the first, any
/// evaluation at or above beta). Rapfi's freestyle margin, on our evaluation's scale (see `evaluate`).
/// Self-play, 100 ms, 400 games each: +47 +- 34 Elo in freestyle, +40 +- 34 in renju; 40% fewer
/// `bench 10` nodes. (Tried twice before with the weight matrix's evaluation, at 80 a ply and
/// without a depth limit: -15 and -23.) Rapfi's whole margin, a ply less where the side to move's
/// evaluation has risen since its previous node and 12 a ply less at an expected cut node with no
/// table entry, scored 35.8% of 320 games against Rapfi at 300 ms, where this one scores about 41%
/// (Strength, "Twenty-seventh session").
const FUTILITY_PER_PLY: i32 = 63;

/// Everything one search thread needs.
pub struct Worker<'a> {
    pub pos: Position,
    tt: &'a Tt,
    stop: &'a AtomicBool,
    shared_nodes: &'a AtomicU64,
    limits: Option<&'a Limits>,
    pub nodes: u64,
    /// Of `shared_nodes`, what this worker added (the rest is the other threads').
    counted: u64,
    aborted: bool,
    history: Vec<[i32; 2]>,
    main: bool,
    /// In the root iteration under way, a later move beat the first one.
    improved: bool,
    /// In the root window under way: the score that a later move beat when it became the best (the
    /// first move's, or the window's low end), and the first move's score once its search is complete.
    beaten: i32,
    first_score: Option<i32>,
    /// With helper threads: the deepest iteration any thread has completed. An iteration that one
    /// has overtaken is abandoned (its work is in the table; its result would come too late).
    completed: Option<&'a AtomicI32>,
    /// The depth of the root iteration under way.
    iteration: i32,
    /// By ply: whether the move played there made a four (read two and four plies later).
    was_four: [bool; MAX_PLY + 2],
    /// By ply: the LMR extensions on the line that leads there.
    ext: [u8; MAX_PLY + 2],
    /// By ply: whether the table's move at that node makes an open three or a stronger threat (read by
    /// the late-move reduction of its quiet moves).
    tt_threat: [bool; MAX_PLY + 2],
}

/// A quiet evaluation from the side to move's view. Without captures it is the fitted evaluation of
/// the position (line shapes and classes of every empty cell, for the side to move and for the side
/// that waits, and which threat classes each side has at all; see `EVAL_SHAPE_MOVER` and
/// `THREAT_EVAL`). Pente keeps the weight-matrix sum with its capture terms,
/// which the fit knows nothing of.
///
/// The margins taken from Rapfi (reverse futility, fail-high reduction, razoring, aspiration) apply to
/// this value as it is, though it spreads about half as wide as Rapfi's: over 543 positions of our
/// games, searched 300 ms, its standard deviation was 259 where Rapfi's (600 ms) was 525, correlation
/// 0.885. Doubled, so that those margins prune as they do in Rapfi (half the `bench 10` nodes), it
/// scored 35.3% of 320 games against Rapfi at 300 ms, the search as it is about 40% (Strength,
/// "Twenty-ninth session"). Three quarters of it (the margins a third wider by comparison; 70% more
/// `bench 10` nodes) scored 35.9% of 320, where the search as it is scored 41.6% the same day
/// (Strength, "Thirty-sixth session"): the margins are tuned to this scale from both sides.
pub fn evaluate(pos: &Position) -> i32 {
    if pos.capture_rule().is_none() {
        let v = pos.fitted_eval() / 10;
        return v.clamp(-(WIN_THRESHOLD - 1) as i64, (WIN_THRESHOLD - 1) as i64) as i32;
    }
    let me = pos.side();
    let mine = pos.weight_sum(me);
    let theirs = pos.weight_sum(me.opp());
    let mut v = (mine * 6 / 5 - theirs) / 4;
    if let Some(rule) = pos.capture_rule() {
        let worth = |n: u32| capture_worth(n, rule.to_win as u32) as i64;
        let (took, lost) = (pos.captured(me), pos.captured(me.opp()));
        v += worth(took) - worth(lost);
        // The side to move cashes its best capture (most of it: the opponent gets a reply), and
        // every pair of ours the opponent could take is a weakness.
        let best = pos.capture_moves(me).iter().map(|m| m.1).max().unwrap_or(0);
        v += (worth(took + best) - worth(took)) * 2 / 3;
        v -= 12 * pos.capture_moves(me.opp()).len() as i64;
    }
    v.clamp(-(WIN_THRESHOLD - 1) as i64, (WIN_THRESHOLD - 1) as i64) as i32
}

/// What `n` captured stones are worth when `to_win` win: steadily more as the count nears the win.
fn capture_worth(n: u32, to_win: u32) -> i32 {
    let n = n.min(to_win) as i32;
    let t = to_win.max(1) as i32;
    n * 20 + n * n * 400 / (t * t)
}

impl<'a> Worker<'a> {
    pub fn new(
        pos: Position,
        tt: &'a Tt,
        stop: &'a AtomicBool,
        shared_nodes: &'a AtomicU64,
        limits: Option<&'a Limits>,
        main: bool,
    ) -> Worker<'a> {
        let n = pos.cell_count();
        Worker {
            pos,
            tt,
            stop,
            shared_nodes,
            limits,
            nodes: 0,
            counted: 0,
            aborted: false,
            // Each search starts with an empty history, as Rapfi's does: kept from the move before at
            // half its value it scored 40.2% against Rapfi at 300 ms (320 games), no better than this
            // (Strength, "Twenty-fifth session").
            history: vec![[0; 2]; n],
            main,
            improved: false,
            beaten: -INF,
            first_score: None,
            completed: None,
            iteration: 0,
            was_four: [false; MAX_PLY + 2],
            ext: [0; MAX_PLY + 2],
            tt_threat: [false; MAX_PLY + 2],
        }
    }

    fn check_abort(&mut self) {
        if self.stop.load(Ordering::Relaxed) {
            self.aborted = true;
            return;
        }
        if self.completed.is_some_and(|c| c.load(Ordering::Relaxed) >= self.iteration) {
            // Another thread finished this depth: move on (the caller tells this from a stop by the
            // stop flag, which stays clear).
            self.aborted = true;
            return;
        }
        if let Some(l) = self.limits {
            let total = self.shared_nodes.fetch_add(CHECK_EVERY, Ordering::Relaxed) + CHECK_EVERY;
            self.counted += CHECK_EVERY;
            if l.budget.past_hard() || l.max_nodes.is_some_and(|n| total >= n) {
                self.aborted = true;
                if self.main {
                    self.stop.store(true, Ordering::Relaxed);
                }
            }
        }
    }

    /// The moves to consider at this node, best first (the first `limit` of them), or an immediate
    /// result (scored for a node `ply` plies from the root). `narrowed` is set when only the answers to
    /// the opponent's VCF threat were chosen; that threat is looked for at the root only (see `search`).
    fn generate(
        &mut self,
        ply: usize,
        tt_move: Option<usize>,
        narrowed: &mut bool,
        limit: usize,
    ) -> Result<Vec<usize>, i32> {
        let pos = &self.pos;
        let me = pos.side();
        let opp = me.opp();
        let moves: Vec<(i32, usize)>;
        let pente = pos.capture_rule().is_some();
        if pente && pos.count(opp, Class::Five) > 0 {
            // Pente: a five point is met by blocking it or by capturing a stone out of the line.
            let mut set: Vec<usize> = five_points(pos, opp);
            set.truncate(1);
            for (i, _) in pos.capture_moves(me) {
                if !set.contains(&i) {
                    set.push(i);
                }
            }
            moves = set.into_iter().map(|i| (self.score_move(i, tt_move), i)).collect();
        } else if pos.count(opp, Class::Flex4) > 0 && pos.count(me, Class::Flex4) == 0 {
            // The opponent threatens an open four: defend, or counter with a four.
            let mut set = defences(&mut self.pos, me);
            if pente {
                // Captures break threes too.
                for (i, _) in self.pos.capture_moves(me) {
                    if !set.contains(&i) {
                        set.push(i);
                    }
                }
            }
            if set.is_empty() {
                // Nothing stops the open four: lost in four plies. (Counted from the root: the game's
                // stones once counted too gave a loss in 4 the distance of one 50 to 120 plies away,
                // so the search took such a line for the more stubborn defence.)
                return Err(-(WIN - ply as i32 - 4));
            }
            moves = set.into_iter().map(|i| (self.score_move(i, tt_move), i)).collect();
        } else if let Some(set) =
            (ply > 0 && pos.count(opp, Class::B4F3) > 0).then(|| four_three_defences(&self.pos, me)).flatten()
        {
            // The opponent has a four-three point: only its answers (see `four_three_defences`; Rapfi's
            // move picker), every one of them, however many the prior would take here: any other move
            // loses in five plies, and each such move's refutation was a subtree searched. Of 17 long
            // wins (21 to 33 plies) that Rapfi found against us in lost games, found at 300 ms in 31 to
            // 1431 ms by Rapfi, the search found 12 in 3 ms to 2.5 s, about twice as fast with this as
            // without. Against Rapfi at 300 ms in freestyle: 152-168 and 142-178 of 320 (45.9% over
            // 640, as black 70.8%, as white 21.1%), the search without it 45.9% over 1920 (as black
            // about 67%, as white about 23%): level, and kept for the long wins it finds sooner
            // (Strength, "Fiftieth session"). `bench` 31812 to 32527 nodes, `bench 10` 179146 to 176958.
            let moves = set.into_iter().map(|i| (self.score_move(i, tt_move), i)).collect();
            return Ok(self.best_first(moves, usize::MAX));
        } else if let Some(line) = if pente || ply > 0 { None } else { self.opponent_vcf() } {
            // The opponent would win by fours if it moved again: play a four of ours, a point of its line,
            // a three of ours (a counter-threat: the blocks of the opponent's fours may then make
            // fours of ours, which breaks the line; missing these threw away won games), or one of the
            // prior's best quiet moves (see `THREAT_QUIET_MOVES`).
            let mut set = four_moves(&self.pos, me);
            // (Renju black's fouls are left out before the best two are taken: the prior ranks double
            // threes high, and fouls taken out after left black fewer answers, or none.)
            let quiet = if self.pos.restricted(me) {
                self.best_first(self.near_moves(tt_move), THREAT_QUIET_MOVES)
            } else {
                self.top_near_moves(tt_move, THREAT_QUIET_MOVES)
            };
            for i in line.into_iter().chain(three_moves(&self.pos, me)).chain(quiet) {
                if self.pos.is_empty(i) && !set.contains(&i) {
                    set.push(i);
                }
            }
            moves = set.into_iter().map(|i| (self.score_move(i, tt_move), i)).collect();
            *narrowed = true;
        } else {
            if limit <= TOP_MOVES && !self.pos.restricted(me) {
                let top = self.top_near_moves(tt_move, limit);
                if !top.is_empty() {
                    return Ok(top);
                }
            }
            moves = self.near_moves(tt_move);
        }
        Ok(self.best_first(moves, limit))
    }

    /// The best `limit` (at most `TOP_MOVES`) moves near stones, best first: what `best_first` makes of
    /// `near_moves`, in the same order, kept in a small sorted array while scanning instead of
    /// collecting and sorting every candidate (most nodes want only the first few). Empty when no
    /// cell is near a stone.
    fn top_near_moves(&self, tt_move: Option<usize>, limit: usize) -> Vec<usize> {
        let pos = &self.pos;
        let mut top = [(0i32, 0usize); TOP_MOVES];
        let mut n = 0;
        for i in pos.indices() {
            if !pos.is_empty(i) || !pos.is_near(i) {
                continue;
            }
            let v = self.score_move(i, tt_move);
            // Better: a higher score, or an equal one on a lower index (`best_first`'s order).
            let better = |a: (i32, usize)| v > a.0 || (v == a.0 && i < a.1);
            if n == limit && !better(top[n - 1]) {
                continue;
            }
            let mut k = if n == limit { n - 1 } else { n };
            while k > 0 && better(top[k - 1]) {
                top[k] = top[k - 1];
                k -= 1;
            }
            top[k] = (v, i);
            n = (n + 1).min(limit);
        }
        top[..n].iter().map(|&(_, i)| i).collect()
    }

    /// Every empty cell near a stone with its ordering score (the centre on an empty board).
    fn near_moves(&self, tt_move: Option<usize>) -> Vec<(i32, usize)> {
        let pos = &self.pos;
        let moves: Vec<(i32, usize)> = pos
            .indices()
            .filter(|&i| pos.is_empty(i) && pos.is_near(i))
            .map(|i| (self.score_move(i, tt_move), i))
            .collect();
        if !moves.is_empty() {
            return moves;
        }
        let c = pos.index(Pos::new(pos.width / 2, pos.height / 2));
        if pos.is_empty(c) {
            return vec![(0, c)];
        }
        pos.indices().filter(|&i| pos.is_empty(i)).map(|i| (0, i)).collect()
    }

    /// Appends the best `limit` moves near stones that are not in `moves` (nor `skip`), best first: the
    /// rest of the candidates when every move searched so far lost.
    fn add_other_moves(
        &self,
        moves: &mut Vec<usize>,
        tt_move: Option<usize>,
        skip: Option<usize>,
        limit: usize,
    ) {
        let rest: Vec<usize> = self
            .best_first(self.near_moves(tt_move), usize::MAX)
            .into_iter()
            .filter(|&i| !moves.contains(&i) && Some(i) != skip)
            .take(limit)
            .collect();
        moves.extend(rest);
    }

    /// The first `limit` moves sorted best first, without renju black's fouls.
    fn best_first(&self, mut moves: Vec<(i32, usize)>, limit: usize) -> Vec<usize> {
        let me = self.pos.side();
        let restricted = self.pos.restricted(me);
        let order = |a: &(i32, usize), b: &(i32, usize)| b.0.cmp(&a.0).then(a.1.cmp(&b.1));
        // Only the first `limit` are wanted: pick them, then sort just those (most nodes cut off on
        // the first move; a full sort of 40-60 candidates cost more). Renju black's fouls are taken
        // out after sorting, so there every move is sorted.
        if limit < moves.len() && !restricted {
            moves.select_nth_unstable_by(limit, order);
            moves.truncate(limit);
        }
        moves.sort_by(order);
        moves
            .into_iter()
            .map(|(_, i)| i)
            .filter(|&i| !restricted || self.pos.legal_for(i, me))
            .take(limit)
            .collect()
    }

    /// The opponent's VCF if it could move now (a null move), as the cells of its line. Asked once a
    /// move, at the root (see `search`), so it keeps no memo: the one it had served the same check at
    /// every depth when the tree made it, and cost each worker a 1 MB allocation a move after that.
    fn opponent_vcf(&mut self) -> Option<Vec<usize>> {
        let opp = self.pos.side().opp();
        if self.pos.count(opp, Class::B4) + self.pos.count(opp, Class::B4F3) == 0 {
            return None;
        }
        self.pos.pass();
        let mut budget = THREAT_VCF_NODES;
        let mut line = vec![];
        let found = self.vcf_line(THREAT_VCF_FOURS, &mut budget, Some(&mut line));
        self.pos.pass();
        found.then_some(line)
    }

    /// Whether moves are ordered by the fitted prior (`policy`): everywhere but Pente, whose captures
    /// the fit never saw and which keeps the weight matrix. The move counts and reductions that pay
    /// with the prior's order never paid with the weight matrix's, so they follow this too.
    #[inline]
    fn prior_ordered(&self) -> bool {
        self.pos.capture_rule().is_none()
    }

    /// The ordering score of candidate `i`: the table's move first, then the prior (in hundredths of a logit)
    /// plus the history. The history, unbounded within a move, matters more than it looks beside the fitted
    /// prior: against Rapfi at 300 ms (freestyle, 320 games each) the prior alone scored 35.6%, twice the
    /// history's weight 40.9%, this weight about 41% (Strength, "Twenty-fourth session"). Rapfi's counter
    /// move on top (0.4 logit for the quiet reply that last cut off after the same move of the opponent's)
    /// scored 40.6%, the same (Strength, "Twenty-seventh session"), and its graded form, a continuation
    /// history (per side, the opponent's last move and our reply, with the history's bonus and malus, a 32nd
    /// of it added) 37.5%, the same after our own previous move 39.2% (Strength, "Thirtieth session"). A
    /// killer move (the quiet move that last cut off at the same ply, right after the table's move; 13% fewer
    /// `bench 10` nodes, yet no deeper at a fixed node count) scored 37.2% (Strength, "Thirty-second
    /// session"). The history is learned at every node, the answers to an open three too (their cut's bonus
    /// and malus), where it used to be learned at quiet nodes only: alone that scored 40.9% (`bench 10`
    /// 244279), the same, and at half its weight (a 128th; `bench 10` 249859) 38.8% (Strength, "Forty-second
    /// session"); together with the opponent's VCF threat left unchecked inside the tree (see `search`)
    /// 44.8%, 44.7% and 42.0% (Strength, "Forty-fourth session").
    #[inline]
    fn score_move(&self, i: usize, tt_move: Option<usize>) -> i32 {
        if Some(i) == tt_move {
            return i32::MAX;
        }
        let me = self.pos.side();
        let mut v = self.history[i][me.index()] / 64;
        if self.prior_ordered() {
            v += self.pos.prior(i);
        } else {
            // Pente: the weight matrix, whose terms know of captures.
            v += self.pos.weight(i, me) + self.pos.weight(i, me.opp()) * 4 / 5;
            // Taking stones, and standing where the opponent would take ours.
            v += 150 * self.pos.captures_at(i, me) as i32 + 120 * self.pos.captures_at(i, me.opp()) as i32;
        }
        v
    }

    /// Alpha-beta with principal variation search. Returns the score from the side to move's view.
    /// `cut_node`: off the principal variation, the parent expects this node to fail high (its
    /// reduced and null-window children are expected cut nodes, the first child of one is not; the
    /// types alternate as in Stockfish and Rapfi).
    pub fn search(&mut self, mut alpha: i32, beta: i32, depth: i32, ply: usize, cut_node: bool) -> i32 {
        self.nodes += 1;
        if self.nodes.is_multiple_of(CHECK_EVERY) {
            self.check_abort();
        }
        if self.aborted {
            return 0;
        }
        let me = self.pos.side();
        let opp = me.opp();
        let p = ply as i32;
        // Step 1. Threats decide first.
        if self.pos.count(me, Class::Five) > 0 {
            return WIN - p - 1;
        }
        let pente = self.pos.capture_rule().is_some();
        if pente && self.capture_win(me) {
            return WIN - p - 1;
        }
        let opp_fives = if pente { 0 } else { self.pos.count(opp, Class::Five) };
        if opp_fives > 0 && stops_off_the_point(&self.pos) {
            return self.stop_fives(alpha, beta, depth, ply, cut_node);
        }
        if opp_fives >= 2 {
            return -(WIN - p - 2);
        }
        if opp_fives == 1 {
            let Some(b) = block_point(&self.pos, opp) else { return 0 };
            if !self.pos.legal_for(b, me) {
                return -(WIN - p - 2);
            }
            if ply >= MAX_PLY {
                return evaluate(&self.pos);
            }
            // A forced move costs no depth. Rapfi extends this block further (1.3 plies): five tenths
            // of a ply more, carried along the line, found more of the long wins Rapfi finds and we
            // miss, yet scored 38.3% of 320 games against Rapfi at 300 ms, the search without it about
            // 40% (Strength, "Twenty-ninth session"; three tenths scored lower in the tenth, at 100 ms).
            // With the depth in sixteenths of a ply, where a fraction left at the horizon buys a whole
            // ply as in Rapfi, three tenths more scored 32.3% of 320 (Strength, "Thirty-fourth session").
            // A whole ply more only on the principal variation (an open window, up to twice the
            // iteration's depth from the root; 34% more `bench 10` nodes), where it costs least and
            // the line played is looked at deepest: 39.4% of 320 (Strength, "Thirty-seventh session").
            self.was_four[ply] = self.pos.class(b, me).is_four();
            self.ext[ply + 1] = self.ext[ply];
            self.tt.prefetch(self.pos.hash_after(b));
            self.pos.play(b);
            let v = -self.search(-beta, -alpha, depth, ply + 1, beta - alpha == 1 && !cut_node);
            self.pos.undo();
            return v;
        }
        // (In Pente only when the opponent cannot capture: a capture may break the four.)
        if self.pos.count(me, Class::Flex4) > 0
            && (!pente || (self.pos.count(opp, Class::Five) == 0 && self.pos.capture_moves(opp).is_empty()))
        {
            return WIN - p - 3;
        }
        if !pente && self.threes_win() {
            return WIN - p - 5;
        }
        if self.pos.board().is_full() {
            return 0;
        }
        // No mate-distance pruning (Rapfi's and Stockfish's): here, after the threat checks, it cut
        // nothing (`bench` 42465 and `bench 10` 247535 nodes either way; Strength, "Thirty-sixth session").
        // An open three of the opponent's at the horizon is not quiet: its defences are searched (a ply or
        // two beyond the nominal depth) instead of trusting the static evaluation. Rapfi does without it (its
        // leaves go to the quiescence whatever the opponent threatens), and so did a throwaway build in
        // freestyle: 125-195 of 320 against Rapfi at 300 ms (39.1%; `bench` 40524, `bench 10` 258955), the
        // search with it 40.3% over 5760: the same, so it stays (the evaluation's threat term was never
        // fitted on positions that face an open three; Strength, "Forty-first session"). Not under renju,
        // where it cost games against Carbon (109-51 without it, 90-70 with it, 160 games each; black's
        // threes whose four points are fouls may make the extra plies a waste). With the present search it
        // did no harm there either: 141-179 of 320 renju games against Rapfi at 300 ms (44.1%, the search
        // without it 43.2% over 1600), too close to change the rule's search (Strength, "Thirty-first
        // session"); played again, 130.5-189.5 (40.8%, one of them a fault of Rapfi's), 42.4% over the 640
        // (Strength, "Thirty-eighth session"). Nor a four-three point of the opponent's (a four that makes an
        // open three with it: a win in five plies unless answered): the leaf searched a ply more there, its
        // moves narrowed to the answers to the opponent's VCF as two plies up (8% more `bench 10` nodes),
        // scored 42.0% and 40.5% of 320 freestyle games against Rapfi at 300 ms, with its double-three points
        // as well (13% more) 40.2%, the search as it is about 41% (Strength, "Thirty-seventh session").
        let threatened = !pente
            && depth > -2
            && self.pos.count(opp, Class::Flex4) > 0
            && self.pos.patterns().rules.variant != Variant::Renju;
        if (depth <= 0 && !threatened) || ply >= MAX_PLY {
            // Quiescence (see `quiesce`): the evaluation, or a line of our fours that beats it.
            if ply >= MAX_PLY || pente {
                return evaluate(&self.pos);
            }
            let mut budget = LEAF_VCF_NODES;
            return self.quiesce(alpha, beta, ply, None, LEAF_VCF_FOURS, &mut budget);
        }
        // Step 2. The table. A cut here teaches the history nothing: Rapfi's and Stockfish's bonus for a
        // quiet table move whose bound cuts (and malus for one that fails low; `bench 10` 276705)
        // scored 129.5-190.5 of 320 freestyle games against Rapfi at 300 ms (40.5%), and with the
        // history learned at the nodes that answer an open three as well 83-132 of 215 (38.6%), the
        // search as it is 40.3% over 5760 (Strength, "Forty-second session").
        // The table cuts on the principal variation too (open windows): Rapfi and Stockfish cut only
        // off it, so that the line played is searched rather than read back, but that scored 143.5-176.5
        // of 320 (44.8%; `bench` 31994), the search as it is 45.2% over 640 (Strength, "Forty-sixth
        // session").
        let key = self.pos.hash();
        let entry = self.tt.probe(key);
        let tt_move = entry.and_then(|e| e.mv).filter(|&m| m < self.history.len());
        if let Some(e) = entry
            && e.depth >= depth
            && ply > 0
        {
            let score = from_tt(e.score, p);
            match e.bound {
                Bound::Exact => return score,
                Bound::Lower if score >= beta => return score,
                Bound::Upper if score <= alpha => return score,
                _ => {}
            }
        }
        // Step 3. Moves. At a calm node (no threat of the opponent's narrows the moves) the table's
        // move goes first before any are generated: when it cuts off, generating was wasted work.
        let quiet = self.pos.count(opp, Class::Flex4) == 0;
        let calm = quiet && !pente && self.pos.count(opp, Class::B4) + self.pos.count(opp, Class::B4F3) == 0;
        // Razoring (see `RAZOR_MARGIN`). Only without fours of ours: with one, the leaf's VCF might
        // find a win the evaluation cannot see. The opponent's closed threes are no reason to search:
        // the evaluation counts them, and its VCF threat is not looked for inside the tree.
        // (The evaluation is wanted only off the principal variation at quiet nodes: here and for the
        // fail-high reduction below.)
        let eval = (quiet && !pente && beta - alpha == 1).then(|| {
            // A table score that bounds the value from the right side is a better guess than the
            // static evaluation (Rapfi's and Stockfish's use of it): the razor, the reverse futility
            // and the fail-high reduction then judge by what a search found. Self-play, 100 ms, 400
            // games, on top of the quiescence over fours: 209-191 (+16 +- 33 Elo). Stockfish's
            // correction history on top (the evaluation moved by what earlier searches found below
            // nodes of the same threat mask or the same stones of one colour) scored 37.3% of 320
            // games against Rapfi at 300 ms, against about 41% (Strength, "Twenty-eighth session").
            let e = evaluate(&self.pos);
            match entry.map(|t| (from_tt(t.score, p), t.bound)) {
                Some((s, bound)) if s.abs() < WIN_THRESHOLD => match bound {
                    Bound::Exact => s,
                    Bound::Lower if s > e => s,
                    Bound::Upper if s < e => s,
                    _ => e,
                },
                _ => e,
            }
        });
        if let Some(eval) = eval
            && (1..=3).contains(&depth)
            && self.pos.count(me, Class::B4) + self.pos.count(me, Class::B4F3) == 0
            && eval + RAZOR_MARGIN * depth <= alpha
        {
            return eval;
        }
        // Reverse futility (see `FUTILITY_PER_PLY`), unless our last two moves were fours: an attack of
        // fours under way is judged by where it leads, not by the evaluation on the way (Rapfi's
        // exception too).
        if let Some(eval) = eval
            && eval < WIN_THRESHOLD
            && beta > -WIN_THRESHOLD
            && eval - FUTILITY_PER_PLY * (depth - 1) >= beta
            && !(ply >= 4 && self.was_four[ply - 2] && self.was_four[ply - 4])
        {
            return eval;
        }
        // Fail-high reduction, Rapfi's margins: off the principal variation, a node whose evaluation lies
        // well above beta will most likely cut, so its moves other than fours are searched a ply
        // shallower (a cut needs only one good move, and the shallower look usually finds it). The
        // opponent's fours raise the margin: their blocks may cost us the tempo the evaluation counts.
        // Self-play, 100 ms, 400 games each: 215-185 and 207.5-192.5 in freestyle (+20 +- 24 Elo over
        // 800), 206.5-193.5 in renju; 39% fewer `bench 10` nodes. An earlier form (calm nodes only,
        // threes exempt too, 15 a ply) measured +12 +- 24 before closed fours were reduced. Against Rapfi
        // at 300 ms without it (11% more `bench` nodes): 36.4% of 320 freestyle games, the search with it
        // 40.3% over 5440 (Strength, "Thirty-ninth session").
        // (At a quiet node outside Pente, `calm` says the opponent has no four.) No ProbCut beside it:
        // the table's move and the prior's best searched three plies shallower against beta + 100
        // from five plies up scored 39.7% of 320 games against Rapfi at 300 ms, the same as without
        // (it cut 618 of the 251427 `bench 10` nodes; Strength, "Twenty-eighth session"). Fours are not
        // made shallower here, but not deeper either: Rapfi's ply more at such a node for a four whose
        // move two plies up was a four too scored 39.2% of 320 (21% more `bench 10` nodes; Strength,
        // "Thirty-third session").
        let likely_high = eval.is_some_and(|e| {
            e >= beta + FAIL_HIGH_BASE + FAIL_HIGH_PER_PLY * depth + FAIL_HIGH_FOURS * i32::from(!calm)
        });
        let staged = tt_move.filter(|&m| {
            calm && self.pos.is_empty(m)
                && self.pos.is_near(m)
                && (!self.pos.restricted(me) || self.pos.legal_for(m, me))
        });
        // Where an earlier search found a threat best, a quiet move is less likely to matter: late quiet
        // moves take a ply more of reduction (Stockfish's `ttCapture`; the scores are at `child`).
        self.tt_threat[ply] =
            tt_move.is_some_and(|m| self.pos.is_empty(m) && self.pos.class(m, me).is_open_threat());
        let orig_alpha = alpha;
        let mut best = -INF;
        let mut best_move = None;
        let mut cut = false;
        // No singular extension for the table's move: Rapfi's, as its code has it, scored 41.4% of 320
        // games against Rapfi at 300 ms (the search without it about 41%) for 53% more `bench 10` nodes
        // (Strength, "Twenty-seventh session"; the eleventh session's form scored lower still). Nor
        // Rapfi's small extension of it (a quarter of a ply on the principal variation, 0.08 off it,
        // 0.24 more for a four within 4 of our previous move), carried along the line until it makes a
        // ply: 39.7% of 320, 63% more `bench 10` nodes (Strength, "Thirty-third session").
        if let Some(m) = staged {
            let v = self.child(m, 0, alpha, beta, depth, ply, quiet, false, likely_high, cut_node);
            if self.aborted {
                return 0;
            }
            best = v;
            best_move = Some(m);
            if v > alpha {
                alpha = v;
                cut = v >= beta;
            }
        }
        if !cut {
            let mut rechecked = false;
            let limit = match (quiet, self.prior_ordered()) {
                (false, _) => usize::MAX,
                (true, true) => quiet_moves(depth),
                (true, false) => MAX_QUIET_MOVES,
            };
            // Inside the tree the opponent's VCF threat (its VCF if it could move again, answered by our
            // fours, threes, the cells of its line and two quiet moves) is not looked for; the root still is
            // (`run`). The check came in on self-play (100 ms, 400 games: +46 Elo for 12 nodes instead of 64,
            // +41 for leaving it out just above the leaves), and played Rapfi worse: at 300 ms in freestyle,
            // without it 42.0% and 41.9% of 320 games (Strength, "Thirty-ninth session" and "Fortieth
            // session"), and with the history then learned at every node (see `score_move`) 44.8%, 44.7% and
            // 42.0% (Strength, "Forty-fourth session"), where the search with it scored 40.3% over 5760 and
            // 39.7% in that session's control; 29% fewer `bench` nodes. The leaf's own small VCF (the
            // opponent moves there) still catches the short threats. Looked for with two more answers to an
            // open three near the horizon it scored 36.6%, from three plies up 39.1% (Strength, "Thirty-first
            // session").
            let mut moves = match self.generate(ply, tt_move, &mut false, limit) {
                Ok(m) => m,
                Err(v) => return v,
            };
            if moves.is_empty() {
                // Renju black with every point forbidden: the game is lost.
                return -(WIN - p - 2);
            }
            // The only move costs no depth; the moves a fallback adds when it loses are not forced.
            let forced = moves.len() == 1;
            let first = if let Some(m) = staged {
                // The table's move was searched already (it heads the list).
                moves.retain(|&x| x != m);
                1
            } else {
                0
            };
            // Defending an open three: only the best few answers by the prior at first, the rest held
            // back for when all of those lose (a pruned defence must not make the three a win).
            let mut end = moves.len();
            if !quiet && ply >= 2 && self.prior_ordered() {
                end = end.min(defence_moves(depth));
            }
            let mut k = 0;
            while k < end {
                let m = moves[k];
                let only = forced && k == 0;
                let v = self.child(m, first + k, alpha, beta, depth, ply, quiet, only, likely_high, cut_node);
                if self.aborted {
                    return 0;
                }
                if v > best {
                    best = v;
                    best_move = Some(m);
                    if v > alpha {
                        alpha = v;
                        if v >= beta {
                            cut = true;
                            // The moves tried before the cut failed here: they lose what the cut
                            // move gains, so they sort later at the nodes that follow. (It moved the
                            // bench's nodes by 0.04%, so the malus weighs little beside the bonus,
                            // unlike the history as a whole: see `score_move`; measured only together
                            // with razoring.)
                            let malus = depth * depth;
                            for &f in moves[..k].iter().chain(staged.as_ref()) {
                                let h = &mut self.history[f][me.index()];
                                *h = h.saturating_sub(malus);
                            }
                            break;
                        }
                    }
                }
                k += 1;
                if k == end && best <= -WIN_THRESHOLD {
                    end = moves.len();
                }
                if k == moves.len() && quiet && !rechecked && best <= -WIN_THRESHOLD {
                    // Every one of the best few quiet moves lost: before the node is called lost, our
                    // fours and threes that were left out get their turn first (a counter-attack most
                    // often beats a slow attack), then every other move near the stones (a quiet block
                    // at the end of the opponent's VCT). The prior may rank the saving move below the
                    // limit; missed ones made the search claim wins that Rapfi refuted. It costs
                    // little: 6% of the nodes to depth 12 on 37 positions of lost games; without it
                    // 121-199 of 320 against Rapfi at 300 ms (37.8%, the search with it 40-41%;
                    // Strength, "Twenty-sixth session").
                    // Only a loss widens the node: three more quiet moves from three plies up where the
                    // best few all failed low 100 or more below the static evaluation (a defence the
                    // prior ranked late) scored 116-204 of 320 against Rapfi at 300 ms (36.2%; `bench`
                    // 43266), the search as it is 40.3% over 5760 (Strength, "Forty-first session").
                    rechecked = true;
                    for i in four_moves(&self.pos, me).into_iter().chain(three_moves(&self.pos, me)) {
                        if !moves.contains(&i) && Some(i) != staged {
                            moves.push(i);
                        }
                    }
                    self.add_other_moves(&mut moves, tt_move, staged, usize::MAX);
                    end = moves.len();
                }
            }
        }
        // Only a cut teaches the history. Rapfi credits the best move of a principal-variation node
        // that raised alpha without cutting too (and debits the other moves searched there): 151-169
        // of 320 freestyle games against Rapfi at 300 ms (47.2%; `bench 10` 167284), the search as it
        // is 45.1% over 960 (Strength, "Fifty-fourth session").
        if cut && let Some(m) = best_move {
            let h = &mut self.history[m][me.index()];
            *h = h.saturating_add(depth * depth);
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > orig_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        // A node that failed low stores no move: its best is only the highest of upper bounds, often
        // the first move searched, and it would replace the move a deeper or earlier search found here
        // (the table keeps that one: see `Tt::store`), which calm nodes search before any other. As
        // Rapfi and Stockfish do. Against Rapfi at 300 ms: 289-351 over 640 freestyle games (45.2%),
        // the search that stored the guess 43.9% over 960, the same; renju 315.5-324.5 over 640
        // (49.3%), where it scored 43.4% of 320 (Strength, "Forty-fifth session").
        let best_move = if bound == Bound::Upper { None } else { best_move };
        self.tt.store(key, best_move, to_tt(best, p), depth, bound);
        best
    }

    /// Searches the `n`-th move `m` of a node (PVS: the first with the full window, the rest with a
    /// null window first, late quiet ones reduced). Returns its score from the node's view.
    #[allow(clippy::too_many_arguments)]
    fn child(
        &mut self,
        m: usize,
        n: usize,
        alpha: i32,
        beta: i32,
        depth: i32,
        ply: usize,
        quiet: bool,
        forced: bool,
        likely_high: bool,
        cut_node: bool,
    ) -> i32 {
        // Moves that make a three or a stronger threat are never reduced, but a closed four with nothing
        // stronger beside it is: its answer is forced and free, so a late one bought a deeper tree for
        // a threat that mostly only spends itself (such fours' subtrees were a fifth of the quiet
        // nodes' work). Self-play, 100 ms: 211-189 and 229.5-170.5, +35 +- 24 Elo over 800 games;
        // 18% fewer `bench 10` nodes; renju 202.5-197.5. Against Rapfi at 300 ms with late closed fours
        // left unreduced (55% more `bench 10` nodes): 37.0% of 320 freestyle games, the search with the
        // reduction 40.3% over 5760 (Strength, "Fortieth session"). (Not in Pente, where a capture may
        // answer a four and the weight matrix orders the moves: unmeasured there.) Quiet moves that make a
        // closed three or two open twos (four and three material) reduced a ply less scored 42.0% of
        // 320 games against Rapfi at 300 ms, those that take such a point from the opponent 38.9%,
        // both the same as without (Strength, "Twenty-eighth session"). Moves that make an open three
        // reduced like quiet ones (Rapfi reduces them, half a ply less after a threat of its own) found
        // 14 of 66 long wins at 300 ms instead of 6, yet scored 36.9% of 320 games against Rapfi, the
        // search as it is about 40%; left unreduced when our move two plies up made an open three, a
        // four-three or an open four, 41.7%, and 40.8% when played again, 41.3% over 640: the same
        // (Strength, "Thirty-second session" and "Thirty-third session").
        let class = self.pos.class(m, self.pos.side());
        let threat = class.is_open_threat() || (class == Class::B4 && !self.prior_ordered());
        let shallower = likely_high && !class.is_four();
        self.was_four[ply] = class.is_four();
        self.tt.prefetch(self.pos.hash_after(m));
        self.pos.play(m);
        // A forced move costs no depth.
        let new_depth = if forced { depth } else { depth - 1 - i32::from(shallower) };
        self.ext[ply + 1] = self.ext[ply];
        let v = if n == 0 {
            -self.search(-beta, -alpha, new_depth, ply + 1, beta - alpha == 1 && !cut_node)
        } else {
            // Late quiet moves are searched shallower first, from the third on in the prior's order
            // (209.5-190.5 and 213-187 in self-play at 100 ms against from the fourth on), from the
            // fourth in the weight matrix's. Not the answers to an open three: the late ones reduced
            // the same way (fours and threes excepted, as Rapfi reduces its late defences) scored
            // 38.6% of 320 games against Rapfi at 300 ms (Strength, "Thirty-second session"). Nor a
            // ply less for a late quiet move that continues our attack (Rapfi's continuous-attack rule:
            // our move two plies up made a three or a four, this one lies within 4 of it and makes two
            // open twos or closed threes): 35.2% of 320 (Strength, "Thirty-third session").
            let prior = self.prior_ordered();
            let from = if prior { 2 } else { 3 };
            let reduce = if !(quiet && !threat && depth >= 2 && n >= from) {
                0
            } else if prior {
                // A null window (beta = alpha + 1) means this node is off the principal variation, where a
                // wrong cut costs least: one ply more, but from three plies up the reduced look keeps one ply
                // of search below the move (two plies from the horizon the move goes to the quiescence: left
                // unreduced there, 131-189 of 320 against Rapfi at 300 ms, 40.9%, the search as it is 43.9%
                // over 960; Strength, "Forty-fifth session"). Self-play, 100 ms, 400 games, with the steeper
                // `reduction`: 227-173 (+47 +- 34 Elo) against the old curve and no extra ply. Without the
                // extra ply alone (17% more `bench 10` nodes), against Rapfi at 300 ms: 134.5-185.5 and
                // 131-189 of 320, 41.5% over 640, the search with it 40.3% over 5760: the same (Strength,
                // "Forty-first session"). Nor is the extra ply spared at a null-window node that was once
                // on the principal variation (Rapfi's `ttPv`, a flag kept in the table): 143.5-176.5 of
                // 320 (44.8%; `bench 10` 185879), the search as it is 45.2% over 640 (Strength,
                // "Forty-sixth session"). Nor Stockfish's ply more where the children of this node and of
                // its earlier siblings cut off more than three times (its `cutoffCnt`; `bench 10` 169764):
                // 149.5-170.5 and 140.5-179.5 of 320, 45.3% over 640, the same (Strength, "Forty-seventh
                // session"). Taken: its ply more where the table's move is a threat (its `ttCapture`; here a
                // move that makes an open three or more, `tt_threat`): where an earlier search found a threat
                // best, a quiet move is less likely to matter (`bench 10` 174032 nodes, 158405 without).
                // Against Rapfi at 300 ms, 320 games each: freestyle 153.5-166.5, 149-171 and 147-173
                // (46.8% over 960), the search without it 45.4% over 1280 (640 of them on the day of the
                // last two runs); exact five 159-161 (49.7%; 46.2% over 320 without), renju 155.5-164.5 of
                // 320 and 89-71 of 160 (50.9% over 480; 49.3% over 640 without). Inside the noise in each
                // rule, above the search without it in each. With the `cutoffCnt` ply as well: 141-179 of
                // 320 (44.1%; Strength, "Forty-seventh session" and "Forty-eighth session").
                (reduction(depth, n)
                    + i32::from(beta - alpha == 1)
                    + CUT_EXTRA * i32::from(cut_node)
                    + i32::from(self.tt_threat[ply]))
                .min(new_depth - 1)
                .max(1)
            } else {
                gentle_reduction(depth, n)
            };
            let mut v =
                -self.search(-alpha - 1, -alpha, new_depth - reduce, ply + 1, reduce > 0 || !cut_node);
            if v > alpha && reduce > 0 {
                // A reduced move that beat alpha by a wide margin is re-searched a ply deeper than its
                // nominal depth (Rapfi's LMR extension, its margins; at most `MAX_LMR_EXTENSIONS` on a
                // line): a move that the reduced look already likes that much is probably the best one
                // here, and the nominal depth would then be the shallowest look it gets. Self-play, 100
                // ms: 211.5-188.5 and 208.5-191.5, +17 +- 24 Elo over 800 games. Against Rapfi at 300
                // ms without it: 39.2% of 320 freestyle games, the search with it 40.3% over 5440, the
                // same (Strength, "Thirty-ninth session"). The full-window re-search below goes back to
                // the nominal depth; kept at the extended one: 140-180 of 320 (43.8%), the search as it
                // is 43.9% over 960, the same (Strength, "Forty-fifth session").
                let deeper = v > alpha + LMR_DEEPER_BASE + LMR_DEEPER_PER_PLY * reduce
                    && self.ext[ply] < MAX_LMR_EXTENSIONS;
                self.ext[ply + 1] = self.ext[ply] + u8::from(deeper);
                v = -self.search(-alpha - 1, -alpha, new_depth + i32::from(deeper), ply + 1, !cut_node);
            }
            if v > alpha && v < beta {
                v = -self.search(-beta, -alpha, new_depth, ply + 1, false);
            }
            v
        };
        self.pos.undo();
        v
    }

    /// Caro: the opponent has five points and each of our stops (see `threat::five_stops`) is searched
    /// as a forced move, at no cost in depth; none at all loses.
    fn stop_fives(&mut self, mut alpha: i32, beta: i32, depth: i32, ply: usize, cut_node: bool) -> i32 {
        let p = ply as i32;
        let stops = five_stops(&self.pos);
        if stops.is_empty() {
            return -(WIN - p - 2);
        }
        if ply >= MAX_PLY {
            return evaluate(&self.pos);
        }
        let me = self.pos.side();
        let mut best = -INF;
        for (n, &b) in stops.iter().enumerate() {
            self.was_four[ply] = self.pos.class(b, me).is_four();
            self.ext[ply + 1] = self.ext[ply];
            self.pos.play(b);
            let v = if n == 0 {
                -self.search(-beta, -alpha, depth, ply + 1, beta - alpha == 1 && !cut_node)
            } else {
                let v = -self.search(-alpha - 1, -alpha, depth, ply + 1, true);
                if v > alpha && v < beta { -self.search(-beta, -alpha, depth, ply + 1, false) } else { v }
            };
            self.pos.undo();
            if self.aborted {
                return 0;
            }
            best = best.max(v);
            alpha = alpha.max(v);
            if v >= beta {
                break;
            }
        }
        best
    }

    /// Pente: whether `c` can reach the winning capture count with one move.
    fn capture_win(&self, c: Color) -> bool {
        let Some(rule) = self.pos.capture_rule() else { return false };
        let need = (rule.to_win as u32).saturating_sub(self.pos.captured(c));
        self.pos.capture_moves(c).iter().any(|&(_, n)| n >= need)
    }

    /// Whether the side to move wins in five plies with a double three or a four with a three: the
    /// opponent has no four to interpose, and the four's block (or any block of one three) leaves the
    /// other three to become an open four. Not for renju black: a three's open-four point may be a foul
    /// the shapes cannot see. (Not for Pente either, where a capture may break a three: callers check.)
    /// A four with a three wins even against the opponent's fours when the four's block makes none
    /// (`four_three_wins`, Rapfi's static check): in crowded positions, where both sides have fours
    /// to play, the search used to play such wins out. On 84 middle-game positions of games against
    /// Rapfi searched to 50,000 nodes the search went 0.36 plies deeper on average (9.93 to 10.29).
    fn threes_win(&self) -> bool {
        let me = self.pos.side();
        let quiet_opponent = || {
            [Class::B4, Class::B4F3, Class::Flex4, Class::MaybeForbidden]
                .iter()
                .all(|&k| self.pos.count(me.opp(), k) == 0)
        };
        !self.pos.restricted(me)
            && self.pos.count(me, Class::F3x2) + self.pos.count(me, Class::B4F3) > 0
            && (quiet_opponent() || four_three_wins(&self.pos, me))
    }

    /// Quiescence over fours (Rapfi's, after Stockfish's captures): the side to move may stand on its
    /// evaluation or play a four of the narrow VCF's (`threat::vcf_candidates`), whose block is forced,
    /// and go on from there. A four that wins shows as a win; one whose block leaves a better
    /// position shows in the value. `last` is our previous four (None at the leaf itself, where
    /// `search` has made the threat checks already).
    ///
    /// It replaced a VCF that only looked for a win and otherwise returned the evaluation: self-play,
    /// 100 ms, 400 games, 207.5-192.5 (+13 +- 33 Elo); against Rapfi 183-297 of 480 (38.1%, against
    /// 37.1% over 960 before). With the table's bound on the evaluation (see `search`) the two scored
    /// +55 +- 33 in self-play and 42.4% against Rapfi. Plain fours near our own last move at the leaf
    /// as well (Rapfi's first quiescence plies allow them) lost: 185-215 (-26 +- 33), and against Rapfi
    /// at 300 ms 60-108 of 168 freestyle games (35.7%; 21% fewer `bench 10` nodes); the other way, only
    /// fours that make an open three, at every ply of it, 65-109 of 174 (37.4%; 27% fewer), the
    /// quiescence as it is 40.3% over 5760 (Strength, "Forty-second session"; its node budget almost
    /// never runs out: 48 nodes instead of 16 changed 6 of 247535 `bench 10` nodes). Rapfi's delta
    /// pruning, the evaluation returned without a four tried where it lies more than 1000 below alpha
    /// (Rapfi's margin on our scale; 4% fewer `bench 10` nodes), scored 39.2% of 320 games against
    /// Rapfi at 300 ms, the quiescence as it is about 40.4% (Strength, "Thirty-first session").
    fn quiesce(
        &mut self,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        last: Option<usize>,
        fours_left: u32,
        budget: &mut u32,
    ) -> i32 {
        let me = self.pos.side();
        let opp = me.opp();
        let p = ply as i32;
        if last.is_some() {
            // The opponent has just blocked our four and has no five point (see below).
            if self.pos.count(me, Class::Five) > 0 {
                return WIN - p - 1;
            }
            if self.pos.count(me, Class::Flex4) > 0 {
                return WIN - p - 3;
            }
            if self.threes_win() {
                return WIN - p - 5;
            }
        }
        let eval = evaluate(&self.pos);
        if eval >= beta
            || fours_left == 0
            || *budget == 0
            || ply + 2 >= MAX_PLY
            || self.pos.count(me, Class::B4) + self.pos.count(me, Class::B4F3) == 0
        {
            return eval;
        }
        let mut cands = [(0u8, 0usize); 8];
        let n = vcf_candidates(&self.pos, last, &mut cands);
        let mut best = eval;
        alpha = alpha.max(eval);
        for &(_, m) in &cands[..n] {
            if *budget == 0 {
                break;
            }
            *budget -= 1;
            self.nodes += 1;
            self.pos.play(m);
            let (mut five, mut fives) = five_point_near(&self.pos, m, me);
            if fives > 0 && stops_off_the_point(&self.pos) {
                // Caro: the four's answers are its stops (none: it wins; several: left to the search).
                match five_stops(&self.pos)[..] {
                    [] => fives = 2,
                    [b] => (five, fives) = (b, 1),
                    _ => fives = 0,
                }
            }
            let v = match fives {
                0 => None,
                1 if self.pos.legal_for(five, opp) => {
                    self.pos.play(five);
                    // A block that makes a four of the opponent's takes the choice from us: such a
                    // line is left to the full search.
                    let v = (self.pos.count(opp, Class::Five) == 0)
                        .then(|| self.quiesce(alpha, beta, ply + 2, Some(m), fours_left - 1, budget));
                    self.pos.undo();
                    v
                }
                _ => Some(WIN - p - 3),
            };
            self.pos.undo();
            if let Some(v) = v
                && v > best
            {
                best = v;
                if v >= beta {
                    break;
                }
                alpha = alpha.max(v);
            }
        }
        best
    }

    /// A small VCF for the side to move (every four, see `threat::four_moves`), recording the winning
    /// line (attacker and defender moves) when `line` is given.
    fn vcf_line(&mut self, fours_left: u32, budget: &mut u32, mut line: Option<&mut Vec<usize>>) -> bool {
        let me = self.pos.side();
        let opp = me.opp();
        if self.pos.count(me, Class::Five) > 0 {
            return true;
        }
        if *budget == 0 || fours_left == 0 {
            return false;
        }
        *budget -= 1;
        self.nodes += 1;
        let moves = match self.pos.count(opp, Class::Five) {
            0 => {
                if self.pos.count(me, Class::Flex4) > 0 {
                    return true;
                }
                four_moves(&self.pos, me)
            }
            // Caro: only a single stop is followed (a small check; giving up proves nothing wrong).
            _ if stops_off_the_point(&self.pos) => match five_stops(&self.pos)[..] {
                [b] if makes_four(&self.pos, b, me) => vec![b],
                _ => return false,
            },
            1 => match block_point(&self.pos, opp) {
                Some(b) if makes_four(&self.pos, b, me) && self.pos.legal_for(b, me) => vec![b],
                _ => return false,
            },
            _ => return false,
        };
        for m in moves {
            self.pos.play(m);
            let mut fives = fives_around(&self.pos, m, me);
            if !fives.is_empty() && stops_off_the_point(&self.pos) {
                // Caro: the four's answers are its stops (none: it wins; several: not followed).
                match five_stops(&self.pos)[..] {
                    [] => {}
                    [b] => fives = vec![b],
                    _ => fives.clear(),
                }
            }
            let won = match fives.len() {
                0 => false,
                1 if self.pos.legal_for(fives[0], opp) => {
                    self.pos.play(fives[0]);
                    let r = self.vcf_line(fours_left - 1, budget, line.as_deref_mut());
                    self.pos.undo();
                    if r && let Some(l) = line.as_deref_mut() {
                        l.push(fives[0]);
                    }
                    r
                }
                _ => {
                    if let Some(l) = line.as_deref_mut() {
                        l.extend(&fives);
                    }
                    true
                }
            };
            self.pos.undo();
            if won {
                if let Some(l) = line.as_deref_mut() {
                    l.push(m);
                }
                return true;
            }
            if *budget == 0 {
                break;
            }
        }
        false
    }

    /// Searches the root moves at `depth` inside an aspiration window around `prev`, the score of the
    /// last completed iteration, widening it on each failure until the score lies inside (Rapfi's and
    /// Stockfish's way). A narrow window lets the principal variation's nodes cut as well: a late root
    /// move that beats the first one on the null window is re-searched against a bound near the
    /// expected score, not against an infinite one. In one early middle game of a lost game against
    /// Rapfi two such re-searches were 85% of the nodes of the iteration that the 300 ms turn could
    /// not finish; with the window that iteration took half the time. Self-play at 100 ms: 204-196
    /// (+7 +- 33 Elo, 400 games); against Rapfi at 300 ms 247-393 of 640 (38.6%, where the code before
    /// scored 33.8% over 480), at 100 ms 45.6% of 480 (42.1% over 960 before). (With the weight
    /// matrix's evaluation and order, before the pruning that depends on the window, it saved 2% of
    /// the nodes and was not played.)
    pub fn root(
        &mut self,
        moves: &mut [usize],
        depth: i32,
        pv_out: &mut Vec<usize>,
        prev: Option<i32>,
    ) -> Option<i32> {
        let mut delta = ASPIRATION_DELTA;
        let (mut lo, mut hi) = match prev {
            Some(s) if depth >= ASPIRATION_FROM && s.abs() < WIN_THRESHOLD => (s - delta, s + delta),
            _ => (-INF, INF),
        };
        // A later move that failed high beat the first one: if time runs out in the re-search, it is
        // still the better move (it heads `moves`), as for a partial iteration: with the score it
        // failed high with, and the score it beat.
        let mut pending: Option<(i32, i32)> = None;
        loop {
            let score = self.root_window(moves, depth, pv_out, lo, hi);
            let s = match score {
                Some(s) if !self.aborted => s,
                _ => {
                    return score.or(match (pending, self.first_score) {
                        // Its own search in the new window finished below the move it beat, so it is
                        // not the better move at this depth: the last complete depth's move is played
                        // (usually the one it beat; a third move that beat the first in the same
                        // window is not remembered: rarer still). It had been taken on its null-window
                        // fail high, which the pruning of null windows makes the less reliable.
                        (Some((_, beaten)), Some(v)) if v <= beaten => None,
                        (Some(_), Some(v)) => Some(v),
                        (Some((v, _)), None) => Some(v),
                        (None, _) => None,
                    });
                }
            };
            if s <= lo && lo > -INF {
                pending = None;
                hi = (lo + hi) / 2;
                lo = (s - delta).max(-INF);
            } else if s >= hi && hi < INF {
                if self.improved {
                    pending = Some((s, self.beaten));
                }
                hi = (s + delta).min(INF);
            } else {
                return Some(s);
            }
            // Rapfi's rule holds the width near 24 below scores of 1024, and a fail-soft score sits on
            // the bound it failed, so a score rising to a win creeps up about 21 a search (140 windows in
            // one iteration of a lost game's position). Grown by a third each time (Stockfish's rule) the
            // search found long wins sooner, yet scored 285.5-354.5 of 640 freestyle games against Rapfi
            // at 300 ms (44.6%), this rule 45.8% the same day (Strength, "Fifty-first session").
            // Every window is searched to the iteration's depth. Rapfi searches a ply shallower after
            // every third fail high in a row (its `failHighCnt`): 153.5-166.5 of 320 (48.0%; `bench 10`
            // 169949), the search as it is 45.1% over 960 (Strength, "Fifty-fourth session").
            delta = delta * (3 + s.abs() / 1024) / 4 + 6;
            if delta > ASPIRATION_MAX {
                (lo, hi) = (-INF, INF);
            }
        }
    }

    /// Searches the root moves at `depth` in the window (`lo`, `hi`) and returns the best score (at most
    /// `lo` when every move failed low, at least `hi` when one failed high). Moves are reordered so the
    /// best comes first; a move that only failed low keeps its place.
    fn root_window(
        &mut self,
        moves: &mut [usize],
        depth: i32,
        pv_out: &mut Vec<usize>,
        lo: i32,
        hi: i32,
    ) -> Option<i32> {
        self.improved = false;
        self.first_score = None;
        self.iteration = depth;
        let mut alpha = lo;
        let beta = hi;
        let mut best = -INF;
        let me = self.pos.side();
        let quiet = self.pos.count(me.opp(), Class::Flex4) == 0;
        let curve = if self.prior_ordered() { reduction } else { gentle_reduction };
        for n in 0..moves.len() {
            let m = moves[n];
            // Late quiet root moves are reduced like those inside the tree (re-searched if they rise),
            // but keep a ply of search below them. Not closed fours, though the tree reduces them: here
            // (where the prior orders the moves) they scored 131-189 of 320 against Rapfi at 300 ms
            // (40.9%; `bench 10` 157721), the search as it is 45.2% over 640 (Strength, "Forty-sixth
            // session").
            let reduce = if quiet && depth >= 3 && n >= ROOT_LMR_FROM && self.pos.class(m, me) < Class::F3 {
                curve(depth, n).min(depth - 2)
            } else {
                0
            };
            // A root move's score is its search's, whatever kind of move it is. In the games we lose,
            // we play about twice as many fours as Rapfi does in those it loses, yet closed fours rated
            // 40 lower (spent only when clearly best) scored 28.7% of 162 games against Rapfi at 300 ms,
            // and 30 higher 32.9% of 161, the search as it is about 40% (Strength, "Fortieth session"):
            // a nudge either way to its choice of fours costs much.
            self.was_four[0] = self.pos.class(m, me).is_four();
            self.pos.play(m);
            let v = if n == 0 {
                -self.search(-beta, -alpha, depth - 1, 1, false)
            } else {
                let mut v = -self.search(-alpha - 1, -alpha, depth - 1 - reduce, 1, true);
                if v > alpha && reduce > 0 {
                    v = -self.search(-alpha - 1, -alpha, depth - 1, 1, true);
                }
                // A null-window fail high at the aspiration bound is taken as it is (the window widens
                // and the iteration searches again): also re-searched with the full window, it scored
                // 145-175 of 320 against Rapfi at 300 ms (45.3%), the search as it is 45.2% over 640
                // (Strength, "Forty-sixth session").
                if v > alpha && v < beta {
                    v = -self.search(-beta, -alpha, depth - 1, 1, false);
                }
                v
            };
            self.pos.undo();
            if self.aborted {
                // Stopped midway: what was fully searched still counts when it beat the first move
                // (moves[0] is then the best of them); otherwise the last complete depth decides.
                return (n > 0 && best > -INF && self.improved).then_some(best);
            }
            // (`best` never exceeds `alpha`, so a move that beats alpha is the new best. Below the
            // window a score is only a bound: such a move keeps its place.)
            if n == 0 {
                self.first_score = Some(v);
            }
            if n == 0 || v > alpha {
                if n > 0 {
                    self.beaten = alpha;
                }
                best = v;
                moves[..=n].rotate_right(1);
                self.improved = n > 0;
                alpha = alpha.max(v);
                if v >= beta {
                    break;
                }
            } else {
                best = best.max(v);
            }
        }
        let bound = if best >= hi {
            Bound::Lower
        } else if best <= lo {
            Bound::Upper
        } else {
            Bound::Exact
        };
        self.tt.store(self.pos.hash(), Some(moves[0]), best, depth, bound);
        pv_out.clear();
        self.collect_pv(moves[0], pv_out);
        Some(best)
    }

    /// The principal variation from the table, starting with `first`. A five and the block of the
    /// opponent's only five are followed without the table: the search plays them before it stores
    /// anything, so the table's line used to end at the first four.
    fn collect_pv(&mut self, first: usize, pv: &mut Vec<usize>) {
        let mut played = 0;
        let mut m = Some(first);
        while let Some(i) = m {
            if !self.pos.is_empty(i) || played >= 12 {
                break;
            }
            pv.push(i);
            self.pos.play(i);
            played += 1;
            let me = self.pos.side();
            if self.pos.capture_rule().is_none() {
                // A five of the side to move ends the line; a single five of the other side is blocked.
                if let Some(&win) = five_points(&self.pos, me).first() {
                    pv.push(win);
                    break;
                }
                if self.pos.count(me.opp(), Class::Five) > 0 {
                    m = match five_points(&self.pos, me.opp())[..] {
                        [b] if self.pos.legal_for(b, me) => Some(b),
                        _ => None,
                    };
                    continue;
                }
            }
            m = self.tt.probe(self.pos.hash()).and_then(|e| e.mv);
        }
        for _ in 0..played {
            self.pos.undo();
        }
    }
}

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
fn reduction(depth: i32, n: usize) -> i32 {
    let r = 0.5 + (depth as f32).ln() * (n as f32).ln() / 1.6;
    (r as i32).max(1)
}

/// The reduction of the weight matrix's order (Pente). Growing with both depth and move number
/// against the old flat 1-2 plies from the 5th move: +41 +- 34 Elo in self-play (100 ms, 400 games);
/// one ply less on the principal variation changed nothing (-3).
fn gentle_reduction(depth: i32, n: usize) -> i32 {
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
fn quiet_moves(depth: i32) -> usize {
    match depth {
        ..=1 => 8,
        2 => 10,
        3..=5 => 12,
        _ => rapfi_move_count(depth),
    }
}

/// Rapfi's move count `d` plies from the horizon (its futility move count where the evaluation is
/// improving): 3 + d^1.32.
fn rapfi_move_count(depth: i32) -> usize {
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
fn defence_moves(depth: i32) -> usize {
    (rapfi_move_count(depth.max(1)) / 2).max(2)
}

/// Mate scores are stored relative to the node, read back relative to the root.
fn to_tt(v: i32, ply: i32) -> i32 {
    if v >= WIN_THRESHOLD {
        v + ply
    } else if v <= -WIN_THRESHOLD {
        v - ply
    } else {
        v
    }
}

fn from_tt(v: i32, ply: i32) -> i32 {
    if v >= WIN_THRESHOLD {
        v - ply
    } else if v <= -WIN_THRESHOLD {
        v + ply
    } else {
        v
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

/// The searching player: threat solvers and alpha-beta, with tables kept between moves.
pub struct SearchPlayer {
    patterns: Mutex<Option<Arc<Patterns>>>,
    tt: Mutex<Option<Arc<Tt>>>,
    /// Run the VCT solver at the root (on by default; off gives a cheaper, purely alpha-beta player).
    pub vct: bool,
}

impl Default for SearchPlayer {
    fn default() -> SearchPlayer {
        SearchPlayer { patterns: Mutex::new(None), tt: Mutex::new(None), vct: true }
    }
}

/// Table size for a memory budget: a quarter of it, at most 256 MB, at least 1 MB.
pub fn tt_bytes(memory: u64) -> u64 {
    (memory / 4).clamp(1 << 20, 256 << 20)
}

impl SearchPlayer {
    /// The pattern tables of `rules` (built once per rule set), `None` for line lengths too long.
    pub fn patterns(&self, rules: &Rules) -> Option<Arc<Patterns>> {
        let mut cache = self.patterns.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(p) = cache.as_ref()
            && p.rules == *rules
        {
            return Some(Arc::clone(p));
        }
        let p = Arc::new(Patterns::new(rules)?);
        *cache = Some(Arc::clone(&p));
        Some(p)
    }

    fn table(&self, bytes: u64) -> Arc<Tt> {
        let mut cache = self.tt.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(t) = cache.as_ref()
            && t.bytes() as u64 <= bytes
            && t.bytes() as u64 * 2 > bytes
        {
            return Arc::clone(t);
        }
        let t = Arc::new(Tt::new(bytes));
        *cache = Some(Arc::clone(&t));
        t
    }
}

/// What a finished search gives.
pub struct Outcome {
    pub mv: Option<Pos>,
    pub score: i32,
    pub depth: i32,
    pub nodes: u64,
    pub messages: Vec<String>,
}

/// The deepest completed iteration of any thread: its depth, best move, score and principal variation.
#[derive(Clone)]
struct Published {
    depth: i32,
    mv: usize,
    score: i32,
    pv: Vec<usize>,
}

/// How to search: the tables, the limits and the threads.
pub struct Setup<'a> {
    pub pats: Arc<Patterns>,
    pub tt: &'a Tt,
    /// Time and node limits; `None` for a fixed-depth search (bench).
    pub limits: Option<&'a Limits>,
    pub max_depth: i32,
    pub threads: usize,
    pub stop: &'a AtomicBool,
    /// Run the VCT solver at the root.
    pub use_vct: bool,
    /// Told of each iteration as the deepening takes it (depth, best move, score), so that a person
    /// can watch the search; it only reads, so the search and its node counts are the same with it.
    pub progress: Option<&'a (dyn Fn(i32, Pos, i32) + Sync)>,
}

/// Searches `board` to `setup.max_depth` (or the limits). The heart of `think` and `bench`: with one
/// thread and no time limit it is deterministic.
pub fn run(board: &Board, setup: &Setup) -> Outcome {
    let Setup { pats, tt, limits, max_depth, threads, stop, use_vct, progress } = setup;
    let (tt, limits, max_depth, threads, stop, use_vct) =
        (*tt, *limits, *max_depth, *threads, *stop, *use_vct);
    let started = Instant::now();
    let mut messages = vec![];
    let mut pos = Position::new(board, Arc::clone(pats));
    let me = pos.side();
    let opp = me.opp();
    let pos_of = |pos: &Position, i: usize| pos.pos_of(i);
    // Step 1. Forced answers.
    if let Some(&f) = five_points(&pos, me).first() {
        return Outcome { mv: Some(pos_of(&pos, f)), score: WIN - 1, depth: 0, nodes: 0, messages };
    }
    let pente = pos.capture_rule().is_some();
    if let Some(rule) = pos.capture_rule() {
        let need = (rule.to_win as u32).saturating_sub(pos.captured(me));
        if let Some(&(m, _)) = pos.capture_moves(me).iter().find(|&&(_, n)| n >= need) {
            messages.push("capture win".into());
            return Outcome { mv: Some(pos_of(&pos, m)), score: WIN - 1, depth: 0, nodes: 0, messages };
        }
    }
    // (In Pente a five can also be met by a capture: the search decides.)
    let opp_fives = if pente { vec![] } else { five_points(&pos, opp) };
    // Caro: the five points may have several stops (see `threat::five_stops`); the search picks one.
    let caro_stops = (!opp_fives.is_empty() && stops_off_the_point(&pos)).then(|| five_stops(&pos));
    if let Some(&[b]) = caro_stops.as_deref() {
        return Outcome { mv: Some(pos_of(&pos, b)), score: 0, depth: 0, nodes: 0, messages };
    }
    if !opp_fives.is_empty() && caro_stops.as_ref().is_none_or(|s| s.is_empty()) {
        // Block the five (one of them if there are several: the game is lost then anyway). When every
        // five point is forbidden for black, nothing saves the game, but a foul would lose at once:
        // play the best legal point instead.
        let mv = opp_fives.iter().copied().find(|&i| pos.legal_for(i, me)).or_else(|| {
            let mut legal: Vec<usize> =
                pos.indices().filter(|&i| pos.is_empty(i) && pos.legal_for(i, me)).collect();
            legal.sort_by_key(|&i| -(pos.weight(i, me) + pos.weight(i, opp)));
            legal.first().copied()
        });
        let mv = mv.unwrap_or(opp_fives[0]);
        let score = if opp_fives.len() == 1 && opp_fives[0] == mv { 0 } else { -(WIN - 2) };
        return Outcome { mv: Some(pos_of(&pos, mv)), score, depth: 0, nodes: 0, messages };
    }
    let shared_nodes = AtomicU64::new(0);
    let mut nodes = 0;
    // Step 2. Threat solvers.
    let budget_nodes = |share: u64| limits.and_then(|l| l.max_nodes).map_or(share, |n| n.min(share));
    // The solvers get a share of the move's time: VCF a tenth of the hard limit, VCT a fifth. Only
    // here: a VCT probe inside the tree (at calm nodes five or seven plies or more from the horizon,
    // 100 or 300 solver nodes each) found fewer of the 66 long wins at 300 ms (2-4 against 6) and
    // reached no deeper (10.7-11.4 plies on average against 11.4; Strength, "Thirty-third session").
    // Nor would a larger root VCT pay: given 12 threats and 3,000,000 nodes it proves 13 of those 66
    // wins, in 0.2 to 10 s each (Strength, "Thirty-fourth session"). Nor a check that the move chosen
    // leaves the opponent no VCF: of our moves in 320 games against Rapfi that left it a VCF some other
    // move would have stopped (36), the search at 300 ms called 32 positions lost already and rated the
    // other 4 at -444 to -713 (Strength, "Forty-first session"). Nor a smaller one: the VCT given a tenth
    // of the hard limit scored 145.5-174.5 of 320 freestyle games against Rapfi at 300 ms (45.5%), and no
    // root VCT at all 144.5-175.5 (45.2%), the same as a fifth (45.2% over 640): at 300 ms neither its
    // proofs nor the time they take decide games (Strength, "Forty-seventh session"). It stays: what it
    // proves is exact and answered at once.
    let deadline = |share: u32| limits.and_then(|l| l.budget.hard.map(|h| l.budget.start + h / share));
    // (The solvers know no captures: Pente goes straight to the search.)
    if !pente {
        let mut solver =
            Solver::new(ThreatLimits { max_nodes: budget_nodes(200_000), stop, deadline: deadline(10) });
        if let Some(line) = solver.vcf(&mut pos, 16) {
            let text: Vec<String> = line.iter().map(|&i| pos.pos_of(i).notation()).collect();
            messages.push(format!("VCF win: {}", text.join(" ")));
            return Outcome {
                mv: Some(pos_of(&pos, line[0])),
                score: WIN - line.len() as i32,
                depth: 0,
                nodes: solver.nodes,
                messages,
            };
        }
        nodes += solver.nodes;
    }
    if use_vct && !pente && opp_fives.is_empty() {
        let mut solver =
            Solver::new(ThreatLimits { max_nodes: budget_nodes(60_000), stop, deadline: deadline(5) });
        if let Some(line) = solver.vct(&mut pos, 7) {
            let text: Vec<String> = line.iter().map(|&i| pos.pos_of(i).notation()).collect();
            messages.push(format!("VCT win: {}", text.join(" ")));
            return Outcome {
                mv: Some(pos_of(&pos, line[0])),
                // The line holds both sides' moves, the last our five: its length is the win's.
                score: WIN - line.len() as i32,
                depth: 0,
                nodes: nodes + solver.nodes,
                messages,
            };
        }
        nodes += solver.nodes;
    }
    // Step 3. Iterative deepening, with helpers.
    tt.new_search();
    let mut root_moves = {
        let mut w = Worker::new(pos.clone(), tt, stop, &shared_nodes, limits, true);
        let mut narrowed = false;
        let generated = match caro_stops.filter(|s| s.len() >= 2) {
            Some(stops) => Ok(stops),
            None => w.generate(0, None, &mut narrowed, usize::MAX),
        };
        match generated {
            Ok(mut m) if !m.is_empty() => {
                if narrowed {
                    // The root can afford the other moves too (see the fallback in `search`): after
                    // the answers to the threat, the best of the rest.
                    w.add_other_moves(&mut m, None, None, MAX_QUIET_MOVES);
                }
                m
            }
            _ => {
                // A proven loss (or renju black boxed in): the best legal point by weight, so the game
                // goes on as long as it can; a foul only when no legal point is left.
                let mut all: Vec<usize> = pos.indices().filter(|&i| pos.is_empty(i)).collect();
                all.sort_by_key(|&i| -(pos.weight(i, me) + pos.weight(i, opp)));
                let legal: Vec<usize> = all.iter().copied().filter(|&i| pos.legal_for(i, me)).collect();
                if legal.is_empty() { all } else { legal }
            }
        }
    };
    // A forced answer is played at once. Spending the turn on the position after it instead (a turn's
    // unspent time is lost, and the table would hold that tree when the opponent has moved) scored
    // 39.8% against Rapfi at 300 ms, no better: about one answer in twenty is forced.
    if root_moves.len() == 1 {
        return Outcome {
            mv: Some(pos_of(&pos, root_moves[0])),
            score: 0,
            depth: 0,
            nodes,
            messages: vec!["forced move".into()],
        };
    }
    let done = AtomicBool::new(false);
    let helper_stop = AtomicBool::new(false);
    // The deepest iteration completed by any thread, and its result: the others abandon that depth and
    // search past it (a depth rarely takes two threads to the end), and the move played is the
    // deepest one found.
    let completed = AtomicI32::new(0);
    let published = Mutex::new(Published { depth: 0, mv: root_moves[0], score: 0, pv: vec![] });
    let publish = |depth: i32, mv: usize, score: i32, pv: &[usize]| {
        let mut p = published.lock().unwrap_or_else(PoisonError::into_inner);
        if depth > p.depth {
            *p = Published { depth, mv, score, pv: pv.to_vec() };
            completed.store(depth, Ordering::Relaxed);
        }
    };
    let mut result = (root_moves[0], 0, 0);
    rayon::scope(|scope| {
        for id in 1..threads.max(1) {
            let pos = pos.clone();
            let mut moves = root_moves.clone();
            let (shared_nodes, helper_stop, done, completed, publish) =
                (&shared_nodes, &helper_stop, &done, &completed, &publish);
            scope.spawn(move |_| {
                let mut w = Worker::new(pos, tt, helper_stop, shared_nodes, limits, false);
                w.completed = Some(completed);
                let mut pv = vec![];
                // Odd helpers search a ply beyond the main thread, even ones alongside it.
                let ahead = (id % 2) as i32;
                let mut depth = 1 + ahead;
                let mut last = None;
                while depth <= max_depth && !done.load(Ordering::Relaxed) {
                    let score = w.root(&mut moves, depth, &mut pv, last);
                    if helper_stop.load(Ordering::Relaxed) {
                        break;
                    }
                    if let Some(score) = score
                        && !w.aborted
                    {
                        publish(depth, moves[0], score, &pv);
                        last = Some(score);
                    }
                    w.aborted = false;
                    depth = (depth + 1).max(completed.load(Ordering::Relaxed) + 1 + ahead);
                }
            });
        }
        let mut w = Worker::new(pos.clone(), tt, stop, &shared_nodes, limits, true);
        if threads > 1 {
            w.completed = Some(&completed);
        }
        let mut pv = vec![];
        // Completed iterations in a row that claimed a win.
        let mut claims = 0;
        let mut depth = 1;
        while depth <= max_depth {
            let score = w.root(&mut root_moves, depth, &mut pv, (result.2 > 0).then_some(result.1));
            if w.aborted && stop.load(Ordering::Relaxed) {
                // Out of time (or stopped): a partial iteration counts when its best move beat the
                // previous choice and no thread has completed this depth since.
                if let Some(score) = score
                    && completed.load(Ordering::Relaxed) < depth
                {
                    result = (root_moves[0], score, depth - 1);
                    messages.push(format!(
                        "depth {depth} (partial) best {}",
                        w.pos.pos_of(root_moves[0]).notation()
                    ));
                } else {
                    // A helper may have completed a deeper iteration since the last one taken here.
                    let p = published.lock().unwrap_or_else(PoisonError::into_inner);
                    if p.depth > result.2 {
                        result = (p.mv, p.score, p.depth);
                    }
                }
                break;
            }
            if let Some(score) = score
                && !w.aborted
            {
                publish(depth, root_moves[0], score, &pv);
            }
            // Aborted without the stop flag: a helper completed this depth first.
            w.aborted = false;
            let p = published.lock().unwrap_or_else(PoisonError::into_inner).clone();
            if p.depth < depth {
                break;
            }
            result = (p.mv, p.score, p.depth);
            if let Some(tell) = progress {
                tell(p.depth, w.pos.pos_of(p.mv), p.score);
            }
            // No check that the best move leaves the opponent no VCT: each iteration's new best move given
            // to the VCT solver (8 threats, at most 20,000 solver nodes a move) and, when it found the
            // opponent a win, dropped with the deepening begun again scored 124-196 of 320 freestyle
            // games against Rapfi at 300 ms (38.8%), with 60,000 nodes 35.3% of 163, and with 5,000 and
            // only while the score was above -300 36.9% of 320; the search without it 40.3% over 5760
            // (Strength, "Forty-third session"). Of 36 positions of lost games probed at 300 ms, it
            // refuted moves in 11, of which the search then called 8 lost and rated 2 below -500: the
            // VCTs it finds come when the game is already gone, and its nodes are time lost elsewhere.
            // The next iteration starts from the deepest best move.
            if let Some(k) = root_moves.iter().position(|&m| m == p.mv) {
                root_moves[..=k].rotate_right(1);
            }
            let elapsed = started.elapsed().as_secs_f64().max(1e-6);
            // The main thread's own nodes, and the helpers' share of the shared count (it counted the
            // main thread's too: added to `w.nodes` whole, the rate came out twice too high).
            let all_nodes = w.nodes + shared_nodes.load(Ordering::Relaxed).saturating_sub(w.counted);
            let pv_text: Vec<String> = p.pv.iter().map(|&i| w.pos.pos_of(i).notation()).collect();
            messages.push(format!(
                "depth {} eval {} nodes {} nps {:.0} time {:.0}ms pv {}",
                p.depth,
                score_text(p.score),
                w.nodes,
                all_nodes as f64 / elapsed,
                elapsed * 1000.0,
                pv_text.join(" ")
            ));
            // A win the search claims is believed only once deeper iterations repeat it: a shallow
            // one prunes the loser's counterplay (the best few quiet moves near the horizon may miss
            // its own fours), and such claims ended the deepening at depth 2 or 3 and lost games
            // against Rapfi (the solvers' proofs above are exact and return at once). A claimed loss
            // never ends it: the same pruning makes false losses, and only a deeper look finds the
            // defence it hid (when there is none, the deeper look costs a lost game nothing). Against
            // Rapfi at 300 ms (our answers 164-170 ms on average instead of 151): 144.5-175.5 and
            // 131.5-188.5 of 320, 43.1% over 640 against 41.5% over 1440 with the loss claims: no
            // worse within the noise, and kept for the reason above. Renju 43.4% of 160 (42.2% before);
            // exact five 130-190 over 320 (40.6%), af159bf's search alongside 127.5-192.5 (39.8%).
            claims = if p.score >= WIN_THRESHOLD { claims + 1 } else { 0 };
            if claims >= CLAIM_ITERATIONS {
                break;
            }
            if limits.is_some_and(|l| l.budget.past_soft()) {
                break;
            }
            depth = p.depth + 1;
        }
        nodes += w.nodes;
        done.store(true, Ordering::Relaxed);
        helper_stop.store(true, Ordering::Relaxed);
    });
    let (best, score, depth) = result;
    Outcome { mv: Some(pos.pos_of(best)), score, depth, nodes, messages }
}

impl Player for SearchPlayer {
    fn name(&self) -> String {
        "search".into()
    }

    fn think(&self, board: &Board, rules: &Rules, limits: &Limits, stop: &AtomicBool) -> Thought {
        let Some(pats) = self.patterns(rules) else {
            // Line lengths beyond the pattern tables: the weight matrix plays.
            return WeightMatrix::default().think(board, rules, limits, stop);
        };
        let tt = self.table(tt_bytes(limits.memory));
        let max_depth = limits.max_depth.map_or(60, |d| d.clamp(1, 60) as i32);
        let setup = Setup {
            pats,
            tt: &tt,
            limits: Some(limits),
            max_depth,
            threads: limits.threads,
            stop,
            use_vct: self.vct,
            progress: None,
        };
        let out = run(board, &setup);
        let mut messages = out.messages;
        messages.push(format!(
            "best {} eval {} depth {}",
            out.mv.map_or("-".into(), |p| p.notation()),
            score_text(out.score),
            out.depth
        ));
        Thought { mv: out.mv, messages }
    }

    fn prepare(&self, rules: &Rules) {
        let _ = self.patterns(rules);
    }

    fn clear(&self) {
        if let Some(t) = self.tt.lock().unwrap_or_else(|e| e.into_inner()).as_ref() {
            t.clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn position(diagram: &str) -> Position {
        let pats = Arc::new(Patterns::new(&Rules::from_mask(0, 5).0).expect("freestyle tables"));
        Position::new(&Board::from_diagram(diagram).expect("diagram"), pats)
    }

    /// The quiescence's value of a position for the side to move, with an open window.
    fn quiesce(pos: Position) -> (i32, i32) {
        with_worker(pos, |w| {
            let mut budget = LEAF_VCF_NODES;
            let v = w.quiesce(-INF, INF, 0, None, LEAF_VCF_FOURS, &mut budget);
            (v, evaluate(&w.pos))
        })
    }

    /// Runs `f` on a main-thread worker for `pos` with a fresh table and no limits.
    fn with_worker<R>(pos: Position, f: impl FnOnce(&mut Worker) -> R) -> R {
        let tt = Tt::new(1 << 20);
        let stop = AtomicBool::new(false);
        let nodes = AtomicU64::new(0);
        let mut w = Worker::new(pos, &tt, &stop, &nodes, None, true);
        f(&mut w)
    }

    #[test]
    fn two_open_threes_lose_in_four_plies_counted_from_the_search_root() {
        // Black to move, no four to make, and white's open threes on rows 2 and 6 share no
        // defence point: lost in four plies from here, however many stones the game holds.
        let pos = position(
            "
            x . . . . . . . . . x
            . . . . . . . . . . .
            . . . o o o . . . . .
            . . . . . . . . . . .
            x . . . . . . . . . x
            . . . . . . . . . . .
            . . . . . o o o . . .
            . . . . . . . . . . .
            x . . . . . . . . . x
            . . . . . . . . . . .
            . . . . . . . . . . .
            ",
        );
        with_worker(pos, |w| {
            assert_eq!(w.generate(0, None, &mut false, usize::MAX), Err(-(WIN - 4)));
            assert_eq!(w.generate(3, None, &mut false, usize::MAX), Err(-(WIN - 7)));
        });
    }

    #[test]
    fn the_quiescence_looks_around_a_four_on_the_edge_row_with_four_in_a_row() {
        // Four in a row wins: black's move on the fourth cell of the top row makes a four there
        // (white's corner stone closes it) and a closed three down its column. The quiescence plays
        // it, white blocks, and the next four is looked for up to four cells around it, past the
        // edge: with the three-cell margin of four in a row that read outside the board and panicked.
        let pats = Arc::new(Patterns::new(&Rules::from_mask(0, 4).0).expect("four-in-a-row tables"));
        let board = Board::from_diagram(
            "
            o x x . . . . . .
            . . . . . . . . .
            . . . x . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            o . . . . . . . o
            ",
        )
        .expect("diagram");
        let (v, eval) = quiesce(Position::new(&board, pats));
        assert!(v >= eval);
    }

    #[test]
    fn the_quiescence_plays_a_four_three_to_the_win() {
        // Black to move: g5 is a four on row 5 (c5 blocks its other end) and an open three on
        // column g. Four, block, open four, block, five: a win in five plies.
        let (v, _) = quiesce(position(
            "
            o . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . x . . . .
            . . o x x x . . . . .
            . . . . . . x . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            o . . . . . . . . o o
            ",
        ));
        assert_eq!(v, WIN - 5);
    }

    #[test]
    fn the_quiescence_stands_on_the_evaluation_without_a_four_worth_playing() {
        // Black to move: its only fours are plain ones (nothing else on their cells' lines), so it
        // stands pat.
        let pos = position(
            "
            o . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . o x x x . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . x .
            . . . . . . . . . . .
            . x . . . . . . . . .
            o . . . . . . . . o o
            ",
        );
        assert_eq!(pos.side(), Color::Black);
        assert!(pos.count(Color::Black, Class::B4) > 0);
        let (v, eval) = quiesce(pos);
        assert_eq!(v, eval);
    }

    /// The root's score and first move at `depth`, with an aspiration window around `prev` (none:
    /// the full window), on a fresh table.
    fn root(pos: Position, depth: i32, prev: Option<i32>) -> (i32, usize) {
        with_worker(pos, |w| {
            let mut moves = w.generate(0, None, &mut false, usize::MAX).expect("moves");
            let v = w.root(&mut moves, depth, &mut vec![], prev).expect("a complete search");
            (v, moves[0])
        })
    }

    #[test]
    fn a_quiet_move_answers_a_vcf_threat_when_it_wins_first() {
        // Game 135 of the thirteenth session's fourth 300 ms run against Rapfi, rows numbered from the
        // bottom: our i10 (black) lost to e7 d6 e8. Here black must block white's four at d6; then
        // black has a VCF if it could move again (on column i), and white's winning answer, e8 (a
        // closed three and a two), is none of its fours, threes or the points of that line. The
        // search must try it: it finds the win by depth 6; without e8 among white's answers, not even
        // at depth 16.
        let pos = position(
            "
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . x . . . . . .
            . . . . . x x o x . . . . . .
            . . . . . x o o . . . . . . .
            . . . . . o o x . . . . . . .
            . . . . o . o . x . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            . . . . . . . . . . . . . . .
            ",
        );
        assert_eq!(pos.side(), Color::Black);
        let v =
            with_worker(pos, |w| (1..=8).map(|d| w.search(-INF, INF, d, 0, false)).last().expect("a depth"));
        assert!(v <= -WIN_THRESHOLD, "black should be lost: {v}");
    }

    #[test]
    fn a_wrong_aspiration_guess_widens_to_a_score_near_the_full_windows() {
        // A quiet middle game: the window starts far above or far below the true score, fails, and
        // widens until the score lies inside it: a score close to the full window's, not a bound.
        let pos = || {
            position(
                "
                . . . . . . . . . . .
                . . . . . . . . . . .
                . . . . . . . . . . .
                . . . . o x . . . . .
                . . . . x o . . . . .
                . . . o . x . . . . .
                . . . . . . . . . . .
                . . . . . . . . . . .
                . . . . . . . . . . .
                . . . . . . . . . . .
                . . . . . . . . . . .
                ",
            )
        };
        let (v, _) = root(pos(), 6, None);
        assert!(v.abs() < WIN_THRESHOLD, "a quiet position: {v}");
        for guess in [v + 900, v - 900, v + 40, v - 40] {
            let (w, _) = root(pos(), 6, Some(guess));
            // (Not always the very same score: the pruning depends on the window.)
            assert!((w - v).abs() <= 50, "from {guess}: {w} against {v}");
        }
    }

    #[test]
    fn the_principal_variation_goes_on_through_the_block_of_a_four() {
        // Black (x, to move) wins with a four-three: the empty cell right of its closed three on the
        // row makes a four there and an open three on the column. The search proves it without
        // storing the forced block in the table, and the line shown must not stop at the four.
        let pos = position(
            "
            o . . . . . . . . . o
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . x . . .
            . . . . . . . x . . .
            . . o . x x x . o . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            o . . . . . . . . . .
            ",
        );
        let pv = with_worker(pos, |w| {
            let mut moves = w.generate(0, None, &mut false, usize::MAX).expect("moves");
            let mut pv = vec![];
            let v = w.root(&mut moves, 4, &mut pv, None).expect("a complete search");
            assert!(v >= WIN_THRESHOLD, "a win: {v}");
            pv.iter().map(|&i| w.pos.pos_of(i).notation()).collect::<Vec<_>>()
        });
        assert!(pv.starts_with(&["h7".to_string(), "d7".to_string()]), "the block follows the four: {pv:?}");
    }

    /// `four_three_defences` of black (to move) in `diagram`, as sorted notations.
    fn four_three_answers(diagram: &str) -> Vec<String> {
        let pos = position(diagram);
        assert_eq!(pos.side(), Color::Black);
        let set = four_three_defences(&pos, Color::Black).expect("a four-three point to answer");
        let mut v: Vec<String> = set.iter().map(|&i| pos.pos_of(i).notation()).collect();
        v.sort();
        v
    }

    #[test]
    fn a_four_three_point_is_answered_on_its_lines() {
        // White's f6 makes the row a closed four (five point g6) and the column an open three. Black
        // answers on f6, on g6, or at either end of the three (f3 and f7: a stone one further out
        // leaves the three room for an open four).
        let answers = four_three_answers(
            "
            x . . . . . . . . . x
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . o . . . . .
            . . . . . o . . . . .
            . x o o o . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            x . . . . . . . . . x
            ",
        );
        assert_eq!(answers, ["f3", "f6", "f7", "g6"]);
    }

    #[test]
    fn a_four_three_point_is_also_answered_by_making_the_forced_block_a_four() {
        // As above, with black's g8 and g9 below the five point: a stone on g5, g7 or g10 makes black's
        // block on g6 a four of its own, which wins the tempo back.
        let answers = four_three_answers(
            "
            x . . . . . . . . . x
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . o . . . . .
            . . . . . o . . . . .
            . x o o o . . . . . .
            . . . . . . . . . . .
            . . . . . . x . . . .
            . . . . . . x . . . o
            . . . . . . . . . . .
            x . . . . . . . o . x
            ",
        );
        assert_eq!(answers, ["f3", "f6", "f7", "g10", "g5", "g6", "g7"]);
    }

    #[test]
    fn a_four_three_wins_past_the_opponents_fours_when_its_block_makes_no_four() {
        // White to move: f6 makes the row a four (b6 closes it, g6 is its five point) and the column an
        // open three. Black's closed three on row 9 gives it four points, yet black's forced block on
        // g6 makes nothing there, and white's open four comes next.
        let pos = position(
            "
            x . . . . . . . . . x
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . o . . . . .
            . . . . . o . . . . .
            . x o o o . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . o x x x . . . .
            . . . . . . . . . . .
            x . . . . . . . . . .
            ",
        );
        assert_eq!(pos.side(), Color::White);
        assert!(pos.count(Color::Black, Class::B4) > 0, "black has fours to play");
        assert!(four_three_wins(&pos, Color::White));
        assert!(with_worker(pos, |w| w.threes_win()));
    }

    #[test]
    fn a_four_three_does_not_win_when_its_forced_block_makes_a_four() {
        // As above, but black's three on row 6 turns the block on g6 into a four of black's, which
        // takes the tempo back.
        let pos = position(
            "
            x . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . o . . . . .
            . . . . . o . . . . .
            . x o o o . . x x x .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            x . . . . . . . . . .
            ",
        );
        assert_eq!(pos.side(), Color::White);
        assert!(!four_three_wins(&pos, Color::White));
        assert!(!with_worker(pos, |w| w.threes_win()));
    }
}
