//! What a cell is, from the four line shapes a stone there would make: its weight (move ordering,
//! and the evaluation under Pente), and the entry of the table of every combination of four shapes
//! that makes each cell's class, weight, move-prior terms and evaluation terms one lookup.
//!
//! Invariants: the entry of four shapes holds their `Class::of` (renju black's fouls only in the
//! table built for renju black), their weight, and the model's `Prior::cell` of them clamped to `i16`;
//! its evaluation terms, as the side to move and as the side that waits, are the evaluation model's
//! (`eval::model`, which builds the tables once). [`Position`](crate::eval::position::Position) keeps
//! these per cell and sums the terms; its evaluation adds the model's threat value and constant.

use crate::eval::policy::Prior;
use crate::game::pattern::{Class, Shape};

/// The weight of one line shape for a cell (the classic weight matrix, with shapes for counts).
pub const SHAPE_WEIGHT: [i32; Shape::COUNT] = [
    0,    // None
    1,    // B1
    3,    // F1
    6,    // B2
    20,   // F2
    22,   // B3
    80,   // F3
    90,   // B4
    400,  // F4
    400,  // DoubleFour
    2000, // Five
    0,    // Overline
];

/// Extra weight for combinations on one cell, by class.
pub const CLASS_BONUS: [i32; Class::COUNT] = [0, 0, 0, 120, 0, 250, 600, 3000, 0, 0];

/// Indices in a cell's `terms` (and in `sums`): the weight, and the evaluation terms by role.
pub(crate) const WEIGHT: usize = 0;
pub(crate) const MOVER: usize = 1;
pub(crate) const WAITER: usize = 2;

/// What four line shapes make together for one colour: the class and the cell's terms.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ComboEntry {
    pub(crate) terms: [i32; 3],
    /// The move prior's terms of these shapes (`Prior::cell`): as the side to move, as its
    /// opponent.
    pub(crate) prior: [i16; 2],
    pub(crate) class: Class,
}

/// Index of four shapes in the combination tables.
#[inline]
pub(crate) fn combo_index(s: [Shape; 4]) -> usize {
    ((s[0] as usize * Shape::COUNT + s[1] as usize) * Shape::COUNT + s[2] as usize) * Shape::COUNT
        + s[3] as usize
}

/// A cell's weight from its four shapes and their class (a renju foul weighs nothing: black cannot
/// play there).
fn cell_weight(s: [Shape; 4], class: Class) -> i32 {
    if class == Class::Forbidden {
        return 0;
    }
    // Renju black's possible double-three foul weighs as a double three.
    let as_class = if class == Class::MaybeForbidden { Class::F3x2 } else { class };
    CLASS_BONUS[as_class as usize] + s.iter().map(|&x| SHAPE_WEIGHT[x as usize]).sum::<i32>()
}

/// A combination's entry before the model: its class, its weight, its prior; the evaluation terms
/// are the model's (`eval::model`).
pub(crate) fn base_combo_entry(s: [Shape; 4], fouls: bool, prior: &Prior) -> ComboEntry {
    let class = Class::of(s, fouls);
    let prior = prior.cell(s, class).map(|v| v.clamp(-32768, 32767) as i16);
    ComboEntry { terms: [cell_weight(s, class), 0, 0], prior, class }
}
