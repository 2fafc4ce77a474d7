//! `pbrain-quincunx`: the Gomocup brain. With no arguments (or only player options) it speaks the
//! protocol on stdin/stdout; `match` runs engine-vs-engine matches, `openings` writes balanced
//! random openings for them and `analyze` tells where recorded games were won and lost.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Context, Result, bail};
use quincunx::brain::engine::Engine;
use quincunx::eval::weights::{Style, Table, WeightMatrix};
use quincunx::game::rules::{GAME_NAMES, Rules, Variant};
use quincunx::player::Player;
use quincunx::search::SearchPlayer;
use quincunx::tools::elo::Sprt;
use quincunx::tools::opening::{Opening, offset_line, parse_openings, pos_line};
use quincunx::tools::opening_gen::{self, GenConfig};
use quincunx::tools::process::split_command;
use quincunx::tools::random::clock_seed;
use quincunx::tools::referee::GameSettings;
use quincunx::tools::tournament::{EngineSpec, MatchConfig, Shard, run_match};

const USAGE: &str = "\
usage: pbrain-quincunx [--player search|weights] [--table tuple|proportional] [--style balanced|defensive]
                       [--threads N]
       pbrain-quincunx --version
       pbrain-quincunx bench [DEPTH]
       pbrain-quincunx match --engine CMD [--name NAME] --engine CMD [--name NAME] ... [options]
       pbrain-quincunx match --merge FILE... [--by-opening]
       pbrain-quincunx match --help
       pbrain-quincunx script [--engine CMD] [-v] FILE...
       pbrain-quincunx play [--rules R] [--size N] [--time MS] [--seed N] [--resume FILE] (play --help)
       pbrain-quincunx openings --count N [--stones A-B] [--variant V | --rule N] [--size N|WxH]
                       [--seed S] [--depth D] [--margin M] [--format offset|pos] [--out FILE] (openings --help)
       pbrain-quincunx analyze [--time MS] [--threads N] [--rule R] [--size N|WxH] [--margin M]
                       [--engine CMD] [--svg DIR | --no-svg] [--out FILE] FILE... (analyze --help)

With no subcommand the engine speaks the Gomocup/Piskvork protocol on stdin/stdout.
  --player search    threat-space and alpha-beta search (the default)
  --player weights   the classic weight-matrix player (the baseline)
  --table T          its weight table: tuple (5-tuple, default) or proportional
  --style S          balanced (offence + defence, default) or defensive (defence counts double)
  --threads N        search threads until the manager sends INFO thread_num (default: the cores)
Diagnostics go to stderr: set RUST_LOG=debug to see every line in and out.";

const PLAY_USAGE: &str = "\
usage: pbrain-quincunx play [options]

A tournament of rounds against the engine in the terminal (or from a pipe).
  --rules R          freestyle (default), exact, renju, caro or caro-exact; or
                     the Pente family: pente, keryo or gpente
  --size N           board size, 5 to 26 (default 15; 19 for the Pente family)
  --time MS          the engine's time per move (default 1000)
  --depth N          a fixed search depth per move instead of a time
  --threads N        search threads (default 1)
  --seed N           the coin's seed (default: the clock)
  --tournament-rule  the first stone on the centre and the first player's second
                     3 or more points from it, as in Pente (which always has it)
  --resume FILE      go on with a tournament saved with `save FILE`; the options
                     given with it win over the saved ones (but for the rules,
                     the size and the opening, which cannot change)
At the prompt: a move such as J10 (column letter, row number from the bottom),
hint, undo, save FILE, quit. On a terminal a line shows the engine thinking (its
depth and best move so far), and what is typed meanwhile is not played; from a
pipe every line is played in turn.";

const MATCH_USAGE: &str = "\
usage: pbrain-quincunx match --engine CMD [--name NAME] --engine CMD [--name NAME] ... [options]
       pbrain-quincunx match --merge FILE... [--by-opening]

Plays engines that speak the Gomocup protocol against each other; every fault (time, crash,
illegal or malformed move, bad START answer) loses the game and restarts the engine. Before the
first game every engine is started and must answer OK to START, and the output paths are checked:
a failure there stops the run with an error and no game played.
  --engine CMD        an engine command with its arguments, quoted as one word (two or more)
  --name NAME         a name for the engine given just before (default: its program's file name;
                      a repeated name gets #2, #3, ...)
  --gauntlet          the first engine against each other one (default: round robin)
  --rule N            Gomocup rule code: 0 freestyle, 1 exact five, 4 renju, 8 caro, 9 (default 0)
  --variant V         the game by name, as `play --rules` takes it: freestyle, exact, renju, caro,
                      caro-exact, pente, keryo or gpente (default: the game --rule names)
  --line-length K     K in a row wins (freestyle and exact rules; default 5)
  --size N | WxH      board size (default 15)
  --turn MS           time per move in ms, 0 = none (default 1000)
  --game MS           time per game and side in ms, 0 = none (default 0)
  --tolerance MS      grace beyond the limits (default 500)
  --start-timeout MS  time to answer START (default 10000)
  --memory BYTES      INFO max_memory (default 367001600)
  --threads N         INFO thread_num per engine (default: not sent)
  --games N           games per pairing (default 2, or 2N with --openings-random N; each opening is
                      played twice, colours swapped)
  --openings FILE     openings, one a line, black first: offsets from the centre (dx,dy, dx,dy, ...)
                      or c-gomoku-cli's pos notation from the top-left corner (h8i9j10), line by line
  --openings-random N draw N balanced openings afresh for the match's rule and board, as `openings`
                      does (not with --openings); the summary's first line gives the seed
  --seed S            their seed (default: the clock)
  --stones A-B        their stones (default 3-10)
  --margin M          their balance: the largest score of our search either way (default 60)
  --random SEED       play the openings in a shuffled order (default: file order)
  --concurrency N     games at once (default 1)
  --sprt E0,E1[,A,B]  stop when H0 (elo <= E0) or H1 (elo >= E1) is accepted (two engines only;
                      fishtest's trinomial GSPRT, logistic Elo, alpha = beta = 0.05 by default); a
                      shard never stops early: --merge gives the LLR and the verdict of all the games
  --max-stones N      draw once N stones are on the board (default: full board; renju: 25 empty left)
  --pause MS          wait after each answer before the next command (default 3)
  --psq DIR           write each game as DIR/game-NNNNN.psq when it ends (DIR is made if missing)
  --sgf FILE          write all games to FILE, each when it ends (its directory must exist)
  --quiet             no progress line on stderr
  --by-opening        after the summary, each pairing's results per opening and colour
  --show-stderr       let the engines' stderr through
  --shard K/N         play only part K of N (1 <= K <= N) of the run the other options describe: game
                      k of each pairing (from 0) is shard (k/2 mod N) + 1's, so an opening's two
                      games stay together; openings, colours and game numbers (in records too) are
                      the whole run's. The same options, --seed and --random included, on every
                      machine
  --results FILE      write the results for a program (and for --merge) to FILE: the run's identity,
                      W/L/D per pairing, colour and opening, faults, answer times
  --merge FILE...     read --results files of one run's shards and print the whole run's summary
                      (with --by-opening, its tables); refuses files of different runs or a shard
                      twice, warns of missing shards; its time is the shards' added up

The summary gives each pairing's score and Elo with its 95% interval [low, high] (a Wilson-type
interval: 30 wins of 30 shows 100.0% [88.6%, 100.0%], Elo +inf [+357, +inf]). Openings that do
not fit the board are skipped with one warning. A game record that cannot be written stops the
match: the summary of the games played is printed, then the error (exit status 1).";

/// `play`: the terminal tournament.
fn play_command(args: &[String]) -> Result<()> {
    use quincunx::tools::play::{Tournament, run_on_stdio};
    let Some((opts, resume)) = parse_play(args).map_err(|e| usage("play", e))? else {
        println!("{PLAY_USAGE}");
        return Ok(());
    };
    let tournament = match resume {
        Some(path) => {
            let text = std::fs::read_to_string(&path).with_context(|| format!("cannot read {path}"))?;
            let saved = Tournament::from_text(&text).with_context(|| path.clone())?;
            opts.resume(saved).map_err(|e| usage("play", e))?
        }
        None => opts.start().map_err(|e| usage("play", e))?,
    };
    run_on_stdio(tournament)
}

/// `play`'s options and the file to resume; `None` when `--help` was asked for.
fn parse_play(args: &[String]) -> Result<Option<(quincunx::tools::play::PlayOptions, Option<String>)>> {
    let mut opts = quincunx::tools::play::PlayOptions::default();
    let mut resume = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || it.next().cloned().with_context(|| format!("{a} needs a value"));
        let num = |v: String| v.parse::<u64>().with_context(|| format!("{a}: '{v}' is not a number"));
        match a.as_str() {
            "--rules" => {
                let v = value()?;
                opts.rules = Some(
                    Rules::named(&v)
                        .with_context(|| format!("unknown rules '{v}' ({})", GAME_NAMES.join(", ")))?,
                );
            }
            "--size" => opts.size = Some(num(value()?)? as usize),
            "--time" => opts.time_ms = Some(num(value()?)?),
            "--depth" => opts.depth = Some(num(value()?)?.max(1)),
            "--threads" => opts.threads = Some(parse_threads(a, &value()?)?.min(64)),
            "--seed" => opts.seed = Some(num(value()?)?),
            "--resume" => resume = Some(value()?),
            "--tournament-rule" => opts.tournament_rule = true,
            "-h" | "--help" => return Ok(None),
            other => bail!("unknown play option '{other}'"),
        }
    }
    Ok(Some((opts, resume)))
}

const OPENINGS_USAGE: &str = "\
usage: pbrain-quincunx openings --count N [options]

Writes N balanced random openings, one a line, black first: a few stones dropped at random in a
small window anywhere on the board (edges and corners too; under Pente the first stone on the centre
and the first player's second 3 or more points from it), kept when neither side has a four or a VCF
and our own search to a fixed depth scores the position within the margin. The same options give the
same openings, and no two are alike.
  --count N           openings to write (required)
  --stones A-B        stones per opening, each count in the range as likely (default 3-10; A: exactly A)
  --rule N            Gomocup rule code, as `match` takes it (default 0)
  --variant V         the game by name: freestyle, exact, renju, caro, caro-exact, pente, keryo or gpente
  --line-length K     K in a row wins (freestyle and exact rules; default 5)
  --size N | WxH      board size (default 15)
  --seed S            the generator's seed (default: the clock); told on stderr
  --depth D           the judging search's depth in plies (default 6; 4 under the Pente family,
                      whose search is slower)
  --margin M          the largest score either way still balanced (default 60, on the evaluation's
                      scale, where a position's score spreads about 260 either way)
  --format F          offset: dx,dy, dx,dy, ... from the centre (default; what `match --openings` and
                      c-gomoku-cli's -openings type=offset read), or pos: h8i9j10 from the top-left
                      corner (c-gomoku-cli's type=pos; boards up to 26 wide)
  --out FILE          write to FILE (default: stdout)";

/// What `openings` was asked for.
struct OpeningsArgs {
    count: usize,
    cfg: GenConfig,
    pos: bool,
    out: Option<PathBuf>,
}

/// `openings`'s options; `None` when `--help` was asked for.
fn parse_openings_args(args: &[String]) -> Result<Option<OpeningsArgs>> {
    let mut choice = GameChoice::default();
    let (mut count, mut seed, mut stones, mut depth, mut margin) = (None, None, None, None, None);
    let (mut pos, mut out) = (false, None);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || it.next().cloned().with_context(|| format!("{a} needs a value"));
        if choice.take(a, &mut value)? {
            continue;
        }
        match a.as_str() {
            "--count" => count = Some(num(a, &value()?)?),
            "--seed" => seed = Some(num(a, &value()?)?),
            "--stones" => stones = Some(stone_range(a, &value()?)?),
            "--depth" => depth = Some(num(a, &value()?)?),
            "--margin" => margin = Some(num(a, &value()?)?),
            "--format" => {
                pos = match value()?.as_str() {
                    "offset" => false,
                    "pos" => true,
                    other => bail!("--format: '{other}' is neither offset nor pos"),
                }
            }
            "--out" => out = Some(PathBuf::from(value()?)),
            "-h" | "--help" => return Ok(None),
            other => bail!("unknown openings option '{other}'"),
        }
    }
    let count: usize = count.context("--count is required")?;
    if count == 0 {
        bail!("--count: at least one opening");
    }
    let mut cfg =
        GenConfig::new(choice.rules()?, choice.width, choice.height, seed.unwrap_or_else(clock_seed));
    cfg.stones = stones.unwrap_or(cfg.stones);
    cfg.depth = depth.unwrap_or(cfg.depth);
    cfg.margin = margin.unwrap_or(cfg.margin);
    check_gen(&cfg)?;
    if pos && cfg.width > 26 {
        bail!("--format pos: columns past z cannot be written ({} wide)", cfg.width);
    }
    Ok(Some(OpeningsArgs { count, cfg, pos, out }))
}

/// `pbrain-quincunx openings …`
fn openings_command(args: &[String]) -> Result<()> {
    let Some(OpeningsArgs { count, cfg, pos, out }) =
        parse_openings_args(args).map_err(|e| usage("openings", e))?
    else {
        println!("{OPENINGS_USAGE}");
        return Ok(());
    };
    // Made before the work, so that a path that cannot be written costs nothing.
    let mut sink: Box<dyn std::io::Write> = match &out {
        Some(path) => {
            Box::new(std::fs::File::create(path).with_context(|| format!("cannot write {}", path.display()))?)
        }
        None => Box::new(std::io::stdout().lock()),
    };
    let started = std::time::Instant::now();
    let openings = opening_gen::generate(&cfg, count)?;
    let mut text = String::new();
    for stones in &openings {
        text += &if pos { pos_line(stones) } else { offset_line(stones, cfg.width, cfg.height) };
        text.push('\n');
    }
    sink.write_all(text.as_bytes()).and_then(|()| sink.flush()).context("cannot write the openings")?;
    eprintln!(
        "{count} openings for {} on {}x{}, seed {} ({:.1} s)",
        cfg.rules,
        cfg.width,
        cfg.height,
        cfg.seed,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

const BENCH_USAGE: &str = "\
usage: pbrain-quincunx bench [DEPTH] [--threads N] [--positions FILE [--rule R] [--size N]]

Searches a fixed set of positions (every rule, 15x15 and 20x20) to DEPTH plies (default 7) on one
thread and prints each result, then `nodes N nps M time T ms`. The node count is the same on every
machine: a change that should not alter the search leaves it unchanged.
  --threads N       search threads (default 1); with more than one the count varies from run to run,
                    and `nodes` counts the main thread's
  --positions FILE  search these positions instead, one a line in pos notation (h8i9j10), black
                    first; blank lines and lines from # are skipped: time to depth
  --rule R          their Gomocup rule code (default 0, freestyle)
  --size N          their board (default 15)";

/// `bench`'s options; `None` when `--help` was asked for.
fn parse_bench(args: &[String]) -> Result<Option<quincunx::search::bench::Bench>> {
    use quincunx::search::bench::{Bench, DEFAULT_DEPTH};
    let (mut depth, mut threads, mut file, mut rule, mut size) = (None, 1, None, 0i64, 15i64);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || it.next().cloned().with_context(|| format!("{a} needs a value"));
        match a.as_str() {
            "-h" | "--help" => return Ok(None),
            "--threads" => threads = parse_threads(a, &value()?)?,
            "--positions" => file = Some(PathBuf::from(value()?)),
            "--rule" => rule = num(a, &value()?)?,
            "--size" => size = num(a, &value()?)?,
            d if !d.starts_with('-') && depth.is_none() => match d.parse::<i32>() {
                Ok(n) if n >= 1 => depth = Some(n),
                _ => bail!("bench depth '{d}' is not a whole number from 1"),
            },
            d if !d.starts_with('-') => bail!("bench takes one DEPTH, not two ('{d}')"),
            other => bail!("unknown bench option '{other}'"),
        }
    }
    if let Some(w) = Rules::from_mask(rule, 5).1 {
        bail!("--rule: {w}");
    }
    let mut bench = Bench::standard(depth.unwrap_or(DEFAULT_DEPTH));
    bench.threads = threads;
    if let Some(file) = file {
        let text =
            std::fs::read_to_string(&file).with_context(|| format!("--positions {}", file.display()))?;
        bench.positions.clear();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            quincunx::game::board::Board::from_moves(size, size, line)
                .map_err(|e| anyhow::anyhow!("{}:{}: {e}", file.display(), n + 1))?;
            bench.positions.push((rule, size, line.to_string()));
        }
        if bench.positions.is_empty() {
            bail!("--positions {}: no positions", file.display());
        }
    }
    Ok(Some(bench))
}

/// A mistake on the command line: reported as one `Error:` line and a hint at the usage, exit status 2.
#[derive(Debug)]
struct UsageError {
    message: String,
    /// The subcommand whose `--help` explains it (empty: the program's own).
    command: &'static str,
}

impl std::fmt::Display for UsageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for UsageError {}

/// Marks `e` as a command-line mistake of `command`.
fn usage(command: &'static str, e: anyhow::Error) -> anyhow::Error {
    UsageError { message: format!("{e:#}"), command }.into()
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(code) => code,
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

fn run(args: &[String]) -> Result<ExitCode> {
    match args.first().map(String::as_str) {
        Some("match") => return match_command(&args[1..]).map(|()| ExitCode::SUCCESS),
        Some("bench") => {
            let Some(bench) = parse_bench(&args[1..]).map_err(|e| usage("bench", e))? else {
                println!("{BENCH_USAGE}");
                return Ok(ExitCode::SUCCESS);
            };
            print!("{}", quincunx::search::bench::run_bench(&bench));
            return Ok(ExitCode::SUCCESS);
        }
        Some("script") => {
            let ok = script_command(&args[1..])?;
            return Ok(if ok { ExitCode::SUCCESS } else { ExitCode::FAILURE });
        }
        Some("play") => return play_command(&args[1..]).map(|()| ExitCode::SUCCESS),
        Some("openings") => return openings_command(&args[1..]).map(|()| ExitCode::SUCCESS),
        Some("analyze") => return analyze_command(&args[1..]),
        Some("-V" | "--version") => {
            println!("pbrain-quincunx {}", env!("CARGO_PKG_VERSION"));
            return Ok(ExitCode::SUCCESS);
        }
        _ => {}
    }
    let Some(BrainOptions { player, threads }) = parse_player(args).map_err(|e| usage("", e))? else {
        println!("{USAGE}");
        return Ok(ExitCode::SUCCESS);
    };
    let mut engine = Engine::new(player);
    if let Some(n) = threads {
        // A default: a manager's INFO thread_num still decides.
        engine.apply(quincunx::brain::engine::Info::ThreadNum(n));
    }
    quincunx::brain::protocol::run(std::io::stdin(), std::io::stdout().lock(), engine)
        .context("protocol I/O")?;
    Ok(ExitCode::SUCCESS)
}

/// `pbrain-quincunx analyze …`: status 1 when a file or game could not be analysed.
fn analyze_command(args: &[String]) -> Result<ExitCode> {
    use quincunx::tools::analyze::{AnalyzeOptions, USAGE, run};
    let Some(opts) = AnalyzeOptions::parse(args).map_err(|e| usage("analyze", anyhow::Error::msg(e)))? else {
        println!("{USAGE}");
        return Ok(ExitCode::SUCCESS);
    };
    Ok(if run(&opts)? { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

/// `threads` as given on the command line: a whole number from 1.
fn parse_threads(flag: &str, v: &str) -> Result<usize> {
    match v.parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => bail!("{flag}: '{v}' is not a whole number from 1"),
    }
}

/// The protocol brain's options.
struct BrainOptions {
    player: Arc<dyn Player>,
    /// Search threads until the manager sends `INFO thread_num`.
    threads: Option<usize>,
}

/// The protocol brain's options; `None` when `--help` was asked for.
fn parse_player(args: &[String]) -> Result<Option<BrainOptions>> {
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
            other => bail!("unknown argument '{other}'"),
        }
    }
    let player: Arc<dyn Player> = if weights { Arc::new(wm) } else { Arc::new(SearchPlayer::default()) };
    Ok(Some(BrainOptions { player, threads }))
}

const SCRIPT_USAGE: &str = "\
usage: pbrain-quincunx script [--engine CMD] [-v] FILE...

Runs each protocol script against a fresh process of the engine (this program by default) and reports
every failed step (every step with -v, skipped MESSAGE/DEBUG lines included). Exit status 0 only when
no script fails; a script about one engine (`engine NAME`) is skipped for others. The script format is
described in protocol-tests/README.md.
  --engine CMD   the engine command with its arguments, quoted as one word
  -v, --verbose  show every step";

/// What `script` was asked to run.
struct ScriptArgs {
    engine: Vec<String>,
    verbose: bool,
    files: Vec<String>,
}

/// `script`'s options; `None` when `--help` was asked for.
fn parse_script(args: &[String]) -> Result<Option<ScriptArgs>> {
    let mut engine =
        vec![std::env::current_exe().context("cannot find this program")?.to_string_lossy().into_owned()];
    let mut verbose = false;
    let mut files = vec![];
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--engine" => {
                let v = it.next().context("--engine needs a value")?;
                engine = split_command(v).map_err(anyhow::Error::msg)?;
            }
            "-v" | "--verbose" => verbose = true,
            "-h" | "--help" => return Ok(None),
            f if f.starts_with('-') => bail!("unknown script option '{f}'"),
            f => files.push(f.to_string()),
        }
    }
    if files.is_empty() {
        bail!("no script given");
    }
    Ok(Some(ScriptArgs { engine, verbose, files }))
}

/// `pbrain-quincunx script …`: true when no script failed (a script about another engine is skipped).
fn script_command(args: &[String]) -> Result<bool> {
    use quincunx::tools::script::{Script, check_engine, run};
    let Some(ScriptArgs { engine, verbose, files }) = parse_script(args).map_err(|e| usage("script", e))?
    else {
        println!("{SCRIPT_USAGE}");
        return Ok(true);
    };
    check_engine(&engine).map_err(anyhow::Error::msg)?;
    let (mut passed, mut failed, mut skipped) = (0, 0, 0);
    for file in &files {
        let outcome = std::fs::read_to_string(file)
            .map_err(|e| format!("cannot read: {e}"))
            .and_then(|text| Script::parse(file, &text))
            .map(|script| run(&script, &engine));
        match outcome {
            Ok(report) if report.skip.is_some() => {
                skipped += 1;
                println!("SKIP {file} ({})", report.skip.unwrap_or_default());
            }
            Ok(report) => {
                let ok = report.passed();
                let steps = report.steps.len();
                let bad = report.steps.iter().filter(|s| !s.passed).count();
                if ok {
                    passed += 1;
                    println!("PASS {file} ({steps} steps)");
                } else {
                    failed += 1;
                    println!("FAIL {file} ({bad} of {steps} steps failed)");
                }
                print!("{}", report.render(verbose));
            }
            Err(e) => {
                failed += 1;
                println!("FAIL {file}: {e}");
            }
        }
    }
    println!("{passed} passed, {failed} failed, {skipped} skipped");
    Ok(failed == 0)
}

/// What `match` was asked to do.
enum MatchCommand {
    /// Play, and write the results file if given.
    Play(Box<MatchConfig>, Option<PathBuf>),
    /// Merge results files; print the tables per opening too.
    Merge(Vec<PathBuf>, bool),
}

/// `pbrain-quincunx match …`
fn match_command(args: &[String]) -> Result<()> {
    let (cfg, results) = match parse_match(args).map_err(|e| usage("match", e))? {
        MatchCommand::Play(cfg, results) => (cfg, results),
        MatchCommand::Merge(files, by_opening) => return merge_command(&files, by_opening),
    };
    if cfg.shard != Shard::WHOLE && results.is_none() {
        log::warn!("shard {} without --results: its games cannot be merged with the others'", cfg.shard);
    }
    // Made before the games, so that a path that cannot be written costs none.
    let mut results_file = match &results {
        Some(path) => {
            Some(std::fs::File::create(path).with_context(|| format!("cannot write {}", path.display()))?)
        }
        None => None,
    };
    let summary = match run_match(&cfg) {
        Ok(summary) => summary,
        Err(e) => {
            if let Some(path) = &results {
                let _ = std::fs::remove_file(path);
            }
            return Err(e.into());
        }
    };
    print!("{}", summary.render());
    if cfg.by_opening {
        print!("{}", summary.render_openings());
    }
    if cfg.sprt.is_some() && !cfg.shard.is_whole() {
        println!("SPRT: a shard plays its part in full; --merge of every shard's results gives the verdict");
    }
    // The results come first: the games were played and count even if their records were lost.
    let mut errors = vec![];
    if let (Some(file), Some(path)) = (&mut results_file, &results) {
        use std::io::Write as _;
        let text = quincunx::tools::results::Part::of(&cfg, &summary).to_text();
        if let Err(e) = file.write_all(text.as_bytes()).and_then(|()| file.flush()) {
            errors.push(format!("cannot write {}: {e}", path.display()));
        }
    }
    if let Some(e) = &summary.output_error {
        errors.push(format!("the match stopped after {} of {} games: {e}", summary.games, summary.scheduled));
    }
    if !errors.is_empty() {
        bail!("{}", errors.join("; "));
    }
    Ok(())
}

/// `match --merge`: the whole run's summary from its shards' results files.
fn merge_command(files: &[PathBuf], by_opening: bool) -> Result<()> {
    use quincunx::tools::results::{merge, parse};
    let mut parts = vec![];
    for path in files {
        let text =
            std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
        let part = parse(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        parts.push((path.display().to_string(), part));
    }
    let merged = merge(&parts).map_err(anyhow::Error::msg)?;
    for w in &merged.warnings {
        log::warn!("{w}");
    }
    print!("{}", merged.summary.render());
    if by_opening {
        print!("{}", merged.summary.render_openings());
    }
    Ok(())
}

/// `match --merge FILE... [--by-opening]`: the files and whether to print the tables per opening.
fn parse_merge(args: &[String]) -> Result<MatchCommand> {
    let (mut files, mut by_opening) = (vec![], false);
    for a in args {
        match a.as_str() {
            "--merge" | "--quiet" => {}
            "--by-opening" => by_opening = true,
            "-h" | "--help" => {
                println!("{MATCH_USAGE}");
                std::process::exit(0);
            }
            other if other.starts_with('-') => {
                bail!(
                    "--merge reads results files: of the options only --by-opening goes with it, not '{other}'"
                )
            }
            file => files.push(PathBuf::from(file)),
        }
    }
    if files.is_empty() {
        bail!("--merge needs the results files to merge");
    }
    Ok(MatchCommand::Merge(files, by_opening))
}

/// A number on the command line, or what is wrong with it.
fn num<T: std::str::FromStr>(flag: &str, v: &str) -> Result<T> {
    v.parse::<T>().map_err(|_| anyhow::anyhow!("{flag}: '{v}' is not a valid number"))
}

/// The game options that `match` and `openings` share: the rule code or the game's name, the line
/// length and the board.
struct GameChoice {
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
    fn take(&mut self, flag: &str, value: impl FnOnce() -> Result<String>) -> Result<bool> {
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
    fn rules(&self) -> Result<Rules> {
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
fn stone_range(flag: &str, v: &str) -> Result<(usize, usize)> {
    Ok(match v.split_once('-') {
        Some((lo, hi)) => (num(flag, lo.trim())?, num(flag, hi.trim())?),
        None => {
            let n = num(flag, v.trim())?;
            (n, n)
        }
    })
}

/// What the opening generator cannot work with in `cfg` (a mistake on the command line).
fn check_gen(cfg: &GenConfig) -> Result<()> {
    opening_gen::check(cfg).map(|_| ()).map_err(|e| anyhow::anyhow!("{e}"))
}

fn parse_match(args: &[String]) -> Result<MatchCommand> {
    if args.iter().any(|a| a == "--merge") {
        return parse_merge(args);
    }
    let mut given = MatchArgs::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || it.next().cloned().with_context(|| format!("{a} needs a value"));
        if !given.choice.take(a, &mut value)? {
            given.take(a, value)?;
        }
    }
    let results = given.results.take();
    Ok(MatchCommand::Play(Box::new(given.config()?), results))
}

/// `match`'s options as given, before they are checked together.
struct MatchArgs {
    engines: Vec<EngineSpec>,
    gauntlet: bool,
    game: GameSettings,
    choice: GameChoice,
    games: Option<usize>,
    openings: Vec<Opening>,
    /// `--openings-random`, and `--seed`, `--stones`, `--margin` that shape them.
    fresh: Option<usize>,
    seed: Option<u64>,
    stones: Option<(usize, usize)>,
    margin: Option<i32>,
    shuffle_seed: Option<u64>,
    concurrency: usize,
    sprt: Option<Sprt>,
    psq_dir: Option<PathBuf>,
    sgf: Option<PathBuf>,
    progress: bool,
    by_opening: bool,
    shard: Shard,
    results: Option<PathBuf>,
}

impl MatchArgs {
    fn new() -> MatchArgs {
        let game = GameSettings {
            rules: Rules::default(),
            width: 15,
            height: 15,
            turn_ms: 1000,
            game_ms: 0,
            tolerance_ms: 500,
            start_timeout_ms: 10_000,
            max_memory: 367_001_600,
            threads: 0,
            max_stones: 0,
            pause_ms: 3,
            show_stderr: false,
        };
        MatchArgs {
            engines: vec![],
            gauntlet: false,
            game,
            choice: GameChoice::default(),
            games: None,
            openings: vec![],
            fresh: None,
            seed: None,
            stones: None,
            margin: None,
            shuffle_seed: None,
            concurrency: 1,
            sprt: None,
            psq_dir: None,
            sgf: None,
            progress: true,
            by_opening: false,
            shard: Shard::WHOLE,
            results: None,
        }
    }

    /// Takes `a` with its value, or says it is not a match option.
    fn take(&mut self, a: &str, value: impl FnOnce() -> Result<String>) -> Result<()> {
        let game = &mut self.game;
        match a {
            "--engine" => self.engines.push(engine_spec(&value()?)?),
            "--name" => {
                let v = value()?;
                self.engines.last_mut().context("--name must follow an --engine")?.name = v;
            }
            "--gauntlet" => self.gauntlet = true,
            "--turn" => game.turn_ms = num(a, &value()?)?,
            "--game" => game.game_ms = num(a, &value()?)?,
            "--tolerance" => game.tolerance_ms = num(a, &value()?)?,
            "--start-timeout" => game.start_timeout_ms = num(a, &value()?)?,
            "--memory" => game.max_memory = num(a, &value()?)?,
            "--threads" => game.threads = parse_threads(a, &value()?)?,
            "--games" => self.games = Some(num(a, &value()?)?),
            "--openings" => {
                let path = value()?;
                let text = std::fs::read_to_string(&path).with_context(|| format!("cannot read {path}"))?;
                self.openings = parse_openings(&text).map_err(|e| anyhow::anyhow!("{path}: {e}"))?;
            }
            "--openings-random" => self.fresh = Some(num(a, &value()?)?),
            "--seed" => self.seed = Some(num(a, &value()?)?),
            "--stones" => self.stones = Some(stone_range(a, &value()?)?),
            "--margin" => self.margin = Some(num(a, &value()?)?),
            "--random" => self.shuffle_seed = Some(num(a, &value()?)?),
            "--concurrency" => self.concurrency = num(a, &value()?)?,
            "--sprt" => self.sprt = Some(Sprt::parse(&value()?).map_err(anyhow::Error::msg)?),
            "--max-stones" => game.max_stones = num(a, &value()?)?,
            "--pause" => game.pause_ms = num(a, &value()?)?,
            "--psq" => self.psq_dir = Some(PathBuf::from(value()?)),
            "--sgf" => self.sgf = Some(PathBuf::from(value()?)),
            "--quiet" => self.progress = false,
            "--by-opening" => self.by_opening = true,
            "--show-stderr" => game.show_stderr = true,
            "--shard" => self.shard = Shard::parse(&value()?).map_err(|e| anyhow::anyhow!("{a}: {e}"))?,
            "--results" => self.results = Some(PathBuf::from(value()?)),
            "-h" | "--help" => {
                println!("{MATCH_USAGE}");
                std::process::exit(0);
            }
            other => bail!("unknown match option '{other}'"),
        }
        Ok(())
    }

    /// The match the options describe, or what is wrong with them together.
    fn config(mut self) -> Result<MatchConfig> {
        if self.engines.len() < 2 {
            bail!("a match needs at least two --engine");
        }
        let game = &mut self.game;
        game.rules = self.choice.rules()?;
        (game.width, game.height) = (self.choice.width, self.choice.height);
        if game.max_stones == 0 {
            game.max_stones = default_max_stones(&game.rules, game.width * game.height);
        }
        let fresh = self.fresh_openings(&self.game)?;
        // Fresh openings are each played with both colours unless a count of games is asked for.
        let games_per_pair = self.games.unwrap_or(fresh.as_ref().map_or(2, |(count, _)| 2 * count));
        Ok(MatchConfig {
            engines: self.engines,
            gauntlet: self.gauntlet,
            game: self.game,
            games_per_pair,
            openings: self.openings,
            fresh,
            shuffle_seed: self.shuffle_seed,
            concurrency: self.concurrency,
            sprt: self.sprt,
            psq_dir: self.psq_dir,
            sgf: self.sgf,
            progress: self.progress,
            by_opening: self.by_opening,
            shard: self.shard,
        })
    }

    /// `--openings-random`'s count and how to draw them for `game`, checked.
    fn fresh_openings(&self, game: &GameSettings) -> Result<Option<(usize, GenConfig)>> {
        Ok(match self.fresh {
            Some(_) if !self.openings.is_empty() => {
                bail!("--openings-random draws the openings: not with --openings")
            }
            Some(0) => bail!("--openings-random: at least one opening"),
            Some(count) => {
                let seed = self.seed.unwrap_or_else(clock_seed);
                let mut gen_cfg = GenConfig::new(game.rules, game.width, game.height, seed);
                gen_cfg.stones = self.stones.unwrap_or(gen_cfg.stones);
                gen_cfg.margin = self.margin.unwrap_or(gen_cfg.margin);
                check_gen(&gen_cfg)?;
                Some((count, gen_cfg))
            }
            None if self.seed.is_some() || self.stones.is_some() || self.margin.is_some() => {
                bail!("--seed, --stones and --margin shape fresh openings: they need --openings-random")
            }
            None => None,
        })
    }
}

/// `--engine`: the command line of an engine, named after its program file until `--name` says.
fn engine_spec(v: &str) -> Result<EngineSpec> {
    let command = split_command(v).map_err(anyhow::Error::msg)?;
    let name = std::path::Path::new(&command[0])
        .file_name()
        .map_or_else(|| command[0].clone(), |n| n.to_string_lossy().into_owned());
    Ok(EngineSpec { name, command })
}

/// The stones after which a game of `rules` on a board of `cells` points is a draw, when
/// `--max-stones` does not say.
fn default_max_stones(rules: &Rules, cells: usize) -> usize {
    match rules.variant {
        // Gomocup stops renju games as a draw when 25 empty points are left.
        Variant::Renju => cells.saturating_sub(25),
        // Captured points are played again: the full board ends a Pente game.
        Variant::Pente { .. } => usize::MAX,
        _ => cells,
    }
}
