//! `pbrain-quincunx play`: the command line of the terminal tournament.

use anyhow::{Context, Result, bail};
use quincunx::game::rules::{GAME_NAMES, Rules};

use crate::cli::{parse_threads, usage};

const PLAY_USAGE: &str = "\
usage: pbrain-quincunx play [options]

A tournament of rounds against the engine in the terminal (or from a pipe).
  --rules R          freestyle (default), exact, renju, caro or caro-exact; or
                     the Pente family: pente, keryo or gpente
  --size N           board size, 5 to 26 (default 15; 19 for the Pente family)
  --time MS          the engine's time per move (default 1000)
  --depth N          a fixed search depth per move instead of a time
  --threads N        search threads (default 1)
  --seed N           the coin's seed (default: the clock)
  --tournament-rule  the first stone on the centre and the first player's second
                     3 or more points from it, as in Pente (which always has it)
  --resume FILE      go on with a tournament saved with `save FILE`; the options
                     given with it win over the saved ones (but for the rules,
                     the size and the opening, which cannot change)
At the prompt: a move such as J10 (column letter, row number from the bottom),
hint, undo, save FILE, quit. On a terminal a line shows the engine thinking (its
depth and best move so far), and what is typed meanwhile is not played; from a
pipe every line is played in turn.";

/// `play`: the terminal tournament.
pub fn play_command(args: &[String]) -> Result<()> {
    use quincunx::tools::play::{Tournament, run_on_stdio};
    let Some((opts, resume)) = parse_play(args).map_err(|e| usage("play", e))? else {
        println!("{PLAY_USAGE}");
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
    let mut resume = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || it.next().cloned().with_context(|| format!("{a} needs a value"));
        let num = |v: String| v.parse::<u64>().with_context(|| format!("{a}: '{v}' is not a number"));
        match a.as_str() {
            "--rules" => {
                let v = value()?;
                opts.rules = Some(
                    Rules::named(&v)
                        .with_context(|| format!("unknown rules '{v}' ({})", GAME_NAMES.join(", ")))?,
                );
            }
            "--size" => opts.size = Some(num(value()?)? as usize),
            "--time" => opts.time_ms = Some(num(value()?)?),
            "--depth" => opts.depth = Some(num(value()?)?.max(1)),
            "--threads" => opts.threads = Some(parse_threads(a, &value()?)?.min(64)),
            "--seed" => opts.seed = Some(num(value()?)?),
            "--resume" => resume = Some(value()?),
            "--tournament-rule" => opts.tournament_rule = true,
            "-h" | "--help" => return Ok(None),
            other => bail!("unknown play option '{other}'"),
        }
    }
    Ok(Some((opts, resume)))
}
