//! The learning loop end to end through the binary, in small: self-play a few games, fit a model to
//! them, load it with `--weights`, and play with it.

mod common;

use std::path::Path;
use std::process::{Command, Output, Stdio};

use common::output_within_deadline;
use quincunx::eval::model::EvalModel;
use quincunx::eval::policy::Prior;
use quincunx::game::board::{Color, Pos};
use quincunx::tools::learn::selfplay::read_file;

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

/// Plays the self-play games `args` describe into `out`.
fn selfplay(out: &Path, args: &[&str]) {
    let o = output_within_deadline(binary().arg("selfplay").args(args).arg("--out").arg(out));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// The model file at `path`, as `--weights` reads it.
fn read_model(path: &Path) -> EvalModel {
    EvalModel::parse(&std::fs::read_to_string(path).expect("written")).expect("a model")
}

/// Every line of a `--positions` file is a moment of one of the games (its first moves), with that
/// game's result for the side to move, held out exactly when the game's number ends in 0.
fn positions_are_the_games_quiet_moments(data: &Path, positions: &Path) {
    let (_, games) = read_file(&std::fs::read_to_string(data).expect("data")).expect("selfplay file");
    let text = std::fs::read_to_string(positions).expect("written");
    let mut lines = text.lines();
    assert!(lines.next().is_some_and(|h| h.starts_with('#')), "a header first");
    let (mut count, mut held) = (0, 0);
    for line in lines {
        let field = |key: &str| {
            line.split_whitespace()
                .find_map(|w| w.strip_prefix(key).and_then(|r| r.strip_prefix('=')))
                .unwrap_or_else(|| panic!("{key}= in {line}"))
        };
        let moves = Pos::parse_list(field("moves")).expect("moves");
        let game = games
            .iter()
            .find(|g| g.rules.name() == field("rule") && g.moves.starts_with(&moves))
            .unwrap_or_else(|| panic!("no game begins with {line}"));
        let side = if moves.len().is_multiple_of(2) { Color::Black } else { Color::White };
        assert_eq!(field("result").parse::<f64>().expect("a result"), game.result.score_for(side));
        assert_eq!(field("held_out") == "1", game.index.is_multiple_of(10), "{line}");
        assert!(field("eval").parse::<f64>().is_ok_and(f64::is_finite), "{line}");
        count += 1;
        held += usize::from(field("held_out") == "1");
    }
    assert!(count > 100 && held > 0 && held < count, "{count} positions, {held} held out");
}

#[test]
fn selfplay_then_train_then_play_with_the_fitted_model() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let (data, model) = (dir.join("data.txt"), dir.join("model.txt"));
    selfplay(&data, &["--games", "24", "--nodes", "300", "--seed", "3", "--rule", "freestyle,renju"]);
    let positions = dir.join("positions.txt");
    let o = train(&data, &model, &["--epochs", "20", "--positions", positions.to_str().expect("a path")]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    positions_are_the_games_quiet_moments(&data, &positions);
    let fitted = read_model(&model);
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
    let input = b"START 15\nINFO timeout_turn 200\nTURN 7,7\nEND\n";
    let out = common::output_with_input(binary().args(["--weights", model_arg]), input);
    let out = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.lines().filter(|l| !l.starts_with("MESSAGE")).any(|l| l.contains(',')), "{out}");
}

#[test]
fn no_epochs_writes_the_starting_model_and_the_positions_it_values() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let (data, model, positions) = (dir.join("data.txt"), dir.join("model.txt"), dir.join("positions.txt"));
    selfplay(&data, &["--games", "12", "--nodes", "200", "--seed", "7", "--rule", "freestyle"]);
    let extra = ["--epochs", "0", "--prior-epochs", "0", "--positions", positions.to_str().expect("a path")];
    let o = train(&data, &model, &extra);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let mut written = read_model(&model);
    written.about.clone_from(&EvalModel::embedded().about);
    assert_eq!(&written, EvalModel::embedded(), "no pass, no value moved");
    positions_are_the_games_quiet_moments(&data, &positions);
}

#[test]
fn bad_models_and_options_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "# quincunx evaluation model v1\nbias freestyle 1,2\n").expect("written");
    let o = output_within_deadline(binary().args(["bench", "--weights"]).arg(&bad));
    assert_eq!(o.status.code(), Some(2), "a model with values missing");
    let o = output_within_deadline(binary().args(["--weights", "no/such/model.txt"]).stdin(Stdio::null()));
    assert_eq!(o.status.code(), Some(2), "a model that is not there");
    assert_eq!(train(&dir.join("none.txt"), &dir.join("m.txt"), &["--lambda", "2"]).status.code(), Some(2));
    assert_eq!(train(&dir.join("none.txt"), &dir.join("m.txt"), &[]).status.code(), Some(1), "no data file");
}

#[test]
fn labels_fit_the_move_prior_too_and_plain_games_keep_it() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let (games, labels) = (dir.join("games.txt"), dir.join("labels.txt"));
    selfplay(&games, &["--games", "24", "--nodes", "200", "--seed", "5", "--rule", "freestyle,renju"]);
    let args = ["label", "--nodes", "2000", "--per-game", "4", "--seed", "1", "--out"];
    let o = output_within_deadline(binary().args(args).arg(&labels).arg(&games));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let fitted = |data: &Path, extra: &[&str]| {
        let model = dir.join("model.txt");
        let o = train(data, &model, &[&["--epochs", "5"], extra].concat());
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        read_model(&model)
    };
    let m = fitted(&labels, &["--prior-epochs", "20", "--prior-rate", "5"]);
    assert_ne!(m.prior, Prior::STANDARD, "the labels' best moves moved the prior");
    assert!(m.about.iter().any(|a| a.starts_with("prior: ")), "{:?}", m.about);
    assert_eq!(fitted(&labels, &["--prior-epochs", "0"]).prior, Prior::STANDARD);
    assert_eq!(fitted(&games, &[]).prior, Prior::STANDARD, "games are not labels");
}
