//! What a cell is worth, from the four line shapes a stone there would make: its weight (move
//! ordering, and the evaluation under Pente), the fitted evaluation terms as the side to move and as
//! the side that waits, the threat term over the classes each side has on the board, and the table of
//! every combination of four shapes that makes each cell's class, terms and move-prior terms one lookup.
//!
//! Invariants: the tables are built once per process and never change. The entry of four shapes holds
//! their `Class::of` (renju black's fouls only in the table built for renju black), `cell_terms` of
//! the shapes and that class, and `policy::cell_prior` of them clamped to `i16`.
//! [`Position`](crate::eval::position::Position) keeps these per cell and sums the terms; its
//! evaluation adds the threat term and the constant.

use std::sync::OnceLock;

use crate::eval::policy;
use crate::game::pattern::{Class, Shape};

/// The weight of one line shape for a cell (the classic weight matrix, with shapes for counts).
pub const SHAPE_WEIGHT: [i32; Shape::COUNT] = [
    0,    // None
    1,    // B1
    3,    // F1
    6,    // B2
    20,   // F2
    22,   // B3
    80,   // F3
    90,   // B4
    400,  // F4
    400,  // DoubleFour
    2000, // Five
    0,    // Overline
];

/// Extra weight for combinations on one cell, by class.
pub const CLASS_BONUS: [i32; Class::COUNT] = [0, 0, 0, 120, 0, 250, 600, 3000, 0, 0];

/// The evaluation's terms (tenths of a point): the worth of each line shape and each class on an
/// empty cell, for the side to move (`MOVER`) and for the side that waits (`WAITER`). They differ
/// because the side to move cashes its threats first: its four-three point is nearly a win, the
/// waiting side's is worth about half of that. A cell where the mover has an open four point never
/// reaches the evaluation (the search calls it won), so those terms are unfitted zeros.
///
/// Fitted, not guessed (docs/search.md §9): a logistic regression of Rapfi's win rate (classical
/// weights, 100 ms a position, `sigmoid(eval / 200)`; its classical model in fact converts with 250,
/// and searched, our evaluations spread half as wide as Rapfi's: see `eval::score::evaluate`) on quiet
/// positions (no open-four point for the mover, no five point for the waiter) of freestyle games
/// against the ladder's engines. Shape and class terms come from 17369 positions; the pair terms and
/// the constant are fitted over them on 32000, a win or loss Rapfi found counted as eval ±800: without
/// those, or with a penalty on large terms, the fit keeps the four-three points cheap, and such
/// evaluations lose in self-play though they predict Rapfi better. Shape and class terms are collinear
/// (an open-four shape makes an open-four class), so single terms may look odd; their sums are what
/// was fitted.
///
/// Rapfi's static evaluation predicts the games better than these terms, yet copying it (fitted to
/// it, to the search's leaves or to the games' results) plays worse, perhaps because these terms and
/// the search's margins were tuned together (docs/search.md §9, Not refitted).
const EVAL_SHAPE_MOVER: [i32; Shape::COUNT] = [0, -3, 6, 26, 81, 170, 314, 3028, 0, 0, 0, 0];
const EVAL_SHAPE_WAITER: [i32; Shape::COUNT] = [0, 0, -2, -17, -70, -141, 570, 505, -59, -59, 0, 0];
const EVAL_CLASS_MOVER: [i32; Class::COUNT] = [0, 0, 70, 272, -2367, 5395, 0, 0, 0, 0];
const EVAL_CLASS_WAITER: [i32; Class::COUNT] = [0, 0, -858, -1438, -1152, -3269, -1940, 0, 0, 0];
/// Per role, a cell's strongest line shape (row) with its second strongest (column, never stronger):
/// two lines through one cell are worth more, or less, than their sum (a three with a two is the
/// start of a four-three). Held-out log-loss against Rapfi's win rate 0.204 with them, 0.225 without.
#[rustfmt::skip]
const EVAL_PAIR_MOVER: [i32; Shape::COUNT * Shape::COUNT] = [
        0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,
        4,   -72,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,
       33,     0,   -22,     0,     0,     0,     0,     0,     0,     0,     0,     0,
      -22,  -127,   -48,   -85,     0,     0,     0,     0,     0,     0,     0,     0,
      -45,  -207,  -101,   -12,   -49,     0,     0,     0,     0,     0,     0,     0,
     -161,  -302,  -154,  -111,    55,    67,     0,     0,     0,     0,     0,     0,
     -320,  -412,   -97,   -32,    31,   148,  -183,     0,     0,     0,     0,     0,
     -586,  -610,  -216,   -99,   491,   566, -2525,     0,     0,     0,     0,     0,
        0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,
        0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,
        0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,
        0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,
];
/// The double-four row repeats the open-four row (both make the cell an open-four point of the
/// waiting side): fitted on the few positions that have one, it rates the opponent's double-four point
/// +185 points for the side to move, where an open-four point is -146 (docs/strength.md, Ideas
/// tried).
#[rustfmt::skip]
const EVAL_PAIR_WAITER: [i32; Shape::COUNT * Shape::COUNT] = [
        0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,
        4,   121,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,
      -21,    19,     6,     0,     0,     0,     0,     0,     0,     0,     0,     0,
       33,   118,    50,    39,     0,     0,     0,     0,     0,     0,     0,     0,
        5,   155,    91,    19,    44,     0,     0,     0,     0,     0,     0,     0,
      131,   240,   129,    93,   -46,   -42,     0,     0,     0,     0,     0,     0,
      232,   518,    94,   -30,   -26,  -155,  -208,     0,     0,     0,     0,     0,
      650,   575,   273,    55,  -315,  -519,  -114, -1237,     0,     0,     0,     0,
      538,   693,   390,  -278,   -99,  -736,   509, -1259,   311,     0,     0,     0,
      538,   693,   390,  -278,   -99,  -736,   509, -1259,   311,   311,     0,     0,
        0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,
        0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,
];
/// The fit's constant term (tenths), the mover's view: with the empty-cell counts above it sets the
/// value of the move itself.
pub const EVAL_BIAS: i64 = -174;
/// The threat term (points, the mover's view): one value for each combination of the threat classes
/// each side has somewhere on the board (`Position::threat_mask`: bit 0-3 the mover's four-three, four,
/// double-three and three points, bit 4-8 the waiting side's open-four, four-three, four, double-three
/// and three points). The cell terms are linear, so two threat points count twice, yet who has the
/// initiative is a yes or no: Rapfi's classical evaluation adds such a table. Fitted over the terms
/// above (kept as they were) to Rapfi's rating (200 ms a position) of 16000 quiet positions from our
/// games against it, with a ridge of sigma 400; held-out log-loss 0.545 without it, 0.535 with it
/// (docs/search.md §9). Combinations never seen stay zero.
#[rustfmt::skip]
pub(super) const THREAT_EVAL: [i16; 512] = [
       13,     0,   -22,     0,     0,     0,     0,     0,     0,     0,   -33,     0,    68,     0,     0,     0,
        0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,
        0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,
        0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,
       22,     0,    -9,    -9,     0,     0,     0,     0,   121,     0,   100,  -320,   112,     0,   394,     0,
      135,     0,    55,     0,     0,     0,     0,     0,   125,     0,   208,  -570,     8,     0,   110,     0,
        0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,
        0,     0,     0,     0,     0,     0,     0,     0,     0,     0,    58,     0,     0,     0,     0,     0,
        0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,
        0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,
        0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,
        0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,
        0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,
        0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,
        0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,
        0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,
      -40,     0,   -83,     0,     0,     0,     0,     0,   -26,     0,   -36,   -36,   151,     0,   424,   -13,
        0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,
        0,     0,     0,     0,     0,     0,     0,     0,     0,     0,   116,     0,     0,     0,     0,     0,
        0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,
      -64,     0,  -116,     0,     0,     0,     0,     0,   -26,     0,    -7,  -158,   127,     0,   178,   -10,
      119,     0,     5,     0,     0,     0,     0,     0,     5,     0,     6,  -149,  -114,     0,  -108,   -73,
       78,     0,    -2,     0,     0,     0,     0,     0,    43,     0,   -16,    41,    -5,     0,  -166,     0,
      187,     0,   -18,     0,     0,     0,     0,     0,   -15,     0,   -70,  -102,  -363,     0,   -34,   195,
     -114,     0,  -105,     0,     0,     0,     0,     0,   -94,     0,    18,    46,   284,     0,   346,     0,
        0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,
        0,     0,     0,     0,     0,     0,     0,     0,     0,     0,    78,    21,     0,     0,     0,     0,
        0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,     0,
     -187,     0,   -83,     0,     0,     0,     0,     0,   -93,     0,    14,  -110,   117,     0,   302,     2,
        0,     0,  -223,     0,     0,     0,     0,     0,  -550,     0,  -166,    46,  -176,     0,  -254,   210,
     -126,     0,   -31,     0,     0,     0,     0,     0,  -346,     0,  -181,  -114,  -192,     0,  -177,   126,
       26,     0,   207,     0,     0,     0,     0,     0,  -108,     0,   -44,  -411,   317,     0,   590,     0,
];
/// Indices in a cell's `terms` (and in `sums`): the weight, and the evaluation terms by role.
pub(super) const WEIGHT: usize = 0;
pub(super) const MOVER: usize = 1;
pub(super) const WAITER: usize = 2;

/// What four line shapes make together for one colour: the class and the cell's terms.
#[derive(Clone, Copy, Debug)]
pub(super) struct ComboEntry {
    pub(super) terms: [i32; 3],
    /// The move prior's terms of these shapes (`policy::cell_prior`): as the side to move, as its
    /// opponent.
    pub(super) prior: [i16; 2],
    pub(super) class: Class,
}

/// Index of four shapes in the combination tables.
#[inline]
pub(super) fn combo_index(s: [Shape; 4]) -> usize {
    ((s[0] as usize * Shape::COUNT + s[1] as usize) * Shape::COUNT + s[2] as usize) * Shape::COUNT
        + s[3] as usize
}

/// Per shape, then per class: (weight, mover's term, waiting side's term), so a cell's three values
/// come from five lookups.
const SHAPE_TERMS: [[i32; 3]; Shape::COUNT] = zip_terms(SHAPE_WEIGHT, EVAL_SHAPE_MOVER, EVAL_SHAPE_WAITER);
const CLASS_TERMS: [[i32; 3]; Class::COUNT] = zip_terms(CLASS_BONUS, EVAL_CLASS_MOVER, EVAL_CLASS_WAITER);

/// The weight, mover and waiter tables side by side, entry by entry.
const fn zip_terms<const N: usize>(weight: [i32; N], mover: [i32; N], waiter: [i32; N]) -> [[i32; 3]; N] {
    let mut t = [[0; 3]; N];
    let mut k = 0;
    while k < N {
        t[k] = [weight[k], mover[k], waiter[k]];
        k += 1;
    }
    t
}

/// A cell's weight and evaluation terms from its four shapes and their class (a renju foul is
/// worth nothing: black cannot play there).
#[inline]
fn cell_terms(s: [Shape; 4], class: Class) -> [i32; 3] {
    if class == Class::Forbidden {
        return [0; 3];
    }
    // Renju black's possible double-three foul takes the double three's class terms: the fits saw
    // freestyle positions only, where no cell has this class, and zero class terms value such a cell
    // far above a double three for the waiting side (+93 against -51 points with its lines' terms;
    // docs/search.md §9, Renju). Zero terms for the whole cell, as for a certain foul, were no better;
    // renju terms of their own, fitted to Rapfi's ratings of renju positions, played worse
    // (docs/strength.md, Ideas tried).
    let as_class = if class == Class::MaybeForbidden { Class::F3x2 } else { class };
    let mut t = CLASS_TERMS[as_class as usize];
    for x in s {
        let u = SHAPE_TERMS[x as usize];
        t[0] += u[0];
        t[1] += u[1];
        t[2] += u[2];
    }
    let pair = Shape::pair_index(s);
    t[1] += EVAL_PAIR_MOVER[pair];
    t[2] += EVAL_PAIR_WAITER[pair];
    t
}

/// The class and terms of every combination of four shapes, for black and for white. Two tables
/// serve every rule (renju black's fouls, and everything else), built once for the process.
pub(super) fn combo_tables(renju: bool) -> [&'static [ComboEntry]; 2] {
    static TABLES: [OnceLock<Vec<ComboEntry>>; 2] = [OnceLock::new(), OnceLock::new()];
    let table = |fouls: bool| -> &'static [ComboEntry] {
        TABLES[usize::from(fouls)].get_or_init(|| {
            let all: Vec<Shape> = (0..Shape::COUNT as u8).map(Shape::from_index).collect();
            let mut t =
                vec![ComboEntry { terms: [0; 3], prior: [0; 2], class: Class::None }; Shape::COUNT.pow(4)];
            for &a in &all {
                for &b in &all {
                    for &c in &all {
                        for &d in &all {
                            let s = [a, b, c, d];
                            let class = Class::of(s, fouls);
                            let prior = policy::cell_prior(s, class).map(|v| v.clamp(-32768, 32767) as i16);
                            t[combo_index(s)] = ComboEntry { terms: cell_terms(s, class), prior, class };
                        }
                    }
                }
            }
            t
        })
    };
    [table(renju), table(false)]
}
