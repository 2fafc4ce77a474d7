//! The rules of the game: what wins, what is forbidden, which lines can still be completed.
//!
//! One [`Rules`] value describes the game being played; it is built from the protocol's `INFO rule`
//! bitmask (1 exactly five, 2 continuous game, 4 renju, 8 caro) and our `INFO line_length` extension.
//! Every rule difference lives here and in [`crate::game::renju`]; the players ask, they never re-implement.
//!
//! Invariants: `line` is in [`MIN_LINE`, `MAX_LINE`]; renju and caro always play with a line of 5 (their
//! definitions are about fives), whatever line length was asked for.
//!
//! What each variant takes to win, for a run of `c` stones of one colour through the last move:
//!
//! ```text
//! freestyle  c >= K
//! exact      c == K                                  (x x x x x x is nothing, play goes on)
//! renju      black: c == 5, and a forbidden move loses; white: c >= 5
//! caro       c > 5, or c == 5 unless both ends are opponent stones (o x x x x x o is nothing;
//!            the board edge is not a block)       [GomocupJudge, current]
//! caro+exact c == 5 unless both ends are opponent stones
//! pente      c >= 5, or 10 opponent stones captured (pairs); keryo: pairs or triples, 15 stones
//! ```
//!
//! Pente and Keryo-Pente (our `INFO variant` extension) add captures ([`CaptureRule`], applied by the
//! board) and the tournament opening: the first stone on the centre, the first player's second stone
//! at least 3 points from it (outside the central 5x5).

use std::fmt;

use crate::game::board::{Board, CaptureRule, Cell, Color, DIRECTIONS, Pos};
use crate::game::renju::{self, Forbidden};

/// Shortest line length the `line_length` extension accepts.
pub const MIN_LINE: u8 = 3;
/// Longest line length the `line_length` extension accepts.
pub const MAX_LINE: u8 = 8;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// K or more in a row wins.
    Freestyle,
    /// Exactly K in a row wins; longer lines are nothing.
    Exact,
    /// RIF renju: black has forbidden moves (double-three, double-four, overline) and needs exactly five.
    Renju,
    /// Vietnamese caro: a five closed by opponent stones at both ends does not win. With `exact` (rule 9)
    /// an overline does not win either.
    Caro { exact: bool },
    /// Pente: five or more wins, and so do 10 captured stones; `keryo` captures runs of two or three
    /// and needs 15; `g` is G-Pente's stricter opening (see [`Rules::opening_error`]).
    Pente { keryo: bool, g: bool },
}

/// Every game the command lines name, in the order they are listed to users.
pub const GAME_NAMES: &[&str] =
    &["freestyle", "exact", "renju", "caro", "caro-exact", "pente", "keryo", "gpente"];

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    pub variant: Variant,
    /// Stones in a row needed to win (K).
    pub line: u8,
    /// Rule bit 2: the game goes on after a five (GUI analysis); accepted and remembered.
    pub continuous: bool,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules { variant: Variant::Freestyle, line: 5, continuous: false }
    }
}

/// What a move does under the rules, judged before it is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The mover wins.
    Win,
    /// Renju: black's move is forbidden and loses.
    Foul(Forbidden),
    /// Pente: the move breaks the opening rule (it loses like a foul).
    Illegal(&'static str),
    /// Nothing decided.
    Continue,
}

impl Rules {
    /// Decodes the protocol's `INFO rule` bitmask as the Gomocup referee does: renju (4) first, then caro
    /// (8, with 1 meaning caro's exact-five form), then exact five (1), else freestyle. Bit 2 is the
    /// continuous game. `line` applies to freestyle and exact five only. Unknown bits are reported in the
    /// second value and otherwise ignored.
    pub fn from_mask(mask: i64, line: u8) -> (Rules, Option<String>) {
        let known = 1 | 2 | 4 | 8;
        let warning = (mask < 0 || mask & !known != 0).then(|| {
            format!("rule {mask}: unknown bits ignored (known: 1 exact five, 2 continuous, 4 renju, 8 caro)")
        });
        let mask = if mask < 0 { 0 } else { mask };
        let variant = if mask & 4 != 0 {
            Variant::Renju
        } else if mask & 8 != 0 {
            Variant::Caro { exact: mask & 1 != 0 }
        } else if mask & 1 != 0 {
            Variant::Exact
        } else {
            Variant::Freestyle
        };
        let line = match variant {
            Variant::Freestyle | Variant::Exact => line.clamp(MIN_LINE, MAX_LINE),
            Variant::Renju | Variant::Caro { .. } | Variant::Pente { .. } => 5,
        };
        (Rules { variant, line, continuous: mask & 2 != 0 }, warning)
    }

    /// Pente (`keryo`: Keryo-Pente), on a line of five.
    pub fn pente(keryo: bool) -> Rules {
        Rules { variant: Variant::Pente { keryo, g: false }, line: 5, continuous: false }
    }

    /// The Pente family by the names the command lines and `INFO variant` use: `pente`, `keryo`,
    /// `gpente` (`None` for anything else).
    pub fn pente_named(name: &str) -> Option<Rules> {
        match name {
            "pente" => Some(Rules::pente(false)),
            "keryo" => Some(Rules::pente(true)),
            "gpente" => Some(Rules::g_pente()),
            _ => None,
        }
    }

    /// A game by the name the command lines use (`play --rules`, `match --variant`): one of
    /// [`GAME_NAMES`], case-insensitive; `None` for anything else.
    pub fn named(name: &str) -> Option<Rules> {
        let name = name.to_ascii_lowercase();
        if let Some(pente) = Rules::pente_named(&name) {
            return Some(pente);
        }
        let mask = match name.as_str() {
            "freestyle" => 0,
            "exact" | "standard" => 1,
            "renju" => 4,
            "caro" => 8,
            "caro-exact" => 9,
            _ => return None,
        };
        Some(Rules::from_mask(mask, 5).0)
    }

    /// The name [`Rules::named`] reads back as these rules (the line length aside).
    pub fn name(&self) -> &'static str {
        match self.variant {
            Variant::Pente { keryo: true, .. } => "keryo",
            Variant::Pente { g: true, .. } => "gpente",
            Variant::Pente { .. } => "pente",
            Variant::Freestyle => "freestyle",
            Variant::Exact => "exact",
            Variant::Renju => "renju",
            Variant::Caro { exact: false } => "caro",
            Variant::Caro { exact: true } => "caro-exact",
        }
    }

    /// G-Pente: Pente with a stricter opening.
    pub fn g_pente() -> Rules {
        Rules { variant: Variant::Pente { keryo: false, g: true }, line: 5, continuous: false }
    }

    /// The capture rule of the variant, if it captures.
    pub fn capture_rule(&self) -> Option<CaptureRule> {
        match self.variant {
            Variant::Pente { keryo: false, .. } => Some(CaptureRule { min: 2, max: 2, to_win: 10 }),
            Variant::Pente { keryo: true, .. } => Some(CaptureRule { min: 2, max: 3, to_win: 15 }),
            _ => None,
        }
    }

    /// The board side when none is given (the command lines, the board in the browser): 19 for the
    /// Pente family, as its boards are, 15 for the rest.
    pub fn default_side(&self) -> usize {
        if self.capture_rule().is_some() { 19 } else { 15 }
    }

    /// The opening rule of Pente: why `p` may not be the next stone, if it may not. The first stone
    /// goes on the centre; the first player's second stone (the third of the game) at least 3 points
    /// from it along a row or a column (Chebyshev distance >= 3). G-Pente also keeps it off the
    /// centre's row and column at distance 3 and 4.
    ///
    /// ```text
    ///   . . . . . . . . . . .      * centre     x  not for the second stone
    ///   . . . . . . . . . . .      g  not in G-Pente either
    ///   . . . . . g . . . . .
    ///   . . . . . g . . . . .
    ///   . . . x x x x x . . .
    ///   . g g x x * x x g g .
    ///   . . . x x x x x . . .
    /// ```
    pub fn opening_error(&self, board: &Board, p: Pos) -> Option<&'static str> {
        let Variant::Pente { g, .. } = self.variant else { return None };
        tournament_opening(board, p, g).map(OpeningError::reason)
    }

    /// The bitmask this rule set answers to (the inverse of [`Rules::from_mask`]).
    pub fn mask(&self) -> i64 {
        let base = match self.variant {
            Variant::Freestyle => 0,
            Variant::Exact => 1,
            Variant::Renju => 4,
            Variant::Caro { exact } => 8 | exact as i64,
            Variant::Pente { .. } => 0,
        };
        base | if self.continuous { 2 } else { 0 }
    }

    /// Whether a run of `len` stones of `color` is long enough to win, ignoring caro's blocked ends.
    #[inline]
    fn run_wins(&self, color: Color, len: usize) -> bool {
        let k = self.line as usize;
        match self.variant {
            Variant::Freestyle => len >= k,
            Variant::Exact => len == k,
            Variant::Renju => len == 5 || (color == Color::White && len > 5),
            Variant::Caro { exact } => len == 5 || (!exact && len > 5),
            Variant::Pente { .. } => len >= 5,
        }
    }

    /// Whether overlines are no win for `color` (so a completion must not touch another own stone).
    #[inline]
    pub fn exact_for(&self, color: Color) -> bool {
        match self.variant {
            Variant::Freestyle => false,
            Variant::Exact => true,
            Variant::Renju => color == Color::Black,
            Variant::Caro { exact } => exact,
            Variant::Pente { .. } => false,
        }
    }

    /// Whether a stone of `color` at `p` (empty, or already holding that stone) makes a winning line.
    pub fn makes_win(&self, board: &Board, p: Pos, color: Color) -> bool {
        DIRECTIONS.iter().any(|&d| {
            let ahead = board.run_from(p, d, color);
            let behind = board.run_from(p, (-d.0, -d.1), color);
            let len = ahead + behind + 1;
            if !self.run_wins(color, len) {
                return false;
            }
            match self.variant {
                Variant::Caro { .. } if len == 5 => {
                    // The cells just past both ends: a five with opponent stones on both sides is no win.
                    let end = |n: usize, (dx, dy): (i32, i32)| {
                        let n = n as i32 + 1;
                        board.at(p.x as i32 + dx * n, p.y as i32 + dy * n)
                    };
                    let opp = Cell::Stone(color.opp());
                    !(end(ahead, d) == opp && end(behind, (-d.0, -d.1)) == opp)
                }
                _ => true,
            }
        })
    }

    /// Judges the move of the side to move at the empty point `p`: a win, a renju foul, or neither.
    /// A black renju move that makes a five wins even if it also makes a forbidden shape.
    pub fn verdict(&self, board: &Board, p: Pos) -> Verdict {
        debug_assert!(board.is_empty(p));
        let color = board.side_to_move();
        if let Some(why) = self.opening_error(board, p) {
            return Verdict::Illegal(why);
        }
        if self.makes_win(board, p, color) {
            return Verdict::Win;
        }
        if let Some(rule) = board.capture_rule()
            && board.captured(color) + board.captures_at(p, color).len() >= rule.to_win as usize
        {
            return Verdict::Win;
        }
        if self.variant == Variant::Renju
            && color == Color::Black
            && let Some(kind) = renju::forbidden(board, p)
        {
            return Verdict::Foul(kind);
        }
        Verdict::Continue
    }

    /// A legal move for the side to move, the first in reading order (a winning one first): what a
    /// brain plays when its player has failed. A renju foul or a move against Pente's opening rule is
    /// taken only when nothing else is left; `None` on a full board.
    pub fn any_legal_move(&self, board: &Board) -> Option<Pos> {
        let empty = || board.points().filter(|&p| board.is_empty(p));
        let verdict = |p| self.verdict(board, p);
        empty()
            .find(|&p| verdict(p) == Verdict::Win)
            .or_else(|| empty().find(|&p| verdict(p) == Verdict::Continue))
            .or_else(|| empty().next())
    }

    /// Black's forbidden points (renju only; empty under every other rule).
    pub fn forbidden_points(&self, board: &Board) -> Vec<Pos> {
        if self.variant != Variant::Renju {
            return Vec::new();
        }
        board.points().filter(|&p| board.is_empty(p) && renju::forbidden(board, p).is_some()).collect()
    }

    /// Whether a move of `color` at `p` is forbidden (renju black only).
    pub fn is_forbidden(&self, board: &Board, p: Pos, color: Color) -> bool {
        self.variant == Variant::Renju
            && color == Color::Black
            && board.is_empty(p)
            && !self.makes_win(board, p, color)
            && renju::forbidden(board, p).is_some()
    }

    /// Whether `color` could still fill the window of `line` cells starting at `start` in direction `d`
    /// to a win: it holds no opponent stone or wall; where overlines do not count, the cells just outside
    /// hold no own stone; under caro, the cells just outside are not both opponent stones.
    #[inline]
    pub fn window_open(&self, board: &Board, start: Pos, d: (i32, i32), color: Color) -> bool {
        let k = self.line as i32;
        let (x0, y0) = (start.x as i32, start.y as i32);
        for i in 0..k {
            match board.at(x0 + d.0 * i, y0 + d.1 * i) {
                Cell::Empty => {}
                Cell::Stone(c) if c == color => {}
                _ => return false,
            }
        }
        let before = board.at(x0 - d.0, y0 - d.1);
        let after = board.at(x0 + d.0 * k, y0 + d.1 * k);
        if self.exact_for(color) && (before == Cell::Stone(color) || after == Cell::Stone(color)) {
            return false;
        }
        if matches!(self.variant, Variant::Caro { .. }) {
            let opp = Cell::Stone(color.opp());
            if before == opp && after == opp {
                return false;
            }
        }
        true
    }

    /// Whether either side can still complete some line: when neither can, the game is a dead draw.
    pub fn any_line_open(&self, board: &Board) -> bool {
        winning_lines(board.width(), board.height(), self.line).any(|(start, d)| {
            self.window_open(board, start, d, Color::Black) || self.window_open(board, start, d, Color::White)
        })
    }
}

/// Every window of `k` cells in a row on a `width` x `height` board, as (first cell, direction). On a
/// square board of side n with delta = n + 1 - k there are `2*n*delta + 2*delta^2` of them.
pub fn winning_lines(width: usize, height: usize, k: u8) -> impl Iterator<Item = (Pos, (i32, i32))> {
    let k = k as i32;
    let (w, h) = (width as i32, height as i32);
    DIRECTIONS.into_iter().flat_map(move |d| {
        (0..h).flat_map(move |y| {
            (0..w).filter_map(move |x| {
                let (ex, ey) = (x + d.0 * (k - 1), y + d.1 * (k - 1));
                (ex >= 0 && ex < w && ey >= 0 && ey < h).then(|| (Pos::new(x as usize, y as usize), d))
            })
        })
    })
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self.variant {
            Variant::Freestyle => format!("freestyle ({} or more)", self.line),
            Variant::Exact => format!("exactly {}", self.line),
            Variant::Renju => "renju".to_string(),
            Variant::Caro { exact: false } => "caro".to_string(),
            Variant::Caro { exact: true } => "caro, exactly five".to_string(),
            Variant::Pente { keryo: false, g: false } => "pente".to_string(),
            Variant::Pente { keryo: false, g: true } => "g-pente".to_string(),
            Variant::Pente { keryo: true, .. } => "keryo-pente".to_string(),
        };
        write!(f, "{name}{}", if self.continuous { ", continuous" } else { "" })
    }
}

/// Why the tournament opening rule refuses a stone (see [`Rules::opening_error`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpeningError {
    /// The first stone goes on the centre.
    NotOnCentre,
    /// The first player's second stone goes 3 or more points from the centre.
    TooNearCentre,
    /// G-Pente: nor on the centre's row or column within 4.
    OnCentreLine,
}

impl OpeningError {
    pub fn reason(self) -> &'static str {
        match self {
            OpeningError::NotOnCentre => "the first stone must go on the centre",
            OpeningError::TooNearCentre => {
                "the first player's second stone must be 3 or more points from the centre"
            }
            OpeningError::OnCentreLine => {
                "G-Pente: the first player's second stone may not be on the centre's lines within 4"
            }
        }
    }
}

/// The tournament opening rule, which Pente always keeps and `play --tournament-rule` adds to the
/// gomoku rules (`g`: G-Pente's stricter form): why `p` may not be the next stone, if it may not.
pub fn tournament_opening(board: &Board, p: Pos, g: bool) -> Option<OpeningError> {
    let (cx, cy) = (board.width() as i32 / 2, board.height() as i32 / 2);
    let (dx, dy) = ((p.x as i32 - cx).abs(), (p.y as i32 - cy).abs());
    let far = dx.max(dy);
    match board.placed() {
        0 if far != 0 => Some(OpeningError::NotOnCentre),
        2 if far < 3 => Some(OpeningError::TooNearCentre),
        2 if g && dx.min(dy) == 0 && far <= 4 => Some(OpeningError::OnCentreLine),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(mask: i64) -> Rules {
        Rules::from_mask(mask, 5).0
    }

    #[test]
    fn the_fallback_move_is_no_renju_foul_while_a_legal_point_is_left() {
        // Black to move: a1 (0,0) makes two fours, a foul; b1 to d1 are taken; e1 (4,0) is legal.
        let board = Board::from_diagram(
            "
            . x x x . . .
            x . . . . . .
            x . . . . . .
            x . . . . . .
            . . . . . . .
            o o o . o o o
            ",
        )
        .expect("diagram");
        assert_eq!(rules(4).any_legal_move(&board), board.pos(4, 0));
        assert_eq!(rules(0).any_legal_move(&board), board.pos(0, 0), "in freestyle a1 is only a double four");
    }

    #[test]
    fn every_game_name_reads_back() {
        for &name in GAME_NAMES {
            let r = Rules::named(name).unwrap_or_else(|| panic!("{name}"));
            assert_eq!(r.name(), name);
            assert_eq!(Rules::named(&name.to_ascii_uppercase()), Some(r));
        }
        assert_eq!(Rules::named("caro-exact"), Some(rules(9)));
        assert_eq!(Rules::named("gomoku"), None);
    }

    #[test]
    fn mask_decoding_follows_the_referee() {
        assert_eq!(rules(0).variant, Variant::Freestyle);
        assert_eq!(rules(1).variant, Variant::Exact);
        assert_eq!(rules(4).variant, Variant::Renju);
        assert_eq!(rules(5).variant, Variant::Renju);
        assert_eq!(rules(8).variant, Variant::Caro { exact: false });
        assert_eq!(rules(9).variant, Variant::Caro { exact: true });
        assert!(rules(3).continuous);
        assert_eq!(rules(3).variant, Variant::Exact);
        assert!(Rules::from_mask(16, 5).1.is_some());
        for m in [0, 1, 2, 3, 4, 6, 8, 9, 10, 11] {
            assert_eq!(rules(m).mask(), m);
        }
    }

    #[test]
    fn winning_line_counts() {
        // 2*n*delta + 2*delta^2, delta = n + 1 - k
        assert_eq!(winning_lines(10, 10, 5).count(), 192);
        assert_eq!(winning_lines(15, 15, 5).count(), 572);
        for n in 5..=32usize {
            for k in 3..=8u8 {
                if (k as usize) > n {
                    continue;
                }
                let delta = n + 1 - k as usize;
                assert_eq!(winning_lines(n, n, k).count(), 2 * n * delta + 2 * delta * delta, "n={n} k={k}");
            }
        }
        // rectangular: rows and columns separately, diagonals both ways
        assert_eq!(winning_lines(7, 5, 5).count(), 5 * 3 + 7 + 2 * 3);
    }

    const SIX: &str = "\
        . . . . . . . . .
        x x x x x . . . .
        o o o o . . . . .
        . . . . . . . . .
        . . . . . . . . .";

    #[test]
    fn overline_wins_in_freestyle_only() {
        let b: Board = SIX.parse().unwrap();
        // White to move? no: 5 black, 4 white: white to move; judge black stones directly.
        let p = Pos::new(5, 1);
        assert!(rules(0).makes_win(&b, p, Color::Black));
        assert!(!rules(1).makes_win(&b, p, Color::Black));
        assert!(!rules(4).makes_win(&b, p, Color::Black), "black overline is no win in renju");
        assert!(rules(8).makes_win(&b, p, Color::Black), "caro: overline wins");
        assert!(!rules(9).makes_win(&b, p, Color::Black));
    }

    #[test]
    fn caro_five_blocked_at_both_ends() {
        let b: Board = "\
            . . . . . . . . .
            o x x x x . o . .
            . . . . . . . . .
            . o o . . . . . .
            . . . . . . . . ."
            .parse()
            .unwrap();
        let p = Pos::new(5, 1);
        assert!(!rules(8).makes_win(&b, p, Color::Black), "o x x x x x o");
        assert!(rules(0).makes_win(&b, p, Color::Black));
        // at the edge: the edge is not a block
        let b: Board = "\
            x x x x . o . . .
            . . . . . . . . .
            . o o . . . . . .
            . . . . . . . . .
            . . . . . . . . ."
            .parse()
            .unwrap();
        assert!(rules(8).makes_win(&b, Pos::new(4, 0), Color::Black));
    }

    #[test]
    fn line_length_extension() {
        let (r, _) = Rules::from_mask(0, 4);
        let b: Board = "x x x . .\no o o . .\n. . . . .\n. . . . .\n. . . . .".parse().unwrap();
        assert!(r.makes_win(&b, Pos::new(3, 0), Color::Black));
        let (r, _) = Rules::from_mask(4, 4);
        assert_eq!(r.line, 5, "renju keeps its five");
    }

    #[test]
    fn dead_draw_detection() {
        // 5x5 freestyle: every row, column and diagonal holds both colours or a wall.
        let b: Board = "\
            x o x o x
            x o x o x
            o x o x o
            o x o x o
            x o x o #"
            .parse()
            .unwrap();
        assert!(!rules(0).any_line_open(&b));
        let b = Board::new(5, 5).unwrap();
        assert!(rules(0).any_line_open(&b));
    }
}
