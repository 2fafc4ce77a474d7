//! What the person sees: cells named as on the board's edges, the board itself and the status line.

use std::fmt::Write as _;

use super::{Tournament, Who};
use crate::eval::score::{WIN, WIN_THRESHOLD, score_text};
use crate::game::board::{Board, Cell, Color, DIRECTIONS, Pos, column_name};
use crate::game::rules::Rules;

/// A square as the board's edges show it and the person types it: the column letter from A at the
/// left and the row number from 1 at the top, the pos notation every tool writes ([`Pos::notation`]),
/// in capitals.
pub fn cell_name(p: Pos) -> String {
    p.notation().to_ascii_uppercase()
}

/// Parses `K10` (any case) on a board of this size.
pub fn parse_cell(text: &str, width: usize, height: usize) -> Option<Pos> {
    Pos::from_notation(text.trim()).filter(|p| (p.x as usize) < width && (p.y as usize) < height)
}

/// The columns a line of text may take: an ordinary terminal's.
pub const WIDTH: usize = 80;

/// `text` as lines of at most [`WIDTH`] columns, broken at spaces, each ending in a newline; the
/// lines a long one is broken into after the first are indented by two. A word longer than a line
/// stays whole. A no-break space (U+00A0) holds two words together, such as a number and its unit,
/// and is written as a plain space.
pub fn wrap(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let mut col = 0;
        for word in line.split(' ') {
            let word = word.replace('\u{a0}', " ");
            let len = word.chars().count();
            if col > 0 && col + 1 + len > WIDTH {
                out.push_str("\n  ");
                col = 2;
            } else if col > 0 {
                out.push(' ');
                col += 1;
            }
            out.push_str(&word);
            col += len;
        }
        out.push('\n');
    }
    out
}

/// The board as the person sees it. The first player (`Color::Black` inside) is drawn white in Pente
/// (`pente`), as Pente's boards show it, and black under the gomoku rules. The stones of `five` (the
/// winning line) are drawn as diamonds, filled for black and hollow for white, so the five stands out
/// even where the terminal has no colours (or the output is a file).
pub fn draw(board: &Board, pente: bool, five: &[Pos]) -> String {
    let (w, h) = (board.width(), board.height());
    let last = board.last_move();
    let mut out = String::new();
    let letters = column_letters(w);
    out.push_str(&letters);
    for y in 0..h {
        let row = y + 1;
        let _ = write!(out, "{row:>2}  ");
        for x in 0..w {
            let p = Pos::new(x, y);
            let glyph = match board.get(p) {
                // White is ○, black ●; the last move is ringed.
                Cell::Stone(c) if five.contains(&p) => five_glyph(c, pente),
                Cell::Stone(c) => match ((c == Color::Black) == pente, last == Some(p)) {
                    (true, true) => '◎',
                    (true, false) => '○',
                    (false, true) => '◉',
                    (false, false) => '●',
                },
                Cell::Wall => '#',
                Cell::Empty => match (y == 0, y == h - 1, x == 0, x == w - 1) {
                    (true, _, true, _) => '┌',
                    (true, _, _, true) => '┐',
                    (_, true, true, _) => '└',
                    (_, true, _, true) => '┘',
                    (true, _, _, _) => '┬',
                    (_, true, _, _) => '┴',
                    (_, _, true, _) => '├',
                    (_, _, _, true) => '┤',
                    _ => '┼',
                },
            };
            out.push(glyph);
            if x + 1 < w {
                out.push('─');
            }
        }
        let _ = writeln!(out, "  {row}");
    }
    out.push_str(&letters);
    out
}

/// The column names over (and under) the board, one a cell: on a board wider than 26 the two-letter
/// names (`AA`...) stand in two lines, the first letter over the second.
fn column_letters(w: usize) -> String {
    let names: Vec<String> = (0..w).map(|x| column_name(x).to_ascii_uppercase()).collect();
    let line = |pick: &dyn Fn(&str) -> char| {
        let cells: String = names.iter().map(|n| format!("{} ", pick(n))).collect();
        format!("    {}\n", cells.trim_end())
    };
    let first = |n: &str| if n.len() > 1 { n.chars().next().unwrap_or(' ') } else { ' ' };
    let last = |n: &str| n.chars().last().unwrap_or(' ');
    if w > 26 { line(&first) + &line(&last) } else { line(&last) }
}

/// A stone of the winning five: hollow for white, filled for black (see [`draw`]).
pub(super) fn five_glyph(c: Color, pente: bool) -> char {
    if (c == Color::Black) == pente { '◇' } else { '◆' }
}

/// The winning line through `p` (just played): the stones of its colour in the first direction whose
/// run wins under `rules`; empty when `p` made no five (a win on captures).
pub(super) fn five_through(board: &Board, rules: &Rules, p: Pos) -> Vec<Pos> {
    let Cell::Stone(c) = board.get(p) else { return vec![] };
    for d in DIRECTIONS {
        let back = board.run_from(p, (-d.0, -d.1), c) as i32;
        let ahead = board.run_from(p, d, c) as i32;
        let len = (back + ahead + 1) as usize;
        let k = rules.line as usize;
        if len == k || (len > k && !rules.exact_for(c)) {
            let start = (p.x as i32 - d.0 * back, p.y as i32 - d.1 * back);
            return (0..len as i32)
                .map(|i| Pos::new((start.0 + d.0 * i) as usize, (start.1 + d.1 * i) as usize))
                .collect();
        }
    }
    vec![]
}

/// A search score in words, as the side that searched (`me`, such as "it") would say it to the other
/// (`other`): `+W3 (it wins in 2 moves)`. `+Wn` and `-Wn` count plies, both sides' moves, to the five;
/// people count their own moves.
pub(super) fn eval_words(score: i32, me: &str, other: &str) -> String {
    let text = score_text(score);
    if score >= WIN_THRESHOLD {
        let plies = WIN - score;
        if plies <= 1 {
            return format!("{text} ({me} wins with this move)");
        }
        return format!("{text} ({me} wins in {})", moves((plies + 1) / 2));
    }
    if score <= -WIN_THRESHOLD {
        let plies = WIN + score;
        return format!("{text} ({other} can win in {})", moves((plies / 2).max(1)));
    }
    text
}

/// `1 move`, `2 moves`.
fn moves(n: i32) -> String {
    format!("{n} move{}", if n == 1 { "" } else { "s" })
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
        second.push(format!("Last move: {} ({}).", cell_name(p), who.word()));
    }
    if !second.is_empty() {
        let _ = write!(s, "\n{}", second.join(" "));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_are_broken_at_spaces_within_the_width() {
        let text = format!("{} tail\nshort", "word ".repeat(30).trim_end());
        let wrapped = wrap(&text);
        assert!(wrapped.lines().all(|l| l.chars().count() <= WIDTH), "{wrapped}");
        assert_eq!(wrapped.lines().count(), 3, "{wrapped}");
        assert!(wrapped.lines().nth(1).unwrap().starts_with("  word"), "{wrapped}");
        assert_eq!(
            wrapped.split_whitespace().collect::<Vec<_>>(),
            text.split_whitespace().collect::<Vec<_>>()
        );
        assert_eq!(wrap(""), "");
        let held = format!("{} 12\u{a0}nodes", "a".repeat(WIDTH - 5));
        assert!(wrap(&held).ends_with("\n  12 nodes\n"), "{}", wrap(&held));
    }

    #[test]
    fn win_scores_are_told_in_the_winner_s_own_moves() {
        assert_eq!(eval_words(WIN - 1, "it", "you"), "+W1 (it wins with this move)");
        assert_eq!(eval_words(WIN - 3, "it", "you"), "+W3 (it wins in 2 moves)");
        assert_eq!(eval_words(-(WIN - 2), "it", "you"), "-W2 (you can win in 1 move)");
        assert_eq!(eval_words(-(WIN - 4), "you", "the engine"), "-W4 (the engine can win in 2 moves)");
        assert_eq!(eval_words(25, "it", "you"), "25");
    }

    #[test]
    fn the_five_through_the_last_stone_is_found_end_to_end() {
        let b: Board = ". . . . . . .\n. x . . . . .\n. . x . . . .\n. . . x . o .\n. . . . x o .\n\
                        . . . . . x o\n. . . . . . o"
            .parse()
            .unwrap();
        let five = five_through(&b, &Rules::default(), Pos::new(3, 3));
        assert_eq!(five, (1..6).map(|i| Pos::new(i, i)).collect::<Vec<_>>());
        assert!(five_through(&b, &Rules::default(), Pos::new(5, 3)).is_empty());
        let drawn = draw(&b, false, &five);
        assert_eq!(drawn.matches('◆').count(), 5, "{drawn}");
    }
}
