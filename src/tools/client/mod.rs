//! Talking to an engine from the manager's side: a brain process fed lines and read with a deadline on
//! every read ([`process`]), a seat in a refereed game and the game itself ([`referee`]), and the
//! judge of one position, our search or a brain asked through its seat ([`judge`]). `match`, the
//! script runner, `analyze`, calibration and the board all reach engines through this room.
//!
//! Invariants: nothing here waits on a brain without a deadline, and every process it starts is killed
//! (its whole process group) when its owner is dropped. It imports the engine (for our own judge) and
//! [`super::record`], nothing else of the tools.

pub mod judge;
pub mod process;
pub mod referee;
