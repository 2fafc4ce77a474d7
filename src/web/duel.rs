//! A game between two brains on the page: the brains `serve` was given (`--engine`, as `match` takes
//! them), the clock they play by, and the game itself, refereed by `tools::referee` exactly as a
//! match game is (START and INFO, every answer against its deadline, a fault loses), each move told
//! to the board as it is taken with what its engine said of it.
//!
//! Invariants: a game runs on the session's engine thread and returns within its time limits after
//! its stop flag is set (the referee cannot interrupt an answer, so the answer under way finishes or
//! times out first); both brains are closed when it returns.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::game::board::{Color, Pos};
use crate::player::DEFAULT_MEMORY;
use crate::tools::client::process::StderrMode;
use crate::tools::client::referee::EngineSpec;
use crate::tools::client::referee::{
    Ending, GameResult, GameSettings, Seat, default_max_stones, play_watched,
};
use crate::tools::matches::live::Note;
use crate::web::game::{Game, GameError};

/// The brains a page may set against each other, and the clock they play by unless the page says.
#[derive(Clone, Debug)]
pub struct Roster {
    pub engines: Vec<EngineSpec>,
    /// ms a move (0: none) and a game and side (0: none), as `match --turn` and `--game`.
    pub turn_ms: u64,
    pub game_ms: u64,
    /// Grace beyond the limits before an answer is late.
    pub tolerance_ms: u64,
    /// `INFO thread_num` for each brain.
    pub threads: usize,
}

/// The longest a move or a side's game may be given, ms (a day).
const MAX_CLOCK_MS: u64 = 86_400_000;

/// A game to play: who, by which clock, from which moves.
pub struct Job {
    pub settings: GameSettings,
    /// Black's brain and white's.
    pub seats: [EngineSpec; 2],
    pub opening: Vec<Pos>,
}

impl Roster {
    /// The game `game` (its moves are the opening; set-up stones are refused) between engines number
    /// `black` and `white` (the same one twice: two processes), with the clock asked for or the
    /// roster's, checked.
    pub fn job(
        &self,
        game: &Game,
        [black, white]: [usize; 2],
        turn_ms: Option<u64>,
        game_ms: Option<u64>,
    ) -> Result<Job, GameError> {
        let n = self.engines.len();
        if n == 0 {
            return Err(GameError("no engines to play: start serve with --engine CMD twice or more".into()));
        }
        let engine = |i: usize| {
            self.engines
                .get(i)
                .cloned()
                .ok_or_else(|| GameError(format!("engine {i} is not one of the {n} given (numbered from 0)")))
        };
        let seats = [engine(black)?, engine(white)?];
        if game.start.stone_count() > 0 {
            return Err(GameError("engines play from moves, not set-up stones: start from the moves".into()));
        }
        if let Some(end) = game.ending() {
            return Err(GameError(format!("the game is over there: {}", end.reason)));
        }
        let (turn_ms, game_ms) = (turn_ms.unwrap_or(self.turn_ms), game_ms.unwrap_or(self.game_ms));
        for (what, t) in [("a move's time", turn_ms), ("a game's time", game_ms)] {
            if t > MAX_CLOCK_MS {
                return Err(GameError(format!("{what} is at most {MAX_CLOCK_MS} ms, not {t}")));
            }
        }
        let settings = GameSettings {
            rules: game.rules,
            width: game.width(),
            height: game.height(),
            turn_ms,
            game_ms,
            tolerance_ms: self.tolerance_ms,
            start_timeout_ms: 10_000,
            max_memory: DEFAULT_MEMORY,
            threads: self.threads,
            max_nodes: 0,
            max_stones: default_max_stones(&game.rules, game.width() * game.height()),
            // `match`'s default pause after an answer (see `GameSettings::pause_ms`).
            pause_ms: 3,
            stderr: StderrMode::Ignore,
        };
        settings.check_time().map_err(GameError)?;
        Ok(Job { settings, seats, opening: game.moves[..game.cursor].to_vec() })
    }
}

/// Plays `job` until it ends or `stop` is set, telling `moved` of each move.
pub fn play(job: &Job, stop: &AtomicBool, moved: &mut dyn FnMut(Pos, Note)) -> GameResult {
    let mut seats = job.seats.clone().map(|e| Seat::new(e.name, e.command));
    let [black, white] = &mut seats;
    let result = play_watched(&job.settings, &job.opening, [black, white], &mut |m| {
        moved(m.point, Note::of(m));
        !stop.load(Ordering::Relaxed)
    });
    for seat in &mut seats {
        seat.close();
    }
    result
}

/// The game's ending as the referee gave it, where the board cannot show it: a fault names the
/// brain that lost by it. A stopped game has none.
pub fn settle(game: &mut Game, r: &GameResult) {
    if r.ending == Ending::Stopped {
        return;
    }
    let reason = match (&r.ending, r.winner) {
        (Ending::Fault(..), Some(winner)) => {
            let loser = if winner == Color::Black { &game.names[1] } else { &game.names[0] };
            format!("{loser}: {}", r.ending)
        }
        _ => r.ending.to_string(),
    };
    game.decide(r.winner, &reason);
}
