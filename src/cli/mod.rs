//! The subcommands' command lines (binary only): each module parses its options into the library's
//! values, runs the tool and prints what it returns; this one holds what they share, each idea once:
//! the usage error that exits with status 2, the unknown option with the nearest known one, numbers,
//! thread counts, and the game options (`--rule`, `--line-length`, `--size`) that `play`, `match`,
//! `openings` and `analyze` all take the same way, with the same defaults.

/// `print!` and `println!` that return the write's error instead of panicking on it: a reader that went
/// away (`pbrain-quincunx bench | head -1`) ends the program quietly (`main` tells a closed pipe apart).
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        write!(std::io::stdout().lock(), $($arg)*)
    }};
}

macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout().lock(), $($arg)*)
    }};
}

pub mod analyze;
pub mod bench;
pub mod calibrate;
pub mod label;
pub mod matches;
pub mod openings;
pub mod params;
pub mod play;
pub mod script;
pub mod selfplay;
#[cfg(feature = "board")]
pub mod serve;
pub mod train;
pub mod tune;

use anyhow::{Result, anyhow, bail};
use quincunx::game::board::{MAX_SIDE, MIN_SIDE};
use quincunx::game::rules::{GAME_NAMES, Rules, Variant};
use quincunx::tools::default_side;
use quincunx::tools::opening_gen::{self, GenConfig};
use quincunx::tools::process::StderrMode;

/// A mistake on the command line: reported as one `Error:` line and a hint at the usage, exit status 2.
#[derive(Debug)]
pub struct UsageError {
    pub message: String,
    /// The subcommand whose `--help` explains it (empty: the program's own).
    pub command: &'static str,
}

impl std::fmt::Display for UsageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for UsageError {}

/// Marks `e` as a command-line mistake of `command`.
pub fn usage(command: &'static str, e: anyhow::Error) -> anyhow::Error {
    UsageError { message: format!("{e:#}"), command }.into()
}

/// An option `command` does not know, with the nearest of its `known` ones when one is near enough
/// to be a slip of the keyboard.
pub fn unknown_option(command: &str, given: &str, known: &[&str]) -> anyhow::Error {
    let what = if command.is_empty() { "argument".to_string() } else { format!("{command} option") };
    match nearest(given, known) {
        Some(k) => anyhow!("unknown {what} '{given}' (did you mean {k}?)"),
        None => anyhow!("unknown {what} '{given}'"),
    }
}

/// The known word nearest to `given` by edits (insert, delete, change a character), if it is at most
/// a third of `given`'s length away (and at most 3).
pub fn nearest<'a>(given: &str, known: &[&'a str]) -> Option<&'a str> {
    let limit = (given.chars().count() / 3).clamp(1, 3);
    known.iter().map(|k| (edits(given, k), *k)).filter(|&(d, _)| d <= limit).min().map(|(_, k)| k)
}

/// The Levenshtein distance between `a` and `b`.
fn edits(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diag = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let next = (diag + usize::from(ca != cb)).min(row[j] + 1).min(row[j + 1] + 1);
            diag = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()]
}

/// `threads` as given on the command line: a whole number from 1.
pub fn parse_threads(flag: &str, v: &str) -> Result<usize> {
    whole(flag, v, 1)
}

/// `--stderr MODE`: where an engine's stderr goes (`match` and `script` take it alike).
pub fn stderr_mode(v: &str) -> Result<StderrMode> {
    StderrMode::parse(v)
        .ok_or_else(|| anyhow!("--stderr: '{v}' is not one of {}", StderrMode::NAMES.join(", ")))
}

/// A number on the command line, or what is wrong with it.
pub fn num<T: std::str::FromStr>(flag: &str, v: &str) -> Result<T> {
    v.trim().parse::<T>().map_err(|_| anyhow!("{flag}: '{v}' is not a valid number"))
}

/// A whole number from `min` (and at most `i32::MAX`: no count or time here needs more).
pub fn whole<T: TryFrom<i64>>(flag: &str, v: &str, min: i64) -> Result<T> {
    let bad = || anyhow!("{flag}: '{v}' is not a whole number from {min}");
    let n: i64 = v.trim().parse().map_err(|_| bad())?;
    if n < min || n > i64::from(i32::MAX) {
        return Err(bad());
    }
    T::try_from(n).map_err(|_| bad())
}

/// The game options' flags, for [`unknown_option`]'s lists (`--rules` and `--variant` are hidden
/// aliases of `--rule`, kept for old scripts).
pub const GAME_FLAGS: &[&str] = &["--rule", "--line-length", "--size"];

/// What `--rule` named: a Gomocup code (its bits: 1 exact five, 2 continuous, 4 renju, 8 caro) or a
/// game by name.
#[derive(Clone, Copy, Debug)]
enum RuleGiven {
    Code(i64),
    Named(Rules),
}

/// The game options `play`, `match`, `openings` and `analyze` share: the rule, by code or name, the
/// line length and the board.
#[derive(Default)]
pub struct GameChoice {
    rule: Option<RuleGiven>,
    line: Option<u8>,
    size: Option<(usize, usize)>,
}

impl GameChoice {
    /// Takes `flag` with its value if it is one of these options (`Ok(false)`: it is not).
    pub fn take(&mut self, flag: &str, value: impl FnOnce() -> Result<String>) -> Result<bool> {
        match flag {
            "--rule" | "--rules" | "--variant" => {
                let v = value()?;
                // `--variant gomoku` once meant "the game --rule names".
                if !(flag == "--variant" && v.eq_ignore_ascii_case("gomoku")) {
                    self.rule = Some(parse_rule(flag, &v)?);
                }
            }
            "--line-length" => self.line = Some(whole(flag, &value()?, 3)?),
            "--size" => self.size = Some(parse_size(flag, &value()?)?),
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// The rules asked for, `None` when neither `--rule` nor `--line-length` said.
    pub fn rules_given(&self) -> Result<Option<Rules>> {
        let line = self.line.unwrap_or(5);
        Ok(match (self.rule, self.line) {
            (None, None) => None,
            (None, Some(_)) => Some(Rules::from_mask(0, line).0),
            (Some(RuleGiven::Code(code)), _) => match Rules::from_mask(code, line) {
                (rules, None) => Some(rules),
                (_, Some(w)) => bail!("--rule: {w}"),
            },
            // --line-length applies to freestyle and exact five, as with a code.
            (Some(RuleGiven::Named(named)), _)
                if matches!(named.variant, Variant::Freestyle | Variant::Exact) =>
            {
                Some(Rules { line, ..named })
            }
            (Some(RuleGiven::Named(named)), Some(k)) if k != named.line => {
                bail!("--line-length: {} plays {} in a row", named.name(), named.line)
            }
            (Some(RuleGiven::Named(named)), _) => Some(named),
        })
    }

    /// The rules asked for, freestyle when none.
    pub fn rules(&self) -> Result<Rules> {
        Ok(self.rules_given()?.unwrap_or_default())
    }

    /// The board asked for, if one was.
    pub fn size_given(&self) -> Option<(usize, usize)> {
        self.size
    }

    /// The board asked for, else the default for `rules` (19x19 for the Pente family, 15x15 else).
    pub fn board(&self, rules: &Rules) -> (usize, usize) {
        let side = default_side(rules);
        self.size.unwrap_or((side, side))
    }
}

/// `--rule`: a Gomocup rule code or a game's name.
fn parse_rule(flag: &str, v: &str) -> Result<RuleGiven> {
    match v.trim().parse::<i64>() {
        Ok(code) => match Rules::from_mask(code, 5) {
            (_, None) => Ok(RuleGiven::Code(code)),
            (_, Some(w)) => bail!("{flag}: {w}"),
        },
        Err(_) => Rules::named(v.trim()).map(RuleGiven::Named).ok_or_else(|| {
            anyhow!(
                "{flag}: unknown rule '{v}' (a name: {}; or a Gomocup code: 0, 1, 4, 8, 9)",
                GAME_NAMES.join(", ")
            )
        }),
    }
}

/// `--size N` or `--size WxH`, each side one the board takes.
fn parse_size(flag: &str, v: &str) -> Result<(usize, usize)> {
    let (w, h) = v.split_once(['x', 'X', ',']).unwrap_or((v, v));
    let side = |s: &str| match s.trim().parse::<usize>() {
        Ok(n) if (MIN_SIDE..=MAX_SIDE).contains(&n) => Ok(n),
        _ => Err(anyhow!("{flag}: '{v}' is not a board of {MIN_SIDE} to {MAX_SIDE} a side (N or WxH)")),
    };
    Ok((side(w)?, side(h)?))
}

/// A stone range `A-B` (or one count `A`), from 1 up.
pub fn stone_range(flag: &str, v: &str) -> Result<(usize, usize)> {
    let (lo, hi) = match v.split_once('-') {
        Some((lo, hi)) => (whole(flag, lo, 1)?, whole(flag, hi, 1)?),
        None => {
            let n = whole(flag, v, 1)?;
            (n, n)
        }
    };
    if hi < lo {
        bail!("{flag}: the range {lo}-{hi} is reversed: {hi}-{lo} runs from the smaller count up");
    }
    Ok((lo, hi))
}

/// What the opening generator cannot work with in `cfg` (a mistake on the command line).
pub fn check_gen(cfg: &GenConfig) -> Result<()> {
    opening_gen::check(cfg).map(|_| ()).map_err(|e| anyhow!("{e}"))
}

/// The text every `--help` that prints or reads squares gives for them.
pub const SQUARES: &str = "\
Squares: a column letter from a at the left and a row number from 1 at the top (h8 is the centre of
15x15), as the MESSAGE lines, c-gomoku-cli's pos openings and Yixin write them; any case is read.";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slip_of_the_keyboard_finds_the_option_meant() {
        let known = ["--rule", "--size", "--turn", "--threads", "--tolerance"];
        assert_eq!(nearest("--rulez", &known), Some("--rule"));
        assert_eq!(nearest("--thread", &known), Some("--threads"));
        assert_eq!(nearest("--szie", &known), Some("--size"));
        assert_eq!(nearest("--colour", &known), None);
        assert_eq!(edits("kitten", "sitting"), 3);
    }

    #[test]
    fn rules_by_code_or_name_and_sizes_one_way() {
        let choice = |args: &[&str]| {
            let mut c = GameChoice::default();
            let mut it = args.iter();
            while let Some(a) = it.next() {
                let taken = c.take(a, || Ok(it.next().unwrap().to_string()))?;
                assert!(taken, "{a}");
            }
            Ok::<_, anyhow::Error>(c)
        };
        let c = choice(&["--rule", "renju"]).unwrap();
        assert_eq!(c.rules().unwrap(), Rules::named("renju").unwrap());
        assert_eq!(choice(&["--rule", "4"]).unwrap().rules().unwrap(), Rules::named("renju").unwrap());
        assert_eq!(choice(&["--rules", "pente"]).unwrap().rules().unwrap(), Rules::pente(false));
        let pente = choice(&["--variant", "pente"]).unwrap();
        assert_eq!(pente.board(&pente.rules().unwrap()), (19, 19));
        let c = choice(&["--rule", "exact", "--line-length", "6", "--size", "20x15"]).unwrap();
        assert_eq!((c.rules().unwrap().line, c.board(&Rules::default())), (6, (20, 15)));
        assert!(choice(&[]).unwrap().rules_given().unwrap().is_none());
        for bad in [&["--rule", "64"][..], &["--rule", "go"], &["--size", "40"], &["--size", "9x"]] {
            assert!(choice(bad).is_err(), "{bad:?}");
        }
        assert!(choice(&["--rule", "renju", "--line-length", "6"]).unwrap().rules().is_err());
    }

    #[test]
    fn ranges_run_up_and_numbers_are_whole() {
        assert_eq!(stone_range("--stones", "3-10").unwrap(), (3, 10));
        assert_eq!(stone_range("--stones", "4").unwrap(), (4, 4));
        assert!(stone_range("--stones", "10-3").is_err());
        assert!(stone_range("--stones", "0-3").is_err());
        assert!(whole::<u64>("--time", "-5", 0).is_err());
        assert_eq!(whole::<u64>("--time", " 50", 1).unwrap(), 50);
    }
}
