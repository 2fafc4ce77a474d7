//! `pbrain-quincunx label`: the command line of deep labels for training.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use quincunx::tools::learn::label::{self, LabelConfig, Tally};
use quincunx::tools::learn::selfplay;
use quincunx::tools::matches::shard::Shard;

use crate::cli::selfplay::continue_file;
use crate::cli::{num, whole};

/// Labels positions of self-play games by deep searches, for `train`
#[derive(clap::Args)]
#[command(
    before_help = "It draws a few quiet positions from each game of self-play files (GAMES, as `selfplay` writes them) and
searches each far deeper than the games were: its score and best move make a label, written as a
self-play line of that one position, the best move last, so that `train` reads FILE as it reads games
(docs/training.md). Resumable: run the same command again after any stop and it labels only what FILE
lacks. A progress line goes to stderr."
)]
pub struct LabelArgs {
    /// Self-play files, as `selfplay` writes them
    #[arg(value_name = "GAMES", required = true)]
    sources: Vec<PathBuf>,
    /// The label file, created or continued
    #[arg(long, value_name = "FILE", required = true)]
    out: PathBuf,
    /// Search nodes a label, on one thread (deterministic)
    #[arg(long, value_name = "N", default_value_t = 100_000, value_parser = whole::<u64, 1>)]
    nodes: u64,
    /// Positions drawn from each game
    #[arg(long, value_name = "P", default_value_t = 4, value_parser = whole::<usize, 1>)]
    per_game: usize,
    /// Which positions are drawn
    #[arg(long, value_name = "S", default_value_t = 1, value_parser = num::<u64>)]
    seed: u64,
    /// Label only the games k with k mod N = K-1
    #[arg(long, value_name = "K/N", value_parser = Shard::parse)]
    shard: Option<Shard>,
    /// Labels at once, one thread each (default: the cores)
    #[arg(long, value_name = "C", value_parser = whole::<usize, 1>)]
    concurrency: Option<usize>,
}

impl LabelArgs {
    /// `pbrain-quincunx label …`
    pub fn run(self) -> Result<()> {
        let LabelArgs { sources, out, nodes, per_game, seed, shard, concurrency } = self;
        let names = sources
            .iter()
            .map(|p| {
                p.file_name().map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into_owned())
            })
            .collect();
        let cfg = LabelConfig { nodes, per_game, seed, sources: names, shard: shard.unwrap_or(Shard::WHOLE) };
        let concurrency =
            concurrency.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).max(1);
        let mut games = vec![];
        for path in &sources {
            let text =
                std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
            games.extend(selfplay::read_file(&text).with_context(|| format!("{}", path.display()))?.1);
        }
        let header = cfg.header();
        let (labels, mut file) = continue_file(&out, &header, "a game", |_: &[selfplay::GameRecord]| Ok(()))?;
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
