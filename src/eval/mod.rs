//! The evaluation: the search's incremental view of the board ([`position`]: shapes, threat classes and
//! evaluation terms kept up to date move by move), what a cell's shapes are worth ([`terms`]: the
//! fitted evaluation terms and the table of every four-shape combination), the score scale and the
//! quiet evaluation of a position ([`score`]), the move prior that orders candidates ([`policy`]), and
//! the classic weight matrix with the player built on it alone ([`weights`], the baseline).

pub mod model;
pub mod policy;
pub mod position;
pub mod score;
pub mod terms;
pub mod weights;
