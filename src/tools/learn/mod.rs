//! Learning from our own games: self-play with each position's search score and the game's result
//! ([`selfplay`]), deep labels of those positions ([`label`]), the fits of the evaluation
//! ([`train`]) and of the move prior ([`prior_fit`]) to them, and SPSA over the search's parameters
//! ([`tune`]). Here the engine plays in process, two [`crate::search::SearchPlayer`]s, never a brain.
//!
//! Invariants: a run's games depend on its seed and configuration alone (a run split into shards, or
//! stopped and resumed, plays the same games), and the fits improve exactly what the search runs (each
//! fit's starting values reproduce the engine's evaluation or prior, a test each). This room imports
//! the engine and [`super::matches`]'s shards and fresh openings.

pub mod label;
pub mod prior_fit;
pub mod selfplay;
pub mod train;
pub mod tune;
