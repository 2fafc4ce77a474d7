//! `tune` through the binary: a run at a node limit is the same however often it was stopped and
//! resumed, its values come out as a `--set` that `bench` takes, shards run their own iterations and
//! merge, a state file folded into blocks resumes exactly, and a state file of another run is not
//! continued.

mod common;

use std::path::Path;
use std::process::{Command, Output};

use common::output_within_deadline;
use quincunx::tools::learn::tune::{Entry, Iteration, read_state};

fn binary(args: &[&str]) -> Output {
    output_within_deadline(Command::new(env!("CARGO_BIN_EXE_pbrain-quincunx")).args(args))
}

/// A small run: razor_margin started far from its default, quiet_moves_1 at its own.
fn tune(state: &Path, iterations: usize, extra: &[&str]) -> Output {
    let iterations = iterations.to_string();
    let state = state.to_str().expect("a path in UTF-8");
    let mut args = vec![
        "tune",
        "--params",
        "razor_margin,quiet_moves_1",
        "--start",
        "razor_margin=200",
        "--iterations",
        &iterations,
        "--nodes",
        "300",
        "--seed",
        "5",
        "--stones",
        "4-6",
        "--state",
        state,
    ];
    args.extend_from_slice(extra);
    binary(&args)
}

fn iterations(state: &Path) -> (String, Vec<Iteration>) {
    let (header, done) = lines(state);
    let one = |e: Entry| match e {
        Entry::One(it) => it,
        Entry::Folded(f) => panic!("a fold of {} iterations", f.n),
    };
    (header, done.into_iter().map(one).collect())
}

fn lines(state: &Path) -> (String, Vec<Entry>) {
    let text = std::fs::read_to_string(state).expect("the state file");
    let (header, done) = read_state(&text).expect("a state file");
    (header.expect("a header names the run"), done)
}

/// The `--set` line a run or a merge printed.
fn set_line(out: &Output) -> String {
    let stdout = String::from_utf8_lossy(&out.stdout);
    stdout.lines().find(|l| l.starts_with("--set ")).expect("a --set line").to_string()
}

#[test]
fn a_run_resumes_from_its_state_file_and_its_values_go_to_bench() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let (whole, resumed) = (dir.join("whole.txt"), dir.join("resumed.txt"));
    let run = tune(&whole, 4, &[]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    assert!(tune(&resumed, 2, &["--concurrency", "1"]).status.success());
    let (_, first) = iterations(&resumed);
    assert_eq!(first.len(), 2);
    assert!(tune(&resumed, 4, &["--concurrency", "2"]).status.success());
    let ((h1, a), (h2, b)) = (iterations(&whole), iterations(&resumed));
    assert_eq!(h1, h2);
    assert_eq!(a.iter().map(|it| it.k).collect::<Vec<_>>(), [0, 1, 2, 3]);
    assert_eq!(a, b, "the same iterations, each once");
    assert_eq!(&b[..2], &first[..], "the first lines stay as they were");
    // Each side played razor_margin on either side of θ, about twice its step (5) away.
    let start = [200.0, 8.0];
    for (it, theta) in a.iter().zip(std::iter::once(&start[..]).chain(a.iter().map(|it| &it.theta[..]))) {
        assert!((-2.0..=2.0).contains(&it.r));
        assert!((it.plus[0] - it.minus[0]).abs() >= 15, "{it:?}");
        assert!(((it.plus[0] + it.minus[0]) as f64 / 2.0 - theta[0]).abs() <= 1.0, "{it:?}");
    }
    // The answer is the mean of the last half of the iterations' θ.
    let set = set_line(&run);
    let values = set.strip_prefix("--set ").expect("--set");
    let mean = |i: usize| ((a[2].theta[i] + a[3].theta[i]) / 2.0).round();
    assert_eq!(values, format!("razor_margin={},quiet_moves_1={}", mean(0), mean(1)));
    let bench = binary(&["bench", "2", "--set", values]);
    assert!(bench.status.success(), "{}", String::from_utf8_lossy(&bench.stderr));
}

#[test]
fn a_folded_state_file_resumes_exactly_and_answers_alike() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let (whole, folded) = (dir.join("whole.txt"), dir.join("folded.txt"));
    let run = tune(&whole, 6, &[]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    // The same run as if stopped after 4 iterations (its header names a run of 6: A is a tenth of it).
    let text = std::fs::read_to_string(&whole).expect("the state file");
    std::fs::write(&folded, text.lines().take(5).map(|l| format!("{l}\n")).collect::<String>()).unwrap();
    let fold = |block: &str| binary(&["tune", "--fold", folded.to_str().expect("utf-8"), "--block", block]);
    assert!(fold("3").status.success());
    let (_, done) = lines(&folded);
    assert_eq!(done.iter().map(Entry::n).collect::<Vec<_>>(), [3, 1], "one block folded, one line kept");
    let resumed = tune(&folded, 6, &[]);
    assert!(resumed.status.success(), "{}", String::from_utf8_lossy(&resumed.stderr));
    // The same iterations after the fold, and the same answer (the last half, 3 to 5, is unfolded).
    let ((_, a), (_, b)) = (iterations(&whole), lines(&folded));
    assert_eq!(b[1..], a[3..].iter().cloned().map(Entry::One).collect::<Vec<_>>());
    assert_eq!(set_line(&resumed), set_line(&run));
    // A fold claiming more iterations than could ever be: refused, not a crash.
    let text = std::fs::read_to_string(&folded).expect("the state file");
    let huge = text.replacen(" n=3 ", &format!(" n={} ", usize::MAX), 1);
    assert_ne!(huge, text);
    std::fs::write(&folded, &huge).unwrap();
    assert_eq!(tune(&folded, 8, &[]).status.code(), Some(1));
    for command in ["--merge", "--fold"] {
        let out = binary(&["tune", command, folded.to_str().expect("utf-8")]);
        assert_eq!(out.status.code(), Some(1), "{command}: refused, not a crash");
    }
    assert_eq!(std::fs::read_to_string(&folded).expect("kept"), huge, "left as it was");
    // Lines of fewer numbers than the header's parameters, or one missing: refused by both.
    let without = |k: &str| -> String {
        text.lines().filter(|l| !l.starts_with(&format!("k={k} "))).map(|l| format!("{l}\n")).collect()
    };
    let (short, gap) = (without("5") + "k=5 r=0 theta=1 plus=1 minus=1\n", without("4"));
    assert_ne!(gap, text);
    for bad in [short, gap] {
        std::fs::write(&folded, &bad).unwrap();
        for command in ["--merge", "--fold"] {
            let out = binary(&["tune", command, folded.to_str().expect("utf-8")]);
            assert_eq!(out.status.code(), Some(1), "{command}");
        }
    }
    // Not a state file, or no such file: refused.
    let junk = dir.join("junk.txt");
    std::fs::write(&junk, "k=oops\n").unwrap();
    for path in [&junk, &dir.join("missing.txt")] {
        let out = binary(&["tune", "--fold", path.to_str().expect("utf-8")]);
        assert_eq!(out.status.code(), Some(1), "{}", path.display());
    }
    assert_eq!(std::fs::read_to_string(&junk).expect("kept"), "k=oops\n", "left as it was");
}

#[test]
fn shards_run_their_own_iterations_and_merge_by_weight() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let (one, two) = (dir.join("1.txt"), dir.join("2.txt"));
    assert!(tune(&one, 5, &["--shard", "1/2"]).status.success());
    assert!(tune(&two, 5, &["--shard", "2/2"]).status.success());
    let ((_, a), (_, b)) = (iterations(&one), iterations(&two));
    assert_eq!(a.iter().map(|it| it.k).collect::<Vec<_>>(), [0, 2, 4]);
    assert_eq!(b.iter().map(|it| it.k).collect::<Vec<_>>(), [1, 3]);
    let merged = binary(&["tune", "--merge", one.to_str().expect("utf-8"), two.to_str().expect("utf-8")]);
    assert!(merged.status.success(), "{}", String::from_utf8_lossy(&merged.stderr));
    // Each shard's answer (the mean of its last half: a's last two, b's last one) by its iterations.
    let mean = |i: usize| ((3.0 * (a[1].theta[i] + a[2].theta[i]) / 2.0 + 2.0 * b[1].theta[i]) / 5.0).round();
    assert_eq!(set_line(&merged), format!("--set razor_margin={},quiet_moves_1={}", mean(0), mean(1)));
    // Another run's file does not merge with these.
    let other = dir.join("other.txt");
    assert!(tune(&other, 1, &["--seed", "6"]).status.success());
    let mixed = binary(&["tune", "--merge", one.to_str().expect("utf-8"), other.to_str().expect("utf-8")]);
    assert_eq!(mixed.status.code(), Some(1));
    // A shard resumes its own chain, folded or not.
    let fold = binary(&["tune", "--fold", one.to_str().expect("utf-8"), "--block", "2"]);
    assert!(fold.status.success(), "{}", String::from_utf8_lossy(&fold.stderr));
    let resumed = tune(&one, 7, &["--shard", "1/2"]);
    assert!(resumed.status.success(), "{}", String::from_utf8_lossy(&resumed.stderr));
    let (_, done) = lines(&one);
    assert_eq!(done.iter().map(Entry::n).collect::<Vec<_>>(), [2, 1, 1], "k 0 and 2 folded, then 4 and 6");
}

#[test]
fn another_runs_state_file_and_bad_options_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let state = dir.join("state.txt");
    assert!(tune(&state, 1, &[]).status.success());
    let before = std::fs::read_to_string(&state).expect("written");
    for other in [&["--nodes", "400"][..], &["--rule", "renju"], &["--c-scale", "3"]] {
        assert_eq!(tune(&state, 2, other).status.code(), Some(1), "{other:?} is another run");
    }
    assert_eq!(std::fs::read_to_string(&state).expect("kept"), before, "the file is left as it was");
    // Iterations that are not this chain's (k=0 made k=5), the last line cut by a stop: refused, and
    // the file not touched, not even to close the cut line.
    let edited = before.replacen("k=0 ", "k=5 ", 1);
    let edited = edited.trim_end_matches('\n');
    std::fs::write(&state, edited).unwrap();
    assert_eq!(tune(&state, 2, &[]).status.code(), Some(1), "not this chain's iterations");
    assert_eq!(std::fs::read_to_string(&state).expect("kept"), edited, "the edited file is left as it was");
    // A line cut in the middle by a stop is cut off, so the run resumes, and resumes again.
    std::fs::write(&state, format!("{before}k=1 r=0 theta=50,1")).unwrap();
    assert!(tune(&state, 2, &[]).status.success(), "resumed after a cut line");
    assert!(tune(&state, 3, &[]).status.success(), "and again");
    assert_eq!(iterations(&state).1.len(), 3);
    let fresh = dir.join("bad.txt");
    for bad in [
        &["--params", "razor_margn"][..],
        &["--params", "razor_margin,razor_margin"],
        &["--start", "cut_extra=2"],
        &["--start", "razor_margin=5000"],
        &["--time", "10"],
        &["--concurrency", "3"],
        &["--rate", "0"],
        &["--shard", "3/2"],
        &["--rule", "chess"],
    ] {
        assert_eq!(tune(&fresh, 1, bad).status.code(), Some(2), "{bad:?}");
    }
    assert!(!fresh.exists(), "a refused run writes nothing");
    assert_eq!(
        binary(&["tune", "--iterations", "3"]).status.code(),
        Some(2),
        "--params and --state are required"
    );
}
