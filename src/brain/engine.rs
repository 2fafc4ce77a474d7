//! The engine: the game being played, the manager's settings, and the player that thinks.
//!
//! The protocol layer parses and prints; the engine owns the state and answers with values. It never
//! writes to stdout. Thinking runs on its own thread ([`Engine::think`] returns at once and calls back
//! with an [`Answer`]), so the protocol can keep reading stdin and set the one stop flag on END, YXSTOP
//! or `INFO timeout_turn 0`.
//!
//! Invariants:
//! - every method that refuses a request (an `Err`) leaves the game exactly as it was;
//! - while a thought is under way the board does not change: the protocol holds other commands back
//!   until [`Engine::finish`] has played the move;
//! - the stop flag is cleared when a thought starts and set by [`Engine::stop`] only.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::brain::analysis::{self, Answer, Task};
use crate::brain::swap2::{self, Swap2Answer};
use crate::game::board::{Board, BoardError, Color, Pos};
use crate::game::rules::{MAX_LINE, MIN_LINE, Rules};
use crate::player::timeman::{Budget, Clock, UNLIMITED_LEFT};
use crate::player::{DEFAULT_MEMORY, Limits, MAX_THREADS, Player, Watch};

/// One typed `INFO` setting (the protocol parses the text).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Info {
    TimeoutTurn(i64),
    TimeoutMatch(i64),
    TimeLeft(i64),
    /// Bytes; 0 = no limit.
    MaxMemory(u64),
    GameType(i64),
    Rule(i64),
    Folder(String),
    /// 0 = the machine's cores.
    ThreadNum(usize),
    /// 0 = no limit.
    MaxDepth(u64),
    /// 0 = no limit.
    MaxNode(u64),
    /// Extension: stones in a row needed to win under freestyle and exact rules.
    LineLength(u8),
    /// Extension: the game (gomoku by the rule mask, Pente or Keryo-Pente).
    Variant(GameVariant),
    /// Yixin-Board: what to show while thinking, bit 1 the realtime lines, bit 2 the detail lines.
    ShowDetail(u8),
    /// Yixin-Board: the hash table's size in KiB.
    HashSize(u64),
}

/// The game `INFO variant` selects.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum GameVariant {
    /// Five in a row by `INFO rule`.
    #[default]
    Gomoku,
    Pente,
    Keryo,
    /// Pente with G-Pente's stricter opening.
    GPente,
}

/// Everything the manager set with INFO.
#[derive(Clone, Debug)]
pub struct Settings {
    pub clock: Clock,
    pub max_memory: u64,
    pub game_type: i64,
    pub rule_mask: i64,
    pub line_length: u8,
    pub folder: Option<String>,
    pub thread_num: usize,
    pub max_depth: u64,
    pub max_node: u64,
    pub variant: GameVariant,
    /// `INFO captures`: stones captured by the side to move and by its opponent, for the next BOARD.
    pub captures: Option<(usize, usize)>,
    /// `INFO show_detail` (Yixin-Board): 1 realtime lines, 2 detail lines, 3 both.
    pub show_detail: u8,
    /// `INFO hash_size` (Yixin-Board), in bytes: the table the player is asked for; `None` (or 0 sent)
    /// lets it size its table from the memory.
    pub hash_size: Option<u64>,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            clock: Clock::default(),
            max_memory: 0,
            game_type: 1,
            rule_mask: 0,
            line_length: 5,
            folder: None,
            thread_num: 0,
            max_depth: 0,
            max_node: 0,
            variant: GameVariant::Gomoku,
            captures: None,
            show_detail: 0,
            hash_size: None,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    NoGame,
    Board(BoardError),
    /// BEGIN on a board that already has stones.
    NotEmpty,
    /// No empty point is left to play.
    BoardFull,
    /// A BOARD whose counts no game reaches: the side to move has as many stones as the opponent, or
    /// one fewer.
    StoneCounts {
        own: usize,
        opponent: usize,
    },
    /// A BOARD line's field is not 1, 2 or 3.
    BadField(i64),
    /// A command that needs the board while a thought is under way.
    Thinking,
    Swap2(String),
    /// The thinking thread could not be started.
    Thread(String),
    /// Pente: a move against the opening rule.
    Illegal(&'static str),
    /// `INFO captures` values no game of the variant reaches.
    Captures(String),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::NoGame => write!(f, "no game: send START first"),
            EngineError::Board(e) => write!(f, "{e}"),
            EngineError::NotEmpty => write!(f, "BEGIN needs an empty board (use BOARD for a position)"),
            EngineError::BoardFull => write!(f, "no empty point left to play"),
            EngineError::StoneCounts { own, opponent } => write!(
                f,
                "impossible position: {own} own and {opponent} opponent stones (own must equal opponent, or be one fewer)"
            ),
            EngineError::BadField(v) => write!(f, "field {v} is not 1 (own), 2 (opponent) or 3 (blocked)"),
            EngineError::Thinking => write!(f, "busy thinking"),
            EngineError::Swap2(e) => write!(f, "{e}"),
            EngineError::Thread(e) => write!(f, "cannot start thinking: {e}"),
            EngineError::Illegal(why) => write!(f, "illegal move: {why}"),
            EngineError::Captures(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for EngineError {}

impl From<BoardError> for EngineError {
    fn from(e: BoardError) -> EngineError {
        EngineError::Board(e)
    }
}

pub struct Engine {
    game: Option<Board>,
    settings: Settings,
    rules: Rules,
    player: Arc<dyn Player>,
    stop: Arc<AtomicBool>,
    worker: Option<JoinHandle<()>>,
    /// The rules changed while a thought was under way: they take effect when it ends.
    rules_changed: bool,
    /// When the thought under way (or the last) was taken up.
    thought_started: Instant,
    /// The match clock before our last move and what we thought on it, ms: the next `time_left` tells
    /// what the manager's clock lost beyond our thought (`Clock::observe`).
    last_move: Option<(i64, i64)>,
}

impl Engine {
    pub fn new(player: Arc<dyn Player>) -> Engine {
        Engine {
            game: None,
            settings: Settings::default(),
            rules: Rules::default(),
            player,
            stop: Arc::new(AtomicBool::new(false)),
            worker: None,
            rules_changed: false,
            thought_started: Instant::now(),
            last_move: None,
        }
    }

    pub fn board(&self) -> Option<&Board> {
        self.game.as_ref()
    }

    pub fn rules(&self) -> Rules {
        self.rules
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    pub fn is_thinking(&self) -> bool {
        self.worker.is_some()
    }

    fn game_mut(&mut self) -> Result<&mut Board, EngineError> {
        if self.worker.is_some() {
            return Err(EngineError::Thinking);
        }
        self.game.as_mut().ok_or(EngineError::NoGame)
    }

    fn game(&self) -> Result<&Board, EngineError> {
        self.game.as_ref().ok_or(EngineError::NoGame)
    }

    /// START / RECTSTART: a new empty board. A refused size keeps the old game.
    pub fn new_game(&mut self, width: i64, height: i64) -> Result<(), EngineError> {
        if self.worker.is_some() {
            return Err(EngineError::Thinking);
        }
        // The settings (time_left included) stay: INFO may come before or after START; the captures
        // of a position do not.
        let mut board = Board::new(width, height)?;
        board.set_capture(self.rules.capture_rule());
        // A cell's index, and so its hash key, stands for another point on a board of another size.
        if self.game.as_ref().is_some_and(|b| (b.width(), b.height()) != (board.width(), board.height())) {
            self.player.clear();
        }
        self.game = Some(board);
        self.settings.captures = None;
        // A new game's clock starts afresh: the last move's says nothing of it.
        self.last_move = None;
        Ok(())
    }

    /// RESTART: the same size, empty again.
    pub fn restart(&mut self) -> Result<(), EngineError> {
        let (w, h) = {
            let b = self.game_mut()?;
            (b.width() as i64, b.height() as i64)
        };
        self.new_game(w, h)
    }

    /// Applies one INFO setting; returns a warning to show the user when a value had to be adjusted.
    pub fn apply(&mut self, info: Info) -> Option<String> {
        let s = &mut self.settings;
        match info {
            Info::TimeoutTurn(v) => {
                s.clock.timeout_turn = v;
                // Piskvork's "stop thinking" button sends `INFO timeout_turn 0` during a search.
                if v == 0 {
                    self.stop();
                }
            }
            Info::TimeoutMatch(v) => s.clock.timeout_match = v,
            Info::TimeLeft(v) => {
                if let Some((before, spent)) = self.last_move.take()
                    && v != UNLIMITED_LEFT
                {
                    s.clock.observe(before, v, spent);
                }
                s.clock.time_left = Some(v);
            }
            Info::MaxMemory(v) => s.max_memory = v,
            Info::GameType(v) => s.game_type = v,
            Info::Folder(v) => s.folder = Some(v),
            Info::ThreadNum(v) if v > MAX_THREADS => {
                s.thread_num = MAX_THREADS;
                return Some(format!("thread_num {v} capped: {MAX_THREADS} threads at most"));
            }
            Info::ThreadNum(v) => {
                s.thread_num = v;
                if v > cores() {
                    return Some(format!(
                        "thread_num {v}: this machine has {} cores, and searches on them",
                        cores()
                    ));
                }
            }
            Info::MaxDepth(v) => s.max_depth = v,
            Info::MaxNode(v) => s.max_node = v,
            Info::Rule(v) => {
                s.rule_mask = v;
                let warning = Rules::from_mask(v, s.line_length).1;
                self.update_rules();
                return warning;
            }
            Info::LineLength(k) => {
                if !(MIN_LINE..=MAX_LINE).contains(&k) {
                    return Some(format!("line_length {k} ignored: must be {MIN_LINE} to {MAX_LINE}"));
                }
                s.line_length = k;
                self.update_rules();
            }
            Info::Variant(v) => {
                s.variant = v;
                self.update_rules();
            }
            Info::ShowDetail(v) => {
                if v > 3 {
                    return Some(format!("show_detail {v} ignored: must be 0 to 3"));
                }
                s.show_detail = v;
            }
            Info::HashSize(kib) => s.hash_size = (kib > 0).then(|| kib.saturating_mul(1 << 10)),
        }
        None
    }

    /// The rules from the settings: the variant decides, the mask and line length apply to gomoku.
    /// During a thought they wait for its end: the search under way still writes the table, and an
    /// entry it wrote under the old rules must not survive the clearing.
    fn update_rules(&mut self) {
        if self.worker.is_some() {
            self.rules_changed = true;
            return;
        }
        let s = &self.settings;
        let before = self.rules;
        self.rules = match s.variant {
            GameVariant::Gomoku => Rules::from_mask(s.rule_mask, s.line_length).0,
            GameVariant::Pente => Rules::pente(false),
            GameVariant::Keryo => Rules::pente(true),
            GameVariant::GPente => Rules::g_pente(),
        };
        // The game under way captures from now on, or stops capturing.
        if let Some(b) = self.game.as_mut() {
            b.set_capture(self.rules.capture_rule());
        }
        if self.rules != before {
            // Values searched under the old rules (a double four that wins in freestyle is a renju
            // foul) must not answer for the same stones now.
            self.player.clear();
        }
        self.player.prepare(&self.rules);
    }

    /// `INFO captures A,B`: the stones the side to move (A) and its opponent (B) have captured, for
    /// the next BOARD. Refused when the game does not capture, or no game of it reaches the counts.
    pub fn set_captures(&mut self, own: usize, opp: usize) -> Result<(), EngineError> {
        let Some(rule) = self.rules.capture_rule() else {
            return Err(EngineError::Captures(
                "INFO captures needs a capturing game (INFO variant pente or keryo)".into(),
            ));
        };
        for n in [own, opp] {
            if n >= rule.to_win as usize {
                return Err(EngineError::Captures(format!(
                    "INFO captures {own},{opp}: {n} captured stones have already won (the game needs {})",
                    rule.to_win
                )));
            }
            // Pairs only in Pente; pairs and triples in Keryo make every count but 1.
            let reachable = if rule.max == 2 { n % 2 == 0 } else { n != 1 };
            if !reachable {
                return Err(EngineError::Captures(format!(
                    "INFO captures {own},{opp}: no capture of {} gives {n} stones",
                    if rule.max == 2 { "pairs" } else { "pairs and triples" }
                )));
            }
        }
        self.settings.captures = Some((own, opp));
        Ok(())
    }

    /// BEGIN: checks that we may play the first move.
    pub fn begin(&mut self) -> Result<(), EngineError> {
        let b = self.game_mut()?;
        if b.stone_count() != 0 {
            return Err(EngineError::NotEmpty);
        }
        Ok(())
    }

    /// TURN: the opponent's move.
    pub fn opponent_move(&mut self, x: i64, y: i64) -> Result<Pos, EngineError> {
        self.check_opening(x, y)?;
        let p = self.game_mut()?.try_play(x, y)?;
        Ok(p)
    }

    /// BOARD / YXBOARD: replaces the position. Field 1 is the side to move's stone, 2 the opponent's,
    /// 3 a blocked cell; the side to move is black when both have placed as many stones (under
    /// captures, stones on the board plus those the other side captured, from `INFO captures`).
    pub fn set_position(&mut self, stones: &[(i64, i64, i64)]) -> Result<(), EngineError> {
        let (took, lost) = self.settings.captures.unwrap_or((0, 0));
        let b = self.game_mut()?;
        let (mut own, mut opp, mut walls) = (vec![], vec![], vec![]);
        for &(x, y, field) in stones {
            let p = b.pos(x, y).ok_or(BoardError::OffBoard { x, y })?;
            match field {
                1 => own.push(p),
                2 => opp.push(p),
                3 => walls.push(p),
                v => return Err(EngineError::BadField(v)),
            }
        }
        // Own stones are the side to move's: black when the counts are equal, white when the opponent
        // has one more; no game reaches anything else.
        let (placed_own, placed_opp) = (own.len() + lost, opp.len() + took);
        let (black, white, captured) = if placed_own == placed_opp {
            (own, opp, [took, lost])
        } else if placed_opp == placed_own + 1 {
            (opp, own, [lost, took])
        } else {
            return Err(EngineError::StoneCounts { own: placed_own, opponent: placed_opp });
        };
        b.set_position(&black, &white, &walls)?;
        b.set_captured(captured);
        self.settings.captures = None;
        Ok(())
    }

    /// TAKEBACK: removes the last move, which must be the point named.
    pub fn take_back(&mut self, x: i64, y: i64) -> Result<(), EngineError> {
        let b = self.game_mut()?;
        let p = b.pos(x, y).ok_or(BoardError::OffBoard { x, y })?;
        b.take_back(p)?;
        Ok(())
    }

    /// PLAY (the manager's answer to SUGGEST): our move is given; play it.
    pub fn play_given(&mut self, x: i64, y: i64) -> Result<Pos, EngineError> {
        self.check_opening(x, y)?;
        self.game_mut()?.try_play(x, y).map_err(EngineError::from)
    }

    /// Pente's opening rule for a move from outside.
    fn check_opening(&self, x: i64, y: i64) -> Result<(), EngineError> {
        if let Some(b) = self.game.as_ref()
            && let Some(p) = b.pos(x, y)
            && b.is_empty(p)
            && let Some(why) = self.rules.opening_error(b, p)
        {
            return Err(EngineError::Illegal(why));
        }
        Ok(())
    }

    /// Starts thinking about `task` for the side to move; `done` is called on the thinking thread with
    /// the answer, and `watch`, if any, while it thinks. `start` is when the command was read: the time
    /// budget runs from then.
    pub fn think(
        &mut self,
        start: Instant,
        task: Task,
        watch: Option<Watch>,
        done: impl FnOnce(Answer) + Send + 'static,
    ) -> Result<(), EngineError> {
        let board = self.game_mut()?.clone();
        if board.is_full() {
            return Err(EngineError::BoardFull);
        }
        let empty = board.empty_count();
        let s = &self.settings;
        let limits = Limits {
            table: s.hash_size,
            max_depth: (s.max_depth > 0).then_some(s.max_depth),
            max_nodes: (s.max_node > 0).then_some(s.max_node),
            watch,
            ..Limits::new(
                Budget::new(&s.clock, start, empty, &self.player.time_shares()),
                // More threads than cores only slow the stop: each helper must be scheduled to see it
                // (256 threads on one loaded core answered 615 ms past the hard limit).
                if s.thread_num > 0 { s.thread_num.min(cores()) } else { cores() },
                if s.max_memory > 0 { s.max_memory } else { DEFAULT_MEMORY },
            )
        };
        self.thought_started = start;
        let rules = self.rules;
        let player = Arc::clone(&self.player);
        let stop = Arc::clone(&self.stop);
        stop.store(false, Ordering::Relaxed);
        let handle = std::thread::Builder::new()
            .name("think".into())
            .spawn(move || {
                // A player that panics must not leave the manager waiting for ever: the answer still
                // comes, as a fault, and `finish` plays a legal move instead.
                let run = || analysis::run(player.as_ref(), &board, &rules, &limits, &stop, task);
                let answer =
                    std::panic::catch_unwind(std::panic::AssertUnwindSafe(run)).unwrap_or_else(|payload| {
                        Answer { fault: Some(panic_text(&*payload)), ..Answer::default() }
                    });
                report_overrun(&limits.budget);
                done(answer);
            })
            .map_err(|e| EngineError::Thread(e.to_string()))?;
        self.worker = Some(handle);
        Ok(())
    }

    /// Asks the thought under way, if any, to end now.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Ends a thought: waits for its thread and plays its move (and `YXBALANCETWO`'s second stone).
    /// Returns the moves played, or an error when the player found none (a full board).
    pub fn finish(&mut self, answer: &Answer) -> Result<Vec<Pos>, EngineError> {
        if let Some(h) = self.worker.take() {
            // The thread has called back already; joining only reaps it. A panic in a player must not
            // take the brain down: fall back to any legal move below.
            let _ = h.join();
        }
        let played = self.play_answer(answer);
        let spent = self.thought_started.elapsed().as_millis().min(i64::MAX as u128) as i64;
        self.last_move = self.settings.clock.time_left.filter(|&l| l != UNLIMITED_LEFT).map(|l| (l, spent));
        // Rules sent during the thought apply from now on: the move played was found under the old.
        if std::mem::take(&mut self.rules_changed) {
            self.update_rules();
        }
        played
    }

    fn play_answer(&mut self, answer: &Answer) -> Result<Vec<Pos>, EngineError> {
        let rules = self.rules;
        let b = self.game.as_mut().ok_or(EngineError::NoGame)?;
        let mv = answer.thought.mv.filter(|&p| b.is_empty(p)).or_else(|| rules.any_legal_move(b));
        let p = mv.ok_or(EngineError::BoardFull)?;
        b.play_unchecked(p);
        let mut played = vec![p];
        if let Some(q) = answer.second.filter(|&q| b.is_empty(q)) {
            b.play_unchecked(q);
            played.push(q);
        }
        Ok(played)
    }

    /// YXSHOWFORBID: black's forbidden points (none outside renju).
    pub fn forbidden_points(&self) -> Result<Vec<Pos>, EngineError> {
        Ok(self.rules.forbidden_points(self.game()?))
    }

    /// YXHASHCLEAR.
    pub fn clear_hash(&self) {
        self.player.clear();
    }

    /// SWAP2BOARD: the opening stones so far (in order, black first); answers the swap2 decision and
    /// sets the board to the position it leads to.
    pub fn swap2(&mut self, stones: &[(i64, i64)]) -> Result<Swap2Answer, EngineError> {
        let rules = self.rules;
        let b = self.game_mut()?;
        let mut next = Board::new(b.width() as i64, b.height() as i64)?;
        for &(x, y) in stones {
            next.try_play(x, y)?;
        }
        let answer = swap2::decide(&next, &rules).map_err(EngineError::Swap2)?;
        if let Swap2Answer::Stones(moves) = &answer {
            for &p in moves {
                next.play_unchecked(p);
            }
        }
        *b = next;
        Ok(answer)
    }

    /// The colour the side to move plays (for messages and tests).
    pub fn side_to_move(&self) -> Option<Color> {
        self.game.as_ref().map(Board::side_to_move)
    }
}

/// The cores this process may run on (its affinity and quota counted): the most threads a thought uses.
fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// What a panic said, for the `MESSAGE` that tells of it.
fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    let said = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".into());
    format!("the player failed ({said}); a legal move is played instead")
}

/// How far past the budget's hard limit a thought may return before it is worth a warning: the stop
/// flag is looked at every few nodes, so a few milliseconds past it are the normal way of stopping.
const OVERRUN_WARNING: Duration = Duration::from_millis(20);

/// Tells stderr how long a thought took, and warns when it ran well past its hard limit. A late answer
/// at a tournament is then told apart in the log: a search slow to stop shows here, while an answer
/// that waited for a loaded machine after the search shows only in the manager's time.
fn report_overrun(budget: &Budget) {
    let took = budget.elapsed();
    log::debug!("thought for {} ms", took.as_millis());
    if let Some(hard) = budget.hard
        && took > hard + OVERRUN_WARNING
    {
        log::warn!(
            "thought for {} ms, {} ms past the hard limit of {} ms",
            took.as_millis(),
            (took - hard).as_millis(),
            hard.as_millis()
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player::Thought;
    use crate::player::timeman::TimeShares;
    use std::sync::atomic::AtomicUsize;

    /// A player that only counts how often it was told to forget.
    #[derive(Default)]
    struct Forgetful {
        clears: AtomicUsize,
    }

    impl Player for Forgetful {
        fn name(&self) -> String {
            "forgetful".into()
        }
        fn think(&self, _: &Board, _: &Rules, _: &Limits, _: &AtomicBool) -> Thought {
            Thought::default()
        }
        fn clear(&self) {
            self.clears.fetch_add(1, Ordering::Relaxed);
        }
    }

    #[test]
    fn the_table_is_forgotten_when_the_rules_or_the_board_size_change() {
        let player = Arc::new(Forgetful::default());
        let mut engine = Engine::new(player.clone());
        let clears = || player.clears.load(Ordering::Relaxed);
        engine.new_game(15, 15).expect("START 15");
        engine.new_game(15, 15).expect("START 15 again");
        assert_eq!(engine.apply(Info::Rule(0)), None);
        assert_eq!(clears(), 0, "same size, same rules: the table stays");
        engine.apply(Info::LineLength(4));
        assert_eq!(clears(), 1, "five to four in a row");
        engine.apply(Info::Rule(4));
        assert_eq!(clears(), 2, "freestyle to renju");
        engine.apply(Info::LineLength(5));
        assert_eq!(clears(), 2, "renju is five in a row whatever the line length says");
        engine.new_game(20, 20).expect("START 20");
        assert_eq!(clears(), 3, "15x15 to 20x20");
        engine.restart().expect("RESTART");
        assert_eq!(clears(), 3, "the same board again");
    }

    /// A player that thinks until it is let go, and notes what it was told.
    #[derive(Default)]
    struct Held {
        go: AtomicBool,
        started: AtomicBool,
        thinking: AtomicBool,
        clears: AtomicUsize,
        clears_while_thinking: AtomicUsize,
        limits: std::sync::Mutex<Option<Limits>>,
        /// Its own shares of a match clock, if not the default ones.
        shares: Option<TimeShares>,
    }

    impl Player for Held {
        fn name(&self) -> String {
            "held".into()
        }
        fn think(&self, b: &Board, _: &Rules, limits: &Limits, _: &AtomicBool) -> Thought {
            *self.limits.lock().unwrap() = Some(limits.clone());
            self.thinking.store(true, Ordering::SeqCst);
            self.started.store(true, Ordering::SeqCst);
            while !self.go.load(Ordering::SeqCst) {
                std::thread::sleep(Duration::from_millis(1));
            }
            self.thinking.store(false, Ordering::SeqCst);
            Thought { mv: b.points().find(|&p| b.is_empty(p)), ..Thought::default() }
        }
        fn clear(&self) {
            self.clears.fetch_add(1, Ordering::SeqCst);
            if self.thinking.load(Ordering::SeqCst) {
                self.clears_while_thinking.fetch_add(1, Ordering::SeqCst);
            }
        }
        fn time_shares(&self) -> TimeShares {
            self.shares.unwrap_or(TimeShares::DEFAULT)
        }
    }

    /// Thinks with `player` on an empty 15x15 board and returns the answer when `during` has run.
    fn think_through(engine: &mut Engine, player: &Held, during: impl FnOnce(&mut Engine)) -> Vec<Pos> {
        let (tx, rx) = std::sync::mpsc::channel();
        engine.think(Instant::now(), Task::Move, None, move |a| tx.send(a).unwrap()).expect("thinks");
        while !player.started.load(Ordering::SeqCst) {
            std::thread::sleep(Duration::from_millis(1));
        }
        during(engine);
        player.go.store(true, Ordering::SeqCst);
        let answer = rx.recv().expect("an answer");
        engine.finish(&answer).expect("a move")
    }

    #[test]
    fn a_rule_sent_during_a_thought_clears_the_table_after_it() {
        let player = Arc::new(Held::default());
        let mut engine = Engine::new(player.clone());
        engine.new_game(15, 15).expect("START 15");
        think_through(&mut engine, &player, |e| {
            e.apply(Info::Rule(4));
            assert_eq!(e.rules(), Rules::default(), "the thought's rules hold until it ends");
        });
        assert_eq!(player.clears_while_thinking.load(Ordering::SeqCst), 0, "the search still writes it");
        assert_eq!(player.clears.load(Ordering::SeqCst), 1, "cleared once the thought is over");
        assert_eq!(engine.rules(), Rules::from_mask(4, 5).0, "renju from the next thought on");
    }

    #[test]
    fn the_match_clock_s_loss_beyond_our_thought_is_learnt_move_by_move() {
        let player = Arc::new(Held::default());
        let mut engine = Engine::new(player.clone());
        engine.new_game(15, 15).expect("START 15");
        player.go.store(true, Ordering::SeqCst);
        engine.apply(Info::TimeLeft(10_000));
        let before = engine.settings().clock.overhead;
        think_through(&mut engine, &player, |_| {});
        // The manager's clock lost half a second on a move we answered at once.
        engine.apply(Info::TimeLeft(9_500));
        let after = engine.settings().clock.overhead;
        assert!(after > before + 80, "{before} -> {after}");
        // A new game's first time_left is no move's cost.
        engine.new_game(15, 15).expect("START 15");
        engine.apply(Info::TimeLeft(1_000));
        assert_eq!(engine.settings().clock.overhead, after);
    }

    #[test]
    fn each_move_shares_the_match_clock_as_the_player_says() {
        let hard = |shares: Option<TimeShares>| {
            let player = Arc::new(Held { shares, ..Held::default() });
            let mut engine = Engine::new(player.clone());
            engine.new_game(15, 15).expect("START 15");
            engine.apply(Info::TimeoutTurn(0));
            engine.apply(Info::TimeoutMatch(100_000));
            player.go.store(true, Ordering::SeqCst);
            think_through(&mut engine, &player, |_| {});
            let limits = player.limits.lock().unwrap().clone().expect("thought");
            limits.budget.hard.expect("a match clock")
        };
        // A sixth of the clock at most by default, a twelfth when the player says so.
        let twelfth = TimeShares { hard_moves: 12, ..TimeShares::DEFAULT };
        assert!(hard(Some(twelfth)) * 3 < hard(None) * 2, "{:?} {:?}", hard(Some(twelfth)), hard(None));
    }

    #[test]
    fn hash_size_asks_the_player_for_a_table_and_leaves_the_memory_alone() {
        let player = Arc::new(Held::default());
        let mut engine = Engine::new(player.clone());
        engine.new_game(15, 15).expect("START 15");
        assert_eq!(engine.apply(Info::HashSize(8192)), None);
        player.go.store(true, Ordering::SeqCst);
        think_through(&mut engine, &player, |_| {});
        let limits = player.limits.lock().unwrap().clone().expect("thought");
        assert_eq!(limits.table, Some(8 << 20));
        assert_eq!(limits.memory, DEFAULT_MEMORY);
    }

    /// A player that panics whenever it is asked to think.
    struct Panicky;

    impl Player for Panicky {
        fn name(&self) -> String {
            "panicky".into()
        }
        fn think(&self, _: &Board, _: &Rules, _: &Limits, _: &AtomicBool) -> Thought {
            panic!("a bug in the player");
        }
    }

    /// The protocol's answers to `input` with `player`, under a watchdog: a hung loop fails the test.
    fn session(player: Arc<dyn Player>, input: &str) -> Vec<String> {
        let (tx, rx) = std::sync::mpsc::channel();
        let input = input.as_bytes().to_vec();
        std::thread::spawn(move || {
            let mut out = Vec::new();
            let r = crate::brain::protocol::run(std::io::Cursor::new(input), &mut out, Engine::new(player));
            let _ = tx.send((r.is_ok(), out));
        });
        let (ok, out) = rx.recv_timeout(Duration::from_secs(10)).expect("the brain answers and exits");
        assert!(ok, "protocol I/O");
        String::from_utf8_lossy(&out).lines().map(String::from).collect()
    }

    #[test]
    fn a_player_that_panics_still_gets_a_legal_move_answered_and_the_next_command_served() {
        // The fallback is the first legal point in reading order (`Rules::any_legal_move`).
        let answers = session(Arc::new(Panicky), "START 15\nBEGIN\nTURN 7,7\nEND\n");
        let moves: Vec<&String> = answers.iter().filter(|l| !l.starts_with("MESSAGE")).collect();
        assert_eq!(moves, ["OK", "0,0", "1,0"], "{answers:?}");
        let messages = answers.iter().filter(|l| l.starts_with("MESSAGE ")).count();
        assert_eq!(messages, 2, "each fault told once: {answers:?}");
    }

    /// A player that thinks a while and notes when each thought's clock started and when it ended.
    #[derive(Default)]
    struct Slow {
        thoughts: std::sync::Mutex<Vec<(Instant, Instant)>>,
    }

    impl Player for Slow {
        fn name(&self) -> String {
            "slow".into()
        }
        fn think(&self, b: &Board, rules: &Rules, limits: &Limits, _: &AtomicBool) -> Thought {
            std::thread::sleep(Duration::from_millis(30));
            self.thoughts.lock().unwrap().push((limits.budget.start, Instant::now()));
            Thought { mv: rules.any_legal_move(b), ..Thought::default() }
        }
    }

    #[test]
    fn piped_commands_start_their_clocks_when_taken_up_not_when_read() {
        // All of it is read at once; each TURN waits for the thought before it, as under a manager.
        let player = Arc::new(Slow::default());
        let input = "START 15\nINFO timeout_turn 1000\nBEGIN\nTURN 8,8\nTURN 6,6\nYXNBEST 2\nEND\n";
        let answers = session(player.clone(), input);
        assert_eq!(answers.iter().filter(|l| !l.starts_with("MESSAGE")).count(), 5, "{answers:?}");
        let thoughts = player.thoughts.lock().unwrap();
        assert!(thoughts.len() >= 4, "{thoughts:?}");
        for pair in thoughts.windows(2) {
            let ((_, ended), (started, _)) = (pair[0], pair[1]);
            assert!(started >= ended, "a clock ran while the thought before it went on");
        }
    }

    #[test]
    fn thread_num_is_capped_at_the_advertised_maximum_and_a_thought_at_the_cores() {
        let player = Arc::new(Held::default());
        let mut engine = Engine::new(player.clone());
        assert_eq!(engine.apply(Info::ThreadNum(1)), None);
        assert!(engine.apply(Info::ThreadNum(MAX_THREADS + 1)).is_some(), "a capped value is reported");
        assert_eq!(engine.settings().thread_num, MAX_THREADS);
        engine.new_game(15, 15).expect("START 15");
        player.go.store(true, Ordering::SeqCst);
        think_through(&mut engine, &player, |_| {});
        let limits = player.limits.lock().unwrap().clone().expect("thought");
        assert_eq!(limits.threads, cores(), "no more threads than cores");
    }
}
