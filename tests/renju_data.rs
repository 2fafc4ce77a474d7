//! Renju forbidden points against the test data (tests/data): every record must agree with the Gomocup
//! referee.

mod common;

use std::collections::BTreeMap;

use common::{position, read_json_lines, read_json_list};
use quincunx::game::board::Board;
use quincunx::game::renju;
use quincunx::game::rules::Rules;
use serde_json::Value;

fn renju_rules() -> Rules {
    Rules::from_mask(4, 5).0
}

/// Every forbidden point of `b`, in the data's notation (`H8` upper case) with its kind.
fn all_forbidden(b: &Board) -> BTreeMap<String, String> {
    renju_rules()
        .forbidden_points(b)
        .into_iter()
        .map(|p| (p.notation().to_uppercase(), renju::forbidden(b, p).unwrap().to_string()))
        .collect()
}

#[test]
fn random_1000_positions_agree_with_the_referee() {
    let (mut agree, mut total, mut failures) = (0, 0, vec![]);
    for rec in read_json_lines("renju/forbidden-random1000.jsonl") {
        let b = position(15, &rec["black"], &rec["white"]);
        let want: BTreeMap<String, String> =
            serde_json::from_value(rec["forbidden"].clone()).expect("points");
        let got = all_forbidden(&b);
        total += 1;
        if got == want {
            agree += 1;
        } else if failures.len() < 5 {
            failures.push(format!("{}: want {want:?}, got {got:?}\n{b}", rec["id"]));
        }
    }
    println!("renju forbidden points: {agree}/{total} positions agree");
    assert_eq!(total, 1000);
    assert!(failures.is_empty(), "{agree}/{total} agree; first differences:\n{}", failures.join("\n"));
}

fn kind_name(data: &str) -> &'static str {
    match data {
        "DoubleThree" => "double-three",
        "DoubleFour" => "double-four",
        "Overline" => "overline",
        other => panic!("unknown kind {other}"),
    }
}

#[test]
fn quintet_fixtures() {
    for rec in read_json_list("renju/forbidden-fixtures.json") {
        let id = &rec["id"];
        let b = position(15, &rec["black"], &rec["white"]);
        let got = all_forbidden(&b);
        let judge: Vec<String> =
            serde_json::from_value(rec["all_forbidden_by_gomocupjudge"].clone()).expect("points");
        assert_eq!(got.keys().cloned().collect::<Vec<_>>(), judge, "{id}: all forbidden points\n{b}");
        match rec["query"].as_str().expect("a query") {
            "all" => {
                let pairs: Vec<(String, String)> =
                    serde_json::from_value(rec["expected"].clone()).expect("pairs");
                for (kind, point) in &pairs {
                    assert_eq!(got.get(point).map(String::as_str), Some(kind_name(kind)), "{id}: {point}");
                }
            }
            point => {
                let want = match rec["expected"].as_str().expect("a kind") {
                    "None" => None,
                    k => Some(kind_name(k)),
                };
                assert_eq!(got.get(point).map(String::as_str), want, "{id}: {point}\n{b}");
            }
        }
    }
}

#[test]
fn edge_cases_follow_the_gomocup_reading() {
    for rec in read_json_list("renju/forbidden-edgecases.json") {
        let id = &rec["id"];
        let b = position(15, &rec["black"], &rec["white"]);
        let got = all_forbidden(&b);
        let point = rec["query"].as_str().expect("a point");
        assert_eq!(rec["gomocupjudge_forbidden"], got.contains_key(point), "{id}: {point}\n{b}");
        let literal: Vec<String> =
            serde_json::from_value(rec["all_forbidden_rif_literal"].clone()).expect("points");
        assert_eq!(got.keys().cloned().collect::<Vec<_>>(), literal, "{id}: all points\n{b}");
        if let Value::String(kind) = &rec["rif_literal_oracle"] {
            assert_eq!(got.get(point), Some(kind), "{id}: kind");
        }
    }
}
