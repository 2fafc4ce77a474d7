//! Every case of tests/data/pente/pente-tests.json (pente.org's own rule tests and a real game won
//! by captures), played through the library's rules and board, and again through the search's
//! incremental position (checked against a fresh one after every move and every undo).

mod common;

use std::sync::Arc;

use common::read_json_list;
use quincunx::eval::position::Position;
use quincunx::game::board::{Board, Color, Pos};
use quincunx::game::pattern::Patterns;
use quincunx::game::rules::{Rules, Verdict};
use serde_json::Value;

/// pente.org notation: columns A..T without I, row 1 at the bottom (K10 is the centre of 19x19).
fn pente_pos(s: &str, size: usize) -> Pos {
    const COLUMNS: &str = "ABCDEFGHJKLMNOPQRST";
    let s = s.to_ascii_uppercase();
    let x = COLUMNS.find(&s[..1]).unwrap_or_else(|| panic!("bad column in {s}"));
    let row: usize = s[1..].parse().unwrap_or_else(|_| panic!("bad row in {s}"));
    Pos::new(x, size - row)
}

fn rules_of(game: &str) -> Rules {
    match game {
        "Pente" => Rules::pente(false),
        "Keryo-Pente" => Rules::pente(true),
        "G-Pente" => Rules::g_pente(),
        other => panic!("no rules for {other}"),
    }
}

/// A JSON list of moves in pente.org notation.
fn moves(list: &Value) -> Vec<String> {
    serde_json::from_value(list.clone()).expect("a list of moves")
}

/// Plays the moves as a referee would; returns the board and the winner if the last move won.
fn play(rules: &Rules, moves: &[String]) -> (Board, Option<Color>) {
    let mut board = Board::new(19, 19).unwrap();
    board.set_capture(rules.capture_rule());
    let mut winner = None;
    for (n, m) in moves.iter().enumerate() {
        assert!(winner.is_none(), "move {n} after the game was won");
        let p = pente_pos(m, 19);
        assert!(board.is_empty(p), "move {n} {m} on an occupied point");
        let side = board.side_to_move();
        match rules.verdict(&board, p) {
            Verdict::Win => winner = Some(side),
            Verdict::Continue => {}
            other => panic!("move {n} {m}: {other:?}"),
        }
        board.try_play(p.x as i64, p.y as i64).unwrap();
    }
    (board, winner)
}

#[test]
fn every_pente_case() {
    let mut checked = 0;
    for case in read_json_list("pente/pente-tests.json") {
        let id = &case["id"];
        let rules = rules_of(case["game"].as_str().expect("a game"));
        let (board, winner) = play(&rules, &moves(&case["moves"]));
        let exp = case["expect"].as_object().expect("expectations");
        if let Some(n) = exp.get("captured_stones_p1") {
            assert_eq!(*n, board.captured(Color::Black), "{id}: player 1's captures");
            checked += 1;
        }
        if let Some(n) = exp.get("captured_stones_p2") {
            assert_eq!(*n, board.captured(Color::White), "{id}: player 2's captures");
            checked += 1;
        }
        if let Some(over) = exp.get("game_over") {
            assert_eq!(*over, winner.is_some(), "{id}: game over");
            checked += 1;
        }
        if let Some(w) = exp.get("winner") {
            let want = if *w == 1 { Color::Black } else { Color::White };
            assert_eq!(winner, Some(want), "{id}: winner");
            checked += 1;
        }
        for (key, legal) in [("illegal_third_move", false), ("legal_third_move", true)] {
            for m in exp.get(key).map(moves).unwrap_or_default() {
                let p = pente_pos(&m, 19);
                assert_eq!(rules.opening_error(&board, p).is_none(), legal, "{id}: {m} legal?");
                checked += 1;
            }
        }
    }
    assert!(checked >= 12, "only {checked} expectations checked");
}

#[test]
fn the_search_position_follows_captures_move_by_move() {
    let cases = read_json_list("pente/pente-tests.json");
    let game = cases.iter().find(|c| c["id"] == "pente-jeff-hardy-game").expect("the game");
    let rules = rules_of(game["game"].as_str().expect("a game"));
    let pats = Arc::new(Patterns::new(&rules).unwrap());
    let mut board = Board::new(19, 19).unwrap();
    board.set_capture(rules.capture_rule());
    let mut pos = Position::new(&board, Arc::clone(&pats));
    let moves = moves(&game["moves"]);
    for (n, m) in moves.iter().enumerate() {
        let p = pente_pos(m, 19);
        pos.play(pos.index(p));
        pos.debug_validate().unwrap_or_else(|e| panic!("after move {n} {m}: {e}"));
    }
    assert_eq!(pos.captured(Color::Black), 10);
    assert_eq!(pos.captured(Color::White), 8);
    for n in (0..moves.len()).rev() {
        pos.undo();
        pos.debug_validate().unwrap_or_else(|e| panic!("after undoing move {n}: {e}"));
    }
    assert_eq!(pos.ply(), 0);
    assert_eq!(pos.captured(Color::Black), 0);
}

#[test]
fn captures_count_and_undo_on_the_board() {
    // Keryo captures a triple as well; Pente leaves it.
    let line = ["K10", "L10", "A1", "M10", "A2", "N10", "O10"];
    for (rules, taken) in [(Rules::pente(false), 0), (Rules::pente(true), 3)] {
        let mut board = Board::new(19, 19).unwrap();
        board.set_capture(rules.capture_rule());
        for m in line {
            let p = pente_pos(m, 19);
            board.try_play(p.x as i64, p.y as i64).unwrap();
        }
        assert_eq!(board.captured(Color::Black), taken, "{rules}");
        let before = board.count(Color::White);
        board.undo();
        assert_eq!(board.captured(Color::Black), 0);
        assert_eq!(board.count(Color::White), before + taken);
    }
}
