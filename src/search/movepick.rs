//! Move generation and ordering at a node: the threats decide the moves first (fives, blocks, fours,
//! answers to an open three or a four-three point), then the quiet candidates near stones in the
//! order of the table move, the prior and the history, the best few by depth.

use super::*;

impl<'a> Worker<'a> {
    /// The moves to consider at this node, best first (the first `limit` of them), or an immediate
    /// result (scored for a node `ply` plies from the root). `narrowed` is set when only the answers to
    /// the opponent's VCF threat were chosen; that threat is looked for at the root only (see `search`).
    pub(super) fn generate(
        &mut self,
        ply: usize,
        tt_move: Option<usize>,
        narrowed: &mut bool,
        limit: usize,
    ) -> Result<Vec<usize>, i32> {
        let pos = &self.pos;
        let me = pos.side();
        let opp = me.opp();
        let moves: Vec<(i32, usize)>;
        let pente = self.profile.captures;
        if pente && pos.count(opp, Class::Five) > 0 {
            // Pente: a five point is met by blocking it or by capturing a stone out of the line.
            let mut set: Vec<usize> = five_points(pos, opp);
            set.truncate(1);
            for (i, _) in pos.capture_moves(me) {
                if !set.contains(&i) {
                    set.push(i);
                }
            }
            moves = set.into_iter().map(|i| (self.score_move(i, tt_move), i)).collect();
        } else if pos.count(opp, Class::Flex4) > 0 && pos.count(me, Class::Flex4) == 0 {
            // The opponent threatens an open four: defend, or counter with a four.
            let mut set = defences(&mut self.pos, me);
            if pente {
                // Captures break threes too.
                for (i, _) in self.pos.capture_moves(me) {
                    if !set.contains(&i) {
                        set.push(i);
                    }
                }
            }
            if set.is_empty() {
                // Nothing stops the open four: lost in four plies, counted from the search's root. (From
                // the game's first stone, a loss in 4 late in a game would read as a distant one, and the
                // search would take it for the more stubborn defence.)
                return Err(-(WIN - ply as i32 - 4));
            }
            moves = set.into_iter().map(|i| (self.score_move(i, tt_move), i)).collect();
        } else if let Some(set) =
            (ply > 0 && pos.count(opp, Class::B4F3) > 0).then(|| four_three_defences(&self.pos, me)).flatten()
        {
            // The opponent has a four-three point: only its answers (see `four_three_defences`; Rapfi's
            // move picker), every one of them, however many the prior would take here: any other move
            // loses in five plies, and each such move's refutation was a subtree searched. Level against
            // Rapfi, and kept because long wins (21 to 33 plies) are found about twice as fast
            // (docs/search.md, "Move generation and ordering").
            let moves = set.into_iter().map(|i| (self.score_move(i, tt_move), i)).collect();
            return Ok(self.best_first(moves, usize::MAX));
        } else if let Some(line) = if pente || ply > 0 { None } else { self.opponent_vcf() } {
            // The opponent would win by fours if it moved again: play a four of ours, a point of its line,
            // a three of ours (a counter-threat: the blocks of the opponent's fours may then make
            // fours of ours, which breaks the line; missing these threw away won games), or one of the
            // prior's best quiet moves (see `Params::threat_quiet_moves`).
            let mut set = four_moves(&self.pos, me);
            // (Renju black's fouls are left out before the best two are taken: the prior ranks double
            // threes high, and fouls taken out after left black fewer answers, or none.)
            let quiet = if self.pos.restricted(me) {
                self.best_first(self.near_moves(tt_move), self.params.threat_quiet_moves)
            } else {
                self.top_near_moves(tt_move, self.params.threat_quiet_moves)
            };
            for i in line.into_iter().chain(three_moves(&self.pos, me)).chain(quiet) {
                if self.pos.is_empty(i) && !set.contains(&i) {
                    set.push(i);
                }
            }
            moves = set.into_iter().map(|i| (self.score_move(i, tt_move), i)).collect();
            *narrowed = true;
        } else {
            if limit <= TOP_MOVES && !self.pos.restricted(me) {
                let top = self.top_near_moves(tt_move, limit);
                if !top.is_empty() {
                    return Ok(top);
                }
            }
            moves = self.near_moves(tt_move);
        }
        Ok(self.best_first(moves, limit))
    }

    /// The best `limit` (at most `TOP_MOVES`) moves near stones, best first: what `best_first` makes of
    /// `near_moves`, in the same order, kept in a small sorted array while scanning instead of
    /// collecting and sorting every candidate (most nodes want only the first few). Empty when no
    /// cell is near a stone.
    pub(super) fn top_near_moves(&self, tt_move: Option<usize>, limit: usize) -> Vec<usize> {
        debug_assert!(limit <= TOP_MOVES);
        if limit == 0 {
            return vec![];
        }
        let pos = &self.pos;
        let mut top = [(0i32, 0usize); TOP_MOVES];
        let mut n = 0;
        for i in pos.indices() {
            if !pos.is_empty(i) || !pos.is_near(i) {
                continue;
            }
            let v = self.score_move(i, tt_move);
            // Better: a higher score, or an equal one on a lower index (`best_first`'s order).
            let better = |a: (i32, usize)| v > a.0 || (v == a.0 && i < a.1);
            if n == limit && !better(top[n - 1]) {
                continue;
            }
            let mut k = if n == limit { n - 1 } else { n };
            while k > 0 && better(top[k - 1]) {
                top[k] = top[k - 1];
                k -= 1;
            }
            top[k] = (v, i);
            n = (n + 1).min(limit);
        }
        top[..n].iter().map(|&(_, i)| i).collect()
    }

    /// Every empty cell near a stone with its ordering score (the centre on an empty board).
    pub(super) fn near_moves(&self, tt_move: Option<usize>) -> Vec<(i32, usize)> {
        let pos = &self.pos;
        let moves: Vec<(i32, usize)> = pos
            .indices()
            .filter(|&i| pos.is_empty(i) && pos.is_near(i))
            .map(|i| (self.score_move(i, tt_move), i))
            .collect();
        if !moves.is_empty() {
            return moves;
        }
        let c = pos.index(Pos::new(pos.width / 2, pos.height / 2));
        if pos.is_empty(c) {
            return vec![(0, c)];
        }
        pos.indices().filter(|&i| pos.is_empty(i)).map(|i| (0, i)).collect()
    }

    /// Appends the best `limit` moves near stones that are not in `moves` (nor `skip`), best first: the
    /// rest of the candidates when every move searched so far lost.
    pub(super) fn add_other_moves(
        &self,
        moves: &mut Vec<usize>,
        tt_move: Option<usize>,
        skip: Option<usize>,
        limit: usize,
    ) {
        let rest: Vec<usize> = self
            .best_first(self.near_moves(tt_move), usize::MAX)
            .into_iter()
            .filter(|&i| !moves.contains(&i) && Some(i) != skip)
            .take(limit)
            .collect();
        moves.extend(rest);
    }

    /// The first `limit` moves sorted best first, without renju black's fouls.
    pub(super) fn best_first(&self, mut moves: Vec<(i32, usize)>, limit: usize) -> Vec<usize> {
        let me = self.pos.side();
        let restricted = self.pos.restricted(me);
        let order = |a: &(i32, usize), b: &(i32, usize)| b.0.cmp(&a.0).then(a.1.cmp(&b.1));
        // Only the first `limit` are wanted: pick them, then sort just those (most nodes cut off on
        // the first move; a full sort of 40-60 candidates cost more). Renju black's fouls are taken
        // out after sorting, so there every move is sorted.
        if limit < moves.len() && !restricted {
            moves.select_nth_unstable_by(limit, order);
            moves.truncate(limit);
        }
        moves.sort_by(order);
        moves
            .into_iter()
            .map(|(_, i)| i)
            .filter(|&i| !restricted || self.pos.legal_for(i, me))
            .take(limit)
            .collect()
    }

    /// The opponent's VCF if it could move now (a null move), as the cells of its line. Asked once a
    /// move, at the root (see `search`), so it keeps no memo (one would cost each worker a 1 MB
    /// allocation a move).
    pub(super) fn opponent_vcf(&mut self) -> Option<Vec<usize>> {
        let opp = self.pos.side().opp();
        if self.pos.count(opp, Class::B4) + self.pos.count(opp, Class::B4F3) == 0 {
            return None;
        }
        self.pos.pass();
        let mut walk = Solver::with_nodes(self.params.threat_vcf_nodes);
        let mut line = vec![];
        let found = walk.vcf_walk(&mut self.pos, self.params.threat_vcf_fours, VcfMode::CHECK, &mut line);
        self.nodes += walk.nodes;
        self.pos.pass();
        found.then_some(line)
    }

    /// The ordering score of candidate `i`: the table's move first, then the prior (in hundredths of a
    /// logit) plus the history / `history_divisor`. The history, unbounded within a move and learned at
    /// every node (the answers to an open three too), matters more than it looks beside the fitted
    /// prior; counter move, continuation history and killer move did not pay (docs/search.md, "History").
    #[inline]
    pub(super) fn score_move(&self, i: usize, tt_move: Option<usize>) -> i32 {
        if Some(i) == tt_move {
            return i32::MAX;
        }
        let me = self.pos.side();
        let p = &self.params;
        let mut v = self.history[i][me.index()] / p.history_divisor;
        if self.profile.prior_ordered {
            v += self.pos.prior(i);
        } else {
            // Pente: the weight matrix, whose terms know of captures.
            v += self.pos.weight(i, me) + self.pos.weight(i, me.opp()) * p.pente_block_percent / 100;
            // Taking stones, and standing where the opponent would take ours.
            v += p.pente_take * self.pos.captures_at(i, me) as i32
                + p.pente_guard * self.pos.captures_at(i, me.opp()) as i32;
        }
        v
    }
}
