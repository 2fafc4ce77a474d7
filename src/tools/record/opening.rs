//! Openings as files hold them, one opening per line, black first, in either of c-gomoku-cli's two
//! notations (told apart line by line: a `pos` line starts with a letter, an offset line never does):
//!
//! - offset (Gomocup's and c-gomoku-cli's `type=offset`): `dx,dy, dx,dy, ...`, offsets from the centre,
//!   placed at `x = dx + W/2`, `y = dy + H/2` (integer division);
//! - pos (c-gomoku-cli's `type=pos`): `h8i9j10`, the column a letter from `a` (x = 0), the row a
//!   number from 1 (y = number - 1), counted from the top-left corner whatever the board's size.
//!
//! Blank lines and `#` comments are skipped. The same module writes both notations
//! ([`offset_line`], [`pos_line`]) and says whether stones may open a game under a rule
//! ([`check_stones`], [`stone_error`]).
//!
//! Invariant: a parsed [`Opening`] has at least one stone; placing it checks that every stone is on the
//! board and no two share a point.

use std::collections::HashSet;

use crate::game::board::{Board, Pos};
use crate::game::rules::{Rules, Verdict};

/// What an opening's coordinates count from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Offsets from the centre (the offset notation).
    Centre,
    /// Columns and rows from the top-left corner (the pos notation).
    Corner,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The stones in order, as `(x, y)` counted from `origin`.
    pub stones: Vec<(i32, i32)>,
    pub origin: Origin,
}

impl Opening {
    /// The stones on a `width` x `height` board, in order.
    pub fn place(&self, width: usize, height: usize) -> Result<Vec<Pos>, String> {
        let (ox, oy) = match self.origin {
            Origin::Centre => ((width / 2) as i32, (height / 2) as i32),
            Origin::Corner => (0, 0),
        };
        let mut seen = HashSet::new();
        let mut out = Vec::with_capacity(self.stones.len());
        for &(sx, sy) in &self.stones {
            let (x, y) = (sx + ox, sy + oy);
            if x < 0 || y < 0 || x as usize >= width || y as usize >= height {
                let stone = match self.origin {
                    Origin::Centre => format!("{sx},{sy}"),
                    Origin::Corner => format!("at column {} row {}", sx + 1, sy + 1),
                };
                return Err(format!("opening stone {stone} is off a {width}x{height} board"));
            }
            let p = Pos::new(x as usize, y as usize);
            if !seen.insert(p) {
                return Err(format!("opening repeats the point {}", p.notation()));
            }
            out.push(p);
        }
        Ok(out)
    }
}

/// Parses an openings file (each line in either notation).
pub fn parse_openings(text: &str) -> Result<Vec<Opening>, String> {
    let mut out = vec![];
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let opening = if line.starts_with(|c: char| c.is_ascii_alphabetic()) {
            parse_pos(line)
        } else {
            parse_offsets(line)
        };
        out.push(opening.map_err(|why| format!("openings line {}: {why}", i + 1))?);
    }
    if out.is_empty() {
        return Err("no opening in the file".into());
    }
    Ok(out)
}

fn parse_offsets(line: &str) -> Result<Opening, String> {
    let nums: Result<Vec<i32>, _> = line.split(',').map(|t| t.trim().parse::<i32>()).collect();
    let nums = nums.map_err(|_| format!("'{line}' is not a list of numbers"))?;
    if nums.is_empty() || nums.len() % 2 != 0 {
        return Err("an odd count of numbers".into());
    }
    Ok(Opening { stones: nums.chunks(2).map(|c| (c[0], c[1])).collect(), origin: Origin::Centre })
}

fn parse_pos(line: &str) -> Result<Opening, String> {
    let points = Pos::parse_list(line).map_err(|why| format!("'{line}': {why}"))?;
    Ok(Opening { stones: points.iter().map(|p| (p.x as i32, p.y as i32)).collect(), origin: Origin::Corner })
}

/// `stones` on a `width` x `height` board in the offset notation: `dx,dy, dx,dy, ...`.
pub fn offset_line(stones: &[Pos], width: usize, height: usize) -> String {
    let (cx, cy) = ((width / 2) as i32, (height / 2) as i32);
    let parts: Vec<String> =
        stones.iter().map(|p| format!("{},{}", p.x as i32 - cx, p.y as i32 - cy)).collect();
    parts.join(", ")
}

/// `stones` in the pos notation: `h8i9j10` (columns past `z` cannot be written: see [`Origin`]).
pub fn pos_line(stones: &[Pos]) -> String {
    stones.iter().map(|p| p.notation()).collect()
}

/// Why the next stone may not go on `p` in an opening, if it may not: it is taken, breaks Pente's
/// opening rule, is a renju foul, captures, or wins (an opening is a start, not a game).
pub fn stone_error(rules: &Rules, board: &Board, p: Pos) -> Option<String> {
    if !board.is_empty(p) {
        return Some(format!("{} is played twice", p.notation()));
    }
    let name = p.notation();
    match rules.verdict(board, p) {
        Verdict::Continue if board.captures_at(p, board.side_to_move()).is_empty() => None,
        Verdict::Illegal(why) => Some(format!("{name} breaks the {rules} opening: {why}")),
        Verdict::Foul(kind) => Some(format!("{name} is forbidden for black under {rules} ({kind})")),
        _ => Some(format!("{name} ends or changes the game under {rules}")),
    }
}

/// `stones` played in order from the empty `width` x `height` board under `rules`: the board they
/// make, or why one of them may not open a game ([`stone_error`]).
pub fn check_stones(rules: &Rules, width: usize, height: usize, stones: &[Pos]) -> Result<Board, String> {
    let mut board = Board::new(width as i64, height as i64).map_err(|e| e.to_string())?;
    board.set_capture(rules.capture_rule());
    for &p in stones {
        if let Some(why) = stone_error(rules, &board, p) {
            return Err(why);
        }
        board.play_unchecked(p);
    }
    Ok(board)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_from_the_centre() {
        let o = parse_openings("# c\n0,0, 1,0, 1,3\n\n-7,-7, 7,7\n").unwrap();
        assert_eq!(o.len(), 2);
        assert_eq!(o[0].place(15, 15).unwrap(), vec![Pos::new(7, 7), Pos::new(8, 7), Pos::new(8, 10)]);
        assert_eq!(o[1].place(15, 15).unwrap(), vec![Pos::new(0, 0), Pos::new(14, 14)]);
        assert!(o[1].place(10, 10).is_err());
        assert!(parse_openings("1,2,3").is_err());
        assert!(parse_openings("").is_err());
    }

    #[test]
    fn pos_lines_count_from_the_corner_and_mix_with_offsets() {
        // c-gomoku-cli's example line, and its offset twin on 15x15 (centre h8).
        let o = parse_openings("b7d6e6f7h2k5\n-6,-1, -4,-2, -3,-2, -2,-1, 0,-6, 3,-3\nH8I9\n").unwrap();
        let want = [(1, 6), (3, 5), (4, 5), (5, 6), (7, 1), (10, 4)].map(|(x, y)| Pos::new(x, y));
        assert_eq!(o[0].place(15, 15).unwrap(), want);
        assert_eq!(o[1].place(15, 15).unwrap(), want);
        // The corner does not move with the board's size; the centre does.
        assert_eq!(o[0].place(20, 20).unwrap(), want);
        assert_ne!(o[1].place(20, 20).unwrap(), want);
        assert_eq!(o[2].place(15, 15).unwrap(), [Pos::new(7, 7), Pos::new(8, 8)]);
        assert!(o[0].place(10, 5).is_err());
        assert!(parse_openings("h8 i9").is_err());
        assert!(parse_openings("h0").is_err());
        assert!(parse_openings("8h").is_err());
    }

    #[test]
    fn both_notations_read_back_what_they_write() {
        let stones = [Pos::new(0, 2), Pos::new(13, 9), Pos::new(6, 5)];
        for (w, h) in [(15, 15), (20, 12), (14, 10)] {
            let text = format!("{}\n{}\n", offset_line(&stones, w, h), pos_line(&stones));
            for o in parse_openings(&text).unwrap() {
                assert_eq!(o.place(w, h).unwrap(), stones);
            }
        }
        assert_eq!(offset_line(&stones, 15, 15), "-7,-5, 6,2, -1,-2");
        assert_eq!(pos_line(&stones), "a3n10g6");
    }

    #[test]
    fn stones_that_cannot_open_a_game_are_named() {
        let freestyle = Rules::default();
        let p = |x, y| Pos::new(x, y);
        assert!(check_stones(&freestyle, 15, 15, &[p(7, 7), p(8, 8)]).is_ok());
        assert!(check_stones(&freestyle, 15, 15, &[p(7, 7), p(7, 7)]).is_err());
        // Black's fifth stone in a row wins: no opening.
        let five = [p(0, 0), p(0, 5), p(1, 0), p(1, 5), p(2, 0), p(2, 5), p(3, 0), p(3, 5), p(4, 0)];
        assert!(check_stones(&freestyle, 15, 15, &five[..8]).is_ok());
        assert!(check_stones(&freestyle, 15, 15, &five).is_err());
        // Pente: the first stone on the centre.
        let pente = Rules::pente(false);
        assert!(check_stones(&pente, 19, 19, &[p(9, 9), p(10, 10)]).is_ok());
        assert!(check_stones(&pente, 19, 19, &[p(8, 9)]).is_err());
    }
}
