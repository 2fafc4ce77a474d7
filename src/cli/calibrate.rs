//! `pbrain-quincunx calibrate`: the command line of node-count calibration.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use quincunx::game::board::Board;
use quincunx::tools::matches::calibrate::calibrate;

use crate::cli::{EngineCommand, GameArgs, engine_command, usage, whole};

/// Finds each engine's node count for a time a move
#[derive(clap::Args)]
#[command(
    before_help = "It times each engine searching every position of FILE to a node count (INFO max_node, one thread, a turn
limit far beyond it), after one untimed search, and prints its nodes a second and the count that takes
--ms a move: the counts `match --nodes A,B` takes for a match as long as one at --ms, but the same
under any load. Run it on an idle machine (docs/strength.md)."
)]
pub struct CalibrateArgs {
    /// An engine command with its arguments, quoted as one word (one or more)
    #[arg(long, value_name = "CMD", required = true, value_parser = engine_command)]
    engine: Vec<EngineCommand>,
    /// Positions, one a line in pos notation (h8i9j10), black first; # comments
    #[arg(long, value_name = "FILE", required = true)]
    positions: PathBuf,
    /// The node count timed
    #[arg(long, value_name = "N", default_value_t = 200_000, value_parser = whole::<u64, 1>)]
    nodes: u64,
    /// The time a move the counts are for, in ms
    #[arg(long, value_name = "MS", default_value_t = 300, value_parser = whole::<u64, 1>)]
    ms: u64,
    #[command(flatten)]
    game: GameArgs,
}

impl CalibrateArgs {
    /// `pbrain-quincunx calibrate …`
    pub fn run(self) -> Result<()> {
        let rules = self.game.rules().map_err(|e| usage("calibrate", e))?;
        let (choice, file, nodes, ms) = (self.game, self.positions, self.nodes, self.ms);
        let engines: Vec<Vec<String>> = self.engine.into_iter().map(|e| e.0).collect();
        let (w, h) = choice.board(&rules);
        let text =
            std::fs::read_to_string(&file).with_context(|| format!("--positions {}", file.display()))?;
        let mut boards = vec![];
        for (n, line) in
            text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty() && !l.trim().starts_with('#'))
        {
            let board = Board::from_moves(w as i64, h as i64, line.trim())
                .map_err(|e| anyhow::anyhow!("{}:{}: {e}", file.display(), n + 1))?;
            boards.push(board);
        }
        if boards.is_empty() {
            bail!("--positions {}: no positions", file.display());
        }
        for engine in &engines {
            let c = calibrate(engine, &rules, &boards, nodes)
                .map_err(|e| anyhow::anyhow!("{}: {e}", engine.join(" ")))?;
            let worst = c.times.iter().max().copied().unwrap_or_default();
            outln!(
                "{}: {nodes} nodes in {:.1} ms on average (worst {:.1} ms) over {} positions: {:.0} nodes/s; {ms} ms = {} nodes",
                engine.join(" "),
                c.mean().as_secs_f64() * 1000.0,
                worst.as_secs_f64() * 1000.0,
                c.times.len(),
                c.nodes_per_second(),
                c.nodes_for(ms)
            )?;
        }
        Ok(())
    }
}
