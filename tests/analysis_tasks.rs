//! Yixin-Board's analysis tasks (`brain::analysis`) with the search player: the N best moves are
//! distinct and best first, a balanced pair is two legal stones.

use std::sync::atomic::AtomicBool;

use quincunx::brain::analysis::{Task, run};
use quincunx::game::board::{Board, Pos};
use quincunx::game::rules::Rules;
use quincunx::player::timeman::Budget;
use quincunx::player::{Limits, Player, Thought};
use quincunx::search::SearchPlayer;

fn limits(depth: u64) -> Limits {
    Limits { max_depth: Some(depth), ..Limits::new(Budget::unlimited(), 1, 16 << 20) }
}

#[test]
fn the_n_best_are_distinct_and_a_five_comes_first() {
    // Black to move with four in a row on h8-k8: the five is the best line.
    let board = Board::from_moves(15, 15, "h8a1i8a3j8a5k8a7").expect("a legal game");
    let rules = Rules::default();
    let a =
        run(&SearchPlayer::default(), &board, &rules, &limits(4), &AtomicBool::new(false), Task::NBest(4));
    let moves: Vec<Pos> = a.lines.iter().map(|l| l.mv).collect();
    assert_eq!(moves.len(), 4);
    assert!(["g8", "l8"].contains(&moves[0].notation().as_str()), "{moves:?}");
    assert!(moves.iter().enumerate().all(|(i, m)| !moves[..i].contains(m)), "{moves:?}");
    assert_eq!(a.thought.mv, Some(moves[0]));
}

#[test]
fn a_balanced_pair_is_two_legal_stones() {
    let board = Board::from_moves(15, 15, "h8i9i8g9").expect("a legal game");
    let rules = Rules::default();
    let task = Task::Balance { two: true, bias: 0 };
    let a = run(&SearchPlayer::default(), &board, &rules, &limits(2), &AtomicBool::new(false), task);
    let (first, second) = (a.thought.mv.expect("a stone"), a.second.expect("its answer"));
    assert!(board.is_empty(first) && board.is_empty(second) && first != second);
}

/// A player whose later choices score higher: it plays the first of its moves not excluded, with that
/// move's fixed score.
struct Rising;

const RISING: [(&str, i32); 3] = [("h8", 10), ("i9", 30), ("j10", 20)];

impl Player for Rising {
    fn name(&self) -> String {
        "rising".into()
    }
    fn think(&self, _: &Board, _: &Rules, limits: &Limits, _: &AtomicBool) -> Thought {
        let pick = RISING.iter().find(|(m, _)| !limits.exclude.iter().any(|p| p.notation() == *m));
        let pick = pick.map(|&(m, score)| (Pos::from_notation(m), score));
        match pick {
            Some((mv, score)) => Thought { mv, score: Some(score), depth: 2, ..Thought::default() },
            None => Thought::default(),
        }
    }
}

#[test]
fn the_n_best_are_listed_best_first_whatever_order_the_searches_found_them_in() {
    let board = Board::new(15, 15).expect("a board");
    let a = run(&Rising, &board, &Rules::default(), &limits(2), &AtomicBool::new(false), Task::NBest(3));
    let listed: Vec<(String, i32)> = a.lines.iter().map(|l| (l.mv.notation(), l.score)).collect();
    assert_eq!(listed, [("i9".to_string(), 30), ("j10".to_string(), 20), ("h8".to_string(), 10)]);
    assert_eq!(a.thought.mv.map(|p| p.notation()), Some("i9".to_string()), "the best line is played");
}
