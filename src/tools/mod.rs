//! The manager side: programs that start brains and talk to them, and the terminal game. A brain process
//! with deadlines on every read ([`process`]), one refereed game ([`referee`]), matches
//! ([`tournament`]) with their statistics ([`elo`]), their results files, merged across machines
//! ([`results`]) and their live file, written as they are played ([`live`]), openings ([`opening`],
//! and balanced random ones: [`opening_gen`]) and records ([`record`]), scripted protocol sessions
//! ([`script`]), `play` ([`play`]), the analysis of recorded games ([`analyze`]), self-play for
//! training data ([`selfplay`]), the fits of the evaluation ([`train`]) and of the move prior
//! ([`prior_fit`]) to it, and SPSA over the search's parameters ([`tune`]). The engine core never imports these.

pub mod analyze;
pub mod calibrate;
pub mod client;
pub mod elo;
pub mod label;
pub mod live;
pub mod opening_gen;
pub mod play;
pub mod prior_fit;
pub mod record;
pub mod results;
pub mod script;
pub mod selfplay;
pub mod shard;
pub mod tournament;
pub mod train;
pub mod tune;

/// `n` and `word` agreeing: `1 stone`, `2 stones` (the plural by an `s`).
pub fn plural(n: impl Into<u64>, word: &str) -> String {
    let n = n.into();
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}
