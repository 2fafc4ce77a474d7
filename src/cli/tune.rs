//! `pbrain-quincunx tune`: the command line of SPSA over the search's parameters, and `tune --merge`
//! of its shards' state files.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow, bail};
use quincunx::search::{Params, SPECS, Spec};
use quincunx::tools::opening_gen;
use quincunx::tools::random::clock_seed;
use quincunx::tools::selfplay::MoveLimit;
use quincunx::tools::selfplay::RunError;
use quincunx::tools::shard::Shard;
use quincunx::tools::tune::{self, Schedule, TuneConfig, header_field};

use crate::cli::{GameChoice, nearest, num, stone_range, unknown_option, usage, whole};

const TUNE_USAGE: &str = "\
usage: pbrain-quincunx tune --params NAME,... --iterations N --state FILE [options]
       pbrain-quincunx tune --merge FILE...

Tunes the search's parameters by SPSA (docs/training.md, Tuning): each iteration plays one pair of
games, the parameters nudged up against them nudged down, on a fresh balanced opening with each side
black once, and moves the values toward the side that scored more. The state file gets a line an
iteration: run the same command again after any stop and it goes on where the file ends (with a
larger --iterations it goes on further). At the end the mean of the last half of the iterations' values
is printed as a --set argument.
  --params NAME,...   the parameters to tune ('params' lists them; required)
  --iterations N      iterations of the whole run (required)
  --state FILE        the state file, created or continued (required)
  --start NAME=V,...  start tuned parameters from these values instead of their defaults
  --rule R, --size N  the game, as the other subcommands take them (default freestyle, 15x15)
  --stones A-B        stones per opening (default 3-10)
  --nodes N           search nodes a move (default 3000; deterministic)
  --time MS           milliseconds a move instead of a node count
  --seed S            the openings' and perturbations' seed (default: the file's, else the clock)
  --c-scale X         the perturbation, in SPSA steps (default 2)
  --rate X            the first iteration's move in steps for each point of a pair's result (default 0.5)
  --shard K/N         run only the iterations k with k mod N = K-1, as a chain of their own
  --concurrency C     1, or 2 to play a pair's two games at once (default: 2 on 2 cores or more)
  --merge FILE...     the answers of state files, averaged by their iterations (shards of one run)";

/// The options, for the nearest one to a slip of the keyboard.
const FLAGS: &[&str] = &[
    "--params",
    "--iterations",
    "--state",
    "--start",
    "--rule",
    "--line-length",
    "--size",
    "--stones",
    "--nodes",
    "--time",
    "--seed",
    "--c-scale",
    "--rate",
    "--shard",
    "--concurrency",
    "--merge",
    "--help",
];

/// Nodes a move unless told otherwise: about 4 ms of search, a pair in about half a second.
const DEFAULT_NODES: u64 = 3000;

struct TuneArgs {
    cfg: TuneConfig,
    iterations: usize,
    state: PathBuf,
    concurrency: usize,
}

enum Command {
    Run(Box<TuneArgs>),
    Merge(Vec<PathBuf>),
    Help,
}

/// A positive real number on the command line.
fn positive(flag: &str, v: &str) -> Result<f64> {
    match num::<f64>(flag, v)? {
        x if x > 0.0 && x.is_finite() => Ok(x),
        _ => bail!("{flag}: '{v}' is not a number above 0"),
    }
}

/// The state file's text ("" when there is none yet).
fn read_text(path: &Path) -> Result<String> {
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(text),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(String::new()),
        Err(e) => Err(e).with_context(|| format!("cannot read {}", path.display())),
    }
}

fn parse_args(args: &[String]) -> Result<Command> {
    let (mut names, mut iterations, mut state, mut start) = (None, None, None, None);
    let (mut game, mut stones, mut nodes, mut time) =
        (GameChoice::default(), opening_gen::DEFAULT_STONES, None, None);
    let (mut seed, mut schedule, mut shard, mut concurrency) =
        (None, Schedule::default(), Shard::WHOLE, None);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || it.next().cloned().with_context(|| format!("{a} needs a value"));
        if game.take(a, &mut value)? {
            continue;
        }
        match a.as_str() {
            "--params" => names = Some(value()?),
            "--iterations" => iterations = Some(whole::<usize>(a, &value()?, 1)?),
            "--state" => state = Some(PathBuf::from(value()?)),
            "--start" => start = Some(value()?),
            "--stones" => stones = stone_range(a, &value()?)?,
            "--nodes" => nodes = Some(whole::<u64>(a, &value()?, 1)?),
            "--time" => time = Some(whole::<u64>(a, &value()?, 1)?),
            "--seed" => seed = Some(num::<u64>(a, &value()?)?),
            "--c-scale" => schedule.c_scale = positive(a, &value()?)?,
            "--rate" => schedule.rate = positive(a, &value()?)?,
            "--shard" => shard = Shard::parse(&value()?).map_err(|e| anyhow!("{a}: {e}"))?,
            "--concurrency" => concurrency = Some(whole::<usize>(a, &value()?, 1)?),
            "--merge" => {
                let files: Vec<PathBuf> = it.by_ref().map(PathBuf::from).collect();
                if files.is_empty() {
                    bail!("--merge needs the state files");
                }
                return Ok(Command::Merge(files));
            }
            "-h" | "--help" => return Ok(Command::Help),
            other => return Err(unknown_option("tune", other, FLAGS)),
        }
    }
    let names = names.context("--params is required")?;
    let iterations = iterations.context("--iterations is required")?;
    let state = state.context("--state is required")?;
    if nodes.is_some() && time.is_some() {
        bail!("--nodes and --time: give one limit a move");
    }
    if concurrency.is_some_and(|c| c > 2) {
        bail!("--concurrency: a pair is two games; run shards to use more cores");
    }
    let mut specs: Vec<&'static Spec> = vec![];
    for name in names.split(',').map(str::trim).filter(|n| !n.is_empty()) {
        let spec = Spec::find(name).ok_or_else(|| {
            let names: Vec<&str> = SPECS.iter().map(|s| s.name).collect();
            match nearest(&name.to_ascii_lowercase(), &names) {
                Some(n) => anyhow!("--params: unknown parameter '{name}' (did you mean {n}?)"),
                None => anyhow!("--params: unknown parameter '{name}' ('params' lists them)"),
            }
        })?;
        if specs.iter().any(|s| s.name == spec.name) {
            bail!("--params: {} twice", spec.name);
        }
        specs.push(spec);
    }
    if specs.is_empty() {
        bail!("--params names no parameter");
    }
    let start_values = Params::parse(start.as_deref().unwrap_or("")).map_err(|e| anyhow!("--start: {e}"))?;
    for item in start.as_deref().unwrap_or("").split(',').filter(|s| !s.trim().is_empty()) {
        let name = item.split_once('=').map_or(item, |(n, _)| n).trim();
        if !specs.iter().any(|s| s.name.eq_ignore_ascii_case(name)) {
            bail!("--start: {name} is not among --params");
        }
    }
    let rules = game.rules()?;
    let (width, height) = game.board(&rules);
    let limit = match time {
        Some(t) => MoveLimit::Time(t),
        None => MoveLimit::Nodes(nodes.unwrap_or(DEFAULT_NODES)),
    };
    let existing = read_text(&state)?;
    let found = existing.lines().find(|l| l.starts_with('#'));
    let seed =
        seed.or_else(|| found.and_then(|h| header_field(h, "seed")?.parse().ok())).unwrap_or_else(clock_seed);
    // A tenth of the chain's iterations as first planned: a longer run later keeps the file's.
    let chain_len = (shard.index - 1..iterations).step_by(shard.count).count();
    schedule.big_a = found
        .and_then(|h| header_field(h, "A")?.parse().ok())
        .unwrap_or_else(|| (chain_len as f64 / 10.0).round());
    let params = specs.iter().map(|&s| (s, s.get(&start_values) as f64)).collect();
    let cfg = TuneConfig { params, rules, width, height, stones, limit, seed, schedule, shard };
    let openings =
        opening_gen::GenConfig { stones, ..opening_gen::GenConfig::new(rules, width, height, seed) };
    opening_gen::check(&openings).map_err(|e| anyhow!("{e}"))?;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let concurrency = concurrency.unwrap_or(cores).min(2);
    Ok(Command::Run(Box::new(TuneArgs { cfg, iterations, state, concurrency })))
}

/// `pbrain-quincunx tune …`
pub fn tune_command(args: &[String]) -> Result<()> {
    match parse_args(args).map_err(|e| usage("tune", e))? {
        Command::Help => {
            outln!("{TUNE_USAGE}")?;
            Ok(())
        }
        Command::Merge(files) => merge_command(&files),
        Command::Run(a) => run_command(*a),
    }
}

fn run_command(TuneArgs { cfg, iterations, state, concurrency }: TuneArgs) -> Result<()> {
    let header = cfg.header();
    let existing = read_text(&state)?;
    let (found, done) = tune::read_state(&existing).with_context(|| format!("{}", state.display()))?;
    if let Some(found) = found
        && found != header
    {
        bail!("{}: {}", state.display(), RunError::OtherRun { found, expected: header });
    }
    tune::check_chain(&cfg, &done).with_context(|| format!("{}", state.display()))?;
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&state)
        .with_context(|| format!("cannot write {}", state.display()))?;
    if existing.is_empty() {
        writeln!(file, "{header}")?;
    } else if !existing.ends_with('\n') {
        // A line cut by a stop: the next iteration starts on a line of its own.
        writeln!(file)?;
    }
    let specs: Vec<&Spec> = cfg.params.iter().map(|(s, _)| *s).collect();
    let started = Instant::now();
    let mut last = Instant::now();
    let mut progress = |p: &tune::Progress| {
        if last.elapsed() >= Duration::from_secs(5) || p.done == p.planned {
            last = Instant::now();
            let values: Vec<String> =
                specs.iter().zip(&p.theta).map(|(s, t)| format!("{}={t:.1}", s.name)).collect();
            let rate = p.now as f64 / started.elapsed().as_secs_f64().max(1e-3);
            eprintln!(
                "tune: iteration {} of {}, {}, {rate:.2} iterations/s",
                p.done,
                p.planned,
                values.join(" ")
            );
        }
    };
    let mut all = done;
    all.extend(tune::run(&cfg, &all, iterations, concurrency, &mut file, &mut progress)?);
    let last = all.last().map_or_else(|| cfg.start(), |it| it.theta.clone());
    out!("{}", summary(&cfg.params, all.len(), &last, &tune::answer(&cfg.start(), &all)))?;
    Ok(())
}

/// Each tuned parameter's start, last value, answer (the mean of the last half) and move, then the
/// answer as a `--set` argument.
fn summary(params: &[(&'static Spec, f64)], iterations: usize, last: &[f64], theta: &[f64]) -> String {
    let specs: Vec<&Spec> = params.iter().map(|(s, _)| *s).collect();
    let width = specs.iter().map(|s| s.name.len()).max().unwrap_or(4);
    let mut out = format!("after {iterations} iterations:\n");
    for (((s, start), t), l) in params.iter().zip(theta).zip(last) {
        out += &format!(
            "  {:width$}  start {start:>8}  last {l:>9.2}  mean of the last half {t:>9.2}  moved {:>+9.2}  (default {})\n",
            s.name,
            t - start,
            s.default
        );
    }
    out + &tune::set_line(&specs, theta) + "\n"
}

/// The tuned parameters and their start values that a state file's header names.
fn params_of(header: &str) -> Result<Vec<(&'static Spec, f64)>> {
    let field = |key: &str| header_field(header, key).with_context(|| format!("no {key}= in its header"));
    let names: Vec<&str> = field("params")?.split(',').collect();
    let starts: Vec<f64> = field("start")?
        .split(',')
        .map(|v| v.parse().map_err(|_| anyhow!("bad start= value '{v}'")))
        .collect::<Result<_>>()?;
    if names.len() != starts.len() {
        bail!("params= and start= differ in length");
    }
    names
        .iter()
        .zip(starts)
        .map(|(n, v)| Spec::find(n).map(|s| (s, v)).with_context(|| format!("unknown parameter '{n}'")))
        .collect()
}

/// `tune --merge FILE…`: the shards' answers averaged by their iterations, as one run's.
fn merge_command(files: &[PathBuf]) -> Result<()> {
    let mut first: Option<(String, Vec<(&'static Spec, f64)>)> = None;
    let (mut answers, mut lasts) = (vec![], vec![]);
    for path in files {
        let text =
            std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
        let (header, done) = tune::read_state(&text).with_context(|| format!("{}", path.display()))?;
        let header = header.with_context(|| format!("{}: not a tune state file", path.display()))?;
        let params = params_of(&header).with_context(|| format!("{}", path.display()))?;
        // Shards of one run differ in their shard= alone.
        let run: String =
            header.split_whitespace().filter(|w| !w.starts_with("shard=")).collect::<Vec<_>>().join(" ");
        match &first {
            Some((r, _)) if *r != run => {
                bail!("{}: another run than {}'s ('{run}')", path.display(), files[0].display())
            }
            Some(_) => {}
            None => first = Some((run, params.clone())),
        }
        let start: Vec<f64> = params.iter().map(|&(_, v)| v).collect();
        answers.push((done.len(), tune::answer(&start, &done)));
        lasts.push((done.len(), done.last().map_or(start, |it| it.theta.clone())));
    }
    let Some((_, params)) = first else { bail!("--merge needs the state files") };
    let start: Vec<f64> = params.iter().map(|&(_, v)| v).collect();
    let (theta, last) = (tune::merge(&start, &answers), tune::merge(&start, &lasts));
    let total = answers.iter().map(|(n, _)| n).sum();
    out!("{}", summary(&params, total, &last, &theta))?;
    Ok(())
}
