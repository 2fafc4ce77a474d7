//! The terminal game (`pbrain-quincunx play`) driven through a pipe, as a person's session would be:
//! a scripted Pente tournament of two rounds on 9x9 with a fixed coin seed and a fixed search depth
//! must print exactly the stored transcript (times aside), and `save` / `--resume` carry a tournament
//! over. To accept a deliberate change of the transcript (a new search plays other moves), run with
//! `QUINCUNX_BLESS=1` and read the diff.

mod common;

use std::path::Path;
use std::process::Command;

fn binary() -> &'static str {
    env!("CARGO_BIN_EXE_pbrain-quincunx")
}

/// Runs `play` with `args` in `dir`, feeding `input`; returns (exit ok, stdout).
fn play(dir: &Path, args: &[&str], input: &str) -> (bool, String) {
    // A refused start exits before reading: its input may meet a closed pipe.
    let out = common::output_with_input(
        Command::new(binary()).arg("play").args(args).current_dir(dir),
        input.as_bytes(),
    );
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Thinking times differ from run to run: `0.00 s` becomes `T s`.
fn without_times(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        let words: Vec<String> = line
            .split(' ')
            .map(|w| {
                let t = w.trim_end_matches(',');
                let timed = t.split_once('.').is_some_and(|(a, b)| {
                    !a.is_empty() && !b.is_empty() && (a.chars().chain(b.chars())).all(|c| c.is_ascii_digit())
                });
                if timed { w.replacen(t, "T", 1) } else { w.to_string() }
            })
            .collect();
        out.push_str(&words.join(" "));
        out.push('\n');
    }
    out
}

#[test]
fn a_scripted_pente_tournament_prints_the_stored_transcript() {
    let here = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/play");
    let input = std::fs::read_to_string(here.join("pente_tournament.in")).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let (ok, out) = play(
        dir,
        &["--rules", "pente", "--size", "9", "--depth", "2", "--threads", "1", "--seed", "3"],
        &input,
    );
    assert!(ok, "play failed:\n{out}");
    let got = without_times(&out);
    let path = here.join("pente_tournament.out");
    if std::env::var_os("QUINCUNX_BLESS").is_some() {
        std::fs::write(&path, &got).unwrap();
    }
    let want = std::fs::read_to_string(&path).unwrap();
    if got != want {
        for (n, (g, w)) in got.lines().zip(want.lines()).enumerate() {
            assert_eq!(g, w, "transcript line {} differs", n + 1);
        }
        assert_eq!(got.lines().count(), want.lines().count(), "transcript lengths differ");
    }
    // What every session shows: the toss, refusals with their reasons, both rounds, the totals.
    for must in [
        "You win the toss and play first (white, ○).",
        "The first stone must go on the centre, E5.",
        "Not allowed: your second stone must be 3 or more points from the centre.",
        "'Z9' is not a cell",
        "E5 is occupied.",
        "Hint: ",
        "Took back 2 moves.",
        "Saved to saved.txt",
        "The engine wins the round with five in a row.",
        "Final score: you 0, engine 10.",
        "The engine wins the tournament.",
    ] {
        assert!(got.contains(must), "the transcript lacks '{must}'");
    }
    // The saved game goes on where it stopped.
    let saved = std::fs::read_to_string(dir.join("saved.txt")).unwrap();
    assert!(saved.contains("moves E5 E4 A9 D5 I9 F5"), "{saved}");
    let (ok, out) = play(dir, &["--resume", "saved.txt"], "quit\n");
    assert!(ok, "{out}");
    assert!(out.contains("Resuming round 1: you 0, engine 0."), "{out}");
    assert!(out.contains("Last move: F5 (engine)."), "{out}");
    assert!(out.contains("Round 1 abandoned"), "{out}");
}

#[test]
fn bad_options_and_files_are_refused_with_a_reason() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let (ok, _) = play(dir, &["--rules", "chess"], "");
    assert!(!ok);
    let (ok, _) = play(dir, &["--resume", "missing.txt"], "");
    assert!(!ok);
    std::fs::write(dir.join("broken.txt"), "quincunx-play 1\nsize 9\nmoves E5 E5\n").unwrap();
    let (ok, _) = play(dir, &["--resume", "broken.txt"], "");
    assert!(!ok, "a move played twice is refused");
    // The end of input ends the tournament cleanly, at the toss or mid-round.
    let (ok, out) = play(dir, &["--size", "9", "--depth", "1", "--seed", "1"], "");
    assert!(ok && out.contains("Final score"), "{out}");
    let (ok, out) = play(dir, &["--rules", "renju", "--size", "9", "--depth", "1", "--seed", "1"], "heads\n");
    assert!(ok && out.contains("Round 1 abandoned"), "{out}");
}

#[test]
fn gomoku_has_black_first_and_no_opening_rule_or_captures_while_pente_keeps_its_own() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    // The default game: freestyle on 15x15, the first player black, the first stone anywhere.
    let (ok, out) = play(dir, &["--depth", "1", "--seed", "3"], "tails\nA1\nquit\n");
    assert!(ok, "{out}");
    assert!(out.contains("a tournament of freestyle (5 or more) on 15x15"), "{out}");
    assert!(out.contains("You win the toss and play first (black, ●)."), "{out}");
    assert!(out.contains("you play ● black, the engine ○ white"), "{out}");
    assert!(!out.contains("must go on the centre"), "{out}");
    assert!(out.contains("Last move: "), "A1 was played and answered:\n{out}");
    assert!(!out.to_ascii_lowercase().contains("captur"), "{out}");
    // Asked for, the tournament opening binds gomoku too.
    let (ok, out) = play(dir, &["--tournament-rule", "--depth", "1", "--seed", "3"], "tails\nA1\nquit\n");
    assert!(ok, "{out}");
    assert!(out.contains("The first stone must go on the centre, H8."), "{out}");
    // Pente: the first player white, the opening rule, captured pairs counted.
    let (ok, out) = play(
        dir,
        &["--rules", "pente", "--size", "9", "--depth", "1", "--seed", "3"],
        "tails\nA1\nE5\nquit\n",
    );
    assert!(ok, "{out}");
    assert!(out.contains("You win the toss and play first (white, ○)."), "{out}");
    assert!(out.contains("The first stone must go on the centre, E5."), "{out}");
    assert!(out.contains("Captured pairs: you 0, engine 0 (5 to win)."), "{out}");
}

/// A saved freestyle round on 9x9 where the human (black, first) completes five with E9. The file is
/// of version 1, whose rows counted from the bottom (its A1 is the bottom-left corner, today's A9).
const FIVE_TO_PLAY: &str = "quincunx-play 1\nrules freestyle\nsize 9\ntime 1000\ndepth 1\nthreads 1\n\
                            score 0 0\nround 1\nfirst human\nrng 5\ntournament 0\n\
                            moves A1 I9 B1 I8 C1 I6 D1 H9\n";

#[test]
fn another_round_is_asked_again_until_the_answer_is_y_or_n() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::write(dir.join("five.sav"), FIVE_TO_PLAY).unwrap();
    let (ok, out) = play(dir, &["--resume", "five.sav"], "E9\nmaybe\n\nn\n");
    assert!(ok, "{out}");
    assert!(out.contains("You win the round with five in a row!"), "{out}");
    assert_eq!(out.matches("Play another round? (y/n)").count(), 3, "{out}");
    assert_eq!(out.matches("Please answer y or n.").count(), 2, "{out}");
    assert!(out.contains("You win the tournament!"), "{out}");
    // Yes goes on to the next round, which the leader opens.
    let (ok, out) = play(dir, &["--resume", "five.sav"], "E9\nYes\nquit\n");
    assert!(ok, "{out}");
    assert!(out.contains("Round 2."), "{out}");
}

#[test]
fn options_given_with_resume_win_over_the_saved_ones() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let saved = FIVE_TO_PLAY.replace("depth 1", "depth 0").replace("time 1000", "time 500");
    std::fs::write(dir.join("g.sav"), &saved).unwrap();
    let (ok, out) = play(dir, &["--resume", "g.sav", "--time", "300"], "save again.sav\nquit\n");
    assert!(ok, "{out}");
    assert!(out.contains("The engine thinks 300 ms a move."), "{out}");
    let again = std::fs::read_to_string(dir.join("again.sav")).unwrap();
    assert!(again.contains("\ntime 300\n") && again.contains("\ndepth 0\n"), "{again}");
    // A time asked for replaces a saved fixed depth; a depth asked for replaces a saved time.
    std::fs::write(dir.join("d.sav"), FIVE_TO_PLAY).unwrap();
    let (ok, out) = play(dir, &["--resume", "d.sav", "--time", "250"], "quit\n");
    assert!(ok && out.contains("The engine thinks 250 ms a move."), "{out}");
    let (ok, out) = play(dir, &["--resume", "g.sav", "--depth", "3"], "quit\n");
    assert!(ok && out.contains("The engine searches to depth 3 a move."), "{out}");
    // What would make the moves another game is refused.
    let (ok, _) = play(dir, &["--resume", "g.sav", "--rules", "pente"], "quit\n");
    assert!(!ok, "the rules of a saved tournament cannot change");
    let (ok, _) = play(dir, &["--resume", "g.sav", "--size", "15"], "quit\n");
    assert!(!ok, "the size of a saved tournament cannot change");
    let (ok, out) = play(dir, &["--resume", "g.sav", "--rule", "freestyle", "--size", "9"], "quit\n");
    assert!(ok, "the same rules and size are no change:\n{out}");
}

#[test]
fn quitting_says_who_leads_and_that_the_tournament_was_abandoned() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    // Level on points, but the engine has an open four (E5-E8) on the board.
    let behind = FIVE_TO_PLAY.replace("A1 I9 B1 I8 C1 I6 D1 H9", "A1 E5 A3 E6 A5 E7 A7 E8");
    std::fs::write(dir.join("behind.sav"), &behind).unwrap();
    let (ok, out) = play(dir, &["--resume", "behind.sav"], "quit\n");
    assert!(ok, "{out}");
    assert!(!out.contains("draw"), "{out}");
    assert!(out.contains("The tournament was abandoned: the score is level at 0."), "{out}");
    assert!(out.contains("In round 1 the engine was ahead on the board, 1 point to 0."), "{out}");
    // Behind on points: the engine leads.
    std::fs::write(dir.join("points.sav"), behind.replace("score 0 0", "score 3 5")).unwrap();
    let (ok, out) = play(dir, &["--resume", "points.sav"], "quit\n");
    assert!(ok && out.contains("The tournament was abandoned: the engine leads 5 to 3."), "{out}");
    assert!(!out.contains("wins the tournament"), "{out}");
}

#[test]
fn a_win_is_told_in_moves_and_its_five_is_picked_out() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::write(dir.join("five.sav"), FIVE_TO_PLAY).unwrap();
    let (ok, out) = play(dir, &["--resume", "five.sav"], "E9\nn\n");
    assert!(ok, "{out}");
    assert!(out.contains(" 9  ◆─◆─◆─◆─◆─┴─┴─┴─┘  9"), "{out}");
    assert!(out.contains("Five in a row (◆): A9 to E9."), "{out}");
    // The engine to move with four in a row: it says it wins with this move.
    let engine_wins = FIVE_TO_PLAY
        .replace("first human", "first engine")
        .replace("A1 I9 B1 I8 C1 I6 D1 H9", "E5 A1 E6 A3 E7 A5 E8 A7");
    std::fs::write(dir.join("engine.sav"), engine_wins).unwrap();
    let (ok, out) = play(dir, &["--resume", "engine.sav"], "n\n");
    assert!(ok, "{out}");
    assert!(out.contains("eval +W1 (it wins with this move)"), "{out}");
    assert_eq!(out.matches('◆').count(), 6, "five stones and the legend:\n{out}");
}

/// Every line of `out` fits an 80-column terminal, but for what the person typed (`input`), which a
/// pipe's transcript echoes after the prompt.
fn assert_fits(out: &str, input: &str) {
    for line in out.lines() {
        let typed = input.lines().filter(|l| !l.is_empty()).find(|l| line.ends_with(*l));
        let line = typed.map_or(line, |l| &line[..line.len() - l.len()]);
        assert!(
            line.chars().count() <= 80,
            "a line of {} columns:\n{line}\n\nin:\n{out}",
            line.chars().count()
        );
    }
}

#[test]
fn every_line_fits_80_columns_on_15x15() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let long = "x".repeat(120);
    let session = format!(
        "maybe\ntails\nH8\n{long}\nthis is not a move at all but a long sentence typed by mistake\nZ99\nH8\n\
         hint\nundo\nundo\nA1\nsave a-rather-long-file-name-for-the-saved-tournament.sav\nquit\n"
    );
    for rules in ["freestyle", "pente", "keryo", "renju"] {
        let args = ["--rules", rules, "--size", "15", "--depth", "2", "--seed", "3", "--tournament-rule"];
        let (ok, out) = play(dir, &args, &session);
        assert!(ok, "{out}");
        assert!(out.contains("Hint: "), "{out}");
        assert!(!out.contains('\r') && !out.contains('\x1b'), "a pipe gets no thinking line:\n{out}");
        assert_fits(&out, &session);
    }
    // A round played out, its farewell and the next round's question.
    std::fs::write(dir.join("five.sav"), FIVE_TO_PLAY.replace("size 9", "size 15")).unwrap();
    let session = "E15\nmaybe\ny\nheads\nquit\n";
    let (ok, out) = play(dir, &["--resume", "five.sav", "--time", "100"], session);
    assert!(ok, "{out}");
    assert_fits(&out, session);
}

/// The rows of the first board in `out` after the letters: each its label and its cells.
fn first_board(out: &str) -> Vec<(usize, String)> {
    out.lines()
        .skip_while(|l| !l.trim_start().starts_with("A B C"))
        .skip(1)
        .map_while(|l| {
            let (label, rest) = l.trim_start().split_once("  ")?;
            Some((label.parse().ok()?, rest.to_string()))
        })
        .collect()
}

#[test]
fn squares_are_named_in_pos_notation_rows_from_the_top() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    // On 15x15 I11 is SGF's ik, column 9 and row 11 from the top, as `analyze` and the MESSAGE lines
    // name it.
    let (ok, out) = play(dir, &["--depth", "1", "--seed", "3"], "tails\nI11\nsave s.sav\nquit\n");
    assert!(ok, "{out}");
    let after_move = &out[out.find("Your move: I11").expect("I11 was typed")..];
    let board = first_board(after_move);
    assert_eq!(board.iter().map(|(n, _)| *n).collect::<Vec<_>>(), (1..=15).collect::<Vec<_>>(), "{out}");
    let row = &board[10].1;
    let column_i = row.chars().nth(2 * 8).unwrap();
    assert!("●◉".contains(column_i), "I11 is the 11th row from the top, 9th column:\n{after_move}");
    // The saved moves read back as the same point in the library's pos notation.
    let saved = std::fs::read_to_string(dir.join("s.sav")).unwrap();
    let first = saved.lines().find_map(|l| l.strip_prefix("moves ")).unwrap().split(' ').next().unwrap();
    assert_eq!(
        quincunx::game::board::Pos::from_notation(first),
        Some(quincunx::game::board::Pos::new(8, 10))
    );
}

#[test]
fn help_at_the_prompt_lists_the_commands() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let (ok, out) = play(dir, &["--size", "9", "--depth", "1", "--seed", "3"], "tails\nhelp\nquit\n");
    assert!(ok, "{out}");
    let after = &out[out.find("Your move: help").expect("help was typed")..];
    let reply: Vec<&str> = after.lines().skip(1).take_while(|l| !l.starts_with("Your move")).collect();
    assert!(!reply.is_empty() && !reply.join(" ").contains("is not a cell"), "{after}");
    for command in ["hint", "undo", "save FILE", "quit"] {
        assert!(reply.iter().any(|l| l.trim_start().starts_with(command)), "{command}: {reply:?}");
    }
}
