//! Results files and their merge: a match's results written for a program to read (`match --results
//! FILE`), and the parts of one run played on several machines (`--shard K/N`) added up into the
//! whole run's [`Summary`] (`match --merge`), which prints as the whole run's own.
//!
//! The format is text, one `key value…` line each, in the order [`Part::to_text`] writes them:
//! `quincunx-match-results 1` first and `end` last (a file cut short is refused). The run's identity,
//! the same in every shard of a run: `engine I NAME` per engine, `pairings`, `rules`, `board`, `turn`,
//! `game`, `max-stones`, `games-per-pair`, `openings` (`none`, `file COUNT`, or `fresh COUNT seed S
//! …`), `shuffle`, `openings-id` (a fingerprint of the openings in the order played), `sprt` (its
//! bounds, if any) and the shard count of `shard K/N`. Told but not compared: `command I CMD` (the
//! same engine may live at another path on another machine). The tallies: `games`, `scheduled`,
//! `seconds`, `skipped` (openings that did not fit), `pair A B total|black|white W L D` (from A's
//! side; black and white: A's colour), `pair A B opening NUMBER W L D W L D` (as black, as white),
//! `time I ANSWERS TOTAL_US WORST_US WORST_SHARE`, `loss I COUNT WHAT` and `sprt-state LLR
//! continue|h0|h1` (where an unsharded run's SPRT ended). Names, commands and reasons run to the end
//! of their line with `\`, newline and carriage return escaped as `\\`, `\n`, `\r`.
//!
//! Invariants: [`parse`] gives back the [`Part`] that was written, and refuses anything else (a foreign
//! or repeated line, a missing one, counts that do not add up) with its line number; [`merge`] adds up
//! only files of one run, each shard at most once, and computes the SPRT's state from the sum.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::str::FromStr;

use crate::tools::matches::config::{MatchConfig, pairings};
use crate::tools::matches::elo::{Sprt, SprtVerdict, Wld};
use crate::tools::matches::shard::Shard;
use crate::tools::matches::summary::{PairResult, Summary, TimeStats};

const HEADER: &str = "quincunx-match-results 1";

/// What makes results files parts of one run: everything here but the shard's number.
#[derive(Clone, Debug, PartialEq)]
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

impl RunId {
    /// The run `cfg` describes, as `s` played it.
    pub fn of(cfg: &MatchConfig, s: &Summary) -> RunId {
        let openings = match &cfg.fresh {
            Some((count, g)) => format!(
                "fresh {count} seed {} stones {}-{} margin {} depth {}",
                g.seed, g.stones.0, g.stones.1, g.margin, g.depth
            ),
            None if cfg.openings.is_empty() => "none".into(),
            None => format!("file {}", cfg.openings.len()),
        };
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

    /// Each part of the identity as its line in the file says it.
    fn fields(&self) -> Vec<(&'static str, String)> {
        vec![
            ("engines", format!("{:?}", self.names)),
            ("pairings", pairings_word(self.gauntlet).into()),
            ("rules", self.rules.clone()),
            ("board", format!("{}x{}", self.width, self.height)),
            ("turn", self.turn_ms.to_string()),
            ("game", self.game_ms.to_string()),
            ("max-stones", self.max_stones.to_string()),
            ("games-per-pair", self.games_per_pair.to_string()),
            ("openings", self.openings.clone()),
            ("shuffle", self.shuffle.map_or("none".into(), |s| s.to_string())),
            ("openings-id", format!("{:016x}", self.openings_id)),
            ("shard count", self.shards.to_string()),
            ("sprt", self.sprt.map_or("none".into(), sprt_words)),
        ]
    }

    /// The first part in which `other` differs: (what, ours, theirs).
    fn difference(&self, other: &RunId) -> Option<(&'static str, String, String)> {
        self.fields().into_iter().zip(other.fields()).find(|(a, b)| a.1 != b.1).map(|(a, b)| (a.0, a.1, b.1))
    }
}

fn pairings_word(gauntlet: bool) -> &'static str {
    if gauntlet { "gauntlet" } else { "round-robin" }
}

fn sprt_words(s: Sprt) -> String {
    format!("{} {} {} {}", s.elo0, s.elo1, s.alpha, s.beta)
}

/// One results file: one run's results, or one shard's.
#[derive(Clone, Debug, PartialEq)]
pub struct Part {
    pub id: RunId,
    /// The engines' command lines, as told (not compared).
    pub commands: Vec<String>,
    /// The results: `shard` says which part, `sprt` where an unsharded run's SPRT ended.
    pub summary: Summary,
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
        let (id, s) = (&self.id, &self.summary);
        let mut out = format!("{HEADER}\n");
        let mut line = |key: &str, value: &str| {
            let _ = writeln!(out, "{key} {value}");
        };
        for (i, name) in id.names.iter().enumerate() {
            line("engine", &format!("{i} {}", escape_line(name)));
        }
        for (i, command) in self.commands.iter().enumerate() {
            line("command", &format!("{i} {}", escape_line(command)));
        }
        line("pairings", pairings_word(id.gauntlet));
        line("rules", &escape_line(&id.rules));
        line("board", &format!("{}x{}", id.width, id.height));
        line("turn", &id.turn_ms.to_string());
        line("game", &id.game_ms.to_string());
        line("max-stones", &id.max_stones.to_string());
        line("games-per-pair", &id.games_per_pair.to_string());
        line("openings", &id.openings);
        line("shuffle", &id.shuffle.map_or("none".into(), |s| s.to_string()));
        line("openings-id", &format!("{:016x}", id.openings_id));
        if let Some(sprt) = id.sprt {
            line("sprt", &sprt_words(sprt));
        }
        line("shard", &format!("{}/{}", s.shard.index, id.shards));
        line("games", &s.games.to_string());
        line("scheduled", &s.scheduled.to_string());
        line("seconds", &s.seconds.to_string());
        if !s.skipped_openings.is_empty() {
            let numbers: Vec<String> = s.skipped_openings.iter().map(usize::to_string).collect();
            line("skipped", &numbers.join(" "));
        }
        let wld = |r: &Wld| format!("{} {} {}", r.wins, r.losses, r.draws);
        for p in &s.pairs {
            for (kind, r) in [("total", &p.total), ("black", &p.a_black), ("white", &p.a_white)] {
                line("pair", &format!("{} {} {kind} {}", p.a, p.b, wld(r)));
            }
            for (number, [black, white]) in &p.by_opening {
                line("pair", &format!("{} {} opening {number} {} {}", p.a, p.b, wld(black), wld(white)));
            }
        }
        for (i, t) in s.times.iter().enumerate() {
            line("time", &format!("{i} {} {} {} {}", t.answers, t.total_us, t.worst_us, t.worst_fraction));
        }
        for ((engine, what), count) in &s.losses {
            line("loss", &format!("{engine} {count} {}", escape_line(what)));
        }
        if let Some((_, llr, verdict)) = s.sprt {
            let v = match verdict {
                SprtVerdict::Continue => "continue",
                SprtVerdict::AcceptH0 => "h0",
                SprtVerdict::AcceptH1 => "h1",
            };
            line("sprt-state", &format!("{llr} {v}"));
        }
        out + "end\n"
    }
}

/// `s` as the rest of one line: `\`, line feed and carriage return written `\\`, `\n`, `\r` (read
/// back by [`unescape_line`]). The one escape of a line-per-record text file.
pub fn escape_line(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c => out.push(c),
        }
    }
    out
}

/// What [`escape_line`] wrote, or what is wrong with it.
pub fn unescape_line(s: &str) -> Result<String, String> {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        out.push(match (c, c == '\\') {
            (_, false) => c,
            (_, true) => match chars.next() {
                Some('\\') => '\\',
                Some('n') => '\n',
                Some('r') => '\r',
                _ => return Err(format!("'{s}': a backslash must be followed by \\, n or r")),
            },
        });
    }
    Ok(out)
}

/// A number, or what is wrong with it.
fn num<T: FromStr>(word: &str) -> Result<T, String> {
    word.parse().map_err(|_| format!("'{word}' is not a valid number"))
}

/// Exactly `n` words, or what is wrong with them.
fn words(rest: &str, n: usize) -> Result<Vec<&str>, String> {
    let w: Vec<&str> = rest.split_whitespace().collect();
    if w.len() == n { Ok(w) } else { Err(format!("expected {n} values, found {}", w.len())) }
}

fn wld(w: &[&str]) -> Result<Wld, String> {
    Ok(Wld { wins: num(w[0])?, losses: num(w[1])?, draws: num(w[2])? })
}

/// A results file's lines as they are read, before they are checked together.
#[derive(Default)]
struct Reader {
    /// The lines read, by what makes one a repeat.
    seen: BTreeSet<String>,
    names: Vec<String>,
    commands: Vec<String>,
    single: BTreeMap<&'static str, String>,
    skipped: Vec<usize>,
    pairs: Vec<PairResult>,
    times: BTreeMap<usize, TimeStats>,
    losses: BTreeMap<(usize, String), u32>,
    sprt_state: Option<(f64, SprtVerdict)>,
}

/// The keys of the lines given once, with a value read whole.
const SINGLE: [&str; 15] = [
    "pairings",
    "rules",
    "board",
    "turn",
    "game",
    "max-stones",
    "games-per-pair",
    "openings",
    "shuffle",
    "openings-id",
    "sprt",
    "shard",
    "games",
    "scheduled",
    "seconds",
];

impl Reader {
    /// Takes one line (without `end`).
    fn take(&mut self, key: &str, rest: &str) -> Result<(), String> {
        // What makes a line a repeat: its key, and for the keys given many times their subject.
        let w: Vec<&str> = rest.splitn(3, ' ').collect();
        let subject = match key {
            "engine" | "command" | "time" => w[0].to_string(),
            "pair" => {
                let v: Vec<&str> = rest.split_whitespace().collect();
                v[..v.len().min(if v.get(2) == Some(&"opening") { 4 } else { 3 })].join(" ")
            }
            "loss" => format!("{} {}", w[0], w.get(2).unwrap_or(&"")),
            _ => String::new(),
        };
        let seen = if subject.is_empty() { key.to_string() } else { format!("{key} {subject}") };
        if !self.seen.insert(seen.clone()) {
            return Err(format!("a second '{seen}' line"));
        }
        match key {
            "engine" | "command" => {
                let (i, text) = rest.split_once(' ').ok_or("expected a number and a text")?;
                let list = if key == "engine" { &mut self.names } else { &mut self.commands };
                if num::<usize>(i)? != list.len() {
                    return Err(format!("'{key}' lines must be numbered 0, 1, 2, ... in order"));
                }
                list.push(unescape_line(text)?);
            }
            "skipped" => self.skipped = rest.split_whitespace().map(num).collect::<Result<_, _>>()?,
            "pair" => self.take_pair(rest)?,
            "time" => {
                let w = words(rest, 5)?;
                let t = TimeStats {
                    answers: num(w[1])?,
                    total_us: num(w[2])?,
                    worst_us: num(w[3])?,
                    worst_fraction: num(w[4])?,
                };
                self.times.insert(num(w[0])?, t);
            }
            "loss" => {
                let mut w = rest.splitn(3, ' ');
                let (engine, count) = (num(w.next().unwrap_or(""))?, num(w.next().unwrap_or(""))?);
                let what = unescape_line(w.next().ok_or("expected an engine, a count and a reason")?)?;
                self.losses.insert((engine, what), count);
            }
            "sprt-state" => {
                let w = words(rest, 2)?;
                let verdict = match w[1] {
                    "continue" => SprtVerdict::Continue,
                    "h0" => SprtVerdict::AcceptH0,
                    "h1" => SprtVerdict::AcceptH1,
                    other => return Err(format!("'{other}' is not an SPRT verdict (continue, h0 or h1)")),
                };
                self.sprt_state = Some((num(w[0])?, verdict));
            }
            _ => match SINGLE.iter().find(|&&k| k == key) {
                Some(k) => {
                    self.single.insert(k, rest.into());
                }
                None => return Err(format!("unknown line '{key}'")),
            },
        }
        Ok(())
    }

    /// `pair A B total|black|white W L D` or `pair A B opening NUMBER W L D W L D`.
    fn take_pair(&mut self, rest: &str) -> Result<(), String> {
        let w: Vec<&str> = rest.split_whitespace().collect();
        if w.len() < 3 {
            return Err("expected two engines and what is counted".into());
        }
        let (a, b): (usize, usize) = (num(w[0])?, num(w[1])?);
        let expected = if w[2] == "opening" { 10 } else { 6 };
        if w.len() != expected {
            return Err(format!("expected {expected} values, found {}", w.len()));
        }
        let pair = match self.pairs.iter().position(|p| (p.a, p.b) == (a, b)) {
            Some(i) => &mut self.pairs[i],
            None => {
                self.pairs.push(PairResult { a, b, ..Default::default() });
                self.pairs.last_mut().unwrap()
            }
        };
        match w[2] {
            "total" => pair.total = wld(&w[3..])?,
            "black" => pair.a_black = wld(&w[3..])?,
            "white" => pair.a_white = wld(&w[3..])?,
            "opening" => {
                let results = [wld(&w[4..7])?, wld(&w[7..10])?];
                pair.by_opening.insert(num(w[3])?, results);
            }
            other => return Err(format!("'{other}' is not total, black, white or opening")),
        }
        Ok(())
    }

    /// A line given once, read.
    fn get<T: FromStr>(&self, key: &str) -> Result<T, String> {
        let v = self.single.get(key).ok_or_else(|| format!("no '{key}' line"))?;
        num(v).map_err(|e| format!("'{key}': {e}"))
    }

    fn text(&self, key: &str) -> Result<String, String> {
        self.single.get(key).cloned().ok_or_else(|| format!("no '{key}' line"))
    }

    /// The part the lines describe, checked together.
    fn finish(self) -> Result<Part, String> {
        let n = self.names.len();
        if n < 2 {
            return Err("fewer than two 'engine' lines".into());
        }
        if self.commands.len() != n {
            return Err(format!("{n} engines but {} 'command' lines", self.commands.len()));
        }
        let gauntlet = match self.text("pairings")?.as_str() {
            "round-robin" => false,
            "gauntlet" => true,
            other => return Err(format!("'pairings': '{other}' is neither round-robin nor gauntlet")),
        };
        let board = self.text("board")?;
        let (width, height) =
            board.split_once('x').ok_or_else(|| format!("'board': '{board}' is not WxH"))?;
        let shard_text = self.text("shard")?;
        let shard = Shard::parse(&shard_text).map_err(|e| format!("'shard': {e}"))?;
        let sprt = match self.single.get("sprt") {
            Some(v) => {
                let w = words(v, 4)?;
                Some(Sprt::parse(&w.join(",")).map_err(|e| format!("'sprt': {e}"))?)
            }
            None => None,
        };
        let shuffle = match self.text("shuffle")?.as_str() {
            "none" => None,
            seed => Some(num(seed).map_err(|e| format!("'shuffle': {e}"))?),
        };
        let openings_text = self.text("openings")?;
        let fresh = match openings_text.split_whitespace().collect::<Vec<_>>()[..] {
            ["none"] | ["file", _] => None,
            ["fresh", count, "seed", seed, ..] => Some((num(count)?, num(seed)?)),
            _ => return Err(format!("'openings': '{openings_text}' is not none, file N or fresh N seed S")),
        };
        let id = RunId {
            names: self.names.clone(),
            gauntlet,
            rules: unescape_line(&self.text("rules")?)?,
            width: num(width)?,
            height: num(height)?,
            turn_ms: self.get("turn")?,
            game_ms: self.get("game")?,
            max_stones: self.get("max-stones")?,
            games_per_pair: self.get("games-per-pair")?,
            openings: openings_text,
            shuffle,
            openings_id: u64::from_str_radix(&self.text("openings-id")?, 16)
                .map_err(|_| "'openings-id' is not a hexadecimal number")?,
            shards: shard.count,
            sprt,
        };
        let expected: Vec<(usize, usize)> = pairings(n, gauntlet);
        if self.pairs.iter().map(|p| (p.a, p.b)).collect::<Vec<_>>() != expected {
            return Err(format!(
                "the 'pair' lines do not match the {} of {n} engines",
                pairings_word(gauntlet)
            ));
        }
        let (games, scheduled, seconds): (usize, usize, f64) =
            (self.get("games")?, self.get("scheduled")?, self.get("seconds")?);
        if games > scheduled {
            return Err("more 'games' than 'scheduled'".into());
        }
        for p in &self.pairs {
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
        if self.pairs.iter().map(|p| p.total.games() as usize).sum::<usize>() != games {
            return Err("'games' is not the sum of the pairings' games".into());
        }
        if self.times.keys().chain(self.losses.keys().map(|(e, _)| e)).any(|&e| e >= n) {
            return Err(format!("an engine's number is not below {n}"));
        }
        if self.sprt_state.is_some() && sprt.is_none() {
            return Err("an 'sprt-state' line without an 'sprt' line".into());
        }
        let summary = Summary {
            names: self.names,
            pairs: self.pairs,
            losses: self.losses,
            times: (0..n).map(|i| self.times.get(&i).cloned().unwrap_or_default()).collect(),
            games,
            scheduled,
            sprt: sprt.zip(self.sprt_state).map(|(s, (llr, verdict))| (s, llr, verdict)),
            seconds,
            skipped_openings: self.skipped,
            fresh,
            output_error: None,
            shard,
            openings_id: id.openings_id,
        };
        Ok(Part { id, commands: self.commands, summary })
    }
}

/// Reads a results file's text; what is wrong with it names its line.
pub fn parse(text: &str) -> Result<Part, String> {
    let mut lines = text.lines().map(|l| l.strip_suffix('\r').unwrap_or(l)).enumerate();
    match lines.next() {
        Some((_, HEADER)) => {}
        Some((_, first)) if first.starts_with("quincunx-match-results ") => {
            return Err(format!("line 1: '{first}': another version of the format than this program's"));
        }
        _ => {
            return Err(format!(
                "not a results file of `match --results` (its first line is not '{HEADER}')"
            ));
        }
    }
    let mut reader = Reader::default();
    let mut ended = false;
    for (i, line) in lines {
        if ended {
            return Err(format!("line {}: text after 'end'", i + 1));
        }
        if line == "end" {
            ended = true;
            continue;
        }
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        reader.take(key, rest).map_err(|e| format!("line {}: {e}", i + 1))?;
    }
    if !ended {
        return Err("no 'end' line: the file is cut short".into());
    }
    reader.finish()
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
        assert!(text.starts_with("quincunx-match-results 1\nengine 0 qx \\\\ new\n"), "{text}");
        assert_eq!(parse(&text), Ok(p.clone()));
        // Carriage returns (a file edited elsewhere) are no matter.
        assert_eq!(parse(&text.replace('\n', "\r\n")), Ok(p.clone()));
        // Fresh openings give the summary's count and seed.
        let mut fresh = part(1, 1);
        fresh.id.openings = "fresh 50 seed 7 stones 3-10 margin 60 depth 6".into();
        fresh.id.shuffle = None;
        fresh.id.sprt = None;
        fresh.summary.fresh = Some((50, 7));
        assert_eq!(parse(&fresh.to_text()), Ok(fresh));
    }

    #[test]
    fn a_file_that_is_not_a_results_file_is_refused_with_its_line() {
        let text = part(1, 2).to_text();
        let edited = |from: &str, to: &str| {
            assert!(text.contains(from), "{from}");
            parse(&text.replacen(from, to, 1)).unwrap_err()
        };
        assert!(parse("").unwrap_err().contains("not a results file"));
        assert!(parse("hello\n").unwrap_err().contains("not a results file"));
        assert!(edited("results 1\n", "results 2\n").contains("another version"));
        assert!(edited("end\n", "").contains("cut short"));
        assert!(edited("end\n", "end\nturn 5\n").contains("after 'end'"));
        assert!(edited("turn 300\n", "").contains("no 'turn' line"));
        assert!(edited("turn 300\n", "turn 300\nturn 300\n").contains("a second 'turn' line"));
        assert!(edited("turn 300", "turn fast").contains("'fast' is not a valid number"));
        assert!(edited("turn 300\n", "colour blue\n").contains("line 9: unknown line 'colour'"));
        assert!(edited("engine 1 ", "engine 2 ").contains("numbered"));
        assert!(edited("pair 0 1 total 2 1 1", "pair 0 1 total 3 1 1").contains("do not add up"));
        assert!(edited("pair 0 1 opening 3 1 0 0", "pair 0 1 opening 3 0 0 1").contains("do not add up"));
        assert!(edited("pair 0 1 black 1 0 1", "pair 0 1 black 1 0").contains("expected 6 values"));
        assert!(edited("pair 0 1 total", "pair 0 2 total").contains("do not match"));
        assert!(edited("games 4\n", "games 3\n").contains("sum of the pairings"));
        assert!(edited("loss 1 1", "loss 5 1").contains("not below 2"));
        assert!(edited("shard 1/2", "shard 3/2").contains("'shard'"));
        assert!(edited("sprt 0 50", "sprt 50 0").contains("'sprt'"));
        assert!(edited("end\n", "sprt-state 1.5 maybe\nend\n").contains("not an SPRT verdict"));
        assert!(edited("qx \\\\ new", "qx \\t").contains("backslash"));
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
        let e = merge(&named(vec![part(1, 2), part(1, 1)])).unwrap_err();
        assert!(e.contains("shard count '1' there, '2'"), "{e}");
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
