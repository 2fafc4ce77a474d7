//! A match's configuration ([`MatchConfig`]) and everything checked before its first game: the
//! engines, the clocks, the shard, the board, and the openings, a file's (each placed on the board and
//! checked under the rules: one that does not fit is skipped and counted, not the match refused) or
//! balanced ones drawn afresh; their order (file order or a seeded shuffle) and its fingerprint, the
//! same in every shard of a run. Why a match was not played is a [`MatchError`].
//!
//! Invariant: `validate` refuses every configuration that would make the match pointless (a move
//! limited by no clock included) before any engine is started.

use std::fmt;
use std::path::PathBuf;

use crate::game::board::Pos;
use crate::game::random::Rng;
use crate::tools::client::referee::EngineSpec;
use crate::tools::client::referee::{Fault, GameSettings};
use crate::tools::matches::elo::Sprt;
use crate::tools::matches::opening_gen::plural;
use crate::tools::matches::opening_gen::{GenConfig, generate};
use crate::tools::matches::shard::Shard;
use crate::tools::record::opening::{Opening, check_stones};
use crate::tools::record::write::OutputError;

#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub engines: Vec<EngineSpec>,
    /// The first engine against each other one, instead of every pair.
    pub gauntlet: bool,
    pub game: GameSettings,
    pub games_per_pair: usize,
    pub openings: Vec<Opening>,
    /// Draw this many balanced openings afresh before the first game instead (`openings` is empty).
    pub fresh: Option<(usize, GenConfig)>,
    /// Shuffle the openings with this seed (`None`: file order).
    pub shuffle_seed: Option<u64>,
    pub concurrency: usize,
    pub sprt: Option<Sprt>,
    /// A directory for one PSQ file per game.
    pub psq_dir: Option<PathBuf>,
    /// One SGF file for all games.
    pub sgf: Option<PathBuf>,
    /// The live file: every move as it is played ([`crate::tools::matches::live`]).
    pub live: Option<PathBuf>,
    /// Print a progress line on stderr after each game.
    pub progress: bool,
    /// Print each pairing's results per opening after the summary (`Summary::render_openings`).
    pub by_opening: bool,
    /// The part of the run to play ([`Shard::WHOLE`]: all of it).
    pub shard: Shard,
}

impl MatchConfig {
    /// Every pair of `engines` plays two games (one with each colour) on an empty board, one game at a
    /// time, nothing written, no SPRT: the plainest match, for callers to change a field or two of.
    pub fn new(engines: Vec<EngineSpec>, game: GameSettings) -> MatchConfig {
        MatchConfig {
            engines,
            gauntlet: false,
            game,
            games_per_pair: 2,
            openings: vec![],
            fresh: None,
            shuffle_seed: None,
            concurrency: 1,
            sprt: None,
            psq_dir: None,
            sgf: None,
            live: None,
            progress: false,
            by_opening: false,
            shard: Shard::WHOLE,
        }
    }
}

/// Why a match was not played.
#[derive(Debug)]
pub enum MatchError {
    /// The configuration cannot be played (the reason in words).
    Config(String),
    /// An output path cannot be written.
    Output(OutputError),
    /// An engine could not be started or did not answer its first START with OK.
    EngineStart { engine: String, fault: Fault, detail: String },
    /// An engine given a node count thinks for the whole turn all the same: it ignores
    /// `INFO max_node` (or the count takes it longer than the turn), so the match would measure time.
    IgnoresNodes { engine: String, nodes: u64, mean_ms: u64, turn_ms: u64 },
}

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchError::Config(why) => f.write_str(why),
            MatchError::Output(e) => write!(f, "{e}"),
            MatchError::EngineStart { engine, fault, detail } if detail.is_empty() => {
                write!(f, "engine {engine} {fault}; no game was played")
            }
            MatchError::EngineStart { engine, fault, detail } => {
                write!(f, "engine {engine} {fault} ({detail}); no game was played")
            }
            MatchError::IgnoresNodes { engine, nodes, mean_ms, turn_ms } => write!(
                f,
                "engine {engine} ignores INFO max_node {nodes}: its answers took {mean_ms} ms on average of a \
                 {turn_ms} ms turn (if the count just takes longer than the turn, give a longer --time); the \
                 match was stopped"
            ),
        }
    }
}

impl std::error::Error for MatchError {}

/// FNV-1a over the openings' numbers and stones in the order they are played: two runs that play the
/// same openings in the same order (one file, one shuffle, one fresh draw) agree on it.
pub(super) fn openings_id(placed: &[(usize, Vec<Pos>)], order: &[usize]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |bytes: &[u8]| {
        for &b in bytes {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    };
    for &i in order {
        let (number, stones) = &placed[i];
        eat(&(*number as u64).to_le_bytes());
        eat(&(stones.len() as u64).to_le_bytes());
        for p in stones {
            eat(&[p.x, p.y]);
        }
    }
    h
}

/// The first `n` opening indices in the order a seed gives.
pub(super) fn shuffled(n: usize, seed: u64) -> Vec<usize> {
    let mut v: Vec<usize> = (0..n).collect();
    Rng::new(seed).shuffle(&mut v);
    v
}

/// The openings that can be played and those skipped (with the reason), each with its number in the
/// file (from 1).
pub(super) struct Openings {
    pub(super) placed: Vec<(usize, Vec<Pos>)>,
    pub(super) skipped: Vec<(usize, String)>,
}

/// Checks the configuration and gathers the openings (drawing fresh ones) before anything is started.
pub(super) fn validate(cfg: &MatchConfig) -> Result<Openings, String> {
    if cfg.engines.len() < 2 {
        return Err("a match needs at least two engines".into());
    }
    cfg.game.check_time()?;
    if cfg.sprt.is_some() && cfg.engines.len() != 2 {
        return Err("SPRT needs exactly two engines".into());
    }
    if cfg.games_per_pair == 0 {
        return Err("games per pairing must be at least 1".into());
    }
    cfg.shard.check()?;
    crate::game::board::Board::new(cfg.game.width as i64, cfg.game.height as i64)
        .map_err(|e| e.to_string())?;
    // An opening that does not fit this board is skipped, not the whole match refused (opening lists
    // are often shared between board sizes).
    let (mut placed, mut skipped) = (vec![], vec![]);
    for (i, o) in cfg.openings.iter().enumerate() {
        let (w, h) = (cfg.game.width, cfg.game.height);
        match o.place(w, h).and_then(|p| check_stones(&cfg.game.rules, w, h, &p).map(|_| p)) {
            Ok(p) => placed.push((i + 1, p)),
            Err(e) => skipped.push((i + 1, e)),
        }
    }
    if placed.is_empty() && !cfg.openings.is_empty() {
        return Err("no opening fits the board".into());
    }
    if let Some((count, gen_cfg)) = &cfg.fresh {
        if !cfg.openings.is_empty() {
            return Err("fresh openings replace a file's: not both".into());
        }
        if (gen_cfg.rules, gen_cfg.width, gen_cfg.height) != (cfg.game.rules, cfg.game.width, cfg.game.height)
        {
            return Err("fresh openings must be drawn for the match's rules and board".into());
        }
        let drawn = generate(gen_cfg, *count).map_err(|e| format!("fresh openings: {e}"))?;
        placed = drawn.into_iter().enumerate().map(|(i, stones)| (i + 1, stones)).collect();
    }
    Ok(Openings { placed, skipped })
}

/// The one warning for the skipped openings: a line per run, however many there are.
pub(super) fn skipped_warning(cfg: &MatchConfig, skipped: &[(usize, String)]) -> String {
    let numbers: Vec<String> = skipped.iter().take(10).map(|(n, _)| n.to_string()).collect();
    let more = if skipped.len() > 10 { ", ..." } else { "" };
    let first = if skipped.len() > 1 { "the first: " } else { "" };
    format!(
        "{} of {} skipped as {} not fit a {}x{} board under {}: {}{more} ({first}{})",
        skipped.len(),
        plural(cfg.openings.len() as u64, "opening"),
        if skipped.len() == 1 { "it does" } else { "they do" },
        cfg.game.width,
        cfg.game.height,
        cfg.game.rules,
        numbers.join(", "),
        skipped.first().map_or("", |(_, why)| why.as_str())
    )
}

/// Every pair of the `n` engines, or the first against each other one in a gauntlet.
pub(crate) fn pairings(n: usize, gauntlet: bool) -> Vec<(usize, usize)> {
    if gauntlet {
        (1..n).map(|j| (0, j)).collect()
    } else {
        (0..n).flat_map(|i| (i + 1..n).map(move |j| (i, j))).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::rules::Rules;

    #[test]
    fn shuffle_is_a_permutation_and_repeatable() {
        let a = shuffled(41, 7);
        let mut sorted = a.clone();
        sorted.sort();
        assert_eq!(sorted, (0..41).collect::<Vec<_>>());
        assert_eq!(a, shuffled(41, 7));
        assert_ne!(a, shuffled(41, 8));
    }

    #[test]
    fn openings_that_do_not_fit_are_skipped_and_counted() {
        let cfg = MatchConfig {
            openings: crate::tools::record::opening::parse_openings("0,0, 1,0\n-8,-6, 0,1\n0,0, 0,0\n1,1\n")
                .unwrap(),
            ..MatchConfig::new(
                vec![EngineSpec::new("a", vec![]); 2],
                crate::tools::client::referee::fixtures::settings(Rules::default(), 1000),
            )
        };
        let Openings { placed, skipped } = validate(&cfg).unwrap();
        assert_eq!(placed.iter().map(|(n, _)| *n).collect::<Vec<_>>(), [1, 4]);
        assert_eq!(skipped.iter().map(|(n, _)| *n).collect::<Vec<_>>(), [2, 3]);
        assert_eq!(skipped_warning(&cfg, &skipped).lines().count(), 1);
        // A move must be limited by one clock or the other: the referee waits on no answer for ever.
        let mut unlimited = cfg;
        unlimited.game.turn_ms = 0;
        assert!(validate(&unlimited).is_err());
        unlimited.game.game_ms = 5000;
        assert!(validate(&unlimited).is_ok());
    }
}
