//! The search: threat-space solvers at the root, then iterative-deepening alpha-beta (PVS) over the
//! incremental position, with a shared transposition table and Lazy SMP threads.
//!
//! Roadmap of one move ([`SearchPlayer::think`]):
//! 1. Forced answers at once: our five, the block of the opponent's only five, a single legal move.
//! 2. VCF for us (a proven win is played at once), then VCT within a share of the time.
//! 3. Iterative deepening: each depth searches all root moves with PVS (late quiet ones reduced first);
//!    helper threads search the same tree, put off the moves another thread is searching, and share
//!    what they learn through the table. Every thread publishes the deepest iteration it completes;
//!    the others abandon that depth and go on past it, and the deepest result of any thread is the one
//!    played.
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
mod busy;
mod driver;
mod movepick;
mod node;
pub mod params;
mod quiesce;
mod root;
mod threads;
pub mod tt;

use busy::Busy;
pub use driver::{Outcome, Setup, run};
use params::*;
pub use params::{MAX_DEPTH, ParamError, Params, SPECS, Spec};
use root::RootState;

use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use crate::eval::model::Evaluator;
use crate::eval::position::Position;
use crate::eval::score::{EvalParams, WIN, WIN_THRESHOLD, evaluate_with};
use crate::eval::weights::WeightMatrix;
use crate::game::board::{Board, Color, Pos};
use crate::game::pattern::Class;
use crate::game::pattern::Patterns;
use crate::game::rules::Rules;
use crate::player::timeman::{CHECK_EVERY, TimeShares, time_to_check};
use crate::player::{Iteration, Limits, Player, Progress, Shortcut, Thought};
use crate::search::tt::{Bound, Tt};
use crate::threat::{
    Four, Profile, Solver, Stops, ThreatLimits, VcfMode, Walker, block_point, defences, five_points,
    five_stops, four_moves, four_three_defences, four_three_wins, play_four, three_moves, vcf_candidates,
};

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
    /// What the root iteration under way keeps (see `RootState`).
    at_root: RootState,
    /// With helper threads: the deepest iteration any thread has completed. An iteration that one
    /// has overtaken is abandoned (its work is in the table; its result would come too late).
    completed: Option<&'a AtomicI32>,
    /// With helper threads: the moves the threads are searching, so that each puts off the others'.
    busy: Option<&'a Busy>,
    /// The main thread's watcher, told of each root move (see `Setup::progress`).
    watch: Option<&'a (dyn Fn(&Progress) + Sync)>,
    /// By ply, what the line under way keeps (see `Stack`).
    stack: [Stack; MAX_PLY + 2],
    /// The search's numbers, copied: read at every node, they sit beside the rest.
    params: Params,
    /// The evaluation's, taken from `params` once.
    eval: EvalParams,
    /// What the rules mean to the search, decided once.
    profile: Profile,
}

/// What the search keeps for one ply of the line under way (Stockfish's `Stack`).
#[derive(Clone, Copy, Default)]
struct Stack {
    /// The move played here made a four (read two and four plies later).
    was_four: bool,
    /// The LMR extensions on the line that leads here.
    ext: u8,
    /// The table's move at this node makes an open three or a stronger threat (read by the late-move
    /// reduction of its quiet moves).
    tt_threat: bool,
}

impl<'a> Worker<'a> {
    /// A worker on `pos` with `setup`'s table, limits and parameters, stopped by `stop`.
    pub fn new(
        pos: Position,
        setup: &Setup<'a>,
        stop: &'a AtomicBool,
        shared_nodes: &'a AtomicU64,
        main: bool,
    ) -> Worker<'a> {
        let n = pos.cell_count();
        let profile = Profile::of_position(&pos);
        Worker {
            pos,
            tt: setup.tt,
            stop,
            shared_nodes,
            limits: setup.limits,
            nodes: 0,
            counted: 0,
            aborted: false,
            // Each search starts with an empty history, as Rapfi's does: keeping half of the last
            // move's was no better (docs/strength.md, Ideas tried).
            history: vec![[0; 2]; n],
            main,
            at_root: RootState::default(),
            completed: None,
            busy: None,
            watch: None,
            stack: [Stack::default(); MAX_PLY + 2],
            params: *setup.params,
            eval: setup.params.eval(),
            profile,
        }
    }

    /// The quiet evaluation of the position, with this search's numbers.
    #[inline]
    fn evaluate(&self) -> i32 {
        evaluate_with(&self.pos, &self.eval)
    }

    fn check_abort(&mut self) {
        if self.stop.load(Ordering::Relaxed) {
            self.aborted = true;
            return;
        }
        if self.completed.is_some_and(|c| c.load(Ordering::Relaxed) >= self.at_root.iteration) {
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

/// The searching player: threat solvers and alpha-beta, with tables kept between moves.
pub struct SearchPlayer {
    patterns: Mutex<Option<Arc<Patterns>>>,
    tt: Mutex<Option<Arc<Tt>>>,
    /// The threads of the last search with more than one (see [`SearchPlayer::pool`]).
    pool: Mutex<Option<Arc<rayon::ThreadPool>>>,
    /// Run the VCT solver at the root (on by default; off gives a cheaper, purely alpha-beta player).
    pub vct: bool,
    /// The search's numbers (the defaults unless `--set` changed them).
    pub params: Params,
    /// The evaluation model's tables (the embedded model unless `--weights` loaded another).
    pub evaluator: &'static Evaluator,
}

impl Default for SearchPlayer {
    fn default() -> SearchPlayer {
        SearchPlayer::with_params(Params::DEFAULT)
    }
}

/// Table size for a memory budget: the size asked for (within the budget), else a quarter of the
/// budget; at least 1 MB, at most 256 MB.
pub fn tt_bytes(memory: u64, asked: Option<u64>) -> u64 {
    asked.map_or(memory / 4, |b| b.min(memory)).clamp(1 << 20, 256 << 20)
}

impl SearchPlayer {
    /// A player that searches with `params`, evaluating with the embedded model.
    pub fn with_params(params: Params) -> SearchPlayer {
        SearchPlayer::new(params, Evaluator::standard())
    }

    /// A player that searches with `params` and evaluates with `evaluator`'s model.
    pub fn new(params: Params, evaluator: &'static Evaluator) -> SearchPlayer {
        SearchPlayer {
            patterns: Mutex::new(None),
            tt: Mutex::new(None),
            pool: Mutex::new(None),
            vct: true,
            params,
            evaluator,
        }
    }

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

    /// A pool of exactly `threads` threads for a search on that many, kept while the count stays the
    /// same; `None` for one thread (the caller's own) or when the system refuses the threads. A pool of
    /// its own, not rayon's global one: that has a thread a core, and helpers beyond it would wait for
    /// the search to end.
    pub fn pool(&self, threads: usize) -> Option<Arc<rayon::ThreadPool>> {
        if threads <= 1 {
            return None;
        }
        let mut cache = self.pool.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(p) = cache.as_ref()
            && p.current_num_threads() == threads
        {
            return Some(Arc::clone(p));
        }
        let built = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("search-{i}"))
            .build();
        match built {
            Ok(p) => {
                let p = Arc::new(p);
                *cache = Some(Arc::clone(&p));
                Some(p)
            }
            Err(e) => {
                log::warn!("cannot start {threads} search threads ({e}): searching on one");
                None
            }
        }
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

impl Player for SearchPlayer {
    fn name(&self) -> String {
        "search".into()
    }

    fn think(&self, board: &Board, rules: &Rules, limits: &Limits, stop: &AtomicBool) -> Thought {
        let Some(pats) = self.patterns(rules) else {
            // Line lengths beyond the pattern tables: the weight matrix plays.
            return WeightMatrix::default().think(board, rules, limits, stop);
        };
        let tt = self.table(tt_bytes(limits.memory, limits.table));
        let max_depth = limits.max_depth.map_or(MAX_DEPTH, |d| d.clamp(1, MAX_DEPTH as u64) as i32);
        let pool = self.pool(limits.threads);
        let setup = Setup {
            pats,
            tt: &tt,
            limits: Some(limits),
            max_depth,
            pool: pool.as_deref(),
            stop,
            use_vct: self.vct,
            progress: limits.watch.as_ref().map(|w| &*w.0 as &(dyn Fn(&Progress) + Sync)),
            exclude: &limits.exclude,
            params: &self.params,
            evaluator: self.evaluator,
        };
        let out = run(board, &setup);
        Thought {
            mv: out.mv,
            score: Some(out.score),
            depth: out.depth,
            shortcut: out.shortcut,
            iterations: out.iterations,
        }
    }

    fn prepare(&self, rules: &Rules) {
        let _ = self.patterns(rules);
    }

    fn time_shares(&self) -> TimeShares {
        self.params.time_shares()
    }

    fn clear(&self) {
        if let Some(t) = self.tt.lock().unwrap_or_else(|e| e.into_inner()).as_ref() {
            t.clear();
        }
    }
}

#[cfg(test)]
mod tests;
