//! The referee: plays one game between two brain processes, as a Gomocup manager would, under the
//! library's own rules (one implementation of five, exact five, renju fouls and caro for the engine and
//! the referee alike).
//!
//! Every fault loses the game, with its reason recorded: no answer in time (the time limit is
//! `min(timeout_turn, time left) + tolerance`), a crash or exit, a malformed answer (anything but `X,Y`
//! apart from MESSAGE/DEBUG lines), an off-board or occupied point, an answer to START other than `OK`.
//! A renju foul loses too but is a move, not a fault. A faulty brain is killed (its whole process group)
//! and started again for its next game; a healthy one keeps its process, and gets START for every game
//! as c-gomoku-cli does.
//!
//! Whoever watches a game ([`play_watched`]) is told of each move as it is taken, with what the brain
//! said before it, and may stop the game between two moves.
//!
//! A seat can also be asked about one position outside a game ([`Seat::consult`], for the judge of `analyze` and the board), its
//! answer checked as a game's would be.
//!
//! Invariant: [`play_game`] returns within the sum of its time limits plus the start timeout, whatever
//! the brains do: no answer is waited for without a deadline. Settings with neither a turn nor a game
//! limit are refused before a match ([`GameSettings::check_time`]); given anyway, a move may take
//! only the tolerance (Gomocup's "0: play as fast as possible").

use std::fmt;
use std::time::{Duration, Instant};

use crate::brain::command::clip;
use crate::game::board::{Board, Cell, Color, Pos};
use crate::game::renju::Forbidden;
use crate::game::rules::{Rules, Variant, Verdict};
use crate::tools::client::process::{Brain, Received, StderrMode, parse_move};
use crate::tools::record::write::GameRecord;

/// The conditions of every game of a match.
#[derive(Clone, Debug)]
pub struct GameSettings {
    pub rules: Rules,
    pub width: usize,
    pub height: usize,
    /// Per move, ms; 0 = no limit.
    pub turn_ms: u64,
    /// Per game and side, ms; 0 = no limit.
    pub game_ms: u64,
    /// Grace beyond the limits before an answer is late.
    pub tolerance_ms: u64,
    /// How long a brain may take to answer START (it may be loading).
    pub start_timeout_ms: u64,
    /// `INFO max_memory`, bytes.
    pub max_memory: u64,
    /// `INFO thread_num`; 0 = not sent.
    pub threads: usize,
    /// `INFO max_node`: a node limit a move, so that a match of our own brains is the same whatever
    /// else runs on the machine; 0 = not sent.
    pub max_nodes: u64,
    /// A draw once this many stones are on the board.
    pub max_stones: usize,
    /// Wait after each answer before the next command (some brains drop a TURN that arrives within
    /// microseconds of their own move).
    pub pause_ms: u64,
    /// Where the brains' stderr goes.
    pub stderr: StderrMode,
}

impl GameSettings {
    /// Whether a move is limited at all: by the turn time, the game time, or both.
    pub fn check_time(&self) -> Result<(), String> {
        if self.turn_ms == 0 && self.game_ms == 0 {
            return Err(
                "neither a turn time nor a game time limits a move: give one (turn or game > 0)".into()
            );
        }
        Ok(())
    }
}

/// The stones after which a game of `rules` on a board of `cells` points is a draw, when nothing else
/// says.
pub fn default_max_stones(rules: &Rules, cells: usize) -> usize {
    match rules.variant {
        // Gomocup stops renju games as a draw when 25 empty points are left.
        Variant::Renju => cells.saturating_sub(25),
        // Captured points are played again: the full board ends a Pente game.
        Variant::Pente { .. } => usize::MAX,
        _ => cells,
    }
}

/// A fault of a brain: each loses the game and restarts the brain.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Fault {
    CannotStart,
    BadStartAnswer,
    Timeout,
    Crash,
    Malformed,
    OffBoard,
    Occupied,
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Fault::CannotStart => "could not be started",
            Fault::BadStartAnswer => "did not answer OK to START",
            Fault::Timeout => "no answer in time",
            Fault::Crash => "crashed or exited",
            Fault::Malformed => "malformed answer",
            Fault::OffBoard => "move off the board",
            Fault::Occupied => "move on an occupied point",
        })
    }
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    Five,
    /// Pente: the winner has captured enough stones.
    Captures,
    Foul(Forbidden),
    /// Pente: a move against the opening rule (it loses like a foul).
    Illegal(&'static str),
    Fault(Fault, String),
    BoardFull,
    StoneLimit,
    /// No line can be completed by either side any more.
    DeadDraw,
    /// Whoever watched the game stopped it ([`play_watched`]): no result.
    Stopped,
}

impl fmt::Display for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ending::Five => f.write_str("five in a row"),
            Ending::Captures => f.write_str("captures"),
            Ending::Foul(k) => write!(f, "renju foul ({k})"),
            Ending::Illegal(why) => write!(f, "illegal move: {why}"),
            Ending::Fault(fault, detail) if detail.is_empty() => write!(f, "{fault}"),
            Ending::Fault(fault, detail) => write!(f, "{fault}: {detail}"),
            Ending::BoardFull => f.write_str("board full"),
            Ending::StoneLimit => f.write_str("stone limit reached"),
            Ending::DeadDraw => f.write_str("no line can be completed"),
            Ending::Stopped => f.write_str("stopped"),
        }
    }
}

/// One answer's time against its budget (budget `None` when unlimited).
#[derive(Clone, Copy, Debug)]
pub struct AnswerTime {
    pub elapsed_us: u64,
    pub budget_ms: Option<u64>,
}

#[derive(Clone, Debug)]
pub struct GameResult {
    pub record: GameRecord,
    pub ending: Ending,
    pub winner: Option<Color>,
    /// Answer times of black and white.
    pub times: [Vec<AnswerTime>; 2],
}

/// A player's chair: the command, and the process while it is healthy.
pub struct Seat {
    pub name: String,
    pub command: Vec<String>,
    /// This engine's `INFO max_node`, instead of the game's (`GameSettings::max_nodes`).
    pub max_nodes: Option<u64>,
    brain: Option<Brain>,
    /// The brain has had START and INFO (from [`Seat::start`]) and no game since: the next game uses
    /// that START instead of sending another.
    prepared: bool,
}

impl Seat {
    pub fn new(name: String, command: Vec<String>) -> Seat {
        Seat { name, command, max_nodes: None, brain: None, prepared: false }
    }

    /// Starts the brain and gives it START and INFO for the next game; `Err` is the fault (the brain
    /// is then killed). The match runner calls this before its first game, so that an engine that
    /// cannot start stops the match instead of losing every game.
    pub fn start(&mut self, s: &GameSettings) -> Result<(), (Fault, String)> {
        match prepare(self, s) {
            Ok(()) => {
                self.prepared = true;
                Ok(())
            }
            Err(e) => {
                self.fault();
                Err(e)
            }
        }
    }

    /// The running brain, started if needed.
    fn brain(&mut self, stderr: StderrMode) -> Result<&mut Brain, String> {
        if self.brain.as_mut().is_some_and(|b| !b.alive()) {
            self.brain = None;
        }
        if self.brain.is_none() {
            let b = Brain::spawn(&self.command, stderr)
                .map_err(|e| format!("{}: {e}", self.command.join(" ")))?;
            self.brain = Some(b);
        }
        self.brain.as_mut().ok_or_else(|| "no brain".to_string())
    }

    /// Kills the brain after a fault; the next game starts a fresh one.
    fn fault(&mut self) {
        self.prepared = false;
        if let Some(mut b) = self.brain.take() {
            b.kill();
        }
    }

    /// Asks the brain, outside a game, for its move in `board` (analysis): `INFO timeout_turn`, then the
    /// whole position as BOARD … DONE. The answer must come within the turn time and the tolerance and
    /// name an empty point; with it come the MESSAGE lines the brain printed meanwhile. The brain must
    /// have been started ([`Seat::start`]); a fault kills it, and the next start makes a fresh one.
    pub fn consult(
        &mut self,
        s: &GameSettings,
        board: &Board,
    ) -> Result<(Pos, Vec<String>), (Fault, String)> {
        self.consult_with(s, board, None)
    }

    /// As [`Seat::consult`], for Yixin-Board's `YXNBEST n`: the position as YXBOARD, then the request;
    /// the best moves come in the MESSAGE lines, the best of them as the answer.
    pub fn consult_nbest(
        &mut self,
        s: &GameSettings,
        board: &Board,
        n: usize,
    ) -> Result<(Pos, Vec<String>), (Fault, String)> {
        self.consult_with(s, board, Some(n))
    }

    fn consult_with(
        &mut self,
        s: &GameSettings,
        board: &Board,
        nbest: Option<usize>,
    ) -> Result<(Pos, Vec<String>), (Fault, String)> {
        let mut lines = vec![format!("INFO timeout_turn {}", s.turn_ms)];
        lines.extend(board_lines(board, board.side_to_move()));
        if let Some(n) = nbest {
            for l in lines.iter_mut().filter(|l| *l == "BOARD") {
                *l = "YXBOARD".into();
            }
            lines.push(format!("YXNBEST {n}"));
        }
        let budget = (s.turn_ms > 0).then_some(s.turn_ms);
        let Some(brain) = self.brain.as_mut() else {
            return Err((Fault::Crash, "not running".into()));
        };
        let mut said = vec![];
        let (answer, elapsed_us) = ask(brain, &lines, budget.unwrap_or(0) + s.tolerance_ms, &mut said);
        // As after a game's turn: Rapfi 0.43 drops a command sent microseconds after its answer.
        if s.pause_ms > 0 {
            std::thread::sleep(Duration::from_millis(s.pause_ms));
        }
        let point = answered_move(s, answer, elapsed_us, budget).and_then(|(x, y)| free_point(board, x, y));
        match point {
            Ok(p) => Ok((p, said)),
            Err(e) => {
                self.fault();
                Err(e)
            }
        }
    }

    /// Ends the brain politely: END, a moment, then the kill.
    pub fn close(&mut self) {
        self.prepared = false;
        if let Some(mut b) = self.brain.take() {
            b.shutdown(Duration::from_millis(500));
        }
    }
}

/// Sends START and the INFO lines; `Err` is the fault that loses the game.
fn prepare(seat: &mut Seat, s: &GameSettings) -> Result<(), (Fault, String)> {
    let max_nodes = seat.max_nodes.unwrap_or(s.max_nodes);
    let brain = seat.brain(s.stderr).map_err(|e| (Fault::CannotStart, e))?;
    let start = if s.width == s.height {
        format!("START {}", s.width)
    } else {
        format!("RECTSTART {},{}", s.width, s.height)
    };
    brain.send(&start).map_err(|e| (Fault::Crash, e.to_string()))?;
    let mut skipped = vec![];
    match brain.recv_answer(Instant::now() + Duration::from_millis(s.start_timeout_ms), &mut skipped) {
        Received::Line(l) if l.trim().eq_ignore_ascii_case("OK") => {}
        Received::Line(l) => return Err((Fault::BadStartAnswer, format!("answered '{}'", clip(&l)))),
        Received::Timeout => return Err((Fault::BadStartAnswer, "no answer to START".into())),
        Received::Closed => return Err((Fault::Crash, "exited after START".into())),
        Received::Flood => return Err((Fault::Malformed, "flood of lines after START".into())),
    }
    let mut infos = vec![
        format!("INFO timeout_turn {}", s.turn_ms),
        format!("INFO timeout_match {}", s.game_ms),
        format!("INFO max_memory {}", s.max_memory),
        "INFO game_type 1".to_string(),
        format!("INFO rule {}", s.rules.mask()),
    ];
    if s.rules.line != 5 {
        infos.push(format!("INFO line_length {}", s.rules.line));
    }
    match s.rules.variant {
        Variant::Pente { keryo: false, g: false } => infos.push("INFO variant pente".into()),
        Variant::Pente { keryo: false, g: true } => infos.push("INFO variant gpente".into()),
        Variant::Pente { keryo: true, .. } => infos.push("INFO variant keryo".into()),
        _ => {}
    }
    if s.threads > 0 {
        infos.push(format!("INFO thread_num {}", s.threads));
    }
    if max_nodes > 0 {
        infos.push(format!("INFO max_node {max_nodes}"));
    }
    for line in infos {
        brain.send(&line).map_err(|e| (Fault::Crash, e.to_string()))?;
    }
    Ok(())
}

/// Plays one game: `seats[0]` is black (moves first), `seats[1]` white; `opening` stones are placed first.
pub fn play_game(s: &GameSettings, opening: &[Pos], seats: [&mut Seat; 2]) -> GameResult {
    play_watched(s, opening, seats, &mut |_| true)
}

/// A move as the referee took it, for whoever watches the game: the mover, the point, the ms its
/// answer took and the MESSAGE lines the brain printed before it.
pub struct Played<'a> {
    pub side: Color,
    pub point: Pos,
    pub ms: u64,
    pub said: &'a [String],
}

/// [`play_game`], telling `watch` of each move as it is taken (the opening's stones are not moves);
/// when `watch` answers false the game ends there, [`Ending::Stopped`], with no winner.
pub fn play_watched(
    s: &GameSettings,
    opening: &[Pos],
    seats: [&mut Seat; 2],
    watch: &mut dyn FnMut(&Played) -> bool,
) -> GameResult {
    let mut game = Game::new(s, opening, [seats[0].name.clone(), seats[1].name.clone()]);
    // Step 1. START and INFO for both; a brain that fails here loses at once.
    for (i, color) in [Color::Black, Color::White].into_iter().enumerate() {
        if let Err((fault, detail)) = ready(seats[i], s) {
            seats[i].fault();
            return game.finish(Ending::Fault(fault, detail), Some(color.opp()));
        }
    }
    loop {
        // Step 2. Draws: the stone limit, a full board, no line left to complete.
        if let Some(draw) = game.draw(s) {
            return game.finish(draw, None);
        }
        // Step 3. Ask the side to move, and judge its answer.
        let side = game.board.side_to_move();
        let moves = game.record.moves.len();
        let seat = &mut *seats[side.index()];
        let mut said = vec![];
        let outcome = game.turn(s, seat, &mut said);
        let go_on = match game.record.moves.get(moves) {
            Some(&(point, ms)) => watch(&Played { side, point, ms, said: &said }),
            None => true,
        };
        if !go_on && matches!(outcome, Outcome::Continue) {
            return game.finish(Ending::Stopped, None);
        }
        match outcome {
            Outcome::Continue => {}
            Outcome::Over(ending, winner) => return game.finish(ending, winner),
            Outcome::Fault(fault, detail) => {
                seat.fault();
                return game.finish(Ending::Fault(fault, detail), Some(side.opp()));
            }
        }
        if s.pause_ms > 0 {
            std::thread::sleep(Duration::from_millis(s.pause_ms));
        }
    }
}

/// START and INFO for a game, unless [`Seat::start`] gave them and the brain still lives (one that has
/// died since gets a fresh process and START).
fn ready(seat: &mut Seat, s: &GameSettings) -> Result<(), (Fault, String)> {
    let prepared = std::mem::take(&mut seat.prepared);
    if prepared && seat.brain.as_mut().is_some_and(|b| b.alive()) {
        return Ok(());
    }
    prepare(seat, s)
}

/// What one answer did: the game goes on, it is over by the move, or the brain faulted (it loses and
/// is restarted).
enum Outcome {
    Continue,
    Over(Ending, Option<Color>),
    Fault(Fault, String),
}

/// A game in progress, as the referee keeps it.
struct Game {
    board: Board,
    record: GameRecord,
    times: [Vec<AnswerTime>; 2],
    /// Time used by black and white, ms.
    used_ms: [u64; 2],
    /// Whether each side has been told the position (after that it gets only the opponent's moves).
    told_position: [bool; 2],
}

impl Game {
    fn new(s: &GameSettings, opening: &[Pos], [black, white]: [String; 2]) -> Game {
        let mut board = Board::new(s.width as i64, s.height as i64).expect("match sizes are checked");
        board.set_capture(s.rules.capture_rule());
        for &p in opening {
            board.play_unchecked(p);
        }
        let record = GameRecord {
            width: s.width,
            height: s.height,
            rule: s.rules.mask(),
            black,
            white,
            setup: [vec![], vec![]],
            moves: opening.iter().map(|&p| (p, 0)).collect(),
            opening_len: opening.len(),
            winner: None,
            reason: String::new(),
        };
        Game { board, record, times: [vec![], vec![]], used_ms: [0; 2], told_position: [false; 2] }
    }

    fn finish(mut self, ending: Ending, winner: Option<Color>) -> GameResult {
        self.record.winner = winner;
        self.record.reason = ending.to_string();
        GameResult { record: self.record, ending, winner, times: self.times }
    }

    /// The draw the position is, if it is one.
    fn draw(&self, s: &GameSettings) -> Option<Ending> {
        if self.board.stone_count() >= s.max_stones {
            return Some(Ending::StoneLimit);
        }
        if self.board.is_full() {
            return Some(Ending::BoardFull);
        }
        // (Under captures a closed line can open again.)
        let dead = self.board.capture_rule().is_none() && !s.rules.any_line_open(&self.board);
        dead.then_some(Ending::DeadDraw)
    }

    /// Asks the side to move for its move, and plays it if it is one.
    fn turn(&mut self, s: &GameSettings, seat: &mut Seat, said: &mut Vec<String>) -> Outcome {
        let side = self.board.side_to_move();
        let i = side.index();
        let left = (s.game_ms > 0).then(|| s.game_ms.saturating_sub(self.used_ms[i]));
        let budget = match (s.turn_ms, left) {
            (0, l) => l,
            (t, Some(l)) => Some(t.min(l)),
            (t, None) => Some(t),
        };
        let lines = self.commands(side, left);
        let brain = match seat.brain(s.stderr) {
            Ok(b) => b,
            Err(e) => return Outcome::Fault(Fault::CannotStart, e),
        };
        let (answer, elapsed_us) = ask(brain, &lines, budget.unwrap_or(0) + s.tolerance_ms, said);
        match self.answered_point(s, side, answer, elapsed_us, budget) {
            Ok(p) => self.play(s, side, p, elapsed_us / 1000),
            Err((fault, detail)) => Outcome::Fault(fault, detail),
        }
    }

    /// What the side to move is sent: its time left, then the opponent's last move, or the whole
    /// position the first time it is asked.
    fn commands(&mut self, side: Color, left: Option<u64>) -> Vec<String> {
        let mut lines = vec![];
        if let Some(l) = left {
            lines.push(format!("INFO time_left {l}"));
        }
        if self.told_position[side.index()] {
            let last = self.board.last_move().expect("the opponent has moved");
            lines.push(format!("TURN {last}"));
        } else if self.board.stone_count() == 0 {
            lines.push("BEGIN".into());
        } else {
            lines.extend(board_lines(&self.board, side));
        }
        self.told_position[side.index()] = true;
        lines
    }

    /// The empty point an answer names, in time, with its time counted; `Err` is the fault.
    fn answered_point(
        &mut self,
        s: &GameSettings,
        side: Color,
        answer: Received,
        elapsed_us: u64,
        budget: Option<u64>,
    ) -> Result<Pos, (Fault, String)> {
        let (x, y) = answered_move(s, answer, elapsed_us, budget)?;
        self.times[side.index()].push(AnswerTime { elapsed_us, budget_ms: budget });
        self.used_ms[side.index()] += elapsed_us / 1000;
        free_point(&self.board, x, y)
    }

    /// Records the move and plays it, unless it ends the game.
    fn play(&mut self, s: &GameSettings, side: Color, p: Pos, elapsed_ms: u64) -> Outcome {
        self.record.moves.push((p, elapsed_ms));
        match s.rules.verdict(&self.board, p) {
            Verdict::Foul(kind) => Outcome::Over(Ending::Foul(kind), Some(side.opp())),
            Verdict::Illegal(why) => Outcome::Over(Ending::Illegal(why), Some(side.opp())),
            Verdict::Win if s.rules.makes_win(&self.board, p, side) => {
                Outcome::Over(Ending::Five, Some(side))
            }
            Verdict::Win => Outcome::Over(Ending::Captures, Some(side)),
            Verdict::Continue => {
                self.board.play_unchecked(p);
                Outcome::Continue
            }
        }
    }
}

/// The point an answer names, if it came in time (`budget` and the tolerance) and is a move at all.
fn answered_move(
    s: &GameSettings,
    answer: Received,
    elapsed_us: u64,
    budget: Option<u64>,
) -> Result<(i64, i64), (Fault, String)> {
    let elapsed = elapsed_us / 1000;
    let line = match answer {
        Received::Line(line) => line,
        Received::Timeout => return Err((Fault::Timeout, format!("nothing after {elapsed} ms"))),
        Received::Closed => return Err((Fault::Crash, String::new())),
        Received::Flood => return Err((Fault::Malformed, "a flood of lines and no move".into())),
    };
    let (x, y) =
        parse_move(line.trim_end()).ok_or_else(|| (Fault::Malformed, format!("'{}'", clip(&line))))?;
    if budget.is_some_and(|b| elapsed > b + s.tolerance_ms) {
        return Err((Fault::Timeout, format!("{elapsed} ms")));
    }
    Ok((x, y))
}

/// The point (x, y) of `board` if it is on the board and empty; `Err` is the fault.
fn free_point(board: &Board, x: i64, y: i64) -> Result<Pos, (Fault, String)> {
    match board.pos(x, y) {
        None => Err((Fault::OffBoard, format!("{x},{y}"))),
        Some(p) if !board.is_empty(p) => Err((Fault::Occupied, p.notation())),
        Some(p) => Ok(p),
    }
}

/// The whole position for `side` as BOARD … DONE, Pente's captures first (a BOARD cannot show them:
/// ours, then the opponent's).
fn board_lines(board: &Board, side: Color) -> Vec<String> {
    let mut lines = vec![];
    if board.capture_rule().is_some() {
        lines.push(format!("INFO captures {},{}", board.captured(side), board.captured(side.opp())));
    }
    lines.push("BOARD".into());
    // The stones on the board in the order they came (after captures a point may have been played
    // twice, or be empty again).
    let mut told: Vec<(Pos, Color)> = vec![];
    for &p in board.history().iter().rev() {
        if let Cell::Stone(c) = board.get(p)
            && !told.iter().any(|&(q, _)| q == p)
        {
            told.push((p, c));
        }
    }
    lines.extend(told.iter().rev().map(|&(p, c)| format!("{},{}", p, if c == side { 1 } else { 2 })));
    lines.push("DONE".into());
    lines
}

/// Sends `lines` and waits for the answer until `limit_ms` after the first went; the answer and the µs
/// it took. The MESSAGE lines printed meanwhile go to `said`.
fn ask(brain: &mut Brain, lines: &[String], limit_ms: u64, said: &mut Vec<String>) -> (Received, u64) {
    let started = Instant::now();
    let sent = lines.iter().try_for_each(|l| brain.send(l));
    let deadline = started + Duration::from_millis(limit_ms);
    let answer = match sent {
        Ok(()) => brain.recv_answer(deadline, said),
        Err(_) => Received::Closed,
    };
    (answer, started.elapsed().as_micros() as u64)
}

/// An engine as a match or the board names it: its name, its command line and its own node count.
#[derive(Clone, Debug)]
pub struct EngineSpec {
    pub name: String,
    pub command: Vec<String>,
    /// Its `INFO max_node`, instead of the match's `GameSettings::max_nodes`.
    pub nodes: Option<u64>,
}

impl EngineSpec {
    pub fn new(name: impl Into<String>, command: Vec<String>) -> EngineSpec {
        EngineSpec { name: name.into(), command, nodes: None }
    }
}

/// The engines' names made distinct in order: the second `name` becomes `name#2`, the third `name#3`
/// (skipping any such name already taken), so that two engines run from the same program can be told
/// apart in the results and the records.
pub fn distinct_names(names: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(names.len());
    for name in names {
        let mut candidate = name.clone();
        let mut k = 1;
        while out.contains(&candidate) || (k > 1 && names.contains(&candidate)) {
            k += 1;
            candidate = format!("{name}#{k}");
        }
        out.push(candidate);
    }
    out
}

/// Fixtures for the tests of the rooms that play games: a 15x15 game's settings with nothing but a turn
/// limit, and a game's result with no moves.
#[cfg(test)]
pub(crate) mod fixtures {
    use super::*;

    pub(crate) fn settings(rules: Rules, turn_ms: u64) -> GameSettings {
        GameSettings {
            rules,
            width: 15,
            height: 15,
            turn_ms,
            game_ms: 0,
            tolerance_ms: 0,
            start_timeout_ms: 0,
            max_memory: 0,
            threads: 0,
            max_nodes: 0,
            max_stones: 225,
            pause_ms: 0,
            stderr: StderrMode::Ignore,
        }
    }

    pub(crate) fn result(winner: Option<Color>, ending: Ending) -> GameResult {
        let record = GameRecord {
            width: 15,
            height: 15,
            rule: 0,
            black: String::new(),
            white: String::new(),
            setup: [vec![], vec![]],
            moves: vec![],
            opening_len: 0,
            winner,
            reason: String::new(),
        };
        GameResult { record, ending, winner, times: [vec![], vec![]] }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeated_names_are_numbered() {
        let names = |v: &[&str]| distinct_names(&v.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert_eq!(names(&["qx", "qx", "rival", "qx"]), ["qx", "qx#2", "rival", "qx#3"]);
        // A name already given is not taken by a repeat.
        assert_eq!(names(&["qx", "qx", "qx#2"]), ["qx", "qx#3", "qx#2"]);
        assert_eq!(names(&["a", "b"]), ["a", "b"]);
    }
}
