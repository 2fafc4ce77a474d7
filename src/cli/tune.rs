//! `pbrain-quincunx tune`: the command line of SPSA over the search's parameters, `tune --merge` of its
//! shards' state files and `tune --fold` of a long chain's. Every state file read is checked against
//! the chain its header names before a count or a θ of it is used.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow, bail};
use quincunx::game::random::clock_seed;
use quincunx::search::{Params, Spec};
use quincunx::tools::learn::selfplay::field_of;
use quincunx::tools::learn::tune::{self, Schedule, TuneConfig};
use quincunx::tools::matches::opening_gen;
use quincunx::tools::matches::shard::Shard;

use crate::cli::params::nearest_param;
use crate::cli::selfplay::{GameOptions, continue_file, text_or_empty};
use crate::cli::train::positive;
use crate::cli::{GameArgs, check_gen, num, usage, whole};

/// Tunes the search's parameters by SPSA
#[derive(clap::Args)]
#[command(
    before_help = "SPSA (docs/training.md, Tuning): each iteration plays one pair of games, the parameters nudged up
against them nudged down, on a fresh balanced opening with each side black once, and moves the values
toward the side that scored more. The state file gets a line an iteration (--fold folds whole blocks
of them into a line each, to keep a long chain's file small): run the same command again
after any stop and it goes on where the file ends (with a larger --iterations it goes on further). At
the end the mean of the last half of the iterations' values is printed as a --set argument.",
    override_usage = "pbrain-quincunx tune --params NAME,... --iterations N --state FILE [options]
       pbrain-quincunx tune --merge FILE...
       pbrain-quincunx tune --fold FILE [--block B]"
)]
pub struct TuneArgs {
    /// The parameters to tune ('params' lists them)
    #[arg(long, value_name = "NAME,...", required_unless_present_any = ["merge", "fold"])]
    params: Option<String>,
    /// Iterations of the whole run
    #[arg(long, value_name = "N", required_unless_present_any = ["merge", "fold"], value_parser = whole::<usize, 1>)]
    iterations: Option<usize>,
    /// The state file, created or continued
    #[arg(long, value_name = "FILE", required_unless_present_any = ["merge", "fold"])]
    state: Option<PathBuf>,
    /// Start tuned parameters from these values instead of their defaults
    #[arg(long, value_name = "NAME=V,...")]
    start: Option<String>,
    #[command(flatten)]
    game: GameArgs,
    #[command(flatten)]
    play: GameOptions<DEFAULT_NODES>,
    /// The openings' and perturbations' seed (default: the file's, else the clock)
    #[arg(long, value_name = "S", value_parser = num::<u64>)]
    seed: Option<u64>,
    /// The perturbation, in SPSA steps (default 2)
    #[arg(long, value_name = "X", value_parser = positive)]
    c_scale: Option<f64>,
    /// The first iteration's move in steps for each point of a pair's result (default 0.5)
    #[arg(long, value_name = "X", value_parser = positive)]
    rate: Option<f64>,
    /// Run only the iterations k with k mod N = K-1, as a chain of their own
    #[arg(long, value_name = "K/N", value_parser = Shard::parse)]
    shard: Option<Shard>,
    /// 1, or 2 to play a pair's two games at once (default: 2 on 2 cores or more)
    #[arg(long, value_name = "C", value_parser = whole::<usize, 1>)]
    concurrency: Option<usize>,
    /// The answers of state files, averaged by their iterations (shards of one run)
    #[arg(long, value_name = "FILE", num_args = 1..)]
    merge: Option<Vec<PathBuf>>,
    /// Rewrite a state file with every whole block of iterations folded into one line (their count
    /// and θ's sum): it resumes exactly and keeps a small file however long the chain
    #[arg(long, value_name = "FILE", conflicts_with_all = ["merge", "params", "iterations", "state"])]
    fold: Option<PathBuf>,
    /// Iterations a folded line (with --fold)
    #[arg(long, value_name = "B", requires = "fold", default_value_t = 100, value_parser = whole::<usize, 1>)]
    block: usize,
}

/// Nodes a move unless told otherwise: about 4 ms of search, a pair in about half a second.
const DEFAULT_NODES: u64 = 3000;

/// A run, checked.
struct Run {
    cfg: TuneConfig,
    iterations: usize,
    state: PathBuf,
    concurrency: usize,
}

impl TuneArgs {
    /// `pbrain-quincunx tune …`
    pub fn run(self) -> Result<()> {
        if let Some(files) = &self.merge {
            return merge_command(files);
        }
        if let Some(file) = &self.fold {
            return fold_command(file, self.block);
        }
        run_command(self.checked().map_err(|e| usage("tune", e))?)
    }

    /// The run the options describe, checked before any game.
    fn checked(self) -> Result<Run> {
        let TuneArgs {
            params: names,
            iterations,
            state,
            start,
            game,
            play,
            seed,
            c_scale,
            rate,
            shard,
            concurrency,
            ..
        } = self;
        let (stones, limit) = (play.stones(), play.limit());
        let shard = shard.unwrap_or(Shard::WHOLE);
        let mut schedule = Schedule::default();
        schedule.c_scale = c_scale.unwrap_or(schedule.c_scale);
        schedule.rate = rate.unwrap_or(schedule.rate);
        let names = names.context("--params is required")?;
        let iterations = iterations.context("--iterations is required")?;
        let state = state.context("--state is required")?;
        if concurrency.is_some_and(|c| c > 2) {
            bail!("--concurrency: a pair is two games; run shards to use more cores");
        }
        let mut specs: Vec<&'static Spec> = vec![];
        for name in names.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            let spec = Spec::find(name).ok_or_else(|| match nearest_param(name) {
                Some(n) => anyhow!("--params: unknown parameter '{name}' (did you mean {n}?)"),
                None => anyhow!("--params: unknown parameter '{name}' ('params' lists them)"),
            })?;
            if specs.iter().any(|s| s.name == spec.name) {
                bail!("--params: {} twice", spec.name);
            }
            specs.push(spec);
        }
        if specs.is_empty() {
            bail!("--params names no parameter");
        }
        let start_values =
            Params::parse(start.as_deref().unwrap_or("")).map_err(|e| anyhow!("--start: {e}"))?;
        for item in start.as_deref().unwrap_or("").split(',').filter(|s| !s.trim().is_empty()) {
            let name = item.split_once('=').map_or(item, |(n, _)| n).trim();
            if !specs.iter().any(|s| s.name.eq_ignore_ascii_case(name)) {
                bail!("--start: {name} is not among --params");
            }
        }
        let rules = game.rules()?;
        let (width, height) = game.board(&rules);
        let existing = text_or_empty(&state)?;
        let found = existing.lines().find(|l| l.starts_with('#'));
        let seed =
            seed.or_else(|| found.and_then(|h| field_of(h, "seed")?.parse().ok())).unwrap_or_else(clock_seed);
        // A tenth of the chain's iterations as first planned: a longer run later keeps the file's.
        let chain_len = tune::chain(shard, iterations).count();
        schedule.big_a = found
            .and_then(|h| field_of(h, "A")?.parse().ok())
            .unwrap_or_else(|| (chain_len as f64 / 10.0).round());
        let params = specs.iter().map(|&s| (s, s.get(&start_values) as f64)).collect();
        let cfg = TuneConfig { params, rules, width, height, stones, limit, seed, schedule, shard };
        let openings =
            opening_gen::GenConfig { stones, ..opening_gen::GenConfig::new(rules, width, height, seed) };
        check_gen(&openings)?;
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let concurrency = concurrency.unwrap_or(cores).min(2);
        Ok(Run { cfg, iterations, state, concurrency })
    }
}

fn run_command(Run { cfg, iterations, state, concurrency }: Run) -> Result<()> {
    let header = cfg.header();
    let (done, mut file) =
        continue_file(&state, &header, "an iteration", |done| tune::check_chain(&cfg, done))?;
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
    let played = tune::run(&cfg, &all, iterations, concurrency, &mut file, &mut progress)?;
    all.extend(played.into_iter().map(tune::Entry::One));
    let last = all.last().map_or_else(|| cfg.start(), |e| e.theta().to_vec());
    let count = tune::done_count(&all);
    out!("{}", summary(&cfg.params, count, &last, &tune::answer(&cfg.start(), &all)))?;
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
    let field = |key: &str| field_of(header, key).with_context(|| format!("no {key}= in its header"));
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

/// A state file read and checked.
struct StateFile {
    header: String,
    /// The tuned parameters with their start values.
    params: Vec<(&'static Spec, f64)>,
    done: Vec<tune::Entry>,
}

/// A state file, its lines checked to be the start of the chain its header names (its shard, its
/// parameters' count).
fn read_checked(path: &std::path::Path) -> Result<StateFile> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let (header, done) = tune::read_state(&text).with_context(|| format!("{}", path.display()))?;
    let header = header.with_context(|| format!("{}: not a tune state file", path.display()))?;
    let params = params_of(&header).with_context(|| format!("{}", path.display()))?;
    let shard = field_of(&header, "shard")
        .map(Shard::parse)
        .transpose()
        .map_err(|e| anyhow!("{}: shard= {e}", path.display()))?
        .unwrap_or(Shard::WHOLE);
    tune::check_lines(shard, params.len(), &done).with_context(|| format!("{}", path.display()))?;
    Ok(StateFile { header, params, done })
}

/// `tune --merge FILE…`: the shards' answers averaged by their iterations, as one run's.
fn merge_command(files: &[PathBuf]) -> Result<()> {
    let mut first: Option<(String, Vec<(&'static Spec, f64)>)> = None;
    let (mut answers, mut lasts) = (vec![], vec![]);
    for path in files {
        let StateFile { header, params, done } = read_checked(path)?;
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
        let count = tune::done_count(&done);
        answers.push((count, tune::answer(&start, &done)));
        lasts.push((count, done.last().map_or(start, |e| e.theta().to_vec())));
    }
    let Some((_, params)) = first else { bail!("--merge needs the state files") };
    let start: Vec<f64> = params.iter().map(|&(_, v)| v).collect();
    let (theta, last) = (tune::merge(&start, &answers), tune::merge(&start, &lasts));
    let total = tune::chains_count(&answers);
    out!("{}", summary(&params, total, &last, &theta))?;
    Ok(())
}

/// `tune --fold FILE`: the state file rewritten with its whole blocks of `block` iterations folded,
/// through a file beside it renamed over it, so a stop leaves one or the other whole.
fn fold_command(path: &std::path::Path, block: usize) -> Result<()> {
    let StateFile { header, done, .. } = read_checked(path)?;
    let folded = tune::fold(&done, block);
    let mut out = header + "\n";
    for entry in &folded {
        out += &format!("{entry}\n");
    }
    let tmp = path.with_extension("fold-tmp");
    std::fs::write(&tmp, &out).with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("cannot replace {}", path.display()))?;
    let count = tune::done_count(&folded);
    outln!("{}: {count} iterations in {} lines (were {})", path.display(), folded.len(), done.len())?;
    Ok(())
}
