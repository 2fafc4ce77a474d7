//! `pbrain-quincunx`: the Gomocup brain. With no arguments (or only the brain's options) it speaks the
//! protocol on stdin/stdout; the subcommands (`src/cli/`) bench the search and, in the default build,
//! run matches, scripts, games in the terminal or the browser, and the learning tools.

#[macro_use]
mod cli;

use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Result;
use quincunx::brain::engine::Engine;
use quincunx::eval::weights::{Style, Table, WeightMatrix};
use quincunx::player::Player;
use quincunx::search::SearchPlayer;

use cli::{BrainArgs, PlayerKind, StyleKind, TableKind, UsageError, usage};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // Brain mode (no subcommand) keeps stderr silent unless RUST_LOG asks: see `brain::notes`.
    let brain_mode = args.first().is_none_or(|a| a.starts_with('-'));
    let log_to_stderr = !brain_mode || std::env::var_os("RUST_LOG").is_some();
    if log_to_stderr {
        init_stderr_log();
    }
    match run(&args, log_to_stderr) {
        Ok(code) => code,
        // The reader of our output went away (`| head -1`): nobody is left to tell.
        Err(e) if closed_pipe(&e) => ExitCode::SUCCESS,
        // Display, not Debug: one line, and no backtrace whatever RUST_BACKTRACE says.
        Err(e) => match e.downcast_ref::<UsageError>() {
            Some(u) => {
                let help = if u.command.is_empty() { String::new() } else { format!(" {}", u.command) };
                eprintln!("Error: {u}");
                eprintln!("Run 'pbrain-quincunx{help} --help' for usage.");
                ExitCode::from(2)
            }
            None => {
                eprintln!("Error: {e:#}");
                ExitCode::FAILURE
            }
        },
    }
}

/// Whether `e` comes from writing to a pipe whose reader has gone.
fn closed_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// The subcommands' log (and the brain's with RUST_LOG): warnings in words on stderr.
fn init_stderr_log() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        // A warning is for the person at the command line: in words, without the module's path.
        .format(|buf, record| {
            use std::io::Write as _;
            match record.level() {
                log::Level::Error => writeln!(buf, "Error: {}", record.args()),
                log::Level::Warn => writeln!(buf, "Warning: {}", record.args()),
                level => writeln!(buf, "[{level} {}] {}", record.target(), record.args()),
            }
        })
        .init();
}

/// Runs the subcommand, or the brain; `log_to_stderr` tells whether a log is already set up there.
fn run(args: &[String], log_to_stderr: bool) -> Result<ExitCode> {
    let Some((cli, matches)) = cli::parse(args)? else {
        return Ok(ExitCode::SUCCESS);
    };
    match (cli.command, matches.subcommand()) {
        (Some(command), Some((_, m))) => command.run(m),
        _ => brain(cli.brain, log_to_stderr),
    }
}

/// The protocol brain: its options are checked before any protocol line.
fn brain(options: BrainArgs, log_to_stderr: bool) -> Result<ExitCode> {
    let search = options.search.choice().map_err(|e| usage("", e))?;
    let player: Arc<dyn Player> = match options.player {
        PlayerKind::Search => Arc::new(SearchPlayer::new(search.params, search.evaluator)),
        PlayerKind::Weights => Arc::new(WeightMatrix {
            table: match options.table {
                TableKind::Tuple => Table::Tuple,
                TableKind::Proportional => Table::Proportional,
            },
            style: match options.style {
                StyleKind::Balanced => Style::Balanced,
                StyleKind::Defensive => Style::Defensive,
            },
        }),
    };
    let mut engine = Engine::new(player);
    if let Some(n) = options.threads {
        // A default: a manager's INFO thread_num still decides.
        engine.apply(quincunx::brain::engine::Info::ThreadNum(n));
    }
    let (tx, rx) = std::sync::mpsc::channel();
    if !log_to_stderr {
        // Only fails when a logger is set already, and then that one speaks.
        let _ = quincunx::brain::notes::install(tx.clone());
    }
    if let Err(e) =
        quincunx::brain::protocol::serve(std::io::stdin(), std::io::stdout().lock(), engine, tx, rx)
    {
        // stdout itself failed: nobody is left to tell but a stderr log, if one was asked for.
        log::error!("protocol I/O: {e}");
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}
