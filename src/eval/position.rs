//! The search's position: the board plus what the search asks of it at every node, kept up to date
//! move by move instead of recomputed.
//!
//! For every empty cell and colour it keeps the four line [`Shape`]s a stone there would make, their
//! combination into a threat [`Class`], and the cell's weight (the weight matrix of the classic player,
//! with line shapes in place of stone counts). A move changes only the cells within `L` of it on its
//! four lines, so `play`/`undo` recompute just those. It also keeps per-colour counts of each class,
//! the sum of the cell weights, which cells are near stones (move candidates), and a Zobrist hash.
//!
//! Invariants (checked by `debug_validate` in tests):
//! - for every empty cell, `shapes`, `class` and `terms` equal what a fresh computation gives;
//! - `class_count[c][k]` is the number of empty cells whose class for colour c is k;
//! - `strong[c]` has the bit of every cell, empty or not, whose `class` for c is a four or better or a
//!   renju foul, and no other;
//! - `sums[c]` is the sum of the empty cells' `terms` for c (weight, evaluation terms as the side to
//!   move and as the side that waits);
//! - `hash` is the XOR of the keys of the stones on the board and of the side to move;
//! - the mirrored [`Board`] holds the same stones (renju's forbidden test reads it).
//!
//! Pente: a move may capture (the mirrored board finds the stones, `play` takes them off the same way
//! `undo` empties a cell, and `undo` puts them back from the log); `captured` counts each colour's
//! captures and is part of the hash.
//!
//! Renju: black's cells whose shapes make a foul certain (an overline or two fours) are class
//! `Forbidden`; cells with two or more threes may be fouls or not (recursive rule) and are class
//! `MaybeForbidden`, which [`Position::legal_for`] resolves with the full test on demand.

use std::sync::Arc;

use crate::eval::model::{Evaluator, FamilyTables};
use crate::eval::terms::{ComboEntry, MOVER, WAITER, WEIGHT, combo_index};
use crate::game::board::{Board, CaptureRule, Cell, Color, Pos};
use crate::game::pattern::{Class, Patterns, Shape};
use crate::game::random::{GOLDEN, scramble};
use crate::game::rules::Variant;

mod refresh;

use refresh::{is_strong, restore_cells};

/// The cell contents: black, white, empty, wall (the padding around the board).
pub const BLACK: u8 = 0;
pub const WHITE: u8 = 1;
pub const EMPTY: u8 = 2;
pub const WALL: u8 = 3;

/// The board and everything the search reads of it at a node, kept up to date by `play` and `undo`
/// (see the module doc for the invariants).
#[derive(Clone, Debug)]
pub struct Position {
    pub width: usize,
    pub height: usize,
    stride: usize,
    pad: usize,
    cells: Vec<u8>,
    /// Direction steps in the padded array, filled in by `Position::new` (stride depends on the width).
    dirs: [isize; 4],
    /// Window keys per cell and direction, kept for every cell (stones too) so an emptied cell needs
    /// no recomputation: a move changes one digit of each key on its lines. `[0]` is black's key;
    /// `[1]` holds the sum of black's and white's, which never changes (see `white_key`), so a move
    /// updates one key per cell instead of two (the updates were 14% of the search's instructions).
    keys: Vec<[[u32; 4]; 2]>,
    /// `radix^digit` of the digit that offset `o` (−L..=L, not 0) occupies in a key.
    digit_weight: Vec<u32>,
    /// The class and terms of every combination of four shapes, per colour: one lookup settles a
    /// cell (summing the terms per cell, with the branches that find its two strongest lines, cost
    /// more than the larger table, which still fits the second-level cache). A table half the size
    /// (16-bit terms and the prior's in a table apart: 8-byte entries, 166 KB instead of 415) ran no
    /// faster (`bench 12` 865k against 877k nodes/s), though the class load is the refresh's hottest.
    combo: [&'static [ComboEntry]; 2],
    /// The evaluation model's tables for this game (`combo` is theirs): its constant and threat values.
    eval: &'static FamilyTables,
    shapes: Vec<[[Shape; 4]; 2]>,
    class: Vec<[Class; 2]>,
    /// Per colour, a bit per cell: its class is a four or better, or a renju foul (`is_strong`). Kept
    /// with `class` for every cell, stones too (a stone's class is the stale one it had when empty),
    /// so that the scans for fives, fours and open-four points visit these few cells instead of the
    /// whole board (they were 4% of the search's instructions).
    strong: [Vec<u64>; 2],
    /// The changes of `strong` since `new`, in order (`2 i + c`), so that `undo` flips back its move's.
    toggled: Vec<u32>,
    /// Per cell and colour: the weight (move ordering), and the evaluation terms as the mover and as
    /// the waiting side (the model's: `eval::model`).
    terms: Vec<[[i32; 3]; 2]>,
    near: Vec<u8>,
    /// The indices of the board's cells, row by row (scanned often: one slice beats nested ranges).
    board_cells: Arc<[u32]>,
    /// Column and row of every index (padding included), for distances without divisions (a side is
    /// at most `MAX_SIDE` = 32 plus the padding, so a byte holds it).
    xy: Arc<[[u8; 2]]>,
    class_count: [[u32; Class::COUNT]; 2],
    /// Per colour, the sums of its empty cells' `terms`.
    sums: [[i64; 3]; 2],
    hash: u64,
    history: Vec<usize>,
    /// What `play` overwrote, so `undo` restores instead of recomputing (the cells whose shapes
    /// changed, in order; the counts and sums of each move in `frames`).
    saved: Vec<SavedCell>,
    frames: Vec<Frame>,
    /// Stones taken off by captures (cell, colour), in order.
    removed: Vec<(usize, u8)>,
    /// Stones each colour has captured.
    captured: [u32; 2],
    capture: Option<CaptureRule>,
    side: Color,
    board: Board,
    pats: Arc<Patterns>,
    renju: bool,
    /// Pente's opening rule restricts both colours' early moves.
    pente: bool,
}

/// An empty cell's derived values before a move changed them.
#[derive(Clone, Copy, Debug)]
struct SavedCell {
    idx: u32,
    shapes: [[Shape; 4]; 2],
    class: [Class; 2],
    terms: [[i32; 3]; 2],
}

/// The totals before a move, and where its saved cells and captured stones start.
#[derive(Clone, Copy, Debug)]
struct Frame {
    saved_len: usize,
    removed_len: usize,
    toggled_len: usize,
    class_count: [[u32; Class::COUNT]; 2],
    sums: [[i64; 3]; 2],
    captured: [u32; 2],
}

/// A hash key per (cell, colour): splitmix64's output for the index (the generator's k-th output from
/// state 0, k = 2·index + colour + 1), so no table is needed.
#[inline]
fn zobrist(idx: usize, c: usize) -> u64 {
    scramble((idx as u64 * 2 + c as u64 + 1).wrapping_mul(GOLDEN))
}

const SIDE_KEY: u64 = 0x5bd1_e995_1234_5678;

/// The hash key of `c` having captured `n` stones (beyond any cell index).
#[inline]
fn capture_key(c: usize, n: u32) -> u64 {
    if n == 0 { 0 } else { zobrist(1 << 20 | (n as usize) << 1, c) }
}

impl Position {
    /// The position of `board` under the rules the patterns were built for, evaluated by the
    /// embedded model.
    pub fn new(board: &Board, pats: Arc<Patterns>) -> Position {
        Position::with_evaluator(board, pats, Evaluator::standard())
    }

    /// The same, evaluated by `evaluator`'s model.
    pub fn with_evaluator(board: &Board, pats: Arc<Patterns>, evaluator: &'static Evaluator) -> Position {
        let eval = evaluator.family(&pats.rules);
        // The margin of walls around the board: the line windows reach `half` cells out, the candidate
        // square two, and the narrow VCF looks four cells along each line from its last four
        // (`threat::vcf_candidates`), which under four or three in a row would reach past a smaller one.
        let pad = pats.half.max(4);
        let (w, h) = (board.width(), board.height());
        let stride = w + 2 * pad;
        let rows = h + 2 * pad;
        let n = stride * rows;
        let mut pos = Position {
            width: w,
            height: h,
            stride,
            pad,
            cells: vec![WALL; n],
            dirs: [1, stride as isize, stride as isize + 1, 1 - stride as isize],
            keys: vec![[[0; 4]; 2]; n],
            digit_weight: vec![],
            combo: [&eval.combo[0], &eval.combo[1]],
            eval,
            shapes: vec![[[Shape::None; 4]; 2]; n],
            class: vec![[Class::None; 2]; n],
            strong: [vec![0; n.div_ceil(64)], vec![0; n.div_ceil(64)]],
            toggled: vec![],
            terms: vec![[[0; 3]; 2]; n],
            near: vec![0; n],
            board_cells: (0..h)
                .flat_map(|y| (0..w).map(move |x| ((y + pad) * stride + x + pad) as u32))
                .collect(),
            xy: (0..n).map(|i| [(i % stride) as u8, (i / stride) as u8]).collect(),
            class_count: [[0; Class::COUNT]; 2],
            sums: [[0; 3]; 2],
            hash: 0,
            history: vec![],
            saved: vec![],
            frames: vec![],
            removed: vec![],
            captured: [0; 2],
            capture: pats.rules.capture_rule(),
            side: Color::Black,
            board: Board::new(w as i64, h as i64).expect("board sizes are valid"),
            renju: pats.rules.variant == Variant::Renju,
            pente: matches!(pats.rules.variant, Variant::Pente { .. }),
            pats,
        };
        // Stones first (quietly), then every cell's patterns from scratch.
        pos.place_board(board);
        pos.fill_keys();
        for i in 0..n {
            if pos.cells[i] == EMPTY {
                pos.refresh_all_dirs(i);
            }
        }
        // No move will take the starting classes back.
        pos.toggled.clear();
        pos
    }

    /// Copies in `board`'s cells, stones, walls, captures and side to move, with their hash and the
    /// candidate counts; no shapes yet.
    fn place_board(&mut self, board: &Board) {
        for y in 0..board.height() {
            for x in 0..board.width() {
                let i = self.index(Pos::new(x, y));
                self.cells[i] = EMPTY;
            }
        }
        // After captures a point may be in the history twice, or hold no stone: the board says.
        for &p in board.history() {
            let i = self.index(p);
            let c = match board.get(p) {
                Cell::Stone(c) if self.cells[i] == EMPTY => c,
                _ => continue,
            };
            self.cells[i] = c.index() as u8;
            self.hash ^= zobrist(i, c.index());
            self.bump_near(i, 1);
            self.history.push(i);
        }
        for p in board.points() {
            if board.get(p) == Cell::Wall {
                let i = self.index(p);
                self.cells[i] = WALL;
            }
        }
        self.board = board.clone();
        self.board.set_capture(self.capture);
        for c in [Color::Black, Color::White] {
            self.captured[c.index()] = board.captured(c) as u32;
            self.hash ^= capture_key(c.index(), self.captured[c.index()]);
        }
        self.side = board.side_to_move();
        if self.side == Color::White {
            self.hash ^= SIDE_KEY;
        }
    }

    #[inline]
    pub fn index(&self, p: Pos) -> usize {
        (p.y as usize + self.pad) * self.stride + p.x as usize + self.pad
    }

    #[inline]
    pub fn pos_of(&self, i: usize) -> Pos {
        Pos::new(i % self.stride - self.pad, i / self.stride - self.pad)
    }

    #[inline]
    pub fn side(&self) -> Color {
        self.side
    }

    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    pub fn ply(&self) -> usize {
        self.history.len()
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn patterns(&self) -> &Arc<Patterns> {
        &self.pats
    }

    #[inline]
    pub fn cell(&self, i: usize) -> u8 {
        self.cells[i]
    }

    #[inline]
    pub fn is_empty(&self, i: usize) -> bool {
        self.cells[i] == EMPTY
    }

    #[inline]
    pub fn class(&self, i: usize, c: Color) -> Class {
        self.class[i][c.index()]
    }

    #[inline]
    pub fn shape(&self, i: usize, c: Color, dir: usize) -> Shape {
        self.shapes[i][c.index()][dir]
    }

    /// The four line shapes of cell `i` for `c`, by direction.
    #[inline]
    pub fn shapes(&self, i: usize, c: Color) -> [Shape; 4] {
        self.shapes[i][c.index()]
    }

    /// The move prior's terms of the empty cell `i` for colour `c` (`Prior::cell`): `role` 0
    /// when `c` is the side to move, 1 when it is its opponent.
    #[inline]
    pub fn prior_terms(&self, i: usize, c: Color, role: usize) -> i32 {
        self.combo[c.index()][combo_index(self.shapes[i][c.index()])].prior[role] as i32
    }

    /// The move prior of a stone of the side to move on the empty cell `i` (higher: try it earlier):
    /// both colours' shape terms and the distances to the last two moves.
    pub fn prior(&self, i: usize) -> i32 {
        let me = self.side();
        let mut v = self.prior_terms(i, me, 0) + self.prior_terms(i, me.opp(), 1);
        let recent = self.history();
        for (role, back) in [1, 2].into_iter().enumerate() {
            if let Some(&j) = recent.len().checked_sub(back).and_then(|k| recent.get(k)) {
                v += self.eval.prior.distance(role, self.distance(i, j));
            }
        }
        v
    }

    #[inline]
    pub fn weight(&self, i: usize, c: Color) -> i32 {
        self.terms[i][c.index()][WEIGHT]
    }

    #[inline]
    pub fn count(&self, c: Color, k: Class) -> u32 {
        self.class_count[c.index()][k as usize]
    }

    #[inline]
    pub fn weight_sum(&self, c: Color) -> i64 {
        self.sums[c.index()][WEIGHT]
    }

    /// The fitted evaluation (tenths of a point) from the side to move's view: its cells' terms as the
    /// mover, the other side's as the waiting side, the threat term, and the constant.
    ///
    /// The threat term weighs as fitted, which is as good as more or less of it (docs/search.md, "Evaluation").
    ///
    /// The cell terms are this position's alone: averaged with the previous position's, seen from the
    /// same side, as Rapfi's classical evaluation does with its cell values, they play worse
    /// (docs/search.md, "Evaluation"); our terms were fitted with the side to move in them, perhaps why such an
    /// average does not suit them.
    #[inline]
    pub fn fitted_eval(&self) -> i64 {
        let me = self.side.index();
        self.eval.bias[me]
            + self.sums[me][MOVER]
            + self.sums[1 - me][WAITER]
            + self.eval.threat[self.threat_mask()]
    }

    /// Which threat classes each side has somewhere on the board, as the index of the model's threat
    /// values.
    #[inline]
    pub fn threat_mask(&self) -> usize {
        let me = &self.class_count[self.side.index()];
        let op = &self.class_count[1 - self.side.index()];
        let has = |n: u32, bit: usize| usize::from(n > 0) << bit;
        has(me[Class::B4F3 as usize], 0)
            | has(me[Class::B4 as usize], 1)
            | has(me[Class::F3x2 as usize], 2)
            | has(me[Class::F3 as usize], 3)
            | has(op[Class::Flex4 as usize], 4)
            | has(op[Class::B4F3 as usize], 5)
            | has(op[Class::B4 as usize], 6)
            | has(op[Class::F3x2 as usize], 7)
            | has(op[Class::F3 as usize], 8)
    }

    /// Whether a cell is near stones (within two steps): where moves are looked for. Rapfi's classical
    /// configuration looks further (three steps, four along a line), yet of 19,428 moves it played
    /// against us 5 lay three steps from every stone and none further.
    #[inline]
    pub fn is_near(&self, i: usize) -> bool {
        self.near[i] > 0
    }

    /// The cells whose class for `c` is a four or better, or a renju foul, in board order (stones
    /// among them: callers check `is_empty`). The scans for such cells look only here.
    pub fn strong_cells(&self, c: Color) -> impl Iterator<Item = usize> + '_ {
        self.strong[c.index()].iter().enumerate().flat_map(|(w, &word)| {
            let mut x = word;
            std::iter::from_fn(move || {
                (x != 0).then(|| {
                    let b = x.trailing_zeros() as usize;
                    x &= x - 1;
                    w * 64 + b
                })
            })
        })
    }

    /// The step of direction `d` in the padded array.
    #[inline]
    pub fn dir(&self, d: usize) -> isize {
        self.dirs[d]
    }

    /// The size of the padded cell arrays (every index is below it).
    pub fn cell_count(&self) -> usize {
        self.cells.len()
    }

    /// Every index of the board, row by row.
    pub fn indices(&self) -> impl Iterator<Item = usize> + '_ {
        self.board_cells.iter().map(|&i| i as usize)
    }

    /// Whether a move of `c` needs [`Position::legal_for`] at all (renju black, and Pente's opening).
    #[inline]
    pub fn restricted(&self, c: Color) -> bool {
        (self.renju && c == Color::Black) || (self.pente && self.board.placed() <= 2)
    }

    /// Whether `c` may play on the empty cell `i` (only renju black and Pente's opening are ever
    /// refused).
    pub fn legal_for(&self, i: usize, c: Color) -> bool {
        if self.pente {
            return self.pats.rules.opening_error(&self.board, self.pos_of(i)).is_none();
        }
        if !self.renju || c != Color::Black {
            return true;
        }
        match self.class[i][0] {
            Class::Forbidden => false,
            Class::MaybeForbidden => crate::game::renju::forbidden(&self.board, self.pos_of(i)).is_none(),
            _ => true,
        }
    }

    /// The class `c` would have on the empty cell `t` if a stone of `stone` stood on the empty cell
    /// `j` as well, without playing it: only the line of `t` through `j` (if `j` is within the
    /// window) changes, so one key digit and one table lookup tell. Exact without captures (a
    /// capture would take stones off other lines too).
    pub fn class_with_stone(&self, t: usize, c: Color, j: usize, stone: Color) -> Class {
        debug_assert!(self.cells[t] == EMPTY && self.cells[j] == EMPTY && t != j);
        debug_assert!(self.capture.is_none(), "captures change more than one line");
        let half = self.pats.half as isize;
        let ci = c.index();
        let offset = j as isize - t as isize;
        for d in 0..4 {
            let step = self.dirs[d];
            // Cell t + o * step sits at offset o in t's key for line d.
            if offset % step != 0 {
                continue;
            }
            let o = offset / step;
            if o == 0 || o.abs() > half {
                continue;
            }
            let pats = &self.pats;
            let delta = pats.digit(ci, stone.index() as u8) as i64 - pats.digit(ci, EMPTY) as i64;
            let w = self.digit_weight[(o + half) as usize] as i64;
            let key = (self.key(t, ci, d) as i64 + delta * w) as usize;
            let mut shapes = self.shapes[t][ci];
            shapes[d] = pats.shape(ci, key);
            return self.combo[ci][combo_index(shapes)].class;
        }
        self.class[t][ci]
    }

    /// The hash key after the side to move plays on `i` (captures aside: a key for prefetching).
    #[inline]
    pub fn hash_after(&self, i: usize) -> u64 {
        self.hash ^ zobrist(i, self.side.index()) ^ SIDE_KEY
    }

    /// Plays a stone of the side to move on the empty cell `i`.
    pub fn play(&mut self, i: usize) {
        debug_assert!(self.cells[i] == EMPTY, "play on a non-empty cell");
        let c = self.side.index();
        self.frames.push(Frame {
            saved_len: self.saved.len(),
            removed_len: self.removed.len(),
            toggled_len: self.toggled.len(),
            class_count: self.class_count,
            sums: self.sums,
            captured: self.captured,
        });
        // The cell's own shapes stay as they were while it holds a stone (only empty cells are
        // refreshed), so an undo finds them intact.
        self.forget_cell(i);
        self.shift_keys(i, c as u8, EMPTY);
        self.cells[i] = c as u8;
        // The mirror board takes the colour from us: after a null move (`pass`) its own count-based
        // turn would be wrong.
        self.board.place_unchecked(self.pos_of(i), self.side);
        // One definition of the move's key, the one the search prefetches with.
        self.hash = self.hash_after(i);
        self.bump_near(i, 1);
        self.history.push(i);
        self.side = self.side.opp();
        self.refresh_around(i);
        if self.capture.is_some() {
            self.take_captures(c);
        }
    }

    /// Takes off the stones the mirror board's last move captured (Pente).
    fn take_captures(&mut self, mover: usize) {
        let taken: Vec<Pos> = self.board.last_captures().collect();
        for p in taken {
            let j = self.index(p);
            let c = self.cells[j];
            // The cell's stale values are what an undo of the move that placed it expects back.
            self.saved.push(SavedCell {
                idx: j as u32,
                shapes: self.shapes[j],
                class: self.class[j],
                terms: self.terms[j],
            });
            self.shift_keys(j, EMPTY, c);
            self.cells[j] = EMPTY;
            self.hash ^= zobrist(j, c as usize);
            self.bump_near(j, -1);
            self.refresh_all_dirs(j);
            self.refresh_around(j);
            self.removed.push((j, c));
            self.hash ^= capture_key(mover, self.captured[mover]);
            self.captured[mover] += 1;
            self.hash ^= capture_key(mover, self.captured[mover]);
        }
    }

    /// Gives the move to the other side without a stone (puzzles that name the attacker).
    pub fn pass(&mut self) {
        self.side = self.side.opp();
        self.hash ^= SIDE_KEY;
    }

    /// Takes back the last move: the cells it changed get their saved values back, so nothing is
    /// recomputed.
    pub fn undo(&mut self) {
        // Frames cover the moves played since `new`; a stone of the starting board has none and is
        // taken back by recomputing.
        let frame = self.frames.pop();
        let Some(i) = self.history.pop() else { return };
        let c = self.cells[i] as usize;
        self.shift_keys(i, EMPTY, c as u8);
        self.cells[i] = EMPTY;
        self.board.undo();
        self.hash ^= zobrist(i, c) ^ SIDE_KEY;
        self.bump_near(i, -1);
        self.side = self.side.opp();
        let Some(frame) = frame else {
            self.refresh_all_dirs(i);
            self.refresh_around(i);
            self.saved.clear();
            self.toggled.clear();
            return;
        };
        for k in (frame.removed_len..self.removed.len()).rev() {
            let (j, c) = self.removed[k];
            self.shift_keys(j, c, EMPTY);
            self.cells[j] = c;
            self.hash ^= zobrist(j, c as usize);
            self.bump_near(j, 1);
        }
        self.removed.truncate(frame.removed_len);
        for (c, &n) in frame.captured.iter().enumerate() {
            self.hash ^= capture_key(c, self.captured[c]) ^ capture_key(c, n);
        }
        self.captured = frame.captured;
        restore_cells(&self.saved[frame.saved_len..], &mut self.shapes, &mut self.class, &mut self.terms);
        for &t in &self.toggled[frame.toggled_len..] {
            let (j, c) = (t as usize / 2, t as usize % 2);
            self.strong[c][j / 64] ^= 1 << (j % 64);
        }
        self.toggled.truncate(frame.toggled_len);
        self.saved.truncate(frame.saved_len);
        self.class_count = frame.class_count;
        self.sums = frame.sums;
    }

    /// The capture rule, under Pente.
    #[inline]
    pub fn capture_rule(&self) -> Option<CaptureRule> {
        self.capture
    }

    /// Stones `c` has captured.
    #[inline]
    pub fn captured(&self, c: Color) -> u32 {
        self.captured[c.index()]
    }

    /// How many stones a stone of `c` on the empty cell `i` would capture (0 without captures).
    pub fn captures_at(&self, i: usize, c: Color) -> u32 {
        let Some(rule) = self.capture else { return 0 };
        let (own, theirs) = (c.index() as u8, c.opp().index() as u8);
        let mut total = 0;
        for d in 0..4 {
            for sign in [1isize, -1] {
                let step = self.dirs[d] * sign;
                let at = |k: isize| self.cells[(i as isize + k * step) as usize];
                let mut n = 0;
                while n < rule.max as isize && at(n + 1) == theirs {
                    n += 1;
                }
                if n >= rule.min as isize && at(n + 1) == own {
                    total += n as u32;
                }
            }
        }
        total
    }

    /// The cells near stones where `c` captures, with the stones each takes.
    pub fn capture_moves(&self, c: Color) -> Vec<(usize, u32)> {
        if self.capture.is_none() {
            return vec![];
        }
        self.indices()
            .filter(|&i| self.cells[i] == EMPTY && self.is_near(i))
            .filter_map(|i| {
                let n = self.captures_at(i, c);
                (n > 0).then_some((i, n))
            })
            .collect()
    }

    /// The cells of the moves played, in order (captured stones stay in it).
    pub fn history(&self) -> &[usize] {
        &self.history
    }

    /// The Chebyshev distance between two cells (rows and columns apart, the larger).
    pub fn distance(&self, i: usize, j: usize) -> usize {
        let (a, b) = (self.xy[i], self.xy[j]);
        a[0].abs_diff(b[0]).max(a[1].abs_diff(b[1])) as usize
    }

    /// The last move's index.
    pub fn last(&self) -> Option<usize> {
        self.history.last().copied()
    }

    /// Adds `delta` to the `near` count of every cell in the 5x5 square around `i` (the candidates).
    /// Rapfi's larger area (a 7x7 square and the four lines out to 4 steps) played worse (docs/search.md,
    /// "Move generation and ordering"): the prior picks the few quiet moves searched, and cells further out only add work.
    fn bump_near(&mut self, i: usize, delta: i8) {
        let s = self.stride as isize;
        for dy in -2isize..=2 {
            for dx in -2isize..=2 {
                let j = (i as isize + dy * s + dx) as usize;
                self.near[j] = (self.near[j] as i8 + delta) as u8;
            }
        }
    }

    /// Checks every invariant against a fresh computation (tests and debugging).
    pub fn debug_validate(&self) -> Result<(), String> {
        let fresh = Position::new(&self.board, Arc::clone(&self.pats));
        for i in self.indices() {
            if self.cells[i] != fresh.cells[i] {
                return Err(format!("cell {i} differs"));
            }
            for (c, d) in (0..2).flat_map(|c| (0..4).map(move |d| (c, d))) {
                if self.key(i, c, d) != self.compute_key(i, c, d) {
                    return Err(format!("key of cell {} out of step", self.pos_of(i)));
                }
            }
            if self.cells[i] == EMPTY
                && (self.shapes[i] != fresh.shapes[i]
                    || self.class[i] != fresh.class[i]
                    || self.terms[i] != fresh.terms[i])
            {
                return Err(format!("cell {} stale", self.pos_of(i)));
            }
        }
        for i in 0..self.cells.len() {
            for c in 0..2 {
                if (self.strong[c][i / 64] >> (i % 64) & 1 == 1) != is_strong(self.class[i][c]) {
                    return Err(format!("strong bit of cell {i} out of step"));
                }
            }
        }
        if self.class_count != fresh.class_count || self.sums != fresh.sums {
            return Err("counts differ".into());
        }
        if self.captured != fresh.captured {
            return Err("captured counts differ".into());
        }
        if self.hash != fresh.hash || self.near != fresh.near {
            return Err("hash or near differ".into());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::rules::Rules;

    fn pats(mask: i64) -> Arc<Patterns> {
        Arc::new(Patterns::new(&Rules::from_mask(mask, 5).0).unwrap())
    }

    #[test]
    fn the_threat_mask_names_each_sides_threats() {
        // Black to move. Black's two on row 2 gives black three points (bit 3); white's open three on
        // row 5 gives white open-four points at its ends (bit 4) and closed-four points two steps out
        // from it (bit 6), and nothing else.
        let board = Board::from_diagram(
            "
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . x x . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . o o o . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            . . . . . . . . . . .
            ",
        )
        .expect("diagram");
        let pos = Position::new(&board, pats(0));
        assert_eq!(pos.side(), Color::Black);
        assert_eq!(pos.threat_mask(), 1 << 3 | 1 << 4 | 1 << 6);
        // The term is part of the evaluation: the same sums without it differ by its value.
        let me = pos.side().index();
        let without = pos.eval.bias[me] + pos.sums[me][MOVER] + pos.sums[1 - me][WAITER];
        assert_eq!(pos.fitted_eval() - without, pos.eval.threat[pos.threat_mask()]);
    }

    #[test]
    fn incremental_updates_match_a_fresh_position() {
        for mask in [0, 1, 4, 8] {
            let mut pos = Position::new(&Board::new(15, 15).unwrap(), pats(mask));
            // A deterministic pseudo-random game, checked after every move and every undo.
            let mut seed = 12345u64 + mask as u64;
            let mut played = 0;
            while played < 60 {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let x = (seed >> 33) as usize % 9 + 3;
                let y = (seed >> 45) as usize % 9 + 3;
                let i = pos.index(Pos::new(x, y));
                if !pos.is_empty(i) {
                    continue;
                }
                pos.play(i);
                played += 1;
                pos.debug_validate().unwrap_or_else(|e| panic!("rule {mask}, after move {played}: {e}"));
            }
            for _ in 0..30 {
                pos.undo();
            }
            pos.debug_validate().unwrap_or_else(|e| panic!("rule {mask}, after undo: {e}"));
            // A position started from a board: its own moves are restored from the log, the board's
            // stones recomputed.
            let mut started = Position::new(pos.board(), Arc::clone(&pos.pats));
            for _ in 0..2 {
                let i = started.indices().find(|&i| started.is_empty(i) && started.is_near(i)).unwrap();
                started.play(i);
            }
            for _ in 0..5 {
                started.undo();
                started.debug_validate().unwrap_or_else(|e| panic!("rule {mask}, started: {e}"));
            }
        }
    }

    #[test]
    fn a_stone_looked_at_matches_a_stone_played() {
        // Freestyle, exact five, renju (both colours' fouls), caro: every empty cell's class with a
        // stone of either colour on any empty cell near it, against playing that stone.
        for mask in [0, 1, 4, 8] {
            let mut pos = Position::new(&Board::new(15, 15).unwrap(), pats(mask));
            let mut seed = 777u64 + mask as u64;
            while pos.ply() < 30 {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let i = pos.index(Pos::new((seed >> 33) as usize % 7 + 4, (seed >> 45) as usize % 7 + 4));
                if pos.is_empty(i) {
                    pos.play(i);
                }
            }
            let empty: Vec<usize> = pos.indices().filter(|&i| pos.is_empty(i) && pos.is_near(i)).collect();
            for &j in &empty {
                for stone in [Color::Black, Color::White] {
                    let mut after = pos.clone();
                    // The stone of `stone` on j: a pass first when it is not that colour's turn.
                    if after.side() != stone {
                        after.pass();
                    }
                    after.play(j);
                    for &t in empty.iter().filter(|&&t| t != j) {
                        for c in [Color::Black, Color::White] {
                            assert_eq!(
                                pos.class_with_stone(t, c, j, stone),
                                after.class(t, c),
                                "rule {mask}: {:?} on {} for {c:?} with {stone:?} on {}",
                                after.class(t, c),
                                pos.pos_of(t).notation(),
                                pos.pos_of(j).notation()
                            );
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn classes_of_a_simple_position() {
        let b: Board = "\
            . . . . . . . . .
            . . . . . . . . .
            . . x x x . . . .
            . . o o . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . ."
            .parse()
            .unwrap();
        let pos = Position::new(&b, pats(0));
        // Black's open three: (1,2) and (5,2) make open fours.
        assert_eq!(pos.class(pos.index(Pos::new(5, 2)), Color::Black), Class::Flex4);
        assert_eq!(pos.class(pos.index(Pos::new(1, 2)), Color::Black), Class::Flex4);
        assert_eq!(pos.count(Color::Black, Class::Flex4), 2);
        assert_eq!(pos.side(), Color::White);
    }
}
