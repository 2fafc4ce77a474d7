//! `calibrate` against our own brain: every position timed once, after an untimed first search, and
//! the node count for a time in proportion to it.

use quincunx::game::board::Board;
use quincunx::game::rules::Rules;
use quincunx::tools::matches::calibrate::calibrate;

#[test]
fn every_position_is_timed_and_gives_a_count_for_a_time() {
    let boards: Vec<Board> = ["h8i9j10", "h8i9h9i8h10h7", "a1b2c3"]
        .iter()
        .map(|m| Board::from_moves(15, 15, m).expect("moves"))
        .collect();
    let ours = vec![env!("CARGO_BIN_EXE_pbrain-quincunx").to_string()];
    let c = calibrate(&ours, &Rules::default(), &boards, 3000).expect("it answers every position");
    assert_eq!((c.nodes, c.times.len()), (3000, 3));
    assert!(c.nodes_for(300) > 0 && c.nodes_for(600) >= 2 * c.nodes_for(300) - 1);
    let absent = vec!["/nonexistent/engine".to_string()];
    assert!(calibrate(&absent, &Rules::default(), &boards, 3000).is_err());
}
