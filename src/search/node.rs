//! The node search: PVS with the table, razoring, reverse futility, the fail-high reduction, late-move
//! reductions and their extensions, and the history it learns from every cut.

use super::tt::Entry;
use super::*;
use crate::game::pattern::Shape;

/// A node under search: its window, depth and type, and what the searches of its moves share (the
/// context in which `child` searches each move; the move loop raises `alpha`).
#[derive(Clone, Copy)]
struct Node {
    alpha: i32,
    beta: i32,
    depth: i32,
    ply: usize,
    /// Off the principal variation, the parent expects this node to fail high (see `search`).
    cut_node: bool,
    /// The opponent has no open three: the moves are quiet ones, the late ones reduced.
    quiet: bool,
    /// The fail-high reduction applies: every move but fours is searched a ply shallower.
    likely_high: bool,
}

impl Node {
    /// A null window (beta = alpha + 1): the node is off the principal variation.
    #[inline]
    fn null_window(&self) -> bool {
        self.beta - self.alpha == 1
    }
}

impl<'a> Worker<'a> {
    /// Alpha-beta with principal variation search. Returns the score from the side to move's view.
    /// `cut_node`: off the principal variation, the parent expects this node to fail high (its
    /// reduced and null-window children are expected cut nodes, the first child of one is not; the
    /// types alternate as in Stockfish and Rapfi). In order (docs/search.md, "A node"): the threats
    /// (`threats`), the horizon (`horizon`), the table (`table_cut`), the prunings by the evaluation
    /// (`prune`, `likely_fail_high`), the moves (`search_moves`), the result (`store_result`).
    pub fn search(&mut self, alpha: i32, beta: i32, depth: i32, ply: usize, cut_node: bool) -> i32 {
        self.nodes += 1;
        if time_to_check(self.nodes) {
            self.check_abort();
        }
        if self.aborted {
            return 0;
        }
        let mut node = Node { alpha, beta, depth, ply, cut_node, quiet: false, likely_high: false };
        if let Some(v) = self.threats(&node) {
            return v;
        }
        // No mate-distance pruning: after the threat checks above it cut nothing.
        if let Some(v) = self.horizon(&node) {
            return v;
        }
        let key = self.pos.hash();
        let entry = self.tt.probe(key);
        let tt_move = entry.and_then(|e| e.mv).filter(|&m| m < self.history.len());
        if let Some(v) = table_cut(entry, &node) {
            return v;
        }
        let me = self.pos.side();
        let opp = me.opp();
        let pente = self.profile.captures;
        node.quiet = self.pos.count(opp, Class::Flex4) == 0;
        // At a calm node no threat of the opponent's narrows the moves: no open three, no four to play.
        let calm =
            node.quiet && !pente && self.pos.count(opp, Class::B4) + self.pos.count(opp, Class::B4F3) == 0;
        // The prunings by the evaluation: only off the principal variation at quiet nodes.
        if node.quiet && !pente && node.null_window() {
            let eval = self.pruning_eval(entry, ply);
            if let Some(v) = self.prune(&node, eval) {
                return v;
            }
            node.likely_high = likely_fail_high(&self.params, &node, eval, calm);
            if calm && let Some(v) = self.probcut(&node, eval, tt_move) {
                return v;
            }
        }
        // At a calm node the table's move goes first, before any are generated: when it cuts off,
        // generating was wasted work.
        let staged = tt_move.filter(|&m| {
            calm && self.pos.is_empty(m)
                && self.pos.is_near(m)
                && (!self.pos.restricted(me) || self.pos.legal_for(m, me))
        });
        // Where an earlier search found a threat best, a quiet move is less likely to matter: late quiet
        // moves take a ply more of reduction (Stockfish's `ttCapture`; see `late_reduction`).
        self.stack[ply].tt_threat =
            tt_move.is_some_and(|m| self.pos.is_empty(m) && self.pos.class(m, me).is_open_threat());
        let (best, best_move) = match self.search_moves(&mut node, tt_move, staged) {
            Ok(found) => found,
            Err(v) => return v,
        };
        self.store_result(key, &node, alpha, best, best_move);
        best
    }

    /// The threats decide first: our five wins; of the opponent's five points two lose and one
    /// is blocked; our open four wins in three plies and `threes_win` in five; a full board is a draw.
    /// `Some(score)` when they decide the node.
    fn threats(&mut self, node: &Node) -> Option<i32> {
        let me = self.pos.side();
        let opp = me.opp();
        let p = node.ply as i32;
        if self.pos.count(me, Class::Five) > 0 {
            return Some(WIN - p - 1);
        }
        let pente = self.profile.captures;
        if pente && self.capture_win(me) {
            return Some(WIN - p - 1);
        }
        let opp_fives = if pente { 0 } else { self.pos.count(opp, Class::Five) };
        if opp_fives > 0 && self.profile.stops_off_the_point {
            return Some(self.stop_fives(node));
        }
        if opp_fives >= 2 {
            return Some(-(WIN - p - 2));
        }
        if opp_fives == 1 {
            return Some(self.block_five(node));
        }
        // (In Pente only when the opponent cannot capture: a capture may break the four.)
        if self.pos.count(me, Class::Flex4) > 0
            && (!pente || (self.pos.count(opp, Class::Five) == 0 && self.pos.capture_moves(opp).is_empty()))
        {
            return Some(WIN - p - 3);
        }
        if !pente && self.threes_win() {
            return Some(WIN - p - 5);
        }
        if self.pos.board().is_full() {
            return Some(0);
        }
        None
    }

    /// The block of the opponent's only five point, a forced move: lost if it is illegal for us.
    fn block_five(&mut self, node: &Node) -> i32 {
        let Node { alpha, beta, depth, ply, cut_node, .. } = *node;
        let me = self.pos.side();
        let Some(b) = block_point(&self.pos, me.opp()) else { return 0 };
        if !self.pos.legal_for(b, me) {
            return -(WIN - ply as i32 - 2);
        }
        if ply >= MAX_PLY {
            return self.evaluate();
        }
        // A forced move costs no depth, and no more than that: extending the block further (Rapfi
        // gives it 1.3 plies) played worse (docs/search.md, "Reductions and extensions").
        self.stack[ply].was_four = self.pos.class(b, me).is_four();
        self.stack[ply + 1].ext = self.stack[ply].ext;
        self.tt.prefetch(self.pos.hash_after(b));
        self.pos.play(b);
        let v = -self.search(-beta, -alpha, depth, ply + 1, node.null_window() && !cut_node);
        self.pos.undo();
        v
    }

    /// The horizon: at depth 0 (or at the deepest ply) the node's value is the quiescence's
    /// (see `quiesce`), the evaluation or a line of our fours that beats it. `None` when the node is
    /// searched on.
    fn horizon(&mut self, node: &Node) -> Option<i32> {
        let pente = self.profile.captures;
        // An open three of the opponent's at the horizon is not quiet: its defences are searched up to
        // `three_past_horizon` plies past the horizon rather than trusting an evaluation whose threat
        // term was never fitted on positions facing one (see `Profile::threes_past_horizon`); not a ply
        // more under a four-three point of the opponent's, which did not pay (docs/search.md, "A node",
        // Horizon).
        let threatened = self.profile.threes_past_horizon
            && node.depth > -self.params.three_past_horizon
            && self.pos.count(self.pos.side().opp(), Class::Flex4) > 0;
        if (node.depth > 0 || threatened) && node.ply < MAX_PLY {
            return None;
        }
        if node.ply >= MAX_PLY || pente {
            return Some(self.evaluate());
        }
        let mut budget = self.params.leaf_vcf_nodes;
        Some(self.quiesce(node.alpha, node.beta, node.ply, None, self.params.leaf_vcf_fours, &mut budget))
    }

    /// The evaluation the prunings judge by: the static one, or the table's score where its bound
    /// says that is the better guess (exact; a lower bound above it; an upper bound below it).
    fn pruning_eval(&self, entry: Option<Entry>, ply: usize) -> i32 {
        // A table score that bounds the value from the right side is a better guess than the
        // static evaluation (as in Rapfi and Stockfish): the prunings then judge by what a search
        // found (docs/search.md, "A node", the evaluation used for pruning).
        let e = self.evaluate();
        match entry.map(|t| (from_tt(t.score, ply as i32), t.bound)) {
            Some((s, bound)) if s.abs() < WIN_THRESHOLD => match bound {
                Bound::Exact => s,
                Bound::Lower if s > e => s,
                Bound::Upper if s < e => s,
                _ => e,
            },
            _ => e,
        }
    }

    /// The prunings before any move, off the principal variation at a quiet node: razoring
    /// far below alpha near the horizon, reverse futility far above beta. `Some(eval)` when the node
    /// is cut so.
    fn prune(&self, node: &Node, eval: i32) -> Option<i32> {
        let Node { alpha, beta, depth, ply, .. } = *node;
        let me = self.pos.side();
        // Razoring (see `Params::razor_margin`). Only without fours of ours: with one, the leaf's VCF might
        // find a win the evaluation cannot see. The opponent's closed threes are no reason to search:
        // the evaluation counts them, and its VCF threat is not looked for inside the tree.
        if (1..=self.params.razor_depth).contains(&depth)
            && self.pos.count(me, Class::B4) + self.pos.count(me, Class::B4F3) == 0
            && eval + self.params.razor_margin * depth <= alpha
        {
            return Some(eval);
        }
        // Reverse futility (see `Params::futility_per_ply`), unless our last two moves were fours: an attack of
        // fours under way is judged by where it leads, not by the evaluation on the way (Rapfi's
        // exception too).
        if eval < WIN_THRESHOLD
            && beta > -WIN_THRESHOLD
            && eval - self.params.futility_per_ply * (depth - 1) >= beta
            && !(ply >= 4 && self.stack[ply - 2].was_four && self.stack[ply - 4].was_four)
        {
            return Some(eval);
        }
        None
    }

    /// ProbCut (Stockfish's), at a calm node off the principal variation far enough from the horizon
    /// whose evaluation reaches beta: when one of its first moves in order, searched
    /// `probcut_reduction` plies shallower, beats beta by `probcut_margin`, a full search would most
    /// likely cut too. `Some(score)` when the node is cut so. A cut costs the node its move
    /// generation, which the reduced looks repay.
    fn probcut(&mut self, node: &Node, eval: i32, tt_move: Option<usize>) -> Option<i32> {
        let Node { beta, depth, ply, cut_node, .. } = *node;
        let bound = beta + self.params.probcut_margin;
        if depth < self.params.probcut_depth
            || self.params.probcut_moves == 0
            || eval < beta
            || beta <= -WIN_THRESHOLD
            || bound >= WIN_THRESHOLD
        {
            return None;
        }
        let moves = self.generate(ply, tt_move, &mut false, self.params.probcut_moves).ok()?;
        let me = self.pos.side();
        let reduced = depth - 1 - self.params.probcut_reduction;
        for m in moves.into_iter().take(self.params.probcut_moves) {
            self.stack[ply].was_four = self.pos.class(m, me).is_four();
            self.stack[ply + 1].ext = self.stack[ply].ext;
            self.pos.play(m);
            let v = -self.search(-bound, -bound + 1, reduced, ply + 1, !cut_node);
            self.pos.undo();
            if self.aborted {
                return Some(0);
            }
            if v >= bound {
                return Some(v);
            }
        }
        None
    }

    /// The move loop: the table's move when it is staged (searched before any are generated),
    /// then the generated moves in order, widened when the best few lose. Returns the best score and
    /// move, or `Err` with the node's score when it ends otherwise (an abort, no move to make).
    fn search_moves(
        &mut self,
        node: &mut Node,
        tt_move: Option<usize>,
        staged: Option<usize>,
    ) -> Result<(i32, Option<usize>), i32> {
        let mut best = -INF;
        let mut best_move = None;
        // No singular extension for the table's move (a third more nodes, inside the noise), nor
        // Rapfi's fractional extension of it (docs/search.md, "A node" and "Reductions and extensions").
        if let Some(m) = staged {
            let v = self.child(node, m, 0, false);
            if self.aborted {
                return Err(0);
            }
            best = v;
            best_move = Some(m);
            if v > node.alpha {
                node.alpha = v;
                if v >= node.beta {
                    return Ok((best, best_move));
                }
            }
        }
        let mut moves = self.node_moves(node, tt_move)?;
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
        if !node.quiet && node.ply >= 2 && self.profile.prior_ordered {
            end = end.min(self.params.defence_moves(node.depth));
        }
        let mut rechecked = false;
        let mut k = 0;
        let busy = self.busy.filter(|_| node.depth >= self.params.busy_depth);
        let key = if busy.is_some() { self.pos.hash() } else { 0 };
        let mut deferred: Vec<usize> = vec![];
        while k < end {
            let mut m = moves[k];
            if let Some(b) = busy
                && first + k > 0
            {
                // Another thread is searching this move: search the rest first, this one at the end.
                while k + 1 < end && b.is_busy(key, m) && !deferred.contains(&m) {
                    deferred.push(m);
                    moves[k..end].rotate_left(1);
                    m = moves[k];
                }
            }
            let marked = busy.map(|b| (b, b.start(key, m)));
            let v = self.child(node, m, first + k, forced && k == 0);
            if let Some((b, tag)) = marked {
                b.done(tag);
            }
            if self.aborted {
                return Err(0);
            }
            if v > best {
                best = v;
                best_move = Some(m);
                if v > node.alpha {
                    node.alpha = v;
                    if v >= node.beta {
                        self.history_malus(&moves[..k], staged, node.depth);
                        break;
                    }
                }
            }
            k += 1;
            if k == end && best <= -WIN_THRESHOLD {
                end = moves.len();
            }
            if k == moves.len() && node.quiet && !rechecked && best <= -WIN_THRESHOLD {
                rechecked = true;
                self.add_saving_moves(&mut moves, tt_move, staged);
                end = moves.len();
            }
        }
        Ok((best, best_move))
    }

    /// The generated moves of a node, at a quiet one only the best `quiet_moves` by the prior; `Err`
    /// with the node's score when the generator decides it.
    fn node_moves(&mut self, node: &Node, tt_move: Option<usize>) -> Result<Vec<usize>, i32> {
        let limit = match (node.quiet, self.profile.prior_ordered) {
            (false, _) => usize::MAX,
            (true, true) => {
                self.params.quiet_moves(node.depth)
                    + if node.null_window() { 0 } else { self.params.pv_quiet_extra }
            }
            (true, false) => self.params.max_quiet_moves,
        };
        // Inside the tree the opponent's VCF threat (its VCF if it could move again) is not looked for,
        // only at the root (`generate`): left out, with the history learned at every node (see
        // `score_move`), the search needs fewer nodes and plays better (docs/search.md, "History"). The
        // leaf's own small VCF (the opponent moves there) still catches the short threats.
        let moves = self.generate(node.ply, tt_move, &mut false, limit)?;
        if moves.is_empty() {
            // Renju black with every point forbidden: the game is lost.
            return Err(-(WIN - node.ply as i32 - 2));
        }
        Ok(moves)
    }

    /// The moves tried before a cut failed here: they lose what the cut move gains, so they sort later
    /// at the nodes that follow (it pays together with razoring: docs/search.md, "A node", Razoring).
    fn history_malus(&mut self, tried: &[usize], staged: Option<usize>, depth: i32) {
        let me = self.pos.side();
        let malus = depth * depth;
        for &f in tried.iter().chain(staged.as_ref()) {
            let h = &mut self.history[f][me.index()];
            *h = h.saturating_sub(malus);
        }
    }

    /// Appends to `moves` what a quiet node searches before it is called lost, when every one of its
    /// best few moves lost.
    fn add_saving_moves(&self, moves: &mut Vec<usize>, tt_move: Option<usize>, staged: Option<usize>) {
        // Our fours and threes that were left out get their turn first (a counter-attack most often
        // beats a slow attack), then every other move near the stones (a quiet block at the end of the
        // opponent's VCT). The prior may rank the saving move below the limit, and missed ones made the
        // search claim wins that Rapfi refuted. Only a loss widens the node, so it costs few nodes:
        // widening where the best few merely fail low did not pay
        // (docs/search.md, "Move generation and ordering").
        let me = self.pos.side();
        for i in four_moves(&self.pos, me).into_iter().chain(three_moves(&self.pos, me)) {
            if !moves.contains(&i) && Some(i) != staged {
                moves.push(i);
            }
        }
        self.add_other_moves(moves, tt_move, staged, usize::MAX);
    }

    /// The history learns from a cut, and the table stores the result (`alpha`: the window's
    /// low end before the move loop raised it).
    fn store_result(&mut self, key: u64, node: &Node, alpha: i32, best: i32, best_move: Option<usize>) {
        let bound = if best >= node.beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        // Only a cut teaches the history: Rapfi's credit for the best move of a principal-variation node
        // that raised alpha without a cut was inside the noise (docs/search.md, "History").
        if bound != Bound::Upper
            && let Some(m) = best_move
        {
            let h = &mut self.history[m][self.pos.side().index()];
            *h = h.saturating_add(node.depth * node.depth);
        }
        // A node that failed low stores no move: its best is only the highest of upper bounds, often the
        // first move searched, and it would replace the move a deeper or earlier search found here (the
        // table keeps that one: see `Tt::store`), which calm nodes search before any other. As Rapfi and
        // Stockfish do (docs/search.md, "Transposition table").
        let best_move = if bound == Bound::Upper { None } else { best_move };
        self.tt.store(key, best_move, to_tt(best, node.ply as i32), node.depth, bound);
    }

    /// Searches the `n`-th move `m` of `node` (PVS: the first with the full window, the rest with a
    /// null window first, late quiet ones reduced); `forced`: the node's only move. Returns its score
    /// from the node's view.
    fn child(&mut self, node: &Node, m: usize, n: usize, forced: bool) -> i32 {
        let Node { alpha, beta, depth, ply, cut_node, .. } = *node;
        // Moves that make a three or a stronger threat are never reduced, but a closed four with nothing
        // stronger beside it is: its answer is forced and free, so a late one mostly only spends itself
        // (docs/search.md, "Reductions and extensions"). Not in Pente, where a capture may answer a four
        // (unmeasured there). Reducing open threes did not pay; a move that makes a closed three or two open
        // twos is reduced `material_relief` plies less (docs/strength.md, Ideas tried).
        let class = self.pos.class(m, self.pos.side());
        let threat = class.is_open_threat() || (class == Class::B4 && !self.profile.prior_ordered);
        let shallower = node.likely_high && !class.is_four();
        // A forced move costs no depth.
        let new_depth = if forced { depth } else { depth - 1 - i32::from(shallower) };
        // The move's shapes are read (before it is played) only for a move about to be reduced.
        let reduce = match (n == 0 || threat, self.late_reduction(node, n, new_depth)) {
            (true, _) => 0,
            (false, r) if r > 0 && makes_material(self.pos.shapes(m, self.pos.side())) => {
                (r - self.params.material_relief).max(1)
            }
            (false, r) => r,
        };
        self.stack[ply].was_four = class.is_four();
        self.tt.prefetch(self.pos.hash_after(m));
        self.pos.play(m);
        self.stack[ply + 1].ext = self.stack[ply].ext;
        let v = if n == 0 {
            -self.search(-beta, -alpha, new_depth, ply + 1, node.null_window() && !cut_node)
        } else {
            let mut v =
                -self.search(-alpha - 1, -alpha, new_depth - reduce, ply + 1, reduce > 0 || !cut_node);
            if v > alpha && reduce > 0 {
                // A reduced move that beat alpha by a wide margin is re-searched a ply deeper than its
                // nominal depth (Rapfi's LMR extension, its margins; at most `max_lmr_extensions` on a
                // line): a move the reduced look already likes that much is probably the best one here,
                // and the nominal depth would then be the shallowest look it gets (docs/search.md,
                // "Reductions and extensions"). The full-window re-search below goes back to the nominal
                // depth: kept at the extended one, it did no better (docs/strength.md, Ideas tried).
                let deeper =
                    v > alpha + self.params.lmr_deeper_base + self.params.lmr_deeper_per_ply * reduce
                        && self.stack[ply].ext < self.params.max_lmr_extensions;
                self.stack[ply + 1].ext = self.stack[ply].ext + u8::from(deeper);
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

    /// Plies taken off the `n`-th move of `node`, one that makes no threat, searched `new_depth` deep
    /// at its nominal depth: 0 unless it is a late quiet move.
    fn late_reduction(&self, node: &Node, n: usize, new_depth: i32) -> i32 {
        // Late quiet moves are searched shallower first: from the third on in the prior's order (better
        // than from the fourth: docs/search.md, "Reductions and extensions"), from the fourth in the weight
        // matrix's. Not the answers to an open three, nor a ply more for a late move that continues our
        // attack (docs/strength.md, Ideas tried).
        let prior = self.profile.prior_ordered;
        let from = if prior { self.params.lmr_from } else { self.params.gentle_lmr_from };
        if !(node.quiet && node.depth >= self.params.lmr_depth && n >= from) {
            0
        } else if prior {
            // A null window (beta = alpha + 1) means this node is off the principal variation, where
            // a wrong cut costs least: a ply more. A ply more at an expected cut node (`cut_extra`), and
            // where the table's move is a threat (Stockfish's `ttCapture`; here one that makes an open
            // three or more): where an earlier search found a threat best, a quiet move is less likely
            // to matter. From three plies up the reduced look keeps a ply of search below the move; two
            // plies from the horizon the move goes to the quiescence (docs/search.md,
            // "Reductions and extensions"). Not taken: Rapfi's `ttPv`, Stockfish's `cutoffCnt`, no
            // reduction two plies up (docs/strength.md, Ideas tried).
            (self.params.reduction(node.depth, n)
                + i32::from(node.null_window())
                + self.params.cut_extra * i32::from(node.cut_node)
                + i32::from(self.stack[node.ply].tt_threat))
            .min(new_depth - 1)
            .max(1)
        } else {
            self.params.gentle_reduction(node.depth, n)
        }
    }

    /// Caro: the opponent has five points and each of our stops (see `threat::five_stops`) is searched
    /// as a forced move, at no cost in depth; none at all loses.
    fn stop_fives(&mut self, node: &Node) -> i32 {
        let Node { mut alpha, beta, depth, ply, cut_node, .. } = *node;
        let p = ply as i32;
        let stops = five_stops(&self.pos);
        if stops.is_empty() {
            return -(WIN - p - 2);
        }
        if ply >= MAX_PLY {
            return self.evaluate();
        }
        let me = self.pos.side();
        let mut best = -INF;
        for (n, &b) in stops.iter().enumerate() {
            self.stack[ply].was_four = self.pos.class(b, me).is_four();
            self.stack[ply + 1].ext = self.stack[ply].ext;
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
    /// (`four_three_wins`, Rapfi's static check): in crowded positions, where both sides have fours to
    /// play, the search need not play such wins out and reaches deeper (docs/search.md, "A node",
    /// Threats first).
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

/// The table's cut-off below the root: an entry at least as deep whose bound settles the window.
/// It cuts on the principal variation too (cutting only off it, as Rapfi and Stockfish do, was no
/// better: docs/search.md, "Transposition table"), and a cut here teaches the history nothing.
fn table_cut(entry: Option<Entry>, node: &Node) -> Option<i32> {
    let e = entry?;
    if e.depth < node.depth || node.ply == 0 {
        return None;
    }
    let score = from_tt(e.score, node.ply as i32);
    match e.bound {
        Bound::Exact => Some(score),
        Bound::Lower if score >= node.beta => Some(score),
        Bound::Upper if score <= node.alpha => Some(score),
        _ => None,
    }
}

/// Whether a move with these line shapes makes a closed three or two open twos (see
/// `Params::material_relief`).
fn makes_material(shapes: [Shape; 4]) -> bool {
    shapes.contains(&Shape::B3) || shapes.iter().filter(|&&s| s == Shape::F2).count() >= 2
}

/// The fail-high reduction applies (see `Node::likely_high`).
fn likely_fail_high(p: &Params, node: &Node, eval: i32, calm: bool) -> bool {
    // Fail-high reduction, Rapfi's margins: off the principal variation, a node whose evaluation lies
    // well above beta will most likely cut, and a cut needs only one good move, which a ply shallower
    // usually finds; fours keep their depth. The opponent's fours raise the margin: their blocks may
    // cost us the tempo the evaluation counts (at a quiet node outside Pente, `calm` says it has
    // none; docs/search.md, "A node", Fail-high reduction). Neither ProbCut beside it nor a ply more for a
    // second four in a row paid (docs/strength.md, Ideas tried).
    eval >= node.beta
        + p.fail_high_base
        + p.fail_high_per_ply * node.depth
        + p.fail_high_fours * i32::from(!calm)
}
