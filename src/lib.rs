//! Quincunx: a five-in-a-row engine that speaks the Gomocup/Piskvork brain protocol.
//!
//! The module map, the direction of the dependencies between the folders and their invariants are in
//! `docs/architecture.md`. In short, each folder depends only on those listed before it: [`game`] (the
//! board and the rules), [`player`] (what a player is, and its time), [`eval`] (the incremental
//! position and the evaluation), [`threat`] (the VCF/VCT solvers), [`search`] (the alpha-beta search),
//! [`brain`] (the engine and the protocol), [`tools`] (the manager side, in rooms layered the same
//! way: `record`, `client`, `matches`, `learn`, then `script`, `play` and `analyze`), [`web`] (the
//! board in the browser).

// In layer order: each folder imports only from those above it. The blank lines keep rustfmt from
// sorting them.
pub mod game;

pub mod player;

pub mod eval;

pub mod threat;

pub mod search;

pub mod brain;

#[cfg(feature = "tools")]
pub mod tools;

#[cfg(feature = "board")]
pub mod web;
