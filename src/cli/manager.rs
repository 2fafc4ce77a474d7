//! What only the manager's subcommands (the `tools` feature) share: their declarations as one
//! enum, the engines' stderr and command lines, stone ranges and the openings generator's checks.

/// The text every `--help` that prints or reads squares gives for them (in `after_help`).
macro_rules! squares {
    () => {
        "Squares: a column letter from a at the left and a row number from 1 at the top (h8 is the centre of
15x15), as the MESSAGE lines, c-gomoku-cli's pos openings and Yixin write them; any case is read."
    };
}

use std::process::ExitCode;

use anyhow::Result;
use clap::ArgMatches;
use quincunx::game::rules::Rules;
use quincunx::tools::client::process::{StderrMode, split_command};
use quincunx::tools::matches::opening_gen::{self, GenConfig};

use crate::cli::{GameArgs, RuleGiven, parse_rule, whole};
use crate::cli::{analyze, calibrate, label, matches, openings, play, script, selfplay, train, tune};

/// The manager's subcommands.
// Parsed once at start: the variants' sizes cost nothing worth a box.
#[allow(clippy::large_enum_variant)]
#[derive(clap::Subcommand)]
pub enum ToolCommand {
    Match(matches::MatchArgs),
    Script(script::ScriptArgs),
    Play(play::PlayArgs),
    Openings(openings::OpeningsArgs),
    Analyze(analyze::AnalyzeArgs),
    Calibrate(calibrate::CalibrateArgs),
    Selfplay(selfplay::SelfplayArgs),
    Label(label::LabelArgs),
    Train(train::TrainArgs),
    Tune(tune::TuneArgs),
    #[cfg(feature = "board")]
    Serve(crate::cli::serve::ServeArgs),
}

impl ToolCommand {
    /// Runs the subcommand; `m` are its matches (`match` pairs `--name` with `--engine` by them).
    pub fn run(self, m: &ArgMatches) -> Result<ExitCode> {
        let done = |r: Result<()>| r.map(|()| ExitCode::SUCCESS);
        match self {
            ToolCommand::Match(a) => done(a.run(m)),
            ToolCommand::Script(a) => a.run(),
            ToolCommand::Play(a) => done(a.run()),
            ToolCommand::Openings(a) => done(a.run()),
            ToolCommand::Analyze(a) => a.run(),
            ToolCommand::Calibrate(a) => done(a.run()),
            ToolCommand::Selfplay(a) => done(a.run()),
            ToolCommand::Label(a) => done(a.run()),
            ToolCommand::Train(a) => done(a.run()),
            ToolCommand::Tune(a) => done(a.run()),
            #[cfg(feature = "board")]
            ToolCommand::Serve(a) => done(a.run(m)),
        }
    }
}

/// `--stderr MODE`: where an engine's stderr goes (`match` and `script` take it alike).
#[derive(clap::Args, Clone, Debug)]
pub struct StderrArgs {
    /// The engines' stderr: merge (into stdout, as Piskvork does: a stray line there is a
    /// malformed answer), ignore, or log (through to our stderr); default: merge for script,
    /// ignore for match
    #[arg(long, value_name = "MODE", value_parser = stderr_mode, verbatim_doc_comment)]
    pub stderr: Option<StderrMode>,
}

fn stderr_mode(v: &str) -> Result<StderrMode, String> {
    StderrMode::parse(v).ok_or_else(|| format!("'{v}' is not one of {}", StderrMode::NAMES.join(", ")))
}

/// An engine's command line, quoted as one word (`--engine "pbrain-x --threads 1"`).
#[derive(Clone, Debug)]
pub struct EngineCommand(pub Vec<String>);

pub fn engine_command(v: &str) -> Result<EngineCommand, String> {
    split_command(v).map(EngineCommand)
}

/// A stone range `A-B` (or one count `A`), from 1 up.
pub fn stone_range(v: &str) -> Result<(usize, usize), String> {
    let (lo, hi) = match v.split_once('-') {
        Some((lo, hi)) => (whole::<usize, 1>(lo)?, whole::<usize, 1>(hi)?),
        None => {
            let n = whole::<usize, 1>(v)?;
            (n, n)
        }
    };
    if hi < lo {
        return Err(format!("the range {lo}-{hi} is reversed: {hi}-{lo} runs from the smaller count up"));
    }
    Ok((lo, hi))
}

/// What the opening generator cannot work with in `cfg` (a mistake on the command line).
pub fn check_gen(cfg: &GenConfig) -> anyhow::Result<()> {
    opening_gen::check(cfg).map(|_| ()).map_err(|e| anyhow::anyhow!("{e}"))
}

/// A number on the command line, or what is wrong with it.
pub fn num<T: std::str::FromStr>(v: &str) -> Result<T, String> {
    v.trim().parse::<T>().map_err(|_| format!("'{v}' is not a valid number"))
}

/// One rule of a list (`selfplay --rule R,R`): a code or a name, five in a row.
pub fn rule_of(v: &str) -> Result<Rules, String> {
    Ok(match parse_rule(v)? {
        RuleGiven::Code(code) => Rules::from_mask(code, 5).0,
        RuleGiven::Named(rules) => rules,
    })
}

impl GameArgs {
    /// The board asked for, if one was.
    pub fn size_given(&self) -> Option<(usize, usize)> {
        self.size
    }
}
