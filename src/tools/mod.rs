//! The manager side: programs that start brains and talk to them, and the terminal game. A brain process
//! with deadlines on every read ([`process`]), one refereed game ([`referee`]), matches
//! ([`tournament`]) with their statistics ([`elo`]) and their results files, merged across machines
//! ([`results`]), openings ([`opening`], and balanced random ones: [`opening_gen`]) and records
//! ([`record`]), scripted protocol sessions ([`script`]), `play` ([`play`]), the analysis of
//! recorded games ([`analyze`]) and self-play for training data ([`selfplay`]); their one seeded generator is [`random`]. The engine core never
//! imports these.

pub mod analyze;
pub mod elo;
pub mod opening;
pub mod opening_gen;
pub mod play;
pub mod process;
pub mod random;
pub mod record;
pub mod referee;
pub mod results;
pub mod script;
pub mod selfplay;
pub mod tournament;
