//! The script runner against engines that misbehave on purpose (`tests/fault-engines/*.sh`): every
//! failure is reported with a clear reason, and nothing hangs.

use std::path::PathBuf;
use std::sync::mpsc;
use std::time::Duration;

use quincunx::script::{Report, Script, run};

const GAME: &str = "\
limit 500
> START 15
< OK
> INFO timeout_turn 200
> BEGIN
<move
> TURN 0,0
<move
> END
<exit 300
";

fn fault(name: &str) -> Vec<String> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fault-engines").join(format!("{name}.sh"));
    vec!["bash".into(), p.to_string_lossy().into_owned()]
}

/// Runs `text` against `engine` under a watchdog.
fn run_script(text: &str, engine: Vec<String>) -> Report {
    let script = Script::parse("test", text).unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(run(&script, &engine));
    });
    rx.recv_timeout(Duration::from_secs(30)).expect("the script runner hung")
}

/// The detail of the first failed step.
fn first_failure(r: &Report) -> String {
    r.steps.iter().find(|s| !s.passed).map(|s| s.detail.clone()).unwrap_or_default()
}

#[test]
fn our_engine_passes() {
    let r = run_script(GAME, vec![env!("CARGO_BIN_EXE_pbrain-quincunx").into()]);
    assert!(r.passed(), "{}", r.render(true));
}

#[test]
fn a_hang_fails_on_the_step_limit() {
    let r = run_script(GAME, fault("hang"));
    assert!(first_failure(&r).contains("no answer within 500 ms"), "{}", r.render(true));
}

#[test]
fn a_crash_is_reported() {
    let r = run_script(GAME, fault("crash"));
    assert!(first_failure(&r).contains("closed its output"), "{}", r.render(true));
}

#[test]
fn garbage_is_not_a_move() {
    let r = run_script(GAME, fault("garbage"));
    assert!(first_failure(&r).contains("not X,Y"), "{}", r.render(true));
}

#[test]
fn an_occupied_point_is_not_a_legal_move() {
    let r = run_script(GAME, fault("occupied"));
    assert!(first_failure(&r).contains("occupied"), "{}", r.render(true));
}

#[test]
fn a_flood_of_messages_ends_the_wait() {
    let r = run_script(GAME, fault("flood"));
    assert!(first_failure(&r).contains("flood"), "{}", r.render(true));
}

#[test]
fn an_engine_that_ignores_end_fails_the_exit_step_and_is_killed() {
    let r = run_script(GAME, fault("ignore_end"));
    assert!(first_failure(&r).contains("still running"), "{}", r.render(true));
    let left = std::process::Command::new("pgrep").args(["-f", "fault-engines/ignore_end.sh"]).output();
    if let Ok(out) = left {
        assert!(out.stdout.is_empty(), "left behind: {}", String::from_utf8_lossy(&out.stdout));
    }
}

#[test]
fn a_missing_engine_is_an_error_not_a_panic() {
    let r = run_script(GAME, vec!["/nonexistent/pbrain-nothing".into()]);
    assert!(!r.passed());
    assert!(r.error.as_deref().is_some_and(|e| e.contains("cannot start")), "{:?}", r.error);
}
