//! `pbrain-quincunx`: the Gomocup brain. With no arguments (or only player options) it speaks the
//! protocol on stdin/stdout; `match` runs engine-vs-engine matches, `openings` writes balanced
//! random openings for them and `analyze` tells where recorded games were won and lost.

#[macro_use]
mod cli;

use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Context, Result, bail};
use quincunx::brain::engine::Engine;
use quincunx::eval::weights::{Style, Table, WeightMatrix};
use quincunx::player::Player;
use quincunx::search::SearchPlayer;

use cli::analyze::analyze_command;
use cli::bench::{BENCH_USAGE, parse_bench};
use cli::calibrate::calibrate_command;
use cli::label::label_command;
use cli::matches::match_command;
use cli::openings::openings_command;
use cli::params::SearchChoice;
use cli::play::play_command;
use cli::script::script_command;
use cli::selfplay::selfplay_command;
use cli::train::train_command;
use cli::tune::tune_command;
use cli::{UsageError, parse_threads, unknown_option, usage};

const USAGE: &str = "\
usage: pbrain-quincunx [--player search|weights] [--table tuple|proportional] [--style balanced|defensive]
                       [--threads N] [--set NAME=VALUE[,NAME=VALUE...]] [--weights FILE]
       pbrain-quincunx --version
       pbrain-quincunx bench [DEPTH] [--set NAME=VALUE[,...]] [--weights FILE]
       pbrain-quincunx params
       pbrain-quincunx match --engine CMD [--name NAME] --engine CMD [--name NAME] ... [options]
       pbrain-quincunx match --merge FILE... [--by-opening]
       pbrain-quincunx calibrate --engine CMD ... --positions FILE [--nodes N] [--ms MS] (calibrate --help)
       pbrain-quincunx match --help
       pbrain-quincunx script [--engine CMD] [-v] FILE...
       pbrain-quincunx play [--rule R] [--size N] [--time MS] [--seed N] [--resume FILE] (play --help)
       pbrain-quincunx openings --count N [--stones A-B] [--rule R] [--size N|WxH]
                       [--seed S] [--depth D] [--margin M] [--format offset|pos] [--out FILE] (openings --help)
       pbrain-quincunx analyze [--time MS] [--threads N] [--rule R] [--size N|WxH] [--margin M]
                       [--engine CMD] [--svg DIR | --no-svg] [--out FILE] FILE... (analyze --help)
       pbrain-quincunx selfplay --games N --out FILE [--rule R,...] [--size N,...] [--nodes N | --time MS]
                       [--seed S] [--shard K/N] [--concurrency C] (selfplay --help)
       pbrain-quincunx label --out FILE [--nodes N] [--per-game P] [--seed S] [--shard K/N] GAMES...
                       (label --help)
       pbrain-quincunx train --out MODEL [--from MODEL] [--lambda L] [--sigma T] [--epochs N] DATA...
                       (train --help)
       pbrain-quincunx tune --params NAME,... --iterations N --state FILE [--start NAME=V,...] (tune --help)
       pbrain-quincunx tune --merge FILE...
       pbrain-quincunx serve [--port N] [--host ADDR] [--engine CMD [--name N]]... [--turn MS]
                       [--follow FILE] [--threads N] (serve --help)

--rule R takes a Gomocup code (0 freestyle, 1 exact, 4 renju, 8 caro, 9 caro-exact) or a name
(freestyle, exact, renju, caro, caro-exact, pente, keryo, gpente) in every subcommand, and --size N or
WxH; the board is 15x15 unless said, 19x19 for the Pente family.

With no subcommand the engine speaks the Gomocup/Piskvork protocol on stdin/stdout.
  --player search    threat-space and alpha-beta search (the default)
  --player weights   the classic weight-matrix player (the baseline)
  --table T          its weight table: tuple (5-tuple, default) or proportional
  --style S          balanced (offence + defence, default) or defensive (defence counts double)
  --threads N        search threads until the manager sends INFO thread_num (default: the cores)
  --set NAME=VALUE   search with other values of its parameters ('params' lists them)
  --weights FILE     evaluate with the model in FILE (as `train` writes it) instead of the embedded one
In brain mode stdout and stderr carry protocol lines only (Piskvork reads stderr as the answer):
warnings and errors go out as MESSAGE lines before the next move. RUST_LOG (RUST_LOG=debug: every line
in and out) logs to stderr instead, to debug the brain by hand.";

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
    match args.first().map(String::as_str) {
        Some("match") => return match_command(&args[1..]).map(|()| ExitCode::SUCCESS),
        Some("bench") => {
            let (rest, choice) =
                cli::params::take_search_options(&args[1..]).map_err(|e| usage("bench", e))?;
            let Some(mut bench) = parse_bench(&rest).map_err(|e| usage("bench", e))? else {
                outln!("{BENCH_USAGE}")?;
                return Ok(ExitCode::SUCCESS);
            };
            bench.params = choice.params;
            bench.evaluator = choice.evaluator;
            out!("{}", quincunx::search::bench::run_bench(&bench))?;
            return Ok(ExitCode::SUCCESS);
        }
        Some("script") => {
            let ok = script_command(&args[1..])?;
            return Ok(if ok { ExitCode::SUCCESS } else { ExitCode::FAILURE });
        }
        Some("play") => return play_command(&args[1..]).map(|()| ExitCode::SUCCESS),
        Some("openings") => return openings_command(&args[1..]).map(|()| ExitCode::SUCCESS),
        Some("analyze") => return analyze_command(&args[1..]),
        Some("selfplay") => return selfplay_command(&args[1..]).map(|()| ExitCode::SUCCESS),
        Some("train") => return train_command(&args[1..]).map(|()| ExitCode::SUCCESS),
        Some("label") => return label_command(&args[1..]).map(|()| ExitCode::SUCCESS),
        Some("calibrate") => return calibrate_command(&args[1..]).map(|()| ExitCode::SUCCESS),
        Some("tune") => return tune_command(&args[1..]).map(|()| ExitCode::SUCCESS),
        #[cfg(feature = "board")]
        Some("serve") => return cli::serve::serve_command(&args[1..]).map(|()| ExitCode::SUCCESS),
        #[cfg(not(feature = "board"))]
        Some("serve") => {
            anyhow::bail!("this build has no board: it was built without the default 'board' feature")
        }
        Some("params") => {
            out!("{}", cli::params::table())?;
            return Ok(ExitCode::SUCCESS);
        }
        Some("-V" | "--version") => {
            outln!("pbrain-quincunx {}", env!("CARGO_PKG_VERSION"))?;
            return Ok(ExitCode::SUCCESS);
        }
        _ => {}
    }
    let (args, choice) = cli::params::take_search_options(args).map_err(|e| usage("", e))?;
    let Some(BrainOptions { player, threads }) = parse_player(&args, choice).map_err(|e| usage("", e))?
    else {
        outln!("{USAGE}")?;
        return Ok(ExitCode::SUCCESS);
    };
    let mut engine = Engine::new(player);
    if let Some(n) = threads {
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

/// The brain's options and the subcommands, for [`unknown_option`].
const BRAIN_WORDS: &[&str] = &[
    "--player",
    "--table",
    "--style",
    "--threads",
    "--set",
    "--weights",
    "--version",
    "--help",
    "match",
    "bench",
    "script",
    "play",
    "openings",
    "analyze",
    "selfplay",
    "train",
    "label",
    "calibrate",
    "tune",
    "params",
    "serve",
];

/// The protocol brain's options.
struct BrainOptions {
    player: Arc<dyn Player>,
    /// Search threads until the manager sends `INFO thread_num`.
    threads: Option<usize>,
}

/// The protocol brain's options; `None` when `--help` was asked for.
fn parse_player(args: &[String], search: SearchChoice) -> Result<Option<BrainOptions>> {
    let mut wm = WeightMatrix::default();
    let mut weights = false;
    let mut threads = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |name: &str| it.next().cloned().with_context(|| format!("{name} needs a value"));
        match a.as_str() {
            "--player" => match value("--player")?.as_str() {
                "weights" => weights = true,
                "search" => weights = false,
                other => bail!("unknown player '{other}' (search or weights)"),
            },
            "--table" => {
                wm.table = match value("--table")?.as_str() {
                    "tuple" => Table::Tuple,
                    "proportional" => Table::Proportional,
                    other => bail!("unknown table '{other}' (tuple or proportional)"),
                }
            }
            "--style" => {
                wm.style = match value("--style")?.as_str() {
                    "balanced" => Style::Balanced,
                    "defensive" => Style::Defensive,
                    other => bail!("unknown style '{other}' (balanced or defensive)"),
                }
            }
            "--threads" => threads = Some(parse_threads(a, &value("--threads")?)?),
            "-h" | "--help" => return Ok(None),
            other => return Err(unknown_option("", other, BRAIN_WORDS)),
        }
    }
    let player: Arc<dyn Player> =
        if weights { Arc::new(wm) } else { Arc::new(SearchPlayer::new(search.params, search.evaluator)) };
    Ok(Some(BrainOptions { player, threads }))
}
