//! The script runner against engines that misbehave on purpose (`tests/fault-engines/*.sh`): every
//! failure is reported with a clear reason, and nothing hangs.

use std::path::PathBuf;
use std::sync::mpsc;
use std::time::Duration;

use quincunx::tools::client::process::StderrMode;
use quincunx::tools::script::{Failure, Report, Script, Step, run};

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

/// Runs `text` against `engine` under a watchdog, its stderr merged into stdout as Piskvork does.
fn run_script(text: &str, engine: Vec<String>) -> Report {
    run_script_with(text, engine, StderrMode::Merge)
}

fn run_script_with(text: &str, engine: Vec<String>, stderr: StderrMode) -> Report {
    let script = Script::parse("test", text).unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(run(&script, &engine, stderr));
    });
    rx.recv_timeout(Duration::from_secs(30)).expect("the script runner hung")
}

/// The detail of the first failed step.
fn first_failure(r: &Report) -> Option<Failure> {
    r.steps.iter().find(|s| !s.passed).and_then(|s| s.failure)
}

#[test]
fn our_engine_passes() {
    let r = run_script(GAME, vec![env!("CARGO_BIN_EXE_pbrain-quincunx").into()]);
    assert!(r.passed(), "{}", r.render(true));
}

#[test]
fn a_line_on_stderr_is_an_answer_where_the_manager_merges_it() {
    let r = run_script(GAME, fault("stderr_chatter"));
    assert!(first_failure(&r) == Some(Failure::NotAMove), "{}", r.render(true));
    for quiet in [StderrMode::Ignore, StderrMode::Log] {
        let r = run_script_with(GAME, fault("stderr_chatter"), quiet);
        assert!(r.passed(), "{quiet:?}: {}", r.render(true));
    }
}

#[test]
fn a_stalled_engine_answers_once_it_goes_on() {
    let text = "limit 2000\n> START 15\n< OK\n> INFO timeout_turn 200\n> BEGIN\nstall 300\n<move\n";
    let r = run_script(text, vec![env!("CARGO_BIN_EXE_pbrain-quincunx").into()]);
    assert!(r.passed(), "{}", r.render(true));
}

#[test]
fn a_hang_fails_on_the_step_limit() {
    let r = run_script(GAME, fault("hang"));
    assert!(first_failure(&r) == Some(Failure::NoAnswer), "{}", r.render(true));
}

#[test]
fn a_crash_is_reported() {
    let r = run_script(GAME, fault("crash"));
    assert!(first_failure(&r) == Some(Failure::Closed), "{}", r.render(true));
}

#[test]
fn garbage_is_not_a_move() {
    let r = run_script(GAME, fault("garbage"));
    assert!(first_failure(&r) == Some(Failure::NotAMove), "{}", r.render(true));
}

#[test]
fn an_occupied_point_is_not_a_legal_move() {
    let r = run_script(GAME, fault("occupied"));
    assert!(first_failure(&r) == Some(Failure::IllegalMove), "{}", r.render(true));
}

#[test]
fn a_flood_of_messages_ends_the_wait() {
    let r = run_script(GAME, fault("flood"));
    assert!(first_failure(&r) == Some(Failure::Flood), "{}", r.render(true));
}

#[test]
fn an_engine_that_ignores_end_fails_the_exit_step_and_is_killed() {
    let r = run_script(GAME, fault("ignore_end"));
    assert!(first_failure(&r) == Some(Failure::StillRunning), "{}", r.render(true));
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

/// Runs `pbrain-quincunx script ARGS…` and gives its exit code and stdout.
fn script_command(args: &[&str]) -> (Option<i32>, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_pbrain-quincunx"))
        .arg("script")
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the binary runs");
    (out.status.code(), String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn one_of_accepts_any_listed_move_and_plays_it() {
    // The centre player answers 7,7 to everything: listed and free the first time, taken the second.
    let text = "limit 500\n> START 15\n< OK\n> BEGIN\n<one-of 0,0 7,7\n> TURN 0,0\n<one-of 7,7 1,1\n";
    let r = run_script(text, fault("occupied"));
    let verdicts: Vec<bool> =
        r.steps.iter().filter(|s| s.step.starts_with("<one-of")).map(|s| s.passed).collect();
    assert_eq!(verdicts, vec![true, false], "{}", r.render(true));
    let r = run_script("> START 15\n< OK\n> BEGIN\n<one-of 1,1 2,2\n", fault("occupied"));
    assert!(!r.passed(), "{}", r.render(true));
}

#[test]
fn a_lost_engine_fails_the_rest_of_the_script_at_once() {
    // Eight answer steps against an engine that never answers: the first waits out its second, the
    // others fail without waiting (and without being run).
    let mut text = String::from("limit 1000\n> START 15\n< OK\n> BEGIN\n<move\n");
    for i in 0..7 {
        text.push_str(&format!("> TURN {i},0\n<move\n<silent 1000\n"));
    }
    text.push_str("> END\n<exit 1000\n");
    let started = std::time::Instant::now();
    let r = run_script(&text, fault("hang"));
    let took = started.elapsed();
    assert!(took < Duration::from_millis(3000), "took {took:?}\n{}", r.render(true));
    let lost = r.steps.iter().position(|s| !s.passed).expect("a failure");
    assert_eq!(r.steps[lost].line, 5, "{}", r.render(true));
    assert!(r.steps[lost + 1..].iter().all(|s| !s.ran), "{}", r.render(true));
    let checks_failed = r.steps[lost + 1..].iter().filter(|s| !s.passed).count();
    assert_eq!(checks_failed, 7 * 2 + 1, "{}", r.render(true));
}

#[test]
fn a_crashed_engine_fails_the_rest_of_the_script_without_running_it() {
    let r = run_script(GAME, fault("crash"));
    let lost = r.steps.iter().position(|s| !s.passed).expect("a failure");
    assert!(r.steps[lost].ran);
    assert!(r.steps[lost + 1..].iter().all(|s| !s.ran), "{}", r.render(true));
}

#[test]
fn a_scenario_about_our_engine_is_skipped_for_another() {
    let text = "engine quincunx\n> ABOUT\n<~ name=\"Quincunx\"*\n";
    let r = run_script(text, fault("first_free"));
    assert!(r.skip.is_some() && r.steps.is_empty() && r.passed(), "{}", r.render(true));
    let r = run_script(text, vec![env!("CARGO_BIN_EXE_pbrain-quincunx").into()]);
    assert!(r.skip.is_none() && r.passed(), "{}", r.render(true));
    // Through the command: a skipped scenario is not a failure.
    let engine = "bash tests/fault-engines/first_free.sh";
    let (code, _) = script_command(&["--engine", engine, "protocol-tests/about_quincunx.txt"]);
    assert_eq!(code, Some(0));
}

#[test]
fn a_missing_engine_is_one_error_before_any_script() {
    let (code, stdout) = script_command(&[
        "--engine",
        "/nonexistent/pbrain-nothing",
        "protocol-tests/about.txt",
        "protocol-tests/end_exits.txt",
    ]);
    assert_ne!(code, Some(0));
    assert_eq!(stdout, "", "no script was reported");
}

/// The answer steps that wait on a move before the scenario set `INFO timeout_turn`, as `file:line`.
fn moves_without_a_turn_limit(name: &str, script: &Script) -> Vec<String> {
    let mut turn_set = false;
    let mut last_command = String::new();
    let mut found = vec![];
    for (line, step) in &script.steps {
        match step {
            Step::SendLine(bytes) | Step::SendRaw(bytes) => {
                let text = String::from_utf8_lossy(bytes).to_ascii_uppercase();
                for sent in text.split(['\r', '\n']).map(str::trim).filter(|l| !l.is_empty()) {
                    let words: Vec<&str> = sent.split_whitespace().collect();
                    turn_set |= words.starts_with(&["INFO", "TIMEOUT_TURN"]);
                    last_command = words[0].to_string();
                }
            }
            Step::Exact(a) | Step::Pattern(a) if a.starts_with("ERROR") || a.starts_with("UNKNOWN") => {}
            Step::Exact(_) | Step::Pattern(_) | Step::Move | Step::OneOf(_) => {
                let thinks = ["BEGIN", "TURN", "DONE"].contains(&last_command.as_str());
                if thinks && !turn_set {
                    found.push(format!("{name}:{line}"));
                }
            }
            _ => {}
        }
    }
    found
}

/// Every scenario that waits for a move sets a short turn limit of its own first: with none a searching
/// brain may take its default (ours: 5 s a move), and the suite would take many minutes.
#[test]
fn every_scenario_sets_its_turn_time_before_it_waits_for_a_move() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("protocol-tests");
    let mut found = vec![];
    for entry in std::fs::read_dir(dir).expect("protocol-tests/ exists") {
        let path = entry.expect("a directory entry").path();
        if path.extension().is_some_and(|x| x == "txt") {
            let name = path.file_name().unwrap_or_default().to_string_lossy().into_owned();
            let script =
                Script::parse(&name, &std::fs::read_to_string(&path).expect("readable")).expect("parses");
            found.extend(moves_without_a_turn_limit(&name, &script));
        }
    }
    found.sort();
    assert_eq!(found, Vec::<String>::new());
}
