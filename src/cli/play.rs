//! `pbrain-quincunx play`: the command line of the terminal tournament.

use anyhow::{Context, Result, bail};

use crate::cli::{GAME_FLAGS, GameChoice, SQUARES, num, parse_threads, unknown_option, usage, whole};

const PLAY_USAGE: &str = "\
usage: pbrain-quincunx play [options]

A tournament of rounds against the engine in the terminal (or from a pipe).
  --rule R           a name: freestyle (default), exact, renju, caro or caro-exact,
                     or the Pente family: pente, keryo or gpente; or a Gomocup code
                     (0 freestyle, 1 exact, 4 renju, 8 caro, 9 caro-exact)
  --line-length K    K in a row wins (freestyle and exact rules; default 5)
  --size N           board size, 5 to 32 (default 15; 19 for the Pente family)
  --time MS          the engine's time per move (default 1000)
  --depth N          a fixed search depth per move instead of a time
  --threads N        search threads (default 1)
  --seed N           the coin's seed (default: the clock)
  --tournament-rule  the first stone on the centre and the first player's second
                     3 or more points from it, as in Pente (which always has it)
  --resume FILE      go on with a tournament saved with `save FILE`; the options
                     given with it win over the saved ones (but for the rules,
                     the size and the opening, which cannot change)
At the prompt: a move such as H8 (a square, as below), hint, undo, save FILE,
quit, help. On a terminal a line shows the engine thinking (its depth and best
move so far); what is typed meanwhile is not shown on it, and not played but
named when the engine has moved. From a pipe every line is played in turn.";

/// `play`'s own options, for [`unknown_option`] (with [`GAME_FLAGS`]).
const FLAGS: &[&str] =
    &["--time", "--depth", "--threads", "--seed", "--tournament-rule", "--resume", "--help"];

/// `play`: the terminal tournament.
pub fn play_command(args: &[String]) -> Result<()> {
    use quincunx::tools::play::{Tournament, run_on_stdio};
    let Some((opts, resume)) = parse_play(args).map_err(|e| usage("play", e))? else {
        outln!("{PLAY_USAGE}\n{SQUARES}")?;
        return Ok(());
    };
    let tournament = match resume {
        Some(path) => {
            let text = std::fs::read_to_string(&path).with_context(|| format!("cannot read {path}"))?;
            let saved = Tournament::from_text(&text).with_context(|| path.clone())?;
            opts.resume(saved).map_err(|e| usage("play", e))?
        }
        None => opts.start().map_err(|e| usage("play", e))?,
    };
    run_on_stdio(tournament)
}

/// `play`'s options and the file to resume; `None` when `--help` was asked for.
fn parse_play(args: &[String]) -> Result<Option<(quincunx::tools::play::PlayOptions, Option<String>)>> {
    let mut opts = quincunx::tools::play::PlayOptions::default();
    let mut choice = GameChoice::default();
    let mut resume = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || it.next().cloned().with_context(|| format!("{a} needs a value"));
        if choice.take(a, &mut value)? {
            continue;
        }
        match a.as_str() {
            "--time" => opts.time_ms = Some(whole(a, &value()?, 1)?),
            "--depth" => opts.depth = Some(whole(a, &value()?, 1)?),
            "--threads" => opts.threads = Some(parse_threads(a, &value()?)?.min(64)),
            "--seed" => opts.seed = Some(num(a, &value()?)?),
            "--resume" => resume = Some(value()?),
            "--tournament-rule" => opts.tournament_rule = true,
            "-h" | "--help" => return Ok(None),
            other => return Err(unknown_option("play", other, &[FLAGS, GAME_FLAGS].concat())),
        }
    }
    opts.rules = choice.rules_given()?;
    opts.size = match choice.size_given() {
        Some((w, h)) if w != h => bail!("--size {w}x{h}: the terminal board is square (--size N)"),
        size => size.map(|(n, _)| n),
    };
    Ok(Some((opts, resume)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_option_is_in_the_usage() {
        for flag in FLAGS.iter().chain(GAME_FLAGS).filter(|f| **f != "--help") {
            assert!(PLAY_USAGE.contains(flag), "{flag}");
        }
    }
}
