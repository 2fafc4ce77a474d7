//! The root: one iteration's aspiration windows, the order of the root moves from the last
//! iteration, and the principal variation read back from the table.

use super::*;

/// What a worker keeps of the root iteration under way, read back when a window is searched again or
/// the iteration ends early.
#[derive(Clone, Copy)]
pub(super) struct RootState {
    /// The depth of the iteration (an iteration another thread has completed is abandoned).
    pub iteration: i32,
    /// In the window under way, a later move beat the first one.
    pub improved: bool,
    /// In the window under way: the score that a later move beat when it became the best (the first
    /// move's, or the window's low end), and the first move's score once its search is complete.
    pub beaten: i32,
    pub first_score: Option<i32>,
}

impl Default for RootState {
    fn default() -> RootState {
        RootState { iteration: 0, improved: false, beaten: -INF, first_score: None }
    }
}

impl<'a> Worker<'a> {
    /// Searches the root moves at `depth` inside an aspiration window around `prev`, the score of the
    /// last completed iteration, widening it on each failure until the score lies inside (Rapfi's and
    /// Stockfish's way). A narrow window lets the principal variation's nodes cut as well: a late root
    /// move that beats the first one on the null window is re-searched against a bound near the
    /// expected score, not against an infinite one (such re-searches can take most of an iteration's
    /// nodes; docs/search.md, "The root").
    pub fn root(
        &mut self,
        moves: &mut [usize],
        depth: i32,
        pv_out: &mut Vec<usize>,
        prev: Option<i32>,
    ) -> Option<i32> {
        let mut delta = self.params.aspiration_delta;
        let (mut lo, mut hi) = match prev {
            Some(s) if depth >= self.params.aspiration_from && s.abs() < WIN_THRESHOLD => {
                (s - delta, s + delta)
            }
            _ => (-INF, INF),
        };
        // A later move that failed high beat the first one: if time runs out in the re-search, it is
        // still the better move (it heads `moves`), as for a partial iteration: with the score it
        // failed high with, and the score it beat.
        let mut pending: Option<(i32, i32)> = None;
        loop {
            let score = self.root_window(moves, depth, pv_out, lo, hi);
            let s = match score {
                Some(s) if !self.aborted => s,
                _ => {
                    return score.or(match (pending, self.at_root.first_score) {
                        // Its own search in the new window finished below the move it beat, so it is
                        // not the better move at this depth: the last complete depth's move is played
                        // (usually the one it beat; a third move that beat the first in the same
                        // window is not remembered: rarer still). It was taken on its null-window
                        // fail high, which the pruning of null windows makes the less reliable.
                        (Some((_, beaten)), Some(v)) if v <= beaten => None,
                        (Some(_), Some(v)) => Some(v),
                        (Some((v, _)), None) => Some(v),
                        (None, _) => None,
                    });
                }
            };
            if s <= lo && lo > -INF {
                pending = None;
                hi = (lo + hi) / 2;
                lo = (s - delta).max(-INF);
            } else if s >= hi && hi < INF {
                if self.at_root.improved {
                    pending = Some((s, self.at_root.beaten));
                }
                hi = (s + delta).min(INF);
            } else {
                return Some(s);
            }
            // Rapfi's rule holds the width near 24 below scores of 1024 (`aspiration_scale`), and a
            // fail-soft score sits on the bound it failed, so a score rising to a win creeps up about 21 a
            // search. Stockfish's growth by a third finds such wins sooner, yet played no better. Every
            // window is searched to the iteration's depth, not a ply shallower after fail highs (Rapfi's
            // `failHighCnt`; both in docs/search.md, "The root").
            delta = delta * (3 + s.abs() / self.params.aspiration_scale) / 4 + self.params.aspiration_widen;
            if delta > self.params.aspiration_max {
                (lo, hi) = (-INF, INF);
            }
        }
    }

    /// Searches the root moves at `depth` in the window (`lo`, `hi`) and returns the best score (at most
    /// `lo` when every move failed low, at least `hi` when one failed high). Moves are reordered so the
    /// best comes first; a move that only failed low keeps its place.
    pub(super) fn root_window(
        &mut self,
        moves: &mut [usize],
        depth: i32,
        pv_out: &mut Vec<usize>,
        lo: i32,
        hi: i32,
    ) -> Option<i32> {
        self.at_root = RootState { iteration: depth, improved: false, first_score: None, ..self.at_root };
        let mut alpha = lo;
        let beta = hi;
        let mut best = -INF;
        let me = self.pos.side();
        let quiet = self.pos.count(me.opp(), Class::Flex4) == 0;
        let prior = self.profile.prior_ordered;
        for n in 0..moves.len() {
            let m = moves[n];
            // Late quiet root moves are reduced like those inside the tree (re-searched if they rise),
            // but keep a ply of search below them. Not closed fours, though the tree reduces them: at the
            // root that played worse (docs/search.md, "The root").
            let reduce = if quiet
                && depth >= self.params.root_lmr_depth
                && n >= self.params.root_lmr_from
                && self.pos.class(m, me) < Class::F3
            {
                let r = if prior {
                    self.params.reduction(depth, n)
                } else {
                    self.params.gentle_reduction(depth, n)
                };
                r.min(depth - 2)
            } else {
                0
            };
            // A root move's score is its search's, whatever kind of move it is: a nudge either way to
            // its choice of fours (closed fours rated 40 lower or 30 higher) cost much (docs/strength.md,
            // Ideas tried).
            self.stack[0].was_four = self.pos.class(m, me).is_four();
            if let Some(tell) = self.watch {
                tell(&Progress::Searching { depth, mv: self.pos.pos_of(m) });
            }
            self.pos.play(m);
            let v = if n == 0 {
                -self.search(-beta, -alpha, depth - 1, 1, false)
            } else {
                let mut v = -self.search(-alpha - 1, -alpha, depth - 1 - reduce, 1, true);
                if v > alpha && reduce > 0 {
                    v = -self.search(-alpha - 1, -alpha, depth - 1, 1, true);
                }
                // A null-window fail high at the aspiration bound is taken as it is (the window widens
                // and the iteration searches again): a full-window re-search as well did no better
                // (docs/strength.md, Ideas tried).
                if v > alpha && v < beta {
                    v = -self.search(-beta, -alpha, depth - 1, 1, false);
                }
                v
            };
            self.pos.undo();
            if self.aborted {
                // Stopped midway: what was fully searched still counts when it beat the first move
                // (moves[0] is then the best of them); otherwise the last complete depth decides.
                return (n > 0 && best > -INF && self.at_root.improved).then_some(best);
            }
            // (`best` never exceeds `alpha`, so a move that beats alpha is the new best. Below the
            // window a score is only a bound: such a move keeps its place.)
            if n == 0 {
                self.at_root.first_score = Some(v);
            }
            if let Some(tell) = self.watch {
                let (lost, best) = (v <= -WIN_THRESHOLD, n == 0 || v > alpha);
                tell(&Progress::Searched { depth, mv: self.pos.pos_of(m), lost, best });
            }
            if n == 0 || v > alpha {
                if n > 0 {
                    self.at_root.beaten = alpha;
                }
                best = v;
                moves[..=n].rotate_right(1);
                self.at_root.improved = n > 0;
                alpha = alpha.max(v);
                if v >= beta {
                    break;
                }
            } else {
                best = best.max(v);
            }
        }
        let bound = if best >= hi {
            Bound::Lower
        } else if best <= lo {
            Bound::Upper
        } else {
            Bound::Exact
        };
        self.tt.store(self.pos.hash(), Some(moves[0]), best, depth, bound);
        pv_out.clear();
        self.collect_pv(moves[0], pv_out);
        Some(best)
    }

    /// The principal variation from the table, starting with `first`. A five and the block of the
    /// opponent's only five are followed without the table: the search plays them before it stores
    /// anything, so the table's line alone would end at the first four.
    pub(super) fn collect_pv(&mut self, first: usize, pv: &mut Vec<usize>) {
        let mut played = 0;
        let mut m = Some(first);
        while let Some(i) = m {
            if !self.pos.is_empty(i) || played >= self.params.pv_max {
                break;
            }
            pv.push(i);
            self.pos.play(i);
            played += 1;
            let me = self.pos.side();
            if !self.profile.captures {
                // A five of the side to move ends the line; a single five of the other side is blocked.
                if let Some(&win) = five_points(&self.pos, me).first() {
                    pv.push(win);
                    break;
                }
                if self.pos.count(me.opp(), Class::Five) > 0 {
                    m = match five_points(&self.pos, me.opp())[..] {
                        [b] if self.pos.legal_for(b, me) => Some(b),
                        _ => None,
                    };
                    continue;
                }
            }
            m = self.tt.probe(self.pos.hash()).and_then(|e| e.mv);
        }
        for _ in 0..played {
            self.pos.undo();
        }
    }
}
