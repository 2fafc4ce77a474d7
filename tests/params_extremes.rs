//! Every search parameter at the ends of its range still plays: `--set` and `tune` may put any value
//! of a range into a search (a tuner's perturbation reaches the ends), so none may panic or stall.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use quincunx::game::board::Board;
use quincunx::game::rules::{Rules, Verdict};
use quincunx::player::timeman::Budget;
use quincunx::player::{Limits, Player};
use quincunx::search::{Params, SPECS, SearchPlayer};

/// Black to move, and white would win by a double four at h8 if it moved again: black's answers are
/// looked for among its fours, white's line and a few quiet moves (`threat_quiet_moves`).
const WHITE_THREATENS: &str = "
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . x . . . . . . .
    . . . . . . . o . . . . . . .
    . . . . . . . o . . . . . . .
    . . . . . . . o . . . . . . .
    . . . . . . . . . . . . . . .
    . . x o o o . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . x . x . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . x . . . .
    . . . . . . . . . . . . . . .
    . . . . . . . . . . . . . . .
";

/// Plays a short game of `player` against itself from `diagram`; every move legal.
fn plays_legally(player: &SearchPlayer, diagram: &str, rules: Rules, what: &str) {
    let mut board = Board::from_diagram(diagram).expect("diagram");
    board.set_capture(rules.capture_rule());
    let limits = Limits {
        max_nodes: Some(400),
        ..Limits::new(Budget { start: Instant::now(), soft: None, hard: None }, 1, 16 << 20)
    };
    let stop = AtomicBool::new(false);
    for _ in 0..24 {
        let mv = player.think(&board, &rules, &limits, &stop).mv.unwrap_or_else(|| panic!("{what}: no move"));
        assert!(board.is_empty(mv), "{what}: {} is taken", mv.notation());
        match rules.verdict(&board, mv) {
            Verdict::Win => return,
            Verdict::Continue => board.play_unchecked(mv),
            foul => panic!("{what}: {} is {foul:?}", mv.notation()),
        }
    }
}

#[test]
fn every_parameter_at_either_end_of_its_range_plays_legal_moves() {
    for spec in SPECS {
        for value in [spec.min, spec.max] {
            let mut params = Params::default();
            params.set(spec.name, value).expect("within the range");
            let player = SearchPlayer::with_params(params);
            // Pente for the parameters of its own order and evaluation.
            for rules in [Rules::from_mask(0, 5).0, Rules::from_mask(4, 5).0, Rules::pente(false)] {
                let what = format!("{}={value}, {}", spec.name, rules.name());
                plays_legally(&player, WHITE_THREATENS, rules, &what);
            }
        }
    }
}
