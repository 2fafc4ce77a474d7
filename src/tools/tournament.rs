//! A match between engines: round robin or gauntlet, openings (a file's, or balanced ones drawn afresh
//! from a seed) played with both colours, several games at once, results with error bars, an optional
//! SPRT that stops early, game records and a live file of every move.
//!
//! Scheduling: for every pairing (a, b) the games are numbered k = 0, 1, 2, …; game k uses opening
//! k / 2 (in file order or the order drawn, or a seeded shuffle of it) and a plays black when k is
//! even, so each opening is played twice with the colours swapped. Each worker thread owns its own brain processes, so a brain
//! never plays two games at once.
//!
//! Shards: `--shard K/N` plays the part of that very schedule whose opening pair k / 2 is K − 1 modulo
//! N ([`Shard::owns`]), with the whole run's game numbers, openings and colours; its results are merged
//! by [`crate::tools::results`]. A shard never stops on the SPRT: only the merge sees all the games.
//!
//! Everything that can make a match pointless is checked before the first game is scored: the
//! configuration, the openings, the output paths, and every engine's start and first START. After that
//! a match always ends with its summary: a record that cannot be written stops the games still to be
//! played and is reported with the summary ([`Summary::output_error`]).
//!
//! Invariant: the runner never waits on a brain without a deadline ([`crate::tools::client::referee`]), and every
//! process it started is gone when [`run_match`] returns.

use std::collections::{BTreeMap, VecDeque};
use std::fmt::{self, Write as _};
use std::io::Write as _;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Barrier, Mutex, MutexGuard};
use std::time::Instant;

use crate::game::board::{Color, Pos};
use crate::game::random::Rng;
use crate::tools::client::referee::{Ending, Fault, GameResult, GameSettings, Seat, play_watched};
use crate::tools::elo::{Sprt, SprtVerdict, Wld};
use crate::tools::live;
use crate::tools::opening_gen::{GenConfig, generate};
use crate::tools::plural;
use crate::tools::record::opening::{Opening, check_stones};
use crate::tools::record::write::{OutputError, Recorder};
use crate::tools::shard::Shard;

#[derive(Clone, Debug)]
pub struct EngineSpec {
    pub name: String,
    pub command: Vec<String>,
    /// Its `INFO max_node`, instead of the match's `GameSettings::max_nodes`.
    pub nodes: Option<u64>,
}

impl EngineSpec {
    pub fn new(name: impl Into<String>, command: Vec<String>) -> EngineSpec {
        EngineSpec { name: name.into(), command, nodes: None }
    }
}

/// Answers an engine has given before its answer times can tell that it ignores its node count.
const NODE_CHECK_ANSWERS: u64 = 20;
/// An engine whose answers take this share of the turn on average is not stopped by its node count.
const NODE_CHECK_SHARE: f64 = 0.8;

#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub engines: Vec<EngineSpec>,
    /// The first engine against each other one, instead of every pair.
    pub gauntlet: bool,
    pub game: GameSettings,
    pub games_per_pair: usize,
    pub openings: Vec<Opening>,
    /// Draw this many balanced openings afresh before the first game instead (`openings` is empty).
    pub fresh: Option<(usize, GenConfig)>,
    /// Shuffle the openings with this seed (`None`: file order).
    pub shuffle_seed: Option<u64>,
    pub concurrency: usize,
    pub sprt: Option<Sprt>,
    /// A directory for one PSQ file per game.
    pub psq_dir: Option<PathBuf>,
    /// One SGF file for all games.
    pub sgf: Option<PathBuf>,
    /// The live file: every move as it is played ([`crate::tools::live`]).
    pub live: Option<PathBuf>,
    /// Print a progress line on stderr after each game.
    pub progress: bool,
    /// Print each pairing's results per opening after the summary (`Summary::render_openings`).
    pub by_opening: bool,
    /// The part of the run to play ([`Shard::WHOLE`]: all of it).
    pub shard: Shard,
}

/// One pairing's results from the first engine's side.
#[derive(Clone, Debug, Default, PartialEq)]
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
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TimeStats {
    pub answers: u64,
    pub total_us: u64,
    pub worst_us: u64,
    /// The largest answer time as a fraction of its budget.
    pub worst_fraction: f64,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    pub names: Vec<String>,
    pub pairs: Vec<PairResult>,
    /// (engine, what happened) → games lost that way, for faults and fouls.
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
    /// The count and the seed of fresh openings (so that the run can be repeated).
    pub fresh: Option<(usize, u64)>,
    /// The first game record that could not be written (the match stopped there).
    pub output_error: Option<OutputError>,
    /// The part of the run played ([`Shard::WHOLE`] for a whole run and a merge).
    pub shard: Shard,
    /// A fingerprint (FNV-1a) of the openings in the order they are played: the same in every
    /// shard of a run.
    pub openings_id: u64,
}

/// Why a match was not played.
#[derive(Debug)]
pub enum MatchError {
    /// The configuration cannot be played (the reason in words).
    Config(String),
    /// An output path cannot be written.
    Output(OutputError),
    /// An engine could not be started or did not answer its first START with OK.
    EngineStart { engine: String, fault: Fault, detail: String },
    /// An engine given a node count thinks for the whole turn all the same: it ignores
    /// `INFO max_node` (or the count takes it longer than the turn), so the match would measure time.
    IgnoresNodes { engine: String, nodes: u64, mean_ms: u64, turn_ms: u64 },
}

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchError::Config(why) => f.write_str(why),
            MatchError::Output(e) => write!(f, "{e}"),
            MatchError::EngineStart { engine, fault, detail } if detail.is_empty() => {
                write!(f, "engine {engine} {fault}; no game was played")
            }
            MatchError::EngineStart { engine, fault, detail } => {
                write!(f, "engine {engine} {fault} ({detail}); no game was played")
            }
            MatchError::IgnoresNodes { engine, nodes, mean_ms, turn_ms } => write!(
                f,
                "engine {engine} ignores INFO max_node {nodes}: its answers took {mean_ms} ms on average of a \
                 {turn_ms} ms turn (if the count just takes longer than the turn, give a longer --time); the \
                 match was stopped"
            ),
        }
    }
}

impl std::error::Error for MatchError {}

/// The engines' names made distinct in order: the second `name` becomes `name#2`, the third `name#3`
/// (skipping any such name already taken), so that two engines run from the same program can be told
/// apart in the results and the records.
pub fn distinct_names(names: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(names.len());
    for name in names {
        let mut candidate = name.clone();
        let mut k = 1;
        while out.contains(&candidate) || (k > 1 && names.contains(&candidate)) {
            k += 1;
            candidate = format!("{name}#{k}");
        }
        out.push(candidate);
    }
    out
}

struct Job {
    pair: usize,
    black: usize,
    white: usize,
    opening: Option<usize>,
    /// The game's number in the whole run, from 1 (its records' number).
    number: usize,
    /// The game's index in its pairing, from 0 (which shard it belongs to).
    k: usize,
}

/// FNV-1a over the openings' numbers and stones in the order they are played: two runs that play the
/// same openings in the same order (one file, one shuffle, one fresh draw) agree on it.
fn openings_id(placed: &[(usize, Vec<Pos>)], order: &[usize]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |bytes: &[u8]| {
        for &b in bytes {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    };
    for &i in order {
        let (number, stones) = &placed[i];
        eat(&(*number as u64).to_le_bytes());
        eat(&(stones.len() as u64).to_le_bytes());
        for p in stones {
            eat(&[p.x, p.y]);
        }
    }
    h
}

/// The first `n` opening indices in the order a seed gives.
fn shuffled(n: usize, seed: u64) -> Vec<usize> {
    let mut v: Vec<usize> = (0..n).collect();
    Rng::new(seed).shuffle(&mut v);
    v
}

/// The openings that can be played and those skipped (with the reason), each with its number in the
/// file (from 1).
struct Openings {
    placed: Vec<(usize, Vec<Pos>)>,
    skipped: Vec<(usize, String)>,
}

/// Checks the configuration and gathers the openings (drawing fresh ones) before anything is started.
fn validate(cfg: &MatchConfig) -> Result<Openings, String> {
    if cfg.engines.len() < 2 {
        return Err("a match needs at least two engines".into());
    }
    cfg.game.check_time()?;
    if cfg.sprt.is_some() && cfg.engines.len() != 2 {
        return Err("SPRT needs exactly two engines".into());
    }
    if cfg.games_per_pair == 0 {
        return Err("games per pairing must be at least 1".into());
    }
    cfg.shard.check()?;
    crate::game::board::Board::new(cfg.game.width as i64, cfg.game.height as i64)
        .map_err(|e| e.to_string())?;
    // An opening that does not fit this board is skipped, not the whole match refused (opening lists
    // are often shared between board sizes).
    let (mut placed, mut skipped) = (vec![], vec![]);
    for (i, o) in cfg.openings.iter().enumerate() {
        let (w, h) = (cfg.game.width, cfg.game.height);
        match o.place(w, h).and_then(|p| check_stones(&cfg.game.rules, w, h, &p).map(|_| p)) {
            Ok(p) => placed.push((i + 1, p)),
            Err(e) => skipped.push((i + 1, e)),
        }
    }
    if placed.is_empty() && !cfg.openings.is_empty() {
        return Err("no opening fits the board".into());
    }
    if let Some((count, gen_cfg)) = &cfg.fresh {
        if !cfg.openings.is_empty() {
            return Err("fresh openings replace a file's: not both".into());
        }
        if (gen_cfg.rules, gen_cfg.width, gen_cfg.height) != (cfg.game.rules, cfg.game.width, cfg.game.height)
        {
            return Err("fresh openings must be drawn for the match's rules and board".into());
        }
        let drawn = generate(gen_cfg, *count).map_err(|e| format!("fresh openings: {e}"))?;
        placed = drawn.into_iter().enumerate().map(|(i, stones)| (i + 1, stones)).collect();
    }
    Ok(Openings { placed, skipped })
}

/// The one warning for the skipped openings: a line per run, however many there are.
fn skipped_warning(cfg: &MatchConfig, skipped: &[(usize, String)]) -> String {
    let numbers: Vec<String> = skipped.iter().take(10).map(|(n, _)| n.to_string()).collect();
    let more = if skipped.len() > 10 { ", ..." } else { "" };
    let first = if skipped.len() > 1 { "the first: " } else { "" };
    format!(
        "{} of {} skipped as {} not fit a {}x{} board under {}: {}{more} ({first}{})",
        skipped.len(),
        plural(cfg.openings.len() as u64, "opening"),
        if skipped.len() == 1 { "it does" } else { "they do" },
        cfg.game.width,
        cfg.game.height,
        cfg.game.rules,
        numbers.join(", "),
        skipped.first().map_or("", |(_, why)| why.as_str())
    )
}

/// Plays the match. `Err` when nothing was scored: the configuration, an output path or an engine's
/// start failed. A record that cannot be written later stops the match with `Ok` and
/// [`Summary::output_error`] set, the games played so far counted.
pub fn run_match(cfg: &MatchConfig) -> Result<Summary, MatchError> {
    let Openings { placed, skipped } = validate(cfg).map_err(MatchError::Config)?;
    if !skipped.is_empty() {
        log::warn!("{}", skipped_warning(cfg, &skipped));
    }
    if let Some((count, g)) = &cfg.fresh
        && cfg.progress
    {
        // Told now as well as in the summary, so that a run stopped early can still be repeated.
        let _ = writeln!(std::io::stderr(), "{count} fresh openings, seed {}", g.seed);
    }
    let recorder = Recorder::open(cfg.psq_dir.as_deref(), cfg.sgf.as_deref()).map_err(MatchError::Output)?;
    let live = cfg.live.as_deref().map(live::Writer::create).transpose().map_err(MatchError::Output)?;
    let names = distinct_names(&cfg.engines.iter().map(|e| e.name.clone()).collect::<Vec<_>>());
    let pairs = pairings(cfg.engines.len(), cfg.gauntlet);
    let order: Vec<usize> = match cfg.shuffle_seed {
        Some(seed) => shuffled(placed.len(), seed),
        None => (0..placed.len()).collect(),
    };
    let mut jobs = schedule(cfg.games_per_pair, &pairs, &order);
    jobs.retain(|job| cfg.shard.owns(job.k));
    let scheduled = jobs.len();
    if scheduled == 0 {
        log::warn!(
            "shard {} has no games: the run has only {} a pairing",
            cfg.shard,
            plural(cfg.games_per_pair as u64, "game")
        );
    }
    // More workers than games would only start engines that never play.
    let workers = cfg.concurrency.clamp(1, scheduled.max(1));
    let summary = Summary {
        names: names.clone(),
        pairs: pairs.iter().map(|&(a, b)| PairResult { a, b, ..Default::default() }).collect(),
        times: vec![TimeStats::default(); cfg.engines.len()],
        scheduled,
        skipped_openings: skipped.iter().map(|&(number, _)| number).collect(),
        fresh: cfg.fresh.as_ref().map(|(count, g)| (*count, g.seed)),
        shard: cfg.shard,
        openings_id: openings_id(&placed, &order),
        ..Default::default()
    };
    let running = Match {
        cfg,
        names,
        placed,
        recorder,
        live,
        queue: Mutex::new(jobs),
        summary: Mutex::new(summary),
        stop: AtomicBool::new(false),
        start_error: Mutex::new(None),
        node_error: Mutex::new(None),
        started: Barrier::new(workers),
        began: Instant::now(),
    };
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| running.work());
        }
    });
    running.finish()
}

/// Every pair of the `n` engines, or the first against each other one in a gauntlet.
pub(crate) fn pairings(n: usize, gauntlet: bool) -> Vec<(usize, usize)> {
    if gauntlet {
        (1..n).map(|j| (0, j)).collect()
    } else {
        (0..n).flat_map(|i| (i + 1..n).map(move |j| (i, j))).collect()
    }
}

/// A match being played: what its workers read, and what they share.
struct Match<'a> {
    cfg: &'a MatchConfig,
    names: Vec<String>,
    placed: Vec<(usize, Vec<Pos>)>,
    recorder: Recorder,
    live: Option<live::Writer>,
    queue: Mutex<VecDeque<Job>>,
    summary: Mutex<Summary>,
    /// Set when the SPRT decides or a record cannot be written: no worker takes another game.
    stop: AtomicBool,
    /// The first engine that could not start: no game is played.
    start_error: Mutex<Option<MatchError>>,
    /// The first engine found to ignore its node count: the match stops.
    node_error: Mutex<Option<MatchError>>,
    /// Every worker's engines started before any game.
    started: Barrier,
    began: Instant,
}

impl Match<'_> {
    /// One worker: its own brain processes, then games from the queue until it is empty or the match
    /// stops.
    fn work(&self) {
        let mut seats: Vec<Seat> = self
            .cfg
            .engines
            .iter()
            .zip(&self.names)
            .map(|(e, name)| {
                let mut seat = Seat::new(name.clone(), e.command.clone());
                seat.max_nodes = e.nodes;
                seat
            })
            .collect();
        self.start(&mut seats);
        self.started.wait();
        let failed = lock(&self.start_error).is_some();
        while !failed && !self.stop.load(Ordering::Relaxed) {
            let Some(job) = lock(&self.queue).pop_front() else {
                break;
            };
            self.play(&mut seats, &job);
        }
        for seat in &mut seats {
            seat.close();
        }
    }

    /// Every worker starts its engines and has their START answered before any game, so an engine
    /// that cannot play stops the match before a game is scored.
    fn start(&self, seats: &mut [Seat]) {
        for seat in seats {
            if let Err((fault, detail)) = seat.start(&self.cfg.game) {
                let mut first = lock(&self.start_error);
                first.get_or_insert(MatchError::EngineStart { engine: seat.name.clone(), fault, detail });
                break;
            }
        }
    }

    /// Plays one game, records it and scores it.
    fn play(&self, seats: &mut [Seat], job: &Job) {
        let opening = job.opening.map_or(&[][..], |i| &self.placed[i].1[..]);
        let result = {
            let (b, w) = two_mut(seats, job.black, job.white);
            let live = self.live.as_ref();
            if let Some(l) = live {
                l.begin(job.number, &self.cfg.game, opening, [&b.name, &w.name]);
            }
            play_watched(&self.cfg.game, opening, [b, w], &mut |m| {
                live.inspect(|l| l.moved(job.number, m));
                true
            })
        };
        let live_written = self.live.as_ref().map_or(Ok(()), |l| l.end(job.number, &result));
        let written = self.recorder.write(job.number, &result.record).and(live_written);
        let mut s = lock(&self.summary);
        tally(&mut s, job, job.opening.map(|i| self.placed[i].0), &result);
        for engine in [job.black, job.white] {
            if let Some(e) = self.ignores_nodes(&s, engine) {
                self.stop.store(true, Ordering::Relaxed);
                lock(&self.node_error).get_or_insert(e);
            }
        }
        // A shard plays its part in full: whether the SPRT decides is for the merge of all the shards.
        if let Some(sprt) = self.cfg.sprt
            && self.cfg.shard.is_whole()
            && sprt_decides(&mut s, sprt)
        {
            self.stop.store(true, Ordering::Relaxed);
        }
        if let Err(e) = written {
            // The rest of the match would go unrecorded: stop, and keep the results.
            self.stop.store(true, Ordering::Relaxed);
            s.output_error.get_or_insert(e);
        }
        if self.cfg.progress {
            let line = progress_line(&s, job, &result, self.began);
            let _ = writeln!(std::io::stderr(), "{line}");
        }
    }

    /// Whether `engine`, given a node count, answers as late as an engine that ignores it: on average
    /// most of the turn, once it has answered enough to tell.
    fn ignores_nodes(&self, s: &Summary, engine: usize) -> Option<MatchError> {
        let nodes = self.cfg.engines[engine].nodes.unwrap_or(self.cfg.game.max_nodes);
        let (t, turn_ms) = (&s.times[engine], self.cfg.game.turn_ms);
        if nodes == 0 || turn_ms == 0 || t.answers < NODE_CHECK_ANSWERS {
            return None;
        }
        let mean_ms = t.total_us / t.answers / 1000;
        (mean_ms as f64 >= NODE_CHECK_SHARE * turn_ms as f64).then(|| MatchError::IgnoresNodes {
            engine: self.names[engine].clone(),
            nodes,
            mean_ms,
            turn_ms,
        })
    }

    /// The summary once every worker is done, or why no game was played or the match was stopped.
    fn finish(self) -> Result<Summary, MatchError> {
        if let Some(e) = self.start_error.into_inner().unwrap_or_else(|e| e.into_inner()) {
            return Err(e);
        }
        if let Some(e) = self.node_error.into_inner().unwrap_or_else(|e| e.into_inner()) {
            return Err(e);
        }
        let mut s = self.summary.into_inner().unwrap_or_else(|e| e.into_inner());
        s.seconds = self.began.elapsed().as_secs_f64();
        Ok(s)
    }
}

/// A lock, even if a worker panicked while holding it: the others finish the match.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The match's games in the order they are played: the pairings interleaved, so that partial results
/// cover all of them; game `k` of a pairing swaps the colours when `k` is odd and plays opening
/// `order[k / 2]` (round and round; none without openings).
fn schedule(games_per_pair: usize, pairs: &[(usize, usize)], order: &[usize]) -> VecDeque<Job> {
    let mut jobs = VecDeque::new();
    for k in 0..games_per_pair {
        for (pi, &(a, b)) in pairs.iter().enumerate() {
            let (black, white) = if k % 2 == 0 { (a, b) } else { (b, a) };
            let opening = (!order.is_empty()).then(|| order[(k / 2) % order.len()]);
            jobs.push_back(Job { pair: pi, black, white, opening, number: jobs.len() + 1, k });
        }
    }
    jobs
}

/// Brings the SPRT of the first pairing up to date after a game, unless it has decided already; true
/// when it decides now (the match stops).
fn sprt_decides(s: &mut Summary, sprt: Sprt) -> bool {
    if s.sprt.is_some_and(|(_, _, v)| v != SprtVerdict::Continue) {
        return false;
    }
    let r = s.pairs[0].total;
    let verdict = sprt.verdict(&r);
    s.sprt = Some((sprt, sprt.llr(&r), verdict));
    verdict != SprtVerdict::Continue
}

/// Two distinct seats borrowed at once.
fn two_mut(seats: &mut [Seat], i: usize, j: usize) -> (&mut Seat, &mut Seat) {
    debug_assert_ne!(i, j);
    if i < j {
        let (lo, hi) = seats.split_at_mut(j);
        (&mut lo[i], &mut hi[0])
    } else {
        let (lo, hi) = seats.split_at_mut(i);
        (&mut hi[0], &mut lo[j])
    }
}

/// Adds a finished game to the summary; `opening` is its opening's number in the file.
fn tally(s: &mut Summary, job: &Job, opening: Option<usize>, r: &GameResult) {
    s.games += 1;
    let pair = &mut s.pairs[job.pair];
    let a_is_black = pair.a == job.black;
    let black_view = match r.winner {
        Some(Color::Black) => Wld { wins: 1, ..Default::default() },
        Some(Color::White) => Wld { losses: 1, ..Default::default() },
        None => Wld { draws: 1, ..Default::default() },
    };
    let a_view = if a_is_black { black_view } else { black_view.flip() };
    pair.total.add(a_view);
    if a_is_black {
        pair.a_black.add(a_view)
    } else {
        pair.a_white.add(a_view)
    }
    if let Some(number) = opening {
        pair.by_opening.entry(number).or_default()[usize::from(!a_is_black)].add(a_view);
    }
    if let Some(w) = r.winner {
        let loser = if w == Color::Black { job.white } else { job.black };
        let what = match &r.ending {
            Ending::Fault(f, _) => Some(f.to_string()),
            Ending::Foul(k) => Some(format!("renju foul ({k})")),
            Ending::Illegal(why) => Some(format!("illegal move ({why})")),
            _ => None,
        };
        if let Some(what) = what {
            *s.losses.entry((loser, what)).or_default() += 1;
        }
    }
    for (side, engine) in [(0, job.black), (1, job.white)] {
        let t = &mut s.times[engine];
        for a in &r.times[side] {
            t.answers += 1;
            t.total_us += a.elapsed_us;
            t.worst_us = t.worst_us.max(a.elapsed_us);
            if let Some(b) = a.budget_ms.filter(|&b| b > 0) {
                t.worst_fraction = t.worst_fraction.max(a.elapsed_us as f64 / (1000.0 * b as f64));
            }
        }
    }
}

fn progress_line(s: &Summary, job: &Job, r: &GameResult, began: Instant) -> String {
    let done = s.games;
    let elapsed = began.elapsed().as_secs_f64();
    let eta = if done > 0 { elapsed / done as f64 * (s.scheduled.saturating_sub(done)) as f64 } else { 0.0 };
    let p = &s.pairs[job.pair];
    let result = match r.winner {
        Some(Color::Black) => "1-0",
        Some(Color::White) => "0-1",
        None => "1/2",
    };
    format!(
        "[{done}/{}] {} vs {} {result} ({}); {} vs {}: {:.1}/{} ({:.1}%), eta {}",
        s.scheduled,
        s.names[job.black],
        s.names[job.white],
        r.ending,
        s.names[p.a],
        s.names[p.b],
        p.total.points(),
        p.total.games(),
        100.0 * p.total.score(),
        duration(eta)
    )
}

fn duration(secs: f64) -> String {
    let s = secs.round() as u64;
    if s >= 3600 {
        format!("{}h{:02}m", s / 3600, s % 3600 / 60)
    } else {
        format!("{}m{:02}s", s / 60, s % 60)
    }
}

fn elo_text(e: f64) -> String {
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
        let fresh = self.fresh.map_or(String::new(), |(n, seed)| {
            format!(", {} fresh opening{}, seed {seed}", n, if n == 1 { "" } else { "s" })
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::rules::Rules;
    use crate::tools::client::process::StderrMode;
    use crate::tools::record::write::GameRecord;

    #[test]
    fn shuffle_is_a_permutation_and_repeatable() {
        let a = shuffled(41, 7);
        let mut sorted = a.clone();
        sorted.sort();
        assert_eq!(sorted, (0..41).collect::<Vec<_>>());
        assert_eq!(a, shuffled(41, 7));
        assert_ne!(a, shuffled(41, 8));
    }

    #[test]
    fn shards_split_the_schedule_by_opening_pair() {
        let pairs = pairings(3, false);
        let whole: Vec<(usize, usize, usize, Option<usize>)> = schedule(9, &pairs, &[4, 0, 2])
            .into_iter()
            .map(|j| (j.number, j.black, j.white, j.opening))
            .collect();
        let mut seen = vec![];
        for index in 1..=3 {
            let shard = Shard { index, count: 3 };
            for job in schedule(9, &pairs, &[4, 0, 2]).into_iter().filter(|j| shard.owns(j.k)) {
                // Both colours of an opening in one shard, and the whole run's game in every respect.
                assert!(shard.owns(job.k ^ 1));
                assert!(whole.contains(&(job.number, job.black, job.white, job.opening)));
                seen.push(job.number);
            }
        }
        seen.sort();
        assert_eq!(seen, (1..=27).collect::<Vec<_>>());
        assert_eq!(Shard::parse("2/5"), Ok(Shard { index: 2, count: 5 }));
        for bad in ["0/2", "3/2", "x/y", "2", "1/0", "-1/2", ""] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
    }

    fn game(winner: Option<Color>) -> GameResult {
        let record = GameRecord {
            width: 15,
            height: 15,
            rule: 0,
            black: String::new(),
            white: String::new(),
            setup: [vec![], vec![]],
            moves: vec![],
            opening_len: 0,
            winner,
            reason: String::new(),
        };
        GameResult { record, ending: Ending::Five, winner, times: [vec![], vec![]] }
    }

    #[test]
    fn repeated_names_are_numbered() {
        let names = |v: &[&str]| distinct_names(&v.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert_eq!(names(&["qx", "qx", "rival", "qx"]), ["qx", "qx#2", "rival", "qx#3"]);
        // A name already given is not taken by a repeat.
        assert_eq!(names(&["qx", "qx", "qx#2"]), ["qx", "qx#3", "qx#2"]);
        assert_eq!(names(&["a", "b"]), ["a", "b"]);
    }

    #[test]
    fn openings_that_do_not_fit_are_skipped_and_counted() {
        let cfg = MatchConfig {
            engines: vec![EngineSpec::new("a", vec![]); 2],
            gauntlet: false,
            game: GameSettings {
                rules: Rules::default(),
                width: 15,
                height: 15,
                turn_ms: 1000,
                game_ms: 0,
                tolerance_ms: 0,
                start_timeout_ms: 0,
                max_memory: 0,
                threads: 0,
                max_nodes: 0,
                max_stones: 225,
                pause_ms: 0,
                stderr: StderrMode::Ignore,
            },
            games_per_pair: 2,
            openings: crate::tools::record::opening::parse_openings("0,0, 1,0\n-8,-6, 0,1\n0,0, 0,0\n1,1\n")
                .unwrap(),
            fresh: None,
            shuffle_seed: None,
            concurrency: 1,
            sprt: None,
            psq_dir: None,
            sgf: None,
            live: None,
            progress: false,
            by_opening: false,
            shard: Shard::WHOLE,
        };
        let Openings { placed, skipped } = validate(&cfg).unwrap();
        assert_eq!(placed.iter().map(|(n, _)| *n).collect::<Vec<_>>(), [1, 4]);
        assert_eq!(skipped.iter().map(|(n, _)| *n).collect::<Vec<_>>(), [2, 3]);
        assert_eq!(skipped_warning(&cfg, &skipped).lines().count(), 1);
        // A move must be limited by one clock or the other: the referee waits on no answer for ever.
        let mut unlimited = cfg;
        unlimited.game.turn_ms = 0;
        assert!(validate(&unlimited).is_err());
        unlimited.game.game_ms = 5000;
        assert!(validate(&unlimited).is_ok());
    }

    #[test]
    fn results_are_kept_per_opening_and_colour() {
        let mut s = Summary {
            names: vec!["qx".into(), "rival".into()],
            pairs: vec![PairResult { a: 0, b: 1, ..Default::default() }],
            times: vec![TimeStats::default(); 2],
            ..Default::default()
        };
        let job = |black| Job { pair: 0, black, white: 1 - black, opening: None, number: 1, k: 0 };
        // Opening 39: qx wins as black and loses as white; opening 2: qx wins as white, draws as black.
        tally(&mut s, &job(0), Some(39), &game(Some(Color::Black)));
        tally(&mut s, &job(1), Some(39), &game(Some(Color::Black)));
        tally(&mut s, &job(1), Some(2), &game(Some(Color::Black.opp())));
        tally(&mut s, &job(0), Some(2), &game(None));
        // A game without an opening counts in the totals only.
        tally(&mut s, &job(0), None, &game(Some(Color::Black)));
        assert_eq!(s.pairs[0].total, Wld { wins: 3, losses: 1, draws: 1 });
        assert_eq!(
            s.render_openings(),
            "qx vs rival by opening (its number in the file: qx as black, as white, score):\n\
             \x20    2: +0 -0 =1, +1 -0 =0, 1.5/2 (75%)\n\
             \x20   39: +1 -0 =0, +0 -1 =0, 1.0/2 (50%)\n"
        );
    }
}
