//! The quiescence at the horizon: the side to move's fours (a small VCF on a node budget) decide
//! whether the evaluation stands.

use super::*;

impl Walker for Worker<'_> {
    fn pos(&mut self) -> &mut Position {
        &mut self.pos
    }
}

impl<'a> Worker<'a> {
    /// Quiescence over fours (Rapfi's, after Stockfish's captures): the side to move may stand on its
    /// evaluation or play a four of the narrow VCF's (`threat::vcf_candidates`), whose block is forced,
    /// and go on from there. A four that wins shows as a win; one whose block leaves a better
    /// position shows in the value. `last` is our previous four (None at the leaf itself, where
    /// `search` has made the threat checks already).
    ///
    /// It beats a VCF that only looks for a win, most of all with the table's bound on the evaluation
    /// (docs/search.md, "A node", the evaluation used for pruning, and "Quiescence"). Wider (plain fours at
    /// the leaf), narrower (only fours that make an open three) and Rapfi's delta pruning all played worse
    /// (docs/strength.md, Ideas tried).
    pub(super) fn quiesce(
        &mut self,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        last: Option<usize>,
        fours_left: u32,
        budget: &mut u32,
    ) -> i32 {
        let me = self.pos.side();
        let opp = me.opp();
        let p = ply as i32;
        if last.is_some() {
            // The opponent has just blocked our four and has no five point (see below).
            if self.pos.count(me, Class::Five) > 0 {
                return WIN - p - 1;
            }
            if self.pos.count(me, Class::Flex4) > 0 {
                return WIN - p - 3;
            }
            if self.threes_win() {
                return WIN - p - 5;
            }
        }
        let eval = self.evaluate();
        if eval >= beta
            || fours_left == 0
            || *budget == 0
            || ply + 2 >= MAX_PLY
            || self.pos.count(me, Class::B4) + self.pos.count(me, Class::B4F3) == 0
        {
            return eval;
        }
        let mut cands = [(0u8, 0usize); 8];
        let n = vcf_candidates(&self.pos, last, &mut cands);
        let mut best = eval;
        alpha = alpha.max(eval);
        for &(_, m) in &cands[..n] {
            if *budget == 0 {
                break;
            }
            *budget -= 1;
            self.nodes += 1;
            // (Caro: a four with several stops is left to the search.)
            let v = match play_four(self, m, Stops::One, |w, _| {
                // A block that makes a four of the opponent's takes the choice from us: such a
                // line is left to the full search.
                (w.pos.count(opp, Class::Five) == 0)
                    .then(|| w.quiesce(alpha, beta, ply + 2, Some(m), fours_left - 1, budget))
            }) {
                Four::Idle => None,
                Four::Wins(_) => Some(WIN - p - 3),
                Four::Answered(v) => v,
            };
            if let Some(v) = v
                && v > best
            {
                best = v;
                if v >= beta {
                    break;
                }
                alpha = alpha.max(v);
            }
        }
        best
    }
}
