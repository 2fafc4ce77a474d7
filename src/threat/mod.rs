//! Threat-space search: VCF (victory by continuous fours) and VCT (victory by continuous threats:
//! fours and threes), after Allis' threat-space search, over the incremental [`Position`].
//!
//! VCF: the attacker plays only fours; each four has one answer (its five point), so the defender's
//! moves are forced. A defender's reply that makes a four of its own must be blocked next, and the
//! attacker may continue only if that block is itself a four. An open four (two five points) wins.
//!
//! VCT: the attacker may also play threes (a stone after which it has an open-four point). The defender
//! then has several answers: every point that leaves the attacker no open-four point, and every four of
//! its own (a counter-threat, which the attacker must block). The attacker wins only if it wins after
//! each of them.
//!
//! Renju: a forbidden point is neither a black threat nor a black defence, so white may aim its fours at
//! black's forbidden points ([`Position::legal_for`]).
//!
//! Both solvers keep a memo of refuted positions by depth, stop on the shared stop flag or a node
//! budget, and return the winning line (attacker and defender moves alternating, ending with the five).
//! Invariant: the position is unchanged when they return.

use std::collections::HashMap;
use std::ops::RangeInclusive;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::eval::position::Position;
use crate::game::board::Color;
use crate::game::pattern::Class;
use crate::game::pattern::Shape;
use crate::player::timeman::time_to_check;

mod profile;
mod walk;
pub use profile::Profile;
pub use walk::{Fives, Four, Stops, VcfMode, Walker, blocks, play_four};

/// Limits of one threat search.
pub struct ThreatLimits<'a> {
    pub max_nodes: u64,
    pub stop: &'a AtomicBool,
    /// Give up at this moment (a share of the move's time).
    pub deadline: Option<Instant>,
}

pub struct Solver<'a> {
    pub nodes: u64,
    bound: Bound<'a>,
    aborted: bool,
    /// hash → the deepest search (in threats) that found no win from there.
    refuted: HashMap<u64, u32>,
}

/// What ends a threat search.
enum Bound<'a> {
    /// The root solvers' (see [`ThreatLimits`]): the node that reaches `max_nodes` is not expanded.
    Limits(ThreatLimits<'a>),
    /// The search's threat check: this many nodes more expand; once they are spent, no further four
    /// is tried.
    Nodes(u32),
}

/// Every empty cell where `c` makes five.
pub fn five_points(pos: &Position, c: Color) -> Vec<usize> {
    // The count says how many there are: the scan stops at the last.
    let n = pos.count(c, Class::Five) as usize;
    if n == 0 {
        return vec![];
    }
    pos.strong_cells(c).filter(|&i| pos.is_empty(i) && pos.class(i, c) == Class::Five).take(n).collect()
}

/// Finds the opponent's five point, looking near the last move first: a lone five point is nearly
/// always on a line through the opponent's last stone (the four it just made), and the board scan
/// that finds it anywhere else cost 2% of the search's time.
pub fn block_point(pos: &Position, opp: Color) -> Option<usize> {
    if pos.count(opp, Class::Five) == 1
        && let Some(last) = pos.last()
        && pos.cell(last) == opp.index() as u8
    {
        let near = Fives::near(pos, last, opp);
        if near.len() == 1 {
            return Some(near[0]);
        }
    }
    five_points(pos, opp).first().copied()
}

/// Whether a five point can be stopped away from it: under caro a stone just past the far end of the
/// five's run closes it at both ends, so a four has two answers and two five points on one line may
/// die to one stone. Everywhere else a five point is stopped only by a stone on it.
#[inline]
pub fn stops_off_the_point(pos: &Position) -> bool {
    Profile::of_position(pos).stops_off_the_point
}

/// The cells where a stone of the side to move leaves the opponent no five point (the opponent has
/// one or more). Outside caro that is its only five point, or nothing when it has two; under caro
/// (see [`stops_off_the_point`]) the cells within `L` of a five point on the lines where it makes
/// five are tried too, each by the one line it changes (as `defences` tries its cells):
///
/// ```text
/// o x x x x . _     the five point, or the cell past it: o x x x x x o does not win
/// ```
///
/// Renju legality is the caller's to check, as for the five point itself.
pub fn five_stops(pos: &Position) -> Vec<usize> {
    let def = pos.side();
    let att = def.opp();
    let fives = five_points(pos, att);
    if !stops_off_the_point(pos) {
        return if fives.len() == 1 { fives } else { vec![] };
    }
    let half = pos.patterns().half as isize;
    let mut tried = vec![];
    for &f in &fives {
        // A stone off the five's own line leaves that line as it is.
        for d in (0..4).filter(|&d| pos.shape(f, att, d) == Shape::Five) {
            for k in -half..=half {
                let j = (f as isize + k * pos.dir(d)) as usize;
                if pos.is_empty(j) && !tried.contains(&j) {
                    tried.push(j);
                }
            }
        }
    }
    tried.retain(|&j| fives.iter().all(|&t| t == j || pos.class_with_stone(t, att, j, def) != Class::Five));
    tried
}

/// The fours of the side to move worth trying in a narrow VCF (the quiescence's, after PentaZen's),
/// ranked by `vcf_candidate`: every such four on the board when `last` (the attacker's previous four)
/// is None, else those within four cells of `last` on its lines. The best `cands.len()` are kept,
/// best first, and below the first four only the best two; returns how many are to be tried. A four
/// that adds nothing, or one far from the last, rarely leads anywhere, and the narrow tree can go deep.
pub fn vcf_candidates(pos: &Position, last: Option<usize>, cands: &mut [(u8, usize)]) -> usize {
    let me = pos.side();
    let mut n = 0;
    let mut consider = |pos: &Position, j: usize| {
        // (Each cell comes once: the scan and the four lines through `last` meet no cell twice.)
        if let Some(rank) = vcf_candidate(pos, j, me) {
            if n < cands.len() {
                cands[n] = (rank, j);
                n += 1;
            } else if let Some(w) = cands.iter_mut().min_by_key(|c| c.0)
                && w.0 < rank
            {
                *w = (rank, j);
            }
        }
    };
    match last {
        None => {
            // The counts say how many fours there are: the scan stops after the last.
            let mut left = pos.count(me, Class::B4) + pos.count(me, Class::B4F3);
            for j in pos.strong_cells(me) {
                if left == 0 {
                    break;
                }
                if pos.is_empty(j) && matches!(pos.class(j, me), Class::B4 | Class::B4F3) {
                    left -= 1;
                    consider(pos, j);
                }
            }
        }
        Some(l) => {
            for d in 0..4 {
                for k in -4isize..=4 {
                    if k != 0 {
                        consider(pos, (l as isize + k * pos.dir(d)) as usize);
                    }
                }
            }
        }
    }
    let cands = &mut cands[..n];
    cands.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    if last.is_some() { n.min(2) } else { n }
}

/// Whether the empty cell `j` is a four for `c` worth trying in the narrow VCF, and its rank: a
/// four with an open three (2), or with a closed three on another line (1); a plain four adds nothing
/// to build on. Off-board and occupied cells are not.
#[inline]
fn vcf_candidate(pos: &Position, j: usize, c: Color) -> Option<u8> {
    if !pos.is_empty(j) {
        return None;
    }
    let rank = match pos.class(j, c) {
        Class::B4F3 => 2,
        Class::B4 => {
            let shapes = pos.shapes(j, c);
            u8::from(shapes.contains(&Shape::B3))
        }
        _ => return None,
    };
    (rank > 0 && pos.legal_for(j, c)).then_some(rank)
}

/// Whether a stone of `c` on the empty cell `i` makes a four on some line.
#[inline]
pub fn makes_four(pos: &Position, i: usize, c: Color) -> bool {
    (0..4).any(|d| pos.shape(i, c, d).is_four())
}

/// Cells where `c` makes a four (legal ones only), best classes first.
pub fn four_moves(pos: &Position, c: Color) -> Vec<usize> {
    // The class counts say whether there is anything to find (a renju maybe-foul may hide a four).
    let fours: u32 = [Class::B4, Class::B4F3, Class::Flex4, Class::MaybeForbidden, Class::Forbidden]
        .iter()
        .map(|&k| pos.count(c, k))
        .sum();
    if fours == 0 {
        return vec![];
    }
    // Every cell of those classes is looked at, and the scan stops after the last of them.
    let mut left = fours;
    let mut v: Vec<(u8, usize)> = vec![];
    for i in pos.strong_cells(c) {
        if left == 0 {
            break;
        }
        if !pos.is_empty(i) {
            continue;
        }
        let class = pos.class(i, c);
        if !matches!(class, Class::B4 | Class::B4F3 | Class::Flex4 | Class::MaybeForbidden | Class::Forbidden)
        {
            continue;
        }
        left -= 1;
        let four = class.is_four() || (class == Class::MaybeForbidden && makes_four(pos, i, c));
        if four && pos.is_near(i) && pos.legal_for(i, c) {
            v.push((class as u8, i));
        }
    }
    v.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    v.into_iter().map(|(_, i)| i).collect()
}

/// The defender's answers to the attacker's open threes (points where the attacker would make an open
/// four): the defender's own fours, then every point on those lines after which the attacker has no
/// open-four point left.
pub fn defences(pos: &mut Position, def: Color) -> Vec<usize> {
    let att = def.opp();
    let mut out = four_moves(pos, def);
    let half = pos.patterns().half as isize;
    let threats: Vec<usize> = pos
        .strong_cells(att)
        .filter(|&i| pos.is_empty(i) && pos.class(i, att) == Class::Flex4)
        .take(pos.count(att, Class::Flex4) as usize)
        .collect();
    let mut tried = vec![];
    for &t in &threats {
        // Only a stone on a line where the attacker's stone at t would make a four can take that four
        // away (a defender's stone never raises an attacker's shape), so other lines need no try.
        for d in (0..4).filter(|&d| pos.shape(t, att, d).is_four()) {
            for k in -half..=half {
                let j = (t as isize + k * pos.dir(d)) as usize;
                if pos.is_empty(j) && !tried.contains(&j) && !out.contains(&j) {
                    tried.push(j);
                }
            }
        }
    }
    let captures = Profile::of_position(pos).captures;
    for j in tried {
        if !pos.legal_for(j, def) {
            continue;
        }
        // A defender's stone only changes the lines through it, so each open-four point is looked at
        // with that one line changed instead of playing the stone: the test runs at every node under
        // an open three, and playing it cost a quarter of the search's time
        // (docs/search.md, "Move generation and ordering"). Captures take stones off other lines: Pente
        // plays the stone.
        let stopped = if captures {
            pos.play(j);
            let stopped = pos.count(att, Class::Flex4) == 0;
            pos.undo();
            stopped
        } else {
            threats.iter().all(|&t| t == j || pos.class_with_stone(t, att, j, def) != Class::Flex4)
        };
        if stopped {
            out.push(j);
        }
    }
    out
}

/// The five point of the four that `att`'s stone on the empty cell `t` makes (its closed four: one
/// point), read with the stone looked at, not played.
fn four_five_point(pos: &Position, t: usize, att: Color) -> Option<usize> {
    let d = (0..4).find(|&d| pos.shape(t, att, d).is_four())?;
    line_cells(pos, t, d).find(|&j| pos.is_empty(j) && pos.class_with_stone(j, att, t, att) == Class::Five)
}

/// The cells within the patterns' reach of `c` on line `d`, `c` itself left out (walls included:
/// callers test `is_empty`).
fn line_cells(pos: &Position, c: usize, d: usize) -> impl Iterator<Item = usize> + '_ {
    let half = pos.patterns().half as isize;
    (-half..=half).filter(|&k| k != 0).map(move |k| (c as isize + k * pos.dir(d)) as usize)
}

/// Whether the side to move, `att`, wins in five plies with one of its four-three points however many
/// fours the opponent has: the four's block is forced (a four of the opponent's does not stop a five),
/// and when that block makes no four of the opponent's, the three becomes an open four next, which
/// the opponent's fours no longer stop either (we answer a four with our five). The block lies on the
/// four's line, the three on another line through the point, so the block cannot close the three.
/// Rapfi's static win check has the same test.
///
/// ```text
/// . x x x t f      t: a four on the row (f its five point) and an open three on the column;
/// . . . . x .      o blocks at f: unless o's stone at f makes a four of its own, x's column
/// . . . . x .      becomes an open four and wins
/// ```
///
/// The opponent must have no five point (the caller checks). Not under caro (a four has other
/// stops), nor for renju black (its open-four points may be fouls); against renju black, a block
/// that may be a foul counts as a defence (it may hide a four). Exact without captures.
pub fn four_three_wins(pos: &Position, att: Color) -> bool {
    let def = att.opp();
    let rule = Profile::of_position(pos);
    if pos.count(att, Class::B4F3) == 0 || rule.stops_off_the_point || pos.restricted(att) || rule.captures {
        return false;
    }
    let mut left = pos.count(att, Class::B4F3);
    for t in pos.strong_cells(att) {
        if left == 0 {
            break;
        }
        if !pos.is_empty(t) || pos.class(t, att) != Class::B4F3 {
            continue;
        }
        left -= 1;
        let Some(f) = four_five_point(pos, t, att) else { continue };
        if matches!(
            pos.class_with_stone(f, def, t, att),
            Class::None | Class::Quiet | Class::F3 | Class::F3x2
        ) {
            return true;
        }
    }
    false
}

/// The defender's answers to a four-three point of the attacker's: a cell `t` where the attacker's
/// stone makes a closed four and an open three at once, a win in five plies (the four's block is
/// forced, then the three becomes an open four):
///
/// ```text
/// . x x x t . .      t makes the row a closed four (o blocks its five point f)
/// o . . . . f .      and the column through t an open three at the same time
/// ```
///
/// The answers to the first such point (each must be answered): the defender's fours, `t` itself,
/// every cell on a line through `t` after which the attacker's stone there is no longer a four-three
/// (each tried by the one line it changes, as in `defences`), and every cell that makes the forced
/// block on `f` a four of the defender's (a counter that wins the tempo back). None when that block is
/// a four already (every move then has its counter, as in Rapfi's move picker), when nothing answers,
/// under caro (whose fours have other stops) or where the attacker is renju black (its three may be
/// false: its open-four points may be fouls). Exact without captures (Pente has none of this).
pub fn four_three_defences(pos: &Position, def: Color) -> Option<Vec<usize>> {
    let att = def.opp();
    let rule = Profile::of_position(pos);
    if rule.stops_off_the_point || pos.restricted(att) || rule.captures {
        return None;
    }
    let t = pos.strong_cells(att).find(|&i| pos.is_empty(i) && pos.class(i, att) == Class::B4F3)?;
    let f = four_five_point(pos, t, att)?;
    if pos.class(f, def).is_four() {
        return None;
    }
    let mut out = four_moves(pos, def);
    let add = |j: usize, out: &mut Vec<usize>| {
        if !out.contains(&j) && pos.legal_for(j, def) {
            out.push(j);
        }
    };
    add(t, &mut out);
    for d in 0..4 {
        for j in line_cells(pos, t, d) {
            if pos.is_empty(j)
                && !matches!(pos.class_with_stone(t, att, j, def), Class::B4F3 | Class::Flex4 | Class::Five)
            {
                add(j, &mut out);
            }
        }
        for j in line_cells(pos, f, d) {
            if j != t && pos.is_empty(j) && pos.class_with_stone(f, def, j, def).is_four() {
                add(j, &mut out);
            }
        }
    }
    (!out.is_empty()).then_some(out)
}

/// The rest of a win by threes that no move answers, for the line shown: the defender (to move) takes
/// one of `att`'s open-four points, `att` makes an open four on another, the defender blocks one end
/// and `att` plays the other. Empty if the position is not such a win.
fn unanswered_threes(pos: &mut Position, att: Color) -> Vec<usize> {
    let open_four_point = |pos: &Position| {
        pos.strong_cells(att).find(|&i| pos.is_empty(i) && pos.class(i, att) == Class::Flex4)
    };
    let Some(taken) = open_four_point(pos) else { return vec![] };
    pos.play(taken);
    let mut rest = vec![];
    if let Some(four) = open_four_point(pos) {
        pos.play(four);
        let fives = five_points(pos, att);
        pos.undo();
        if fives.len() >= 2 {
            rest = vec![taken, four, fives[0], fives[1]];
        }
    }
    pos.undo();
    rest
}

/// Cells where `c` makes an open three or better without making a four (VCT's quiet threats).
pub fn three_moves(pos: &Position, c: Color) -> Vec<usize> {
    let mut v: Vec<(i32, usize)> = pos
        .indices()
        .filter(|&i| pos.is_empty(i) && pos.is_near(i))
        .filter_map(|i| {
            let class = pos.class(i, c);
            let three =
                matches!(class, Class::F3 | Class::F3x2 | Class::MaybeForbidden) && !makes_four(pos, i, c);
            (three && pos.legal_for(i, c)).then_some((pos.weight(i, c) + pos.weight(i, c.opp()), i))
        })
        .collect();
    v.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    v.into_iter().map(|(_, i)| i).collect()
}

impl<'a> Solver<'a> {
    pub fn new(limits: ThreatLimits<'a>) -> Solver<'a> {
        Solver { nodes: 0, bound: Bound::Limits(limits), aborted: false, refuted: HashMap::new() }
    }

    /// A solver bounded by `nodes` nodes alone (no stop flag, no deadline): the search's threat check.
    pub fn with_nodes(nodes: u32) -> Solver<'static> {
        Solver { nodes: 0, bound: Bound::Nodes(nodes), aborted: false, refuted: HashMap::new() }
    }

    /// Whether the search ran out of nodes or was stopped (its "no" is then not a proof).
    pub fn aborted(&self) -> bool {
        self.aborted
    }

    /// Counts a node about to be expanded; true when it may not be (the search is over).
    fn tick(&mut self) -> bool {
        match &mut self.bound {
            Bound::Limits(limits) => {
                self.nodes += 1;
                if self.nodes >= limits.max_nodes
                    || (time_to_check(self.nodes)
                        && (limits.stop.load(Ordering::Relaxed)
                            || limits.deadline.is_some_and(|d| Instant::now() >= d)))
                {
                    self.aborted = true;
                }
                self.aborted
            }
            Bound::Nodes(0) => {
                self.aborted = true;
                true
            }
            Bound::Nodes(left) => {
                *left -= 1;
                self.nodes += 1;
                // The budget's last node still expands: it stops after its first four.
                self.aborted = *left == 0;
                false
            }
        }
    }

    /// How every threat walk begins, with `depth` threats (for the VCF, fours) left: a five now wins,
    /// its point appended to `line`; no depth left, the bound spent or a position refuted at `depth` or
    /// deeper (`memo`: its key in the memo, if the walk keeps one) loses. `None`: the walk goes on.
    #[inline]
    fn settled(
        &mut self,
        pos: &Position,
        depth: u32,
        memo: Option<u64>,
        line: &mut Vec<usize>,
    ) -> Option<bool> {
        let me = pos.side();
        if pos.count(me, Class::Five) > 0 {
            line.push(five_points(pos, me)[0]);
            return Some(true);
        }
        if depth == 0 || self.tick() {
            return Some(false);
        }
        if memo.is_some_and(|key| self.refuted.get(&key).is_some_and(|&d| d >= depth)) {
            return Some(false);
        }
        None
    }

    /// The shortest win `walk` finds, by iterative deepening over `depths` (the memo cleared at each).
    fn deepen(
        &mut self,
        pos: &mut Position,
        depths: RangeInclusive<u32>,
        mut walk: impl FnMut(&mut Self, &mut Position, u32, &mut Vec<usize>) -> bool,
    ) -> Option<Vec<usize>> {
        for depth in depths {
            self.refuted.clear();
            let mut line = vec![];
            if walk(self, pos, depth, &mut line) {
                return Some(line);
            }
            if self.aborted {
                return None;
            }
        }
        None
    }

    /// A VCF for the side to move with at most `max_fours` fours before the five, found by iterative
    /// deepening so the line is as short as possible.
    pub fn vcf(&mut self, pos: &mut Position, max_fours: u32) -> Option<Vec<usize>> {
        self.deepen(pos, 0..=max_fours, |s, pos, fours, line| s.vcf_walk(pos, fours, VcfMode::PROOF, line))
    }

    /// A VCT for the side to move with at most `depth` threats (fours and threes).
    pub fn vct(&mut self, pos: &mut Position, depth: u32) -> Option<Vec<usize>> {
        self.deepen(pos, 1..=depth, Solver::vct_rec)
    }

    fn vct_rec(&mut self, pos: &mut Position, depth: u32, line: &mut Vec<usize>) -> bool {
        let me = pos.side();
        let opp = me.opp();
        let key = pos.hash() ^ 0x7654_3210_fedc_ba98;
        if let Some(won) = self.settled(pos, depth, Some(key), line) {
            return won;
        }
        let opp_fives = pos.count(opp, Class::Five);
        if opp_fives == 0 && pos.count(me, Class::Flex4) > 0 {
            // An open four now: wins in three plies (the four, a block, the other five point), which
            // the line shows in full so that its length is the win's.
            let open_four =
                pos.strong_cells(me).find(|&i| pos.is_empty(i) && pos.class(i, me) == Class::Flex4);
            if let Some(m) = open_four {
                pos.play(m);
                let fives = five_points(pos, me);
                pos.undo();
                line.push(m);
                line.extend(fives.into_iter().take(2));
                return true;
            }
        }
        let (fours, threes): (Vec<usize>, Vec<usize>) = if opp_fives > 0 {
            // Any stop of the defender's five points, a four of ours first.
            let stops = blocks(pos);
            if stops.is_empty() {
                return false;
            }
            stops.into_iter().partition(|&b| makes_four(pos, b, me))
        } else {
            (four_moves(pos, me), three_moves(pos, me))
        };
        for m in fours {
            if self.try_four(pos, m, VcfMode::PROOF, line, |s, pos, line| s.vct_rec(pos, depth - 1, line)) {
                return true;
            }
            if self.aborted {
                return false;
            }
        }
        for m in threes {
            if self.try_three(pos, m, depth, line) {
                return true;
            }
            if self.aborted {
                return false;
            }
        }
        self.refuted.insert(key, depth);
        false
    }

    /// Plays the quiet threat `m` and checks every defence; true when all of them lose.
    fn try_three(&mut self, pos: &mut Position, m: usize, depth: u32, line: &mut Vec<usize>) -> bool {
        let me = pos.side();
        let opp = me.opp();
        pos.play(m);
        if pos.count(me, Class::Flex4) == 0 && pos.count(me, Class::Five) == 0 {
            // Not a threat after all (e.g. its open-four points are forbidden).
            pos.undo();
            return false;
        }
        let defences = defences(pos, opp);
        let mut all_lose = true;
        let mut best_line: Vec<usize> = vec![];
        for d in defences {
            pos.play(d);
            let mut sub = vec![];
            let wins = self.vct_rec(pos, depth - 1, &mut sub);
            pos.undo();
            if !wins {
                all_lose = false;
                break;
            }
            if best_line.is_empty() {
                best_line = std::iter::once(d).chain(sub).collect();
            }
        }
        if all_lose && best_line.is_empty() && !self.aborted {
            // No answer at all (a double three): the line goes on as the win does, the defender on
            // one open-four point, we on another, a block, the five (so its length is the win's).
            best_line = unanswered_threes(pos, me);
        }
        pos.undo();
        if all_lose && !self.aborted {
            line.push(m);
            line.extend(best_line);
            return true;
        }
        false
    }
}
