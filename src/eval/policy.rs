//! The move-ordering prior: a score for each candidate cell saying how likely a strong player is to
//! play there, from what a stone there makes for the side to move and for its opponent, and how far
//! the cell is from the last two moves.
//!
//! It orders the moves the search tries (with the table's move and the history heuristic on top), so a
//! better prior means earlier cut-offs and safer late-move reductions. Only the order matters: the
//! scores are logits (hundredths) of a conditional logit model, fitted by maximum likelihood to the
//! moves Rapfi (classical weights) and PentaZen chose in 10868 quiet positions of their games against
//! Quincunx (300 ms a move, freestyle, 15x15; no open-four or five point on the board). On a held-out
//! fifth of them it ranks the played move first, and among a quiet node's first 14, more often than
//! the weight matrix does (docs/search.md, "Prior"). `train` fits them anew to deep searches' best
//! moves (docs/training.md); a model file carries its own.
//!
//! Per side (the mover, then the opponent): each line's shape, the cell's class, and the pair of its
//! two strongest line shapes (a four with a three is worth more than the sum of its parts). Classes
//! the fit never saw on a quiet board (open four, five) get large hand-set values so that threats
//! still come first at the nodes that answer them. Pente keeps the weight matrix: its captures are
//! outside this model.

use crate::game::pattern::Class;
use crate::game::pattern::Shape;

/// The prior's numbers, per role (0: the side to move, 1: its opponent); the evaluation model carries
/// one (`eval::model`), [`Prior::STANDARD`] unless a model file gives its own (`train` fits them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prior {
    /// Per line shape, summed over the four lines.
    pub shape: [[i32; Shape::COUNT]; 2],
    /// Per class of the cell.
    pub class: [[i32; Class::COUNT]; 2],
    /// The strongest line shape (row) with the second strongest (column; never stronger).
    pub pair: [[i32; Shape::COUNT * Shape::COUNT]; 2],
    /// By Chebyshev distance 1, 2, .. 5, 6 or more from the last move (role 0) and the one before (1).
    pub distance: [[i32; DISTANCES]; 2],
}

/// The distances [`Prior::distance`] tells apart.
pub const DISTANCES: usize = 6;

impl Prior {
    /// The numbers fitted to Rapfi's and PentaZen's moves (the module doc).
    #[rustfmt::skip]
    pub const STANDARD: Prior = Prior {
        shape: [[-108, -69, -60, -52, 76, 15, 106, 128, 0, 0, 0, 0], [-33, -20, -32, -22, 38, 27, 70, 91, 0, 0, 0, 0]],
        class: [[-48, -75, 20, 129, 18, 290, 1000, 3000, 0, 0], [-111, -62, 41, 98, 57, 137, 500, 2000, 0, 0]],
        distance: [[79, 38, 20, 2, -39, -79], [39, 17, -4, -11, -42, -33]],
        pair: [
            [
                 -48,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,
                 -15,  -56,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,
                   8,  -36,   -4,    0,    0,    0,    0,    0,    0,    0,    0,    0,
                   3,    2,  -45,  -66,    0,    0,    0,    0,    0,    0,    0,    0,
                 -34,  -51,  -45,  -99,  -83,    0,    0,    0,    0,    0,    0,    0,
                  54,    1,   11,  -28,   13,   93,    0,    0,    0,    0,    0,    0,
                 -15,  -66,   -6,  -13,   18,   85,  129,    0,    0,    0,    0,    0,
                 -24,  -76,  -19,  -30,   13,   99,  290,    0,    0,    0,    0,    0,
                   0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,
                   0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,
                   0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,
                   0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,
            ],
            [
                -111,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,
                 -93,  -20,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,
                  -4,    1,    9,    0,    0,    0,    0,    0,    0,    0,    0,    0,
                 -30,  -16,   11,  -65,    0,    0,    0,    0,    0,    0,    0,    0,
                 -44,  -36,  -27, -100, -103,    0,    0,    0,    0,    0,    0,    0,
                   5,  -23,   21,  -26,  -30,   23,    0,    0,    0,    0,    0,    0,
                   3,  -45,   42,    6,   40,   80,   98,    0,    0,    0,    0,    0,
                   5,  -31,   37,   -3,   60,   86,  137,    0,    0,    0,    0,    0,
                   0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,
                   0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,
                   0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,
                   0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,
            ],
        ],
    };

    /// What one colour's line shapes and class on a cell add to the prior: as the side to move (0) and
    /// as its opponent (1). `Position` keeps these per shape combination, so a candidate's score is two
    /// lookups and the distances.
    pub fn cell(&self, shapes: [Shape; 4], class: Class) -> [i32; 2] {
        [0, 1].map(|role| {
            let lines: i32 = shapes.iter().map(|&s| self.shape[role][s as usize]).sum();
            lines + self.class[role][class as usize] + self.pair[role][Shape::pair_index(shapes)]
        })
    }

    /// What a candidate `d` cells (Chebyshev, at least 1) from the last move (`role` 0) or the one
    /// before it (`role` 1) adds to the prior: moves near the fight come first.
    #[inline]
    pub fn distance(&self, role: usize, d: usize) -> i32 {
        self.distance[role][d.clamp(1, DISTANCES) - 1]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::position::Position;
    use crate::game::board::{Board, Color, Pos};
    use crate::game::pattern::Patterns;
    use crate::game::rules::Rules;
    use std::sync::Arc;

    fn position(diagram: &str) -> Position {
        let pats = Arc::new(Patterns::new(&Rules::from_mask(0, 5).0).expect("freestyle patterns"));
        Position::new(&Board::from_diagram(diagram).expect("diagram"), pats)
    }

    /// Black to move: (2, 2) makes a four on row 2 (closed by white's stone) and an open three on
    /// column 2; (1, 2) makes the same four without the three.
    const FOUR_THREE: &str = "
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . x x x o . . . .
        . . x . . . . . . . .
        . . x . . . . o . . .
        . . . . . . o . o . .
        . . . . . o . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        . . . . . . . . . . .
        ";

    fn best(pos: &Position) -> Pos {
        let i = pos.indices().filter(|&i| pos.is_empty(i) && pos.is_near(i)).max_by_key(|&i| pos.prior(i));
        pos.pos_of(i.expect("a candidate"))
    }

    #[test]
    fn black_makes_its_four_three_first() {
        let pos = position(FOUR_THREE);
        assert_eq!(best(&pos), Pos::new(2, 2));
    }

    #[test]
    fn the_position_keeps_the_prior_terms_of_every_cell() {
        // The table lookup behind `score` gives what the shapes and the class of each cell say.
        let pos = position(FOUR_THREE);
        for i in pos.indices().filter(|&i| pos.is_empty(i)) {
            for c in [Color::Black, Color::White] {
                let want = Prior::STANDARD.cell(pos.shapes(i, c), pos.class(i, c));
                for (role, &w) in want.iter().enumerate() {
                    assert_eq!(pos.prior_terms(i, c, role), w, "{}", pos.pos_of(i).notation());
                }
            }
        }
    }

    #[test]
    fn white_blocks_the_open_four_point() {
        // White to move against black's open three on row 5: the ends (c5, g5) are its four points.
        let pos = position(
            "
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . o . . .
            . . . x x x . . . . .
            . . . . . . . o . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            ",
        );
        let b = best(&pos);
        assert!(b == Pos::new(2, 5) || b == Pos::new(6, 5), "{}", b.notation());
    }
}
