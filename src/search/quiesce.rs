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
    /// It replaced a VCF that only looked for a win and otherwise returned the evaluation: self-play,
    /// 100 ms, 400 games, 207.5-192.5 (+13 +- 33 Elo); against Rapfi 183-297 of 480 (38.1%, against
    /// 37.1% over 960 before). With the table's bound on the evaluation (see `search`) the two scored
    /// +55 +- 33 in self-play and 42.4% against Rapfi. Plain fours near our own last move at the leaf
    /// as well (Rapfi's first quiescence plies allow them) lost: 185-215 (-26 +- 33), and against Rapfi
    /// at 300 ms 60-108 of 168 freestyle games (35.7%; 21% fewer `bench 10` nodes); the other way, only
    /// fours that make an open three, at every ply of it, 65-109 of 174 (37.4%; 27% fewer), the
    /// quiescence as it is 40.3% over 5760 (Strength, "Forty-second session"; its node budget almost
    /// never runs out: 48 nodes instead of 16 changed 6 of 247535 `bench 10` nodes). Rapfi's delta
    /// pruning, the evaluation returned without a four tried where it lies more than 1000 below alpha
    /// (Rapfi's margin on our scale; 4% fewer `bench 10` nodes), scored 39.2% of 320 games against
    /// Rapfi at 300 ms, the quiescence as it is about 40.4% (Strength, "Thirty-first session").
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
        let eval = evaluate(&self.pos);
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
