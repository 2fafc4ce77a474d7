//! `pbrain-quincunx selfplay`: the command line of self-play for training data, and what `tune` and
//! `label` run the same way: the games' openings and search a move, and the file a run continues.

use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use quincunx::game::random::clock_seed;
use quincunx::game::rules::Rules;
use quincunx::tools::learn::selfplay::{self, GameRecord, MoveLimit, RunError, SelfplayConfig, Tally};
use quincunx::tools::matches::opening_gen;
use quincunx::tools::matches::shard::Shard;

use crate::cli::{check_gen, num, parse_size, rule_of, stone_range, usage, whole};

/// Plays the search against itself for training data
#[derive(clap::Args)]
#[command(
    before_help = "Games between two copies of the search (each its own table) on fresh balanced openings; every
position after the opening is written with the search's score and the game's result, one line a game
(docs/training.md). Resumable: run the same command again after any stop and it plays only the
games FILE lacks. A progress line goes to stderr."
)]
pub struct SelfplayArgs {
    /// Games in the run
    #[arg(long, value_name = "N", required = true, value_parser = whole::<usize, 1>)]
    games: usize,
    /// The data file, created or continued
    #[arg(long, value_name = "FILE", required = true)]
    out: PathBuf,
    /// The games, cycled batch by batch: Gomocup codes (0 freestyle, 1 exact, 4 renju,
    /// 8 caro, 9 caro-exact) or names (those and pente, keryo, gpente); default freestyle
    #[arg(long, value_name = "R[,R...]", value_delimiter = ',', value_parser = rule_of, verbatim_doc_comment)]
    rule: Vec<Rules>,
    /// Boards, N or WxH, each rule on each (default 15x15, 19x19 for the Pente family)
    #[arg(long, value_name = "N[,N...]", value_delimiter = ',', value_parser = parse_size)]
    size: Vec<(usize, usize)>,
    #[command(flatten)]
    play: GameOptions<DEFAULT_NODES>,
    /// The openings' seed (default: the file's, else the clock)
    #[arg(long, value_name = "S", value_parser = num::<u64>)]
    seed: Option<u64>,
    /// Play only part K of N of the run: the 16-game batches b with b mod N = K-1
    #[arg(long, value_name = "K/N", value_parser = Shard::parse)]
    shard: Option<Shard>,
    /// Games at once, one thread each (default: the cores)
    #[arg(long, value_name = "C", value_parser = whole::<usize, 1>)]
    concurrency: Option<usize>,
}

/// Nodes a move unless told otherwise: about 7 ms of search at 750,000 nodes a second.
const DEFAULT_NODES: u64 = 5000;

/// How the games of the search against itself (`selfplay`, `tune`) are played: the openings' stones
/// and the search a move, `NODES` nodes unless told otherwise.
#[derive(clap::Args)]
pub struct GameOptions<const NODES: u64> {
    /// Stones per opening (default 3-10)
    #[arg(long, value_name = "A-B", value_parser = stone_range)]
    stones: Option<(usize, usize)>,
    // The help names each command's own default.
    #[arg(long, value_name = "N", conflicts_with = "time", value_parser = whole::<u64, 1>,
        help = format!("Search nodes a move (default {NODES}; deterministic)"))]
    nodes: Option<u64>,
    /// Milliseconds a move instead of a node count
    #[arg(long, value_name = "MS", value_parser = whole::<u64, 1>)]
    time: Option<u64>,
}

impl<const NODES: u64> GameOptions<NODES> {
    /// Stones per opening.
    pub fn stones(&self) -> (usize, usize) {
        self.stones.unwrap_or(opening_gen::DEFAULT_STONES)
    }

    /// How long a move is searched.
    pub fn limit(&self) -> MoveLimit {
        match self.time {
            Some(t) => MoveLimit::Time(t),
            None => MoveLimit::Nodes(self.nodes.unwrap_or(NODES)),
        }
    }
}

/// The seed a file's header names, if any.
fn header_seed(path: &PathBuf) -> Option<u64> {
    let text = std::fs::read_to_string(path).ok()?;
    let header = text.lines().find(|l| l.starts_with('#'))?;
    selfplay::field_of(header, "seed")?.parse().ok()
}

impl SelfplayArgs {
    /// The run the options describe, every rule and board checked by the generator before any game.
    fn config(&self) -> Result<SelfplayConfig> {
        let stones = self.play.stones();
        let seed = self.seed.or_else(|| header_seed(&self.out)).unwrap_or_else(clock_seed);
        let rules = if self.rule.is_empty() { vec![Rules::default()] } else { self.rule.clone() };
        // Every rule on every size. Without --size each game is on its own default board (19x19 for the
        // Pente family, else 15x15).
        let games_of: Vec<(Rules, usize, usize)> = rules
            .iter()
            .flat_map(|&r| {
                let side = r.default_side();
                let sizes = if self.size.is_empty() { vec![(side, side)] } else { self.size.clone() };
                sizes.into_iter().map(move |(w, h)| (r, w, h))
            })
            .collect();
        for &(rules, w, h) in &games_of {
            let batch = opening_gen::GenConfig { stones, ..opening_gen::GenConfig::new(rules, w, h, seed) };
            check_gen(&batch)?;
        }
        let shard = self.shard.unwrap_or(Shard::WHOLE);
        let limit = self.play.limit();
        Ok(SelfplayConfig { games_of, stones, seed, games: self.games, limit, shard })
    }

    /// `pbrain-quincunx selfplay …`
    pub fn run(self) -> Result<()> {
        let cfg = self.config().map_err(|e| usage("selfplay", e))?;
        let out = self.out;
        let concurrency = self
            .concurrency
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
            .max(1);
        let header = cfg.header();
        let (games, mut file) = continue_file(&out, &header, "a game", |_: &[GameRecord]| Ok(()))?;
        let done: BTreeSet<usize> = games.iter().map(|g| g.index).collect();
        let started = Instant::now();
        let last = std::sync::Mutex::new(Instant::now());
        let resumed = done.len();
        let progress = |t: &Tally| {
            let mut last = last.lock().unwrap_or_else(|e| e.into_inner());
            if last.elapsed() >= Duration::from_secs(5) {
                *last = Instant::now();
                eprintln!("{}", progress_line(t, resumed, cfg.games, started.elapsed()));
            }
        };
        let tally = selfplay::run(&cfg, &done, concurrency, &mut file, &progress)?;
        eprintln!("{}", progress_line(&tally, resumed, cfg.games, started.elapsed()));
        Ok(())
    }
}

/// A file's text, "" when there is none yet.
pub fn text_or_empty(path: &Path) -> Result<String> {
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(text),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(String::new()),
        Err(e) => Err(e).with_context(|| format!("cannot read {}", path.display())),
    }
}

/// Opens the file of a resumable run (`selfplay`'s and `label`'s games, `tune`'s iterations, each line
/// `what`) to go on with it: the lines it holds, and the file to append to, its header written when it
/// is new and a last line a stop cut closed if it is whole, cut off if not. A file whose header names
/// another run, or whose lines `check` refuses, is refused before anything is written: two runs never
/// mix in one file.
pub fn continue_file<T: FromStr<Err = String>>(
    out: &Path,
    header: &str,
    what: &str,
    check: impl FnOnce(&[T]) -> Result<(), RunError>,
) -> Result<(Vec<T>, std::fs::File)> {
    let existing = text_or_empty(out)?;
    let (found, lines) = selfplay::read_run(&existing, what).with_context(|| format!("{}", out.display()))?;
    if let Some(found) = found
        && found != header
    {
        bail!("{}: {}", out.display(), RunError::OtherRun { found, expected: header.to_string() });
    }
    check(&lines).with_context(|| format!("{}", out.display()))?;
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(out)
        .with_context(|| format!("cannot write {}", out.display()))?;
    let last = existing.lines().last().unwrap_or_default();
    if existing.is_empty() {
        writeln!(file, "{header}")?;
    } else if !existing.ends_with('\n') && (last.starts_with('#') || last.parse::<T>().is_ok()) {
        // A whole last line that lost only its newline to a stop: closed, and counted above.
        writeln!(file)?;
    } else if !existing.ends_with('\n') {
        // A line cut by a stop (not counted above) is cut off, or the next resume would read it
        // in the middle of the file as a bad line.
        let keep = existing.rfind('\n').map_or(0, |i| i + 1);
        file.set_len(keep as u64).with_context(|| format!("cannot write {}", out.display()))?;
        if keep == 0 {
            writeln!(file, "{header}")?;
        }
    }
    Ok((lines, file))
}

fn progress_line(t: &Tally, resumed: usize, games: usize, elapsed: Duration) -> String {
    let rate = t.positions as f64 / elapsed.as_secs_f64().max(1e-3);
    format!(
        "selfplay: {} of {games} games in the file ({} now: black {}, white {}, draws {}), {} positions, {rate:.0} positions/s",
        resumed + t.games,
        t.games,
        t.black,
        t.white,
        t.draws,
        t.positions
    )
}
