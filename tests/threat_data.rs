//! The threat solvers against the test data (tests/data): generated VCF positions with proven minimum
//! lengths, and renju VCF/VCT puzzles. Times are printed for the record, never asserted (machines are noisy).

mod common;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use common::{game_of, pos, position, read_json_lines, read_json_list};
use quincunx::eval::position::Position;
use quincunx::game::board::{Board, Color};
use quincunx::game::pattern::Class;
use quincunx::game::pattern::Patterns;
use quincunx::game::rules::Rules;
use quincunx::player::timeman::CHECK_EVERY;
use quincunx::threat::{Solver, ThreatLimits, VcfMode, block_point, four_three_wins};

fn solver(stop: &AtomicBool) -> Solver<'_> {
    Solver::new(ThreatLimits { max_nodes: 5_000_000, stop, deadline: None })
}

/// The solvers look at the clock and the stop flag on the search's rhythm: with the deadline passed
/// (or the flag set) they give up within `CHECK_EVERY` nodes, in positions that take hundreds.
#[test]
fn a_solver_gives_up_within_the_clock_rhythm_once_its_time_is_up() {
    let (never, set) = (AtomicBool::new(false), AtomicBool::new(true));
    let mut heavy = 0;
    for row in read_json_lines("vcf/vcf-freestyle15.jsonl").iter().take(60) {
        let board = game_of(row);
        let pats = Arc::new(Patterns::new(&Rules::from_mask(0, 5).0).unwrap());
        let mut free = solver(&never);
        free.vct(&mut Position::new(&board, Arc::clone(&pats)), 7);
        if free.nodes <= CHECK_EVERY {
            continue;
        }
        heavy += 1;
        let past = Instant::now();
        for (stop, deadline) in [(&never, Some(past)), (&set, None)] {
            let mut s = Solver::new(ThreatLimits { max_nodes: 5_000_000, stop, deadline });
            assert_eq!(s.vct(&mut Position::new(&board, Arc::clone(&pats)), 7), None, "{row}");
            assert!(s.aborted() && s.nodes <= CHECK_EVERY, "{} nodes of {}: {row}", s.nodes, free.nodes);
        }
    }
    assert!(heavy >= 10, "only {heavy} positions take more than {CHECK_EVERY} nodes");
}

fn attacker_moves(line: &[usize]) -> usize {
    line.len().div_ceil(2)
}

fn check_vcf_file(file: &str) {
    let stop = AtomicBool::new(false);
    let (mut solved, mut positives, mut negatives, mut worst) = (0, 0, 0, 0.0f64);
    let mut check_found = 0;
    for row in read_json_lines(file) {
        let mask = if row["rule"] == "standard" { 1 } else { 0 };
        let board = game_of(&row);
        let side = if row["side_to_move"] == "black" { Color::Black } else { Color::White };
        assert_eq!(board.side_to_move(), side, "{row}");
        let pats = Arc::new(Patterns::new(&Rules::from_mask(mask, 5).0).unwrap());
        let mut p = Position::new(&board, pats);
        let mut s = solver(&stop);
        let t = Instant::now();
        let found = s.vcf(&mut p, 10);
        let secs = t.elapsed().as_secs_f64();
        // The search's threat check (the VCF walk on a node budget) may miss wins but must never
        // claim one that is not there.
        let check = Solver::with_nodes(64).vcf_walk(&mut p, 10, VcfMode::CHECK, &mut vec![]);
        check_found += u32::from(check);
        if row["vcf"].as_bool().expect("vcf or not") {
            positives += 1;
            worst = worst.max(secs);
            let line = found.unwrap_or_else(|| panic!("no VCF found: {row}"));
            let fours = attacker_moves(&line) - 1;
            assert_eq!(row["min_fours"], fours, "VCF not of minimum length: {row}");
            solved += 1;
        } else {
            negatives += 1;
            assert!(found.is_none(), "false VCF {:?}: {row}", found.map(|l| l.len()));
            assert!(!check, "false VCF of the threat check: {row}");
            assert!(!s.aborted(), "gave up on {row}");
        }
    }
    println!(
        "{file}: {solved}/{positives} VCFs of minimum length, {negatives} negatives without a false win, slowest {:.1} ms; \
         the threat check (64 nodes) found {check_found}",
        worst * 1000.0
    );
}

#[test]
fn freestyle_vcf_set() {
    check_vcf_file("vcf/vcf-freestyle15.jsonl");
}

#[test]
fn standard_vcf_set() {
    check_vcf_file("vcf/vcf-standard15.jsonl");
}

#[test]
fn renju_puzzles() {
    let stop = AtomicBool::new(false);
    let pats = Arc::new(Patterns::new(&Rules::from_mask(4, 5).0).unwrap());
    let (mut checks, mut first_moves, mut agree) = (0, 0, 0);
    let mut failures = vec![];
    for rec in read_json_list("renju/vcf-vct-puzzles.json") {
        if rec["slow_bench"].as_bool().expect("slow or not") {
            continue;
        }
        let id = rec["id"].as_str().expect("an id");
        let board: Board = position(15, &rec["black"], &rec["white"]);
        for c in rec["checks"].as_array().expect("checks") {
            let mode = c["mode"].as_str().expect("a mode");
            let limit = c["limit_attacker_moves"].as_u64().expect("a limit") as u32;
            let threat_limit = c["threat_limit"].as_u64().expect("a threat limit") as u32;
            let expect = c["expect"].as_str().expect("an expectation");
            // A "none" found with fewer threes allowed than ours says nothing about our solver.
            if expect == "none" && threat_limit < limit && mode.starts_with("VCT") {
                continue;
            }
            let attacker = if c["attacker"] == "Black" { Color::Black } else { Color::White };
            let mut p = Position::new(&board, Arc::clone(&pats));
            if p.side() != attacker {
                p.pass();
            }
            let mut s = solver(&stop);
            // quintet counts attacker moves up to the one that makes two five points (an open or
            // double four): our count of fours (VCF) or threats (VCT).
            let depth = limit.min(200);
            let found = if mode.starts_with("VCF") { s.vcf(&mut p, depth) } else { s.vct(&mut p, depth) };
            checks += 1;
            match (expect, found) {
                ("none", None) => agree += 1,
                ("none", Some(line)) => failures.push(format!(
                    "{id} {mode}/{limit}: false win starting {}",
                    p.pos_of(line[0]).notation()
                )),
                (want, None) => failures.push(format!("{id} {mode}/{limit}: no win found (expected {want})")),
                (want, Some(line)) => {
                    agree += 1;
                    let first = want.split(',').next().unwrap();
                    first_moves += 1;
                    if p.pos_of(line[0]) != pos(first) {
                        failures.push(format!(
                            "{id} {mode}/{limit}: first move {} (expected {first}); a different win is allowed",
                            p.pos_of(line[0]).notation().to_uppercase()
                        ));
                        first_moves -= 1;
                    }
                }
            }
        }
    }
    println!(
        "renju puzzles: {agree}/{checks} checks solved as expected, {first_moves} first moves equal\n{}",
        failures.join("\n")
    );
    // Known gap: the fukumi puzzle's win starts with a quiet move that threatens a VCF (not a three);
    // our VCT generates fours and threes only, so it finds no win there within the limit.
    let known_gaps = ["quintet-test_vct_fukumi_move"];
    let hard: Vec<&String> = failures
        .iter()
        .filter(|f| !f.contains("a different win is allowed"))
        .filter(|f| !known_gaps.iter().any(|g| f.starts_with(g)))
        .collect();
    assert!(hard.is_empty(), "{hard:#?}");
}

/// Every four-three win `four_three_wins` claims along the VCF sets' games (each prefix, the side to
/// move as the attacker, freestyle and exact five, and the same games under renju) is played out: the
/// four, its forced block, and then an open four of the attacker's with no five point of the
/// defender's. The search returns such a claim as a win in five plies without searching it.
#[test]
fn four_three_wins_hold_when_played_out() {
    let mut claims = 0;
    for (file, masks) in [("vcf/vcf-freestyle15.jsonl", [0, 4]), ("vcf/vcf-standard15.jsonl", [1, 4])] {
        for mask in masks {
            let pats = Arc::new(Patterns::new(&Rules::from_mask(mask, 5).0).unwrap());
            for row in read_json_lines(file) {
                let board = game_of(&row);
                let n = board.width() as i64;
                let mut p = Position::new(&Board::new(n, n).unwrap(), Arc::clone(&pats));
                for &m in board.history() {
                    p.play(p.index(m));
                    let (me, opp) = (p.side(), p.side().opp());
                    if p.count(opp, Class::Five) > 0 || !four_three_wins(&p, me) {
                        continue;
                    }
                    claims += 1;
                    let points: Vec<usize> =
                        p.indices().filter(|&t| p.is_empty(t) && p.class(t, me) == Class::B4F3).collect();
                    let wins = points.into_iter().any(|t| {
                        p.play(t);
                        let held = block_point(&p, me).is_some_and(|f| {
                            p.play(f);
                            let open_four = p.count(opp, Class::Five) == 0 && p.count(me, Class::Flex4) > 0;
                            p.undo();
                            open_four
                        });
                        p.undo();
                        held
                    });
                    assert!(wins, "rule {mask}, {file}: a false four-three win after {}", p.ply());
                }
            }
        }
    }
    println!("four-three wins claimed and played out: {claims}");
    assert!(claims > 10, "the games have four-three wins to check: {claims}");
}
