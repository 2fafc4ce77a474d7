//! `pbrain-quincunx analyze` through its real binary: a hand-made game in which white lets black's four
//! through is read as a move list, a PSQ file and an SGF collection, and white's move is marked; the
//! chart is well-formed with one point a move; broken records, faulty brains and command-line mistakes
//! end with status 1 or 2, never a panic or a hang. Searches take 50 ms a position.

use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

mod common;
use common::output_within_deadline;

const BIN: &str = env!("CARGO_BIN_EXE_pbrain-quincunx");

fn game(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/games").join(name).display().to_string()
}

fn fault_engine(name: &str) -> String {
    common::fault_engine_command(name)
}

/// Runs `analyze` with `args` after a short time a position, with a watchdog: an analysis that hangs
/// fails the test instead of hanging it.
fn analyze(args: &[&str]) -> Output {
    output_within_deadline(
        Command::new(BIN).args(["analyze", "--time", "50"]).args(args).env("RUST_BACKTRACE", "1"),
    )
}

/// One move of a table: its number, side, move played, values before and after, the preferred move
/// and the marks.
#[derive(Debug)]
struct Row {
    number: usize,
    side: String,
    played: String,
    before: String,
    after: String,
    best: String,
    marks: String,
}

/// The tables on stdout, one a game, each its rows.
fn tables(out: &Output) -> Vec<Vec<Row>> {
    tables_in(&String::from_utf8_lossy(&out.stdout))
}

fn tables_in(text: &str) -> Vec<Vec<Row>> {
    let mut games: Vec<Vec<Row>> = vec![];
    for line in text.lines() {
        if line.starts_with("== ") {
            games.push(vec![]);
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some(number) = words.first().and_then(|w| w.parse().ok()) else { continue };
        let row = Row {
            number,
            side: words[1].into(),
            played: words[2].into(),
            before: words[3].into(),
            after: words[4].into(),
            best: words[5].into(),
            marks: words[6..].join(" "),
        };
        games.last_mut().expect("a table has a header").push(row);
    }
    games
}

/// The blunder game (h8 h9 i8 g8 j8 i9 k8 j9 l8, or its last `moves` after set-up stones): black's k8
/// makes a four, white's j9 does not block it at l8, and black's l8 is five.
fn assert_white_lets_the_four_through(rows: &[Row], moves: usize) {
    assert_eq!(rows.len(), moves, "{rows:?}");
    let blunder = &rows[moves - 2];
    assert_eq!((blunder.side.as_str(), blunder.played.as_str()), ("white", "j9"), "{rows:?}");
    assert_eq!(blunder.best, "l8", "the block");
    assert_eq!(blunder.after, "-W1", "black has its five");
    assert!(blunder.marks.starts_with("mistake"), "{rows:?}");
    let five = &rows[moves - 1];
    assert_eq!((five.played.as_str(), five.before.as_str(), five.after.as_str()), ("l8", "+W1", "+W0"));
    assert!(!five.marks.contains("mistake"), "{rows:?}");
    assert!(rows.iter().enumerate().all(|(i, r)| r.number == i + 1));
}

#[test]
fn a_missed_block_is_a_mistake_in_every_format() {
    for file in ["blunder.txt", "blunder.psq"] {
        let out = analyze(&["--no-svg", &game(file)]);
        assert!(out.status.success(), "{file}: {out:?}");
        let games = tables(&out);
        assert_eq!(games.len(), 1, "{file}");
        assert_white_lets_the_four_through(&games[0], 9);
    }
    // The SGF holds two games: the whole one, and one from set-up stones h8 and h9 whose main line
    // ends with the five (a variation after j9 is not part of it).
    let out = analyze(&["--no-svg", &game("blunder.sgf")]);
    assert!(out.status.success(), "{out:?}");
    let games = tables(&out);
    assert_eq!(games.len(), 2);
    assert_white_lets_the_four_through(&games[0], 9);
    assert_white_lets_the_four_through(&games[1], 7);
}

/// Whether `svg` is well-formed as far as its tags go: each opened tag is closed in order, and
/// nothing but tags and text is there.
fn balanced(svg: &str) -> bool {
    let mut open: Vec<&str> = vec![];
    let mut rest = svg;
    while let Some(start) = rest.find('<') {
        let Some(len) = rest[start..].find('>') else { return false };
        let tag = &rest[start + 1..start + len];
        rest = &rest[start + len + 1..];
        if let Some(name) = tag.strip_prefix('/') {
            if open.pop() != Some(name.trim()) {
                return false;
            }
        } else if !tag.ends_with('/') {
            open.push(tag.split_whitespace().next().unwrap_or(""));
        }
    }
    open.is_empty() && !rest.contains('>')
}

#[test]
fn each_game_has_a_well_formed_chart_with_one_point_a_move() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let tables_file = dir.join("analysis.txt");
    let out = analyze(&[
        "--svg",
        dir.to_str().unwrap(),
        "--out",
        tables_file.to_str().unwrap(),
        &game("blunder.sgf"),
    ]);
    assert!(out.status.success(), "{out:?}");
    // The tables went to --out, not to stdout.
    assert!(out.stdout.is_empty());
    let written = tables_in(&std::fs::read_to_string(&tables_file).expect("the tables"));
    assert_eq!(written.iter().map(Vec::len).collect::<Vec<_>>(), [9, 7]);
    for (file, moves) in [("blunder_sgf-1.svg", 9), ("blunder_sgf-2.svg", 7)] {
        let svg = std::fs::read_to_string(dir.join(file)).expect("the chart");
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"), "{file}");
        assert!(balanced(&svg), "{file}");
        assert_eq!(svg.matches("<circle").count(), moves, "{file}");
    }
    // The first game's players are `Black <one>` and `White & two`: escaped, not taken for markup.
    let first = std::fs::read_to_string(dir.join("blunder_sgf-1.svg")).unwrap();
    assert!(first.contains("Black &lt;one&gt;") && first.contains("White &amp; two"));
}

#[test]
fn a_broken_record_fails_alone_and_the_others_are_analysed() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let occupied = dir.join("occupied.txt");
    std::fs::write(&occupied, "h8 i9 h8\n").unwrap();
    let unclosed = dir.join("unclosed.sgf");
    std::fs::write(&unclosed, "(;GM[4]SZ[15];B[hh];W[ii]").unwrap();
    let off_board = dir.join("off.psq");
    std::fs::write(&off_board, "Piskvorky 15x15, 1:1, 0\n8,8,0\n16,3,0\n").unwrap();
    let missing = dir.join("missing.sgf");
    let mut args: Vec<String> =
        [&occupied, &unclosed, &off_board, &missing].iter().map(|p| p.display().to_string()).collect();
    args.insert(1, game("blunder.txt"));
    args.insert(0, "--no-svg".into());
    let out = analyze(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let games = tables(&out);
    assert_eq!(games.len(), 1, "only the good game has a table");
    assert_white_lets_the_four_through(&games[0], 9);
    // A move after the five is a broken record too, and so is a board smaller than its moves.
    let after = dir.join("after.txt");
    std::fs::write(&after, "a1b1a2b2a3b3a4b4a5b5\n").unwrap();
    assert_eq!(analyze(&["--no-svg", after.to_str().unwrap()]).status.code(), Some(1));
    assert_eq!(analyze(&["--no-svg", "--size", "8", &game("blunder.txt")]).status.code(), Some(1));
}

#[test]
fn command_line_mistakes_are_status_2() {
    let file = game("blunder.txt");
    for args in [
        &[][..],
        &["--bogus", &file],
        &["--time", "0", &file],
        &["--threads", "0", &file],
        &["--margin", "many", &file],
        &["--rule", "go", &file],
        &["--size", "40", &file],
        &["--svg", "d", "--no-svg", &file],
        &["--engine", "'unclosed", &file],
        &[&file, "--time"],
    ] {
        let out = analyze(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn another_brain_gives_its_moves_and_no_scores_when_it_prints_none() {
    let weights = format!("{BIN} --player weights");
    let out = analyze(&["--no-svg", "--engine", &weights, &game("blunder.psq")]);
    assert!(out.status.success(), "{out:?}");
    let games = tables(&out);
    let rows = &games[0];
    assert_eq!(rows.len(), 9);
    assert!(rows.iter().all(|r| r.before == "-" && !r.marks.contains("mistake")), "{rows:?}");
    assert!(rows.iter().all(|r| r.best.len() >= 2 && r.best != "-"), "{rows:?}");
    // It blocks the four, as anyone would.
    assert_eq!(rows[7].best, "l8");
}

#[test]
fn a_brain_that_crashes_or_hangs_fails_its_games_and_nothing_waits() {
    for (engine, limit) in [("crash", 20), ("hang", 20)] {
        let started = Instant::now();
        let e = fault_engine(engine);
        let out = analyze(&["--no-svg", "--engine", &e, &game("blunder.txt"), &game("blunder.psq")]);
        assert_eq!(out.status.code(), Some(1), "{engine}: {out:?}");
        assert!(tables(&out).is_empty(), "{engine}");
        assert!(started.elapsed() < Duration::from_secs(limit), "{engine}: {:?}", started.elapsed());
    }
}

/// The value of attribute `name` among `attributes` (an element's, as [`elements`] gives them).
fn attribute<'a>(attributes: &'a str, name: &str) -> Option<&'a str> {
    let tag = attributes;
    let start = if tag.starts_with(&format!("{name}=\"")) {
        name.len() + 2
    } else {
        tag.find(&format!(" {name}=\""))? + name.len() + 3
    };
    Some(&tag[start..start + tag[start..].find('"')?])
}

/// Each `<name ...>` element of `svg`: its attributes' text and the text it holds.
fn elements<'a>(svg: &'a str, name: &str) -> Vec<(&'a str, &'a str)> {
    svg.split(&format!("<{name} "))
        .skip(1)
        .map(|rest| {
            let end = rest.find('>').unwrap_or(rest.len());
            let text = &rest[end + 1..];
            (&rest[..end], &text[..text.find('<').unwrap_or(text.len())])
        })
        .collect()
}

/// Black makes a four (h8-k8) and lets it go twice: at move 9 white can still block, and at move 11,
/// with white's own four on the a column, black's o15 both lets the win go and loses the game.
const LET_GO_TWICE: &str = "h8g8i8a1j8a2k8a3o1a4o15a5\n";

#[test]
fn the_chart_shows_the_result_marks_both_ways_and_keeps_its_move_numbers_apart() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let file = dir.join("letgo.txt");
    std::fs::write(&file, LET_GO_TWICE).unwrap();
    let out = analyze(&["--svg", dir.to_str().unwrap(), file.to_str().unwrap()]);
    assert!(out.status.success(), "{out:?}");
    let rows = &tables(&out)[0];
    assert!(rows[10].marks.contains("mistake") && rows[10].marks.contains("let go"), "{rows:?}");
    let svg = std::fs::read_to_string(dir.join("letgo_txt-1.svg")).expect("the chart");
    let circles = elements(&svg, "circle");
    assert_eq!(circles.len(), 12);
    // Each point's marks, as the table gives them.
    let marks: Vec<&str> = circles.iter().map(|(tag, _)| attribute(tag, "class").unwrap_or("")).collect();
    assert_eq!(marks[10], "mistake let-go", "{marks:?}");
    for (row, mark) in rows.iter().zip(&marks) {
        assert_eq!(row.marks.contains("mistake"), mark.contains("mistake"), "{row:?}");
        assert_eq!(row.marks.contains("let go"), mark.contains("let-go"), "{row:?}");
    }
    // Both marks show: the let-go's fill, the mistake's ring.
    let both = circles[10].0;
    assert_ne!(attribute(both, "fill"), attribute(both, "stroke"), "{both}");
    // The result, white's five, is on the chart.
    let texts = elements(&svg, "text");
    let result = texts.iter().find(|(tag, _)| attribute(tag, "class") == Some("result"));
    assert!(result.is_some_and(|(_, text)| text.contains("white")), "{svg}");
    // Move numbers: the first, then every 5th; none within 20 px of the next.
    let numbers: Vec<(usize, f64)> = texts
        .iter()
        .filter(|(tag, _)| attribute(tag, "class") == Some("move-number"))
        .map(|(tag, text)| (text.parse().unwrap(), attribute(tag, "x").unwrap().parse().unwrap()))
        .collect();
    assert_eq!(numbers.iter().map(|n| n.0).collect::<Vec<_>>(), [1, 5, 10]);
    assert!(numbers.windows(2).all(|w| w[1].1 - w[0].1 >= 20.0), "{numbers:?}");
}

#[test]
fn a_file_given_as_the_chart_directory_is_a_command_line_mistake() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let not_a_dir = dir.join("charts");
    std::fs::write(&not_a_dir, "").unwrap();
    let out = analyze(&["--svg", not_a_dir.to_str().unwrap(), &game("blunder.txt")]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let errors: Vec<&str> = stderr.lines().filter(|l| l.starts_with("Error:")).collect();
    assert_eq!(errors.len(), 1, "{stderr}");
    assert!(errors[0].contains(not_a_dir.to_str().unwrap()), "{stderr}");
    assert!(out.stdout.is_empty(), "nothing analysed");
}

/// Whether `text` holds a protocol pair `X,Y` (digits, a comma, digits).
fn has_protocol_pair(text: &str) -> bool {
    let b = text.as_bytes();
    (1..b.len().saturating_sub(1))
        .any(|i| b[i] == b',' && b[i - 1].is_ascii_digit() && b[i + 1].is_ascii_digit())
}

#[test]
fn a_broken_move_is_named_once_in_pos_notation() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let occupied = dir.join("occupied.txt");
    std::fs::write(&occupied, "h8 i9 h8\n").unwrap();
    // PSQ counts from 1: 16,3 is off a 15x15 board, on the column after o.
    let off_board = dir.join("off.psq");
    std::fs::write(&off_board, "Piskvorky 15x15, 1:1, 0\n8,8,0\n16,3,0\n").unwrap();
    for (file, square) in [(&occupied, "(h8)"), (&off_board, "(p3)")] {
        let out = analyze(&["--no-svg", file.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(1), "{out:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        let error = stderr.lines().find(|l| l.starts_with("Error:")).expect("an error line");
        assert!(error.contains(square), "{error}");
        assert!(!has_protocol_pair(error), "a square named two ways: {error}");
    }
}

#[test]
fn rule_and_size_are_taken_as_every_subcommand_takes_them() {
    // A name or a code for the rule; the Pente family on 19x19 unless told.
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let file = dir.join("pente.txt");
    std::fs::write(&file, "j10k10\n").unwrap();
    let header = |args: &[&str]| {
        let out = analyze(&[&["--no-svg"], args, &[file.to_str().unwrap()]].concat());
        assert!(out.status.success(), "{out:?}");
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        stdout.lines().next().unwrap_or_default().to_string()
    };
    assert!(header(&["--rule", "pente"]).contains("; pente 19x19;"), "{}", header(&["--rule", "pente"]));
    assert!(header(&["--rule", "4", "--size", "17"]).contains("; renju 17x17;"));
    assert!(header(&["--rule", "exact", "--line-length", "6"]).contains("15x15"));
}
