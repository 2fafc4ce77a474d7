//! The node search: PVS with the table, razoring, reverse futility, the fail-high reduction, late-move
//! reductions and their extensions, and the history it learns from every cut.

use super::*;

impl<'a> Worker<'a> {
    /// Alpha-beta with principal variation search. Returns the score from the side to move's view.
    /// `cut_node`: off the principal variation, the parent expects this node to fail high (its
    /// reduced and null-window children are expected cut nodes, the first child of one is not; the
    /// types alternate as in Stockfish and Rapfi).
    pub fn search(&mut self, mut alpha: i32, beta: i32, depth: i32, ply: usize, cut_node: bool) -> i32 {
        self.nodes += 1;
        if self.nodes.is_multiple_of(CHECK_EVERY) {
            self.check_abort();
        }
        if self.aborted {
            return 0;
        }
        let me = self.pos.side();
        let opp = me.opp();
        let p = ply as i32;
        // Step 1. Threats decide first.
        if self.pos.count(me, Class::Five) > 0 {
            return WIN - p - 1;
        }
        let pente = self.pos.capture_rule().is_some();
        if pente && self.capture_win(me) {
            return WIN - p - 1;
        }
        let opp_fives = if pente { 0 } else { self.pos.count(opp, Class::Five) };
        if opp_fives > 0 && stops_off_the_point(&self.pos) {
            return self.stop_fives(alpha, beta, depth, ply, cut_node);
        }
        if opp_fives >= 2 {
            return -(WIN - p - 2);
        }
        if opp_fives == 1 {
            let Some(b) = block_point(&self.pos, opp) else { return 0 };
            if !self.pos.legal_for(b, me) {
                return -(WIN - p - 2);
            }
            if ply >= MAX_PLY {
                return evaluate(&self.pos);
            }
            // A forced move costs no depth. Rapfi extends this block further (1.3 plies): five tenths
            // of a ply more, carried along the line, found more of the long wins Rapfi finds and we
            // miss, yet scored 38.3% of 320 games against Rapfi at 300 ms, the search without it about
            // 40% (Strength, "Twenty-ninth session"; three tenths scored lower in the tenth, at 100 ms).
            // With the depth in sixteenths of a ply, where a fraction left at the horizon buys a whole
            // ply as in Rapfi, three tenths more scored 32.3% of 320 (Strength, "Thirty-fourth session").
            // A whole ply more only on the principal variation (an open window, up to twice the
            // iteration's depth from the root; 34% more `bench 10` nodes), where it costs least and
            // the line played is looked at deepest: 39.4% of 320 (Strength, "Thirty-seventh session").
            self.was_four[ply] = self.pos.class(b, me).is_four();
            self.ext[ply + 1] = self.ext[ply];
            self.tt.prefetch(self.pos.hash_after(b));
            self.pos.play(b);
            let v = -self.search(-beta, -alpha, depth, ply + 1, beta - alpha == 1 && !cut_node);
            self.pos.undo();
            return v;
        }
        // (In Pente only when the opponent cannot capture: a capture may break the four.)
        if self.pos.count(me, Class::Flex4) > 0
            && (!pente || (self.pos.count(opp, Class::Five) == 0 && self.pos.capture_moves(opp).is_empty()))
        {
            return WIN - p - 3;
        }
        if !pente && self.threes_win() {
            return WIN - p - 5;
        }
        if self.pos.board().is_full() {
            return 0;
        }
        // No mate-distance pruning (Rapfi's and Stockfish's): here, after the threat checks, it cut
        // nothing (`bench` 42465 and `bench 10` 247535 nodes either way; Strength, "Thirty-sixth session").
        // An open three of the opponent's at the horizon is not quiet: its defences are searched (a ply or
        // two beyond the nominal depth) instead of trusting the static evaluation. Rapfi does without it (its
        // leaves go to the quiescence whatever the opponent threatens), and so did a throwaway build in
        // freestyle: 125-195 of 320 against Rapfi at 300 ms (39.1%; `bench` 40524, `bench 10` 258955), the
        // search with it 40.3% over 5760: the same, so it stays (the evaluation's threat term was never
        // fitted on positions that face an open three; Strength, "Forty-first session"). Not under renju,
        // where it cost games against Carbon (109-51 without it, 90-70 with it, 160 games each; black's
        // threes whose four points are fouls may make the extra plies a waste). With the present search it
        // did no harm there either: 141-179 of 320 renju games against Rapfi at 300 ms (44.1%, the search
        // without it 43.2% over 1600), too close to change the rule's search (Strength, "Thirty-first
        // session"); played again, 130.5-189.5 (40.8%, one of them a fault of Rapfi's), 42.4% over the 640
        // (Strength, "Thirty-eighth session"). Nor a four-three point of the opponent's (a four that makes an
        // open three with it: a win in five plies unless answered): the leaf searched a ply more there, its
        // moves narrowed to the answers to the opponent's VCF as two plies up (8% more `bench 10` nodes),
        // scored 42.0% and 40.5% of 320 freestyle games against Rapfi at 300 ms, with its double-three points
        // as well (13% more) 40.2%, the search as it is about 41% (Strength, "Thirty-seventh session").
        let threatened = !pente
            && depth > -2
            && self.pos.count(opp, Class::Flex4) > 0
            && self.pos.patterns().rules.variant != Variant::Renju;
        if (depth <= 0 && !threatened) || ply >= MAX_PLY {
            // Quiescence (see `quiesce`): the evaluation, or a line of our fours that beats it.
            if ply >= MAX_PLY || pente {
                return evaluate(&self.pos);
            }
            let mut budget = LEAF_VCF_NODES;
            return self.quiesce(alpha, beta, ply, None, LEAF_VCF_FOURS, &mut budget);
        }
        // Step 2. The table. A cut here teaches the history nothing: Rapfi's and Stockfish's bonus for a
        // quiet table move whose bound cuts (and malus for one that fails low; `bench 10` 276705)
        // scored 129.5-190.5 of 320 freestyle games against Rapfi at 300 ms (40.5%), and with the
        // history learned at the nodes that answer an open three as well 83-132 of 215 (38.6%), the
        // search as it is 40.3% over 5760 (Strength, "Forty-second session").
        // The table cuts on the principal variation too (open windows): Rapfi and Stockfish cut only
        // off it, so that the line played is searched rather than read back, but that scored 143.5-176.5
        // of 320 (44.8%; `bench` 31994), the search as it is 45.2% over 640 (Strength, "Forty-sixth
        // session").
        let key = self.pos.hash();
        let entry = self.tt.probe(key);
        let tt_move = entry.and_then(|e| e.mv).filter(|&m| m < self.history.len());
        if let Some(e) = entry
            && e.depth >= depth
            && ply > 0
        {
            let score = from_tt(e.score, p);
            match e.bound {
                Bound::Exact => return score,
                Bound::Lower if score >= beta => return score,
                Bound::Upper if score <= alpha => return score,
                _ => {}
            }
        }
        // Step 3. Moves. At a calm node (no threat of the opponent's narrows the moves) the table's
        // move goes first before any are generated: when it cuts off, generating was wasted work.
        let quiet = self.pos.count(opp, Class::Flex4) == 0;
        let calm = quiet && !pente && self.pos.count(opp, Class::B4) + self.pos.count(opp, Class::B4F3) == 0;
        // Razoring (see `RAZOR_MARGIN`). Only without fours of ours: with one, the leaf's VCF might
        // find a win the evaluation cannot see. The opponent's closed threes are no reason to search:
        // the evaluation counts them, and its VCF threat is not looked for inside the tree.
        // (The evaluation is wanted only off the principal variation at quiet nodes: here and for the
        // fail-high reduction below.)
        let eval = (quiet && !pente && beta - alpha == 1).then(|| {
            // A table score that bounds the value from the right side is a better guess than the
            // static evaluation (Rapfi's and Stockfish's use of it): the razor, the reverse futility
            // and the fail-high reduction then judge by what a search found. Self-play, 100 ms, 400
            // games, on top of the quiescence over fours: 209-191 (+16 +- 33 Elo). Stockfish's
            // correction history on top (the evaluation moved by what earlier searches found below
            // nodes of the same threat mask or the same stones of one colour) scored 37.3% of 320
            // games against Rapfi at 300 ms, against about 41% (Strength, "Twenty-eighth session").
            let e = evaluate(&self.pos);
            match entry.map(|t| (from_tt(t.score, p), t.bound)) {
                Some((s, bound)) if s.abs() < WIN_THRESHOLD => match bound {
                    Bound::Exact => s,
                    Bound::Lower if s > e => s,
                    Bound::Upper if s < e => s,
                    _ => e,
                },
                _ => e,
            }
        });
        if let Some(eval) = eval
            && (1..=3).contains(&depth)
            && self.pos.count(me, Class::B4) + self.pos.count(me, Class::B4F3) == 0
            && eval + RAZOR_MARGIN * depth <= alpha
        {
            return eval;
        }
        // Reverse futility (see `FUTILITY_PER_PLY`), unless our last two moves were fours: an attack of
        // fours under way is judged by where it leads, not by the evaluation on the way (Rapfi's
        // exception too).
        if let Some(eval) = eval
            && eval < WIN_THRESHOLD
            && beta > -WIN_THRESHOLD
            && eval - FUTILITY_PER_PLY * (depth - 1) >= beta
            && !(ply >= 4 && self.was_four[ply - 2] && self.was_four[ply - 4])
        {
            return eval;
        }
        // Fail-high reduction, Rapfi's margins: off the principal variation, a node whose evaluation lies
        // well above beta will most likely cut, so its moves other than fours are searched a ply
        // shallower (a cut needs only one good move, and the shallower look usually finds it). The
        // opponent's fours raise the margin: their blocks may cost us the tempo the evaluation counts.
        // Self-play, 100 ms, 400 games each: 215-185 and 207.5-192.5 in freestyle (+20 +- 24 Elo over
        // 800), 206.5-193.5 in renju; 39% fewer `bench 10` nodes. An earlier form (calm nodes only,
        // threes exempt too, 15 a ply) measured +12 +- 24 before closed fours were reduced. Against Rapfi
        // at 300 ms without it (11% more `bench` nodes): 36.4% of 320 freestyle games, the search with it
        // 40.3% over 5440 (Strength, "Thirty-ninth session").
        // (At a quiet node outside Pente, `calm` says the opponent has no four.) No ProbCut beside it:
        // the table's move and the prior's best searched three plies shallower against beta + 100
        // from five plies up scored 39.7% of 320 games against Rapfi at 300 ms, the same as without
        // (it cut 618 of the 251427 `bench 10` nodes; Strength, "Twenty-eighth session"). Fours are not
        // made shallower here, but not deeper either: Rapfi's ply more at such a node for a four whose
        // move two plies up was a four too scored 39.2% of 320 (21% more `bench 10` nodes; Strength,
        // "Thirty-third session").
        let likely_high = eval.is_some_and(|e| {
            e >= beta + FAIL_HIGH_BASE + FAIL_HIGH_PER_PLY * depth + FAIL_HIGH_FOURS * i32::from(!calm)
        });
        let staged = tt_move.filter(|&m| {
            calm && self.pos.is_empty(m)
                && self.pos.is_near(m)
                && (!self.pos.restricted(me) || self.pos.legal_for(m, me))
        });
        // Where an earlier search found a threat best, a quiet move is less likely to matter: late quiet
        // moves take a ply more of reduction (Stockfish's `ttCapture`; the scores are at `child`).
        self.tt_threat[ply] =
            tt_move.is_some_and(|m| self.pos.is_empty(m) && self.pos.class(m, me).is_open_threat());
        let orig_alpha = alpha;
        let mut best = -INF;
        let mut best_move = None;
        let mut cut = false;
        // No singular extension for the table's move: Rapfi's, as its code has it, scored 41.4% of 320
        // games against Rapfi at 300 ms (the search without it about 41%) for 53% more `bench 10` nodes
        // (Strength, "Twenty-seventh session"; the eleventh session's form scored lower still). Nor
        // Rapfi's small extension of it (a quarter of a ply on the principal variation, 0.08 off it,
        // 0.24 more for a four within 4 of our previous move), carried along the line until it makes a
        // ply: 39.7% of 320, 63% more `bench 10` nodes (Strength, "Thirty-third session").
        if let Some(m) = staged {
            let v = self.child(m, 0, alpha, beta, depth, ply, quiet, false, likely_high, cut_node);
            if self.aborted {
                return 0;
            }
            best = v;
            best_move = Some(m);
            if v > alpha {
                alpha = v;
                cut = v >= beta;
            }
        }
        if !cut {
            let mut rechecked = false;
            let limit = match (quiet, self.prior_ordered()) {
                (false, _) => usize::MAX,
                (true, true) => quiet_moves(depth),
                (true, false) => MAX_QUIET_MOVES,
            };
            // Inside the tree the opponent's VCF threat (its VCF if it could move again, answered by our
            // fours, threes, the cells of its line and two quiet moves) is not looked for; the root still is
            // (`run`). The check came in on self-play (100 ms, 400 games: +46 Elo for 12 nodes instead of 64,
            // +41 for leaving it out just above the leaves), and played Rapfi worse: at 300 ms in freestyle,
            // without it 42.0% and 41.9% of 320 games (Strength, "Thirty-ninth session" and "Fortieth
            // session"), and with the history then learned at every node (see `score_move`) 44.8%, 44.7% and
            // 42.0% (Strength, "Forty-fourth session"), where the search with it scored 40.3% over 5760 and
            // 39.7% in that session's control; 29% fewer `bench` nodes. The leaf's own small VCF (the
            // opponent moves there) still catches the short threats. Looked for with two more answers to an
            // open three near the horizon it scored 36.6%, from three plies up 39.1% (Strength, "Thirty-first
            // session").
            let mut moves = match self.generate(ply, tt_move, &mut false, limit) {
                Ok(m) => m,
                Err(v) => return v,
            };
            if moves.is_empty() {
                // Renju black with every point forbidden: the game is lost.
                return -(WIN - p - 2);
            }
            // The only move costs no depth; the moves a fallback adds when it loses are not forced.
            let forced = moves.len() == 1;
            let first = if let Some(m) = staged {
                // The table's move was searched already (it heads the list).
                moves.retain(|&x| x != m);
                1
            } else {
                0
            };
            // Defending an open three: only the best few answers by the prior at first, the rest held
            // back for when all of those lose (a pruned defence must not make the three a win).
            let mut end = moves.len();
            if !quiet && ply >= 2 && self.prior_ordered() {
                end = end.min(defence_moves(depth));
            }
            let mut k = 0;
            while k < end {
                let m = moves[k];
                let only = forced && k == 0;
                let v = self.child(m, first + k, alpha, beta, depth, ply, quiet, only, likely_high, cut_node);
                if self.aborted {
                    return 0;
                }
                if v > best {
                    best = v;
                    best_move = Some(m);
                    if v > alpha {
                        alpha = v;
                        if v >= beta {
                            cut = true;
                            // The moves tried before the cut failed here: they lose what the cut
                            // move gains, so they sort later at the nodes that follow. (It moved the
                            // bench's nodes by 0.04%, so the malus weighs little beside the bonus,
                            // unlike the history as a whole: see `score_move`; measured only together
                            // with razoring.)
                            let malus = depth * depth;
                            for &f in moves[..k].iter().chain(staged.as_ref()) {
                                let h = &mut self.history[f][me.index()];
                                *h = h.saturating_sub(malus);
                            }
                            break;
                        }
                    }
                }
                k += 1;
                if k == end && best <= -WIN_THRESHOLD {
                    end = moves.len();
                }
                if k == moves.len() && quiet && !rechecked && best <= -WIN_THRESHOLD {
                    // Every one of the best few quiet moves lost: before the node is called lost, our
                    // fours and threes that were left out get their turn first (a counter-attack most
                    // often beats a slow attack), then every other move near the stones (a quiet block
                    // at the end of the opponent's VCT). The prior may rank the saving move below the
                    // limit; missed ones made the search claim wins that Rapfi refuted. It costs
                    // little: 6% of the nodes to depth 12 on 37 positions of lost games; without it
                    // 121-199 of 320 against Rapfi at 300 ms (37.8%, the search with it 40-41%;
                    // Strength, "Twenty-sixth session").
                    // Only a loss widens the node: three more quiet moves from three plies up where the
                    // best few all failed low 100 or more below the static evaluation (a defence the
                    // prior ranked late) scored 116-204 of 320 against Rapfi at 300 ms (36.2%; `bench`
                    // 43266), the search as it is 40.3% over 5760 (Strength, "Forty-first session").
                    rechecked = true;
                    for i in four_moves(&self.pos, me).into_iter().chain(three_moves(&self.pos, me)) {
                        if !moves.contains(&i) && Some(i) != staged {
                            moves.push(i);
                        }
                    }
                    self.add_other_moves(&mut moves, tt_move, staged, usize::MAX);
                    end = moves.len();
                }
            }
        }
        // Only a cut teaches the history. Rapfi credits the best move of a principal-variation node
        // that raised alpha without cutting too (and debits the other moves searched there): 151-169
        // of 320 freestyle games against Rapfi at 300 ms (47.2%; `bench 10` 167284), the search as it
        // is 45.1% over 960 (Strength, "Fifty-fourth session").
        if cut && let Some(m) = best_move {
            let h = &mut self.history[m][me.index()];
            *h = h.saturating_add(depth * depth);
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > orig_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        // A node that failed low stores no move: its best is only the highest of upper bounds, often
        // the first move searched, and it would replace the move a deeper or earlier search found here
        // (the table keeps that one: see `Tt::store`), which calm nodes search before any other. As
        // Rapfi and Stockfish do. Against Rapfi at 300 ms: 289-351 over 640 freestyle games (45.2%),
        // the search that stored the guess 43.9% over 960, the same; renju 315.5-324.5 over 640
        // (49.3%), where it scored 43.4% of 320 (Strength, "Forty-fifth session").
        let best_move = if bound == Bound::Upper { None } else { best_move };
        self.tt.store(key, best_move, to_tt(best, p), depth, bound);
        best
    }

    /// Searches the `n`-th move `m` of a node (PVS: the first with the full window, the rest with a
    /// null window first, late quiet ones reduced). Returns its score from the node's view.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn child(
        &mut self,
        m: usize,
        n: usize,
        alpha: i32,
        beta: i32,
        depth: i32,
        ply: usize,
        quiet: bool,
        forced: bool,
        likely_high: bool,
        cut_node: bool,
    ) -> i32 {
        // Moves that make a three or a stronger threat are never reduced, but a closed four with nothing
        // stronger beside it is: its answer is forced and free, so a late one bought a deeper tree for
        // a threat that mostly only spends itself (such fours' subtrees were a fifth of the quiet
        // nodes' work). Self-play, 100 ms: 211-189 and 229.5-170.5, +35 +- 24 Elo over 800 games;
        // 18% fewer `bench 10` nodes; renju 202.5-197.5. Against Rapfi at 300 ms with late closed fours
        // left unreduced (55% more `bench 10` nodes): 37.0% of 320 freestyle games, the search with the
        // reduction 40.3% over 5760 (Strength, "Fortieth session"). (Not in Pente, where a capture may
        // answer a four and the weight matrix orders the moves: unmeasured there.) Quiet moves that make a
        // closed three or two open twos (four and three material) reduced a ply less scored 42.0% of
        // 320 games against Rapfi at 300 ms, those that take such a point from the opponent 38.9%,
        // both the same as without (Strength, "Twenty-eighth session"). Moves that make an open three
        // reduced like quiet ones (Rapfi reduces them, half a ply less after a threat of its own) found
        // 14 of 66 long wins at 300 ms instead of 6, yet scored 36.9% of 320 games against Rapfi, the
        // search as it is about 40%; left unreduced when our move two plies up made an open three, a
        // four-three or an open four, 41.7%, and 40.8% when played again, 41.3% over 640: the same
        // (Strength, "Thirty-second session" and "Thirty-third session").
        let class = self.pos.class(m, self.pos.side());
        let threat = class.is_open_threat() || (class == Class::B4 && !self.prior_ordered());
        let shallower = likely_high && !class.is_four();
        self.was_four[ply] = class.is_four();
        self.tt.prefetch(self.pos.hash_after(m));
        self.pos.play(m);
        // A forced move costs no depth.
        let new_depth = if forced { depth } else { depth - 1 - i32::from(shallower) };
        self.ext[ply + 1] = self.ext[ply];
        let v = if n == 0 {
            -self.search(-beta, -alpha, new_depth, ply + 1, beta - alpha == 1 && !cut_node)
        } else {
            // Late quiet moves are searched shallower first, from the third on in the prior's order
            // (209.5-190.5 and 213-187 in self-play at 100 ms against from the fourth on), from the
            // fourth in the weight matrix's. Not the answers to an open three: the late ones reduced
            // the same way (fours and threes excepted, as Rapfi reduces its late defences) scored
            // 38.6% of 320 games against Rapfi at 300 ms (Strength, "Thirty-second session"). Nor a
            // ply less for a late quiet move that continues our attack (Rapfi's continuous-attack rule:
            // our move two plies up made a three or a four, this one lies within 4 of it and makes two
            // open twos or closed threes): 35.2% of 320 (Strength, "Thirty-third session").
            let prior = self.prior_ordered();
            let from = if prior { 2 } else { 3 };
            let reduce = if !(quiet && !threat && depth >= 2 && n >= from) {
                0
            } else if prior {
                // A null window (beta = alpha + 1) means this node is off the principal variation, where a
                // wrong cut costs least: one ply more, but from three plies up the reduced look keeps one ply
                // of search below the move (two plies from the horizon the move goes to the quiescence: left
                // unreduced there, 131-189 of 320 against Rapfi at 300 ms, 40.9%, the search as it is 43.9%
                // over 960; Strength, "Forty-fifth session"). Self-play, 100 ms, 400 games, with the steeper
                // `reduction`: 227-173 (+47 +- 34 Elo) against the old curve and no extra ply. Without the
                // extra ply alone (17% more `bench 10` nodes), against Rapfi at 300 ms: 134.5-185.5 and
                // 131-189 of 320, 41.5% over 640, the search with it 40.3% over 5760: the same (Strength,
                // "Forty-first session"). Nor is the extra ply spared at a null-window node that was once
                // on the principal variation (Rapfi's `ttPv`, a flag kept in the table): 143.5-176.5 of
                // 320 (44.8%; `bench 10` 185879), the search as it is 45.2% over 640 (Strength,
                // "Forty-sixth session"). Nor Stockfish's ply more where the children of this node and of
                // its earlier siblings cut off more than three times (its `cutoffCnt`; `bench 10` 169764):
                // 149.5-170.5 and 140.5-179.5 of 320, 45.3% over 640, the same (Strength, "Forty-seventh
                // session"). Taken: its ply more where the table's move is a threat (its `ttCapture`; here a
                // move that makes an open three or more, `tt_threat`): where an earlier search found a threat
                // best, a quiet move is less likely to matter (`bench 10` 174032 nodes, 158405 without).
                // Against Rapfi at 300 ms, 320 games each: freestyle 153.5-166.5, 149-171 and 147-173
                // (46.8% over 960), the search without it 45.4% over 1280 (640 of them on the day of the
                // last two runs); exact five 159-161 (49.7%; 46.2% over 320 without), renju 155.5-164.5 of
                // 320 and 89-71 of 160 (50.9% over 480; 49.3% over 640 without). Inside the noise in each
                // rule, above the search without it in each. With the `cutoffCnt` ply as well: 141-179 of
                // 320 (44.1%; Strength, "Forty-seventh session" and "Forty-eighth session").
                (reduction(depth, n)
                    + i32::from(beta - alpha == 1)
                    + CUT_EXTRA * i32::from(cut_node)
                    + i32::from(self.tt_threat[ply]))
                .min(new_depth - 1)
                .max(1)
            } else {
                gentle_reduction(depth, n)
            };
            let mut v =
                -self.search(-alpha - 1, -alpha, new_depth - reduce, ply + 1, reduce > 0 || !cut_node);
            if v > alpha && reduce > 0 {
                // A reduced move that beat alpha by a wide margin is re-searched a ply deeper than its
                // nominal depth (Rapfi's LMR extension, its margins; at most `MAX_LMR_EXTENSIONS` on a
                // line): a move that the reduced look already likes that much is probably the best one
                // here, and the nominal depth would then be the shallowest look it gets. Self-play, 100
                // ms: 211.5-188.5 and 208.5-191.5, +17 +- 24 Elo over 800 games. Against Rapfi at 300
                // ms without it: 39.2% of 320 freestyle games, the search with it 40.3% over 5440, the
                // same (Strength, "Thirty-ninth session"). The full-window re-search below goes back to
                // the nominal depth; kept at the extended one: 140-180 of 320 (43.8%), the search as it
                // is 43.9% over 960, the same (Strength, "Forty-fifth session").
                let deeper = v > alpha + LMR_DEEPER_BASE + LMR_DEEPER_PER_PLY * reduce
                    && self.ext[ply] < MAX_LMR_EXTENSIONS;
                self.ext[ply + 1] = self.ext[ply] + u8::from(deeper);
                v = -self.search(-alpha - 1, -alpha, new_depth + i32::from(deeper), ply + 1, !cut_node);
            }
            if v > alpha && v < beta {
                v = -self.search(-beta, -alpha, new_depth, ply + 1, false);
            }
            v
        };
        self.pos.undo();
        v
    }

    /// Caro: the opponent has five points and each of our stops (see `threat::five_stops`) is searched
    /// as a forced move, at no cost in depth; none at all loses.
    pub(super) fn stop_fives(
        &mut self,
        mut alpha: i32,
        beta: i32,
        depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> i32 {
        let p = ply as i32;
        let stops = five_stops(&self.pos);
        if stops.is_empty() {
            return -(WIN - p - 2);
        }
        if ply >= MAX_PLY {
            return evaluate(&self.pos);
        }
        let me = self.pos.side();
        let mut best = -INF;
        for (n, &b) in stops.iter().enumerate() {
            self.was_four[ply] = self.pos.class(b, me).is_four();
            self.ext[ply + 1] = self.ext[ply];
            self.pos.play(b);
            let v = if n == 0 {
                -self.search(-beta, -alpha, depth, ply + 1, beta - alpha == 1 && !cut_node)
            } else {
                let v = -self.search(-alpha - 1, -alpha, depth, ply + 1, true);
                if v > alpha && v < beta { -self.search(-beta, -alpha, depth, ply + 1, false) } else { v }
            };
            self.pos.undo();
            if self.aborted {
                return 0;
            }
            best = best.max(v);
            alpha = alpha.max(v);
            if v >= beta {
                break;
            }
        }
        best
    }

    /// Pente: whether `c` can reach the winning capture count with one move.
    pub(super) fn capture_win(&self, c: Color) -> bool {
        let Some(rule) = self.pos.capture_rule() else { return false };
        let need = (rule.to_win as u32).saturating_sub(self.pos.captured(c));
        self.pos.capture_moves(c).iter().any(|&(_, n)| n >= need)
    }

    /// Whether the side to move wins in five plies with a double three or a four with a three: the
    /// opponent has no four to interpose, and the four's block (or any block of one three) leaves the
    /// other three to become an open four. Not for renju black: a three's open-four point may be a foul
    /// the shapes cannot see. (Not for Pente either, where a capture may break a three: callers check.)
    /// A four with a three wins even against the opponent's fours when the four's block makes none
    /// (`four_three_wins`, Rapfi's static check): in crowded positions, where both sides have fours
    /// to play, the search used to play such wins out. On 84 middle-game positions of games against
    /// Rapfi searched to 50,000 nodes the search went 0.36 plies deeper on average (9.93 to 10.29).
    pub(super) fn threes_win(&self) -> bool {
        let me = self.pos.side();
        let quiet_opponent = || {
            [Class::B4, Class::B4F3, Class::Flex4, Class::MaybeForbidden]
                .iter()
                .all(|&k| self.pos.count(me.opp(), k) == 0)
        };
        !self.pos.restricted(me)
            && self.pos.count(me, Class::F3x2) + self.pos.count(me, Class::B4F3) > 0
            && (quiet_opponent() || four_three_wins(&self.pos, me))
    }
}
