//! The evaluation model: the learned numbers of the evaluation, and the tables the search reads them
//! through.
//!
//! A model holds, for each rule family (freestyle, exact five, renju, caro), each colour and each role
//! (the side to move, the side that waits), a value for every combination of four line shapes an empty
//! cell can have (the 1365 multisets of four of the twelve shapes: the order of the four directions
//! does not matter); for each family a value for every combination of the threat classes each side has
//! on the board (`Position::threat_mask`); and a constant for each family and colour to move. All in
//! tenths of a point. It also carries the move prior that orders the search's moves (`eval::policy`). A position's evaluation is the constant, plus the side to move's cells as the
//! mover, plus the other side's cells as the waiter, plus the threat value (`Position::fitted_eval`).
//!
//! The model is text ([`EvalModel::parse`], [`EvalModel::to_text`]; docs/training.md): `train` writes
//! one, the binary embeds `src/eval/model.txt` and `--weights FILE` loads another at start.
//!
//! Invariant: an [`Evaluator`] is built once from a model and never changes; the search reads it
//! through a `&'static` reference (the embedded model's is built once per process, a loaded one is
//! built once at start and kept for the process's life).

use std::fmt::Write as _;
use std::sync::OnceLock;

use crate::eval::policy::Prior;
use crate::eval::terms::{ComboEntry, MOVER, WAITER, base_combo_entry, combo_index};
use crate::game::pattern::{Class, Shape};
use crate::game::rules::{Rules, Variant};

/// The rule families a model tells apart, in file order.
pub const FAMILIES: [&str; 4] = ["freestyle", "exact", "renju", "caro"];
/// The combinations of four shapes, without order.
pub const KEYS: usize = 1365;
/// The threat combinations (`Position::threat_mask`: 9 bits).
pub const THREATS: usize = 512;
const COLOURS: [&str; 2] = ["black", "white"];
const ROLES: [&str; 2] = ["mover", "waiter"];
/// The prior's lines: its parts, each by role (the distances by the move they are measured from).
const PRIOR_PARTS: [&str; 4] = ["shape", "class", "pair", "distance"];
const PRIOR_DISTANCE_ROLES: [&str; 2] = ["last", "before"];
const PRIOR_LINES: usize = 8;

/// The model embedded in the binary.
const EMBEDDED: &str = include_str!("model.txt");

/// The family whose numbers evaluate a game of `rules` (Pente evaluates otherwise and takes freestyle's
/// tables for what they hold besides: classes and weights).
pub fn family(rules: &Rules) -> usize {
    match rules.variant {
        Variant::Freestyle | Variant::Pente { .. } => 0,
        Variant::Exact => 1,
        Variant::Renju => 2,
        Variant::Caro { .. } => 3,
    }
}

/// The multisets of four shapes in key order (each sorted, ascending, in lexicographic order), and the
/// key of every ordered combination (`combo_index`).
struct Keys {
    shapes: Vec<[Shape; 4]>,
    of_combo: Vec<u16>,
}

fn keys() -> &'static Keys {
    static KEYS_TABLE: OnceLock<Keys> = OnceLock::new();
    KEYS_TABLE.get_or_init(|| {
        let n = Shape::COUNT as u8;
        let mut shapes = vec![];
        for a in 0..n {
            for b in a..n {
                for c in b..n {
                    for d in c..n {
                        shapes.push([a, b, c, d].map(Shape::from_index));
                    }
                }
            }
        }
        debug_assert_eq!(shapes.len(), KEYS);
        let mut of_combo = vec![0u16; Shape::COUNT.pow(4)];
        for (k, s) in shapes.iter().enumerate() {
            // Every order of the multiset has its key.
            let mut p = *s;
            loop {
                of_combo[combo_index(p)] = k as u16;
                if !next_permutation(&mut p) {
                    break;
                }
            }
        }
        Keys { shapes, of_combo }
    })
}

/// The next arrangement in lexicographic order (`false` after the last).
fn next_permutation(s: &mut [Shape; 4]) -> bool {
    let Some(i) = (0..3).rev().find(|&i| s[i] < s[i + 1]) else { return false };
    let j = (i + 1..4).rev().find(|&j| s[j] > s[i]).unwrap_or(i + 1);
    s.swap(i, j);
    s[i + 1..].reverse();
    true
}

/// The key of four shapes in any order.
pub fn key_of(s: [Shape; 4]) -> usize {
    keys().of_combo[combo_index(s)] as usize
}

/// The shapes of key `k`, sorted.
pub fn shapes_of(k: usize) -> [Shape; 4] {
    keys().shapes[k]
}

/// Where the value of (family, colour, role, key) lies in [`EvalModel::cells`].
pub fn cell_index(family: usize, colour: usize, role: usize, key: usize) -> usize {
    ((family * 2 + colour) * 2 + role) * KEYS + key
}

/// The learned numbers (see the module doc), in tenths of a point.
#[derive(Clone, Debug, PartialEq)]
pub struct EvalModel {
    /// By [`cell_index`].
    pub cells: Vec<i32>,
    /// By family, then the colour to move.
    pub bias: [[i32; 2]; 4],
    /// By family, then the threat combination.
    pub threat: Vec<i32>,
    /// The move prior: [`Prior::STANDARD`] unless the file gives all its `prior` lines.
    pub prior: Prior,
    /// How the model was made: the file's comment lines after the first.
    pub about: Vec<String>,
}

impl EvalModel {
    /// The model embedded in the binary.
    pub fn embedded() -> &'static EvalModel {
        static MODEL: OnceLock<EvalModel> = OnceLock::new();
        MODEL.get_or_init(|| EvalModel::parse(EMBEDDED).expect("the embedded model reads"))
    }

    /// A model of zeros.
    pub fn zero() -> EvalModel {
        EvalModel {
            cells: vec![0; 4 * 2 * 2 * KEYS],
            bias: [[0; 2]; 4],
            threat: vec![0; 4 * THREATS],
            prior: Prior::STANDARD,
            about: vec![],
        }
    }

    /// Reads a model file; every value must be there, once.
    pub fn parse(text: &str) -> Result<EvalModel, String> {
        let mut m = EvalModel::zero();
        let mut seen = [false; 4 * 2 * 2 + 4 + 4 + PRIOR_LINES];
        let find = |names: &[&str], w: Option<&str>, what: &str| {
            let w = w.ok_or_else(|| format!("a {what} is missing"))?;
            names.iter().position(|n| *n == w).ok_or_else(|| format!("'{w}' is not a {what}"))
        };
        let numbers = |w: Option<&str>, n: usize| -> Result<Vec<i32>, String> {
            let v: Vec<i32> = w
                .unwrap_or("")
                .split(',')
                .map(|x| x.trim().parse::<i32>().map_err(|_| format!("'{x}' is not a whole number")))
                .collect::<Result<_, _>>()?;
            if v.len() == n { Ok(v) } else { Err(format!("{} values where {n} belong", v.len())) }
        };
        let mut lines = text.lines().enumerate();
        match lines.next() {
            Some((_, l)) if l.starts_with("# quincunx evaluation model v1") => {}
            _ => return Err("not a model file (its first line names the format)".into()),
        }
        for (i, line) in lines {
            let line = line.trim();
            if let Some(c) = line.strip_prefix('#') {
                m.about.push(c.trim().to_string());
                continue;
            }
            if line.is_empty() {
                continue;
            }
            let at = |e: String| format!("line {}: {e}", i + 1);
            let mut w = line.split_whitespace();
            let slot = match w.next() {
                Some("cells") => {
                    let f = find(&FAMILIES, w.next(), "family").map_err(at)?;
                    let c = find(&COLOURS, w.next(), "colour").map_err(at)?;
                    let r = find(&ROLES, w.next(), "role").map_err(at)?;
                    let v = numbers(w.next(), KEYS).map_err(at)?;
                    let start = cell_index(f, c, r, 0);
                    m.cells[start..start + KEYS].copy_from_slice(&v);
                    (f * 2 + c) * 2 + r
                }
                Some("threat") => {
                    let f = find(&FAMILIES, w.next(), "family").map_err(at)?;
                    let v = numbers(w.next(), THREATS).map_err(at)?;
                    m.threat[f * THREATS..(f + 1) * THREATS].copy_from_slice(&v);
                    16 + f
                }
                Some("bias") => {
                    let f = find(&FAMILIES, w.next(), "family").map_err(at)?;
                    let v = numbers(w.next(), 2).map_err(at)?;
                    m.bias[f] = [v[0], v[1]];
                    20 + f
                }
                Some("prior") => {
                    let part = find(&PRIOR_PARTS, w.next(), "part of the prior").map_err(at)?;
                    let roles = if part == 3 { &PRIOR_DISTANCE_ROLES } else { &ROLES };
                    let r = find(roles, w.next(), "role").map_err(at)?;
                    let p = &mut m.prior;
                    let slot: &mut [i32] = match part {
                        0 => &mut p.shape[r],
                        1 => &mut p.class[r],
                        2 => &mut p.pair[r],
                        _ => &mut p.distance[r],
                    };
                    let v = numbers(w.next(), slot.len()).map_err(at)?;
                    slot.copy_from_slice(&v);
                    24 + part * 2 + r
                }
                other => {
                    return Err(at(format!("'{}' is not cells, threat, bias or prior", other.unwrap_or(""))));
                }
            };
            if std::mem::replace(&mut seen[slot], true) {
                return Err(at("given twice".into()));
            }
        }
        // The prior's lines are all there or none (the standard prior).
        let last = if seen[24..].iter().any(|&s| s) { seen.len() } else { 24 };
        if let Some(k) = seen[..last].iter().position(|s| !s) {
            return Err(format!("values are missing ({})", slot_name(k)));
        }
        Ok(m)
    }

    /// The model as its file: the format line, `about` as comments, then the values.
    pub fn to_text(&self) -> String {
        let mut out = String::from("# quincunx evaluation model v1 (tenths of a point; docs/training.md)\n");
        for a in &self.about {
            let _ = writeln!(out, "# {a}");
        }
        let join = |v: &[i32]| v.iter().map(i32::to_string).collect::<Vec<_>>().join(",");
        for (f, family) in FAMILIES.iter().enumerate() {
            let _ = writeln!(out, "bias {family} {}", join(&self.bias[f]));
            let _ = writeln!(out, "threat {family} {}", join(&self.threat[f * THREATS..(f + 1) * THREATS]));
            for (c, colour) in COLOURS.iter().enumerate() {
                for (r, role) in ROLES.iter().enumerate() {
                    let start = cell_index(f, c, r, 0);
                    let _ = writeln!(
                        out,
                        "cells {family} {colour} {role} {}",
                        join(&self.cells[start..start + KEYS])
                    );
                }
            }
        }
        // A standard prior is left out, so that a model without one reads in binaries that predate it.
        if self.prior != Prior::STANDARD {
            let p = &self.prior;
            for r in 0..2 {
                let _ = writeln!(out, "prior shape {} {}", ROLES[r], join(&p.shape[r]));
                let _ = writeln!(out, "prior class {} {}", ROLES[r], join(&p.class[r]));
                let _ = writeln!(out, "prior pair {} {}", ROLES[r], join(&p.pair[r]));
                let _ = writeln!(out, "prior distance {} {}", PRIOR_DISTANCE_ROLES[r], join(&p.distance[r]));
            }
        }
        out
    }
}

fn slot_name(k: usize) -> String {
    match k {
        0..16 => format!("cells {} {} {}", FAMILIES[k / 4], COLOURS[k / 2 % 2], ROLES[k % 2]),
        16..20 => format!("threat {}", FAMILIES[k - 16]),
        20..24 => format!("bias {}", FAMILIES[k - 20]),
        _ => {
            let (part, r) = ((k - 24) / 2, (k - 24) % 2);
            let role = if part == 3 { PRIOR_DISTANCE_ROLES[r] } else { ROLES[r] };
            format!("prior {} {role}", PRIOR_PARTS[part])
        }
    }
}

/// One family's tables: every ordered combination of four shapes per colour (its class, weight,
/// prior and the model's terms), the constant by colour to move, the threat values.
#[derive(Debug)]
pub struct FamilyTables {
    pub(crate) combo: [Vec<ComboEntry>; 2],
    pub(crate) bias: [i64; 2],
    pub(crate) threat: Vec<i64>,
    /// The model's move prior (its cell terms are in `combo`; the distances are read here).
    pub(crate) prior: Prior,
}

/// A model's tables for every family, built once.
#[derive(Debug)]
pub struct Evaluator {
    families: Vec<FamilyTables>,
}

impl Evaluator {
    /// The tables of `model`.
    pub fn build(model: &EvalModel) -> Evaluator {
        let families = (0..FAMILIES.len())
            .map(|f| {
                let renju = f == family(&Rules::named("renju").unwrap_or_default());
                let table = |colour: usize| -> Vec<ComboEntry> {
                    // Renju black's table knows its fouls; every other table is the same one.
                    let fouls = renju && colour == 0;
                    (0..Shape::COUNT.pow(4))
                        .map(|i| {
                            let s = combo_from_index(i);
                            let mut e = base_combo_entry(s, fouls, &model.prior);
                            let k = key_of(s);
                            // A renju foul is worth nothing: black cannot play there.
                            if e.class != Class::Forbidden {
                                e.terms[MOVER] = model.cells[cell_index(f, colour, 0, k)];
                                e.terms[WAITER] = model.cells[cell_index(f, colour, 1, k)];
                            }
                            e
                        })
                        .collect()
                };
                FamilyTables {
                    combo: [table(0), table(1)],
                    bias: model.bias[f].map(i64::from),
                    threat: model.threat[f * THREATS..(f + 1) * THREATS].iter().map(|&v| v as i64).collect(),
                    prior: model.prior.clone(),
                }
            })
            .collect();
        Evaluator { families }
    }

    /// The embedded model's tables, built once for the process.
    pub fn standard() -> &'static Evaluator {
        static STANDARD: OnceLock<Evaluator> = OnceLock::new();
        STANDARD.get_or_init(|| Evaluator::build(EvalModel::embedded()))
    }

    /// The tables of a model loaded at start, kept for the process's life (a brain loads one model).
    pub fn leak(model: &EvalModel) -> &'static Evaluator {
        Box::leak(Box::new(Evaluator::build(model)))
    }

    /// The tables that evaluate a game of `rules`.
    pub fn family(&self, rules: &Rules) -> &FamilyTables {
        &self.families[family(rules)]
    }
}

/// The four shapes of an ordered combination's index (`combo_index`'s inverse).
fn combo_from_index(mut i: usize) -> [Shape; 4] {
    let mut s = [Shape::None; 4];
    for x in s.iter_mut().rev() {
        *x = Shape::from_index((i % Shape::COUNT) as u8);
        i /= Shape::COUNT;
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_order_of_four_shapes_has_its_multisets_key() {
        assert_eq!(keys().shapes.len(), KEYS);
        let s = [Shape::F3, Shape::None, Shape::B4, Shape::F3];
        let k = key_of(s);
        assert_eq!(shapes_of(k), [Shape::None, Shape::F3, Shape::F3, Shape::B4]);
        assert_eq!(key_of([Shape::B4, Shape::F3, Shape::F3, Shape::None]), k);
        for i in [0, 77, 20735] {
            assert_eq!(combo_index(combo_from_index(i)), i);
        }
    }

    #[test]
    fn a_model_reads_back_from_its_text_and_a_broken_one_is_refused() {
        let m = EvalModel::embedded();
        assert_eq!(&EvalModel::parse(&m.to_text()).expect("its own text"), m);
        let text = m.to_text();
        let without_last = text.lines().take(text.lines().count() - 1).collect::<Vec<_>>().join("\n");
        assert!(EvalModel::parse(&without_last).is_err(), "a missing line");
        assert!(EvalModel::parse("cells freestyle black mover 1").is_err(), "no format line");
        let doubled = format!("{text}{}\n", text.lines().last().unwrap_or(""));
        assert!(EvalModel::parse(&doubled).is_err(), "a line twice");
    }

    #[test]
    fn a_fitted_prior_reads_back_and_half_a_prior_is_refused() {
        let mut m = EvalModel::embedded().clone();
        assert!(!m.to_text().contains("prior"), "the standard prior is left out");
        m.prior.pair[1][5] = -7;
        m.prior.distance[0][0] = 99;
        let text = m.to_text();
        assert_eq!(EvalModel::parse(&text).expect("its own text"), m);
        let half: String =
            text.lines().filter(|l| !l.starts_with("prior class")).map(|l| l.to_string() + "\n").collect();
        assert!(EvalModel::parse(&half).is_err());
    }
}
