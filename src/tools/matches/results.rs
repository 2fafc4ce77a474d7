//! Results files and their merge: a match's results written for a program to read (`match --results
//! FILE`), and the parts of one run played on several machines (`--shard K/N`) added up into the
//! whole run's [`Summary`] (`match --merge`), which prints as the whole run's own.
//!
//! The format is one JSON object (serde): `"format": "quincunx-match-results"` and `"version"` first,
//! then `run` (the run's identity, the same in every shard: engines' names, pairings, rules, board,
//! times, openings and their fingerprint, SPRT bounds, shard count), `commands` (the engines' command
//! lines, told but not compared: the same engine may live at another path on another machine) and
//! `results` (the shard played, games, pairings' tallies overall, by colour and by opening, answer
//! times, losses by reason, where an unsharded run's SPRT ended). Version 1 (a text format) is
//! refused with a message saying which program reads it.
//!
//! Invariants: [`parse`] gives back the [`Part`] that was written, and refuses anything else (another
//! format or version, a missing field, counts that do not add up) saying what; [`merge`] adds up only
//! files of one run, each shard at most once, and computes the SPRT's state from the sum.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::tools::matches::config::{MatchConfig, pairings};
use crate::tools::matches::elo::{Sprt, SprtVerdict, Wld};
use crate::tools::matches::shard::Shard;
use crate::tools::matches::summary::{FreshOpenings, Summary};

const FORMAT: &str = "quincunx-match-results";
const VERSION: u32 = 2;

/// What makes results files parts of one run: everything here but the shard's number.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunId {
    /// The engines' names as the summary shows them (made distinct).
    pub names: Vec<String>,
    pub gauntlet: bool,
    /// The rules in words.
    pub rules: String,
    pub width: usize,
    pub height: usize,
    pub turn_ms: u64,
    pub game_ms: u64,
    pub max_stones: usize,
    pub games_per_pair: usize,
    /// Where the openings come from: `none`, `file COUNT` or `fresh COUNT seed S stones A-B margin M
    /// depth D`.
    pub openings: String,
    pub shuffle: Option<u64>,
    /// [`Summary::openings_id`].
    pub openings_id: u64,
    /// How many shards the run is split into (1: not split).
    pub shards: usize,
    pub sprt: Option<Sprt>,
}

/// Where `cfg`'s openings come from, in a run's identity: `none`, `file COUNT` or `fresh COUNT seed S
/// stones A-B margin M depth D`.
pub(super) fn openings_words(cfg: &MatchConfig) -> String {
    match &cfg.fresh {
        Some((count, g)) => format!(
            "fresh {count} seed {} stones {}-{} margin {} depth {}",
            g.seed, g.stones.0, g.stones.1, g.margin, g.depth
        ),
        None if cfg.openings.is_empty() => "none".into(),
        None => format!("file {}", cfg.openings.len()),
    }
}

/// The fresh openings that [`openings_words`] names (`None`: a file's or none); the words after the
/// seed are the generator's options, each a name and its value (older files name fewer).
pub(super) fn fresh_of(words: &str) -> Result<Option<FreshOpenings>, String> {
    let bad = || format!("openings: '{words}' is not none, file N or fresh N seed S [option value]...");
    match words.split_whitespace().collect::<Vec<_>>()[..] {
        ["none"] | ["file", _] => Ok(None),
        ["fresh", count, "seed", seed, ref rest @ ..] if rest.len() % 2 == 0 => {
            let (count, seed) = count.parse().ok().zip(seed.parse().ok()).ok_or_else(bad)?;
            let options =
                rest.chunks(2).map(|kv| format!("--{} {}", kv[0], kv[1])).collect::<Vec<_>>().join(" ");
            Ok(Some(FreshOpenings { count, seed, options }))
        }
        _ => Err(bad()),
    }
}

impl RunId {
    /// The run `cfg` describes, as `s` played it.
    pub fn of(cfg: &MatchConfig, s: &Summary) -> RunId {
        let openings = openings_words(cfg);
        RunId {
            names: s.names.clone(),
            gauntlet: cfg.gauntlet,
            rules: cfg.game.rules.to_string(),
            width: cfg.game.width,
            height: cfg.game.height,
            turn_ms: cfg.game.turn_ms,
            game_ms: cfg.game.game_ms,
            max_stones: cfg.game.max_stones,
            games_per_pair: cfg.games_per_pair,
            openings,
            shuffle: cfg.shuffle_seed,
            openings_id: s.openings_id,
            shards: cfg.shard.count,
            sprt: cfg.sprt,
        }
    }

    /// The first part (by name) in which `other` differs: (what, ours, theirs).
    fn difference(&self, other: &RunId) -> Option<(String, String, String)> {
        let (ours, theirs) = (serde_json::to_value(self).ok()?, serde_json::to_value(other).ok()?);
        let (ours, theirs) = (ours.as_object()?, theirs.as_object()?);
        ours.iter().find(|&(k, v)| theirs.get(k) != Some(v)).map(|(k, v)| {
            let word = |v: Option<&serde_json::Value>| match v {
                Some(serde_json::Value::String(s)) => s.clone(),
                Some(v) => v.to_string(),
                None => String::new(),
            };
            (k.replace('_', " "), word(Some(v)), word(theirs.get(k)))
        })
    }
}

/// One results file: one run's results, or one shard's.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Part {
    #[serde(rename = "run")]
    pub id: RunId,
    /// The engines' command lines, as told (not compared).
    pub commands: Vec<String>,
    /// The results: `shard` says which part, `sprt` where an unsharded run's SPRT ended. The fields
    /// the run's identity gives (names, openings' fingerprint and fresh seed) are not written twice.
    #[serde(rename = "results")]
    pub summary: Summary,
}

/// The file as written: its format and version, then the part.
#[derive(Serialize)]
struct Written<'a> {
    format: &'static str,
    version: u32,
    #[serde(flatten)]
    part: &'a Part,
}

/// What a file says it is, read before the rest.
#[derive(Deserialize)]
struct Kind {
    format: Option<String>,
    version: Option<u32>,
}

impl Part {
    pub fn of(cfg: &MatchConfig, s: &Summary) -> Part {
        Part {
            id: RunId::of(cfg, s),
            commands: cfg.engines.iter().map(|e| e.command.join(" ")).collect(),
            summary: s.clone(),
        }
    }

    /// The results file's text.
    pub fn to_text(&self) -> String {
        let written = Written { format: FORMAT, version: VERSION, part: self };
        // A Part is strings, numbers and maps with numbers for keys: it always serialises.
        serde_json::to_string_pretty(&written).unwrap_or_default() + "\n"
    }

    /// The fields the file does not repeat, from the run's identity; then the whole checked.
    fn completed(mut self) -> Result<Part, String> {
        let s = &mut self.summary;
        s.names = self.id.names.clone();
        s.openings_id = self.id.openings_id;
        s.fresh = fresh_of(&self.id.openings)?;
        self.check()?;
        Ok(self)
    }

    /// Whether the counts add up and every number is in range.
    fn check(&self) -> Result<(), String> {
        let (id, s) = (&self.id, &self.summary);
        let n = id.names.len();
        if n < 2 {
            return Err("fewer than two engines".into());
        }
        if self.commands.len() != n {
            return Err(format!("{n} engines but {} commands", self.commands.len()));
        }
        if s.shard.count != id.shards {
            return Err(format!("shard {} of a run in {} shards", s.shard, id.shards));
        }
        s.shard.check()?;
        if let Some(sprt) = id.sprt {
            sprt.check()?;
        }
        let expected = pairings(n, id.gauntlet);
        if s.pairs.iter().map(|p| (p.a, p.b)).collect::<Vec<_>>() != expected {
            let word = if id.gauntlet { "gauntlet" } else { "round-robin" };
            return Err(format!("the pairs do not match the {word} of {n} engines"));
        }
        if s.games > s.scheduled {
            return Err("more games than scheduled".into());
        }
        for p in &s.pairs {
            let mut colours = p.a_black;
            colours.add(p.a_white);
            let (mut black, mut white) = (Wld::default(), Wld::default());
            for [b, w] in p.by_opening.values() {
                black.add(*b);
                white.add(*w);
            }
            let openings_add_up = p.by_opening.is_empty() || (black, white) == (p.a_black, p.a_white);
            if colours != p.total || !openings_add_up {
                return Err(format!("pair {} {}: its counts do not add up", p.a, p.b));
            }
        }
        if s.pairs.iter().map(|p| p.total.games() as usize).sum::<usize>() != s.games {
            return Err("games is not the sum of the pairings' games".into());
        }
        if s.times.len() != n || s.losses.keys().any(|&(e, _)| e >= n) {
            return Err(format!("an engine's number is not below {n}"));
        }
        if s.sprt.is_some_and(|(sprt, _, _)| Some(sprt) != id.sprt) {
            return Err("an SPRT state without the run's SPRT".into());
        }
        Ok(())
    }
}

/// Reads a results file's text; what is wrong with it says where.
pub fn parse(text: &str) -> Result<Part, String> {
    if text.starts_with("quincunx-match-results 1") {
        return Err("version 1 (a text format): written by an older quincunx, whose `match --merge` \
                    reads it"
            .into());
    }
    let kind: Kind = serde_json::from_str(text)
        .map_err(|e| format!("not a results file of `match --results` (not JSON: {e})"))?;
    if kind.format.as_deref() != Some(FORMAT) {
        return Err(format!("not a results file of `match --results` (its format is not '{FORMAT}')"));
    }
    match kind.version {
        Some(VERSION) => {}
        v => {
            let v = v.map_or("none".into(), |v| v.to_string());
            return Err(format!(
                "version {v}: another version of the format than this program's ({VERSION})"
            ));
        }
    }
    let part: Part = serde_json::from_str(text).map_err(|e| e.to_string())?;
    part.completed()
}

/// A merge: the whole run's summary, and what it lacks in words.
#[derive(Debug)]
pub struct Merged {
    pub summary: Summary,
    pub warnings: Vec<String>,
}

/// Adds up the parts of one run, each with the name of its file. The SPRT's state is computed from
/// the sum (a shard never stops on it), but for one unsharded run's file, which keeps the state its
/// run ended with.
pub fn merge(parts: &[(String, Part)]) -> Result<Merged, String> {
    let Some((first_file, first)) = parts.first() else {
        return Err("no results file to merge".into());
    };
    let mut warnings = vec![];
    let mut told_commands = false;
    let mut shards: BTreeMap<usize, &str> = BTreeMap::new();
    let mut summary = Summary { shard: Shard::WHOLE, ..first.summary.clone() };
    for (i, (file, part)) in parts.iter().enumerate() {
        if let Some((what, ours, theirs)) = first.id.difference(&part.id) {
            return Err(format!(
                "{file} is not of the same run as {first_file}: {what} '{theirs}' there, '{ours}' in {first_file}"
            ));
        }
        let s = &part.summary;
        if let Some(other) = shards.insert(s.shard.index, file) {
            return Err(format!("{other} and {file} are both shard {}", s.shard));
        }
        if let Some(k) = (0..first.commands.len()).find(|&k| part.commands[k] != first.commands[k])
            && !told_commands
        {
            told_commands = true;
            warnings.push(format!(
                "{}'s command is '{}' in {first_file} but '{}' in {file} (the same engine at another path?)",
                first.id.names[k], first.commands[k], part.commands[k]
            ));
        }
        let decided = s.sprt.is_some_and(|(_, _, v)| v != SprtVerdict::Continue);
        if s.games < s.scheduled && !decided {
            warnings
                .push(format!("{file} (shard {}) played {} of its {} games", s.shard, s.games, s.scheduled));
        }
        if i > 0 {
            add(&mut summary, s);
        }
    }
    let missing: Vec<String> = (1..=first.id.shards)
        .filter(|k| !shards.contains_key(k))
        .map(|k| format!("{k}/{}", first.id.shards))
        .collect();
    if !missing.is_empty() {
        warnings.push(format!(
            "shards missing: {} (the summary counts the games of {} of the {} shards)",
            missing.join(", "),
            shards.len(),
            first.id.shards
        ));
    }
    if first.id.shards > 1 {
        let total = summary.pairs[0].total;
        summary.sprt = first.id.sprt.map(|sprt| (sprt, sprt.llr(&total), sprt.verdict(&total)));
    }
    Ok(Merged { summary, warnings })
}

/// Adds the games of `s` (the same run's pairings) to `into`.
fn add(into: &mut Summary, s: &Summary) {
    for (p, q) in into.pairs.iter_mut().zip(&s.pairs) {
        p.total.add(q.total);
        p.a_black.add(q.a_black);
        p.a_white.add(q.a_white);
        for (number, [black, white]) in &q.by_opening {
            let both = p.by_opening.entry(*number).or_default();
            both[0].add(*black);
            both[1].add(*white);
        }
    }
    for (key, count) in &s.losses {
        *into.losses.entry(key.clone()).or_default() += count;
    }
    for (t, u) in into.times.iter_mut().zip(&s.times) {
        t.answers += u.answers;
        t.total_us += u.total_us;
        t.worst_us = t.worst_us.max(u.worst_us);
        t.worst_fraction = t.worst_fraction.max(u.worst_fraction);
    }
    into.games += s.games;
    into.scheduled += s.scheduled;
    into.seconds += s.seconds;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::matches::summary::{PairResult, TimeStats};

    fn wld(wins: u32, losses: u32, draws: u32) -> Wld {
        Wld { wins, losses, draws }
    }

    /// Shard `index` of `count` of a two-engine run on two openings: `a` wins, loses, draws and wins.
    fn part(index: usize, count: usize) -> Part {
        let mut by_opening = BTreeMap::new();
        by_opening.insert(3, [wld(1, 0, 0), wld(0, 1, 0)]);
        by_opening.insert(17, [wld(0, 0, 1), wld(1, 0, 0)]);
        let summary = Summary {
            names: vec!["qx \\ new".into(), "rival\nline".into()],
            pairs: vec![PairResult {
                a: 0,
                b: 1,
                total: wld(2, 1, 1),
                a_black: wld(1, 0, 1),
                a_white: wld(1, 1, 0),
                by_opening,
            }],
            losses: [((1, "no answer in time".to_string()), 1)].into(),
            times: vec![
                TimeStats { answers: 40, total_us: 123_456, worst_us: 9_876, worst_fraction: 0.1 + 0.2 },
                TimeStats::default(),
            ],
            games: 4,
            scheduled: 4,
            sprt: None,
            seconds: 12.345,
            skipped_openings: vec![2, 5],
            fresh: None,
            output_error: None,
            shard: Shard { index, count },
            openings_id: 0x0123_4567_89ab_cdef,
        };
        let id = RunId {
            names: summary.names.clone(),
            gauntlet: false,
            rules: "freestyle (5 or more)".into(),
            width: 15,
            height: 15,
            turn_ms: 300,
            game_ms: 0,
            max_stones: 225,
            games_per_pair: 8,
            openings: "file 40".into(),
            shuffle: Some(7),
            openings_id: summary.openings_id,
            shards: count,
            sprt: Some(Sprt::parse("0,50").unwrap()),
        };
        Part { id, commands: vec!["./pbrain-quincunx".into(), "./rival --fast".into()], summary }
    }

    #[test]
    fn a_results_file_reads_back_as_written() {
        let mut p = part(2, 3);
        p.summary.sprt = Some((p.id.sprt.unwrap(), -0.123_456_789, SprtVerdict::Continue));
        let text = p.to_text();
        let json: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!((json["format"].as_str(), json["version"].as_u64()), (Some(FORMAT), Some(2)));
        assert_eq!(json["run"]["names"][0], "qx \\ new");
        assert_eq!(parse(&text), Ok(p.clone()));
        // Carriage returns (a file edited elsewhere) are no matter.
        assert_eq!(parse(&text.replace('\n', "\r\n")), Ok(p.clone()));
        // Fresh openings give the summary's count and seed.
        let mut fresh = part(1, 1);
        fresh.id.openings = "fresh 50 seed 7 stones 3-10 margin 60 depth 6".into();
        fresh.id.shuffle = None;
        fresh.id.sprt = None;
        fresh.summary.fresh =
            Some(FreshOpenings { count: 50, seed: 7, options: "--stones 3-10 --margin 60 --depth 6".into() });
        assert_eq!(parse(&fresh.to_text()), Ok(fresh));
    }

    #[test]
    fn fresh_openings_are_named_with_every_option_that_draws_them() {
        let fresh =
            |count, seed, options: &str| Ok(Some(FreshOpenings { count, seed, options: options.into() }));
        assert_eq!(
            fresh_of("fresh 100 seed 2026120810 stones 3-10 margin 60 depth 12"),
            fresh(100, 2026120810, "--stones 3-10 --margin 60 --depth 12")
        );
        // A file written before the generator had a depth names what it had.
        assert_eq!(
            fresh_of("fresh 50 seed 7 stones 3-10 margin 60"),
            fresh(50, 7, "--stones 3-10 --margin 60")
        );
        assert_eq!(fresh_of("file 40"), Ok(None));
        assert_eq!(fresh_of("none"), Ok(None));
        for bad in ["fresh 50", "fresh x seed 7", "fresh 50 seed 7 stones", "drawn 50 seed 7", ""] {
            assert!(fresh_of(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_file_that_is_not_a_results_file_is_refused_saying_why() {
        let text = part(1, 2).to_text();
        let edited = |from: &str, to: &str| {
            assert!(text.contains(from), "{from}");
            parse(&text.replacen(from, to, 1)).unwrap_err()
        };
        assert!(parse("").unwrap_err().contains("not a results file"));
        assert!(parse("hello\n").unwrap_err().contains("not a results file"));
        assert!(parse("{\"format\": \"other\"}").unwrap_err().contains("not a results file"));
        assert!(parse("quincunx-match-results 1\nengine 0 a\n").unwrap_err().contains("version 1"));
        assert!(edited("\"version\": 2", "\"version\": 3").contains("another version"));
        assert!(edited("\"turn_ms\": 300,", "").contains("turn_ms"));
        edited("\"turn_ms\": 300", "\"turn_ms\": \"fast\""); // refused: not a number
        assert!(edited("\"gauntlet\": false,", "\"gauntlet\": false, \"colour\": 1,").contains("colour"));
        assert!(edited("\"wins\": 2", "\"wins\": 3").contains("do not add up"));
        assert!(edited("\"games\": 4", "\"games\": 3").contains("sum of the pairings"));
        assert!(edited("\"engine\": 1", "\"engine\": 5").contains("not below 2"));
        assert!(edited("\"index\": 1", "\"index\": 3").contains("shard"));
        assert!(edited("\"elo0\": 0.0", "\"elo0\": 60.0").contains("elo0 < elo1"));
        assert!(edited("\"b\": 1", "\"b\": 0").contains("do not match"));
        let cut = &text[..text.len() / 2];
        assert!(parse(cut).unwrap_err().contains("EOF"), "{}", parse(cut).unwrap_err());
    }

    fn named(parts: Vec<Part>) -> Vec<(String, Part)> {
        parts.into_iter().enumerate().map(|(i, p)| (format!("part{}.txt", i + 1), p)).collect()
    }

    #[test]
    fn shards_add_up_and_the_sprt_is_judged_on_the_sum() {
        let merged = merge(&named(vec![part(1, 2), part(2, 2)])).unwrap();
        assert!(merged.warnings.is_empty(), "{:?}", merged.warnings);
        let s = &merged.summary;
        assert_eq!((s.games, s.scheduled, s.shard), (8, 8, Shard::WHOLE));
        assert!((s.seconds - 24.69).abs() < 1e-9);
        let p = &s.pairs[0];
        assert_eq!((p.total, p.a_black, p.a_white), (wld(4, 2, 2), wld(2, 0, 2), wld(2, 2, 0)));
        assert_eq!(p.by_opening[&17], [wld(0, 0, 2), wld(2, 0, 0)]);
        assert_eq!(s.losses[&(1, "no answer in time".to_string())], 2);
        assert_eq!((s.times[0].answers, s.times[0].worst_us), (80, 9_876));
        let sprt = Sprt::parse("0,50").unwrap();
        assert_eq!(s.sprt, Some((sprt, sprt.llr(&wld(4, 2, 2)), SprtVerdict::Continue)));
        // One whole run's file keeps the state its SPRT ended with.
        let mut whole = part(1, 1);
        whole.summary.sprt = Some((sprt, 3.07, SprtVerdict::AcceptH1));
        assert_eq!(merge(&named(vec![whole.clone()])).unwrap().summary.sprt, whole.summary.sprt);
    }

    #[test]
    fn foreign_files_and_repeated_shards_are_refused_and_missing_shards_told() {
        let mut other = part(2, 2);
        other.id.shuffle = Some(8);
        let e = merge(&named(vec![part(1, 2), other])).unwrap_err();
        assert_eq!(e, "part2.txt is not of the same run as part1.txt: shuffle '8' there, '7' in part1.txt");
        let mut renju = part(2, 2);
        renju.id.rules = "renju".into();
        let e = merge(&named(vec![part(1, 2), renju])).unwrap_err();
        assert!(e.ends_with("rules 'renju' there, 'freestyle (5 or more)' in part1.txt"), "{e}");
        let e = merge(&named(vec![part(1, 2), part(1, 1)])).unwrap_err();
        assert!(e.contains("shards '1' there, '2'"), "{e}");
        let e = merge(&named(vec![part(2, 3), part(2, 3)])).unwrap_err();
        assert_eq!(e, "part1.txt and part2.txt are both shard 2/3");
        assert!(merge(&[]).is_err());
        let merged = merge(&named(vec![part(2, 4)])).unwrap();
        assert_eq!(
            merged.warnings,
            ["shards missing: 1/4, 3/4, 4/4 (the summary counts the games of 1 of the 4 shards)"]
        );
        // Another path to the same engine is told, not refused.
        let mut moved = part(2, 2);
        moved.commands[1] = "/elsewhere/rival --fast".into();
        let merged = merge(&named(vec![part(1, 2), moved])).unwrap();
        assert_eq!(merged.warnings.len(), 1);
        assert!(merged.warnings[0].contains("/elsewhere/rival"), "{:?}", merged.warnings);
    }
}
