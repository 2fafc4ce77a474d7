//! `pbrain-quincunx bench`: the command line of the search's signature and time-to-depth runs.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use quincunx::search::bench::{Bench, DEFAULT_DEPTH, run_bench};

use crate::cli::params::SearchArgs;
use crate::cli::{GameArgs, threads, usage, whole};

/// Searches fixed positions and prints the search's signature, its node count
#[derive(clap::Args)]
#[command(
    before_help = "A fixed set of positions (every rule, 15x15 and 20x20) searched to DEPTH plies on one thread, each
result printed, then `nodes N nps M time T ms`. The node count is the same on every machine:
a change that should not alter the search leaves it unchanged."
)]
pub struct BenchArgs {
    /// Plies to search
    #[arg(value_name = "DEPTH", default_value_t = DEFAULT_DEPTH, value_parser = whole::<i32, 1>)]
    depth: i32,
    /// Search threads; with more than one the count varies from run to run,
    /// and `nodes` counts the main thread's
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = threads, verbatim_doc_comment)]
    threads: usize,
    /// Search these positions instead, one a line in pos notation (h8i9j10), black
    /// first; blank lines and lines from # are skipped: time to depth
    #[arg(long, value_name = "FILE", verbatim_doc_comment)]
    positions: Option<PathBuf>,
    #[command(flatten)]
    search: SearchArgs,
    #[command(flatten, next_help_heading = "The game of --positions (the Pente family is not benched)")]
    game: GameArgs,
}

impl BenchArgs {
    pub fn run(self) -> Result<()> {
        let bench = self.bench().map_err(|e| usage("bench", e))?;
        out!("{}", run_bench(&bench))?;
        Ok(())
    }

    /// The run the options describe, its positions read.
    fn bench(&self) -> Result<Bench> {
        let mut bench = Bench::standard(self.depth);
        bench.threads = self.threads;
        let choice = self.search.choice()?;
        bench.params = choice.params;
        bench.evaluator = choice.evaluator;
        let Some(file) = &self.positions else {
            if self.game.given() {
                bail!(
                    "--rule, --line-length and --size are the game of --positions: bench's own positions are fixed"
                );
            }
            return Ok(bench);
        };
        let rules = self.game.rules()?;
        if rules.capture_rule().is_some() || rules.line != 5 {
            bail!("--rule: bench searches the gomoku rules with five in a row, not {rules}");
        }
        let size = match self.game.board(&rules) {
            (w, h) if w == h => w as i64,
            (w, h) => bail!("--size {w}x{h}: bench positions are on square boards"),
        };
        let text =
            std::fs::read_to_string(file).with_context(|| format!("--positions {}", file.display()))?;
        bench.positions.clear();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            quincunx::game::board::Board::from_moves(size, size, line)
                .map_err(|e| anyhow::anyhow!("{}:{}: {e}", file.display(), n + 1))?;
            bench.positions.push((rules.mask(), size, line.to_string()));
        }
        if bench.positions.is_empty() {
            bail!("--positions {}: no positions", file.display());
        }
        Ok(bench)
    }
}
