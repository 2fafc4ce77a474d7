//! Line patterns: what one stone makes on one line, looked up in a table built once per rule set.
//!
//! For an empty cell and a direction, the window of `L` cells on each side (the cell itself in the
//! middle) is read from one colour's point of view: own stone, empty, blocked (an opponent stone, or
//! the edge). Under caro the edge and an opponent stone differ (only stones close a five), so caro
//! reads four kinds of cell. The window is a number in that radix; the table maps it to the
//! [`Shape`] the line takes when our stone goes on the middle cell:
//!
//! ```text
//! Five        x x x x [x]          the move wins
//! F4          . x x x [x] .        two ways to five: cannot be stopped
//! DoubleFour  x . x [x] x . x      two fours on one line (a renju foul for black)
//! B4          o x x x [x] .        one way to five
//! F3          . . x [x] x . .      one more stone makes an F4
//! B3          o x x [x] . .        one more stone makes a B4
//! F2, B2      one more stone makes an F3 / a B3;  F1, B1 likewise a two
//! Overline    x x x [x] x x        too long where overlines do not win (exact five, renju black)
//! ```
//!
//! Under caro a stone just past a five's far end closes it at both ends, so a four is open (F4) only
//! when no single stone stops it: `. . x x x [x] . o` is a B4 there (o on the left five point leaves
//! the right one's five closed).
//!
//! The shapes are defined recursively (a three is what one stone turns into a four), which the table
//! builder computes with memoisation over windows. Only runs through the middle cell count: the
//! window says what *this* stone does on *this* line. Cells beyond the window are taken as empty.
//!
//! Invariants: tables are immutable once built; `half` (L) is K − 1 where longer lines also win, K
//! where they do not (the cell past a five must be seen) and under caro (so must its ends).

use crate::game::rules::{Rules, Variant};

/// What a stone makes on one line (ordered from nothing to a win, except `Overline`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[repr(u8)]
pub enum Shape {
    #[default]
    None = 0,
    B1,
    F1,
    B2,
    F2,
    B3,
    F3,
    B4,
    F4,
    DoubleFour,
    Five,
    Overline,
}

impl Shape {
    pub const COUNT: usize = 12;

    /// The shape with this number (0..COUNT).
    pub fn from_index(v: u8) -> Shape {
        Shape::from_u8(v)
    }

    fn from_u8(v: u8) -> Shape {
        use Shape::*;
        [None, B1, F1, B2, F2, B3, F3, B4, F4, DoubleFour, Five, Overline][v as usize]
    }

    /// The index (strongest * COUNT + second strongest) of a cell's two strongest line shapes, for
    /// the tables that weigh two lines through one cell together (the enum is ordered by strength).
    /// An overline (exact five, renju black) counts as nothing: it is no threat, and ranked above a
    /// five it would take the place of the cell's real strongest line and lose that line's pair term
    /// (the overline's row is empty: the fits saw freestyle, where an overline is a five).
    #[inline]
    pub fn pair_index(shapes: [Shape; 4]) -> usize {
        let (mut first, mut second) = (0, 0);
        for x in shapes {
            let x = if x == Shape::Overline { 0 } else { x as usize };
            if x > first {
                second = first;
                first = x;
            } else if x > second {
                second = x;
            }
        }
        first * Shape::COUNT + second
    }

    /// A four of either kind (one more stone wins).
    #[inline]
    pub fn is_four(self) -> bool {
        matches!(self, Shape::B4 | Shape::F4 | Shape::DoubleFour)
    }

    /// The shape one level lower: what a stone that lets us reach `self` makes now.
    fn demote(self) -> Shape {
        match self {
            Shape::F4 | Shape::DoubleFour => Shape::F3,
            Shape::B4 => Shape::B3,
            Shape::F3 => Shape::F2,
            Shape::B3 => Shape::B2,
            Shape::F2 => Shape::F1,
            Shape::B2 => Shape::B1,
            _ => Shape::None,
        }
    }
}

/// How one colour wins on a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct LineRule {
    k: usize,
    /// Longer runs do not win.
    exact: bool,
    /// A run of exactly K closed by opponent stones at both ends does not win.
    caro: bool,
}

const OWN: u8 = 0;
const EMPTY: u8 = 1;
const BLOCK: u8 = 2;
/// The edge, under caro only (it blocks a line but does not close a five).
const EDGE: u8 = 3;

/// The shape table of one colour.
#[derive(Debug)]
pub struct ShapeTable {
    table: Vec<Shape>,
}

/// Both colours' tables and how to read windows for them.
#[derive(Debug)]
pub struct Patterns {
    /// L: cells read on each side.
    pub half: usize,
    /// 3, or 4 under caro.
    pub radix: u32,
    pub tables: [ShapeTable; 2],
    pub rules: Rules,
}

/// Largest table we build (entries); rule sets that would need more are not searched.
const MAX_ENTRIES: usize = 1 << 21;

impl Patterns {
    /// The tables for `rules`, or `None` when the window would be too large (long line lengths).
    pub fn new(rules: &Rules) -> Option<Patterns> {
        let k = rules.line as usize;
        let line_rule = |black: bool| match rules.variant {
            Variant::Freestyle => LineRule { k, exact: false, caro: false },
            Variant::Exact => LineRule { k, exact: true, caro: false },
            Variant::Renju => LineRule { k: 5, exact: black, caro: false },
            Variant::Caro { exact } => LineRule { k: 5, exact, caro: true },
            Variant::Pente { .. } => LineRule { k: 5, exact: false, caro: false },
        };
        let rb = line_rule(true);
        let rw = line_rule(false);
        let needs_k = |r: LineRule| r.exact || r.caro;
        let half = if needs_k(rb) || needs_k(rw) { k } else { k - 1 };
        let radix = if matches!(rules.variant, Variant::Caro { .. }) { 4 } else { 3 };
        let entries = (radix as usize).checked_pow(2 * half as u32)?;
        if entries > MAX_ENTRIES {
            return None;
        }
        // Stored as shapes, not bytes: the lookup sits in the innermost loop of every move.
        let build = |r: LineRule| ShapeTable {
            table: Builder::new(r, half, radix).build().into_iter().map(Shape::from_u8).collect(),
        };
        let black = build(rb);
        let white = if rb == rw { ShapeTable { table: black.table.clone() } } else { build(rw) };
        Some(Patterns { half, radix, tables: [black, white], rules: *rules })
    }

    /// The shape for colour `c` (0 black, 1 white) of a window key.
    #[inline]
    pub fn shape(&self, c: usize, key: usize) -> Shape {
        self.tables[c].table[key]
    }

    /// The digit of a cell for the window key: `cell` is 0 black, 1 white, 2 empty, 3 edge.
    #[inline]
    pub fn digit(&self, c: usize, cell: u8) -> usize {
        match cell {
            2 => EMPTY as usize,
            3 if self.radix == 4 => EDGE as usize,
            3 => BLOCK as usize,
            x if x as usize == c => OWN as usize,
            _ => BLOCK as usize,
        }
    }
}

/// Computes a table by memoised recursion over windows (the middle cell is always our stone and is
/// not part of the key).
struct Builder {
    rule: LineRule,
    half: usize,
    radix: u32,
    memo: Vec<u8>,
}

const UNKNOWN: u8 = u8::MAX;

/// Longest window: L = 8 on each side and the middle.
const MAX_WINDOW: usize = 17;

/// A decoded window on the stack.
struct Window {
    cells: [u8; MAX_WINDOW],
    len: usize,
}

/// A run of at least K through the middle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Run {
    Win,
    /// Too long where overlines do not win.
    Overline,
    /// Caro: exactly K, closed by opponent stones at both ends.
    Closed,
}

impl Builder {
    fn new(rule: LineRule, half: usize, radix: u32) -> Builder {
        let n = (radix as usize).pow(2 * half as u32);
        Builder { rule, half, radix, memo: vec![UNKNOWN; n] }
    }

    fn build(mut self) -> Vec<u8> {
        if self.radix == 3 {
            for key in 0..self.memo.len() {
                self.shape_of(key);
            }
        } else {
            // Under caro the edge is a digit of its own, but it can only fill a window from its outer
            // ends inwards: about an eighth of the keys can occur, and only those are worth building.
            for key in self.reachable_keys() {
                self.shape_of(key);
            }
        }
        // Windows that never occur read as nothing.
        for v in &mut self.memo {
            if *v == UNKNOWN {
                *v = Shape::None as u8;
            }
        }
        self.memo
    }

    /// The caro keys whose edge digits form runs from the outer ends of the window.
    fn reachable_keys(&self) -> Vec<usize> {
        let h = self.half;
        let r = self.radix as usize;
        // One side's digits, innermost first: stones/empties, then edges out to the end.
        let mut sides: Vec<Vec<u8>> = vec![];
        for edges in 0..=h {
            let free = h - edges;
            for mut code in 0..3usize.pow(free as u32) {
                let mut digits = Vec::with_capacity(h);
                for _ in 0..free {
                    digits.push((code % 3) as u8);
                    code /= 3;
                }
                digits.extend(std::iter::repeat_n(EDGE, edges));
                sides.push(digits);
            }
        }
        let mut keys = Vec::with_capacity(sides.len() * sides.len());
        for left in &sides {
            for right in &sides {
                // Key digit i is window cell i without the middle: left side outermost first.
                let mut cells = [0u8; MAX_WINDOW];
                for (k, &d) in left.iter().enumerate() {
                    cells[h - 1 - k] = d;
                }
                for (k, &d) in right.iter().enumerate() {
                    cells[h + k] = d;
                }
                let key = cells[..2 * h].iter().rev().fold(0usize, |acc, &d| acc * r + d as usize);
                keys.push(key);
            }
        }
        keys
    }

    /// Window cells, the middle (own) included, from a key. Digit i of the key is cell i of the window
    /// without the middle, least significant first. (A fixed array: the builder decodes a million keys
    /// under caro, and allocating each made the table cost a move's time.)
    fn decode(&self, mut key: usize) -> Window {
        let mut w = Window { cells: [EMPTY; MAX_WINDOW], len: 2 * self.half + 1 };
        let mut at = 0;
        for i in 0..2 * self.half {
            if i == self.half {
                w.cells[at] = OWN;
                at += 1;
            }
            w.cells[at] = (key % self.radix as usize) as u8;
            key /= self.radix as usize;
            at += 1;
        }
        if self.half == 0 {
            w.cells[0] = OWN;
        }
        w
    }

    fn encode(&self, cells: &[u8]) -> usize {
        let mut key = 0;
        for (i, &c) in cells.iter().enumerate().rev() {
            if i == self.half {
                continue;
            }
            key = key * self.radix as usize + c as usize;
        }
        key
    }

    /// The run of own stones through the middle: (first, last) indices.
    fn run(&self, cells: &[u8]) -> (usize, usize) {
        let mid = self.half;
        let (mut lo, mut hi) = (mid, mid);
        while lo > 0 && cells[lo - 1] == OWN {
            lo -= 1;
        }
        while hi + 1 < cells.len() && cells[hi + 1] == OWN {
            hi += 1;
        }
        (lo, hi)
    }

    /// What the run through the middle is: `None` when short of K.
    fn wins(&self, cells: &[u8]) -> Option<Run> {
        let (lo, hi) = self.run(cells);
        let len = hi - lo + 1;
        let r = self.rule;
        if len < r.k {
            return None;
        }
        if len > r.k {
            return Some(if r.exact { Run::Overline } else { Run::Win });
        }
        if r.caro {
            // Beyond the window counts as open.
            let before = if lo > 0 { cells[lo - 1] } else { EMPTY };
            let after = cells.get(hi + 1).copied().unwrap_or(EMPTY);
            if before == BLOCK && after == BLOCK {
                return Some(Run::Closed);
            }
        }
        Some(Run::Win)
    }

    fn shape_of(&mut self, key: usize) -> Shape {
        if self.memo[key] != UNKNOWN {
            return Shape::from_u8(self.memo[key]);
        }
        let mut window = self.decode(key);
        let cells = &mut window.cells[..window.len];
        let shape = match self.wins(cells) {
            Some(Run::Win) => Shape::Five,
            Some(Run::Overline) => Shape::Overline,
            // A caro five closed at both ends: this line is dead for us.
            Some(Run::Closed) => Shape::None,
            None => self.shape_below_five(cells),
        };
        self.memo[key] = shape as u8;
        shape
    }

    /// The five points of the window: empty cells whose stone makes a winning run through the
    /// middle, in order. Returns how many there are.
    fn five_points(&self, cells: &mut [u8], fives: &mut [usize; MAX_WINDOW]) -> usize {
        let mut n = 0;
        for i in 0..cells.len() {
            if cells[i] != EMPTY {
                continue;
            }
            cells[i] = OWN;
            let (lo, hi) = self.run(cells);
            if lo <= i && i <= hi && self.wins(cells) == Some(Run::Win) {
                fives[n] = i;
                n += 1;
            }
            cells[i] = EMPTY;
        }
        n
    }

    /// Caro: whether one opponent stone somewhere on the window leaves no five point. Elsewhere only
    /// a stone on a five point stops one, but under caro a stone just past the five's far end closes
    /// it at both ends:
    ///
    /// ```text
    /// . . x x x [x] . o        five points at both ends, as an open four's
    /// . o x x x [x] . o        after o on the left one: the right one's five is closed, so one
    ///                          stone stopped both and the four was only ever a closed one
    /// ```
    fn one_stone_stops(&self, cells: &mut [u8], first_five: usize) -> bool {
        // A stone that stops every five stops the first: on its point, or just past either end of
        // the run it would make (nothing else changes that run).
        cells[first_five] = OWN;
        let (lo, hi) = self.run(cells);
        cells[first_five] = EMPTY;
        let mut fives = [0usize; MAX_WINDOW];
        for j in [Some(first_five), lo.checked_sub(1), Some(hi + 1)].into_iter().flatten() {
            if cells.get(j) != Some(&EMPTY) {
                continue;
            }
            cells[j] = BLOCK;
            let n = self.five_points(cells, &mut fives);
            cells[j] = EMPTY;
            if n == 0 {
                return true;
            }
        }
        false
    }

    fn shape_below_five(&mut self, cells: &mut [u8]) -> Shape {
        let mut fives = [0usize; MAX_WINDOW];
        let n = self.five_points(cells, &mut fives);
        match n {
            0 => {}
            1 => return Shape::B4,
            // Two five points that one stone can stop (caro) are a closed four, not an open one.
            _ if self.rule.caro && self.one_stone_stops(cells, fives[0]) => return Shape::B4,
            2 if fives[1] - fives[0] == self.rule.k => return Shape::F4,
            _ => return Shape::DoubleFour,
        }
        // Below a four: the best shape one more stone reaches, one level down.
        let mut best = Shape::None;
        for i in 0..cells.len() {
            if cells[i] != EMPTY {
                continue;
            }
            cells[i] = OWN;
            let next = self.shape_of(self.encode(cells));
            cells[i] = EMPTY;
            let here = if next == Shape::Overline { Shape::None } else { next.demote() };
            best = best.max(here);
        }
        best
    }
}

/// What a stone on a cell makes for one colour, all four lines together (best first).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Class {
    None = 0,
    /// Twos and ones only.
    Quiet,
    /// One open three and nothing stronger.
    F3,
    /// Two open threes (renju black: possibly a foul; see `MaybeForbidden`).
    F3x2,
    /// One closed four and nothing stronger.
    B4,
    /// A closed four with an open three: wins unless the four's answer defends.
    B4F3,
    /// An open four or two fours: wins in two moves unless the opponent has a five.
    Flex4,
    /// Wins now.
    Five,
    /// Renju black: a certain foul (overline, two fours) that is not a five.
    Forbidden,
    /// Renju black: two or more threes; a foul only if the threes are real.
    MaybeForbidden,
}

impl Class {
    pub const COUNT: usize = 10;

    /// The class of four line shapes (`renju_black`: black's fouls apply).
    pub fn of(s: [Shape; 4], renju_black: bool) -> Class {
        let mut fours = 0;
        let mut open_fours = 0;
        let mut threes = 0;
        let mut five = false;
        let mut overline = false;
        let mut quiet = false;
        for sh in s {
            match sh {
                Shape::Five => five = true,
                Shape::DoubleFour => fours += 2,
                Shape::F4 => {
                    fours += 1;
                    open_fours += 1;
                }
                Shape::B4 => fours += 1,
                Shape::F3 => threes += 1,
                Shape::Overline => overline = true,
                Shape::None => {}
                _ => quiet = true,
            }
        }
        if five {
            return Class::Five;
        }
        if renju_black {
            if overline || fours >= 2 {
                return Class::Forbidden;
            }
            if threes >= 2 {
                return Class::MaybeForbidden;
            }
        }
        if open_fours > 0 || fours >= 2 {
            Class::Flex4
        } else if fours == 1 && threes > 0 {
            Class::B4F3
        } else if fours == 1 {
            Class::B4
        } else if threes >= 2 {
            Class::F3x2
        } else if threes == 1 {
            Class::F3
        } else if quiet {
            Class::Quiet
        } else {
            Class::None
        }
    }

    /// The four classes: the opponent must answer a stone here at once.
    #[inline]
    pub fn is_four(self) -> bool {
        matches!(self, Class::B4 | Class::B4F3 | Class::Flex4)
    }

    /// An open three or stronger, a lone closed four excepted (its answer is forced and free): the
    /// moves the search never reduces, and the table's moves that make it reduce the quiet ones more.
    #[inline]
    pub fn is_open_threat(self) -> bool {
        matches!(self, Class::F3 | Class::F3x2 | Class::B4F3 | Class::Flex4)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shape of the middle `*` of a one-line picture (`x` own, `.` empty, `o` blocked, `|` edge),
    /// black's table under `rules`.
    fn shape(rules: &Rules, line: &str) -> Shape {
        let p = Patterns::new(rules).unwrap();
        let cells: Vec<char> = line.chars().filter(|c| !c.is_whitespace()).collect();
        let mid = cells.iter().position(|&c| c == '*').unwrap();
        let mut key = 0;
        // digits least significant first: window index 0 is the leftmost cell
        let h = p.half as i64;
        for off in (-h..=h).rev() {
            if off == 0 {
                continue;
            }
            let idx = mid as i64 + off;
            let c = if idx < 0 || idx >= cells.len() as i64 { '.' } else { cells[idx as usize] };
            let d = match c {
                'x' => OWN,
                '.' => EMPTY,
                '|' if p.radix == 4 => EDGE,
                _ => BLOCK,
            };
            key = key * p.radix as usize + d as usize;
        }
        p.shape(0, key)
    }

    fn free() -> Rules {
        Rules::default()
    }

    #[test]
    fn freestyle_shapes() {
        let r = free();
        assert_eq!(shape(&r, ". x x * x x ."), Shape::Five);
        assert_eq!(shape(&r, ". x x * x x x"), Shape::Five, "overline wins");
        assert_eq!(shape(&r, ". . x * x x . ."), Shape::F4);
        assert_eq!(shape(&r, ". o x * x x . ."), Shape::B4);
        assert_eq!(shape(&r, ". x . * x x . ."), Shape::B4);
        assert_eq!(shape(&r, "x . x * x . x"), Shape::DoubleFour);
        assert_eq!(shape(&r, ". . . * x . . ."), Shape::F2);
        assert_eq!(shape(&r, ". . x * x . . ."), Shape::F3);
        assert_eq!(shape(&r, "o x * x . . . ."), Shape::B3);
        assert_eq!(shape(&r, "o x * x . o"), Shape::None, "no room for five");
    }

    #[test]
    fn exact_shapes() {
        let r = Rules::from_mask(1, 5).0;
        assert_eq!(shape(&r, ". x x * x x x"), Shape::Overline);
        assert_eq!(shape(&r, "x . x * x . ."), Shape::B4, "the gap would make six");
        assert_eq!(shape(&r, ". x x * x x ."), Shape::Five);
    }

    #[test]
    fn caro_shapes() {
        let r = Rules::from_mask(8, 5).0;
        assert_eq!(shape(&r, "o x x * x x o"), Shape::None);
        assert_eq!(shape(&r, "| | | x x * x x o"), Shape::Five, "the edge does not close a five");
        assert_eq!(shape(&r, "o x x * x . o"), Shape::None, "its only five would be closed");
        assert_eq!(shape(&r, "o x x * x . ."), Shape::B4);
        // Two five points, but o on the left one closes the right one's five at both ends.
        assert_eq!(shape(&r, ". . x x x * . o"), Shape::B4, "one stone stops both fives");
        assert_eq!(shape(&r, "| . x x x * . o"), Shape::B4);
        assert_eq!(shape(&r, ". . x x x * . . o"), Shape::F4, "the right five stays open at its far end");
        assert_eq!(shape(&r, ". . x x x * . | | | |"), Shape::F4, "the edge does not close the right five");
        assert_eq!(shape(&r, ". o x . x x * . x o ."), Shape::B4, "the gaps' fives die together");
        // What one more stone makes into such a four is a closed three, not an open one.
        assert_eq!(shape(&r, ". . x x * . o"), Shape::B3);
        assert_eq!(shape(&r, ". o . x x * . . o"), Shape::B3);
        assert_eq!(shape(&r, ". . x x * . . o"), Shape::F3);
    }

    #[test]
    fn an_overline_is_no_line_of_the_pair() {
        use Shape::*;
        let pair = |a: Shape, b: Shape| a as usize * Shape::COUNT + b as usize;
        assert_eq!(Shape::pair_index([B3, Overline, F3, None]), pair(F3, B3));
        assert_eq!(Shape::pair_index([F4, F3, B4, F2]), pair(F4, B4));
    }

    #[test]
    fn long_lines_are_refused() {
        assert!(Patterns::new(&Rules::from_mask(1, 8).0).is_none());
        assert!(Patterns::new(&Rules::from_mask(0, 6).0).is_some());
    }
}
