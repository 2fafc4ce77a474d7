//! Running a search: the root solvers, then iterative deepening on the main thread with Lazy SMP
//! helpers. The threads share the table and the deepest completed iteration; the deepest result of
//! any thread is the one played. With one thread and no time limit a run is deterministic.

use super::*;

/// What a finished search gives.
pub struct Outcome {
    pub mv: Option<Pos>,
    pub score: i32,
    pub depth: i32,
    pub nodes: u64,
    pub shortcut: Option<Shortcut>,
    /// The iterations in the order they ended.
    pub iterations: Vec<Iteration>,
}

/// The deepest completed iteration of any thread: its depth, best move, score and principal variation.
#[derive(Clone)]
struct Published {
    depth: i32,
    mv: usize,
    score: i32,
    pv: Vec<usize>,
}

/// How to search: the tables, the limits and the threads.
pub struct Setup<'a> {
    pub pats: Arc<Patterns>,
    pub tt: &'a Tt,
    /// Time and node limits; `None` for a fixed-depth search (bench).
    pub limits: Option<&'a Limits>,
    pub max_depth: i32,
    pub threads: usize,
    pub stop: &'a AtomicBool,
    /// Run the VCT solver at the root.
    pub use_vct: bool,
    /// Told of each iteration as the deepening takes it (depth, best move, score), so that a person
    /// can watch the search; it only reads, so the search and its node counts are the same with it.
    pub progress: Option<&'a (dyn Fn(i32, Pos, i32) + Sync)>,
}

/// Searches `board` to `setup.max_depth` (or the limits). The heart of `think` and `bench`: with one
/// thread and no time limit it is deterministic.
pub fn run(board: &Board, setup: &Setup) -> Outcome {
    let Setup { pats, tt, limits, max_depth, threads, stop, use_vct, progress } = setup;
    let (tt, limits, max_depth, threads, stop, use_vct) =
        (*tt, *limits, *max_depth, *threads, *stop, *use_vct);
    let started = Instant::now();
    let mut iterations = vec![];
    let mut pos = Position::new(board, Arc::clone(pats));
    let me = pos.side();
    let opp = me.opp();
    let pos_of = |pos: &Position, i: usize| pos.pos_of(i);
    // Step 1. Forced answers.
    if let Some(&f) = five_points(&pos, me).first() {
        return Outcome {
            mv: Some(pos_of(&pos, f)),
            score: WIN - 1,
            depth: 0,
            nodes: 0,
            shortcut: None,
            iterations,
        };
    }
    let pente = pos.capture_rule().is_some();
    if let Some(rule) = pos.capture_rule() {
        let need = (rule.to_win as u32).saturating_sub(pos.captured(me));
        if let Some(&(m, _)) = pos.capture_moves(me).iter().find(|&&(_, n)| n >= need) {
            let shortcut = Some(Shortcut::CaptureWin);
            return Outcome {
                mv: Some(pos_of(&pos, m)),
                score: WIN - 1,
                depth: 0,
                nodes: 0,
                shortcut,
                iterations,
            };
        }
    }
    // (In Pente a five can also be met by a capture: the search decides.)
    let opp_fives = if pente { vec![] } else { five_points(&pos, opp) };
    // Caro: the five points may have several stops (see `threat::five_stops`); the search picks one.
    let caro_stops = (!opp_fives.is_empty() && stops_off_the_point(&pos)).then(|| five_stops(&pos));
    if let Some(&[b]) = caro_stops.as_deref() {
        return Outcome {
            mv: Some(pos_of(&pos, b)),
            score: 0,
            depth: 0,
            nodes: 0,
            shortcut: None,
            iterations,
        };
    }
    if !opp_fives.is_empty() && caro_stops.as_ref().is_none_or(|s| s.is_empty()) {
        // Block the five (one of them if there are several: the game is lost then anyway). When every
        // five point is forbidden for black, nothing saves the game, but a foul would lose at once:
        // play the best legal point instead.
        let mv = opp_fives.iter().copied().find(|&i| pos.legal_for(i, me)).or_else(|| {
            let mut legal: Vec<usize> =
                pos.indices().filter(|&i| pos.is_empty(i) && pos.legal_for(i, me)).collect();
            legal.sort_by_key(|&i| -(pos.weight(i, me) + pos.weight(i, opp)));
            legal.first().copied()
        });
        let mv = mv.unwrap_or(opp_fives[0]);
        let score = if opp_fives.len() == 1 && opp_fives[0] == mv { 0 } else { -(WIN - 2) };
        return Outcome { mv: Some(pos_of(&pos, mv)), score, depth: 0, nodes: 0, shortcut: None, iterations };
    }
    let shared_nodes = AtomicU64::new(0);
    let mut nodes = 0;
    // Step 2. Threat solvers.
    let budget_nodes = |share: u64| limits.and_then(|l| l.max_nodes).map_or(share, |n| n.min(share));
    // The solvers get a share of the move's time: VCF a tenth of the hard limit, VCT a fifth, at the
    // root only. What they prove is exact and played at once; a VCT inside the tree found fewer long
    // wins, and a smaller, larger or no root VCT scored the same against Rapfi at 300 ms (45.2-45.5%
    // of 320-640 games): see docs/strength.md, Ideas tried.
    let deadline = |share: u32| limits.and_then(|l| l.budget.hard.map(|h| l.budget.start + h / share));
    // (The solvers know no captures: Pente goes straight to the search.)
    if !pente {
        let mut solver =
            Solver::new(ThreatLimits { max_nodes: budget_nodes(200_000), stop, deadline: deadline(10) });
        if let Some(line) = solver.vcf(&mut pos, 16) {
            return Outcome {
                mv: Some(pos_of(&pos, line[0])),
                score: WIN - line.len() as i32,
                depth: 0,
                nodes: solver.nodes,
                shortcut: Some(Shortcut::Vcf(line.iter().map(|&i| pos.pos_of(i)).collect())),
                iterations,
            };
        }
        nodes += solver.nodes;
    }
    if use_vct && !pente && opp_fives.is_empty() {
        let mut solver =
            Solver::new(ThreatLimits { max_nodes: budget_nodes(60_000), stop, deadline: deadline(5) });
        if let Some(line) = solver.vct(&mut pos, 7) {
            return Outcome {
                mv: Some(pos_of(&pos, line[0])),
                // The line holds both sides' moves, the last our five: its length is the win's.
                score: WIN - line.len() as i32,
                depth: 0,
                nodes: nodes + solver.nodes,
                shortcut: Some(Shortcut::Vct(line.iter().map(|&i| pos.pos_of(i)).collect())),
                iterations,
            };
        }
        nodes += solver.nodes;
    }
    // Step 3. Iterative deepening, with helpers.
    tt.new_search();
    let mut root_moves = {
        let mut w = Worker::new(pos.clone(), tt, stop, &shared_nodes, limits, true);
        let mut narrowed = false;
        let generated = match caro_stops.filter(|s| s.len() >= 2) {
            Some(stops) => Ok(stops),
            None => w.generate(0, None, &mut narrowed, usize::MAX),
        };
        match generated {
            Ok(mut m) if !m.is_empty() => {
                if narrowed {
                    // The root can afford the other moves too (see the fallback in `search`): after
                    // the answers to the threat, the best of the rest.
                    w.add_other_moves(&mut m, None, None, MAX_QUIET_MOVES);
                }
                m
            }
            _ => {
                // A proven loss (or renju black boxed in): the best legal point by weight, so the game
                // goes on as long as it can; a foul only when no legal point is left.
                let mut all: Vec<usize> = pos.indices().filter(|&i| pos.is_empty(i)).collect();
                all.sort_by_key(|&i| -(pos.weight(i, me) + pos.weight(i, opp)));
                let legal: Vec<usize> = all.iter().copied().filter(|&i| pos.legal_for(i, me)).collect();
                if legal.is_empty() { all } else { legal }
            }
        }
    };
    // A forced answer is played at once: thinking on about the position after it was no better
    // (39.8% against Rapfi at 300 ms), and about one answer in twenty is forced.
    if root_moves.len() == 1 {
        return Outcome {
            mv: Some(pos_of(&pos, root_moves[0])),
            score: 0,
            depth: 0,
            nodes,
            shortcut: Some(Shortcut::Forced),
            iterations,
        };
    }
    let done = AtomicBool::new(false);
    let helper_stop = AtomicBool::new(false);
    // The deepest iteration completed by any thread, and its result: the others abandon that depth and
    // search past it (a depth rarely takes two threads to the end), and the move played is the
    // deepest one found.
    let completed = AtomicI32::new(0);
    let published = Mutex::new(Published { depth: 0, mv: root_moves[0], score: 0, pv: vec![] });
    let publish = |depth: i32, mv: usize, score: i32, pv: &[usize]| {
        let mut p = published.lock().unwrap_or_else(PoisonError::into_inner);
        if depth > p.depth {
            *p = Published { depth, mv, score, pv: pv.to_vec() };
            completed.store(depth, Ordering::Relaxed);
        }
    };
    let mut result = (root_moves[0], 0, 0);
    rayon::scope(|scope| {
        for id in 1..threads.max(1) {
            let pos = pos.clone();
            let mut moves = root_moves.clone();
            let (shared_nodes, helper_stop, done, completed, publish) =
                (&shared_nodes, &helper_stop, &done, &completed, &publish);
            scope.spawn(move |_| {
                let mut w = Worker::new(pos, tt, helper_stop, shared_nodes, limits, false);
                w.completed = Some(completed);
                let mut pv = vec![];
                // Odd helpers search a ply beyond the main thread, even ones alongside it.
                let ahead = (id % 2) as i32;
                let mut depth = 1 + ahead;
                let mut last = None;
                while depth <= max_depth && !done.load(Ordering::Relaxed) {
                    let score = w.root(&mut moves, depth, &mut pv, last);
                    if helper_stop.load(Ordering::Relaxed) {
                        break;
                    }
                    if let Some(score) = score
                        && !w.aborted
                    {
                        publish(depth, moves[0], score, &pv);
                        last = Some(score);
                    }
                    w.aborted = false;
                    depth = (depth + 1).max(completed.load(Ordering::Relaxed) + 1 + ahead);
                }
            });
        }
        let mut w = Worker::new(pos.clone(), tt, stop, &shared_nodes, limits, true);
        if threads > 1 {
            w.completed = Some(&completed);
        }
        let mut pv = vec![];
        // Completed iterations in a row that claimed a win.
        let mut claims = 0;
        let mut depth = 1;
        while depth <= max_depth {
            let score = w.root(&mut root_moves, depth, &mut pv, (result.2 > 0).then_some(result.1));
            if w.aborted && stop.load(Ordering::Relaxed) {
                // Out of time (or stopped): a partial iteration counts when its best move beat the
                // previous choice and no thread has completed this depth since.
                if let Some(score) = score
                    && completed.load(Ordering::Relaxed) < depth
                {
                    result = (root_moves[0], score, depth - 1);
                    let elapsed = started.elapsed();
                    iterations.push(Iteration {
                        depth,
                        score,
                        best: w.pos.pos_of(root_moves[0]),
                        pv: vec![],
                        nodes: w.nodes,
                        nps: nodes_per_second(w.nodes, elapsed),
                        time: elapsed,
                        partial: true,
                    });
                } else {
                    // A helper may have completed a deeper iteration since the last one taken here.
                    let p = published.lock().unwrap_or_else(PoisonError::into_inner);
                    if p.depth > result.2 {
                        result = (p.mv, p.score, p.depth);
                    }
                }
                break;
            }
            if let Some(score) = score
                && !w.aborted
            {
                publish(depth, root_moves[0], score, &pv);
            }
            // Aborted without the stop flag: a helper completed this depth first.
            w.aborted = false;
            let p = published.lock().unwrap_or_else(PoisonError::into_inner).clone();
            if p.depth < depth {
                break;
            }
            result = (p.mv, p.score, p.depth);
            if let Some(tell) = progress {
                tell(p.depth, w.pos.pos_of(p.mv), p.score);
            }
            // No check that the best move leaves the opponent no VCT (38.8% of 320 against Rapfi at
            // 300 ms with one, 40.3% without): the VCTs it finds come when the game is already gone.
            // The next iteration starts from the deepest best move.
            if let Some(k) = root_moves.iter().position(|&m| m == p.mv) {
                root_moves[..=k].rotate_right(1);
            }
            let elapsed = started.elapsed();
            // The main thread's own nodes, and the helpers' share of the shared count (it counted the
            // main thread's too: added to `w.nodes` whole, the rate came out twice too high).
            let all_nodes = w.nodes + shared_nodes.load(Ordering::Relaxed).saturating_sub(w.counted);
            iterations.push(Iteration {
                depth: p.depth,
                score: p.score,
                best: w.pos.pos_of(p.mv),
                pv: p.pv.iter().map(|&i| w.pos.pos_of(i)).collect(),
                nodes: w.nodes,
                nps: nodes_per_second(all_nodes, elapsed),
                time: elapsed,
                partial: false,
            });
            // A win the search claims is believed only once deeper iterations repeat it: a shallow
            // one prunes the loser's counterplay, and such claims at depth 2 or 3 lost games. A
            // claimed loss never ends it: the same pruning makes false losses, and only a deeper look
            // finds the defence it hid (43.1% of 640 against Rapfi at 300 ms, 41.5% with loss claims).
            claims = if p.score >= WIN_THRESHOLD { claims + 1 } else { 0 };
            if claims >= CLAIM_ITERATIONS {
                break;
            }
            if limits.is_some_and(|l| l.budget.past_soft()) {
                break;
            }
            depth = p.depth + 1;
        }
        nodes += w.nodes;
        done.store(true, Ordering::Relaxed);
        helper_stop.store(true, Ordering::Relaxed);
    });
    let (best, score, depth) = result;
    Outcome { mv: Some(pos.pos_of(best)), score, depth, nodes, shortcut: None, iterations }
}

/// Nodes a second, rounded (the clock's first microsecond counts as one).
fn nodes_per_second(nodes: u64, elapsed: std::time::Duration) -> u64 {
    (nodes as f64 / elapsed.as_secs_f64().max(1e-6)).round() as u64
}
