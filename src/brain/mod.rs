//! The brain a manager talks to: the engine that owns the game and the settings and lets a player think
//! on its own thread ([`engine`]), the protocol layer that only parses lines and prints answers
//! ([`protocol`]), and the swap2 opening decisions ([`swap2`]).

pub mod engine;
pub mod protocol;
pub mod swap2;
