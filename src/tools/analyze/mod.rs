//! `pbrain-quincunx analyze`: where a recorded game was won and lost. Every position of every game is
//! judged by our search (or another brain, `--engine`); each move gets its value before and after from
//! the mover's view, the preferred move and its marks, as a table on stdout (or `--out`) and an SVG
//! chart per game.
//!
//! Reporting only: the records are read and replayed by [`crate::tools::record::read`], the positions
//! judged by [`crate::tools::client::judge`] (the search or a brain); here `report` turns the answers
//! into rows, marks and the table and `svg` draws the chart. The board draws the same chart, through
//! the reporting API re-exported below, not through these modules.
//!
//! Invariants: one game that cannot be read, replayed or judged is reported on stderr and the others
//! are still analysed (the run then ends with `Ok(false)`); nothing a record holds is trusted (every
//! move goes through the board's checks, every name is escaped in the picture); progress goes to
//! stderr, results to the output.

mod report;
mod svg;

use std::fs::File;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::game::rules::Rules;
use crate::tools::client::judge::{self, Judge};
use crate::tools::record::read::{self as records, RecordError, Recorded, replay};
use report::{summary, table};

// The reporting API that the board shares: the rows and marks of a game's analysis, the chart's
// scale (values clipped to ±CLIP, so the board's cursor lines up with the chart's points) and the chart
// itself with the geometry that turns a click into a move.
pub use report::{CLIP, Report, Row, analyse, on_chart};
pub use svg::{LEFT, RIGHT, WIDTH, chart};

/// Marks start at this loss (`analyze --margin`).
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
    let side = rules.default_side();
    let (w, h) = opts.size.or(game.size).unwrap_or((side, side));
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
        std::fs::write(&path, svg::chart(&report, &title, &result_text(game, &report)))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(text)
}

/// The result as the record says it, or as the last move decided it.
fn result_text(game: &Recorded, report: &Report) -> String {
    match (&game.result, report.winner) {
        (Some(r), _) => format!("result {r}"),
        (None, Some(c)) => format!("{} won", c.name()),
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

    #[test]
    fn chart_names_keep_to_plain_characters() {
        assert_eq!(chart_name(Path::new("dir/my games.sgf"), 3), "my_games_sgf-3.svg");
        assert_eq!(chart_name(Path::new("x/a-b.psq"), 1), "a-b_psq-1.svg");
    }
}
