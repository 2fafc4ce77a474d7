//! `pbrain-quincunx play`: the command line of the terminal tournament.

use anyhow::{Context, Result, bail};
use quincunx::tools::play::{PlayOptions, Tournament, run_on_stdio};

use crate::cli::{GameArgs, num, threads, usage, whole};

/// A tournament of rounds against the engine in the terminal (or from a pipe)
#[derive(clap::Args)]
#[command(
    after_help = concat!(
        "At the prompt: a move such as H8 (a square, as below), hint, undo, save FILE,
quit, help. On a terminal a line shows the engine thinking (its depth and best
move so far); what is typed meanwhile is not shown on it, and not played but
named when the engine has moved. From a pipe every line is played in turn.

",
        squares!()
    )
)]
pub struct PlayArgs {
    #[command(flatten)]
    game: GameArgs,
    /// The engine's time per move in ms (default 1000)
    #[arg(long, value_name = "MS", value_parser = whole::<u64, 1>)]
    time: Option<u64>,
    /// A fixed search depth per move instead of a time
    #[arg(long, value_name = "N", value_parser = whole::<u64, 1>)]
    depth: Option<u64>,
    /// Search threads (default 1; at most 64 are used)
    #[arg(long, value_name = "N", value_parser = threads)]
    threads: Option<usize>,
    /// The coin's seed (default: the clock)
    #[arg(long, value_name = "N", value_parser = num::<u64>)]
    seed: Option<u64>,
    /// The first stone on the centre and the first player's second
    /// 3 or more points from it, as in Pente (which always has it)
    #[arg(long, verbatim_doc_comment)]
    tournament_rule: bool,
    /// Go on with a tournament saved with `save FILE`; the options
    /// given with it win over the saved ones (but for the rules,
    /// the size and the opening, which cannot change)
    #[arg(long, value_name = "FILE", verbatim_doc_comment)]
    resume: Option<String>,
}

impl PlayArgs {
    pub fn run(self) -> Result<()> {
        let opts = self.options().map_err(|e| usage("play", e))?;
        let tournament = match &self.resume {
            Some(path) => {
                let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {path}"))?;
                let saved = Tournament::from_text(&text).with_context(|| path.clone())?;
                opts.resume(saved).map_err(|e| usage("play", e))?
            }
            None => opts.start().map_err(|e| usage("play", e))?,
        };
        run_on_stdio(tournament)
    }

    fn options(&self) -> Result<PlayOptions> {
        let size = match self.game.size_given() {
            Some((w, h)) if w != h => bail!("--size {w}x{h}: the terminal board is square (--size N)"),
            size => size.map(|(n, _)| n),
        };
        Ok(PlayOptions {
            rules: self.game.rules_given()?,
            size,
            time_ms: self.time,
            depth: self.depth,
            threads: self.threads.map(|n| n.min(64)),
            seed: self.seed,
            tournament_rule: self.tournament_rule,
        })
    }
}
