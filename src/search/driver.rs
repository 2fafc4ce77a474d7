//! Running a search: the forced answers, the root solvers, then iterative deepening on the main
//! thread, with a helper on each other thread of the pool (`threads`). The deepest result of any
//! thread is the one played. With one thread and no time limit a run is deterministic.

use super::threads::{Best, Published, Shared, help};
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

/// How to search: the tables, the limits and the threads.
pub struct Setup<'a> {
    pub pats: Arc<Patterns>,
    pub tt: &'a Tt,
    /// Time and node limits; `None` for a fixed-depth search (bench).
    pub limits: Option<&'a Limits>,
    pub max_depth: i32,
    /// The threads to search on, the main thread among them (`SearchPlayer::pool`); `None`: this
    /// thread alone.
    pub pool: Option<&'a rayon::ThreadPool>,
    pub stop: &'a AtomicBool,
    /// Run the VCT solver at the root.
    pub use_vct: bool,
    /// Told of each iteration as the deepening takes it and of the main thread's root moves, so that
    /// a person can watch the search; it only reads, so the search and its node counts are the same
    /// with it.
    pub progress: Option<&'a (dyn Fn(&Progress) + Sync)>,
    /// Moves not to choose (see `Limits::exclude`).
    pub exclude: &'a [Pos],
    /// The search's numbers (`SearchPlayer::params`).
    pub params: &'a Params,
    /// The evaluation model's tables (`SearchPlayer::evaluator`).
    pub evaluator: &'static Evaluator,
}

impl<'a> Setup<'a> {
    /// A fixed-depth search on one thread with no time limit and no root VCT, with the default
    /// parameters: deterministic, the same node count on every machine (`bench`, the openings
    /// generator).
    pub fn fixed_depth(pats: &Arc<Patterns>, tt: &'a Tt, depth: i32, stop: &'a AtomicBool) -> Setup<'a> {
        Setup {
            pats: Arc::clone(pats),
            tt,
            limits: None,
            max_depth: depth,
            pool: None,
            stop,
            use_vct: false,
            progress: None,
            exclude: &[],
            params: &Params::DEFAULT,
            evaluator: Evaluator::standard(),
        }
    }
}

/// Searches `board` to `setup.max_depth` (or the limits). The heart of `think` and `bench`: with one
/// thread and no time limit it is deterministic.
pub fn run(board: &Board, setup: &Setup) -> Outcome {
    let started = Instant::now();
    let mut pos = Position::with_evaluator(board, Arc::clone(&setup.pats), setup.evaluator);
    let rule = Profile::of_position(&pos);
    // An answer that names an excluded move is no answer: the search looks among the others.
    let allowed = |o: &Outcome| o.mv.is_none_or(|m| !setup.exclude.contains(&m));
    // Step 1. Forced answers.
    let caro_stops = match forced_answer(&pos, &rule) {
        Forced::Answer(outcome) if allowed(&outcome) => return outcome,
        Forced::Answer(_) => None,
        Forced::Search { caro_stops } => caro_stops,
    };
    // Step 2. Threat solvers.
    let nodes = match solve(&mut pos, setup, &rule) {
        Ok(outcome) if allowed(&outcome) => return outcome,
        Ok(outcome) => outcome.nodes,
        Err(nodes) => nodes,
    };
    // Step 3. Iterative deepening, with helpers.
    setup.tt.new_search();
    let shared = Shared::new();
    let mut root_moves = root_moves(&pos, setup, &shared, caro_stops);
    root_moves.retain(|&m| !setup.exclude.contains(&pos.pos_of(m)));
    if root_moves.is_empty() {
        return Outcome { mv: None, score: 0, depth: 0, nodes, shortcut: None, iterations: vec![] };
    }
    // A forced answer is played at once: thinking on about the position after it was no better
    // (docs/search.md, "One move"), and about one answer in twenty is forced. (The last move left
    // by the exclusions is searched: its line needs a score.)
    if root_moves.len() == 1 && setup.exclude.is_empty() {
        return Outcome {
            mv: Some(pos.pos_of(root_moves[0])),
            score: 0,
            depth: 0,
            nodes,
            // On an empty board the one move is the opening's, not an answer to anything.
            shortcut: Some(if board.stone_count() == 0 { Shortcut::Opening } else { Shortcut::Forced }),
            iterations: vec![],
        };
    }
    deepen(&pos, setup, &shared, root_moves, nodes, started)
}

/// What the first look at a position decides.
enum Forced {
    /// The move is played without a search.
    Answer(Outcome),
    /// A search is needed; under caro, the stops of the opponent's five when it has several.
    Search { caro_stops: Option<Vec<usize>> },
}

/// Step 1: a five of ours, a winning capture, the only stop of the opponent's five.
fn forced_answer(pos: &Position, rule: &Profile) -> Forced {
    let me = pos.side();
    let opp = me.opp();
    let answer = |mv: usize, score: i32, shortcut: Option<Shortcut>| {
        let mv = Some(pos.pos_of(mv));
        Forced::Answer(Outcome { mv, score, depth: 0, nodes: 0, shortcut, iterations: vec![] })
    };
    if let Some(&f) = five_points(pos, me).first() {
        return answer(f, WIN - 1, None);
    }
    let pente = rule.captures;
    if let Some(captures) = pos.capture_rule() {
        let need = (captures.to_win as u32).saturating_sub(pos.captured(me));
        if let Some(&(m, _)) = pos.capture_moves(me).iter().find(|&&(_, n)| n >= need) {
            return answer(m, WIN - 1, Some(Shortcut::CaptureWin));
        }
    }
    // (In Pente a five can also be met by a capture: the search decides.)
    let opp_fives = if pente { vec![] } else { five_points(pos, opp) };
    // Caro: the five points may have several stops (see `threat::five_stops`); the search picks one.
    let caro_stops = (!opp_fives.is_empty() && rule.stops_off_the_point).then(|| five_stops(pos));
    if let Some(&[b]) = caro_stops.as_deref() {
        return answer(b, 0, None);
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
        return answer(mv, score, None);
    }
    Forced::Search { caro_stops }
}

/// Step 2: the VCF solver, then the VCT solver; a proof is played at once (`Ok`), else `Err` with the
/// nodes they spent.
fn solve(pos: &mut Position, setup: &Setup, rule: &Profile) -> Result<Outcome, u64> {
    // The solvers know no captures: Pente goes straight to the search.
    if rule.captures {
        return Err(0);
    }
    let limits = setup.limits;
    let mut nodes = 0;
    let budget_nodes = |share: u64| limits.and_then(|l| l.max_nodes).map_or(share, |n| n.min(share));
    // The solvers get a share of the move's time (a tenth of the hard limit for VCF, a fifth for VCT),
    // at the root only: see `Params::root_vcf_nodes`.
    let deadline = |share: u32| limits.and_then(|l| l.budget.hard.map(|h| l.budget.start + h / share));
    let proof = |pos: &Position, line: &[usize], nodes: u64, shortcut: fn(Vec<Pos>) -> Shortcut| Outcome {
        mv: Some(pos.pos_of(line[0])),
        // The line holds both sides' moves, the last our five: its length is the win's.
        score: WIN - line.len() as i32,
        depth: 0,
        nodes,
        shortcut: Some(shortcut(line.iter().map(|&i| pos.pos_of(i)).collect())),
        iterations: vec![],
    };
    let (stop, p) = (setup.stop, setup.params);
    let mut solver = Solver::new(ThreatLimits {
        max_nodes: budget_nodes(p.root_vcf_nodes),
        stop,
        deadline: deadline(p.root_vcf_share),
    });
    if let Some(line) = solver.vcf(pos, p.root_vcf_fours) {
        return Ok(proof(pos, &line, solver.nodes, Shortcut::Vcf));
    }
    nodes += solver.nodes;
    if setup.use_vct && five_points(pos, pos.side().opp()).is_empty() {
        let mut solver = Solver::new(ThreatLimits {
            max_nodes: budget_nodes(p.root_vct_nodes),
            stop,
            deadline: deadline(p.root_vct_share),
        });
        if let Some(line) = solver.vct(pos, p.root_vct_depth) {
            return Ok(proof(pos, &line, nodes + solver.nodes, Shortcut::Vct));
        }
        nodes += solver.nodes;
    }
    Err(nodes)
}

/// The root's moves in the order the first iteration tries them: the stops of the opponent's five
/// (caro), the moves the node would search (all of them after the answers to a threat), or, when
/// every move loses, every legal point by weight.
fn root_moves(pos: &Position, setup: &Setup, shared: &Shared, caro_stops: Option<Vec<usize>>) -> Vec<usize> {
    let me = pos.side();
    let opp = me.opp();
    let mut w = Worker::new(pos.clone(), setup, setup.stop, &shared.nodes, true);
    let mut narrowed = false;
    let generated = match caro_stops.filter(|s| s.len() >= 2) {
        Some(stops) => Ok(stops),
        None => w.generate(0, None, &mut narrowed, usize::MAX),
    };
    match generated {
        Ok(mut m) if !m.is_empty() => {
            if narrowed {
                // The root can afford the other moves too (see the fallback in `search`): after the
                // answers to the threat, the best of the rest.
                w.add_other_moves(&mut m, None, None, setup.params.max_quiet_moves);
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
}

/// Step 3: iterative deepening on this thread, with a helper on each other thread of the pool.
fn deepen(
    pos: &Position,
    setup: &Setup,
    shared: &Shared,
    root_moves: Vec<usize>,
    nodes: u64,
    started: Instant,
) -> Outcome {
    let main_line = |moves: Vec<usize>| lead(pos, setup, shared, moves, started);
    let (best, iterations, lead_nodes) = match setup.pool {
        // The main line runs on one of the pool's threads, a helper on each of the others: every thread
        // asked for searches at once, whatever the machine's cores.
        Some(pool) => pool.scope(|scope| {
            for _ in 1..pool.current_num_threads() {
                let (pos, moves) = (pos.clone(), root_moves.clone());
                scope.spawn(move |_| help(pos, moves, setup, shared));
            }
            main_line(root_moves)
        }),
        None => main_line(root_moves),
    };
    Outcome {
        mv: Some(pos.pos_of(best.mv)),
        score: best.score,
        depth: best.depth,
        nodes: nodes + lead_nodes,
        shortcut: None,
        iterations,
    }
}

/// The main thread's deepening: the move it chose, its iterations and its nodes.
fn lead(
    pos: &Position,
    setup: &Setup,
    shared: &Shared,
    mut root_moves: Vec<usize>,
    started: Instant,
) -> (Best, Vec<Iteration>, u64) {
    let mut iterations = vec![];
    let mut result = Best { mv: root_moves[0], score: 0, depth: 0 };
    let mut w = Worker::new(pos.clone(), setup, setup.stop, &shared.nodes, true);
    w.watch = setup.progress;
    if setup.pool.is_some() {
        w.busy = Some(&shared.busy);
        w.completed = Some(&shared.completed);
    }
    let mut pv = vec![];
    // Completed iterations in a row that claimed a win.
    let mut claims = 0;
    let mut depth = 1;
    while depth <= setup.max_depth {
        let score = w.root(&mut root_moves, depth, &mut pv, (result.depth > 0).then_some(result.score));
        if w.aborted && setup.stop.load(Ordering::Relaxed) {
            // Out of time (or stopped): a partial iteration counts when its best move beat the
            // previous choice and no thread has completed this depth since.
            if let Some(score) = score
                && shared.completed.load(Ordering::Relaxed) < depth
            {
                result = Best { mv: root_moves[0], score, depth: depth - 1 };
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
                let p = shared.deepest(root_moves[0]);
                if p.best.depth > result.depth {
                    result = p.best;
                }
            }
            break;
        }
        if let Some(score) = score
            && !w.aborted
        {
            shared.publish(Best { mv: root_moves[0], score, depth }, &pv);
        }
        // Aborted without the stop flag: a helper completed this depth first.
        w.aborted = false;
        let p = shared.deepest(root_moves[0]);
        if p.best.depth < depth {
            break;
        }
        result = p.best;
        // No check that the best move leaves the opponent no VCT: the VCTs it finds come when the
        // game is already gone, and it played worse (docs/strength.md, Ideas tried).
        // The next iteration starts from the deepest best move.
        if let Some(k) = root_moves.iter().position(|&m| m == p.best.mv) {
            root_moves[..=k].rotate_right(1);
        }
        let iteration = completed_iteration(&w, shared, &p, started);
        if let Some(tell) = setup.progress {
            tell(&Progress::Iteration(iteration.clone()));
        }
        iterations.push(iteration);
        // A win the search claims is believed only once deeper iterations repeat it: a shallow
        // one prunes the loser's counterplay, and such claims at depth 2 or 3 lost games. A
        // claimed loss never ends it: the same pruning makes false losses, and only a deeper look
        // finds the defence it hid (docs/search.md, "False wins and losses").
        claims = if p.best.score >= WIN_THRESHOLD { claims + 1 } else { 0 };
        if claims >= setup.params.claim_iterations {
            break;
        }
        if setup.limits.is_some_and(|l| l.budget.past_soft()) {
            break;
        }
        depth = p.best.depth + 1;
    }
    shared.done.store(true, Ordering::Relaxed);
    shared.helper_stop.store(true, Ordering::Relaxed);
    (result, iterations, w.nodes)
}

/// The iteration `p` as the main thread reports it.
fn completed_iteration(w: &Worker, shared: &Shared, p: &Published, started: Instant) -> Iteration {
    let elapsed = started.elapsed();
    // The main thread's own nodes, and the helpers' share of the shared count (it counted the main
    // thread's too: added to `w.nodes` whole, the rate came out twice too high).
    let all_nodes = w.nodes + shared.nodes.load(Ordering::Relaxed).saturating_sub(w.counted);
    Iteration {
        depth: p.best.depth,
        score: p.best.score,
        best: w.pos.pos_of(p.best.mv),
        pv: p.pv.iter().map(|&i| w.pos.pos_of(i)).collect(),
        nodes: w.nodes,
        nps: nodes_per_second(all_nodes, elapsed),
        time: elapsed,
        partial: false,
    }
}

/// Nodes a second, rounded (the clock's first microsecond counts as one).
fn nodes_per_second(nodes: u64, elapsed: std::time::Duration) -> u64 {
    (nodes as f64 / elapsed.as_secs_f64().max(1e-6)).round() as u64
}
