//! Boards wider than 26 columns name every column, in every tool, and read the names back: `a` to `z`,
//! then `aa`, `ab`, ... (`Pos::notation`). A 32x32 game goes through `play`, `analyze`, `openings` and
//! the board in the browser.

mod common;

use std::process::Command;

use quincunx::game::board::Pos;

const BIN: &str = env!("CARGO_BIN_EXE_pbrain-quincunx");

/// The name of every column of a 32-wide board, in order.
fn all_columns() -> Vec<String> {
    (0..32).map(|x| Pos::new(x, 0).notation().trim_end_matches('1').to_string()).collect()
}

#[test]
fn column_names_run_from_a_to_af_and_all_differ() {
    let names = all_columns();
    assert_eq!(names[..3], ["a", "b", "c"]);
    assert_eq!(names[25..], ["z", "aa", "ab", "ac", "ad", "ae", "af"]);
    assert!(names.iter().all(|n| n.chars().all(|c| c.is_ascii_lowercase())));
}

#[test]
fn play_takes_and_shows_a_square_past_z() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let out = common::output_with_input(
        Command::new(BIN).args(["play", "--size", "32", "--depth", "1", "--seed", "3"]).current_dir(dir),
        b"tails\nAE32\nsave s.sav\nquit\n",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let after = &text[text.find("Your move: AE32").expect("AE32 was typed")..];
    // The bottom row carries the stone in the 31st column.
    let row = after.lines().find(|l| l.trim_start().starts_with("32  ")).expect("row 32");
    let cells: Vec<char> = row.trim_start()[4..].chars().step_by(2).collect();
    assert!("●◉○◎".contains(cells[30]), "{row}");
    // The saved move reads back as the same point.
    let saved = std::fs::read_to_string(dir.join("s.sav")).unwrap();
    let first = saved.lines().find_map(|l| l.strip_prefix("moves ")).unwrap().split(' ').next().unwrap();
    assert_eq!(Pos::from_notation(first), Some(Pos::new(30, 31)));
}

#[test]
fn analyze_names_moves_past_z() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    // Black makes five on the bottom row from ab32 to af32 (PSQ counts from 1).
    let moves = ["28,32", "28,30", "29,32", "29,30", "30,32", "30,30", "31,32", "31,30", "32,32"];
    let psq =
        format!("Piskvorky 32x32, 11:11, 0\n{}\nblack\nwhite\n", moves.map(|m| format!("{m},10")).join("\n"));
    let file = dir.join("wide.psq");
    std::fs::write(&file, psq).unwrap();
    let out = Command::new(BIN)
        .args(["analyze", "--time", "30", "--no-svg"])
        .arg(&file)
        .output()
        .expect("the binary starts");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    let played: Vec<&str> = text
        .lines()
        .filter_map(|l| l.split_whitespace().nth(2).filter(|_| l.trim_start().starts_with(char::is_numeric)))
        .collect();
    assert_eq!(played, ["ab32", "ab30", "ac32", "ac30", "ad32", "ad30", "ae32", "ae30", "af32"], "{text}");
}

#[test]
fn openings_in_pos_notation_read_back_on_a_32_board() {
    let out = Command::new(BIN)
        .args(["openings", "--count", "4", "--size", "32", "--seed", "5", "--depth", "2", "--margin", "200"])
        .args(["--format", "pos"])
        .output()
        .expect("the binary starts");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let stones = Pos::parse_list(line.trim()).unwrap_or_else(|e| panic!("{line}: {e}"));
        assert!(stones.iter().all(|p| p.x < 32 && p.y < 32), "{line}");
        let again: String = stones.iter().map(|p| p.notation()).collect();
        assert_eq!(again, line.trim());
    }
}

#[cfg(feature = "board")]
#[test]
fn the_board_names_and_takes_points_past_z() {
    let server = common::board::Server::start(&[]);
    let (status, s) = server.post("/api/new", r#"{"rule": "freestyle", "size": 32, "human": "both"}"#);
    assert_eq!(status, 200, "{s}");
    let (status, s) = server.post("/api/move", r#"{"point": "ae32"}"#);
    assert_eq!(status, 200, "{s}");
    let stone = &s["stones"][0];
    assert_eq!((stone[0].as_u64(), stone[1].as_u64()), (Some(30), Some(31)), "{s}");
}
