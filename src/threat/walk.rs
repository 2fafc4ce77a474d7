//! The four walk: the one implementation of "play a four, answer it with the defender's forced
//! block (under caro, each of its stops), go on from there" that every threat search shares: the
//! solvers' VCF and VCT, the search's threat check (a VCF on a node budget) and its quiescence
//! (fours scored by the evaluation). The callers differ only by parameters: how caro's several
//! stops are taken ([`Stops`]) and how a VCF walk goes ([`VcfMode`]); the four itself, its five
//! points and their stops are found here and nowhere else.
//!
//! Invariant: the position is unchanged when a walk returns.

use std::ops::Deref;

use super::{Solver, block_point, five_stops, four_moves, makes_four, stops_off_the_point};
use crate::eval::position::Position;
use crate::game::board::Color;
use crate::game::pattern::Class;

/// A search that walks fours on a position of its own.
pub trait Walker {
    fn pos(&mut self) -> &mut Position;
}

/// How a four with several answers is taken. Only caro's fours have them: its five point may also
/// be stopped off the point (see [`stops_off_the_point`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stops {
    /// Every stop must lose for the four to win: the solvers' proofs.
    All,
    /// A four is followed only when it has one stop: the search's small walks, which may give up
    /// (that proves nothing wrong) and have a few nodes to spend.
    One,
}

/// The five points of `c` on the lines through its stone at `i`, without a Vec (the quiescence's
/// hot path). Right after `c` played `i` with no five point before, each five's run holds `i`, so a
/// line has at most one on either side of it: eight in all.
#[derive(Clone, Copy, Debug)]
pub struct Fives {
    cells: [usize; 8],
    len: usize,
}

impl Fives {
    pub fn near(pos: &Position, i: usize, c: Color) -> Fives {
        let half = pos.patterns().half as isize;
        let mut f = Fives { cells: [0; 8], len: 0 };
        for d in 0..4 {
            for k in -half..=half {
                let j = (i as isize + k * pos.dir(d)) as usize;
                if k != 0
                    && pos.is_empty(j)
                    && pos.class(j, c) == Class::Five
                    && !f.contains(&j)
                    && f.len < f.cells.len()
                {
                    f.cells[f.len] = j;
                    f.len += 1;
                }
            }
        }
        f
    }
}

impl Deref for Fives {
    type Target = [usize];
    fn deref(&self) -> &[usize] {
        &self.cells[..self.len]
    }
}

/// What became of a four (see [`play_four`]).
#[derive(Debug)]
pub enum Four<R> {
    /// Not a four the walk follows: no five point, or several stops under [`Stops::One`].
    Idle,
    /// Nothing answers it: two five points or more, one renju black may not block, or under caro
    /// five points no stone stops. Its five points.
    Wins(Fives),
    /// Its answers were played and the walk went on after each: the first one's result, or None when
    /// the attacker got nothing after one of them.
    Answered(Option<R>),
}

/// Plays the four `m` of the side to move, then each of the defender's answers to it with `next`
/// after it (given the answer's cell), and takes them back. `next` returns None when the attacker
/// gets nothing after that answer; the answers after it are not tried.
pub fn play_four<W: Walker + ?Sized, R>(
    w: &mut W,
    m: usize,
    stops: Stops,
    mut next: impl FnMut(&mut W, usize) -> Option<R>,
) -> Four<R> {
    let pos = w.pos();
    let me = pos.side();
    pos.play(m);
    let fives = Fives::near(pos, m, me);
    let four = if fives.is_empty() {
        Four::Idle
    } else if stops_off_the_point(pos) {
        // Caro: the four's answers are its stops (none: it wins).
        match five_stops(pos)[..] {
            [] => Four::Wins(fives),
            [_, _, ..] if stops == Stops::One => Four::Idle,
            ref all => Four::Answered(answer_all(w, all, &mut next)),
        }
    } else if fives.len() >= 2 || !pos.legal_for(fives[0], me.opp()) {
        // An open four (or two fours), or renju black cannot block on a forbidden point.
        Four::Wins(fives)
    } else {
        Four::Answered(answer_all(w, &fives[..1], &mut next))
    };
    w.pos().undo();
    four
}

/// Plays each of the defender's answers `cells` in turn with `next` after it: the first one's result,
/// or None at the first after which the attacker gets nothing.
fn answer_all<W: Walker + ?Sized, R>(
    w: &mut W,
    cells: &[usize],
    next: &mut impl FnMut(&mut W, usize) -> Option<R>,
) -> Option<R> {
    let mut first = None;
    for &b in cells {
        w.pos().play(b);
        let r = next(w, b);
        w.pos().undo();
        let r = r?;
        first.get_or_insert(r);
    }
    first
}

/// The side to move's answers to the opponent's five points (it has some), the legal ones: its lone
/// five point (none when it has two), or under caro each stop (see [`five_stops`]). A walk plays
/// one of them before any four of its own.
pub fn blocks(pos: &Position) -> Vec<usize> {
    let me = pos.side();
    let opp = me.opp();
    if stops_off_the_point(pos) {
        // (Caro forbids no move.)
        return five_stops(pos);
    }
    if pos.count(opp, Class::Five) != 1 {
        return vec![];
    }
    block_point(pos, opp).filter(|&b| pos.legal_for(b, me)).into_iter().collect()
}

/// How a VCF walk goes ([`Solver::vcf_walk`]): the solvers prove wins, the search's threat check
/// looks for the opponent's on a dozen nodes. Each field is one way the two differ.
#[derive(Clone, Copy, Debug)]
pub struct VcfMode {
    /// Caro's several stops: of the defender's after our four, and of ours against its five points.
    pub stops: Stops,
    /// An open four of ours (the opponent having no five point) wins at once, unplayed and not in the
    /// line. The solvers play it as a four so the line shows it (after a renju four that may be a
    /// foul, which `four_moves` ranks first).
    pub open_four_wins: bool,
    /// The line ends with every five point of the last four (the check wants every cell of the
    /// threat), not just the two a win needs (the solvers' line, whose length is the win's).
    pub every_five: bool,
    /// Refuted positions are remembered by depth (see `Solver::refuted`; the check's dozen nodes
    /// keep none).
    pub memo: bool,
}

impl VcfMode {
    /// The solvers': every stop, the open four played, the two five points a win needs, a memo.
    pub const PROOF: VcfMode =
        VcfMode { stops: Stops::All, open_four_wins: false, every_five: false, memo: true };
    /// The search's threat check (see `Worker::opponent_vcf`): a lone stop, the open four unplayed,
    /// every five point, no memo.
    pub const CHECK: VcfMode =
        VcfMode { stops: Stops::One, open_four_wins: true, every_five: true, memo: false };
}

/// A solver on the position it walks.
struct Run<'r, 'a> {
    solver: &'r mut Solver<'a>,
    pos: &'r mut Position,
}

impl Walker for Run<'_, '_> {
    fn pos(&mut self) -> &mut Position {
        self.pos
    }
}

impl<'a> Solver<'a> {
    /// A VCF for the side to move with at most `fours` fours before the five, walked as `mode` says
    /// and within the solver's bound (no deepening: see [`Solver::vcf`]). The winning line, attacker
    /// and defender moves alternating, is appended to `line`.
    pub fn vcf_walk(&mut self, pos: &mut Position, fours: u32, mode: VcfMode, line: &mut Vec<usize>) -> bool {
        let me = pos.side();
        let opp = me.opp();
        let key = pos.hash();
        // A five now happens only at the walk's root: a block leaves the attacker no five point.
        if let Some(won) = self.settled(pos, fours, mode.memo.then_some(key), line) {
            return won;
        }
        let moves = if pos.count(opp, Class::Five) > 0 {
            // The defender threatens five: the only moves are its stops (under `Stops::One` a lone
            // one), and they must be fours.
            let mut stops = blocks(pos);
            if mode.stops == Stops::One && stops.len() > 1 {
                stops.clear();
            }
            stops.retain(|&b| makes_four(pos, b, me));
            stops
        } else if mode.open_four_wins && pos.count(me, Class::Flex4) > 0 {
            return true;
        } else {
            four_moves(pos, me)
        };
        for m in moves {
            if self.try_four(pos, m, mode, line, |s, pos, line| s.vcf_walk(pos, fours - 1, mode, line)) {
                return true;
            }
            if self.aborted {
                return false;
            }
        }
        if mode.memo {
            self.refuted.insert(key, fours);
        }
        false
    }

    /// Plays the four `m` ([`play_four`]) with `next` after the defender's answer; when it wins,
    /// appends the four, the answer and what `next` added (under caro, the first stop's), or the four
    /// and the five points nothing answers.
    pub(super) fn try_four(
        &mut self,
        pos: &mut Position,
        m: usize,
        mode: VcfMode,
        line: &mut Vec<usize>,
        mut next: impl FnMut(&mut Self, &mut Position, &mut Vec<usize>) -> bool,
    ) -> bool {
        let start = line.len();
        let four = play_four(&mut Run { solver: self, pos }, m, mode.stops, |run, b| {
            let at = line.len();
            line.extend([m, b]);
            let won = next(run.solver, run.pos, line);
            if !won || at > start {
                line.truncate(at);
            }
            won.then_some(())
        });
        match four {
            Four::Idle => false,
            Four::Wins(fives) => {
                line.push(m);
                line.extend(fives.iter().take(if mode.every_five { fives.len() } else { 2 }));
                true
            }
            Four::Answered(won) => {
                if won.is_none() {
                    line.truncate(start);
                }
                won.is_some()
            }
        }
    }
}
