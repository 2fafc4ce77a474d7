//! The game itself: the board with its stones and history ([`board`]), what wins under each rule
//! ([`rules`]), renju's forbidden points ([`renju`]) and the line shapes and threat classes every
//! player reads the board by ([`pattern`]), and the one seeded generator ([`random`]). Nothing here thinks or does input and output.

pub mod board;
pub mod pattern;
pub mod random;
pub mod renju;
pub mod rules;
