//! Deep labels for training: positions sampled from fast self-play games, a few quiet ones a game,
//! each searched far deeper than the games were, its score and best move kept. Play fast, label deep:
//! a fit to these learns what a deep search thinks of a position, not what the games' shallow one did.
//!
//! A label is written as a self-play line of one position ([`GameRecord`]): the game's moves up to the
//! position, then the deep search's best move, whose score is the line's one score. So `train` reads
//! a label file as it reads games, and the best move is the last move. The source game's number and
//! result are kept, so that a held-out game's labels stay held out.
//!
//! Which positions a game gives depends on its number and the run's seed alone, and each is searched
//! on one thread with a fresh table to a node count, so a label is the same on any machine in any
//! order: a run resumes after any stop by labelling what its file lacks, and `--shard K/N` labels the
//! games k with k mod N = K - 1. The file's header names the sources, the nodes, the positions a game
//! and the seed.

use std::collections::{BTreeSet, HashMap};
use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

use crate::eval::position::Position;
use crate::game::pattern::Patterns;
use crate::game::random::Rng;
use crate::game::rules::{Rules, Variant};
use crate::player::timeman::Budget;
use crate::player::{Limits, Player, Shortcut};
use crate::search::SearchPlayer;
use crate::tools::learn::selfplay::{GameRecord, RunError, work_through, write_line};
use crate::tools::learn::train;
use crate::tools::matches::shard::Shard;

/// Memory for a label's search: a 16 MB table, as the games had.
const MEMORY: u64 = 64 << 20;

/// How a label file's header begins (`train` knows a label file by it).
pub const LABELS_HEADER: &str = "# quincunx labels v1";

/// How the labels of a run are made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LabelConfig {
    /// Search nodes a label (one thread, no clock).
    pub nodes: u64,
    /// Positions drawn from each game (fewer where it has fewer quiet ones).
    pub per_game: usize,
    pub seed: u64,
    /// The source files' names, for the header.
    pub sources: Vec<String>,
    pub shard: Shard,
}

impl LabelConfig {
    /// The header line of the run's file: everything that decides its labels (not the shard).
    pub fn header(&self) -> String {
        format!(
            "{LABELS_HEADER} nodes={} per-game={} seed={} from={}",
            self.nodes,
            self.per_game,
            self.seed,
            self.sources.join(",")
        )
    }
}

/// One label: the source game and the number of moves before its position.
pub type LabelId = (usize, usize);

/// The labels a file holds, by source game and position.
pub fn done(labels: &[GameRecord]) -> BTreeSet<LabelId> {
    labels.iter().map(|l| (l.index, l.opening)).collect()
}

/// The positions of `game` to label: up to `per_game` of its quiet ones (as `train` takes them: no
/// five or open four to make, no proven result), drawn by the game's number and the seed, in order.
/// Pente's are none: its evaluation is not the model's.
pub fn choose(game: &GameRecord, per_game: usize, seed: u64, patterns: &Arc<Patterns>) -> Vec<usize> {
    let Some(positions) = game.positions() else { return vec![] };
    let mut quiet: Vec<usize> = positions
        .iter()
        .enumerate()
        .filter(|(_, (board, score, result))| {
            let pos = Position::new(board, Arc::clone(patterns));
            train::sample(&pos, &game.rules, *score, *result, false).is_some()
        })
        .map(|(k, _)| game.opening + k)
        .collect();
    let mut rng = Rng::new(seed ^ (game.index as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    rng.shuffle(&mut quiet);
    quiet.truncate(per_game);
    quiet.sort_unstable();
    quiet
}

/// Searches the position before move `k` of `game` to `nodes` and writes it as a label, or `None`
/// when the search names no move or scores none (a forced answer says nothing of the position).
pub fn label(game: &GameRecord, k: usize, nodes: u64) -> Option<GameRecord> {
    let positions = game.positions()?;
    let (board, _, _) = positions.get(k.checked_sub(game.opening)?)?;
    let limits = Limits { max_nodes: Some(nodes), ..Limits::new(Budget::unlimited(), 1, MEMORY) };
    let thought = SearchPlayer::default().think(board, &game.rules, &limits, &AtomicBool::new(false));
    let mv = thought.mv.filter(|&p| board.is_empty(p))?;
    let score =
        thought.score.filter(|_| !matches!(thought.shortcut, Some(Shortcut::Forced | Shortcut::Opening)))?;
    let mut moves = game.moves[..k].to_vec();
    moves.push(mv);
    Some(GameRecord { opening: k, moves, scores: vec![Some(score)], ..game.clone() })
}

/// How a run went.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Labels written now.
    pub labels: usize,
    /// Positions left without a label (no move or no score).
    pub skipped: usize,
    /// Labels the run has to make, this shard's, of those not in the file.
    pub todo: usize,
}

/// Labels the positions of `games` (this shard's) that `done` lacks, `workers` at a time, each written
/// to `out` as it is made; `progress` is told after each.
pub fn run(
    cfg: &LabelConfig,
    games: &[GameRecord],
    done: &BTreeSet<LabelId>,
    workers: usize,
    out: &mut (dyn Write + Send),
    progress: &(dyn Fn(&Tally) + Sync),
) -> Result<Tally, RunError> {
    let mut patterns: HashMap<Rules, Arc<Patterns>> = HashMap::new();
    let mut todo: Vec<(&GameRecord, usize)> = vec![];
    for game in games.iter().filter(|g| cfg.shard.takes(g.index)) {
        if matches!(game.rules.variant, Variant::Pente { .. }) {
            continue;
        }
        let Some(pats) = train::patterns_for(&mut patterns, &game.rules) else { continue };
        for k in choose(game, cfg.per_game, cfg.seed, &pats) {
            if !done.contains(&(game.index, k)) {
                todo.push((game, k));
            }
        }
    }
    let out = Mutex::new(out);
    let make = |&(game, k): &(&GameRecord, usize)| {
        let made = label(game, k, cfg.nodes);
        if let Some(l) = &made {
            write_line(&out, l)?;
        }
        Ok(made.is_some())
    };
    let count = |t: &mut Tally, &made: &bool| {
        if made { t.labels += 1 } else { t.skipped += 1 }
    };
    work_through(&todo, workers, Tally { todo: todo.len(), ..Tally::default() }, make, count, progress)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::board::Pos;
    use crate::tools::learn::selfplay::GameResult;

    /// A freestyle game with a shallow score on every move after a three-stone opening.
    fn game(index: usize) -> GameRecord {
        let moves = Pos::parse_list("h8i9g7h9i8g8j8j9k9h10h11").expect("moves");
        let scores = vec![Some(30); moves.len() - 3];
        GameRecord {
            index,
            rules: Rules::default(),
            width: 15,
            height: 15,
            result: GameResult::BlackWins,
            opening: 3,
            moves,
            scores,
        }
    }

    #[test]
    fn a_game_gives_the_same_quiet_positions_for_the_same_seed_and_others_for_another() {
        let pats = Arc::new(Patterns::new(&Rules::default()).expect("freestyle"));
        let g = game(7);
        let a = choose(&g, 3, 1, &pats);
        assert_eq!(a, choose(&g, 3, 1, &pats));
        assert!(a.len() == 3 && a.windows(2).all(|w| w[0] < w[1]), "{a:?}");
        assert!(a.iter().all(|&k| k >= g.opening && k < g.moves.len()));
        let all = choose(&g, 100, 1, &pats);
        assert!(all.len() > 3 && (2..30).any(|s| choose(&g, 3, s, &pats) != a), "{all:?}");
    }

    #[test]
    fn a_label_is_a_one_position_game_line_whose_last_move_is_the_deep_search_s() {
        let g = game(3);
        let l = label(&g, 5, 3000).expect("a label");
        assert_eq!((l.index, l.opening, l.result), (3, 5, GameResult::BlackWins));
        assert_eq!(l.moves[..5], g.moves[..5]);
        assert_eq!((l.moves.len(), l.scores.len()), (6, 1));
        assert!(!g.moves[..5].contains(&l.moves[5]), "the best move is on an empty point");
        assert_eq!(l.to_string().parse::<GameRecord>(), Ok(l.clone()), "it reads back as a game line");
        assert_eq!(label(&g, 5, 3000), Some(l), "the same label on another run");
    }
}
