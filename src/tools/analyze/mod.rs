//! `pbrain-quincunx analyze`: where a recorded game was won and lost. Every position of every game is
//! judged by our search (or another brain, `--engine`); each move gets its value before and after from
//! the mover's view, the preferred move and its marks, as a table on stdout (or `--out`) and an SVG
//! chart per game.
//!
//! The parts: [`records`] reads and replays PSQ, SGF and move lists, [`judge`] asks the search or the
//! brain, [`report`] turns the answers into rows, marks and the table, [`svg`] draws the chart.
//!
//! Invariants: one game that cannot be read, replayed or judged is reported on stderr and the others
//! are still analysed (the run then ends with `Ok(false)`); nothing a record holds is trusted (every
//! move goes through the board's checks, every name is escaped in the picture); progress goes to
//! stderr, results to the output.

pub mod judge;
pub mod records;
pub mod report;
pub mod svg;

use std::fs::File;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::game::board::{MAX_SIDE, MIN_SIDE};
use crate::game::rules::{GAME_NAMES, Rules};
use crate::tools::process::split_command;
use judge::Judge;
use records::{RecordError, Recorded, name, replay};
use report::{Report, analyse, summary, table};

pub const USAGE: &str = "\
usage: pbrain-quincunx analyze [options] FILE...

Judges every position of recorded games and tells where they were won and lost: per move its value
before and after from the mover's view (eval +W7: a win in 7 plies, -W7 a loss), the move preferred,
and marks, as a table on stdout, and an SVG chart of each game. Progress goes to stderr. A file or game
that cannot be read or judged is reported and the others analysed (exit status 1 at the end).
FILE: an SGF collection (our match's, c-gomoku-cli's), a Piskvork PSQ game, or moves in pos
notation, one game a line (h8i9j7 or h8 i9 j7).
  --time MS         time per position (default 1000)
  --threads N       search threads (default 1)
  --rule R          the rule, a Gomocup code (0 freestyle, 1 exact, 4 renju, 8 caro, 9) or a name:
                    freestyle, exact, renju, caro, caro-exact, pente, keryo, gpente (default: the
                    record's, else freestyle)
  --size N | WxH    the board (default: the record's, else 15)
  --margin M        a move that loses more than M against the preferred one is a mistake (default
                    150: a position's evaluation spreads about 260 either way, and when the
                    preferred move is played, the values before and after it differ by tens, now
                    and then 100, at 1000 ms a position)
  --engine CMD      judge with another Gomocup brain (quoted as one word) instead of our search:
                    BOARD for each position, its score read from its MESSAGE lines (eval or ev N);
                    without them the values are '-' and only the preferred move is shown
  --svg DIR         write the charts into DIR (default: the current directory), as
                    NAME-N.svg for game N of a file (a.sgf: a_sgf-1.svg, ...)
  --no-svg          no charts
  --out FILE        the tables to FILE instead of stdout
Marks: mistake (the loss against the preferred move, values clipped to +-1000), let go (the mover
had a win, proven or found, and no longer has it), forced win (a VCF or VCT our search proved: its
line). The summary line gives each colour's mistakes and the move after which the winner stayed ahead.";

/// Marks start at this loss (see `--margin` in [`USAGE`]).
pub const DEFAULT_MARGIN: i32 = 150;

/// What `analyze` was asked to do.
#[derive(Clone, Debug, PartialEq)]
pub struct AnalyzeOptions {
    pub time_ms: u64,
    pub threads: usize,
    /// The rule and the board when the command line gives them (they win over the record's).
    pub rules: Option<Rules>,
    pub size: Option<(usize, usize)>,
    pub margin: i32,
    /// Another brain's command line, program first.
    pub engine: Option<Vec<String>>,
    /// Where the charts go (`None`: no charts).
    pub svg: Option<PathBuf>,
    pub out: Option<PathBuf>,
    pub files: Vec<PathBuf>,
}

impl AnalyzeOptions {
    /// The options of `args` (after `analyze`), or what is wrong with them; `None` for `--help`.
    pub fn parse(args: &[String]) -> Result<Option<AnalyzeOptions>, String> {
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
        let (mut svg_dir, mut no_svg) = (None, false);
        let mut it = args.iter();
        while let Some(a) = it.next() {
            let mut value = || it.next().cloned().ok_or_else(|| format!("{a} needs a value"));
            match a.as_str() {
                "-h" | "--help" => return Ok(None),
                "--time" => o.time_ms = whole(a, &value()?, 1)?,
                "--threads" => o.threads = whole(a, &value()?, 1)?,
                "--rule" => o.rules = Some(rule(&value()?)?),
                "--size" => o.size = Some(size(&value()?)?),
                "--margin" => o.margin = whole(a, &value()?, 0)?,
                "--engine" => o.engine = Some(split_command(&value()?)?),
                "--svg" => svg_dir = Some(PathBuf::from(value()?)),
                "--no-svg" => no_svg = true,
                "--out" => o.out = Some(PathBuf::from(value()?)),
                f if f.starts_with('-') && f.len() > 1 => {
                    return Err(format!("unknown analyze option '{f}'"));
                }
                f => o.files.push(PathBuf::from(f)),
            }
        }
        match (svg_dir, no_svg) {
            (Some(_), true) => return Err("--svg and --no-svg together".into()),
            (Some(dir), false) => o.svg = Some(dir),
            (None, true) => o.svg = None,
            (None, false) => {}
        }
        if o.files.is_empty() {
            return Err("no game record given".into());
        }
        Ok(Some(o))
    }
}

/// A whole number from `min` (and at most `i32::MAX`: every number here is one).
fn whole<T: TryFrom<i64>>(flag: &str, v: &str, min: i64) -> Result<T, String> {
    let bad = || format!("{flag}: '{v}' is not a whole number from {min}");
    let n: i64 = v.parse().map_err(|_| bad())?;
    if n < min || n > i64::from(i32::MAX) {
        return Err(bad());
    }
    T::try_from(n).map_err(|_| bad())
}

/// `--rule`: a Gomocup rule code or a game's name.
fn rule(v: &str) -> Result<Rules, String> {
    match v.parse::<i64>() {
        Ok(code) => match Rules::from_mask(code, 5) {
            (rules, None) => Ok(rules),
            (_, Some(w)) => Err(format!("--rule: {w}")),
        },
        Err(_) => {
            Rules::named(v).ok_or_else(|| format!("--rule: unknown rule '{v}' ({})", GAME_NAMES.join(", ")))
        }
    }
}

/// `--size N` or `--size WxH`, each side one the board takes.
fn size(v: &str) -> Result<(usize, usize), String> {
    let (w, h) = v.split_once(['x', 'X']).unwrap_or((v, v));
    let side = |s: &str| -> Result<usize, String> {
        match s.trim().parse::<usize>() {
            Ok(n) if (MIN_SIDE..=MAX_SIDE).contains(&n) => Ok(n),
            _ => Err(format!("--size: '{v}' is not a board of {MIN_SIDE} to {MAX_SIDE} a side")),
        }
    };
    Ok((side(w)?, side(h)?))
}

/// Analyses every game of every file: the tables to the output, the charts to their directory, the
/// failures and the progress to stderr. `Ok(true)` when every game was analysed; `Err` when the output
/// cannot be made (before any work) or written.
pub fn run(opts: &AnalyzeOptions) -> Result<bool> {
    let mut out: Box<dyn Write> = match &opts.out {
        Some(path) => {
            Box::new(File::create(path).with_context(|| format!("cannot write {}", path.display()))?)
        }
        None => Box::new(std::io::stdout().lock()),
    };
    if let Some(dir) = &opts.svg {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot make {}", dir.display()))?;
    }
    let mut judge: Box<dyn Judge> = match &opts.engine {
        Some(command) => Box::new(judge::Brain::new(command.clone(), opts.time_ms, opts.threads)),
        None => Box::new(judge::Search::new(opts.time_ms, opts.threads)),
    };
    // Every file is read first: the progress can then count the games.
    let mut ok = true;
    let mut games: Vec<(&Path, Recorded)> = vec![];
    for file in &opts.files {
        let text = match std::fs::read_to_string(file) {
            Ok(text) => text,
            Err(e) => {
                ok = false;
                eprintln!("Error: {}: {e}", file.display());
                continue;
            }
        };
        for game in records::read(&text) {
            match game {
                Ok(g) => games.push((file, g)),
                Err(e) => {
                    ok = false;
                    eprintln!("Error: {}: {e}", file.display());
                }
            }
        }
    }
    let live = std::io::stderr().is_terminal();
    let total = games.len();
    for (i, (file, game)) in games.iter().enumerate() {
        let mut progress = |m: usize, n: usize| {
            if live {
                eprint!("\r\x1b[Kgame {}/{total}, move {m}/{n}", i + 1);
            } else {
                eprintln!("game {}/{total}, move {m}/{n}", i + 1);
            }
        };
        let done = one_game(opts, judge.as_mut(), file, game, &mut progress);
        if live {
            eprint!("\r\x1b[K");
        }
        match done {
            Ok(text) => out
                .write_all(text.as_bytes())
                .and_then(|()| out.flush())
                .context("cannot write the analysis")?,
            Err(e) => {
                ok = false;
                eprintln!("Error: {}: {e}", file.display());
            }
        }
    }
    Ok(ok)
}

/// One game: replayed, judged, its table and summary as text, its chart written.
fn one_game(
    opts: &AnalyzeOptions,
    judge: &mut dyn Judge,
    file: &Path,
    game: &Recorded,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<String, String> {
    let rules = match (opts.rules.or(game.rules), &game.unknown_rule) {
        (Some(rules), _) => rules,
        (None, Some(named)) => {
            let what = format!("the record's rule '{named}' is none we know: give --rule");
            return Err(RecordError { game: Some(game.number), mv: None, what }.to_string());
        }
        (None, None) => Rules::default(),
    };
    let (w, h) = opts.size.or(game.size).unwrap_or((15, 15));
    let replayed = replay(game, rules, w, h).map_err(|e| e.to_string())?;
    let recorded_winner = game.winner.flatten();
    let report = analyse(&replayed, recorded_winner, judge, opts.margin, progress)
        .map_err(|e| RecordError { game: Some(game.number), mv: None, what: e }.to_string())?;
    let black = game.black.as_deref().unwrap_or("?");
    let white = game.white.as_deref().unwrap_or("?");
    let title = format!("{black} (black) vs {white} (white): {} game {}", file.display(), game.number);
    let mut text = format!(
        "== {title}; {}; {} {w}x{h}; {} ==\n",
        result_text(game, &report),
        rules.name(),
        match &opts.engine {
            Some(command) => format!("{} {} ms a position", command.join(" "), opts.time_ms),
            None => format!("search {} ms a position, threads {}", opts.time_ms, opts.threads),
        }
    );
    text += &table(&report);
    text += &summary(&report);
    text.push_str("\n\n");
    if let Some(dir) = &opts.svg {
        let path = dir.join(chart_name(file, game.number));
        std::fs::write(&path, svg::chart(&report, &title))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(text)
}

/// The result as the record says it, or as the last move decided it.
fn result_text(game: &Recorded, report: &Report) -> String {
    match (&game.result, report.winner) {
        (Some(r), _) => format!("result {r}"),
        (None, Some(c)) => format!("{} won", name(c)),
        (None, None) => "no result".into(),
    }
}

/// `NAME-N.svg` for game `number` of `file`: its file name, extension and all (`a.sgf` and `a.psq` of
/// one game should not share a chart), kept to characters every file system takes.
fn chart_name(file: &Path, number: usize) -> String {
    let stem = file.file_name().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let stem: String =
        stem.chars().map(|c| if c.is_ascii_alphanumeric() || "-_".contains(c) { c } else { '_' }).collect();
    format!("{}-{number}.svg", if stem.is_empty() { "game" } else { &stem })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Option<AnalyzeOptions>, String> {
        AnalyzeOptions::parse(&args.iter().map(|a| a.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn options_and_their_mistakes() {
        let o = parse(&["--time", "50", "--rule", "renju", "--size", "20x15", "--no-svg", "a.sgf", "b.psq"])
            .unwrap()
            .unwrap();
        assert_eq!((o.time_ms, o.rules, o.size, o.svg), (50, Rules::named("renju"), Some((20, 15)), None));
        assert_eq!(o.files.len(), 2);
        assert_eq!(parse(&["--rule", "1", "x"]).unwrap().unwrap().rules, Rules::named("exact"));
        assert_eq!(parse(&["--help"]), Ok(None));
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
    fn chart_names_keep_to_plain_characters() {
        assert_eq!(chart_name(Path::new("dir/my games.sgf"), 3), "my_games_sgf-3.svg");
        assert_eq!(chart_name(Path::new("x/a-b.psq"), 1), "a-b_psq-1.svg");
    }
}
