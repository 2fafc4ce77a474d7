//! The brain a manager talks to: the engine that owns the game and the settings and lets a player think
//! on its own thread ([`engine`]), the protocol layer that only parses lines ([`command`]) and prints
//! answers ([`protocol`]), the swap2 opening decisions ([`swap2`]) and Yixin-Board's analysis tasks
//! ([`analysis`]), and what the brain has to say besides its answers, as `MESSAGE` lines ([`notes`]).

pub mod analysis;
pub mod command;
pub mod engine;
pub mod notes;
pub mod protocol;
pub mod swap2;
