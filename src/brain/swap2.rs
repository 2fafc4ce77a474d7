//! Swap2 opening decisions (the SWAP2BOARD command, played under exact-five rules in Gomocup).
//!
//! The three stages, by the number of stones listed:
//! - 0: we propose the first three stones (black, white, black);
//! - 3: we are the second player: take black (`SWAP`), or stay white and play the fourth stone, or place
//!   the fourth and fifth stones and let the opponent choose;
//! - 5: we proposed, the opponent added two stones: take black (`SWAP`) or play white's sixth stone.
//!
//! Decisions compare the weight-matrix potential of both sides: whoever would be far ahead is the
//! colour to take. Invariant: a `Stones` answer lists empty, distinct points of the given position.

use std::fmt;

use crate::eval::weights::WeightMatrix;
use crate::game::board::{Board, Color, Pos};
use crate::game::rules::Rules;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Swap2Answer {
    Swap,
    Stones(Vec<Pos>),
}

impl fmt::Display for Swap2Answer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Swap2Answer::Swap => f.write_str("SWAP"),
            Swap2Answer::Stones(ps) => {
                let parts: Vec<String> = ps.iter().map(Pos::to_string).collect();
                f.write_str(&parts.join(" "))
            }
        }
    }
}

/// How much stronger black's best point must be than white's before we prefer black.
const BLACK_EDGE: f64 = 1.5;

/// The best weight-matrix point's weight for `color` on `board`.
fn potential(board: &Board, rules: &Rules, color: Color) -> i64 {
    let m = WeightMatrix::default().matrix(board, rules, color);
    m.into_iter().max().unwrap_or(0)
}

/// The swap2 answer for the listed opening (`board` holds the stones, black first).
pub fn decide(board: &Board, rules: &Rules) -> Result<Swap2Answer, String> {
    let (w, h) = (board.width(), board.height());
    match board.stone_count() {
        0 => {
            // A quiet, roughly balanced opening around the centre (the protocol's own example shape).
            let (cx, cy) = (w / 2, h / 2);
            Ok(Swap2Answer::Stones(vec![Pos::new(cx, cy), Pos::new(cx + 1, cy), Pos::new(cx + 2, cy + 2)]))
        }
        3 | 5 => {
            let black = potential(board, rules, Color::Black) as f64;
            let white = potential(board, rules, Color::White) as f64;
            if black > white * BLACK_EDGE {
                return Ok(Swap2Answer::Swap);
            }
            let (p, _) = WeightMatrix::default().choose(board, rules).ok_or("the board is full")?;
            Ok(Swap2Answer::Stones(vec![p]))
        }
        n => Err(format!("SWAP2BOARD takes 0, 3 or 5 stones, not {n}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_stage_proposes_three_stones() {
        let b = Board::new(15, 15).unwrap();
        let a = decide(&b, &Rules::from_mask(1, 5).0).unwrap();
        assert_eq!(a.to_string(), "7,7 8,7 9,9");
    }

    #[test]
    fn other_counts_are_refused() {
        let mut b = Board::new(15, 15).unwrap();
        b.try_play(7, 7).unwrap();
        assert!(decide(&b, &Rules::default()).is_err());
    }

    #[test]
    fn a_move_is_on_an_empty_point() {
        let mut b = Board::new(15, 15).unwrap();
        for (x, y) in [(7, 7), (8, 7), (9, 9)] {
            b.try_play(x, y).unwrap();
        }
        match decide(&b, &Rules::from_mask(1, 5).0).unwrap() {
            Swap2Answer::Swap => {}
            Swap2Answer::Stones(ps) => assert!(ps.iter().all(|&p| b.is_empty(p))),
        }
    }
}
