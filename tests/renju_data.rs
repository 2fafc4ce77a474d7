//! Renju forbidden points against the test data (tests/data): every record must agree with the Gomocup
//! referee.

mod common;

use std::collections::BTreeMap;

use common::{Json, position, read_data};
use quincunx::game::board::Board;
use quincunx::game::renju;
use quincunx::game::rules::Rules;

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
    let text = read_data("renju/forbidden-random1000.jsonl");
    let (mut agree, mut total, mut failures) = (0, 0, vec![]);
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let rec = Json::parse(line);
        let b = position(15, rec.get("black").arr(), rec.get("white").arr());
        let want: BTreeMap<String, String> =
            rec.get("forbidden").obj().iter().map(|(k, v)| (k.clone(), v.str().to_string())).collect();
        let got = all_forbidden(&b);
        total += 1;
        if got == want {
            agree += 1;
        } else if failures.len() < 5 {
            failures.push(format!("{}: want {want:?}, got {got:?}\n{b}", rec.get("id").str()));
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
    let all = Json::parse(&read_data("renju/forbidden-fixtures.json"));
    for rec in all.arr() {
        let id = rec.get("id").str();
        let b = position(15, rec.get("black").arr(), rec.get("white").arr());
        let got = all_forbidden(&b);
        let judge: Vec<String> =
            rec.get("all_forbidden_by_gomocupjudge").arr().iter().map(|j| j.str().into()).collect();
        assert_eq!(got.keys().cloned().collect::<Vec<_>>(), judge, "{id}: all forbidden points\n{b}");
        match rec.get("query").str() {
            "all" => {
                for pair in rec.get("expected").arr() {
                    let (kind, point) = (pair.arr()[0].str(), pair.arr()[1].str());
                    assert_eq!(got.get(point).map(String::as_str), Some(kind_name(kind)), "{id}: {point}");
                }
            }
            point => {
                let want = match rec.get("expected").str() {
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
    let all = Json::parse(&read_data("renju/forbidden-edgecases.json"));
    for rec in all.arr() {
        let id = rec.get("id").str();
        let b = position(15, rec.get("black").arr(), rec.get("white").arr());
        let got = all_forbidden(&b);
        let point = rec.get("query").str();
        assert_eq!(got.contains_key(point), rec.get("gomocupjudge_forbidden").bool(), "{id}: {point}\n{b}");
        let literal: Vec<String> =
            rec.get("all_forbidden_rif_literal").arr().iter().map(|j| j.str().into()).collect();
        assert_eq!(got.keys().cloned().collect::<Vec<_>>(), literal, "{id}: all points\n{b}");
        if let Json::Str(kind) = rec.get("rif_literal_oracle") {
            assert_eq!(got.get(point), Some(kind), "{id}: kind");
        }
    }
}
