//! Quincunx: a five-in-a-row engine that speaks the Gomocup/Piskvork brain protocol.
//!
//! The map, from the game to the wire:
//! - [`board`]: cells, stones, move history; checked moves at the boundary;
//! - [`rules`]: what wins under freestyle, exact five, renju and caro; which lines are still open;
//! - [`renju`]: black's forbidden points (double-three, double-four, overline), as the Gomocup referee
//!   reads them;
//! - [`weights`]: the classic weight-matrix player, the baseline every stronger player is measured against;
//! - [`swap2`]: the swap2 opening decisions;
//! - [`timeman`]: soft and hard time limits of a move, from the manager's clock;
//! - [`engine`]: the game state, the settings, and a player thinking on its own thread; never prints;
//! - [`protocol`]: parses the manager's lines and prints the answers;
//! - [`script`]: scripted protocol sessions against any brain (our protocol-tests run through it);
//! - [`brain`]: a brain process seen from the manager's side (deadlines, process-group kill);
//! - [`referee`]: one game between two brain processes under the real rules;
//! - [`tournament`]: matches (round robin, gauntlet, openings, concurrency) and their results;
//! - [`elo`]: score, Elo and SPRT; [`opening`]: offset-format openings; [`record`]: PSQ and SGF.

pub mod bench;
pub mod board;
pub mod brain;
pub mod elo;
pub mod engine;
pub mod opening;
pub mod pattern;
pub mod play;
pub mod player;
pub mod policy;
pub mod position;
pub mod protocol;
pub mod record;
pub mod referee;
pub mod renju;
pub mod rules;
pub mod script;
pub mod search;
pub mod swap2;
pub mod threat;
pub mod timeman;
pub mod tournament;
pub mod tt;
pub mod weights;
