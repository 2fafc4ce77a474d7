//! `pbrain-quincunx`: the Gomocup brain. With no arguments (or only player options) it speaks the
//! protocol on stdin/stdout; `match` runs engine-vs-engine matches.

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{Context, Result, bail};
use quincunx::brain::split_command;
use quincunx::elo::Sprt;
use quincunx::engine::{Engine, Player};
use quincunx::opening::parse_openings;
use quincunx::referee::GameSettings;
use quincunx::rules::{Rules, Variant};
use quincunx::search::SearchPlayer;
use quincunx::tournament::{EngineSpec, MatchConfig, run_match};
use quincunx::weights::{Style, Table, WeightMatrix};

const USAGE: &str = "\
usage: pbrain-quincunx [--player search|weights] [--table tuple|proportional] [--style balanced|defensive]
                       [--threads N]
       pbrain-quincunx bench [DEPTH]
       pbrain-quincunx match --engine CMD [--name NAME] --engine CMD [--name NAME] ... [options]
       pbrain-quincunx match --help
       pbrain-quincunx script [--engine CMD] [-v] FILE...
       pbrain-quincunx play [--rules R] [--size N] [--time MS] [--seed N] [--resume FILE] (play --help)

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
  --rules R          freestyle (default), exact, renju or caro; or the Pente
                     family: pente, keryo or gpente
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

Plays engines that speak the Gomocup protocol against each other; every fault (time, crash,
illegal or malformed move, bad START answer) loses the game and restarts the engine.
  --engine CMD        an engine command with its arguments, quoted as one word (two or more)
  --name NAME         a name for the engine given just before (default: its program's file name)
  --gauntlet          the first engine against each other one (default: round robin)
  --rule N            Gomocup rule code: 0 freestyle, 1 exact five, 4 renju, 8 caro, 9 (default 0)
  --variant V         gomoku (by --rule, the default), pente, keryo or gpente
  --line-length K     K in a row wins (freestyle and exact rules; default 5)
  --size N | WxH      board size (default 15)
  --turn MS           time per move in ms, 0 = none (default 1000)
  --game MS           time per game and side in ms, 0 = none (default 0)
  --tolerance MS      grace beyond the limits (default 500)
  --start-timeout MS  time to answer START (default 10000)
  --memory BYTES      INFO max_memory (default 367001600)
  --threads N         INFO thread_num per engine (default: not sent)
  --games N           games per pairing (default 2; each opening is played twice, colours swapped)
  --openings FILE     openings in the offset format (dx,dy, dx,dy, ...)
  --random SEED       play the openings in a shuffled order (default: file order)
  --concurrency N     games at once (default 1)
  --sprt E0,E1[,A,B]  stop when H0 (elo <= E0) or H1 (elo >= E1) is accepted (two engines only)
  --max-stones N      draw once N stones are on the board (default: full board; renju: 25 empty left)
  --pause MS          wait after each answer before the next command (default 3)
  --psq DIR           write each game as DIR/game-NNNNN.psq
  --sgf FILE          write all games to FILE
  --quiet             no progress line on stderr
  --by-opening        after the summary, each pairing's results per opening and colour
  --show-stderr       let the engines' stderr through";

/// `play`: the terminal tournament.
fn play_command(args: &[String]) -> Result<()> {
    use quincunx::play::{PlayOptions, Tournament, rules_by_name, run_on_stdio};
    let mut opts = PlayOptions::default();
    let mut resume = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || it.next().cloned().with_context(|| format!("{a} needs a value"));
        let num = |v: String| v.parse::<u64>().with_context(|| format!("{a}: '{v}' is not a number"));
        match a.as_str() {
            "--rules" => {
                let v = value()?;
                opts.rules = Some(
                    rules_by_name(&v.to_ascii_lowercase()).with_context(|| format!("unknown rules '{v}'"))?,
                );
            }
            "--size" => opts.size = Some(num(value()?)? as usize),
            "--time" => opts.time_ms = Some(num(value()?)?),
            "--depth" => opts.depth = Some(num(value()?)?.max(1)),
            "--threads" => opts.threads = Some(num(value()?)?.clamp(1, 64) as usize),
            "--seed" => opts.seed = Some(num(value()?)?),
            "--resume" => resume = Some(value()?),
            "--tournament-rule" => opts.tournament_rule = true,
            "-h" | "--help" => {
                println!("{PLAY_USAGE}");
                return Ok(());
            }
            other => bail!("unknown play option '{other}'\n{PLAY_USAGE}"),
        }
    }
    let tournament = match resume {
        Some(path) => {
            let text = std::fs::read_to_string(&path).with_context(|| format!("cannot read {path}"))?;
            opts.resume(Tournament::from_text(&text).with_context(|| path.clone())?)?
        }
        None => opts.start()?,
    };
    run_on_stdio(tournament)
}

fn main() -> Result<()> {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("match") => return match_command(&args[1..]),
        Some("bench") => {
            let depth = match args.get(1) {
                Some(d) => d.parse().with_context(|| format!("bench depth '{d}' is not a number"))?,
                None => quincunx::bench::DEFAULT_DEPTH,
            };
            print!("{}", quincunx::bench::run(depth));
            return Ok(());
        }
        Some("script") => {
            let ok = script_command(&args[1..])?;
            std::process::exit(if ok { 0 } else { 1 });
        }
        Some("play") => return play_command(&args[1..]),
        _ => {}
    }
    let (player, threads) = parse_player(&args)?;
    let mut engine = Engine::new(player);
    if let Some(n) = threads {
        // A default: a manager's INFO thread_num still decides.
        engine.apply(quincunx::engine::Info::ThreadNum(n));
    }
    quincunx::protocol::run(std::io::stdin(), std::io::stdout().lock(), engine).context("protocol I/O")?;
    Ok(())
}

fn parse_player(args: &[String]) -> Result<(Arc<dyn Player>, Option<usize>)> {
    let mut wm = WeightMatrix::default();
    let mut weights = false;
    let mut threads = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value =
            |name: &str| it.next().cloned().with_context(|| format!("{name} needs a value\n{USAGE}"));
        match a.as_str() {
            "--player" => match value("--player")?.as_str() {
                "weights" => weights = true,
                "search" => weights = false,
                other => bail!("unknown player '{other}'\n{USAGE}"),
            },
            "--table" => {
                wm.table = match value("--table")?.as_str() {
                    "tuple" => Table::Tuple,
                    "proportional" => Table::Proportional,
                    other => bail!("unknown table '{other}'\n{USAGE}"),
                }
            }
            "--style" => {
                wm.style = match value("--style")?.as_str() {
                    "balanced" => Style::Balanced,
                    "defensive" => Style::Defensive,
                    other => bail!("unknown style '{other}'\n{USAGE}"),
                }
            }
            "--threads" => {
                let v = value("--threads")?;
                threads = Some(v.parse().with_context(|| format!("--threads: '{v}' is not a number"))?);
            }
            "-h" | "--help" => {
                println!("{USAGE}");
                std::process::exit(0);
            }
            other => bail!("unknown argument '{other}'\n{USAGE}"),
        }
    }
    let player: Arc<dyn Player> = if weights { Arc::new(wm) } else { Arc::new(SearchPlayer::default()) };
    Ok((player, threads))
}

const SCRIPT_USAGE: &str = "\
usage: pbrain-quincunx script [--engine CMD] [-v] FILE...

Runs each protocol script against a fresh process of the engine (this program by default) and reports
every failed step (every step with -v, skipped MESSAGE/DEBUG lines included). Exit status 0 only when
all scripts pass. The script format is described in protocol-tests/README.md.
  --engine CMD   the engine command with its arguments, quoted as one word
  -v, --verbose  show every step";

/// `pbrain-quincunx script …`: true when every script passed.
fn script_command(args: &[String]) -> Result<bool> {
    use quincunx::script::{Script, run};
    let mut engine =
        vec![std::env::current_exe().context("cannot find this program")?.to_string_lossy().into_owned()];
    let mut verbose = false;
    let mut files = vec![];
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--engine" => {
                let v = it.next().with_context(|| format!("--engine needs a value\n{SCRIPT_USAGE}"))?;
                engine = split_command(v).map_err(anyhow::Error::msg)?;
            }
            "-v" | "--verbose" => verbose = true,
            "-h" | "--help" => {
                println!("{SCRIPT_USAGE}");
                return Ok(true);
            }
            f if f.starts_with('-') => bail!("unknown script option '{f}'\n{SCRIPT_USAGE}"),
            f => files.push(f.to_string()),
        }
    }
    if files.is_empty() {
        bail!("no script given\n{SCRIPT_USAGE}");
    }
    let (mut passed, mut failed) = (0, 0);
    for file in &files {
        let outcome = std::fs::read_to_string(file)
            .map_err(|e| format!("cannot read: {e}"))
            .and_then(|text| Script::parse(file, &text))
            .map(|script| run(&script, &engine));
        match outcome {
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
    println!("{passed} passed, {failed} failed");
    Ok(failed == 0)
}

/// `pbrain-quincunx match …`
fn match_command(args: &[String]) -> Result<()> {
    let cfg = parse_match(args)?;
    let summary = run_match(&cfg).map_err(anyhow::Error::msg)?;
    print!("{}", summary.render());
    if cfg.by_opening {
        print!("{}", summary.render_openings());
    }
    Ok(())
}

fn parse_match(args: &[String]) -> Result<MatchConfig> {
    let mut engines: Vec<EngineSpec> = vec![];
    let mut game = GameSettings {
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
    let (mut rule, mut line) = (0i64, 5u8);
    let mut variant: Option<String> = None;
    let mut cfg_games = 2;
    let mut openings = vec![];
    let mut shuffle_seed = None;
    let mut concurrency = 1;
    let mut sprt = None;
    let (mut psq_dir, mut sgf) = (None, None);
    let mut progress = true;
    let mut by_opening = false;
    let mut gauntlet = false;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || it.next().cloned().with_context(|| format!("{a} needs a value\n{MATCH_USAGE}"));
        fn num<T: std::str::FromStr>(flag: &str, v: &str) -> Result<T> {
            v.parse::<T>().map_err(|_| anyhow::anyhow!("{flag}: '{v}' is not a valid number"))
        }
        match a.as_str() {
            "--engine" => {
                let command = split_command(&value()?).map_err(anyhow::Error::msg)?;
                let name = std::path::Path::new(&command[0])
                    .file_name()
                    .map_or_else(|| command[0].clone(), |n| n.to_string_lossy().into_owned());
                engines.push(EngineSpec { name, command });
            }
            "--name" => {
                let v = value()?;
                engines.last_mut().context("--name must follow an --engine")?.name = v;
            }
            "--gauntlet" => gauntlet = true,
            "--rule" => rule = num(a, &value()?)?,
            "--variant" => variant = Some(value()?.to_ascii_lowercase()),
            "--line-length" => line = num(a, &value()?)?,
            "--size" => {
                let v = value()?;
                let (w, h) = match v.split_once(['x', 'X', ',']) {
                    Some((w, h)) => (num(a, w)?, num(a, h)?),
                    None => {
                        let n = num(a, &v)?;
                        (n, n)
                    }
                };
                game.width = w;
                game.height = h;
            }
            "--turn" => game.turn_ms = num(a, &value()?)?,
            "--game" => game.game_ms = num(a, &value()?)?,
            "--tolerance" => game.tolerance_ms = num(a, &value()?)?,
            "--start-timeout" => game.start_timeout_ms = num(a, &value()?)?,
            "--memory" => game.max_memory = num(a, &value()?)?,
            "--threads" => game.threads = num(a, &value()?)?,
            "--games" => cfg_games = num(a, &value()?)?,
            "--openings" => {
                let path = value()?;
                let text = std::fs::read_to_string(&path).with_context(|| format!("cannot read {path}"))?;
                openings = parse_openings(&text).map_err(|e| anyhow::anyhow!("{path}: {e}"))?;
            }
            "--random" => shuffle_seed = Some(num(a, &value()?)?),
            "--concurrency" => concurrency = num(a, &value()?)?,
            "--sprt" => sprt = Some(Sprt::parse(&value()?).map_err(anyhow::Error::msg)?),
            "--max-stones" => game.max_stones = num(a, &value()?)?,
            "--pause" => game.pause_ms = num(a, &value()?)?,
            "--psq" => psq_dir = Some(PathBuf::from(value()?)),
            "--sgf" => sgf = Some(PathBuf::from(value()?)),
            "--quiet" => progress = false,
            "--by-opening" => by_opening = true,
            "--show-stderr" => game.show_stderr = true,
            "-h" | "--help" => {
                println!("{MATCH_USAGE}");
                std::process::exit(0);
            }
            other => bail!("unknown match option '{other}'\n{MATCH_USAGE}"),
        }
    }
    if engines.len() < 2 {
        bail!("a match needs at least two --engine\n{MATCH_USAGE}");
    }
    let (rules, warning) = Rules::from_mask(rule, line);
    if let Some(w) = warning {
        bail!("{w}");
    }
    game.rules = match variant.as_deref() {
        None | Some("gomoku") => rules,
        Some(v) if let Some(pente) = Rules::pente_named(v) => pente,
        Some(v) => bail!("unknown variant '{v}' (gomoku, pente, keryo or gpente)"),
    };
    if game.max_stones == 0 {
        let cells = game.width * game.height;
        game.max_stones = match game.rules.variant {
            // Gomocup stops renju games as a draw when 25 empty points are left.
            Variant::Renju => cells.saturating_sub(25),
            // Captured points are played again: the full board ends a Pente game.
            Variant::Pente { .. } => usize::MAX,
            _ => cells,
        };
    }
    Ok(MatchConfig {
        engines,
        gauntlet,
        game,
        games_per_pair: cfg_games,
        openings,
        shuffle_seed,
        concurrency,
        sprt,
        psq_dir,
        sgf,
        progress,
        by_opening,
    })
}
