//! The manager side: programs that start brains and talk to them, and the terminal game. A brain process
//! with deadlines on every read ([`process`]), one refereed game ([`referee`]), matches
//! ([`tournament`]) with their statistics ([`elo`]), their results files, merged across machines
//! ([`results`]) and their live file, written as they are played ([`live`]), openings ([`opening`],
//! and balanced random ones: [`opening_gen`]) and records ([`record`]), scripted protocol sessions
//! ([`script`]), `play` ([`play`]), the analysis of recorded games ([`analyze`]), self-play for
//! training data ([`selfplay`]), the fits of the evaluation ([`train`]) and of the move prior
//! ([`prior_fit`]) to it, and SPSA over the search's parameters ([`tune`]). The engine core never imports these.

pub mod analyze;
pub mod client;
pub mod label;
pub mod matches;
pub mod play;
pub mod prior_fit;
pub mod record;
pub mod script;
pub mod selfplay;
pub mod train;
pub mod tune;
