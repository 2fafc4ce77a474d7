//! The evaluation: the search's incremental view of the board ([`position`]: shapes, threat classes and
//! evaluation terms kept up to date move by move), the move prior that orders candidates ([`policy`]),
//! and the classic weight matrix with the player built on it alone ([`weights`], the baseline).

pub mod policy;
pub mod position;
pub mod score;
pub mod weights;
