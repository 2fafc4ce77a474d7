//! `pbrain-quincunx script`: the command line of the protocol-script runner.

use std::process::ExitCode;

use anyhow::{Context, Result};
use quincunx::tools::client::process::StderrMode;

use crate::cli::{EngineCommand, StderrArgs, engine_command};

/// Runs protocol scripts against an engine
#[derive(clap::Args)]
#[command(
    before_help = "Each script runs against a fresh process of the engine (this program by default); every failed
step is reported (every step with -v, skipped MESSAGE/DEBUG lines included). Exit status 0 only when
no script fails; a script about one engine (`engine NAME`) is skipped for others. The script format is
described in protocol-tests/README.md."
)]
pub struct ScriptArgs {
    /// The engine command with its arguments, quoted as one word (default: this program)
    #[arg(long, value_name = "CMD", value_parser = engine_command)]
    engine: Option<EngineCommand>,
    #[command(flatten)]
    stderr: StderrArgs,
    /// Show every step
    #[arg(short, long)]
    verbose: bool,
    /// The scripts
    #[arg(value_name = "FILE", required = true)]
    files: Vec<String>,
}

impl ScriptArgs {
    /// `pbrain-quincunx script …`: status 1 when a script failed (a script about another engine is
    /// skipped).
    pub fn run(self) -> Result<ExitCode> {
        let ok = self.run_all()?;
        Ok(if ok { ExitCode::SUCCESS } else { ExitCode::FAILURE })
    }

    fn run_all(self) -> Result<bool> {
        use quincunx::tools::script::{Script, check_engine, run};
        let engine = match self.engine {
            Some(EngineCommand(engine)) => engine,
            None => vec![
                std::env::current_exe().context("cannot find this program")?.to_string_lossy().into_owned(),
            ],
        };
        let (stderr, verbose, files) =
            (self.stderr.stderr.unwrap_or(StderrMode::Merge), self.verbose, self.files);
        check_engine(&engine, stderr).map_err(anyhow::Error::msg)?;
        let (mut passed, mut failed, mut skipped) = (0, 0, 0);
        for file in &files {
            let outcome = std::fs::read_to_string(file)
                .map_err(|e| format!("cannot read: {e}"))
                .and_then(|text| Script::parse(file, &text))
                .map(|script| run(&script, &engine, stderr));
            match outcome {
                Ok(report) if report.skip.is_some() => {
                    skipped += 1;
                    outln!("SKIP {file} ({})", report.skip.unwrap_or_default())?;
                }
                Ok(report) => {
                    let ok = report.passed();
                    let steps = report.steps.len();
                    let bad = report.steps.iter().filter(|s| !s.passed).count();
                    if ok {
                        passed += 1;
                        outln!("PASS {file} ({steps} steps)")?;
                    } else {
                        failed += 1;
                        outln!("FAIL {file} ({bad} of {steps} steps failed)")?;
                    }
                    out!("{}", report.render(verbose))?;
                }
                Err(e) => {
                    failed += 1;
                    outln!("FAIL {file}: {e}")?;
                }
            }
        }
        outln!("{passed} passed, {failed} failed, {skipped} skipped")?;
        Ok(failed == 0)
    }
}
