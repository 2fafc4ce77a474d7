//! What the person sees: cells named as on the board's edges, the board itself and the status line.

use std::fmt::Write as _;

use super::{Tournament, Who};
use crate::board::{Board, Cell, Color, Pos};

/// A cell in the terminal's notation: column letter from the left, row number from the bottom.
pub fn cell_name(p: Pos, height: usize) -> String {
    format!("{}{}", (b'A' + p.x) as char, height - p.y as usize)
}

/// Parses `K10` (any case) on a board of this size.
pub fn parse_cell(text: &str, width: usize, height: usize) -> Option<Pos> {
    let t = text.trim().to_ascii_uppercase();
    let mut chars = t.chars();
    let letter = chars.next()?;
    if !letter.is_ascii_uppercase() {
        return None;
    }
    let x = (letter as u8 - b'A') as usize;
    let row: usize = chars.as_str().parse().ok()?;
    (x < width && (1..=height).contains(&row)).then(|| Pos::new(x, height - row))
}

/// The board as the person sees it. The first player (`Color::Black` inside) is drawn white in Pente
/// (`pente`), as Pente's boards show it, and black under the gomoku rules.
pub fn draw(board: &Board, pente: bool) -> String {
    let (w, h) = (board.width(), board.height());
    let last = board.last_move();
    let mut out = String::new();
    let letters: String = (0..w).map(|x| format!("{} ", (b'A' + x as u8) as char)).collect();
    let _ = writeln!(out, "    {}", letters.trim_end());
    for y in 0..h {
        let row = h - y;
        let _ = write!(out, "{row:>2}  ");
        for x in 0..w {
            let p = Pos::new(x, y);
            let glyph = match board.get(p) {
                // White is ○, black ●; the last move is ringed.
                Cell::Stone(c) => match ((c == Color::Black) == pente, last == Some(p)) {
                    (true, true) => "◎",
                    (true, false) => "○",
                    (false, true) => "◉",
                    (false, false) => "●",
                },
                Cell::Wall => "#",
                Cell::Empty => match (y == 0, y == h - 1, x == 0, x == w - 1) {
                    (true, _, true, _) => "┌",
                    (true, _, _, true) => "┐",
                    (_, true, true, _) => "└",
                    (_, true, _, true) => "┘",
                    (true, _, _, _) => "┬",
                    (_, true, _, _) => "┴",
                    (_, _, true, _) => "├",
                    (_, _, _, true) => "┤",
                    _ => "┼",
                },
            };
            out.push_str(glyph);
            if x + 1 < w {
                out.push('─');
            }
        }
        let _ = writeln!(out, "  {row}");
    }
    let _ = writeln!(out, "    {}", letters.trim_end());
    out
}

/// The status lines under the board: the colours and the score, then (Pente) the captures and the
/// last move.
pub(super) fn status(t: &Tournament, board: &Board) -> String {
    let colour = |w: Who| if (w == t.first) == t.cfg.pente() { "○ white" } else { "● black" };
    let mut s = format!(
        "Round {}: you play {}, the engine {}. Score: you {}, engine {}.",
        t.round,
        colour(Who::Human),
        colour(Who::Engine),
        t.score[0],
        t.score[1]
    );
    let mut second = vec![];
    if let Some(rule) = t.cfg.rules.capture_rule() {
        let caps = |w: Who| board.captured(t.color_of(w));
        // Pente captures pairs, so its count is in pairs; Keryo also takes threes, so in stones.
        let (unit, per) = if rule.max == 2 { ("pairs", 2) } else { ("stones", 1) };
        second.push(format!(
            "Captured {unit}: you {}, engine {} ({} to win).",
            caps(Who::Human) / per,
            caps(Who::Engine) / per,
            rule.to_win as usize / per
        ));
    }
    if let Some(p) = board.last_move() {
        let who = t.who(board.side_to_move().opp());
        second.push(format!("Last move: {} ({}).", cell_name(p, board.height()), who.word()));
    }
    if !second.is_empty() {
        let _ = write!(s, "\n{}", second.join(" "));
    }
    s
}
