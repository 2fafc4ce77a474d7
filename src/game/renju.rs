//! Renju's forbidden points for black (the RIF rules' article on them), as the Gomocup referee reads them.
//!
//! A black move that does not make an exact five is forbidden when it makes
//! - a double-four: two or more fours, counting two fours on one line (`x . x x x . x` with the move in
//!   the middle of the three);
//! - a double-three: two or more *real* threes, on different lines;
//! - an overline: six or more in a row.
//!
//! A three is real when some empty point q on its line turns it into a straight four (`. x x x x .`, both
//! ends completing an exact five) such that q does not itself make a five anywhere (the RIF definition
//! "without at the same time a five in a row is made", GomocupJudge's and Rapfi's reading of the disputed
//! case) and q is not itself forbidden, checked recursively on the board with the move played.
//!
//! Invariant: the functions here try stones on the board and always take them back before returning, so
//! the board they were given is unchanged.

use std::fmt;

use crate::game::board::{Board, Cell, Color, DIRECTIONS, Pos};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Forbidden {
    DoubleThree,
    DoubleFour,
    Overline,
}

impl fmt::Display for Forbidden {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Forbidden::DoubleThree => "double-three",
            Forbidden::DoubleFour => "double-four",
            Forbidden::Overline => "overline",
        })
    }
}

const BLACK: Cell = Cell::Stone(Color::Black);

/// Whether a black stone on the empty point `p` is forbidden, and why.
pub fn forbidden(board: &Board, p: Pos) -> Option<Forbidden> {
    if !board.is_empty(p) {
        return None;
    }
    // Work on a copy: the recursion places and removes stones.
    let mut scratch = board.clone();
    scratch.set(p, BLACK);
    classify(&mut scratch, p)
}

/// `p` holds a black stone that was just placed: classify it. The board is restored on return.
fn classify(board: &mut Board, p: Pos) -> Option<Forbidden> {
    // Step 1. An exact five wins and is never forbidden.
    if makes_exact_five(board, p) {
        return None;
    }
    // Step 2. Fours, counted per line.
    let mut fours = 0;
    let mut four_line = [false; 4];
    for (i, &d) in DIRECTIONS.iter().enumerate() {
        let n = fours_on_line(board, p, d);
        fours += n;
        four_line[i] = n > 0;
    }
    if fours >= 2 {
        return Some(Forbidden::DoubleFour);
    }
    // Step 3. Overline (cheap, so before the recursive three test; a position with both an overline and
    // a double-three is forbidden either way).
    if DIRECTIONS.iter().any(|&d| board.run_through(p, d, Color::Black) >= 6) {
        return Some(Forbidden::Overline);
    }
    // Step 4. Real threes on lines that are not already fours.
    let mut threes = 0;
    for (i, &d) in DIRECTIONS.iter().enumerate() {
        if !four_line[i] && is_real_three(board, p, d) {
            threes += 1;
            if threes >= 2 {
                return Some(Forbidden::DoubleThree);
            }
        }
    }
    None
}

/// Whether the black stone at `p` is part of an unbroken row of exactly five.
fn makes_exact_five(board: &Board, p: Pos) -> bool {
    DIRECTIONS.iter().any(|&d| board.run_through(p, d, Color::Black) == 5)
}

/// Steps from `p` along `d`, `n` cells (may be negative); `None` off the board.
#[inline]
fn step(board: &Board, p: Pos, d: (i32, i32), n: i32) -> Option<Pos> {
    board.pos((p.x as i32 + d.0 * n) as i64, (p.y as i32 + d.1 * n) as i64)
}

/// Tries a black stone on each empty point `q` within `reach` of `p` on the line `d` (not `p` itself),
/// from the far end behind `p` to the far end ahead: `found(board, k, q)` is asked with the stone on
/// `q`, `k` steps from `p`, and the stone is taken back. Whether some try was found (the walk stops at
/// the first).
fn tries_on_line(
    board: &mut Board,
    p: Pos,
    d: (i32, i32),
    reach: i32,
    mut found: impl FnMut(&mut Board, i32, Pos) -> bool,
) -> bool {
    for k in -reach..=reach {
        if k == 0 {
            continue;
        }
        let Some(q) = step(board, p, d, k) else { continue };
        if !board.is_empty(q) {
            continue;
        }
        board.set(q, BLACK);
        let hit = found(board, k, q);
        board.set(q, Cell::Empty);
        if hit {
            return true;
        }
    }
    false
}

/// The number of fours through the black stone at `p` on the line `d`: the empty points whose filling
/// makes an exact five containing `p`, where the two ends of a straight four (`. x x x x .`, five apart)
/// count as one four.
fn fours_on_line(board: &mut Board, p: Pos, d: (i32, i32)) -> usize {
    let mut points = [0i32; 8];
    let mut n = 0;
    tries_on_line(board, p, d, 4, |board, k, q| {
        // The five must contain p: every cell between p and q is black (q included now).
        let contiguous =
            (1..k.abs()).all(|i| step(board, p, d, i * k.signum()).is_some_and(|c| board.get(c) == BLACK));
        if contiguous && board.run_through(q, d, Color::Black) == 5 {
            points[n] = k;
            n += 1;
        }
        false
    });
    if n == 2 && (points[1] - points[0]).abs() == 5 { 1 } else { n }
}

/// Whether the black stone at `p` makes a real three on the line `d` (see the module doc).
fn is_real_three(board: &mut Board, p: Pos, d: (i32, i32)) -> bool {
    tries_on_line(board, p, d, 3, |board, _, q| {
        makes_straight_four(board, p, q, d) && !makes_exact_five(board, q) && classify(board, q).is_none()
    })
}

/// With black stones on `p` and `q`, whether the line `d` holds a straight four through both: an unbroken
/// row of exactly four, each end empty, and filling either end gives an exact five.
fn makes_straight_four(board: &Board, p: Pos, q: Pos, d: (i32, i32)) -> bool {
    let back = (-d.0, -d.1);
    let ahead = board.run_from(p, d, Color::Black) as i32;
    let behind = board.run_from(p, back, Color::Black) as i32;
    if ahead + behind + 1 != 4 {
        return false;
    }
    // q must be inside the run (it is the stone that made the four).
    let inside = (-behind..=ahead).any(|i| step(board, p, d, i) == Some(q));
    if !inside {
        return false;
    }
    let end_ok = |end: i32, dir: i32| {
        let e = step(board, p, d, end);
        let beyond = board.at(p.x as i32 + d.0 * (end + dir), p.y as i32 + d.1 * (end + dir));
        e.is_some_and(|e| board.is_empty(e)) && beyond != BLACK
    };
    end_ok(ahead + 1, 1) && end_ok(-behind - 1, -1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(text: &str) -> Board {
        text.parse().unwrap()
    }

    /// The point marked `*` in a diagram (read as empty) and the board without it.
    fn marked(text: &str) -> (Board, Pos) {
        let rows: Vec<&str> = text.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
        for (y, row) in rows.iter().enumerate() {
            if let Some(x) = row.chars().filter(|c| !c.is_whitespace()).position(|c| c == '*') {
                return (board(&text.replace('*', ".")), Pos::new(x, y));
            }
        }
        panic!("no * in diagram")
    }

    #[test]
    fn simple_double_three() {
        let (b, p) = marked(
            "
            . . . . . . . . .
            . . . . . . . . .
            . . . . x . . . .
            . . . x * . . . .
            . . . . x . . . .
            . . . . . . . . .
            . . . . . . . . .",
        );
        assert_eq!(forbidden(&b, p), None, "one three (vertical) and a two (horizontal)");
        let (b2, p2) = marked(
            "
            . . . . . . . . .
            . . . . x . . . .
            . . . . x . . . .
            . . x x * . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .",
        );
        assert_eq!(forbidden(&b2, p2), Some(Forbidden::DoubleThree));
    }

    #[test]
    fn three_closed_by_white_is_not_a_three() {
        let (b, p) = marked(
            "
            . . . . . . . . .
            . . . . x . . . .
            . . . . x . . . .
            . o x x * . o . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .",
        );
        assert_eq!(forbidden(&b, p), None, "o x x * . o: no straight four can be made");
    }

    #[test]
    fn double_four_on_one_line() {
        let (b, p) = marked(
            "
            . . . . . . . . . . .
            . x . x * x . x . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .",
        );
        assert_eq!(forbidden(&b, p), Some(Forbidden::DoubleFour));
    }

    #[test]
    fn overline_and_five_beats_it() {
        let (b, p) = marked(
            "
            . . . . . . . . . .
            x x x * x x . . . .
            . . . . . . . . . .
            . . . . . . . . . .
            . . . . . . . . . .",
        );
        assert_eq!(forbidden(&b, p), Some(Forbidden::Overline));
        let (b, p) = marked(
            "
            . . . . . . . . . .
            . x x * x x . . . .
            . . . . . . . . . .
            . . . . . . . . . .
            . . . . . . . . . .",
        );
        assert_eq!(forbidden(&b, p), None, "exact five");
    }
}
