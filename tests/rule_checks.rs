//! The Gomocup referee's rule-understanding checks (GomocupJudge `test_zip_rules.py`;
//! rules.md, "Rule checks every Gomocup engine must pass"),
//! played by every form of the classic weight-matrix player: an engine that fails one is refused entry.

mod common;

use common::game;
use quincunx::eval::weights::{Style, Table, WeightMatrix};
use quincunx::game::rules::Rules;

fn players() -> Vec<WeightMatrix> {
    let mut v = vec![];
    for table in [Table::Proportional, Table::Tuple] {
        for style in [Style::Balanced, Style::Defensive] {
            v.push(WeightMatrix { table, style });
        }
    }
    v
}

/// Every player answers `moves` (pos notation, black first) under `rule` with one of `accepted`, or
/// anything but `refused`.
fn check(rule: i64, moves: &str, accepted: &[&str], refused: &[&str]) {
    let board = game(15, moves);
    let rules = Rules::from_mask(rule, 5).0;
    for p in players() {
        let (m, _) = p.choose(&board, &rules).expect("a move");
        let m = m.notation();
        if !accepted.is_empty() {
            assert!(
                accepted.contains(&m.as_str()),
                "rule {rule}, {moves}: {p:?} played {m}, wanted {accepted:?}"
            );
        }
        assert!(!refused.contains(&m.as_str()), "rule {rule}, {moves}: {p:?} played the refused {m}");
    }
}

#[test]
fn every_rule_completes_an_open_four() {
    for rule in [0, 1, 4, 8, 9] {
        check(rule, "h8h9i8i9j8j9k8k9", &["g8", "l8"], &[]);
    }
}

#[test]
fn standard_defends_instead_of_making_an_overline() {
    check(1, "h8h9i8h10g8h11j13h12g14h14i15", &["f8", "j8"], &[]);
}

#[test]
fn freestyle_takes_the_overline_win() {
    check(0, "h8h9i8h10g8h11j13h12g14h14i15", &["h13"], &[]);
}

#[test]
fn renju_black_avoids_the_double_three() {
    check(4, "h8h9i7i9h10i6i11i12", &[], &["g9"]);
}

#[test]
fn caro_defends_instead_of_a_five_closed_at_both_ends() {
    check(8, "h8f8g8f9i8f7j8l8", &["f5", "f6", "f10", "f11"], &[]);
}
