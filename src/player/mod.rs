//! What a player is: the interface between the engine and any way of choosing moves (the search, the
//! weight-matrix baseline). A player gets a copy of the position, the rules and its limits, and answers
//! a [`Thought`]; it never touches the game or prints.
//!
//! Invariant: a player returns by `limits.budget.hard` or soon after the stop flag is set.

pub mod timeman;

use std::sync::atomic::AtomicBool;

use crate::game::board::{Board, Pos};
use crate::game::rules::Rules;
use crate::player::timeman::Budget;

/// Memory the engine assumes it may use when the manager sets no limit (Gomocup's 350 MB).
pub const DEFAULT_MEMORY: u64 = 350 << 20;

/// Limits of one thought beyond time.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub budget: Budget,
    pub max_depth: Option<u64>,
    pub max_nodes: Option<u64>,
    /// Worker threads (at least 1).
    pub threads: usize,
    /// Bytes the player may use for its tables.
    pub memory: u64,
}

/// What a player answers: the move (none only on a full board) and lines worth showing the user.
#[derive(Clone, Debug, Default)]
pub struct Thought {
    pub mv: Option<Pos>,
    pub messages: Vec<String>,
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
}
