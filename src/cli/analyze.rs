//! `pbrain-quincunx analyze`: the command line of the analysis of recorded games.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use quincunx::tools::analyze::{AnalyzeOptions, DEFAULT_MARGIN, run};
use quincunx::tools::process::split_command;

use crate::cli::{GAME_FLAGS, GameChoice, SQUARES, unknown_option, usage, whole};

const ANALYZE_USAGE: &str = "\
usage: pbrain-quincunx analyze [options] FILE...

Judges every position of recorded games and tells where they were won and lost: per move its value
before and after from the mover's view (eval +W7: a win in 7 plies, -W7 a loss), the move preferred,
and marks, as a table on stdout, and an SVG chart of each game. Progress goes to stderr. A file or game
that cannot be read or judged is reported and the others analysed (exit status 1 at the end).
FILE: an SGF collection (our match's, c-gomoku-cli's), a Piskvork PSQ game, or moves in pos
notation, one game a line (h8i9j7 or h8 i9 j7).
  --time MS         time per position (default 1000)
  --threads N       search threads (default 1)
  --rule R          the rule, a Gomocup code (0 freestyle, 1 exact, 4 renju, 8 caro, 9 caro-exact) or
                    a name: freestyle, exact, renju, caro, caro-exact, pente, keryo, gpente (default:
                    the record's, else freestyle)
  --line-length K   K in a row wins (freestyle and exact rules; default 5)
  --size N | WxH    the board (default: the record's, else 15; 19 for the Pente family)
  --margin M        a move that loses more than M against the preferred one is a mistake (default
                    150: a position's evaluation spreads about 260 either way, and when the
                    preferred move is played, the values before and after it differ by tens, now
                    and then 100, at 1000 ms a position)
  --engine CMD      judge with another Gomocup brain (quoted as one word) instead of our search:
                    BOARD for each position, its score read from its MESSAGE lines (eval or ev N);
                    without them the values are '-' and only the preferred move is shown
  --svg DIR         write the charts into DIR (default: the current directory; made if missing), as
                    NAME-N.svg for game N of a file (a.sgf: a_sgf-1.svg, ...)
  --no-svg          no charts
  --out FILE        the tables to FILE instead of stdout
Marks: mistake (the loss against the preferred move, values clipped to +-1000), let go (the mover
had a win, proven or found, and no longer has it), forced win (a VCF or VCT our search proved: its
line). The summary line gives each colour's mistakes and the move after which the winner stayed ahead.";

/// `analyze`'s own options, for [`unknown_option`] (with [`GAME_FLAGS`]).
const FLAGS: &[&str] =
    &["--time", "--threads", "--margin", "--engine", "--svg", "--no-svg", "--out", "--help"];

/// `pbrain-quincunx analyze …`: status 1 when a file or game could not be analysed.
pub fn analyze_command(args: &[String]) -> Result<ExitCode> {
    let Some(opts) = parse_analyze(args).map_err(|e| usage("analyze", e))? else {
        outln!("{ANALYZE_USAGE}\n{SQUARES}")?;
        return Ok(ExitCode::SUCCESS);
    };
    Ok(if run(&opts)? { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

/// The options of `args` (after `analyze`), or what is wrong with them; `None` for `--help`.
fn parse_analyze(args: &[String]) -> Result<Option<AnalyzeOptions>> {
    let mut o = AnalyzeOptions {
        time_ms: 1000,
        threads: 1,
        rules: None,
        size: None,
        margin: DEFAULT_MARGIN,
        engine: None,
        svg: Some(PathBuf::from(".")),
        out: None,
        files: vec![],
    };
    let mut choice = GameChoice::default();
    let (mut svg_dir, mut no_svg) = (None, false);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || it.next().cloned().with_context(|| format!("{a} needs a value"));
        if choice.take(a, &mut value)? {
            continue;
        }
        match a.as_str() {
            "-h" | "--help" => return Ok(None),
            "--time" => o.time_ms = whole(a, &value()?, 1)?,
            "--threads" => o.threads = whole(a, &value()?, 1)?,
            "--margin" => o.margin = whole(a, &value()?, 0)?,
            "--engine" => o.engine = Some(split_command(&value()?).map_err(anyhow::Error::msg)?),
            "--svg" => svg_dir = Some(PathBuf::from(value()?)),
            "--no-svg" => no_svg = true,
            "--out" => o.out = Some(PathBuf::from(value()?)),
            f if f.starts_with('-') && f.len() > 1 => {
                return Err(unknown_option("analyze", f, &[FLAGS, GAME_FLAGS].concat()));
            }
            f => o.files.push(PathBuf::from(f)),
        }
    }
    o.rules = choice.rules_given()?;
    o.size = choice.size_given();
    match (svg_dir, no_svg) {
        (Some(_), true) => bail!("--svg and --no-svg together"),
        (Some(dir), false) => o.svg = Some(dir),
        (None, true) => o.svg = None,
        (None, false) => {}
    }
    if let Some(dir) = &o.svg
        && dir.exists()
        && !dir.is_dir()
    {
        bail!("--svg {}: a file, not a directory for the charts", dir.display());
    }
    if o.files.is_empty() {
        bail!("no game record given");
    }
    Ok(Some(o))
}

#[cfg(test)]
mod tests {
    use super::*;
    use quincunx::game::rules::Rules;

    fn parse(args: &[&str]) -> Result<Option<AnalyzeOptions>> {
        parse_analyze(&args.iter().map(|a| a.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn options_and_their_mistakes() {
        let o = parse(&["--time", "50", "--rule", "renju", "--size", "20x15", "--no-svg", "a.sgf", "b.psq"])
            .unwrap()
            .unwrap();
        assert_eq!((o.time_ms, o.rules, o.size, o.svg), (50, Rules::named("renju"), Some((20, 15)), None));
        assert_eq!(o.files.len(), 2);
        assert_eq!(parse(&["--rule", "1", "x"]).unwrap().unwrap().rules, Rules::named("exact"));
        assert!(parse(&["--help"]).unwrap().is_none());
        for bad in [
            &["a.sgf", "--time", "0"][..],
            &["a.sgf", "--threads", "x"],
            &["a.sgf", "--rule", "64"],
            &["a.sgf", "--rule", "go"],
            &["a.sgf", "--size", "40"],
            &["a.sgf", "--svg", "d", "--no-svg"],
            &["a.sgf", "--engine", "'unclosed"],
            &["a.sgf", "--margin"],
            &["--bogus", "a.sgf"],
            &[],
        ] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn every_option_is_in_the_usage() {
        for flag in FLAGS.iter().chain(GAME_FLAGS).filter(|f| **f != "--help") {
            assert!(ANALYZE_USAGE.contains(flag), "{flag}");
        }
    }
}
