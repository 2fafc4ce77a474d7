//! The command line (binary only): one clap declaration per subcommand, a module each, that turns
//! the options into the library's values, runs the tool and prints what it returns. This one holds
//! the program's own declaration (the brain's options and the subcommands), what the subcommands
//! share, each idea once: the game (`--rule`, `--line-length`, `--size`), the engines' stderr, the
//! numbers and thread counts, and the usage error that exits with status 2.
//!
//! The brain's side (`bench`, `params`) is always built; the manager's side (the `tools` feature)
//! and the board (`board`) only when asked for, as the default build does.

/// `print!` and `println!` that return the write's error instead of panicking on it: a reader that went
/// away (`pbrain-quincunx bench | head -1`) ends the program quietly (`main` tells a closed pipe apart).
macro_rules! out {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        write!(std::io::stdout().lock(), $($arg)*)
    }};
}

#[cfg_attr(not(feature = "tools"), allow(unused_macros))]
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout().lock(), $($arg)*)
    }};
}

pub mod bench;
pub mod params;

// First: its macro (`squares!`) is for the modules below.
#[cfg(feature = "tools")]
#[macro_use]
mod manager;

#[cfg(feature = "tools")]
pub mod analyze;
#[cfg(feature = "tools")]
pub mod calibrate;
#[cfg(feature = "tools")]
pub mod label;
#[cfg(feature = "tools")]
pub mod matches;
#[cfg(feature = "tools")]
pub mod openings;
#[cfg(feature = "tools")]
pub mod play;
#[cfg(feature = "tools")]
pub mod script;
#[cfg(feature = "tools")]
pub mod selfplay;
#[cfg(feature = "board")]
pub mod serve;
#[cfg(feature = "tools")]
pub mod train;
#[cfg(feature = "tools")]
pub mod tune;

use std::process::ExitCode;

use anyhow::Result;
use clap::error::{ContextKind, ErrorKind};
use clap::{ArgMatches, Args, CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};
use quincunx::game::board::{MAX_SIDE, MIN_SIDE};
use quincunx::game::rules::{GAME_NAMES, Rules, Variant};
use quincunx::player::MAX_THREADS;

/// A five-in-a-row engine: a Gomocup/Piskvork brain, and the tools around it
#[derive(Parser)]
#[command(
    name = "pbrain-quincunx",
    version,
    disable_help_subcommand = true,
    args_conflicts_with_subcommands = true,
    subcommand_value_name = "SUBCOMMAND",
    subcommand_help_heading = "Subcommands",
    before_help = "With no subcommand it is the brain: it speaks the Gomocup/Piskvork protocol on stdin/stdout, and
stdout and stderr carry protocol lines only (Piskvork reads stderr as the answer): warnings and
errors go out as MESSAGE lines before the next move. RUST_LOG (RUST_LOG=debug: every line in and
out) logs to stderr instead, to debug the brain by hand. Every subcommand has its own --help."
)]
#[cfg_attr(
    not(feature = "tools"),
    command(
        after_help = "This build is the Gomocup brain alone (built with --no-default-features): the manager's
tools (match, script, play, openings, analyze, ...) are in the default build."
    )
)]
pub struct Cli {
    #[command(flatten)]
    pub brain: BrainArgs,
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The brain's own options (no subcommand).
#[derive(Args)]
pub struct BrainArgs {
    /// search: threat-space and alpha-beta search; weights: the classic
    /// weight-matrix player, no look-ahead (the baseline)
    #[arg(long, value_enum, default_value_t = PlayerKind::Search, hide_possible_values = true, verbatim_doc_comment)]
    pub player: PlayerKind,
    /// The weight-matrix player's table: tuple (5-tuple) or proportional
    #[arg(long, value_enum, default_value_t = TableKind::Tuple, hide_possible_values = true)]
    pub table: TableKind,
    /// The weight-matrix player's style: balanced (offence and defence)
    /// or defensive (defence counts double)
    #[arg(long, value_enum, default_value_t = StyleKind::Balanced, hide_possible_values = true, verbatim_doc_comment)]
    pub style: StyleKind,
    /// Search threads until the manager sends INFO thread_num (default: the
    /// cores; at most 256)
    #[arg(long, value_name = "N", value_parser = threads, verbatim_doc_comment)]
    pub threads: Option<usize>,
    #[command(flatten)]
    pub search: params::SearchArgs,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum PlayerKind {
    Search,
    Weights,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum TableKind {
    Tuple,
    Proportional,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum StyleKind {
    Balanced,
    Defensive,
}

/// The subcommands this build has.
#[derive(Subcommand)]
#[allow(clippy::large_enum_variant)] // one value, made once
pub enum Command {
    Bench(bench::BenchArgs),
    Params(params::ParamsArgs),
    #[cfg(feature = "tools")]
    #[command(flatten)]
    Tools(ToolCommand),
}

/// The subcommands of the default build that a build without a feature lacks.
const ELSEWHERE: &[(&str, &[&str])] = &[
    (
        "tools",
        &[
            "match",
            "script",
            "play",
            "openings",
            "analyze",
            "calibrate",
            "selfplay",
            "label",
            "train",
            "tune",
        ],
    ),
    ("board", &["serve"]),
];

impl Command {
    /// Runs the subcommand; `m` are its own matches (for what clap's values do not keep: the order
    /// of `match --engine` and `--name`).
    pub fn run(self, #[allow(unused)] m: &ArgMatches) -> Result<ExitCode> {
        match self {
            Command::Bench(a) => a.run().map(|()| ExitCode::SUCCESS),
            Command::Params(a) => a.run().map(|()| ExitCode::SUCCESS),
            #[cfg(feature = "tools")]
            Command::Tools(a) => a.run(m),
        }
    }
}

/// What the help of every command looks like: the usage first, as Unix tools print it.
const HELP_TEMPLATE: &str = "usage: {usage}\n\n{about-with-newline}\n{before-help}{all-args}{after-help}";

/// The program's command line as clap builds it, with what applies to every (sub)command.
pub fn command() -> clap::Command {
    fn finish(cmd: clap::Command) -> clap::Command {
        cmd.help_template(HELP_TEMPLATE)
            // An option given twice takes its last value (`--player weights` after a script's own).
            .args_override_self(true)
            // `--time -5` is a bad number, not a missing one.
            .mut_args(|a| if a.get_action().takes_values() { a.allow_negative_numbers(true) } else { a })
            .mut_subcommands(finish)
    }
    finish(Cli::command())
}

/// The command line read: `None` when it asked for the help or the version (printed here).
pub fn parse(args: &[String]) -> Result<Option<(Cli, ArgMatches)>> {
    let subcommand = args.first().map(String::as_str).unwrap_or_default();
    let mut cmd = command();
    let known = cmd.find_subcommand(subcommand).is_some();
    if !known && let Some((feature, _)) = ELSEWHERE.iter().find(|(_, names)| names.contains(&subcommand)) {
        return Err(UsageError {
            message: format!(
                "'{subcommand}' is not in this build: it was built without the '{feature}' feature, which \
                 the default build has (--no-default-features builds the Gomocup brain alone)"
            ),
            command: String::new(),
        }
        .into());
    }
    let words = std::iter::once("pbrain-quincunx").chain(args.iter().map(String::as_str));
    let matches = match cmd.try_get_matches_from_mut(words) {
        Ok(m) => m,
        Err(e) if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) => {
            out!("{}", e.render())?;
            return Ok(None);
        }
        Err(e) => {
            let command = if known { subcommand.to_string() } else { String::new() };
            return Err(UsageError { message: message_of(&e), command }.into());
        }
    };
    let cli = Cli::from_arg_matches(&matches)
        .map_err(|e| UsageError { message: message_of(&e), command: String::new() })?;
    Ok(Some((cli, matches)))
}

/// A clap error in one line: what is wrong, and the option, subcommand or value meant if one is near.
fn message_of(e: &clap::Error) -> String {
    let get = |kind| e.get(kind).map(|v| v.to_string());
    let rendered = e.render().to_string();
    let first = rendered.lines().next().unwrap_or_default();
    let mut message = first.strip_prefix("error: ").unwrap_or(first).to_string();
    // A value our own parser refused: the option, then why (`--time: '-5' is not a whole number ...`).
    if e.kind() == ErrorKind::ValueValidation
        && let (Some(arg), Some(source)) = (get(ContextKind::InvalidArg), std::error::Error::source(e))
    {
        message = format!("{}: {source}", arg.split_whitespace().next().unwrap_or_default());
    }
    match (e.kind(), get(ContextKind::InvalidArg)) {
        (ErrorKind::InvalidValue, _) => {
            if let Some(valid) = get(ContextKind::ValidValue).filter(|v| !v.is_empty()) {
                message += &format!(" (one of: {valid})");
            }
        }
        // clap lists the missing ones on the lines below.
        (ErrorKind::MissingRequiredArgument, Some(missing)) => {
            message = format!("{} {missing}", message.trim_end());
        }
        _ => {}
    }
    let meant = [ContextKind::SuggestedArg, ContextKind::SuggestedSubcommand, ContextKind::SuggestedValue]
        .into_iter()
        .find_map(get);
    if let Some(meant) = meant {
        message += &format!(" (did you mean {meant}?)");
    }
    message
}

/// A mistake on the command line: reported as one `Error:` line and a hint at the usage, exit status 2.
#[derive(Debug)]
pub struct UsageError {
    pub message: String,
    /// The subcommand whose `--help` explains it (empty: the program's own).
    pub command: String,
}

impl std::fmt::Display for UsageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for UsageError {}

/// Marks `e` as a command-line mistake of `command`.
pub fn usage(command: &str, e: anyhow::Error) -> anyhow::Error {
    UsageError { message: format!("{e:#}"), command: command.to_string() }.into()
}

/// `--threads N`, wherever it is taken: 1 to [`MAX_THREADS`], the most `INFO thread_num` takes.
pub fn threads(v: &str) -> Result<usize, String> {
    match whole::<usize, 1>(v)? {
        n if n > MAX_THREADS => {
            Err(format!("'{v}' is more than {MAX_THREADS}, the most threads (as with INFO thread_num)"))
        }
        n => Ok(n),
    }
}

/// A whole number from `MIN` (and at most `i32::MAX`: no count or time here needs more).
pub fn whole<T: TryFrom<i64>, const MIN: i64>(v: &str) -> Result<T, String> {
    let bad = || format!("'{v}' is not a whole number from {MIN}");
    let n: i64 = v.trim().parse().map_err(|_| bad())?;
    if n < MIN || n > i64::from(i32::MAX) {
        return Err(bad());
    }
    T::try_from(n).map_err(|_| bad())
}

/// What `--rule` named: a Gomocup code (its bits: 1 exact five, 2 continuous, 4 renju, 8 caro) or a
/// game by name.
#[derive(Clone, Copy, Debug)]
pub enum RuleGiven {
    Code(i64),
    Named(Rules),
}

/// `--variant`, an old spelling of `--rule` where `gomoku` meant "the game --rule names".
#[derive(Clone, Copy, Debug)]
pub struct VariantGiven(Option<RuleGiven>);

/// The game options that `play`, `match`, `openings`, `analyze`, `calibrate`, `tune` and
/// `bench --positions` share: the rule, by code or name, the line length and the board.
#[derive(Args, Clone, Debug, Default)]
pub struct GameArgs {
    /// A Gomocup code (0 freestyle, 1 exact, 4 renju, 8 caro, 9 caro-exact) or a name:
    /// freestyle, exact, renju, caro, caro-exact, pente, keryo, gpente (default freestyle)
    #[arg(long, value_name = "R", alias = "rules", value_parser = parse_rule, verbatim_doc_comment)]
    rule: Option<RuleGiven>,
    #[arg(long, value_name = "R", hide = true, value_parser = parse_variant)]
    variant: Option<VariantGiven>,
    /// K in a row wins (freestyle and exact rules; default 5)
    #[arg(long, value_name = "K", value_parser = whole::<u8, 3>)]
    line_length: Option<u8>,
    /// The board, N or WxH, 5 to 32 a side (default 15; 19 for the Pente family)
    #[arg(long, value_name = "N|WxH", value_parser = parse_size)]
    size: Option<(usize, usize)>,
}

impl GameArgs {
    /// Whether the command line said anything about the game.
    pub fn given(&self) -> bool {
        self.rule.is_some() || self.variant.is_some() || self.line_length.is_some() || self.size.is_some()
    }

    /// The rules asked for, `None` when neither `--rule` nor `--line-length` said.
    pub fn rules_given(&self) -> Result<Option<Rules>> {
        let rule = self.rule.or(self.variant.and_then(|v| v.0));
        let line = self.line_length.unwrap_or(5);
        Ok(match (rule, self.line_length) {
            (None, None) => None,
            (None, Some(_)) => Some(Rules::from_mask(0, line).0),
            (Some(RuleGiven::Code(code)), _) => match Rules::from_mask(code, line) {
                (rules, None) => Some(rules),
                (_, Some(w)) => anyhow::bail!("--rule: {w}"),
            },
            // --line-length applies to freestyle and exact five, as with a code.
            (Some(RuleGiven::Named(named)), _)
                if matches!(named.variant, Variant::Freestyle | Variant::Exact) =>
            {
                Some(Rules { line, ..named })
            }
            (Some(RuleGiven::Named(named)), Some(k)) if k != named.line => {
                anyhow::bail!("--line-length: {} plays {} in a row", named.name(), named.line)
            }
            (Some(RuleGiven::Named(named)), _) => Some(named),
        })
    }

    /// The rules asked for, freestyle when none.
    pub fn rules(&self) -> Result<Rules> {
        Ok(self.rules_given()?.unwrap_or_default())
    }

    /// The board asked for, else the default for `rules` (19x19 for the Pente family, 15x15 else).
    pub fn board(&self, rules: &Rules) -> (usize, usize) {
        let side = rules.default_side();
        self.size.unwrap_or((side, side))
    }
}

/// `--rule`: a Gomocup rule code or a game's name.
pub fn parse_rule(v: &str) -> Result<RuleGiven, String> {
    match v.trim().parse::<i64>() {
        Ok(code) => match Rules::from_mask(code, 5) {
            (_, None) => Ok(RuleGiven::Code(code)),
            (_, Some(w)) => Err(w),
        },
        Err(_) => Rules::named(v.trim()).map(RuleGiven::Named).ok_or_else(|| {
            format!(
                "unknown rule '{v}' (a name: {}; or a Gomocup code: 0, 1, 4, 8, 9)",
                GAME_NAMES.join(", ")
            )
        }),
    }
}

/// `--variant`: as `--rule`, or `gomoku` for none.
fn parse_variant(v: &str) -> Result<VariantGiven, String> {
    if v.trim().eq_ignore_ascii_case("gomoku") {
        Ok(VariantGiven(None))
    } else {
        parse_rule(v).map(|r| VariantGiven(Some(r)))
    }
}

/// `--size N` or `--size WxH`, each side one the board takes.
pub fn parse_size(v: &str) -> Result<(usize, usize), String> {
    let (w, h) = v.split_once(['x', 'X', ',']).unwrap_or((v, v));
    let side = |s: &str| match s.trim().parse::<usize>() {
        Ok(n) if (MIN_SIDE..=MAX_SIDE).contains(&n) => Ok(n),
        _ => Err(format!("'{v}' is not a board of {MIN_SIDE} to {MAX_SIDE} a side (N or WxH)")),
    };
    Ok((side(w)?, side(h)?))
}

#[cfg(feature = "tools")]
pub use manager::*;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_declarations_are_sound() {
        command().debug_assert();
    }

    fn game(args: &[&str]) -> Result<GameArgs> {
        #[derive(Parser)]
        struct Game {
            #[command(flatten)]
            game: GameArgs,
        }
        let words = std::iter::once("game").chain(args.iter().copied());
        Ok(Game::try_parse_from(words)?.game)
    }

    #[test]
    fn rules_by_code_or_name_and_sizes_one_way() {
        let c = game(&["--rule", "renju"]).unwrap();
        assert_eq!(c.rules().unwrap(), Rules::named("renju").unwrap());
        assert_eq!(game(&["--rule", "4"]).unwrap().rules().unwrap(), Rules::named("renju").unwrap());
        assert_eq!(game(&["--rules", "pente"]).unwrap().rules().unwrap(), Rules::pente(false));
        let pente = game(&["--variant", "pente"]).unwrap();
        assert_eq!(pente.board(&pente.rules().unwrap()), (19, 19));
        assert!(game(&["--variant", "gomoku"]).unwrap().rules_given().unwrap().is_none());
        let c = game(&["--rule", "exact", "--line-length", "6", "--size", "20x15"]).unwrap();
        assert_eq!((c.rules().unwrap().line, c.board(&Rules::default())), (6, (20, 15)));
        assert!(game(&[]).unwrap().rules_given().unwrap().is_none());
        for bad in [&["--rule", "64"][..], &["--rule", "go"], &["--size", "40"], &["--size", "9x"]] {
            assert!(game(bad).is_err(), "{bad:?}");
        }
        assert!(game(&["--rule", "renju", "--line-length", "6"]).unwrap().rules().is_err());
    }

    #[test]
    fn numbers_are_whole_and_threads_capped() {
        assert!(whole::<u64, 0>("-5").is_err());
        assert_eq!(whole::<u64, 1>(" 50"), Ok(50));
        assert_eq!(threads("256"), Ok(MAX_THREADS));
        assert!(threads("257").is_err() && threads("0").is_err());
    }

    #[cfg(feature = "tools")]
    #[test]
    fn ranges_run_up() {
        assert_eq!(stone_range("3-10"), Ok((3, 10)));
        assert_eq!(stone_range("4"), Ok((4, 4)));
        assert!(stone_range("10-3").is_err());
        assert!(stone_range("0-3").is_err());
    }
}
