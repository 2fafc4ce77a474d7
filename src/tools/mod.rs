//! The manager side: programs that start brains and talk to them, and what they are for. Its rooms, each
//! importing only from those before it (and from the engine): [`record`] (games and openings as files
//! hold them), [`client`] (a brain process with deadlines, a refereed seat and game, the judge of a
//! position), [`matches`] (matches, their statistics, results, shards, live file and fresh openings),
//! [`learn`] (self-play, labels, the fits of the evaluation and the prior, SPSA tuning), and the
//! programs on top: scripted protocol sessions ([`script`]), the terminal game ([`play`]) and the
//! analysis of recorded games ([`analyze`]). The engine core never imports these; the board (`web`)
//! uses `record`, `client`, `matches`' live file and `analyze`'s reporting.

// In layer order, as in lib.rs: the blank lines keep rustfmt from sorting them.
pub mod record;

pub mod client;

pub mod matches;

pub mod learn;

pub mod script;

pub mod play;

pub mod analyze;
