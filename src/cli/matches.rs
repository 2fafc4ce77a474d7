//! `pbrain-quincunx match`: the command line of engine matches, their shards and the merge of their
//! results files.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use clap::ArgMatches;
use clap::parser::ValueSource;
use quincunx::game::random::clock_seed;
use quincunx::game::rules::{Rules, Variant};
use quincunx::tools::client::process::StderrMode;
use quincunx::tools::client::referee::EngineSpec;
use quincunx::tools::client::referee::GameSettings;
use quincunx::tools::matches::config::MatchConfig;
use quincunx::tools::matches::elo::Sprt;
use quincunx::tools::matches::opening_gen::GenConfig;
use quincunx::tools::matches::run::run_match;
use quincunx::tools::matches::shard::Shard;
use quincunx::tools::record::opening::parse_openings;

use crate::cli::{
    EngineCommand, GameArgs, StderrArgs, check_gen, engine_command, num, stone_range, threads, usage, whole,
};

/// Plays engines that speak the Gomocup protocol against each other
#[derive(clap::Args)]
#[command(
    before_help = "Every fault (time, crash, illegal or malformed move, bad START answer) loses the game and restarts
the engine. Before the first game every engine is started and must answer OK to START, and the
output paths are checked: a failure there stops the run with an error and no game played.",
    override_usage = "pbrain-quincunx match --engine CMD [--name NAME] --engine CMD [--name NAME] ... [options]
       pbrain-quincunx match --merge FILE... [--by-opening]",
    after_help = concat!(
        "The summary gives each pairing's score and Elo with its 95% interval [low, high] (a Wilson-type
interval: 30 wins of 30 shows 100.0% [88.6%, 100.0%], Elo +inf [+357, +inf]). Openings that do
not fit the board are skipped with one warning. A game record that cannot be written stops the
match: the summary of the games played is printed, then the error (exit status 1).

--turn, the old name of --time, is kept as an alias until the next release.

",
        squares!()
    )
)]
pub struct MatchArgs {
    /// An engine command with its arguments, quoted as one word (two or more)
    #[arg(long, value_name = "CMD", value_parser = engine_command)]
    engine: Vec<EngineCommand>,
    /// A name for the engine given just before (default: its program's file name;
    /// a repeated name gets #2, #3, ...)
    #[arg(long, value_name = "NAME", verbatim_doc_comment)]
    name: Vec<String>,
    /// The first engine against each other one (default: round robin)
    #[arg(long)]
    gauntlet: bool,
    #[command(flatten)]
    game: GameArgs,
    /// Time per move in ms, 0 = none (--turn: its old name, for one more release)
    #[arg(long, value_name = "MS", visible_alias = "turn", default_value_t = 1000, value_parser = num::<u64>)]
    time: u64,
    /// Time per game and side in ms, 0 = none; one of the two must limit a move:
    /// with neither the run is refused
    #[arg(long = "game", value_name = "MS", default_value_t = 0, value_parser = num::<u64>, verbatim_doc_comment)]
    game_time: u64,
    /// Grace beyond the limits, in ms
    #[arg(long, value_name = "MS", default_value_t = 500, value_parser = num::<u64>)]
    tolerance: u64,
    /// Time to answer START, in ms
    #[arg(long, value_name = "MS", default_value_t = 10_000, value_parser = num::<u64>)]
    start_timeout: u64,
    /// INFO max_memory
    #[arg(long, value_name = "BYTES", default_value_t = 367_001_600, value_parser = num::<u64>)]
    memory: u64,
    /// INFO thread_num per engine (default: not sent)
    #[arg(long, value_name = "N", value_parser = threads)]
    threads: Option<usize>,
    /// INFO max_node: N nodes a move for every engine, or one count per engine in
    /// the order given (their counts for the same time, docs/strength.md), so that a
    /// match of engines that honour it is the same under any load; an engine whose
    /// answers take most of --time all the same stops the match (default: not sent)
    #[arg(long, value_name = "N[,N...]", value_delimiter = ',', value_parser = whole::<u64, 1>, verbatim_doc_comment)]
    nodes: Vec<u64>,
    /// Games per pairing (default 2, or 2N with --openings-random N; each opening is
    /// played twice, colours swapped)
    #[arg(long, value_name = "N", value_parser = whole::<usize, 1>, verbatim_doc_comment)]
    games: Option<usize>,
    /// Openings, one a line, black first: offsets from the centre (dx,dy, dx,dy, ...)
    /// or c-gomoku-cli's pos notation (h8i9j10, squares as below), line by line
    #[arg(long, value_name = "FILE", verbatim_doc_comment)]
    openings: Option<PathBuf>,
    /// Draw N balanced openings afresh for the match's rule and board, as `openings`
    /// does (not with --openings); the summary's first line gives the seed
    #[arg(long, value_name = "N", value_parser = num::<usize>, verbatim_doc_comment)]
    openings_random: Option<usize>,
    /// Their seed (default: the clock)
    #[arg(long, value_name = "S", value_parser = num::<u64>)]
    seed: Option<u64>,
    /// Their stones (default 3-10)
    #[arg(long, value_name = "A-B", value_parser = stone_range)]
    stones: Option<(usize, usize)>,
    /// Their balance: the largest score of our search either way (default 60)
    #[arg(long, value_name = "M", value_parser = num::<i32>)]
    margin: Option<i32>,
    /// ... and the depth of that search (default 12, Pente 4, as `openings`)
    #[arg(long, value_name = "D", value_parser = whole::<i32, 1>, verbatim_doc_comment)]
    depth: Option<i32>,
    /// Play the openings in a shuffled order (default: file order)
    #[arg(long, value_name = "SEED", value_parser = num::<u64>)]
    random: Option<u64>,
    /// Games at once
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = whole::<usize, 1>)]
    concurrency: usize,
    /// Stop when H0 (elo <= E0) or H1 (elo >= E1) is accepted (two engines only;
    /// fishtest's trinomial GSPRT, logistic Elo, alpha = beta = 0.05 by default); a
    /// shard never stops early: --merge gives the LLR and the verdict of all the games
    #[arg(long, value_name = "E0,E1[,A,B]", value_parser = Sprt::parse, verbatim_doc_comment)]
    sprt: Option<Sprt>,
    /// Draw once N stones are on the board (default: full board; renju: 25 empty left)
    #[arg(long, value_name = "N", value_parser = num::<usize>)]
    max_stones: Option<usize>,
    /// Wait after each answer before the next command, in ms
    #[arg(long, value_name = "MS", default_value_t = 3, value_parser = num::<u64>)]
    pause: u64,
    /// Write each game as DIR/game-NNNNN.psq when it ends (DIR is made if missing)
    #[arg(long, value_name = "DIR")]
    psq: Option<PathBuf>,
    /// Write all games to FILE, each when it ends (its directory must exist)
    #[arg(long, value_name = "FILE")]
    sgf: Option<PathBuf>,
    /// Write every game to FILE as it is played: its start, each move with the time
    /// it took and the evaluation and depth its engine told, its end (a line each;
    /// `serve --follow FILE` shows the games from it as they go; docs/board.md)
    #[arg(long, value_name = "FILE")]
    live: Option<PathBuf>,
    /// No progress line on stderr
    #[arg(long)]
    quiet: bool,
    /// After the summary, each pairing's results per opening and colour
    #[arg(long)]
    by_opening: bool,
    #[command(flatten)]
    stderr: StderrArgs,
    /// The same as --stderr log
    #[arg(long)]
    show_stderr: bool,
    /// Play only part K of N (1 <= K <= N) of the run the other options describe: game
    /// k of each pairing (from 0) is shard (k/2 mod N) + 1's, so an opening's two
    /// games stay together; openings, colours and game numbers (in records too) are
    /// the whole run's. The same options, --seed and --random included, on every machine
    #[arg(long, value_name = "K/N", value_parser = Shard::parse, verbatim_doc_comment)]
    shard: Option<Shard>,
    /// Write the results for a program (and for --merge) to FILE, as JSON: the run's identity,
    /// W/L/D per pairing, colour and opening, faults, answer times
    #[arg(long, value_name = "FILE", verbatim_doc_comment)]
    results: Option<PathBuf>,
    /// Read --results files of one run's shards and print the whole run's summary
    /// (with --by-opening, its tables); refuses files of different runs or a shard
    /// twice, warns of missing shards; its time is the shards' added up
    #[arg(long, value_name = "FILE", num_args = 1.., verbatim_doc_comment)]
    merge: Option<Vec<PathBuf>>,
}

impl MatchArgs {
    /// `pbrain-quincunx match …`; `m` are its matches, for the order of `--engine` and `--name`.
    pub fn run(self, m: &ArgMatches) -> Result<()> {
        if let Some(files) = &self.merge {
            only_with_merge(m).map_err(|e| usage("match", e))?;
            return merge_command(files, self.by_opening);
        }
        let results = self.results.clone();
        let cfg = self.config(m).map_err(|e| usage("match", e))?;
        play(&cfg, results)
    }

    /// The match the options describe, or what is wrong with them together.
    fn config(self, m: &ArgMatches) -> Result<MatchConfig> {
        let mut engines = named_engines(self.engine, self.name, m)?;
        if engines.len() < 2 {
            bail!("a match needs at least two --engine");
        }
        let mut game = GameSettings {
            rules: self.game.rules()?,
            width: 15,
            height: 15,
            turn_ms: self.time,
            game_ms: self.game_time,
            tolerance_ms: self.tolerance,
            start_timeout_ms: self.start_timeout,
            max_memory: self.memory,
            threads: self.threads.unwrap_or(0),
            max_nodes: 0,
            max_stones: 0,
            pause_ms: self.pause,
            stderr: if self.show_stderr {
                StderrMode::Log
            } else {
                self.stderr.stderr.unwrap_or(StderrMode::Ignore)
            },
        };
        match self.nodes[..] {
            [] => {}
            [n] => game.max_nodes = n,
            ref each if each.len() == engines.len() => {
                for (engine, &n) in engines.iter_mut().zip(each) {
                    engine.nodes = Some(n);
                }
            }
            ref each => bail!(
                "--nodes: {} counts for {} engines (give one for all, or one an engine)",
                each.len(),
                engines.len()
            ),
        }
        if !self.nodes.is_empty() && self.threads.is_none() {
            // A node count alone leaves each engine its default threads, easy to miss in a gate meant
            // to play one thread against one.
            log::warn!(
                "--nodes without --threads: each engine searches with its own default thread count \
                 (ours: the cores), its count shared by them; --threads 1 gives one thread each"
            );
        }
        (game.width, game.height) = self.game.board(&game.rules);
        game.check_time().map_err(anyhow::Error::msg)?;
        game.max_stones = self
            .max_stones
            .filter(|&n| n > 0)
            .unwrap_or_else(|| default_max_stones(&game.rules, game.width * game.height));
        let openings = match &self.openings {
            Some(path) => {
                let text = std::fs::read_to_string(path)
                    .with_context(|| format!("cannot read {}", path.display()))?;
                parse_openings(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?
            }
            None => vec![],
        };
        let fresh = match self.openings_random {
            Some(_) if self.openings.is_some() => {
                bail!("--openings-random draws the openings: not with --openings")
            }
            Some(0) => bail!("--openings-random: at least one opening"),
            Some(count) => {
                let seed = self.seed.unwrap_or_else(clock_seed);
                let mut gen_cfg = GenConfig::for_measuring(game.rules, game.width, game.height, seed);
                gen_cfg.stones = self.stones.unwrap_or(gen_cfg.stones);
                gen_cfg.margin = self.margin.unwrap_or(gen_cfg.margin);
                gen_cfg.depth = self.depth.unwrap_or(gen_cfg.depth);
                check_gen(&gen_cfg)?;
                Some((count, gen_cfg))
            }
            None if self.seed.is_some()
                || self.stones.is_some()
                || self.margin.is_some()
                || self.depth.is_some() =>
            {
                bail!(
                    "--seed, --stones, --margin and --depth shape fresh openings: they need --openings-random"
                )
            }
            None => None,
        };
        // Fresh openings are each played with both colours unless a count of games is asked for.
        let games_per_pair = self.games.unwrap_or(fresh.as_ref().map_or(2, |(count, _)| 2 * count));
        Ok(MatchConfig {
            engines,
            gauntlet: self.gauntlet,
            game,
            games_per_pair,
            openings,
            fresh,
            shuffle_seed: self.random,
            concurrency: self.concurrency,
            sprt: self.sprt,
            psq_dir: self.psq,
            sgf: self.sgf,
            live: self.live,
            progress: !self.quiet,
            by_opening: self.by_opening,
            shard: self.shard.unwrap_or(Shard::WHOLE),
        })
    }
}

/// `--merge` reads results files: of the other options only `--by-opening` (and `--quiet`) go with it.
fn only_with_merge(m: &ArgMatches) -> Result<()> {
    for id in m.ids().map(|id| id.as_str()) {
        if !["merge", "by_opening", "quiet"].contains(&id)
            && m.value_source(id) == Some(ValueSource::CommandLine)
        {
            bail!(
                "--merge reads results files: of the options only --by-opening goes with it, not '--{}'",
                id.replace('_', "-")
            );
        }
    }
    Ok(())
}

/// Plays the match, then writes its results file if asked for.
fn play(cfg: &MatchConfig, results: Option<PathBuf>) -> Result<()> {
    if cfg.shard != Shard::WHOLE && results.is_none() {
        eprintln!(
            "Warning: shard {} without --results: its games cannot be merged with the others'",
            cfg.shard
        );
    }
    // Made before the games, so that a path that cannot be written costs none.
    let mut results_file = match &results {
        Some(path) => {
            Some(std::fs::File::create(path).with_context(|| format!("cannot write {}", path.display()))?)
        }
        None => None,
    };
    let summary = match run_match(cfg) {
        Ok(summary) => summary,
        Err(e) => {
            if let Some(path) = &results {
                let _ = std::fs::remove_file(path);
            }
            return Err(e.into());
        }
    };
    out!("{}", summary.render())?;
    if cfg.by_opening {
        out!("{}", summary.render_openings())?;
    }
    if cfg.sprt.is_some() && !cfg.shard.is_whole() {
        outln!("SPRT: a shard plays its part in full; --merge of every shard's results gives the verdict")?;
    }
    // The results come first: the games were played and count even if their records were lost.
    let mut errors = vec![];
    if let (Some(file), Some(path)) = (&mut results_file, &results) {
        use std::io::Write as _;
        let text = quincunx::tools::matches::results::Part::of(cfg, &summary).to_text();
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
    use quincunx::tools::matches::results::{merge, parse};
    let mut parts = vec![];
    for path in files {
        let text =
            std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
        let part = parse(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        parts.push((path.display().to_string(), part));
    }
    let merged = merge(&parts).map_err(anyhow::Error::msg)?;
    for w in &merged.warnings {
        eprintln!("Warning: {w}");
    }
    out!("{}", merged.summary.render())?;
    if by_opening {
        out!("{}", merged.summary.render_openings())?;
    }
    Ok(())
}

/// `--engine`: the command line of an engine, named after its program file until `--name` says.
/// The engines of `--engine`, each named by the `--name` after it (`m` tells where each was given).
pub fn named_engines(
    commands: Vec<EngineCommand>,
    names: Vec<String>,
    m: &ArgMatches,
) -> Result<Vec<EngineSpec>> {
    let mut engines: Vec<EngineSpec> = commands.into_iter().map(engine_spec).collect();
    let at = |id| m.indices_of(id).map(Iterator::collect::<Vec<_>>).unwrap_or_default();
    let engine_at = at("engine");
    for (name, name_at) in names.into_iter().zip(at("name")) {
        let Some(e) = engine_at.iter().rposition(|&i| i < name_at) else {
            bail!("--name must follow an --engine");
        };
        engines[e].name = name;
    }
    Ok(engines)
}

fn engine_spec(EngineCommand(command): EngineCommand) -> EngineSpec {
    let name = std::path::Path::new(&command[0])
        .file_name()
        .map_or_else(|| command[0].clone(), |n| n.to_string_lossy().into_owned());
    EngineSpec::new(name, command)
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
