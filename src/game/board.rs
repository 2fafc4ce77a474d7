//! The board: a rectangle of cells, the stones on it, and the order they were played in.
//!
//! Invariants:
//! - `width` and `height` are within [`MIN_SIDE`, `MAX_SIDE`]; every `Pos` stored here is on the board.
//! - `history` lists the moves in the order they were played and `counts` how many stones each colour
//!   has on the board. Without captures the two agree exactly. Under a capture rule (Pente) a move may
//!   take opponent stones off: they are logged in `removed` with the move that took them (so `undo`
//!   puts them back), `lost` counts them per colour, and a point may appear twice in the history.
//! - The side to move is the one that has placed fewer stones (`counts + lost`), black on equal counts:
//!   in a game that is plain alternation, black first; a set-up position (a diagram, a data file) may
//!   have any counts. Walls (the protocol's field 3) are not stones and are not in the history.
//! - The protocol's coordinates are kept as they are: `x` is the column, `y` the row, (0,0) the top-left
//!   corner. Text diagrams are drawn the same way: the first line is row 0.
//!
//! Moves from outside (a manager, a user, a data file) go through [`Board::try_play`], which checks them;
//! code that already knows a move is legal (the search) uses [`Board::play_unchecked`].

use std::fmt;
use std::str::FromStr;

/// Smallest board side the engine plays on.
pub const MIN_SIDE: usize = 5;
/// Largest board side the engine plays on.
pub const MAX_SIDE: usize = 32;

/// A player. Black is the first player (the protocol does not name colours; the side that moves on an
/// empty board is black).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    Black,
    White,
}

impl Color {
    /// The other player.
    pub fn opp(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for black, 1 for white: for per-side arrays.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The colour's name as the tools write it: `black`, `white`.
    pub fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }
}

/// What a cell holds. `Wall` is a cell nobody may use: off the board, or a field-3 cell of a BOARD.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Cell {
    Empty,
    Stone(Color),
    Wall,
}

/// A point of the board, in protocol coordinates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pos {
    pub x: u8,
    pub y: u8,
}

impl Pos {
    pub fn new(x: usize, y: usize) -> Pos {
        debug_assert!(x < MAX_SIDE && y < MAX_SIDE);
        Pos { x: x as u8, y: y as u8 }
    }

    /// Parses the "pos" notation of GomocupJudge, Yixin and our data files: a column name (see
    /// [`column_name`], any case) and a row number from 1, so `h8` is (7,7) and `ab30` (27,29).
    pub fn from_notation(s: &str) -> Option<Pos> {
        let split = s.find(|c: char| !c.is_ascii_alphabetic()).unwrap_or(s.len());
        let (letters, digits) = s.split_at(split);
        let x = parse_column(letters)?;
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let row: usize = digits.parse().ok()?;
        if row == 0 || row > MAX_SIDE {
            return None;
        }
        Some(Pos::new(x, row - 1))
    }

    /// Points in pos notation written one after another with nothing between (`h8i9j10`), as Yixin,
    /// c-gomoku-cli's `pos` openings and our data files write a game.
    pub fn parse_list(s: &str) -> Result<Vec<Pos>, String> {
        let bytes = s.as_bytes();
        let mut out = vec![];
        let mut i = 0;
        while i < bytes.len() {
            let mut j = i + 1;
            while j < bytes.len() && bytes[j].is_ascii_alphabetic() {
                j += 1;
            }
            while j < bytes.len() && bytes[j].is_ascii_digit() {
                j += 1;
            }
            let text = s.get(i..j).ok_or("moves must be ASCII")?;
            out.push(Pos::from_notation(text).ok_or_else(|| format!("bad move '{text}'"))?);
            i = j;
        }
        Ok(out)
    }

    /// The pos notation of this point (`h8` for (7,7)).
    pub fn notation(self) -> String {
        format!("{}{}", column_name(self.x as usize), self.y as u32 + 1)
    }
}

/// The name of column `x` (from 0) in pos notation: `a` to `z`, then `aa`, `ab`, ... as spreadsheets
/// count, so that boards up to [`MAX_SIDE`] wide (`af`) name every column and the name reads back
/// ([`parse_column`]). Every other tool stops at 22 columns or less and names them alike.
pub fn column_name(x: usize) -> String {
    let letter = |k: usize| char::from(b'a' + (k % 26) as u8);
    if x < 26 { letter(x).to_string() } else { format!("{}{}", letter(x / 26 - 1), letter(x % 26)) }
}

/// The column a name gives (any case), the inverse of [`column_name`]; `None` past [`MAX_SIDE`].
pub fn parse_column(name: &str) -> Option<usize> {
    let mut x = 0usize;
    for c in name.chars() {
        let c = c.to_ascii_lowercase();
        if !c.is_ascii_lowercase() || x > MAX_SIDE {
            return None;
        }
        x = x * 26 + (c as usize - 'a' as usize + 1);
    }
    (1..=MAX_SIDE).contains(&x).then(|| x - 1)
}

impl fmt::Display for Pos {
    /// The protocol form `X,Y`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.x, self.y)
    }
}

/// The four line directions, as (dx, dy): horizontal, vertical, and the two diagonals.
pub const DIRECTIONS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// Why a move or a position was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardError {
    OffBoard {
        x: i64,
        y: i64,
    },
    Occupied(Pos),
    BadSize {
        width: i64,
        height: i64,
    },
    /// TAKEBACK of a point that is not the last move.
    CannotTakeBack(Pos),
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardError::OffBoard { x, y } => write!(f, "{x},{y} is off the board"),
            BoardError::Occupied(p) => write!(f, "{p} is already occupied"),
            BoardError::BadSize { width, height } => write!(
                f,
                "unsupported board size {width}x{height} (each side must be {MIN_SIDE} to {MAX_SIDE})"
            ),
            BoardError::CannotTakeBack(p) => {
                write!(f, "cannot take back {p}: only the last move can be taken back")
            }
        }
    }
}

impl std::error::Error for BoardError {}

/// Pente's capture rule: a move that brackets a run of `min..=max` opponent stones on a line (its own
/// stone at the far end) takes them off; `to_win` stones captured win the game.
///
/// ```text
/// x o o [x]   -> x . . x     the moving stone captures (in every direction at once)
/// x o [o] x   -> nothing     playing into a bracket is safe
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CaptureRule {
    pub min: u8,
    pub max: u8,
    pub to_win: u8,
}

/// The eight directions a capture can run in.
pub const EIGHT: [(i32, i32); 8] = [(1, 0), (0, 1), (1, 1), (1, -1), (-1, 0), (0, -1), (-1, -1), (-1, 1)];

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    width: usize,
    height: usize,
    cells: Vec<Cell>,
    history: Vec<Pos>,
    counts: [usize; 2],
    capture: Option<CaptureRule>,
    /// Stones of each colour taken off by captures (so the opponent's captured count).
    lost: [usize; 2],
    /// Captured stones, each with the history length just after the move that took it.
    removed: Vec<(usize, Pos, Color)>,
}

impl Board {
    /// An empty board, or `BadSize` when a side is outside [`MIN_SIDE`, `MAX_SIDE`].
    pub fn new(width: i64, height: i64) -> Result<Board, BoardError> {
        let ok = |s: i64| (MIN_SIDE as i64..=MAX_SIDE as i64).contains(&s);
        if !ok(width) || !ok(height) {
            return Err(BoardError::BadSize { width, height });
        }
        let (width, height) = (width as usize, height as usize);
        Ok(Board {
            width,
            height,
            cells: vec![Cell::Empty; width * height],
            history: Vec::new(),
            counts: [0; 2],
            capture: None,
            lost: [0; 2],
            removed: Vec::new(),
        })
    }

    /// The capture rule moves obey from now on (`None`: no captures, the default).
    pub fn set_capture(&mut self, rule: Option<CaptureRule>) {
        self.capture = rule;
    }

    pub fn capture_rule(&self) -> Option<CaptureRule> {
        self.capture
    }

    /// Stones `c` has captured so far.
    pub fn captured(&self, c: Color) -> usize {
        self.lost[c.opp().index()]
    }

    /// Sets the captured counts (a position given by BOARD cannot show them): `by` is what each colour,
    /// black then white, has captured.
    pub fn set_captured(&mut self, by: [usize; 2]) {
        self.lost = [by[1], by[0]];
    }

    /// Stones placed so far by both sides, captured ones included.
    pub fn placed(&self) -> usize {
        self.counts[0] + self.counts[1] + self.lost[0] + self.lost[1]
    }

    /// Empty points left.
    pub fn empty_count(&self) -> usize {
        self.cells.iter().filter(|&&c| c == Cell::Empty).count()
    }

    /// The stones a stone of `c` on the empty `p` would capture, in every direction.
    pub fn captures_at(&self, p: Pos, c: Color) -> Vec<Pos> {
        let mut out = vec![];
        let Some(rule) = self.capture else { return out };
        let (x, y) = (p.x as i32, p.y as i32);
        for (dx, dy) in EIGHT {
            let mut n = 0;
            while n < rule.max as i32 && self.at(x + dx * (n + 1), y + dy * (n + 1)) == Cell::Stone(c.opp()) {
                n += 1;
            }
            // A bracket of exactly n: own stone right after the run.
            if n >= rule.min as i32 && self.at(x + dx * (n + 1), y + dy * (n + 1)) == Cell::Stone(c) {
                out.extend((1..=n).map(|k| Pos::new((x + dx * k) as usize, (y + dy * k) as usize)));
            }
        }
        out
    }

    /// The stones the last move captured.
    pub fn last_captures(&self) -> impl Iterator<Item = Pos> + '_ {
        let n = self.history.len();
        self.removed.iter().rev().take_while(move |r| r.0 == n).map(|r| r.1)
    }

    /// Takes off the stones a move just played at `p` captures.
    fn capture_from(&mut self, p: Pos, c: Color) {
        if self.capture.is_none() {
            return;
        }
        let n = self.history.len();
        for q in self.captures_at(p, c) {
            self.set(q, Cell::Empty);
            self.counts[c.opp().index()] -= 1;
            self.lost[c.opp().index()] += 1;
            self.removed.push((n, q, c.opp()));
        }
    }

    pub fn width(&self) -> usize {
        self.width
    }

    pub fn height(&self) -> usize {
        self.height
    }

    /// Every point of the board, row by row.
    pub fn points(&self) -> impl Iterator<Item = Pos> + use<> {
        let (w, h) = (self.width, self.height);
        (0..h).flat_map(move |y| (0..w).map(move |x| Pos::new(x, y)))
    }

    /// The point at (x, y), if it is on the board.
    pub fn pos(&self, x: i64, y: i64) -> Option<Pos> {
        if x >= 0 && y >= 0 && (x as usize) < self.width && (y as usize) < self.height {
            Some(Pos::new(x as usize, y as usize))
        } else {
            None
        }
    }

    /// The cell at signed coordinates: off the board reads as a wall, so line scans need no bounds
    /// checks of their own.
    #[inline]
    pub fn at(&self, x: i32, y: i32) -> Cell {
        if x < 0 || y < 0 || x as usize >= self.width || y as usize >= self.height {
            Cell::Wall
        } else {
            self.cells[y as usize * self.width + x as usize]
        }
    }

    #[inline]
    pub fn get(&self, p: Pos) -> Cell {
        self.cells[p.y as usize * self.width + p.x as usize]
    }

    #[inline]
    pub fn is_empty(&self, p: Pos) -> bool {
        self.get(p) == Cell::Empty
    }

    /// Writes a cell without touching the history. For rule code that tries stones and takes them back
    /// (renju's recursive forbidden-point test); the caller restores the cell before it returns.
    #[inline]
    pub(crate) fn set(&mut self, p: Pos, cell: Cell) {
        let w = self.width;
        self.cells[p.y as usize * w + p.x as usize] = cell;
    }

    /// The moves played so far, first to last.
    pub fn history(&self) -> &[Pos] {
        &self.history
    }

    pub fn last_move(&self) -> Option<Pos> {
        self.history.last().copied()
    }

    pub fn stone_count(&self) -> usize {
        self.history.len()
    }

    /// Stones of one colour on the board.
    pub fn count(&self, c: Color) -> usize {
        self.counts[c.index()]
    }

    /// The side that has placed fewer stones moves; black when both have placed as many.
    pub fn side_to_move(&self) -> Color {
        if self.counts[0] + self.lost[0] <= self.counts[1] + self.lost[1] {
            Color::Black
        } else {
            Color::White
        }
    }

    /// True when no empty cell is left.
    pub fn is_full(&self) -> bool {
        !self.cells.contains(&Cell::Empty)
    }

    /// Plays a stone of the side to move at (x, y) after checking it: off-board and occupied points are
    /// refused and leave the board as it was.
    pub fn try_play(&mut self, x: i64, y: i64) -> Result<Pos, BoardError> {
        let p = self.pos(x, y).ok_or(BoardError::OffBoard { x, y })?;
        if !self.is_empty(p) {
            return Err(BoardError::Occupied(p));
        }
        self.play_unchecked(p);
        Ok(p)
    }

    /// Plays a stone of the side to move.
    ///
    /// # Panics
    /// In debug builds, when `p` is not empty; in release builds the board would be corrupt, so callers
    /// must know the move is legal.
    #[inline]
    pub fn play_unchecked(&mut self, p: Pos) {
        debug_assert!(self.is_empty(p), "play_unchecked on {p}");
        let c = self.side_to_move();
        self.set(p, Cell::Stone(c));
        self.counts[c.index()] += 1;
        self.history.push(p);
        self.capture_from(p, c);
    }

    /// Places a stone of colour `c`, whatever the turn (the search's null moves make turns that the
    /// stone counts do not show).
    ///
    /// # Panics
    /// In debug builds, when `p` is not empty.
    #[inline]
    pub fn place_unchecked(&mut self, p: Pos, c: Color) {
        debug_assert!(self.is_empty(p), "place_unchecked on {p}");
        self.set(p, Cell::Stone(c));
        self.counts[c.index()] += 1;
        self.history.push(p);
        self.capture_from(p, c);
    }

    /// Takes back the last move, if any, and puts back what it captured.
    pub fn undo(&mut self) -> Option<Pos> {
        let n = self.history.len();
        while let Some(&(m, q, c)) = self.removed.last()
            && m == n
        {
            self.removed.pop();
            self.set(q, Cell::Stone(c));
            self.counts[c.index()] += 1;
            self.lost[c.index()] -= 1;
        }
        let p = self.history.pop()?;
        if let Cell::Stone(c) = self.get(p) {
            self.counts[c.index()] -= 1;
        }
        self.set(p, Cell::Empty);
        Some(p)
    }

    /// Removes the last move, which must be at `p` (a GUI's undo names the stone it takes back; several
    /// moves are taken back one TAKEBACK at a time). Refuses any other point and changes nothing then.
    pub fn take_back(&mut self, p: Pos) -> Result<(), BoardError> {
        if self.last_move() != Some(p) || !matches!(self.get(p), Cell::Stone(_)) {
            return Err(BoardError::CannotTakeBack(p));
        }
        self.undo();
        Ok(())
    }

    /// Replaces the position: `black` and `white` stones in the order given (each side's own order is
    /// taken as its move order, alternating black first as long as both have stones), `walls` blocked
    /// cells. Any counts are accepted (whether a game can reach them is the caller's question). A refused
    /// position leaves the board as it was.
    pub fn set_position(&mut self, black: &[Pos], white: &[Pos], walls: &[Pos]) -> Result<(), BoardError> {
        let mut next = Board::new(self.width as i64, self.height as i64)?;
        next.capture = self.capture;
        for (&p, cell) in black
            .iter()
            .map(|p| (p, Cell::Stone(Color::Black)))
            .chain(white.iter().map(|p| (p, Cell::Stone(Color::White))))
            .chain(walls.iter().map(|p| (p, Cell::Wall)))
        {
            if p.x as usize >= self.width || p.y as usize >= self.height {
                return Err(BoardError::OffBoard { x: p.x as i64, y: p.y as i64 });
            }
            if !next.is_empty(p) {
                return Err(BoardError::Occupied(p));
            }
            next.set(p, cell);
        }
        next.history = interleave(black, white);
        next.counts = [black.len(), white.len()];
        *self = next;
        Ok(())
    }

    /// The number of consecutive `color` stones on the line through `p` in direction `d`, counting `p`
    /// itself as such a stone whatever it holds.
    #[inline]
    pub fn run_through(&self, p: Pos, d: (i32, i32), color: Color) -> usize {
        self.run_from(p, d, color) + self.run_from(p, (-d.0, -d.1), color) + 1
    }

    /// Consecutive `color` stones starting next to `p` in direction `d` (not counting `p`).
    #[inline]
    pub fn run_from(&self, p: Pos, d: (i32, i32), color: Color) -> usize {
        let (mut x, mut y) = (p.x as i32 + d.0, p.y as i32 + d.1);
        let mut n = 0;
        while self.at(x, y) == Cell::Stone(color) {
            n += 1;
            x += d.0;
            y += d.1;
        }
        n
    }

    /// A game from moves in pos notation, black first (`h8i9j10`): the form our data and benches use.
    pub fn from_moves(width: i64, height: i64, moves: &str) -> Result<Board, String> {
        let mut b = Board::new(width, height).map_err(|e| e.to_string())?;
        for p in Pos::parse_list(moves)? {
            b.try_play(p.x as i64, p.y as i64).map_err(|e| format!("{}: {e}", p.notation()))?;
        }
        Ok(b)
    }

    /// Parses a text diagram: one line per row (row 0 first), one character per cell, blanks between
    /// cells optional. `x`/`X` black, `o`/`O` white, `.` or `+` empty, `#` wall. Any stone counts are
    /// accepted; the side with fewer stones is to move.
    pub fn from_diagram(text: &str) -> Result<Board, String> {
        let rows: Vec<Vec<char>> = text
            .lines()
            .map(|l| l.chars().filter(|c| !c.is_whitespace()).collect::<Vec<_>>())
            .filter(|r| !r.is_empty())
            .collect();
        let height = rows.len();
        let width = rows.first().map_or(0, |r| r.len());
        if rows.iter().any(|r| r.len() != width) {
            return Err("diagram rows differ in length".into());
        }
        let mut board = Board::new(width as i64, height as i64).map_err(|e| e.to_string())?;
        let (mut black, mut white, mut walls) = (vec![], vec![], vec![]);
        for (y, row) in rows.iter().enumerate() {
            for (x, &c) in row.iter().enumerate() {
                let p = Pos::new(x, y);
                match c {
                    'x' | 'X' => black.push(p),
                    'o' | 'O' => white.push(p),
                    '#' => walls.push(p),
                    '.' | '+' => {}
                    _ => return Err(format!("unexpected '{c}' in diagram")),
                }
            }
        }
        board.set_position(&black, &white, &walls).map_err(|e| e.to_string())?;
        Ok(board)
    }
}

/// Merges black's and white's moves into one alternating history, black first.
fn interleave(first: &[Pos], second: &[Pos]) -> Vec<Pos> {
    let mut out = Vec::with_capacity(first.len() + second.len());
    for i in 0..first.len().max(second.len()) {
        out.extend(first.get(i));
        out.extend(second.get(i));
    }
    out
}

impl fmt::Display for Board {
    /// The diagram form [`Board::from_diagram`] reads.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for y in 0..self.height {
            let row: Vec<&str> = (0..self.width)
                .map(|x| match self.at(x as i32, y as i32) {
                    Cell::Empty => ".",
                    Cell::Stone(Color::Black) => "x",
                    Cell::Stone(Color::White) => "o",
                    Cell::Wall => "#",
                })
                .collect();
            writeln!(f, "{}", row.join(" "))?;
        }
        Ok(())
    }
}

impl FromStr for Board {
    type Err = String;
    fn from_str(s: &str) -> Result<Board, String> {
        Board::from_diagram(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn side_to_move_alternates_from_black() {
        let mut b = Board::new(15, 15).unwrap();
        assert_eq!(b.side_to_move(), Color::Black);
        b.try_play(7, 7).unwrap();
        assert_eq!(b.side_to_move(), Color::White);
        assert_eq!(b.get(Pos::new(7, 7)), Cell::Stone(Color::Black));
    }

    #[test]
    fn refused_moves_leave_the_board_unchanged() {
        let mut b = Board::new(15, 15).unwrap();
        b.try_play(7, 7).unwrap();
        let before = b.clone();
        assert_eq!(b.try_play(7, 7), Err(BoardError::Occupied(Pos::new(7, 7))));
        assert_eq!(b.try_play(15, 0), Err(BoardError::OffBoard { x: 15, y: 0 }));
        assert_eq!(b.try_play(-1, 3), Err(BoardError::OffBoard { x: -1, y: 3 }));
        assert_eq!(b, before);
    }

    #[test]
    fn sizes_outside_the_range_are_refused() {
        assert!(Board::new(4, 4).is_err());
        assert!(Board::new(33, 20).is_err());
        assert!(Board::new(32, 5).is_ok());
    }

    #[test]
    fn diagram_round_trip() {
        let text = "\
            . . . . .
            . x o . .
            . . x . .
            . . . . .
            # . . . .
        ";
        let b: Board = text.parse().unwrap();
        assert_eq!(b.stone_count(), 3);
        assert_eq!(b.side_to_move(), Color::White);
        assert_eq!(b.get(Pos::new(0, 4)), Cell::Wall);
        let again: Board = b.to_string().parse().unwrap();
        assert_eq!(again, b);
    }

    #[test]
    fn take_back_takes_only_the_last_move() {
        let mut b = Board::new(9, 9).unwrap();
        for (x, y) in [(4, 4), (0, 0), (5, 5), (1, 1), (6, 6)] {
            b.try_play(x, y).unwrap();
        }
        let before = b.clone();
        assert!(b.take_back(Pos::new(5, 5)).is_err(), "an earlier black stone");
        assert!(b.take_back(Pos::new(1, 1)).is_err(), "an earlier white stone");
        assert!(b.take_back(Pos::new(8, 8)).is_err(), "an empty point");
        assert_eq!(b, before, "a refused take-back changes nothing");
        b.take_back(Pos::new(6, 6)).unwrap();
        b.take_back(Pos::new(1, 1)).unwrap();
        assert_eq!(b.history(), &[Pos::new(4, 4), Pos::new(0, 0), Pos::new(5, 5)]);
        assert_eq!(b.side_to_move(), Color::White);
    }

    #[test]
    fn notation() {
        assert_eq!(Pos::from_notation("h8"), Some(Pos::new(7, 7)));
        assert_eq!(Pos::from_notation("A1"), Some(Pos::new(0, 0)));
        assert_eq!(Pos::new(7, 7).notation(), "h8");
        assert_eq!(Pos::from_notation("h0"), None);
        assert_eq!(Pos::from_notation("8"), None);
        assert_eq!(Pos::from_notation("h8x"), None);
    }

    #[test]
    fn columns_past_z_are_named_as_spreadsheets_name_them_and_read_back() {
        let names: Vec<String> = [0, 25, 26, 27, 31].into_iter().map(column_name).collect();
        assert_eq!(names, ["a", "z", "aa", "ab", "af"]);
        for x in 0..MAX_SIDE {
            assert_eq!(parse_column(&column_name(x)), Some(x));
            let p = Pos::new(x, MAX_SIDE - 1);
            assert_eq!(Pos::from_notation(&p.notation()), Some(p));
            assert_eq!(Pos::from_notation(&p.notation().to_ascii_uppercase()), Some(p));
        }
        assert_eq!(parse_column("ag"), None, "past the widest board");
        assert_eq!(parse_column(""), None);
        assert_eq!(Pos::from_notation("ab30"), Some(Pos::new(27, 29)));
        assert_eq!(Pos::parse_list("aa1h8af32"), Ok(vec![Pos::new(26, 0), Pos::new(7, 7), Pos::new(31, 31)]));
    }

    #[test]
    fn runs() {
        let b: Board = "x x x . x\no o o o .\n. . . . .\n. . . . .\n. . . . .".parse().unwrap();
        assert_eq!(b.run_through(Pos::new(3, 0), (1, 0), Color::Black), 5);
        assert_eq!(b.run_from(Pos::new(3, 0), (-1, 0), Color::Black), 3);
    }
}
