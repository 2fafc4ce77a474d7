//! Matches between engines and what they measure: the configuration and its checks ([`config`]), the
//! games played several at once ([`run`]) into a [`summary::Summary`] ([`summary`]) with its
//! statistics ([`elo`]: the score's interval, Elo, the SPRT), the results file and the merge of a run's
//! shards ([`results`], [`shard`]), the live file of every move ([`live`]), balanced openings drawn
//! afresh ([`opening_gen`]), and the node count that takes an engine a given time ([`calibrate`]).
//!
//! Invariants: a match never waits on a brain without a deadline (it plays through
//! [`super::client`]), and the same configuration, seed and shard play the same games on every
//! machine. This room imports [`super::client`] and [`super::record`]; `learn` uses its shards and
//! openings.

pub mod calibrate;
pub mod config;
pub mod elo;
pub mod live;
pub mod opening_gen;
pub mod results;
pub mod run;
pub mod shard;
pub mod summary;
