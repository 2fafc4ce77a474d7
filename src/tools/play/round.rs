//! One round: the person's commands at the prompt (a move, hint, undo, save, quit), the engine's
//! turns, and the board shown whenever it changed, until five in a row, captures, a full board or
//! the person leaves.

use std::io::Write;
use std::time::Instant;

use anyhow::Result;

use super::input::Input;
use super::screen::{cell_name, draw, five_glyph, five_through, parse_cell, status};
use super::think::{EngineSide, Reply, think, wipe_lines_above};
use super::{RoundEnd, Tournament, Who, ask, refusal};
use crate::game::board::{Board, Cell, Pos, column_name};
use crate::game::rules::Verdict;

/// The board of a round just won by the move at `p`, its five picked out and named.
fn show_win(t: &Tournament, board: &Board, p: Pos, out: &mut impl Write) -> Result<()> {
    let five = five_through(board, &t.cfg.rules, p);
    write!(out, "{}", draw(board, t.cfg.pente(), &five))?;
    if let (Some(a), Some(b)) = (five.first(), five.last()) {
        let glyph = match board.get(p) {
            Cell::Stone(c) => five_glyph(c, t.cfg.pente()),
            _ => '◆',
        };
        say!(out, "Five in a row ({glyph}): {} to {}.", cell_name(*a), cell_name(*b))?;
    }
    say!(out, "{}", status(t, board))?;
    Ok(())
}

/// The engine thinks for the side to move (its own turn, or a hint: `voice` and `label` tell which).
/// What was typed meanwhile is dropped, as it was typed before the answer could be seen, and
/// returned for [`tell_dropped`]. A terminal's keys are hushed meanwhile (see [`Input::hush`]); one
/// that could not be hushed echoed them, and the lines its Enters left behind are wiped.
fn engine_turn(
    t: &Tournament,
    engine: &EngineSide,
    board: &Board,
    (input, out, live): (&mut impl Input, &mut impl Write, bool),
    voice: (&str, &str),
    label: &str,
) -> Result<(Reply, Vec<String>)> {
    let began = Instant::now();
    let hushed = live && input.hush(true);
    let reply = think(t, engine, board, voice, live.then_some((&mut *out as &mut dyn Write, label)));
    if hushed {
        input.hush(false);
    }
    let reply = reply?;
    let dropped = input.drop_since(began);
    if live && !hushed {
        wipe_lines_above(out, dropped.len())?;
    }
    Ok((reply, dropped))
}

/// Tells the person that what they typed while the engine thought was not played.
fn tell_dropped(out: &mut impl Write, dropped: &[String]) -> Result<()> {
    if !dropped.is_empty() {
        say!(out, "Not played, as it was typed while the engine was thinking: {}.", dropped.join(", "))?;
    }
    Ok(())
}

/// Takes the moves back to the person's previous turn (its last move and the engine's reply);
/// returns how many, or `None` when the person has not moved yet.
fn take_back(t: &mut Tournament) -> Option<usize> {
    // Moves alternate from the first player whatever is captured, so parity tells whose is whose.
    let human_first = t.first == Who::Human;
    let i = (0..t.moves.len()).rev().find(|&i| (i % 2 == 0) == human_first)?;
    let undone = t.moves.len() - i;
    t.moves.truncate(i);
    Some(undone)
}

/// `save FILE`: writes the tournament to the file named on `line`, and says how to go on later.
fn save(t: &Tournament, line: &str, out: &mut impl Write) -> Result<()> {
    let Some(path) = line.split_whitespace().nth(1) else {
        say!(out, "Usage: save FILE")?;
        return Ok(());
    };
    match std::fs::write(path, t.to_text()) {
        Ok(()) => say!(out, "Saved to {path}; continue later with: play --resume {path}")?,
        Err(e) => say!(out, "Could not save to {path}: {e}")?,
    }
    Ok(())
}

/// The answer to a line at the prompt that is neither a command nor a cell: how cells are named.
fn not_a_cell(line: &str, board: &Board) -> String {
    // What was typed is quoted back only in part: the line must fit the screen.
    let typed = line.trim();
    let typed = match typed.char_indices().nth(24) {
        Some((cut, _)) => format!("{}...", &typed[..cut]),
        None => typed.to_string(),
    };
    format!(
        "'{typed}' is not a cell: use a letter A-{} and a number 1-{} (such as {}), or hint, undo, save FILE, quit, help.",
        column_name(board.width() - 1).to_ascii_uppercase(),
        board.height(),
        cell_name(Pos::new(board.width() / 2, board.height() / 2))
    )
}

/// What `help` at the prompt says: the commands, and how squares are named.
fn help(board: &Board) -> String {
    let (w, h) = (board.width(), board.height());
    let last = cell_name(Pos::new(w - 1, h - 1));
    format!(
        "Commands:\n  a square, such as {}: your move there (column letter A-{} from the left, row number 1-{h} from the top: A1 is the top-left corner, {last} the bottom-right)\n  \
         hint: the engine's choice for you\n  undo: take back your last move and the engine's reply\n  \
         save FILE: save the tournament, to go on later with play --resume FILE\n  quit: leave the tournament\n  \
         help: this list",
        cell_name(Pos::new(w / 2, h / 2)),
        column_name(w - 1).to_ascii_uppercase(),
    )
}

/// Plays one round to its end.
pub(super) fn play_round(
    t: &mut Tournament,
    engine: &EngineSide,
    input: &mut impl Input,
    out: &mut impl Write,
    live: bool,
) -> Result<RoundEnd> {
    let rules = t.cfg.rules;
    let mut board = t.board()?;
    engine.tt.clear();
    say!(out, "Round {}.", t.round)?;
    // The board is drawn again only when it changed (not after a refused input).
    let mut drawn: Option<Vec<Pos>> = None;
    // The engine's view of the round, for the farewell if the person leaves it.
    let mut engine_score = None;
    loop {
        let side = board.side_to_move();
        let who = t.who(side);
        if who == Who::Engine {
            let (Reply { mv, score, text }, dropped) =
                engine_turn(t, engine, &board, (input, out, live), ("it", "you"), "Engine thinking")?;
            let Some(p) = mv else { return Ok(RoundEnd::Draw) };
            engine_score = score;
            let verdict = rules.verdict(&board, p);
            let five = rules.makes_win(&board, p, side);
            board.play_unchecked(p);
            t.moves.push(p);
            say!(out, "Engine plays {}: {text}.", cell_name(p))?;
            tell_dropped(out, &dropped)?;
            if verdict == Verdict::Win {
                show_win(t, &board, p, out)?;
                return Ok(if five { RoundEnd::Five(Who::Engine) } else { RoundEnd::Captures(Who::Engine) });
            }
            if board.is_full() {
                return Ok(RoundEnd::Draw);
            }
            continue;
        }
        if drawn.as_ref() != Some(&t.moves) {
            write!(out, "{}", draw(&board, t.cfg.pente(), &[]))?;
            say!(out, "{}", status(t, &board))?;
            drawn = Some(t.moves.clone());
        }
        let Some(line) = ask(input, out, "Your move: ")? else { return Ok(RoundEnd::Quit(engine_score)) };
        let lower = line.to_ascii_lowercase();
        let mut words = lower.split_whitespace();
        match words.next() {
            None => continue,
            Some("quit") | Some("exit") => return Ok(RoundEnd::Quit(engine_score)),
            Some("hint") => {
                let (Reply { mv, text, .. }, dropped) = engine_turn(
                    t,
                    engine,
                    &board,
                    (input, out, live),
                    ("you", "the engine"),
                    "Finding a hint",
                )?;
                match mv {
                    Some(p) => say!(out, "Hint: {} ({text}).", cell_name(p))?,
                    None => say!(out, "No hint: no move is left.")?,
                }
                tell_dropped(out, &dropped)?;
            }
            Some("undo") => match take_back(t) {
                Some(undone) => {
                    board = t.board()?;
                    engine_score = None;
                    say!(
                        out,
                        "Took back {}.",
                        if undone == 1 { "1 move".to_string() } else { format!("{undone} moves") }
                    )?;
                }
                None => say!(out, "Nothing to undo.")?,
            },
            Some("save") => save(t, &line, out)?,
            Some("help" | "?") => say!(out, "{}", help(&board))?,
            Some(word) => {
                let Some(p) = parse_cell(word, board.width(), board.height()) else {
                    say!(out, "{}", not_a_cell(&line, &board))?;
                    continue;
                };
                if let Some(why) = refusal(&t.cfg, &board, p) {
                    say!(out, "{why}")?;
                    continue;
                }
                let verdict = rules.verdict(&board, p);
                let five = rules.makes_win(&board, p, side);
                board.play_unchecked(p);
                t.moves.push(p);
                if verdict == Verdict::Win {
                    show_win(t, &board, p, out)?;
                    return Ok(if five {
                        RoundEnd::Five(Who::Human)
                    } else {
                        RoundEnd::Captures(Who::Human)
                    });
                }
                if board.is_full() {
                    return Ok(RoundEnd::Draw);
                }
            }
        }
    }
}
