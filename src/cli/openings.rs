//! `pbrain-quincunx openings`: the command line of the balanced-openings generator.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use quincunx::tools::opening::{offset_line, pos_line};
use quincunx::tools::opening_gen::{self, GenConfig};
use quincunx::tools::random::clock_seed;

use quincunx::tools::plural;

use crate::cli::{
    GAME_FLAGS, GameChoice, SQUARES, check_gen, num, stone_range, unknown_option, usage, whole,
};

/// `openings`'s own options, for [`unknown_option`] (with [`GAME_FLAGS`]).
const FLAGS: &[&str] =
    &["--count", "--stones", "--seed", "--depth", "--margin", "--format", "--out", "--help"];

const OPENINGS_USAGE: &str = "\
usage: pbrain-quincunx openings --count N [options]

Writes N balanced random openings, one a line, black first: a few stones dropped at random in a
small window anywhere on the board (edges and corners too; under Pente the first stone on the centre
and the first player's second 3 or more points from it), kept when neither side has a four or a VCF
and our own search to a fixed depth scores the position within the margin. The same options give the
same openings, and no two are alike.
  --count N           openings to write (required)
  --stones A-B        stones per opening, each count in the range as likely (default 3-10; A: exactly A)
  --rule R            a Gomocup code (0 freestyle, 1 exact, 4 renju, 8 caro, 9 caro-exact) or a
                      name: freestyle, exact, renju, caro, caro-exact, pente, keryo, gpente
                      (default freestyle)
  --line-length K     K in a row wins (freestyle and exact rules; default 5)
  --size N | WxH      board size (default 15; 19 for the Pente family)
  --seed S            the generator's seed (default: the clock); told on stderr
  --depth D           the judging search's depth in plies (default 6; 4 under the Pente family,
                      whose search is slower)
  --margin M          the largest score either way still balanced (default 60, on the evaluation's
                      scale, where a position's score spreads about 260 either way)
  --format F          offset: dx,dy, dx,dy, ... from the centre (default; what `match --openings` and
                      c-gomoku-cli's -openings type=offset read), or pos: h8i9j10, squares as
                      below (c-gomoku-cli's type=pos, which reads boards up to 22 wide)
  --out FILE          write to FILE (default: stdout)";

/// What `openings` was asked for.
struct OpeningsArgs {
    count: usize,
    cfg: GenConfig,
    pos: bool,
    out: Option<PathBuf>,
}

/// `openings`'s options; `None` when `--help` was asked for.
fn parse_openings_args(args: &[String]) -> Result<Option<OpeningsArgs>> {
    let mut choice = GameChoice::default();
    let (mut count, mut seed, mut stones, mut depth, mut margin) = (None, None, None, None, None);
    let (mut pos, mut out) = (false, None);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || it.next().cloned().with_context(|| format!("{a} needs a value"));
        if choice.take(a, &mut value)? {
            continue;
        }
        match a.as_str() {
            "--count" => count = Some(whole(a, &value()?, 1)?),
            "--seed" => seed = Some(num(a, &value()?)?),
            "--stones" => stones = Some(stone_range(a, &value()?)?),
            "--depth" => depth = Some(whole(a, &value()?, 1)?),
            "--margin" => margin = Some(whole(a, &value()?, 0)?),
            "--format" => {
                pos = match value()?.as_str() {
                    "offset" => false,
                    "pos" => true,
                    other => bail!("--format: '{other}' is neither offset nor pos"),
                }
            }
            "--out" => out = Some(PathBuf::from(value()?)),
            "-h" | "--help" => return Ok(None),
            other => return Err(unknown_option("openings", other, &[FLAGS, GAME_FLAGS].concat())),
        }
    }
    let count: usize = count.context("--count is required")?;
    let rules = choice.rules()?;
    let (width, height) = choice.board(&rules);
    let mut cfg = GenConfig::new(rules, width, height, seed.unwrap_or_else(clock_seed));
    cfg.stones = stones.unwrap_or(cfg.stones);
    cfg.depth = depth.unwrap_or(cfg.depth);
    cfg.margin = margin.unwrap_or(cfg.margin);
    check_gen(&cfg)?;
    Ok(Some(OpeningsArgs { count, cfg, pos, out }))
}

/// `pbrain-quincunx openings …`
pub fn openings_command(args: &[String]) -> Result<()> {
    let Some(OpeningsArgs { count, cfg, pos, out }) =
        parse_openings_args(args).map_err(|e| usage("openings", e))?
    else {
        outln!("{OPENINGS_USAGE}\n{SQUARES}")?;
        return Ok(());
    };
    // Made before the work, so that a path that cannot be written costs nothing.
    let mut sink: Box<dyn std::io::Write> = match &out {
        Some(path) => {
            Box::new(std::fs::File::create(path).with_context(|| format!("cannot write {}", path.display()))?)
        }
        None => Box::new(std::io::stdout().lock()),
    };
    let started = std::time::Instant::now();
    let openings = opening_gen::generate(&cfg, count)?;
    let mut text = String::new();
    for stones in &openings {
        text += &if pos { pos_line(stones) } else { offset_line(stones, cfg.width, cfg.height) };
        text.push('\n');
    }
    sink.write_all(text.as_bytes()).and_then(|()| sink.flush()).context("cannot write the openings")?;
    eprintln!(
        "{} for {} on {}x{}, seed {} ({:.1} s)",
        plural(count as u64, "opening"),
        cfg.rules,
        cfg.width,
        cfg.height,
        cfg.seed,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_option_is_in_the_usage() {
        for flag in FLAGS.iter().chain(GAME_FLAGS).filter(|f| **f != "--help") {
            assert!(OPENINGS_USAGE.contains(flag), "{flag}");
        }
    }
}
