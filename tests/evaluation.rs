//! The static evaluation: what its fitted terms must say about plain shapes, and that whose move it
//! is counts (the side to move cashes its threats first).

use std::sync::Arc;

use quincunx::eval::position::Position;
use quincunx::eval::score::evaluate;
use quincunx::game::board::Board;
use quincunx::game::pattern::Class;
use quincunx::game::pattern::Patterns;
use quincunx::game::rules::Rules;

fn freestyle(diagram: &str) -> Position {
    let board = Board::from_diagram(diagram).expect("a valid diagram");
    let rules = Rules::from_mask(0, 5).0;
    let pats = Patterns::new(&rules).expect("freestyle tables");
    Position::new(&board, Arc::new(pats))
}

/// Black's `*` makes a closed four on its row and an open three on its column: a four-three point.
/// White's stones are two loose twos. Stone counts are equal, so black is to move.
const FOUR_THREE: &str = "
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . o o . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . x . . . . . .
    . . . . . . . . x . . . . . .
    . . . . o x x x . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . o o .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
";

#[test]
fn a_four_three_point_is_worth_most_to_the_side_to_move() {
    let mut pos = freestyle(FOUR_THREE);
    let me = pos.side();
    assert_eq!(pos.count(me, Class::B4F3), 1, "the diagram has one four-three point for black");
    // Black's view with black to move, then with white to move (a pass).
    let black_moves = evaluate(&pos);
    pos.pass();
    let white_moves = -evaluate(&pos);
    assert!(black_moves > 300, "black to move with a four-three point: {black_moves}");
    assert!(white_moves > 0, "black is still better when white must block: {white_moves}");
    assert!(
        black_moves > white_moves + 300,
        "the point is worth far more to the side to move: {black_moves} against {white_moves}"
    );
}

#[test]
fn an_open_three_of_the_side_that_waits_counts_against_the_mover() {
    // White to move (black has one stone more); black has an open three on row 7.
    let pos = freestyle(
        "
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . o . . . . . . .
        . . . . . . x x x . . . . . .
        . . . . . . . o . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
    ",
    );
    let me = pos.side();
    assert!(pos.count(me.opp(), Class::Flex4) > 0, "black's three has open-four points");
    let v = evaluate(&pos);
    assert!(v < 0, "white to move against an open three: {v}");
}
