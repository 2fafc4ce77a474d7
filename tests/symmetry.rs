//! The board has eight symmetries (four rotations, each mirrored), and none of the rules tells them
//! apart: a position turned or mirrored must get the same evaluation, the same move prior on the
//! corresponding cells, and the same classes (renju fouls included). The line shapes are kept per
//! direction and updated incrementally, so a slip in one direction's bookkeeping or at one edge of the
//! board shows here as a position whose turned copy is judged differently.
//!
//! The positions are the test data's (tests/data): the VCF sets (freestyle, exact five) and the renju foul
//! set.
//! Freestyle and exact five also treat the colours alike: swapping them changes nothing either.

mod common;

use std::sync::Arc;

use common::{game_of, position, read_json_lines};
use quincunx::eval::position::Position;
use quincunx::eval::score::evaluate;
use quincunx::game::board::{Board, Cell, Color, Pos};
use quincunx::game::pattern::Class;
use quincunx::game::pattern::Patterns;
use quincunx::game::rules::Rules;

/// Symmetry `s` (0-7) of a point on an `n` x `n` board: bit 2 swaps the axes, bits 0 and 1 mirror
/// them.
fn turned(s: usize, p: Pos, n: usize) -> Pos {
    let (x, y) = (p.x as usize, p.y as usize);
    let (x, y) = if s & 4 != 0 { (y, x) } else { (x, y) };
    let x = if s & 1 != 0 { n - 1 - x } else { x };
    let y = if s & 2 != 0 { n - 1 - y } else { y };
    Pos::new(x, y)
}

/// The same stones under symmetry `s`, each colour's in the same order (the prior reads the last
/// two moves); with `swap`, black's stones become white's and white's black.
fn rebuilt_board(board: &Board, s: usize, swap: bool) -> Board {
    let n = board.width();
    let stones = |c: Color| -> Vec<Pos> {
        board
            .history()
            .iter()
            .filter(|&&p| board.get(p) == Cell::Stone(c))
            .map(|&p| turned(s, p, n))
            .collect()
    };
    let (black, white) = if swap { (Color::White, Color::Black) } else { (Color::Black, Color::White) };
    let mut out = Board::new(n as i64, n as i64).expect("the original's size");
    out.set_position(&stones(black), &stones(white), &[]).expect("the original's stones");
    out
}

/// What must not change: the evaluation, and per cell of the original (read at its turned point)
/// the move prior of a candidate and both colours' classes.
fn judged(board: &Board, pats: &Arc<Patterns>, s: usize) -> (i32, Vec<(i32, Class, Class)>) {
    let other = rebuilt_board(board, s, false);
    let pos = Position::new(&other, Arc::clone(pats));
    let n = board.width();
    let cells = board
        .points()
        .map(|p| {
            let i = pos.index(turned(s, p, n));
            let prior = if pos.is_empty(i) && pos.is_near(i) { pos.prior(i) } else { 0 };
            (prior, pos.class(i, Color::Black), pos.class(i, Color::White))
        })
        .collect();
    (evaluate(&pos), cells)
}

/// Checks every position of `boards` under `rules` and returns how many were checked.
fn check_all(boards: &[Board], rules: &Rules, what: &str) -> usize {
    let pats = Arc::new(Patterns::new(rules).expect("tables for the rule"));
    for (k, board) in boards.iter().enumerate() {
        let original = judged(board, &pats, 0);
        for s in 1..8 {
            let other = judged(board, &pats, s);
            assert_eq!(original.0, other.0, "{what} position {k}: the evaluation differs under symmetry {s}");
            assert!(
                original.1 == other.1,
                "{what} position {k}: a cell's prior or class differs under symmetry {s}"
            );
        }
    }
    boards.len()
}

fn vcf_boards(file: &str) -> Vec<Board> {
    read_json_lines(file).iter().map(game_of).collect()
}

#[test]
fn freestyle_positions_look_the_same_from_every_side() {
    let n = check_all(&vcf_boards("vcf/vcf-freestyle15.jsonl"), &Rules::from_mask(0, 5).0, "freestyle");
    assert!(n > 20, "the freestyle set has its positions: {n}");
}

#[test]
fn exact_five_positions_look_the_same_from_every_side() {
    let n = check_all(&vcf_boards("vcf/vcf-standard15.jsonl"), &Rules::from_mask(1, 5).0, "exact five");
    assert!(n > 20, "the exact-five set has its positions: {n}");
}

#[test]
fn renju_fouls_look_the_same_from_every_side() {
    // The foul set's positions are stone lists; the first 200 keep the test quick.
    let boards: Vec<Board> = read_json_lines("renju/forbidden-random1000.jsonl")
        .iter()
        .take(200)
        .map(|r| position(15, &r["black"], &r["white"]))
        .collect();
    let n = check_all(&boards, &Rules::from_mask(4, 5).0, "renju");
    assert_eq!(n, 200);
}

/// Freestyle and exact five treat the colours alike: with black's stones white's and white's black, the
/// side to move has the same stones, so the evaluation and every cell's classes (the colours swapped)
/// must not change. A slip that favoured one colour (a renju rule leaking into freestyle, say) would
/// show only in the games of that colour.
#[test]
fn colours_swapped_look_the_same_in_freestyle_and_exact_five() {
    for (file, mask) in [("vcf/vcf-freestyle15.jsonl", 0), ("vcf/vcf-standard15.jsonl", 1)] {
        let rules = Rules::from_mask(mask, 5).0;
        let pats = Arc::new(Patterns::new(&rules).expect("tables"));
        let mut checked = 0;
        for (k, board) in vcf_boards(file).iter().enumerate() {
            if board.side_to_move() != Color::White {
                continue;
            }
            let other = rebuilt_board(board, 0, true);
            assert_eq!(other.side_to_move(), Color::Black);
            let a = Position::new(board, Arc::clone(&pats));
            let b = Position::new(&other, Arc::clone(&pats));
            assert_eq!(evaluate(&a), evaluate(&b), "{file} {k}");
            for p in board.points() {
                let i = a.index(p);
                assert_eq!(a.class(i, Color::White), b.class(i, Color::Black), "{file} {k}");
                assert_eq!(a.class(i, Color::Black), b.class(i, Color::White), "{file} {k}");
            }
            checked += 1;
        }
        assert!(checked > 10, "{file} has positions with white to move: {checked}");
    }
}
