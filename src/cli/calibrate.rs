//! `pbrain-quincunx calibrate`: the command line of node-count calibration.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use quincunx::game::board::Board;
use quincunx::tools::calibrate::calibrate;
use quincunx::tools::process::split_command;

use crate::cli::{GAME_FLAGS, GameChoice, unknown_option, usage, whole};

const CALIBRATE_USAGE: &str = "\
usage: pbrain-quincunx calibrate --engine CMD [--engine CMD ...] --positions FILE [options]

Times each engine searching every position of FILE to a node count (INFO max_node, one thread, a turn
limit far beyond it), after one untimed search, and prints its nodes a second and the count that takes
--ms a move: the counts `match --nodes A,B` takes for a match as long as one at --ms, but the same
under any load. Run it on an idle machine (docs/strength.md).
  --engine CMD     an engine command with its arguments, quoted as one word (one or more)
  --positions FILE positions, one a line in pos notation (h8i9j10), black first; # comments
  --nodes N        the node count timed (default 200000)
  --ms MS          the time a move the counts are for (default 300)
  --rule R, --size N   the game, as the other subcommands take them (default freestyle, 15x15)";

const FLAGS: &[&str] = &["--engine", "--positions", "--nodes", "--ms", "--help"];

struct CalibrateArgs {
    engines: Vec<Vec<String>>,
    file: PathBuf,
    nodes: u64,
    ms: u64,
    choice: GameChoice,
}

/// The options; `None` when `--help` was asked for.
fn parse_args(args: &[String]) -> Result<Option<CalibrateArgs>> {
    let (mut engines, mut file, mut nodes, mut ms) = (vec![], None, 200_000u64, 300u64);
    let mut choice = GameChoice::default();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || it.next().cloned().with_context(|| format!("{a} needs a value"));
        match a.as_str() {
            "--engine" => engines.push(split_command(&value()?).map_err(anyhow::Error::msg)?),
            "--positions" => file = Some(PathBuf::from(value()?)),
            "--nodes" => nodes = whole(a, &value()?, 1)?,
            "--ms" => ms = whole(a, &value()?, 1)?,
            "-h" | "--help" => return Ok(None),
            other if GAME_FLAGS.contains(&other) => {
                choice.take(other, value)?;
            }
            other => return Err(unknown_option("calibrate", other, &[FLAGS, GAME_FLAGS].concat())),
        }
    }
    let file = file.context("--positions is required")?;
    if engines.is_empty() {
        bail!("no --engine given");
    }
    choice.rules()?;
    Ok(Some(CalibrateArgs { engines, file, nodes, ms, choice }))
}

/// `pbrain-quincunx calibrate …`
pub fn calibrate_command(args: &[String]) -> Result<()> {
    let Some(CalibrateArgs { engines, file, nodes, ms, choice }) =
        parse_args(args).map_err(|e| usage("calibrate", e))?
    else {
        outln!("{CALIBRATE_USAGE}")?;
        return Ok(());
    };
    let rules = choice.rules()?;
    let (w, h) = choice.board(&rules);
    let text = std::fs::read_to_string(&file).with_context(|| format!("--positions {}", file.display()))?;
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
