//! `pbrain-quincunx script`: the command line of the protocol-script runner.

use anyhow::{Context, Result, bail};
use quincunx::tools::process::{StderrMode, split_command};

use crate::cli::{stderr_mode, usage};

const SCRIPT_USAGE: &str = "\
usage: pbrain-quincunx script [--engine CMD] [--stderr MODE] [-v] FILE...

Runs each protocol script against a fresh process of the engine (this program by default) and reports
every failed step (every step with -v, skipped MESSAGE/DEBUG lines included). Exit status 0 only when
no script fails; a script about one engine (`engine NAME`) is skipped for others. The script format is
described in protocol-tests/README.md.
  --engine CMD   the engine command with its arguments, quoted as one word
  --stderr MODE  the engine's stderr: merge (the default: into stdout, as Piskvork does, so that a
                 stray line there fails the step that reads it), ignore, or log (through to ours)
  -v, --verbose  show every step";

/// What `script` was asked to run.
struct ScriptArgs {
    engine: Vec<String>,
    stderr: StderrMode,
    verbose: bool,
    files: Vec<String>,
}

/// `script`'s options; `None` when `--help` was asked for.
fn parse_script(args: &[String]) -> Result<Option<ScriptArgs>> {
    let mut engine =
        vec![std::env::current_exe().context("cannot find this program")?.to_string_lossy().into_owned()];
    let mut verbose = false;
    let mut stderr = StderrMode::Merge;
    let mut files = vec![];
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--engine" => {
                let v = it.next().context("--engine needs a value")?;
                engine = split_command(v).map_err(anyhow::Error::msg)?;
            }
            "--stderr" => stderr = stderr_mode(it.next().context("--stderr needs a value")?)?,
            "-v" | "--verbose" => verbose = true,
            "-h" | "--help" => return Ok(None),
            f if f.starts_with('-') => bail!("unknown script option '{f}'"),
            f => files.push(f.to_string()),
        }
    }
    if files.is_empty() {
        bail!("no script given");
    }
    Ok(Some(ScriptArgs { engine, stderr, verbose, files }))
}

/// `pbrain-quincunx script …`: true when no script failed (a script about another engine is skipped).
pub fn script_command(args: &[String]) -> Result<bool> {
    use quincunx::tools::script::{Script, check_engine, run};
    let Some(ScriptArgs { engine, stderr, verbose, files }) =
        parse_script(args).map_err(|e| usage("script", e))?
    else {
        outln!("{SCRIPT_USAGE}")?;
        return Ok(true);
    };
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
