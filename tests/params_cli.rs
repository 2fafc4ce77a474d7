//! The search's parameters from the command line: `params` lists them, `--set` changes what `bench`
//! (and the brain) search with, and a bad setting is a command-line mistake (status 2).

use std::process::{Command, Output, Stdio};

use quincunx::search::SPECS;

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pbrain-quincunx"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("the binary starts")
}

/// The node count of `bench` with `args` added (the last line's `nodes N`).
fn bench_nodes(args: &[&str]) -> u64 {
    let o = run(&[&["bench"], args].concat());
    assert!(o.status.success(), "bench {args:?}: {}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    let last = out.lines().last().expect("a summary line");
    let mut words = last.split_whitespace();
    assert_eq!(words.next(), Some("nodes"), "{last}");
    words.next().and_then(|n| n.parse().ok()).expect("a node count")
}

#[test]
fn params_lists_every_parameter_with_its_default_and_range() {
    let o = run(&["params"]);
    assert_eq!(o.status.code(), Some(0));
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    let rows: Vec<Vec<&str>> = out.lines().skip(1).map(|l| l.split_whitespace().collect()).collect();
    assert_eq!(rows.len(), SPECS.len());
    for (row, spec) in rows.iter().zip(SPECS) {
        let numbers: Vec<i64> = row[1..].iter().map(|v| v.parse().expect("a number")).collect();
        assert_eq!(row[0], spec.name);
        assert_eq!(numbers, [spec.default, spec.min, spec.max], "{}", spec.name);
    }
    assert!(rows.iter().any(|r| r[0] == "razor_margin"));
}

#[test]
fn every_default_set_by_hand_searches_the_signature() {
    let all: Vec<String> = SPECS.iter().map(|s| format!("{}={}", s.name, s.default)).collect();
    let plain = bench_nodes(&[]);
    assert_eq!(bench_nodes(&["--set", &all.join(",")]), plain);
}

#[test]
fn a_changed_margin_changes_the_search() {
    let plain = bench_nodes(&[]);
    assert_ne!(bench_nodes(&["--set", "razor_margin=20"]), plain);
    // Two --set options apply in order: the second puts the default back.
    assert_eq!(bench_nodes(&["--set", "razor_margin=20", "--set", "RAZOR_MARGIN=64"]), plain);
}

#[test]
fn a_bad_setting_is_a_usage_error() {
    for args in [
        &["bench", "--set", "razor_margn=40"][..],
        &["bench", "--set", "razor_margin=100000"],
        &["bench", "--set", "razor_margin=wide"],
        &["bench", "--set", "razor_margin"],
        &["bench", "--set"],
        &["--set", "no_such_parameter=1"],
        &["--set", "cut_extra=-1", "--threads", "1"],
    ] {
        let o = run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(o.stdout.is_empty(), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        assert_eq!(err.lines().filter(|l| l.starts_with("Error: ")).count(), 1, "{args:?}: {err}");
    }
}

#[test]
fn an_unknown_name_is_answered_with_the_nearest_one() {
    let o = run(&["bench", "--set", "futility_per_pli=50"]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("futility_per_ply?"));
}
