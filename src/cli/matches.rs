//! `pbrain-quincunx match`: the command line of engine matches, their shards and the merge of their
//! results files.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use quincunx::game::rules::Rules;
use quincunx::tools::elo::Sprt;
use quincunx::tools::opening::{Opening, parse_openings};
use quincunx::tools::opening_gen::GenConfig;
use quincunx::tools::process::{StderrMode, split_command};
use quincunx::tools::random::clock_seed;
use quincunx::tools::referee::{GameSettings, default_max_stones};
use quincunx::tools::shard::Shard;
use quincunx::tools::tournament::{EngineSpec, MatchConfig, run_match};

use crate::cli::{
    GAME_FLAGS, GameChoice, SQUARES, check_gen, num, parse_threads, stderr_mode, stone_range, unknown_option,
    usage, whole,
};

/// `match`'s own options, for [`unknown_option`] (with [`GAME_FLAGS`]).
const FLAGS: &[&str] = &[
    "--engine",
    "--name",
    "--gauntlet",
    "--turn",
    "--game",
    "--tolerance",
    "--start-timeout",
    "--memory",
    "--threads",
    "--nodes",
    "--games",
    "--openings",
    "--openings-random",
    "--seed",
    "--stones",
    "--margin",
    "--random",
    "--concurrency",
    "--sprt",
    "--max-stones",
    "--pause",
    "--psq",
    "--sgf",
    "--live",
    "--quiet",
    "--by-opening",
    "--stderr",
    "--show-stderr",
    "--shard",
    "--results",
    "--merge",
    "--help",
];

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
  --rule R            a Gomocup code (0 freestyle, 1 exact five, 4 renju, 8 caro, 9 caro-exact) or
                      a name: freestyle, exact, renju, caro, caro-exact, pente, keryo, gpente
                      (default freestyle)
  --line-length K     K in a row wins (freestyle and exact rules; default 5)
  --size N | WxH      board size (default 15; 19 for the Pente family)
  --turn MS           time per move in ms, 0 = none (default 1000)
  --game MS           time per game and side in ms, 0 = none (default 0); one of the two must limit
                      a move: with neither the run is refused
  --tolerance MS      grace beyond the limits (default 500)
  --start-timeout MS  time to answer START (default 10000)
  --memory BYTES      INFO max_memory (default 367001600)
  --threads N         INFO thread_num per engine (default: not sent)
  --nodes N[,N...]    INFO max_node: N nodes a move for every engine, or one count per engine in
                      the order given (their counts for the same time, docs/strength.md), so that a
                      match of engines that honour it is the same under any load; an engine whose
                      answers take most of --turn all the same stops the match (default: not sent)
  --games N           games per pairing (default 2, or 2N with --openings-random N; each opening is
                      played twice, colours swapped)
  --openings FILE     openings, one a line, black first: offsets from the centre (dx,dy, dx,dy, ...)
                      or c-gomoku-cli's pos notation (h8i9j10, squares as below), line by line
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
  --live FILE         write every game to FILE as it is played: its start, each move with the time
                      it took and the evaluation and depth its engine told, its end (a line each;
                      `serve --follow FILE` shows the games from it as they go; docs/board.md)
  --quiet             no progress line on stderr
  --by-opening        after the summary, each pairing's results per opening and colour
  --stderr MODE       the engines' stderr: merge (into stdout, as Piskvork does: a stray line there
                      is a malformed answer), ignore (the default) or log (through to our stderr)
  --show-stderr       the same as --stderr log
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

/// What `match` was asked to do.
enum MatchCommand {
    /// Play, and write the results file if given.
    Play(Box<MatchConfig>, Option<PathBuf>),
    /// Merge results files; print the tables per opening too.
    Merge(Vec<PathBuf>, bool),
}

/// `pbrain-quincunx match …`
pub fn match_command(args: &[String]) -> Result<()> {
    let (cfg, results) = match parse_match(args).map_err(|e| usage("match", e))? {
        MatchCommand::Play(cfg, results) => (cfg, results),
        MatchCommand::Merge(files, by_opening) => return merge_command(&files, by_opening),
    };
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
    let summary = match run_match(&cfg) {
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
        eprintln!("Warning: {w}");
    }
    out!("{}", merged.summary.render())?;
    if by_opening {
        out!("{}", merged.summary.render_openings())?;
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
                outln!("{MATCH_USAGE}\n{SQUARES}")?;
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
    live: Option<PathBuf>,
    progress: bool,
    by_opening: bool,
    shard: Shard,
    results: Option<PathBuf>,
    /// `--nodes`: one count for all, or one an engine.
    nodes: Vec<u64>,
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
            max_nodes: 0,
            max_stones: 0,
            pause_ms: 3,
            stderr: StderrMode::Ignore,
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
            live: None,
            progress: true,
            by_opening: false,
            shard: Shard::WHOLE,
            results: None,
            nodes: vec![],
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
            "--nodes" => {
                let v = value()?;
                self.nodes = v.split(',').map(|n| whole(a, n, 1)).collect::<Result<_>>()?;
            }
            "--games" => self.games = Some(whole(a, &value()?, 1)?),
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
            "--concurrency" => self.concurrency = whole(a, &value()?, 1)?,
            "--sprt" => self.sprt = Some(Sprt::parse(&value()?).map_err(anyhow::Error::msg)?),
            "--max-stones" => game.max_stones = num(a, &value()?)?,
            "--pause" => game.pause_ms = num(a, &value()?)?,
            "--psq" => self.psq_dir = Some(PathBuf::from(value()?)),
            "--sgf" => self.sgf = Some(PathBuf::from(value()?)),
            "--live" => self.live = Some(PathBuf::from(value()?)),
            "--quiet" => self.progress = false,
            "--by-opening" => self.by_opening = true,
            "--stderr" => game.stderr = stderr_mode(&value()?)?,
            "--show-stderr" => game.stderr = StderrMode::Log,
            "--shard" => self.shard = Shard::parse(&value()?).map_err(|e| anyhow::anyhow!("{a}: {e}"))?,
            "--results" => self.results = Some(PathBuf::from(value()?)),
            "-h" | "--help" => {
                outln!("{MATCH_USAGE}\n{SQUARES}")?;
                std::process::exit(0);
            }
            other => return Err(unknown_option("match", other, &[FLAGS, GAME_FLAGS].concat())),
        }
        Ok(())
    }

    /// The match the options describe, or what is wrong with them together.
    fn config(mut self) -> Result<MatchConfig> {
        if self.engines.len() < 2 {
            bail!("a match needs at least two --engine");
        }
        match self.nodes[..] {
            [] => {}
            [n] => self.game.max_nodes = n,
            ref each if each.len() == self.engines.len() => {
                for (engine, &n) in self.engines.iter_mut().zip(each) {
                    engine.nodes = Some(n);
                }
            }
            ref each => bail!(
                "--nodes: {} counts for {} engines (give one for all, or one an engine)",
                each.len(),
                self.engines.len()
            ),
        }
        let game = &mut self.game;
        game.rules = self.choice.rules()?;
        (game.width, game.height) = self.choice.board(&game.rules);
        game.check_time().map_err(anyhow::Error::msg)?;
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
            live: self.live,
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
pub fn engine_spec(v: &str) -> Result<EngineSpec> {
    let command = split_command(v).map_err(anyhow::Error::msg)?;
    let name = std::path::Path::new(&command[0])
        .file_name()
        .map_or_else(|| command[0].clone(), |n| n.to_string_lossy().into_owned());
    Ok(EngineSpec::new(name, command))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_option_is_in_the_usage() {
        for flag in FLAGS.iter().chain(GAME_FLAGS).filter(|f| **f != "--help") {
            assert!(MATCH_USAGE.contains(flag), "{flag}");
        }
    }
}
