//! What a match found: each pairing's results from its first engine's side, in total, by colour and by
//! opening, each engine's answer times, the losses by fault, the SPRT's state ([`Summary`]), and the
//! text that tells them with their error bars ([`Summary::render`], [`Summary::render_openings`]).
//!
//! Invariant: a summary adds up: every pairing's total is the sum of its games by colour, and a merge
//! of shards ([`super::results`]) gives the summary of the whole run.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use crate::tools::matches::elo::{Sprt, SprtVerdict, Wld};
use crate::tools::matches::opening_gen::plural;
use crate::tools::matches::shard::Shard;
use crate::tools::record::write::OutputError;

/// One pairing's results from the first engine's side.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PairResult {
    pub a: usize,
    pub b: usize,
    pub total: Wld,
    /// With `a` as black, and as white.
    pub a_black: Wld,
    pub a_white: Wld,
    /// Per opening, by its number in the file (from 1, as the skip warnings count: blank and comment
    /// lines are not openings): `a`'s results as black and as white.
    pub by_opening: BTreeMap<usize, [Wld; 2]>,
}

/// One engine's answer times.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimeStats {
    pub answers: u64,
    pub total_us: u64,
    pub worst_us: u64,
    /// The largest answer time as a fraction of its budget.
    pub worst_fraction: f64,
}

/// As a results file holds it (`results`), without what the run's identity gives (`#[serde(skip)]`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Summary {
    #[serde(skip)]
    pub names: Vec<String>,
    pub pairs: Vec<PairResult>,
    /// (engine, what happened) → games lost that way, for faults and fouls.
    #[serde(with = "losses")]
    pub losses: BTreeMap<(usize, String), u32>,
    pub times: Vec<TimeStats>,
    pub games: usize,
    pub scheduled: usize,
    /// The SPRT's LLR and verdict; once decided, as they were at the decision (games still in
    /// progress then are counted in the results but do not undo it).
    pub sprt: Option<(Sprt, f64, SprtVerdict)>,
    pub seconds: f64,
    /// Openings that do not fit the board or break the rules, by number in the file: skipped.
    pub skipped_openings: Vec<usize>,
    /// Fresh openings: what draws them again.
    #[serde(skip)]
    pub fresh: Option<FreshOpenings>,
    /// The first game record that could not be written (the match stopped there).
    #[serde(skip)]
    pub output_error: Option<OutputError>,
    /// The part of the run played ([`Shard::WHOLE`] for a whole run and a merge).
    pub shard: Shard,
    /// A fingerprint (FNV-1a) of the openings in the order they are played: the same in every
    /// shard of a run.
    #[serde(skip)]
    pub openings_id: u64,
}

/// Fresh openings as a run drew them: what `match` needs to draw the same ones again.
#[derive(Clone, Debug, PartialEq)]
pub struct FreshOpenings {
    pub count: usize,
    pub seed: u64,
    /// The generator's other options as `match` takes them (`--stones 3-10 --margin 60 --depth 12`):
    /// a run with other than the defaults is repeated only with them.
    pub options: String,
}

/// The losses as a list of `{engine, what, count}` (JSON's keys are strings, not pairs).
mod losses {
    use std::collections::BTreeMap;

    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    #[derive(Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Loss {
        engine: usize,
        what: String,
        count: u32,
    }

    pub fn serialize<S: Serializer>(map: &BTreeMap<(usize, String), u32>, s: S) -> Result<S::Ok, S::Error> {
        let list: Vec<Loss> = map
            .iter()
            .map(|((engine, what), &count)| Loss { engine: *engine, what: what.clone(), count })
            .collect();
        list.serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<BTreeMap<(usize, String), u32>, D::Error> {
        let list = Vec::<Loss>::deserialize(d)?;
        Ok(list.into_iter().map(|l| ((l.engine, l.what), l.count)).collect())
    }
}

/// Brings the SPRT of the first pairing up to date after a game, unless it has decided already; true
/// when it decides now (the match stops).
pub(super) fn sprt_decides(s: &mut Summary, sprt: Sprt) -> bool {
    if s.sprt.is_some_and(|(_, _, v)| v != SprtVerdict::Continue) {
        return false;
    }
    let r = s.pairs[0].total;
    let verdict = sprt.verdict(&r);
    s.sprt = Some((sprt, sprt.llr(&r), verdict));
    verdict != SprtVerdict::Continue
}

pub(super) fn duration(secs: f64) -> String {
    let s = secs.round() as u64;
    if s >= 3600 {
        format!("{}h{:02}m", s / 3600, s % 3600 / 60)
    } else {
        format!("{}m{:02}s", s / 60, s % 60)
    }
}

pub(super) fn elo_text(e: f64) -> String {
    // Rounding would otherwise show an even score as "-0".
    let e = if e.abs() < 0.5 { 0.0 } else { e };
    if e.is_finite() {
        format!("{e:+.0}")
    } else if e > 0.0 {
        "+inf".into()
    } else {
        "-inf".into()
    }
}

impl Summary {
    /// The results as a table for people.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let fresh = self.fresh.as_ref().map_or(String::new(), |f| {
            format!(", {}, seed {} ({})", plural(f.count as u64, "fresh opening"), f.seed, f.options)
        });
        let shard = if self.shard.is_whole() { String::new() } else { format!(", shard {}", self.shard) };
        let _ = writeln!(
            out,
            "{} in {}{fresh}{shard}",
            plural(self.games as u64, "game"),
            duration(self.seconds)
        );
        for p in &self.pairs {
            let (a, b) = (&self.names[p.a], &self.names[p.b]);
            let t = p.total;
            let (lo, hi) = t.score_interval();
            let (elo_lo, elo_hi) = t.elo_interval();
            let _ = writeln!(
                out,
                "{a} vs {b}: +{} -{} ={}  score {:.1}/{} = {:.1}% [{:.1}%, {:.1}%]  Elo {} [{}, {}]",
                t.wins,
                t.losses,
                t.draws,
                t.points(),
                t.games(),
                100.0 * t.score(),
                100.0 * lo,
                100.0 * hi,
                elo_text(t.elo()),
                elo_text(elo_lo),
                elo_text(elo_hi)
            );
            for (label, r) in [("black", p.a_black), ("white", p.a_white)] {
                let _ = writeln!(out, "  {a} as {label}: +{} -{} ={}", r.wins, r.losses, r.draws);
            }
        }
        if let Some((sprt, llr, verdict)) = &self.sprt {
            let (lo, hi) = sprt.bounds();
            let v = match verdict {
                SprtVerdict::AcceptH0 => "H0 accepted",
                SprtVerdict::AcceptH1 => "H1 accepted",
                SprtVerdict::Continue => "no decision",
            };
            let _ = writeln!(
                out,
                "SPRT elo0={} elo1={} alpha={} beta={}: LLR {llr:.2} in [{lo:.2}, {hi:.2}], {v}",
                sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta
            );
        }
        let _ = writeln!(out, "answer times (mean / worst / worst share of the budget):");
        for (i, t) in self.times.iter().enumerate() {
            let mean = if t.answers > 0 { t.total_us as f64 / t.answers as f64 / 1000.0 } else { 0.0 };
            let _ = writeln!(
                out,
                "  {}: {mean:.2} ms / {:.2} ms / {:.1}% over {} answers",
                self.names[i],
                t.worst_us as f64 / 1000.0,
                100.0 * t.worst_fraction,
                t.answers
            );
        }
        if self.losses.is_empty() {
            let _ = writeln!(out, "faults: none");
        } else {
            let _ = writeln!(out, "games lost to faults and fouls:");
            for ((engine, what), count) in &self.losses {
                let _ = writeln!(out, "  {}: {count} x {what}", self.names[*engine]);
            }
        }
        out
    }

    /// Each pairing's results per opening, in the file's order: where an engine's score leans on a
    /// few openings (the shared ones favour the first player, so both colours are shown).
    pub fn render_openings(&self) -> String {
        let mut out = String::new();
        for p in self.pairs.iter().filter(|p| !p.by_opening.is_empty()) {
            let (a, b) = (&self.names[p.a], &self.names[p.b]);
            let _ = writeln!(
                out,
                "{a} vs {b} by opening (its number in the file: {a} as black, as white, score):"
            );
            for (number, [black, white]) in &p.by_opening {
                let mut both = *black;
                both.add(*white);
                let _ = writeln!(
                    out,
                    "  {number:>4}: +{} -{} ={}, +{} -{} ={}, {:.1}/{} ({:.0}%)",
                    black.wins,
                    black.losses,
                    black.draws,
                    white.wins,
                    white.losses,
                    white.draws,
                    both.points(),
                    both.games(),
                    100.0 * both.score()
                );
            }
        }
        out
    }
}
