//! The line-shape refresh: how a stone placed or taken off reaches the cells that see it. A move
//! changes one digit of the window key of every cell within `L` of it on its four lines; the empty
//! cells among them get their shapes again from the pattern tables, and where a shape changed, their
//! class and terms from the combination table, with the class counts, the evaluation sums and the
//! `strong` bits kept in step. The refresh is about 40% of the search's time (`perf`), so this part is
//! written for speed: fields borrowed apart, one copy of the line loop per direction, sums tallied in
//! registers.
//!
//! Invariants: every board cell's keys (stones too) equal `compute_key` of the cells;
//! every empty cell's shapes, class and terms are what its keys give; a cell's old values are pushed
//! on `saved` before a move changes them, and every `strong` bit that flips is logged in `toggled`, so
//! that `undo` restores instead of recomputing.

use super::{EMPTY, Position, SavedCell};
use crate::eval::terms::{ComboEntry, combo_index};
use crate::game::pattern::{Class, Patterns, Shape};

impl Position {
    /// Removes a cell's contribution to the counts and sums (before it is overwritten).
    pub(super) fn forget_cell(&mut self, i: usize) {
        self.forget_colour(i, 0);
        self.forget_colour(i, 1);
    }

    /// The same for one colour's values of the cell.
    #[inline]
    fn forget_colour(&mut self, i: usize, c: usize) {
        self.class_count[c][self.class[i][c] as usize] -= 1;
        for (sum, t) in self.sums[c].iter_mut().zip(self.terms[i][c]) {
            *sum -= t as i64;
        }
    }

    /// The window key of cell `i` for colour `c` on line `d`.
    #[inline]
    pub(super) fn key(&self, i: usize, c: usize, d: usize) -> u32 {
        let k = self.keys[i];
        if c == 0 { k[0][d] } else { white_key(k, d) }
    }

    /// Changes the digit of cell `i` (from `old` to `new` contents) in black's keys of every cell that
    /// sees it on its lines (white's follow: see `white_key`).
    pub(super) fn shift_keys(&mut self, i: usize, new: u8, old: u8) {
        let half = self.pats.half as isize;
        let delta = self.pats.digit(0, new) as i32 - self.pats.digit(0, old) as i32;
        for d in 0..4 {
            let step = self.dirs[d];
            // Cell i sits at offset o = k - L of cell i - o * step. The middle (k = L) weighs 0, so
            // cell i's own keys take a harmless zero instead of a branch. A key is a sum of digits
            // that always fits a u32, so wrapping additions give what wider arithmetic would.
            let first = i as isize + half * step;
            for (k, &w) in self.digit_weight.iter().enumerate() {
                let key = &mut self.keys[(first - k as isize * step) as usize][0][d];
                *key = key.wrapping_add((delta * w as i32) as u32);
            }
        }
    }

    /// Recomputes the empty cells within `L` of `i` on its four lines.
    pub(super) fn refresh_around(&mut self, i: usize) {
        let delta = refresh_lines(
            i,
            Fields {
                pats: &self.pats,
                dirs: self.dirs,
                cells: &self.cells,
                keys: &self.keys,
                combo: self.combo,
                shapes: &mut self.shapes,
                class: &mut self.class,
                strong: &mut self.strong,
                toggled: &mut self.toggled,
                terms: &mut self.terms,
                class_count: &mut self.class_count,
                saved: &mut self.saved,
            },
        );
        // The sums change once, from a local tally: updated in place cell by cell, every change
        // waited for the one before it through memory.
        for (sum, d) in self.sums.iter_mut().zip(delta) {
            for (s, x) in sum.iter_mut().zip(d) {
                *s += x;
            }
        }
    }

    /// Recomputes all four lines of the empty cell `i` (a new cell, or one that was just emptied).
    pub(super) fn refresh_all_dirs(&mut self, i: usize) {
        for c in 0..2 {
            for d in 0..4 {
                self.shapes[i][c][d] = self.pats.shape(c, self.key(i, c, d) as usize);
            }
        }
        // The cell was a stone (or never counted): nothing of it is in the counts yet.
        self.settle_cell(i);
    }

    /// From the shapes: class and weight of an empty cell, added to the counts and sums. The cell's
    /// previous contribution must have been removed already (it is re-added here).
    fn settle_cell(&mut self, i: usize) {
        self.settle_colour(i, 0);
        self.settle_colour(i, 1);
    }

    /// The same for one colour's values of the cell.
    #[inline]
    fn settle_colour(&mut self, i: usize, c: usize) {
        let ComboEntry { terms, class, .. } = self.combo[c][combo_index(self.shapes[i][c])];
        set_strong(&mut self.strong, &mut self.toggled, i, c, self.class[i][c], class);
        self.class[i][c] = class;
        self.terms[i][c] = terms;
        self.class_count[c][class as usize] += 1;
        for (sum, t) in self.sums[c].iter_mut().zip(terms) {
            *sum += t as i64;
        }
    }

    /// The digit weights, and the window keys of every cell whose window stays inside the padded
    /// array, read from the cells.
    pub(super) fn fill_keys(&mut self) {
        let half = self.pats.half as isize;
        let radix = self.pats.radix;
        self.digit_weight = (-half..=half)
            .map(|o| match o {
                0 => 0,
                o if o < 0 => radix.pow((o + half) as u32),
                o => radix.pow((o + half - 1) as u32),
            })
            .collect();
        let n = self.cells.len();
        let margin = half as usize * (self.stride + 1);
        for i in margin..n.saturating_sub(margin) {
            for c in 0..2 {
                for d in 0..4 {
                    self.keys[i][c][d] = self.compute_key(i, c, d);
                }
            }
            for d in 0..4 {
                self.keys[i][1][d] = self.keys[i][1][d].wrapping_add(self.keys[i][0][d]);
            }
        }
    }

    /// The window key of cell `i` for colour `c` on line `d`, read from the cells.
    pub(super) fn compute_key(&self, i: usize, c: usize, d: usize) -> u32 {
        let half = self.pats.half as isize;
        let step = self.dirs[d];
        let radix = self.pats.radix as usize;
        let mut key = 0usize;
        // Most significant digit first: offset +half down to -half, the middle skipped.
        let mut k = half;
        while k >= -half {
            if k != 0 {
                let j = (i as isize + k * step) as usize;
                key = key * radix + self.pats.digit(c, self.cells[j]);
            }
            k -= 1;
        }
        key as u32
    }
}

/// The fields `refresh_lines` reads and writes, borrowed apart: the compiler then knows that a
/// store into one cannot move another, and keeps their addresses in registers instead of reloading
/// them after every store (through `&mut self` it reloaded them).
struct Fields<'a> {
    pats: &'a Patterns,
    dirs: [isize; 4],
    cells: &'a [u8],
    keys: &'a [[[u32; 4]; 2]],
    combo: [&'static [ComboEntry]; 2],
    shapes: &'a mut [[[Shape; 4]; 2]],
    class: &'a mut [[Class; 2]],
    strong: &'a mut [Vec<u64>; 2],
    toggled: &'a mut Vec<u32>,
    terms: &'a mut [[[i32; 3]; 2]],
    class_count: &'a mut [[u32; Class::COUNT]; 2],
    saved: &'a mut Vec<SavedCell>,
}

/// Recomputes the empty cells within `L` of `i` on its four lines (see `Position::refresh_around`)
/// and returns the change of the evaluation sums.
#[inline]
fn refresh_lines(i: usize, mut f: Fields) -> [[i64; 3]; 2] {
    let mut delta = [[0i64; 3]; 2];
    // One copy per direction: with the direction a constant, a cell's four shapes are changed in
    // registers. With it a variable, the changed byte went through memory and the word read right
    // after it for the table index waited for the store (no forwarding from a byte to a word).
    refresh_line::<0>(i, &mut f, &mut delta);
    refresh_line::<1>(i, &mut f, &mut delta);
    refresh_line::<2>(i, &mut f, &mut delta);
    refresh_line::<3>(i, &mut f, &mut delta);
    delta
}

/// `refresh_lines` on the line of direction `D`.
#[inline(always)]
fn refresh_line<const D: usize>(i: usize, f: &mut Fields, delta: &mut [[i64; 3]; 2]) {
    let Fields { pats, dirs, cells, keys, combo, shapes, class, strong, toggled, terms, class_count, saved } =
        f;
    let half = pats.half as isize;
    let step = dirs[D];
    for k in -half..=half {
        if k == 0 {
            continue;
        }
        let j = (i as isize + k * step) as usize;
        if cells[j] != EMPTY {
            continue;
        }
        let black = pats.shape(0, keys[j][0][D] as usize);
        let white = pats.shape(1, white_key(keys[j], D) as usize);
        let changed = [black != shapes[j][0][D], white != shapes[j][1][D]];
        // Most cells a few steps away keep their shape: nothing else to redo then.
        if !changed[0] && !changed[1] {
            continue;
        }
        saved.push(SavedCell { idx: j as u32, shapes: shapes[j], class: class[j], terms: terms[j] });
        // A colour's class and terms follow from its own shapes only: the colour whose line did
        // not change keeps them (often one side's: a stone blocks the other's line far beyond
        // the reach of its own).
        for (c, shape) in [black, white].into_iter().enumerate() {
            if changed[c] {
                let mut four = shapes[j][c];
                four[D] = shape;
                shapes[j][c] = four;
                let e = combo[c][combo_index(four)];
                let (old_class, old_terms) = (class[j][c], terms[j][c]);
                if e.class != old_class {
                    class_count[c][old_class as usize] -= 1;
                    class_count[c][e.class as usize] += 1;
                    set_strong(strong, toggled, j, c, old_class, e.class);
                    class[j][c] = e.class;
                }
                terms[j][c] = e.terms;
                for k in 0..3 {
                    delta[c][k] += (e.terms[k] - old_terms[k]) as i64;
                }
            }
        }
    }
}

/// White's window key on line `d` from a cell's `keys` entry. A cell's digit for white is two minus
/// its digit for black, for a stone of either colour (own 0 and blocked 2 swap) and for an empty cell
/// (1 for both); beyond the edge or on a wall both colours read the same digit (blocked, or the edge's
/// own under caro). So black's and white's keys sum to a value that depends only on where the edges
/// and walls lie, which the entry keeps instead of white's key.
#[inline(always)]
fn white_key(k: [[u32; 4]; 2], d: usize) -> u32 {
    k[1][d].wrapping_sub(k[0][d])
}

/// Puts the saved cells back, the last saved first (a cell saved twice gets its oldest values). The
/// fields come borrowed apart, as in `refresh_lines`.
#[inline]
pub(super) fn restore_cells(
    saved: &[SavedCell],
    shapes: &mut [[[Shape; 4]; 2]],
    class: &mut [[Class; 2]],
    terms: &mut [[[i32; 3]; 2]],
) {
    for s in saved.iter().rev() {
        let j = s.idx as usize;
        shapes[j] = s.shapes;
        class[j] = s.class;
        terms[j] = s.terms;
    }
}

/// Whether a class puts its cell in `Position::strong`: a four or better, or a renju foul (which may
/// hide a four).
#[inline]
pub(super) fn is_strong(k: Class) -> bool {
    k as u8 >= Class::B4 as u8
}

/// Keeps cell `i`'s bit in colour `c`'s `strong` set in step with its class going from `old` to
/// `new`, and logs a change in `toggled` (as `2 i + c`) for the undo.
#[inline]
fn set_strong(
    strong: &mut [Vec<u64>; 2],
    toggled: &mut Vec<u32>,
    i: usize,
    c: usize,
    old: Class,
    new: Class,
) {
    if is_strong(old) != is_strong(new) {
        strong[c][i / 64] ^= 1 << (i % 64);
        toggled.push((2 * i + c) as u32);
    }
}
