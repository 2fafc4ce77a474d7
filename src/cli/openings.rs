//! `pbrain-quincunx openings`: the command line of the balanced-openings generator.

use std::path::PathBuf;

use anyhow::{Context, Result};
use quincunx::game::random::clock_seed;
use quincunx::tools::matches::opening_gen::{self, GenConfig};
use quincunx::tools::record::opening::{offset_line, pos_line};

use quincunx::tools::matches::opening_gen::plural;

use crate::cli::{GameArgs, check_gen, num, stone_range, usage, whole};

/// Writes balanced random openings
#[derive(clap::Args)]
#[command(before_help = "N openings, one a line, black first: a few stones dropped at random in a small window
anywhere on the board (edges and corners too; under Pente the first stone on the centre and the first
player's second 3 or more points from it), kept when neither side has a four or a VCF and our own
search to a fixed depth scores the position within the margin. The same options give the
same openings, and no two are alike.", after_help = squares!())]
pub struct OpeningsArgs {
    /// Openings to write
    #[arg(long, value_name = "N", required = true, value_parser = whole::<usize, 1>)]
    count: usize,
    /// Stones per opening, each count in the range as likely (default 3-10; A: exactly A)
    #[arg(long, value_name = "A-B", value_parser = stone_range)]
    stones: Option<(usize, usize)>,
    #[command(flatten)]
    game: GameArgs,
    /// The generator's seed (default: the clock); told on stderr
    #[arg(long, value_name = "S", value_parser = num::<u64>)]
    seed: Option<u64>,
    /// The judging search's depth in plies (default 12; 4 under the Pente family,
    /// whose search is slower)
    #[arg(long, value_name = "D", value_parser = whole::<i32, 1>, verbatim_doc_comment)]
    depth: Option<i32>,
    /// The largest score either way still balanced (default 60, on the evaluation's
    /// scale, where a position's score spreads about 260 either way)
    #[arg(long, value_name = "M", value_parser = whole::<i32, 0>, verbatim_doc_comment)]
    margin: Option<i32>,
    /// offset: dx,dy, dx,dy, ... from the centre (what `match --openings` and
    /// c-gomoku-cli's -openings type=offset read), or pos: h8i9j10, squares as
    /// below (c-gomoku-cli's type=pos, which reads boards up to 22 wide)
    #[arg(long, value_name = "F", value_enum, default_value_t = Format::Offset, hide_possible_values = true, verbatim_doc_comment)]
    format: Format,
    /// Write to FILE (default: stdout)
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

#[derive(Clone, Copy, PartialEq, clap::ValueEnum)]
enum Format {
    Offset,
    Pos,
}

impl OpeningsArgs {
    /// What the generator is asked for, checked.
    fn config(&self) -> Result<GenConfig> {
        let rules = self.game.rules()?;
        let (width, height) = self.game.board(&rules);
        let mut cfg = GenConfig::for_measuring(rules, width, height, self.seed.unwrap_or_else(clock_seed));
        cfg.stones = self.stones.unwrap_or(cfg.stones);
        cfg.depth = self.depth.unwrap_or(cfg.depth);
        cfg.margin = self.margin.unwrap_or(cfg.margin);
        check_gen(&cfg)?;
        Ok(cfg)
    }

    /// `pbrain-quincunx openings …`
    pub fn run(self) -> Result<()> {
        let cfg = self.config().map_err(|e| usage("openings", e))?;
        let (count, pos, out) = (self.count, self.format == Format::Pos, self.out);
        // Made before the work, so that a path that cannot be written costs nothing.
        let mut sink: Box<dyn std::io::Write> = match &out {
            Some(path) => Box::new(
                std::fs::File::create(path).with_context(|| format!("cannot write {}", path.display()))?,
            ),
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
}
