//! The match runner against brains that misbehave on purpose (`tests/fault-engines/*.sh`): each fault
//! must lose the game with the right reason, the good engine must lose nothing, and the run must end.
//! A brain that fails before the first game (it cannot start, or refuses START) stops the match
//! instead.

use std::path::PathBuf;
use std::sync::mpsc;
use std::time::Duration;

use quincunx::game::rules::Rules;
use quincunx::tools::client::process::StderrMode;
use quincunx::tools::client::referee::EngineSpec;
use quincunx::tools::client::referee::{Fault, GameSettings};
use quincunx::tools::matches::config::{MatchConfig, MatchError};
use quincunx::tools::matches::run::run_match;
use quincunx::tools::matches::summary::Summary;

fn fault_engine(name: &str) -> EngineSpec {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fault-engines").join(format!("{name}.sh"));
    EngineSpec::new(name, vec!["bash".into(), path.to_string_lossy().into_owned()])
}

fn ours() -> EngineSpec {
    EngineSpec::new("quincunx", vec![env!("CARGO_BIN_EXE_pbrain-quincunx").into()])
}

/// Two games (one with each colour) of our engine against `fault`, with a watchdog: a runner that hangs
/// fails the test instead of hanging it.
fn play_against(fault: &str) -> Summary {
    play_against_under(fault, Rules::default())
}

fn play_against_under(fault: &str, rules: Rules) -> Summary {
    run(config(fault, rules)).expect("match runs")
}

fn config(fault: &str, rules: Rules) -> MatchConfig {
    let game = GameSettings {
        rules,
        width: 15,
        height: 15,
        turn_ms: 300,
        game_ms: 0,
        tolerance_ms: 200,
        start_timeout_ms: 2000,
        max_memory: 64 << 20,
        threads: 1,
        max_nodes: 0,
        max_stones: 225,
        pause_ms: 0,
        stderr: StderrMode::Ignore,
    };
    MatchConfig { concurrency: 2, ..MatchConfig::new(vec![ours(), fault_engine(fault)], game) }
}

fn run(cfg: MatchConfig) -> Result<Summary, MatchError> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(run_match(&cfg));
    });
    rx.recv_timeout(Duration::from_secs(60)).expect("the match runner did not finish")
}

/// Games our engine (index 0) won, and how the fault engine (index 1) lost them.
fn check(s: &Summary, reason: &str) {
    let r = s.pairs[0].total;
    assert_eq!((r.wins, r.losses, r.draws), (2, 0, 0), "{}", s.render());
    assert_eq!(s.losses.get(&(1, reason.to_string())), Some(&2), "{}", s.render());
    assert!(s.losses.keys().all(|(e, _)| *e == 1), "our engine faulted:\n{}", s.render());
}

#[test]
fn a_hanging_engine_loses_on_time() {
    check(&play_against("hang"), "no answer in time");
}

#[test]
fn a_crashing_engine_loses() {
    check(&play_against("crash"), "crashed or exited");
}

#[test]
fn garbage_answers_lose() {
    check(&play_against("garbage"), "malformed answer");
}

#[test]
fn occupied_points_lose() {
    check(&play_against("occupied"), "move on an occupied point");
}

#[test]
fn a_pente_opening_off_the_centre_loses_as_an_illegal_move() {
    // As the first player its first stone is off the centre: an illegal move, listed with the faults.
    // As the second player it has no opening rule to break and loses the game on the board.
    let s = play_against_under("first_free", Rules::pente(false));
    let r = s.pairs[0].total;
    assert_eq!((r.wins, r.losses, r.draws), (2, 0, 0), "{}", s.render());
    let reason = "illegal move (the first stone must go on the centre)".to_string();
    assert_eq!(s.losses.get(&(1, reason)), Some(&1), "{}", s.render());
    assert!(s.losses.keys().all(|(e, _)| *e == 1), "our engine faulted:\n{}", s.render());
}

#[test]
fn a_bad_first_start_answer_stops_the_match() {
    match run(config("bad_start", Rules::default())) {
        Err(MatchError::EngineStart { engine, fault, .. }) => {
            assert_eq!((engine.as_str(), fault), ("bad_start", Fault::BadStartAnswer));
        }
        other => panic!("expected an engine start error, got {other:?}"),
    }
}

#[test]
fn an_engine_that_cannot_start_stops_the_match() {
    let mut cfg = config("crash", Rules::default());
    cfg.engines[1] = EngineSpec::new("absent", vec!["/nonexistent/engine".into()]);
    match run(cfg) {
        Err(MatchError::EngineStart { engine, fault, .. }) => {
            assert_eq!((engine.as_str(), fault), ("absent", Fault::CannotStart));
        }
        other => panic!("expected an engine start error, got {other:?}"),
    }
}

#[test]
fn a_bad_later_start_answer_loses() {
    // One worker: the first game uses the START of the start check, the second needs a new one.
    let mut cfg = config("bad_restart", Rules::default());
    cfg.concurrency = 1;
    let s = run(cfg).expect("match runs");
    let r = s.pairs[0].total;
    assert_eq!((r.wins, r.losses, r.draws), (2, 0, 0), "{}", s.render());
    assert_eq!(s.losses.get(&(1, "did not answer OK to START".to_string())), Some(&1), "{}", s.render());
    assert_eq!(s.losses.len(), 1, "{}", s.render());
}

#[test]
fn an_engine_that_ignores_end_is_killed() {
    let s = play_against("ignore_end");
    let r = s.pairs[0].total;
    assert_eq!(r.games(), 2);
    assert!(s.losses.is_empty(), "{}", s.render());
    // Its whole process group is gone once the match returns.
    let left = std::process::Command::new("pgrep").args(["-f", "fault-engines/ignore_end.sh"]).output();
    if let Ok(out) = left {
        assert!(out.stdout.is_empty(), "left behind: {}", String::from_utf8_lossy(&out.stdout));
    }
}

/// Two first-free engines, each given its own node count, at 100 ms a move: `honour` answers at once
/// when it got its count, `ignore` thinks 90% of its turn whatever it got.
fn node_match(modes: [&str; 2]) -> Result<Summary, MatchError> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fault-engines/node_limit.sh");
    let mut cfg = config("hang", Rules::default());
    cfg.game.turn_ms = 100;
    cfg.engines = modes
        .iter()
        .zip([1000, 2000])
        .map(|(mode, nodes)| EngineSpec {
            nodes: Some(nodes),
            ..EngineSpec::new(
                *mode,
                vec!["bash".into(), path.to_string_lossy().into_owned(), mode.to_string()],
            )
        })
        .collect();
    run(cfg)
}

#[test]
fn engines_that_honour_their_node_counts_play_on() {
    let s = node_match(["honour", "honour"]).expect("the match runs");
    assert_eq!(s.games, 2, "{}", s.render());
}

#[test]
fn an_engine_that_ignores_its_node_count_stops_the_match() {
    match node_match(["honour", "ignore"]) {
        Err(MatchError::IgnoresNodes { engine, nodes, .. }) => {
            assert_eq!((engine.as_str(), nodes), ("ignore", 2000))
        }
        other => panic!("expected the match refused, got {other:?}"),
    }
}
