//! Game records: PSQ (Piskvork's format, one game per file) and SGF (one collection for a match).
//!
//! PSQ: `Piskvorky WxH, 11:11, 0`, then one `x,y,ms` line per move with 1-based coordinates, then the
//! players' names and the result in words. SGF: `GM[4]` (gomoku), letters `a..` for both coordinates
//! counted from the top-left corner, the opening stones as ordinary moves, `RE` as `B+`, `W+` or `0`,
//! and the reason of the end in a comment.

use std::fmt::Write;

use crate::board::{Color, Pos};

/// One finished game as the referee saw it.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub width: usize,
    pub height: usize,
    pub rule: i64,
    pub black: String,
    pub white: String,
    /// Opening stones, then the engines' moves with the milliseconds each took (0 for opening stones).
    pub moves: Vec<(Pos, u64)>,
    /// How many of `moves` the opening placed.
    pub opening_len: usize,
    pub winner: Option<Color>,
    /// Why the game ended, in words.
    pub reason: String,
}

impl GameRecord {
    pub fn result_text(&self) -> String {
        match self.winner {
            Some(Color::Black) => format!("{} (black) wins: {}", self.black, self.reason),
            Some(Color::White) => format!("{} (white) wins: {}", self.white, self.reason),
            None => format!("draw: {}", self.reason),
        }
    }

    pub fn psq(&self) -> String {
        let mut s = format!("Piskvorky {}x{}, 11:11, 0\n", self.width, self.height);
        for (p, ms) in &self.moves {
            let _ = writeln!(s, "{},{},{}", p.x as u32 + 1, p.y as u32 + 1, ms);
        }
        let _ = writeln!(s, "{}\n{}\n{}", self.black, self.white, self.result_text());
        s
    }

    pub fn sgf(&self) -> String {
        let esc = |t: &str| t.replace('\\', "\\\\").replace(']', "\\]");
        let size = if self.width == self.height {
            self.width.to_string()
        } else {
            format!("{}:{}", self.width, self.height)
        };
        let re = match self.winner {
            Some(Color::Black) => "B+",
            Some(Color::White) => "W+",
            None => "0",
        };
        let mut s = format!(
            "(;GM[4]FF[4]CA[UTF-8]AP[quincunx]SZ[{size}]RU[{}]PB[{}]PW[{}]RE[{re}]C[{}]",
            self.rule,
            esc(&self.black),
            esc(&self.white),
            esc(&self.result_text())
        );
        for (i, (p, _)) in self.moves.iter().enumerate() {
            let c = if i % 2 == 0 { 'B' } else { 'W' };
            let letter = |v: u8| (b'a' + v) as char;
            let _ = write!(s, ";{c}[{}{}]", letter(p.x), letter(p.y));
        }
        s.push_str(")\n");
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> GameRecord {
        GameRecord {
            width: 15,
            height: 15,
            rule: 0,
            black: "a".into(),
            white: "b".into(),
            moves: vec![(Pos::new(7, 7), 0), (Pos::new(8, 8), 12)],
            opening_len: 1,
            winner: Some(Color::White),
            reason: "five in a row".into(),
        }
    }

    #[test]
    fn psq_is_one_based() {
        let psq = sample().psq();
        assert!(psq.starts_with("Piskvorky 15x15, 11:11, 0\n8,8,0\n9,9,12\na\nb\n"));
    }

    #[test]
    fn sgf_moves_and_result() {
        let sgf = sample().sgf();
        assert!(sgf.contains("SZ[15]") && sgf.contains("RE[W+]") && sgf.contains(";B[hh];W[ii])"));
    }
}
