//! `bench`: a fixed search over fixed positions of every rule on 15x15 and 20x20, one thread, a fixed
//! table size and no time limit, so the node count is the same on every machine. A change that should
//! not alter the search must leave the count unchanged; commits that change the search quote it.
//!
//! The positions are Rapfi's benchmark openings (rules.md, "Rapfi (dhbloo/rapfi) - what the source does"),
//! plus renju and caro ones on 20x20 and a caro one on 15x15, so every rule is searched on both sizes.
//!
//! `bench` also takes other positions and threads (`Bench`): then it measures time to depth, and with
//! more than one thread its node count is no longer deterministic.

use std::fmt;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::eval::model::Evaluator;
use crate::eval::score::score_text;
use crate::game::board::{Board, Pos};
use crate::game::rules::Rules;
use crate::search::tt::Tt;
use crate::search::{self, Params, SearchPlayer};

pub const DEFAULT_DEPTH: i32 = 7;

/// (rule mask, board size, moves in pos notation)
pub const POSITIONS: &[(i64, i64, &str)] = &[
    (0, 15, "h8g7f6g8g9"),
    (0, 15, "h2h5h4f6"),
    (0, 20, "e2f2h3g3g6h5f9"),
    (0, 20, "f5e3b7h5g3g4i6e4h4d4f2i5f4f6e5d6d7e7f8"),
    (1, 15, "h8h7j6i7f7"),
    (1, 15, "f6i9h8"),
    (1, 20, "b3k10g2f6"),
    (4, 15, "h8i9j10i8i7g9"),
    (4, 15, "h8h9j9j8f8i7g7i9h6e9f6k7l6i10i6f9g9g11h10i11i8"),
    (4, 15, "h8h9h6i10i6i9g9g8j11i7"),
    (4, 20, "j10k11l12k10k9i11"),
    (8, 15, "h8i9i8g8j8k8h9"),
    (8, 20, "j10k11k10i10l10m10j11"),
];

/// One position's search.
#[derive(Clone, Debug, PartialEq)]
pub struct BenchPosition {
    pub rule: i64,
    pub size: i64,
    pub moves: String,
    pub best: Option<Pos>,
    pub score: i32,
    pub nodes: u64,
    pub seconds: f64,
}

/// The whole run: `nodes` is the signature (the same on every machine), the times are this machine's.
#[derive(Clone, Debug, PartialEq)]
pub struct BenchReport {
    pub positions: Vec<BenchPosition>,
    pub nodes: u64,
    pub seconds: f64,
}

impl BenchReport {
    pub fn nodes_per_second(&self) -> f64 {
        self.nodes as f64 / self.seconds.max(1e-9)
    }
}

/// One line a position, then `nodes N nps M time T ms`.
impl fmt::Display for BenchReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for p in &self.positions {
            writeln!(
                f,
                "rule {} {}x{} {}: best {} eval {} nodes {} ({:.0} ms)",
                p.rule,
                p.size,
                p.size,
                p.moves,
                p.best.map_or("-".into(), |m| m.notation()),
                score_text(p.score),
                p.nodes,
                p.seconds * 1000.0
            )?;
        }
        writeln!(
            f,
            "nodes {} nps {:.0} time {:.0} ms",
            self.nodes,
            self.nodes_per_second(),
            self.seconds * 1000.0
        )
    }
}

/// What to search: positions (rule mask, board size, moves in pos notation), a depth and threads.
#[derive(Clone, Debug)]
pub struct Bench {
    pub positions: Vec<(i64, i64, String)>,
    pub depth: i32,
    pub threads: usize,
    /// The search's numbers (`--set`): a tuner measures its changes with them.
    pub params: Params,
    /// The evaluation model's tables.
    pub evaluator: &'static Evaluator,
}

impl Bench {
    /// The signature run: the fixed positions to `depth` plies on one thread.
    pub fn standard(depth: i32) -> Bench {
        let positions = POSITIONS.iter().map(|&(r, s, m)| (r, s, m.to_string())).collect();
        Bench { positions, depth, threads: 1, params: Params::DEFAULT, evaluator: Evaluator::standard() }
    }
}

/// Runs the bench to `depth` plies.
pub fn run(depth: i32) -> BenchReport {
    run_bench(&Bench::standard(depth))
}

/// Runs `bench`: each position in a fresh 16 MB table (the table a match's 64 MB `max_memory` gives).
pub fn run_bench(bench: &Bench) -> BenchReport {
    let player = SearchPlayer::new(bench.params, bench.evaluator);
    let stop = AtomicBool::new(false);
    let mut positions = vec![];
    let started = Instant::now();
    for (rule, size, moves) in &bench.positions {
        let rules = Rules::from_mask(*rule, 5).0;
        let Some(pats) = player.patterns(&rules) else { continue };
        let tt = Tt::new(16 << 20);
        let Ok(board) = Board::from_moves(*size, *size, moves) else { continue };
        let t = Instant::now();
        let pool = player.pool(bench.threads);
        let setup = search::Setup {
            pool: pool.as_deref(),
            params: &bench.params,
            evaluator: player.evaluator,
            ..search::Setup::fixed_depth(&pats, &tt, bench.depth, &stop)
        };
        let o = search::run(&board, &setup);
        positions.push(BenchPosition {
            rule: *rule,
            size: *size,
            moves: moves.clone(),
            best: o.mv,
            score: o.score,
            nodes: o.nodes,
            seconds: t.elapsed().as_secs_f64(),
        });
    }
    let nodes = positions.iter().map(|p| p.nodes).sum();
    BenchReport { positions, nodes, seconds: started.elapsed().as_secs_f64() }
}
