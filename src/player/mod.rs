//! What a player is: the interface between the engine and any way of choosing moves (the search, the
//! weight-matrix baseline). A player gets a copy of the position, the rules and its limits, and answers
//! a [`Thought`]; it never touches the game or prints.
//!
//! Invariant: a player returns by `limits.budget.hard` or soon after the stop flag is set.

pub mod timeman;

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::game::board::{Board, Pos};
use crate::game::rules::Rules;
use crate::player::timeman::{Budget, TimeShares};

/// Memory the engine assumes it may use when the manager sets no limit (Gomocup's 350 MB).
pub const DEFAULT_MEMORY: u64 = 350 << 20;

/// Memory our interactive tools (`play`, `analyze`, the browser board) give the search: a quarter of a
/// brain's, since they share a person's machine with other programs (a table of about 22 MB: see
/// `search::tt_bytes`).
pub const TOOL_MEMORY: u64 = DEFAULT_MEMORY / 4;

/// The most threads a player is given (`INFO thread_num` above it is capped, and `YXSHOWINFO` says so).
pub const MAX_THREADS: usize = 256;

/// Limits of one thought beyond time, and what else it is asked (Yixin-Board's analysis).
#[derive(Clone, Debug)]
pub struct Limits {
    pub budget: Budget,
    pub max_depth: Option<u64>,
    pub max_nodes: Option<u64>,
    /// Worker threads (at least 1).
    pub threads: usize,
    /// Bytes the player may use for its tables.
    pub memory: u64,
    /// Bytes asked for the hash table itself (Yixin-Board's `INFO hash_size`), within `memory`; `None`:
    /// the player sizes its table from `memory`.
    pub table: Option<u64>,
    /// Moves the player must not choose (the lines `YXNBEST` has already given); empty in a game.
    /// When every move it would consider is excluded it answers no move.
    pub exclude: Vec<Pos>,
    /// Told how the search goes while it goes; `None` in a game.
    pub watch: Option<Watch>,
}

impl Limits {
    /// A game's limits: the budget, the threads and the memory, nothing excluded, nobody watching.
    pub fn new(budget: Budget, threads: usize, memory: u64) -> Limits {
        Limits {
            budget,
            max_depth: None,
            max_nodes: None,
            threads,
            memory,
            table: None,
            exclude: vec![],
            watch: None,
        }
    }
}

/// What a search tells while it thinks, for a person watching (Yixin-Board's realtime display,
/// `play`'s thinking line). Telling never changes the search: its nodes are the same without it.
#[derive(Clone, Debug, PartialEq)]
pub enum Progress {
    /// A completed iteration (never a partial one).
    Iteration(Iteration),
    /// The main thread starts searching a root move in the iteration of `depth`.
    Searching { depth: i32, mv: Pos },
    /// It has searched it: `lost` when the move loses by force, `best` when it is the iteration's
    /// best so far.
    Searched { depth: i32, mv: Pos, lost: bool, best: bool },
}

/// Someone told of the [`Progress`] of a thought, on the thinking thread.
#[derive(Clone)]
pub struct Watch(pub Arc<dyn Fn(&Progress) + Send + Sync>);

impl fmt::Debug for Watch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Watch")
    }
}

/// One iteration of a search's deepening: complete, or cut by the clock (`partial`, which counts only
/// when its best move beat the previous iteration's).
#[derive(Clone, Debug, PartialEq)]
pub struct Iteration {
    pub depth: i32,
    /// From the side to move's view (see `eval::score`).
    pub score: i32,
    pub best: Pos,
    /// The principal variation, `best` first (empty for a partial iteration).
    pub pv: Vec<Pos>,
    /// The main thread's nodes so far.
    pub nodes: u64,
    /// All threads' nodes a second so far.
    pub nps: u64,
    pub time: Duration,
    pub partial: bool,
}

/// How a move was found without (or before) a search, when it was.
#[derive(Clone, Debug, PartialEq)]
pub enum Shortcut {
    /// The only move that does not lose at once.
    Forced,
    /// The game's first move, on an empty board: the only point the search considers there.
    Opening,
    /// Pente: a capture that reaches the winning count.
    CaptureWin,
    /// A proven win by continuous fours: the line, both sides' moves, our five last.
    Vcf(Vec<Pos>),
    /// A proven win by threats (fours and threes): the line, both sides' moves, our five last.
    Vct(Vec<Pos>),
    /// The weight-matrix player's choice and its weight.
    Weight(i64),
}

/// What a player answers: the move (none only on a full board) and how it was found, as values (the
/// protocol and `play` turn them into text).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Thought {
    pub mv: Option<Pos>,
    /// The move's score from the side to move's view, for players that score moves.
    pub score: Option<i32>,
    /// The depth the score comes from (0: a shortcut).
    pub depth: i32,
    pub shortcut: Option<Shortcut>,
    /// The search's iterations in the order they ended.
    pub iterations: Vec<Iteration>,
}

/// A way of choosing moves. Players get a copy of the position and must return by `limits.budget.hard`
/// or soon after `stop` is set.
pub trait Player: Send + Sync {
    fn name(&self) -> String;
    fn think(&self, board: &Board, rules: &Rules, limits: &Limits, stop: &AtomicBool) -> Thought;
    /// Forget anything learned (the hash table): YXHASHCLEAR, and a change of rules or board size, after
    /// which its entries would describe other positions (the keys know stones and cells, not rules).
    /// Games of the same kind keep it: its positions stay true.
    fn clear(&self) {}
    /// Get ready for `rules` (build tables) before the clock runs; called when the rule changes.
    fn prepare(&self, _rules: &Rules) {}
    /// How this player shares a match clock among the moves to come (the brain builds each move's
    /// budget with it).
    fn time_shares(&self) -> TimeShares {
        TimeShares::DEFAULT
    }
}
