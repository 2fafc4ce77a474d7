//! `pbrain-quincunx analyze`: the command line of the analysis of recorded games.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Result, bail};
use quincunx::tools::analyze::{AnalyzeOptions, DEFAULT_MARGIN, run};

use crate::cli::{EngineCommand, GameArgs, engine_command, threads, usage, whole};

/// Tells where recorded games were won and lost
#[derive(clap::Args)]
#[command(
    before_help = "Judges every position of recorded games: per move its value before and after from the mover's view
(eval +W7: a win in 7 plies, -W7 a loss), the move preferred, and marks, as a table on stdout, and an
SVG chart of each game. Progress goes to stderr. A file or game that cannot be read or judged is
reported and the others analysed (exit status 1 at the end). Without --rule or --size a game is
judged on the record's rule and board.",
    after_help = concat!(
        "Marks: mistake (the loss against the preferred move, values clipped to +-1000), let go (the mover
had a win, proven or found, and no longer has it), forced win (a VCF or VCT our search proved: its
line). The summary line gives each colour's mistakes and the move after which the winner stayed ahead.

",
        squares!()
    )
)]
pub struct AnalyzeArgs {
    /// An SGF collection (our match's, c-gomoku-cli's), a Piskvork PSQ game, or moves in
    /// pos notation, one game a line (h8i9j7 or h8 i9 j7)
    #[arg(value_name = "FILE", required = true, verbatim_doc_comment)]
    files: Vec<PathBuf>,
    /// Time per position in ms
    #[arg(long, value_name = "MS", default_value_t = 1000, value_parser = whole::<u64, 1>)]
    time: u64,
    /// Search threads
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = threads)]
    threads: usize,
    #[command(flatten)]
    game: GameArgs,
    /// A move that loses more than M against the preferred one is a mistake (150: a
    /// position's evaluation spreads about 260 either way, and when the preferred move
    /// is played, the values before and after it differ by tens, now and then 100, at
    /// 1000 ms a position)
    #[arg(long, value_name = "M", default_value_t = DEFAULT_MARGIN, value_parser = whole::<i32, 0>, verbatim_doc_comment)]
    margin: i32,
    /// Judge with another Gomocup brain (quoted as one word) instead of our search:
    /// BOARD for each position, its score read from its MESSAGE lines (eval or ev N);
    /// without them the values are '-' and only the preferred move is shown
    #[arg(long, value_name = "CMD", value_parser = engine_command, verbatim_doc_comment)]
    engine: Option<EngineCommand>,
    /// Write the charts into DIR (default: the current directory; made if missing), as
    /// NAME-N.svg for game N of a file (a.sgf: a_sgf-1.svg, ...)
    #[arg(long, value_name = "DIR", conflicts_with = "no_svg", verbatim_doc_comment)]
    svg: Option<PathBuf>,
    /// No charts
    #[arg(long)]
    no_svg: bool,
    /// The tables to FILE instead of stdout
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

impl AnalyzeArgs {
    /// `pbrain-quincunx analyze …`: status 1 when a file or game could not be analysed.
    pub fn run(self) -> Result<ExitCode> {
        let opts = self.options().map_err(|e| usage("analyze", e))?;
        Ok(if run(&opts)? { ExitCode::SUCCESS } else { ExitCode::FAILURE })
    }

    fn options(self) -> Result<AnalyzeOptions> {
        let svg = if self.no_svg { None } else { Some(self.svg.unwrap_or_else(|| PathBuf::from("."))) };
        if let Some(dir) = &svg
            && dir.exists()
            && !dir.is_dir()
        {
            bail!("--svg {}: a file, not a directory for the charts", dir.display());
        }
        Ok(AnalyzeOptions {
            time_ms: self.time,
            threads: self.threads,
            rules: self.game.rules_given()?,
            size: self.game.size_given(),
            margin: self.margin,
            engine: self.engine.map(|e| e.0),
            svg,
            out: self.out,
            files: self.files,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;
    use quincunx::game::rules::Rules;

    #[derive(Parser)]
    struct Analyze {
        #[command(flatten)]
        args: AnalyzeArgs,
    }

    fn parse(args: &[&str]) -> Result<AnalyzeOptions> {
        Analyze::try_parse_from(std::iter::once("analyze").chain(args.iter().copied()))?.args.options()
    }

    #[test]
    fn options_and_their_mistakes() {
        let o = parse(&["--time", "50", "--rule", "renju", "--size", "20x15", "--no-svg", "a.sgf", "b.psq"])
            .unwrap();
        assert_eq!((o.time_ms, o.rules, o.size, o.svg), (50, Rules::named("renju"), Some((20, 15)), None));
        assert_eq!(o.files.len(), 2);
        assert_eq!(parse(&["--rule", "1", "x"]).unwrap().rules, Rules::named("exact"));
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
}
