//! Every case of tests/data/pente/pente-tests.json (pente.org's own rule tests and a real game won
//! by captures), played through the library's rules and board, and again through the search's
//! incremental position (checked against a fresh one after every move and every undo).

mod common;

use std::sync::Arc;

use common::{Json, read_data};
use quincunx::eval::position::Position;
use quincunx::game::board::{Board, Color, Pos};
use quincunx::game::pattern::Patterns;
use quincunx::game::rules::{Rules, Verdict};

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

/// Plays the moves as a referee would; returns the board and the winner if the last move won.
fn play(rules: &Rules, moves: &[Json]) -> (Board, Option<Color>) {
    let mut board = Board::new(19, 19).unwrap();
    board.set_capture(rules.capture_rule());
    let mut winner = None;
    for (n, m) in moves.iter().enumerate() {
        assert!(winner.is_none(), "move {n} after the game was won");
        let p = pente_pos(m.str(), 19);
        assert!(board.is_empty(p), "move {n} {} on an occupied point", m.str());
        let side = board.side_to_move();
        match rules.verdict(&board, p) {
            Verdict::Win => winner = Some(side),
            Verdict::Continue => {}
            other => panic!("move {n} {}: {other:?}", m.str()),
        }
        board.try_play(p.x as i64, p.y as i64).unwrap();
    }
    (board, winner)
}

#[test]
fn every_pente_case() {
    let cases = Json::parse(&read_data("pente/pente-tests.json"));
    let mut checked = 0;
    for case in cases.arr() {
        let id = case.get("id").str();
        let rules = rules_of(case.get("game").str());
        let expect = case.get("expect");
        let (board, winner) = play(&rules, case.get("moves").arr());
        let exp = expect.obj();
        if let Some(n) = exp.get("captured_stones_p1") {
            assert_eq!(board.captured(Color::Black), n.num() as usize, "{id}: player 1's captures");
            checked += 1;
        }
        if let Some(n) = exp.get("captured_stones_p2") {
            assert_eq!(board.captured(Color::White), n.num() as usize, "{id}: player 2's captures");
            checked += 1;
        }
        if let Some(over) = exp.get("game_over") {
            assert_eq!(winner.is_some(), over.bool(), "{id}: game over");
            checked += 1;
        }
        if let Some(w) = exp.get("winner") {
            let want = if w.num() as i64 == 1 { Color::Black } else { Color::White };
            assert_eq!(winner, Some(want), "{id}: winner");
            checked += 1;
        }
        for (key, legal) in [("illegal_third_move", false), ("legal_third_move", true)] {
            for m in exp.get(key).map_or(&[][..], |v| v.arr()) {
                let p = pente_pos(m.str(), 19);
                assert_eq!(rules.opening_error(&board, p).is_none(), legal, "{id}: {} legal?", m.str());
                checked += 1;
            }
        }
    }
    assert!(checked >= 12, "only {checked} expectations checked");
}

#[test]
fn the_search_position_follows_captures_move_by_move() {
    let cases = Json::parse(&read_data("pente/pente-tests.json"));
    let game = cases.arr().iter().find(|c| c.get("id").str() == "pente-jeff-hardy-game").unwrap();
    let rules = rules_of(game.get("game").str());
    let pats = Arc::new(Patterns::new(&rules).unwrap());
    let mut board = Board::new(19, 19).unwrap();
    board.set_capture(rules.capture_rule());
    let mut pos = Position::new(&board, Arc::clone(&pats));
    let moves = game.get("moves").arr();
    for (n, m) in moves.iter().enumerate() {
        let p = pente_pos(m.str(), 19);
        pos.play(pos.index(p));
        pos.debug_validate().unwrap_or_else(|e| panic!("after move {n} {}: {e}", m.str()));
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
