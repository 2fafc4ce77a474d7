//! Games and openings as files hold them, with no brain and no search: a match's records written as
//! PSQ and SGF ([`write`]), records read back and replayed through the rules ([`read`]: PSQ, SGF and
//! move lists in pos notation), and openings files in either of c-gomoku-cli's notations
//! ([`opening`]).
//!
//! Invariant: nothing read here is trusted: every point goes through the board's checks and the rules'
//! verdict before it is a move, and a text that cannot be taken is an error naming where, not a panic.
//! This room imports only the game; every other tool may use it.

pub mod opening;
pub mod read;
pub mod write;
