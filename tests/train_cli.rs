//! The learning loop end to end through the binary, in small: self-play a few games, fit a model to
//! them, load it with `--weights`, and play with it.

mod common;

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use common::{output_within_deadline, scratch_dir};
use quincunx::eval::model::EvalModel;

fn binary() -> Command {
    Command::new(env!("CARGO_BIN_EXE_pbrain-quincunx"))
}

/// `bench`'s node count (its last line: `nodes N nps M time T ms`).
fn bench_nodes(extra: &[&str]) -> u64 {
    let o = output_within_deadline(binary().arg("bench").args(extra));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    let last = out.lines().last().unwrap_or_default().to_string();
    last.split_whitespace().nth(1).and_then(|n| n.parse().ok()).expect("nodes N")
}

fn train(data: &Path, out: &Path, extra: &[&str]) -> Output {
    output_within_deadline(binary().arg("train").arg("--out").arg(out).args(extra).arg(data))
}

#[test]
fn selfplay_then_train_then_play_with_the_fitted_model() {
    let dir = scratch_dir("train", "loop");
    let (data, model) = (dir.join("data.txt"), dir.join("model.txt"));
    let games = ["selfplay", "--games", "24", "--nodes", "300", "--seed", "3", "--rule", "freestyle,renju"];
    let o = output_within_deadline(binary().args(games).arg("--out").arg(&data));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = train(&data, &model, &["--epochs", "20"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let fitted = EvalModel::parse(&std::fs::read_to_string(&model).expect("written")).expect("a model");
    assert_ne!(&fitted, EvalModel::embedded(), "the fit moved the values");
    assert!(
        fitted.about.iter().any(|a| a.starts_with("made by: pbrain-quincunx train")),
        "{:?}",
        fitted.about
    );
    // The fitted model searches otherwise; the embedded one, written out, exactly as without it.
    let model_arg = model.to_str().expect("a path");
    let plain = bench_nodes(&[]);
    assert_ne!(bench_nodes(&["--weights", model_arg]), plain);
    let embedded = dir.join("embedded.txt");
    std::fs::write(&embedded, EvalModel::embedded().to_text()).expect("written");
    assert_eq!(bench_nodes(&["--weights", embedded.to_str().expect("a path")]), plain);
    // A brain started with it plays.
    let mut child = binary()
        .args(["--weights", model_arg])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the brain starts");
    let _ = child.stdin.take().expect("stdin").write_all(b"START 15\nINFO timeout_turn 200\nTURN 7,7\nEND\n");
    let out = String::from_utf8_lossy(&child.wait_with_output().expect("it ends").stdout).into_owned();
    assert!(out.lines().filter(|l| !l.starts_with("MESSAGE")).any(|l| l.contains(',')), "{out}");
}

#[test]
fn bad_models_and_options_are_refused() {
    let dir = scratch_dir("train", "refused");
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "# quincunx evaluation model v1\nbias freestyle 1,2\n").expect("written");
    let o = output_within_deadline(binary().args(["bench", "--weights"]).arg(&bad));
    assert_eq!(o.status.code(), Some(2), "a model with values missing");
    let o = output_within_deadline(binary().args(["--weights", "no/such/model.txt"]).stdin(Stdio::null()));
    assert_eq!(o.status.code(), Some(2), "a model that is not there");
    assert_eq!(train(&dir.join("none.txt"), &dir.join("m.txt"), &["--lambda", "2"]).status.code(), Some(2));
    assert_eq!(train(&dir.join("none.txt"), &dir.join("m.txt"), &[]).status.code(), Some(1), "no data file");
}
