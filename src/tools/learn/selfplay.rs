//! Self-play for training data: two copies of the search (each its own table) play fresh balanced
//! openings to the end, and every position after the opening is kept with the search's score and the
//! game's result. `train` fits the evaluation to them.
//!
//! A run is a list of games numbered from 0. Games come in batches of [`BATCH`]; batch `b` has its
//! game (rule and board, cycled over the run's list) and its openings, drawn by the openings generator
//! from a seed made of the run's seed and `b`. So game `k` is the same in every run of the same
//! configuration, whatever was played before, on whatever machine: a run resumes after any stop by
//! playing the games its file lacks, and `--shard K/N` plays the batches `b` with `b mod N = K - 1`.
//!
//! The file (see [`GameRecord`] and docs/training.md) begins with one header line naming the run's
//! configuration; a file is only ever continued by the run that wrote its header. One line a game,
//! written whole and flushed when the game ends, so a stop loses only the games under way.
//!
//! Invariant: with a node limit (`--nodes`) a game depends on its number and the configuration alone:
//! the search on one thread with no clock is deterministic.

use std::collections::BTreeSet;
use std::fmt;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock, PoisonError};

use crate::game::board::{Board, Color, Pos};
use crate::game::rules::{Rules, Verdict};
use crate::player::timeman::Budget;
use crate::player::{Limits, Player, Shortcut};
use crate::search::SearchPlayer;
use crate::tools::matches::opening_gen::{self, GenConfig};
use crate::tools::matches::shard::Shard;

/// Games a batch: the openings generator draws a batch's openings at once.
pub const BATCH: usize = 16;
/// Memory for each player's tables (a 16 MB table each, as in a match's games).
const MEMORY: u64 = 64 << 20;

/// How a game ended, from black's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    BlackWins,
    WhiteWins,
    Draw,
}

impl GameResult {
    fn letter(self) -> char {
        match self {
            GameResult::BlackWins => 'B',
            GameResult::WhiteWins => 'W',
            GameResult::Draw => 'D',
        }
    }

    /// The result for `side`: 1 a win, 0.5 a draw, 0 a loss.
    pub fn score_for(self, side: Color) -> f64 {
        match (self, side) {
            (GameResult::Draw, _) => 0.5,
            (GameResult::BlackWins, Color::Black) | (GameResult::WhiteWins, Color::White) => 1.0,
            _ => 0.0,
        }
    }

    fn winner(side: Color) -> GameResult {
        if side == Color::Black { GameResult::BlackWins } else { GameResult::WhiteWins }
    }
}

/// One finished game: `game=K rule=NAME line=L size=WxH result=B|W|D opening=N moves=h8i9… scores=s,s,…`.
/// `moves` holds every stone in order, black first, the opening's `N` first; `scores` holds, for each
/// move after the opening, the search's score of the position before it from the mover's view (the
/// evaluation's scale, wins near ±30000), or `.` where the search gave none.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    pub index: usize,
    pub rules: Rules,
    pub width: usize,
    pub height: usize,
    pub result: GameResult,
    pub opening: usize,
    pub moves: Vec<Pos>,
    pub scores: Vec<Option<i32>>,
}

impl fmt::Display for GameRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let moves: String = self.moves.iter().map(|p| p.notation()).collect();
        let scores: Vec<String> =
            self.scores.iter().map(|s| s.map_or(".".into(), |v| v.to_string())).collect();
        write!(
            f,
            "game={} rule={} line={} size={}x{} result={} opening={} moves={moves} scores={}",
            self.index,
            self.rules.name(),
            self.rules.line,
            self.width,
            self.height,
            self.result.letter(),
            self.opening,
            scores.join(",")
        )
    }
}

impl std::str::FromStr for GameRecord {
    type Err = String;

    fn from_str(line: &str) -> Result<GameRecord, String> {
        let field = |key: &str| field_of(line, key).ok_or_else(|| format!("no {key}= field"));
        let number = |key: &str| field(key)?.parse::<usize>().map_err(|_| format!("{key}= is not a count"));
        let name = field("rule")?;
        let line_len: u8 = field("line")?.parse().map_err(|_| "line= is not a length".to_string())?;
        let rules = Rules::named(name).ok_or_else(|| format!("unknown rule '{name}'"))?;
        let rules = Rules { line: line_len, ..rules };
        let (w, h) = field("size")?.split_once('x').ok_or("size= is not WxH")?;
        let (width, height) = (w.parse().map_err(|_| "bad width")?, h.parse().map_err(|_| "bad height")?);
        let result = match field("result")? {
            "B" => GameResult::BlackWins,
            "W" => GameResult::WhiteWins,
            "D" => GameResult::Draw,
            r => return Err(format!("result '{r}' is not B, W or D")),
        };
        let moves = Pos::parse_list(field("moves")?)?;
        let scores = field("scores")?;
        let scores: Vec<Option<i32>> = if scores.is_empty() {
            vec![]
        } else {
            scores
                .split(',')
                .map(|s| {
                    if s == "." {
                        Ok(None)
                    } else {
                        s.parse().map(Some).map_err(|_| format!("bad score '{s}'"))
                    }
                })
                .collect::<Result<_, _>>()?
        };
        let opening = number("opening")?;
        if opening > moves.len() || scores.len() != moves.len() - opening {
            return Err("the scores do not match the moves after the opening".into());
        }
        Ok(GameRecord { index: number("game")?, rules, width, height, result, opening, moves, scores })
    }
}

impl GameRecord {
    /// The positions after the opening, replayed: the board before each move, that move's score and
    /// the result for the side to move there. `None` when the moves are not a legal game.
    pub fn positions(&self) -> Option<Vec<(Board, Option<i32>, f64)>> {
        let mut board = Board::new(self.width as i64, self.height as i64).ok()?;
        board.set_capture(self.rules.capture_rule());
        let mut out = vec![];
        for (k, &p) in self.moves.iter().enumerate() {
            if !board.is_empty(p) {
                return None;
            }
            if k >= self.opening {
                let side = board.side_to_move();
                out.push((board.clone(), self.scores[k - self.opening], self.result.score_for(side)));
            }
            board.play_unchecked(p);
        }
        Some(out)
    }
}

/// What to play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SelfplayConfig {
    /// The games, cycled batch by batch: each its rules and board (width, height).
    pub games_of: Vec<(Rules, usize, usize)>,
    /// Stones per opening.
    pub stones: (usize, usize),
    pub seed: u64,
    /// Games in the run.
    pub games: usize,
    /// How long a move is searched.
    pub limit: MoveLimit,
    /// This part of the run: shard K of N plays the batches `b` with `b mod N = K - 1`.
    pub shard: Shard,
}

impl SelfplayConfig {
    /// The header line of the run's file: everything that decides its games (not the shard).
    pub fn header(&self) -> String {
        let games: Vec<String> =
            self.games_of.iter().map(|(r, w, h)| format!("{}:{}:{w}x{h}", r.name(), r.line)).collect();
        format!(
            "# quincunx selfplay v1 games={} seed={} stones={}-{} {}",
            games.join(","),
            self.seed,
            self.stones.0,
            self.stones.1,
            self.limit
        )
    }

    fn batch_config(&self, b: usize) -> GenConfig {
        let (rules, width, height) = self.games_of[b % self.games_of.len()];
        // A seed a batch, apart from every other batch's (SplitMix64's increment spreads them).
        let seed = self.seed ^ (b as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        GenConfig { stones: self.stones, ..GenConfig::new(rules, width, height, seed) }
    }

    fn in_shard(&self, b: usize) -> bool {
        self.shard.takes(b)
    }
}

/// How a run went.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tally {
    pub games: usize,
    pub positions: usize,
    pub black: usize,
    pub white: usize,
    pub draws: usize,
}

impl Tally {
    fn add(&mut self, g: &GameRecord) {
        self.games += 1;
        self.positions += g.scores.len();
        match g.result {
            GameResult::BlackWins => self.black += 1,
            GameResult::WhiteWins => self.white += 1,
            GameResult::Draw => self.draws += 1,
        }
    }
}

/// Why a resumable run of games (`selfplay`, `tune`) cannot go on.
#[derive(Debug)]
pub enum RunError {
    /// The file was written by another configuration.
    OtherRun {
        found: String,
        expected: String,
    },
    /// A line of the file is not what belongs there (`why` says what it is not).
    BadLine {
        line: usize,
        why: String,
    },
    Io(std::io::Error),
    /// The openings generator cannot serve a game of the run.
    Openings(String),
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::OtherRun { found, expected } => {
                write!(f, "the file holds another run ('{found}'); this one is '{expected}'")
            }
            RunError::BadLine { line, why } => write!(f, "line {line} is {why}"),
            RunError::Io(e) => write!(f, "{e}"),
            RunError::Openings(e) => write!(f, "openings: {e}"),
        }
    }
}

impl std::error::Error for RunError {}

impl From<std::io::Error> for RunError {
    fn from(e: std::io::Error) -> RunError {
        RunError::Io(e)
    }
}

/// The games a file already holds: its header (if any) and the games by number.
pub fn read_file(text: &str) -> Result<(Option<String>, Vec<GameRecord>), RunError> {
    read_run(text, "a game")
}

/// The value of the field `key=` in a line of a run's file, its header or another.
pub fn field_of<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    line.split_whitespace().find_map(|w| w.strip_prefix(key).and_then(|r| r.strip_prefix('=')))
}

/// A resumable run's file (games, labels, a tune state): its header (if any) and its lines, each `what`
/// (a game, an iteration), in order. A line cut by a stop mid-write is the last one, without its
/// newline: it is dropped.
pub fn read_run<T: std::str::FromStr<Err = String>>(
    text: &str,
    what: &str,
) -> Result<(Option<String>, Vec<T>), RunError> {
    let mut header = None;
    let mut items = vec![];
    let lines = text.lines().count();
    for (i, line) in text.lines().enumerate() {
        if line.starts_with('#') {
            header.get_or_insert_with(|| line.to_string());
        } else if !line.trim().is_empty() {
            let last_unfinished = i + 1 == lines && !text.ends_with('\n');
            match line.parse::<T>() {
                Ok(item) => items.push(item),
                Err(_) if last_unfinished => {}
                Err(why) => return Err(RunError::BadLine { line: i + 1, why: format!("not {what}: {why}") }),
            }
        }
    }
    Ok((header, items))
}

/// How long a move of a game is searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveLimit {
    /// This many nodes on one thread with no clock: the game is the same on any machine.
    Nodes(u64),
    /// This many milliseconds by the clock (not repeatable).
    Time(u64),
}

impl fmt::Display for MoveLimit {
    /// As a run's header names it: `nodes=N` or `time=MS`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveLimit::Nodes(n) => write!(f, "nodes={n}"),
            MoveLimit::Time(t) => write!(f, "time={t}"),
        }
    }
}

/// Plays game `index` from `opening` to its end, `players` by colour (black's first), each move
/// searched to `limit`.
pub fn play_game(
    players: [&SearchPlayer; 2],
    limit: MoveLimit,
    index: usize,
    rules: Rules,
    size: (usize, usize),
    opening: &[Pos],
) -> GameRecord {
    let mut board = Board::new(size.0 as i64, size.1 as i64).expect("the generator's board size");
    board.set_capture(rules.capture_rule());
    for &p in opening {
        board.play_unchecked(p);
    }
    let mut scores = vec![];
    let result = loop {
        if board.is_full() {
            break GameResult::Draw;
        }
        let side = board.side_to_move();
        let limits = match limit {
            MoveLimit::Nodes(n) => {
                Limits { max_nodes: Some(n), ..Limits::new(Budget::unlimited(), 1, MEMORY) }
            }
            MoveLimit::Time(t) => Limits::new(Budget::per_move(t, board.empty_count()), 1, MEMORY),
        };
        let thought = players[side.index()].think(&board, &rules, &limits, &AtomicBool::new(false));
        let Some(p) = thought.mv.filter(|&p| board.is_empty(p)) else {
            // The search names no move only on a full board; anything else is its loss.
            break GameResult::winner(side.opp());
        };
        // A forced move or the opening's first says nothing of the position: no score.
        let scored = !matches!(thought.shortcut, Some(Shortcut::Forced | Shortcut::Opening));
        scores.push(thought.score.filter(|_| scored));
        match rules.verdict(&board, p) {
            Verdict::Win => {
                board.play_unchecked(p);
                break GameResult::winner(side);
            }
            Verdict::Foul(_) | Verdict::Illegal(_) => {
                board.play_unchecked(p);
                break GameResult::winner(side.opp());
            }
            Verdict::Continue => board.play_unchecked(p),
        }
    };
    GameRecord {
        index,
        rules,
        width: size.0,
        height: size.1,
        result,
        opening: opening.len(),
        moves: board.history().to_vec(),
        scores,
    }
}

/// Writes `line` whole to a run's file shared by its workers, and flushes it, so that a stop loses only
/// what is under way.
pub fn write_line(out: &Mutex<&mut (dyn Write + Send)>, line: &dyn fmt::Display) -> Result<(), RunError> {
    let mut out = out.lock().unwrap_or_else(PoisonError::into_inner);
    writeln!(out, "{line}").and_then(|()| out.flush()).map_err(RunError::Io)
}

/// Works through `todo` on `workers` threads, each taking the next item for `job`; each job's outcome
/// is counted into the run's tally (`count`, under a lock, from `tally`), and `progress` is told the
/// tally after it. A worker whose job fails stops, and the first failure is the run's answer once every
/// worker is done; else the tally is.
pub fn work_through<I: Sync, R, T: Copy + Send>(
    todo: &[I],
    workers: usize,
    tally: T,
    job: impl Fn(&I) -> Result<R, RunError> + Sync,
    count: impl Fn(&mut T, &R) + Sync,
    progress: &(dyn Fn(&T) + Sync),
) -> Result<T, RunError> {
    let failure = Mutex::new(None);
    let tally = Mutex::new(tally);
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..workers.max(1) {
            scope.spawn(|| {
                while let Some(item) = todo.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let outcome = match job(item) {
                        Ok(outcome) => outcome,
                        Err(e) => {
                            failure.lock().unwrap_or_else(PoisonError::into_inner).get_or_insert(e);
                            return;
                        }
                    };
                    let now = {
                        let mut t = tally.lock().unwrap_or_else(PoisonError::into_inner);
                        count(&mut t, &outcome);
                        *t
                    };
                    progress(&now);
                }
            });
        }
    });
    match failure.into_inner().unwrap_or_else(PoisonError::into_inner) {
        Some(e) => Err(e),
        None => Ok(tally.into_inner().unwrap_or_else(PoisonError::into_inner)),
    }
}

/// Plays the run's games that `done` lacks (of this shard), `workers` at a time, each written to `out`
/// as it ends; `progress` is told of each game. Returns the tally of the games played now.
pub fn run(
    cfg: &SelfplayConfig,
    done: &BTreeSet<usize>,
    workers: usize,
    out: &mut (dyn Write + Send),
    progress: &(dyn Fn(&Tally) + Sync),
) -> Result<Tally, RunError> {
    let todo: Vec<usize> = (0..cfg.games).filter(|k| cfg.in_shard(k / BATCH) && !done.contains(k)).collect();
    // A batch's openings are drawn once, by the first worker that needs them.
    let openings: Vec<OnceLock<Result<Vec<Vec<Pos>>, String>>> =
        (0..cfg.games.div_ceil(BATCH)).map(|_| OnceLock::new()).collect();
    let out = Mutex::new(out);
    let play = |&k: &usize| {
        let b = k / BATCH;
        let batch = cfg.batch_config(b);
        let drawn = openings[b].get_or_init(|| {
            let count = BATCH.min(cfg.games - b * BATCH);
            opening_gen::generate(&batch, count).map_err(|e| e.to_string())
        });
        let opening = &drawn.as_ref().map_err(|e| RunError::Openings(e.clone()))?[k - b * BATCH];
        let players = [&SearchPlayer::default(), &SearchPlayer::default()];
        let size = (batch.width, batch.height);
        let game = play_game(players, cfg.limit, k, batch.rules, size, opening);
        write_line(&out, &game)?;
        Ok(game)
    };
    work_through(&todo, workers, Tally::default(), play, Tally::add, progress)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record() -> GameRecord {
        GameRecord {
            index: 7,
            rules: Rules::named("renju").expect("renju"),
            width: 15,
            height: 15,
            result: GameResult::WhiteWins,
            opening: 2,
            moves: Pos::parse_list("h8i9j10k11").expect("moves"),
            scores: vec![Some(-40), None],
        }
    }

    #[test]
    fn a_game_line_reads_back_as_the_same_game() {
        let g = record();
        let line = g.to_string();
        assert_eq!(line.parse::<GameRecord>(), Ok(g));
    }

    #[test]
    fn the_positions_of_a_game_carry_the_result_for_the_side_to_move() {
        let p = record().positions().expect("a legal game");
        assert_eq!(p.len(), 2);
        // After two stones black moves (white won: 0), then white (1).
        assert_eq!((p[0].1, p[0].2), (Some(-40), 0.0));
        assert_eq!((p[1].1, p[1].2), (None, 1.0));
        assert_eq!(p[1].0.stone_count(), 3);
    }

    #[test]
    fn broken_lines_are_refused_and_a_cut_last_line_is_dropped() {
        assert!("game=1 rule=nonsense".parse::<GameRecord>().is_err());
        let g = record().to_string();
        let cut = format!("# header\n{g}\n{}", &g[..g.len() / 2]);
        let (header, games) = read_file(&cut).expect("the cut line is the last");
        assert_eq!((header.as_deref(), games.len()), (Some("# header"), 1));
        assert!(read_file(&format!("{}\n{g}\n", &g[..g.len() / 2])).is_err());
    }
}
