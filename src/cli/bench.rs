//! `pbrain-quincunx bench`: the command line of the search's signature and time-to-depth runs.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use quincunx::game::rules::Rules;

use crate::cli::{num, parse_threads};

pub const BENCH_USAGE: &str = "\
usage: pbrain-quincunx bench [DEPTH] [--threads N] [--positions FILE [--rule R] [--size N]]

Searches a fixed set of positions (every rule, 15x15 and 20x20) to DEPTH plies (default 7) on one
thread and prints each result, then `nodes N nps M time T ms`. The node count is the same on every
machine: a change that should not alter the search leaves it unchanged.
  --threads N       search threads (default 1); with more than one the count varies from run to run,
                    and `nodes` counts the main thread's
  --positions FILE  search these positions instead, one a line in pos notation (h8i9j10), black
                    first; blank lines and lines from # are skipped: time to depth
  --rule R          their Gomocup rule code (default 0, freestyle)
  --size N          their board (default 15)";

/// `bench`'s options; `None` when `--help` was asked for.
pub fn parse_bench(args: &[String]) -> Result<Option<quincunx::search::bench::Bench>> {
    use quincunx::search::bench::{Bench, DEFAULT_DEPTH};
    let (mut depth, mut threads, mut file, mut rule, mut size) = (None, 1, None, 0i64, 15i64);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || it.next().cloned().with_context(|| format!("{a} needs a value"));
        match a.as_str() {
            "-h" | "--help" => return Ok(None),
            "--threads" => threads = parse_threads(a, &value()?)?,
            "--positions" => file = Some(PathBuf::from(value()?)),
            "--rule" => rule = num(a, &value()?)?,
            "--size" => size = num(a, &value()?)?,
            d if !d.starts_with('-') && depth.is_none() => match d.parse::<i32>() {
                Ok(n) if n >= 1 => depth = Some(n),
                _ => bail!("bench depth '{d}' is not a whole number from 1"),
            },
            d if !d.starts_with('-') => bail!("bench takes one DEPTH, not two ('{d}')"),
            other => bail!("unknown bench option '{other}'"),
        }
    }
    if let Some(w) = Rules::from_mask(rule, 5).1 {
        bail!("--rule: {w}");
    }
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
