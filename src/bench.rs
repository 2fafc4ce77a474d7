//! `bench`: a fixed search over fixed positions of every rule on 15x15 and 20x20, one thread, a fixed
//! table size and no time limit, so the node count is the same on every machine. A change that should
//! not alter the search must leave the count unchanged; commits that change the search quote it.
//!
//! The positions are Rapfi's benchmark openings (rules.md §3.3), plus renju and caro ones on 20x20 and a
//! caro one on 15x15, so every rule is searched on both sizes.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::board::Board;
use crate::rules::Rules;
use crate::search::{self, SearchPlayer, score_text};
use crate::tt::Tt;

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

/// Runs the bench and returns its report; the last line is `nodes N nps M`.
pub fn run(depth: i32) -> String {
    let player = SearchPlayer::default();
    let stop = AtomicBool::new(false);
    let mut out = String::new();
    let mut total = 0u64;
    let started = Instant::now();
    for &(mask, size, moves) in POSITIONS {
        let rules = Rules::from_mask(mask, 5).0;
        let Some(pats) = player.patterns(&rules) else { continue };
        let tt = Tt::new(16 << 20);
        let Ok(board) = Board::from_moves(size, size, moves) else { continue };
        let t = Instant::now();
        let setup = search::Setup {
            pats: Arc::clone(&pats),
            tt: &tt,
            limits: None,
            max_depth: depth,
            threads: 1,
            stop: &stop,
            use_vct: false,
            progress: None,
        };
        let o = search::run(&board, &setup);
        total += o.nodes;
        out.push_str(&format!(
            "rule {mask} {size}x{size} {moves}: best {} eval {} nodes {} ({:.0} ms)\n",
            o.mv.map_or("-".into(), |p| p.notation()),
            score_text(o.score),
            o.nodes,
            t.elapsed().as_secs_f64() * 1000.0
        ));
    }
    let secs = started.elapsed().as_secs_f64().max(1e-9);
    out.push_str(&format!("nodes {total} nps {:.0}\n", total as f64 / secs));
    out
}
