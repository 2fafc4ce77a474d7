//! `pbrain-quincunx bench`: the command line of the search's signature and time-to-depth runs.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};

use crate::cli::{GAME_FLAGS, GameChoice, parse_threads, unknown_option};

/// `bench`'s own options, for [`unknown_option`] (with [`GAME_FLAGS`]).
const FLAGS: &[&str] = &["--threads", "--positions", "--help"];

pub const BENCH_USAGE: &str = "\
usage: pbrain-quincunx bench [DEPTH] [--threads N] [--positions FILE [--rule R] [--size N]]

Searches a fixed set of positions (every rule, 15x15 and 20x20) to DEPTH plies (default 7) on one
thread and prints each result, then `nodes N nps M time T ms`. The node count is the same on every
machine: a change that should not alter the search leaves it unchanged.
  --threads N       search threads (default 1); with more than one the count varies from run to run,
                    and `nodes` counts the main thread's
  --positions FILE  search these positions instead, one a line in pos notation (h8i9j10), black
                    first; blank lines and lines from # are skipped: time to depth
  --rule R          their rule, a Gomocup code (0 freestyle, 1 exact, 4 renju, 8 caro, 9 caro-exact)
                    or its name (default freestyle; the Pente family is not benched)
  --size N          their board (default 15)";

/// `bench`'s options; `None` when `--help` was asked for.
pub fn parse_bench(args: &[String]) -> Result<Option<quincunx::search::bench::Bench>> {
    use quincunx::search::bench::{Bench, DEFAULT_DEPTH};
    let (mut depth, mut threads, mut file) = (None, 1, None);
    let mut choice = GameChoice::default();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || it.next().cloned().with_context(|| format!("{a} needs a value"));
        if choice.take(a, &mut value)? {
            continue;
        }
        match a.as_str() {
            "-h" | "--help" => return Ok(None),
            "--threads" => threads = parse_threads(a, &value()?)?,
            "--positions" => file = Some(PathBuf::from(value()?)),
            d if !d.starts_with('-') && depth.is_none() => match d.parse::<i32>() {
                Ok(n) if n >= 1 => depth = Some(n),
                _ => bail!("bench depth '{d}' is not a whole number from 1"),
            },
            d if !d.starts_with('-') => bail!("bench takes one DEPTH, not two ('{d}')"),
            other => return Err(unknown_option("bench", other, &[FLAGS, GAME_FLAGS].concat())),
        }
    }
    let rules = choice.rules()?;
    if rules.capture_rule().is_some() || rules.line != 5 {
        bail!("--rule: bench searches the gomoku rules with five in a row, not {rules}");
    }
    let rule = rules.mask();
    let size = match choice.board(&rules) {
        (w, h) if w == h => w as i64,
        (w, h) => bail!("--size {w}x{h}: bench positions are on square boards"),
    };
    let mut bench = Bench::standard(depth.unwrap_or(DEFAULT_DEPTH));
    bench.threads = threads;
    if let Some(file) = file {
        let text =
            std::fs::read_to_string(&file).with_context(|| format!("--positions {}", file.display()))?;
        bench.positions.clear();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            quincunx::game::board::Board::from_moves(size, size, line)
                .map_err(|e| anyhow::anyhow!("{}:{}: {e}", file.display(), n + 1))?;
            bench.positions.push((rule, size, line.to_string()));
        }
        if bench.positions.is_empty() {
            bail!("--positions {}: no positions", file.display());
        }
    }
    Ok(Some(bench))
}
