//! The subcommands' command lines (binary only): each module parses its options into the library's
//! values, runs the tool and prints what it returns; this one holds what they share (the usage error
//! that exits with status 2, numbers, thread counts, the choice of game and board).

pub mod bench;
pub mod matches;
pub mod openings;
pub mod params;
pub mod play;
pub mod script;

use anyhow::{Result, bail};
use quincunx::game::rules::{GAME_NAMES, Rules, Variant};
use quincunx::tools::opening_gen::{self, GenConfig};

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

/// `threads` as given on the command line: a whole number from 1.
pub fn parse_threads(flag: &str, v: &str) -> Result<usize> {
    match v.parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => bail!("{flag}: '{v}' is not a whole number from 1"),
    }
}

/// A number on the command line, or what is wrong with it.
pub fn num<T: std::str::FromStr>(flag: &str, v: &str) -> Result<T> {
    v.parse::<T>().map_err(|_| anyhow::anyhow!("{flag}: '{v}' is not a valid number"))
}

/// The game options that `match` and `openings` share: the rule code or the game's name, the line
/// length and the board.
pub struct GameChoice {
    rule: i64,
    line: u8,
    variant: Option<String>,
    width: usize,
    height: usize,
}

impl Default for GameChoice {
    fn default() -> GameChoice {
        GameChoice { rule: 0, line: 5, variant: None, width: 15, height: 15 }
    }
}

impl GameChoice {
    /// Takes `flag` with its value if it is one of these options (`Ok(false)`: it is not).
    pub fn take(&mut self, flag: &str, value: impl FnOnce() -> Result<String>) -> Result<bool> {
        match flag {
            "--rule" => self.rule = num(flag, &value()?)?,
            "--variant" => self.variant = Some(value()?.to_ascii_lowercase()),
            "--line-length" => self.line = num(flag, &value()?)?,
            "--size" => {
                let v = value()?;
                (self.width, self.height) = match v.split_once(['x', 'X', ',']) {
                    Some((w, h)) => (num(flag, w)?, num(flag, h)?),
                    None => {
                        let n = num(flag, &v)?;
                        (n, n)
                    }
                };
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// The rules asked for: `--variant` names the game, `--rule` otherwise.
    pub fn rules(&self) -> Result<Rules> {
        let (rules, warning) = Rules::from_mask(self.rule, self.line);
        if let Some(w) = warning {
            bail!("{w}");
        }
        Ok(match self.variant.as_deref() {
            None | Some("gomoku") => rules,
            Some(v) => match Rules::named(v) {
                // --line-length applies to freestyle and exact five, as with --rule (Rules::named gives five).
                Some(named) if matches!(named.variant, Variant::Freestyle | Variant::Exact) => {
                    Rules { line: rules.line, ..named }
                }
                Some(named) => named,
                None => {
                    bail!(
                        "unknown variant '{v}' ({}, or gomoku: the game --rule names)",
                        GAME_NAMES.join(", ")
                    )
                }
            },
        })
    }
}

/// A stone range `A-B` (or one count `A`).
pub fn stone_range(flag: &str, v: &str) -> Result<(usize, usize)> {
    Ok(match v.split_once('-') {
        Some((lo, hi)) => (num(flag, lo.trim())?, num(flag, hi.trim())?),
        None => {
            let n = num(flag, v.trim())?;
            (n, n)
        }
    })
}

/// What the opening generator cannot work with in `cfg` (a mistake on the command line).
pub fn check_gen(cfg: &GenConfig) -> Result<()> {
    opening_gen::check(cfg).map(|_| ()).map_err(|e| anyhow::anyhow!("{e}"))
}
