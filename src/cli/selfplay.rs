//! `pbrain-quincunx selfplay`: the command line of self-play for training data.

use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use quincunx::game::rules::Rules;
use quincunx::tools::random::clock_seed;
use quincunx::tools::selfplay::{self, GameRecord, SelfplayConfig, Tally};
use quincunx::tools::shard::Shard;
use quincunx::tools::{default_side, opening_gen};

use crate::cli::{GameChoice, num, stone_range, unknown_option, usage, whole};

const SELFPLAY_USAGE: &str = "\
usage: pbrain-quincunx selfplay --games N --out FILE [options]

Plays games between two copies of the search (each its own table) on fresh balanced openings and
writes every position after the opening with the search's score and the game's result, one line a
game (docs/training.md). Resumable: run the same command again after any stop and it plays only the
games FILE lacks. A progress line goes to stderr.
  --games N           games in the run (required)
  --out FILE          the data file, created or continued (required)
  --rule R[,R...]     the games, cycled batch by batch: Gomocup codes (0 freestyle, 1 exact, 4 renju,
                      8 caro, 9 caro-exact) or names (those and pente, keryo, gpente); default freestyle
  --size N[,N...]     boards, N or WxH, each rule on each (default 15x15, 19x19 for the Pente family)
  --stones A-B        stones per opening (default 3-10)
  --nodes N           search nodes a move (default 5000; deterministic)
  --time MS           milliseconds a move instead of a node count
  --seed S            the openings' seed (default: the file's, else the clock)
  --shard K/N         play only part K of N of the run: the batches of 16 games b with b mod N = K-1
  --concurrency C     games at once, one thread each (default: the cores)";

/// The options, for the nearest one to a slip of the keyboard.
const FLAGS: &[&str] = &[
    "--games",
    "--out",
    "--rule",
    "--size",
    "--stones",
    "--nodes",
    "--time",
    "--seed",
    "--shard",
    "--concurrency",
    "--help",
];

/// Nodes a move unless told otherwise: about 7 ms of search at 750,000 nodes a second.
const DEFAULT_NODES: u64 = 5000;

struct SelfplayArgs {
    cfg: SelfplayConfig,
    out: PathBuf,
    concurrency: usize,
}

/// One item of a `--rule` or `--size` list, read as the other subcommands read the option.
fn game_option<T>(flag: &str, item: &str, read: impl FnOnce(&GameChoice) -> Result<T>) -> Result<T> {
    let mut choice = GameChoice::default();
    choice.take(flag, || Ok(item.to_string()))?;
    read(&choice)
}

/// The seed a file's header names, if any.
fn header_seed(path: &PathBuf) -> Option<u64> {
    let text = std::fs::read_to_string(path).ok()?;
    let header = text.lines().find(|l| l.starts_with('#'))?;
    header.split_whitespace().find_map(|w| w.strip_prefix("seed=")).and_then(|s| s.parse().ok())
}

fn parse_args(args: &[String]) -> Result<Option<SelfplayArgs>> {
    let (mut games, mut out, mut rules, mut sizes) = (None, None, vec![Rules::default()], None);
    let (mut stones, mut nodes, mut time, mut seed) = (opening_gen::DEFAULT_STONES, None, None, None);
    let (mut shard, mut concurrency) = (Shard::WHOLE, None);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || it.next().cloned().with_context(|| format!("{a} needs a value"));
        match a.as_str() {
            "--games" => games = Some(whole::<usize>(a, &value()?, 1)?),
            "--out" => out = Some(PathBuf::from(value()?)),
            "--rule" => {
                rules = value()?
                    .split(',')
                    .map(|r| game_option(a, r, GameChoice::rules))
                    .collect::<Result<_>>()?
            }
            "--size" => {
                let list = value()?;
                let read = |c: &GameChoice| c.size_given().context("--size needs a value");
                sizes = Some(list.split(',').map(|n| game_option(a, n, read)).collect::<Result<Vec<_>>>()?);
            }
            "--stones" => stones = stone_range(a, &value()?)?,
            "--nodes" => nodes = Some(whole::<u64>(a, &value()?, 1)?),
            "--time" => time = Some(whole::<u64>(a, &value()?, 1)?),
            "--seed" => seed = Some(num::<u64>(a, &value()?)?),
            "--shard" => shard = Shard::parse(&value()?).map_err(|e| anyhow::anyhow!("{a}: {e}"))?,
            "--concurrency" => concurrency = Some(whole::<usize>(a, &value()?, 1)?),
            "-h" | "--help" => return Ok(None),
            other => return Err(unknown_option("selfplay", other, FLAGS)),
        }
    }
    let games = games.context("--games is required")?;
    let out = out.context("--out is required")?;
    if nodes.is_some() && time.is_some() {
        bail!("--nodes and --time: give one limit a move");
    }
    let nodes = if time.is_some() { None } else { Some(nodes.unwrap_or(DEFAULT_NODES)) };
    let seed = seed.or_else(|| header_seed(&out)).unwrap_or_else(clock_seed);
    // Every rule on every size, each checked by the generator before any game.
    // Without --size each game is on its own default board (19x19 for the Pente family, else 15x15).
    let games_of: Vec<(Rules, usize, usize)> = rules
        .iter()
        .flat_map(|&r| {
            let side = default_side(&r);
            sizes.clone().unwrap_or_else(|| vec![(side, side)]).into_iter().map(move |(w, h)| (r, w, h))
        })
        .collect();
    for &(rules, w, h) in &games_of {
        let batch = opening_gen::GenConfig { stones, ..opening_gen::GenConfig::new(rules, w, h, seed) };
        opening_gen::check(&batch).map_err(|e| anyhow::anyhow!("{e}"))?;
    }
    let cfg = SelfplayConfig { games_of, stones, seed, games, nodes, time_ms: time, shard };
    let concurrency =
        concurrency.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    Ok(Some(SelfplayArgs { cfg, out, concurrency: concurrency.max(1) }))
}

/// `pbrain-quincunx selfplay …`
pub fn selfplay_command(args: &[String]) -> Result<()> {
    let Some(SelfplayArgs { cfg, out, concurrency }) = parse_args(args).map_err(|e| usage("selfplay", e))?
    else {
        outln!("{SELFPLAY_USAGE}")?;
        return Ok(());
    };
    let header = cfg.header();
    let (games, mut file) = continue_file(&out, &header)?;
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

/// Opens the file of a resumable run of game lines (`selfplay`, `label`) to go on with it: the lines it
/// holds, and the file to append to, its header written when it is new and a line cut by a stop
/// closed. A file whose header names another run is refused: two runs never mix in one file.
pub fn continue_file(out: &Path, header: &str) -> Result<(Vec<GameRecord>, std::fs::File)> {
    let existing = match std::fs::read_to_string(out) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", out.display())),
    };
    let (found, lines) = selfplay::read_file(&existing).with_context(|| format!("{}", out.display()))?;
    if let Some(found) = found
        && found != header
    {
        bail!("{}: {}", out.display(), selfplay::RunError::OtherRun { found, expected: header.to_string() });
    }
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(out)
        .with_context(|| format!("cannot write {}", out.display()))?;
    if existing.is_empty() {
        writeln!(file, "{header}")?;
    } else if !existing.ends_with('\n') {
        // A line cut by a stop: the next one starts on a line of its own.
        writeln!(file)?;
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
