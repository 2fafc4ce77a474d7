//! `pbrain-quincunx label`: the command line of deep labels for training.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use quincunx::tools::label::{self, LabelConfig, Tally};
use quincunx::tools::selfplay;
use quincunx::tools::shard::Shard;

use crate::cli::selfplay::continue_file;
use crate::cli::{num, unknown_option, usage, whole};

const LABEL_USAGE: &str = "\
usage: pbrain-quincunx label --out FILE [options] GAMES...

Draws a few quiet positions from each game of self-play files (GAMES, as `selfplay` writes them) and
searches each far deeper than the games were: its score and best move make a label, written as a
self-play line of that one position, the best move last, so that `train` reads FILE as it reads games
(docs/training.md). Resumable: run the same command again after any stop and it labels only what FILE
lacks. A progress line goes to stderr.
  --out FILE          the label file, created or continued (required)
  --nodes N           search nodes a label, on one thread (default 100000; deterministic)
  --per-game P        positions drawn from each game (default 4)
  --seed S            which positions are drawn (default 1)
  --shard K/N         label only the games k with k mod N = K-1
  --concurrency C     labels at once, one thread each (default: the cores)";

const FLAGS: &[&str] = &["--out", "--nodes", "--per-game", "--seed", "--shard", "--concurrency", "--help"];

struct LabelArgs {
    cfg: LabelConfig,
    out: PathBuf,
    sources: Vec<PathBuf>,
    concurrency: usize,
}

fn parse_args(args: &[String]) -> Result<Option<LabelArgs>> {
    let (mut out, mut nodes, mut per_game, mut seed) = (None, 100_000, 4, 1);
    let (mut shard, mut concurrency, mut sources) = (Shard::WHOLE, None, vec![]);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || it.next().cloned().with_context(|| format!("{a} needs a value"));
        match a.as_str() {
            "--out" => out = Some(PathBuf::from(value()?)),
            "--nodes" => nodes = whole::<u64>(a, &value()?, 1)?,
            "--per-game" => per_game = whole::<usize>(a, &value()?, 1)?,
            "--seed" => seed = num::<u64>(a, &value()?)?,
            "--shard" => shard = Shard::parse(&value()?).map_err(|e| anyhow::anyhow!("{a}: {e}"))?,
            "--concurrency" => concurrency = Some(whole::<usize>(a, &value()?, 1)?),
            "-h" | "--help" => return Ok(None),
            other if other.starts_with('-') => return Err(unknown_option("label", other, FLAGS)),
            file => sources.push(PathBuf::from(file)),
        }
    }
    let out = out.context("--out is required")?;
    if sources.is_empty() {
        bail!("no games given to label");
    }
    let names = sources
        .iter()
        .map(|p| p.file_name().map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into_owned()))
        .collect();
    let cfg = LabelConfig { nodes, per_game, seed, sources: names, shard };
    let concurrency =
        concurrency.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).max(1);
    Ok(Some(LabelArgs { cfg, out, sources, concurrency }))
}

/// `pbrain-quincunx label …`
pub fn label_command(args: &[String]) -> Result<()> {
    let Some(LabelArgs { cfg, out, sources, concurrency }) =
        parse_args(args).map_err(|e| usage("label", e))?
    else {
        outln!("{LABEL_USAGE}")?;
        return Ok(());
    };
    let mut games = vec![];
    for path in &sources {
        let text =
            std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
        games.extend(selfplay::read_file(&text).with_context(|| format!("{}", path.display()))?.1);
    }
    let header = cfg.header();
    let (labels, mut file) = continue_file(&out, &header)?;
    let done = label::done(&labels);
    let started = Instant::now();
    let last = std::sync::Mutex::new(Instant::now());
    let progress = |t: &Tally| {
        let mut last = last.lock().unwrap_or_else(|e| e.into_inner());
        if last.elapsed() >= Duration::from_secs(10) {
            *last = Instant::now();
            eprintln!("{}", progress_line(t, done.len(), started.elapsed()));
        }
    };
    let tally = label::run(&cfg, &games, &done, concurrency, &mut file, &progress)?;
    eprintln!("{}", progress_line(&tally, done.len(), started.elapsed()));
    Ok(())
}

fn progress_line(t: &Tally, resumed: usize, elapsed: Duration) -> String {
    let rate = t.labels as f64 / elapsed.as_secs_f64().max(1e-3);
    format!(
        "label: {} labels in the file, {} of {} made now ({} without a move or a score), {rate:.2} labels/s",
        resumed + t.labels,
        t.labels,
        t.todo,
        t.skipped
    )
}
