//! Playing a match between engines: round robin or gauntlet, openings played with both colours,
//! several games at once, each tallied into the [`Summary`] as it ends, an optional SPRT that stops
//! early, game records and a live file of every move. The configuration and its checks are
//! [`super::config`], the results and their text [`super::summary`].
//!
//! Scheduling: for every pairing (a, b) the games are numbered k = 0, 1, 2, …; game k uses opening
//! k / 2 (in file order or the order drawn, or a seeded shuffle of it) and a plays black when k is
//! even, so each opening is played twice with the colours swapped. Each worker thread owns its own brain processes, so a brain
//! never plays two games at once.
//!
//! Shards: `--shard K/N` plays the part of that very schedule whose opening pair k / 2 is K − 1 modulo
//! N ([`Shard::owns`](super::shard::Shard::owns)), with the whole run's game numbers, openings and colours; its results are merged
//! by [`super::results`]. A shard never stops on the SPRT: only the merge sees all the games.
//!
//! Everything that can make a match pointless is checked before the first game is scored: the
//! configuration, the openings, the output paths, and every engine's start and first START. After that
//! a match always ends with its summary: a record that cannot be written stops the games still to be
//! played and is reported with the summary ([`Summary::output_error`]).
//!
//! Invariant: the runner never waits on a brain without a deadline ([`crate::tools::client::referee`]), and every
//! process it started is gone when [`run_match`] returns.

use std::collections::VecDeque;
use std::io::Write as _;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Barrier, Mutex, MutexGuard};
use std::time::Instant;

use crate::game::board::{Color, Pos};
use crate::tools::client::referee::distinct_names;
use crate::tools::client::referee::{Ending, GameResult, Seat, play_watched};
use crate::tools::matches::config::{
    MatchConfig, MatchError, Openings, openings_id, pairings, shuffled, skipped_warning, validate,
};
use crate::tools::matches::elo::Wld;
use crate::tools::matches::live;
use crate::tools::matches::opening_gen::plural;
use crate::tools::matches::results::{fresh_of, openings_words};
use crate::tools::matches::summary::{PairResult, Summary, TimeStats, duration, sprt_decides};
use crate::tools::record::write::Recorder;

/// Answers an engine has given before its answer times can tell that it ignores its node count.
const NODE_CHECK_ANSWERS: u64 = 20;
/// An engine whose answers take this share of the turn on average is not stopped by its node count.
const NODE_CHECK_SHARE: f64 = 0.8;

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
        // The identity's words are the one description of the draw (`results::fresh_of` reads them).
        fresh: fresh_of(&openings_words(cfg)).ok().flatten(),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::matches::shard::Shard;

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
        crate::tools::client::referee::fixtures::result(winner, Ending::Five)
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
