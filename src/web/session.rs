//! The board's session: the game, who plays which side, the mode (play, analyse, set up), the one
//! thought under way, run on the session's engine thread, and the game the board watches others play
//! (two brains' game, [`crate::web::duel`], or a followed match's, [`crate::web::follow`]). Every
//! change is published to the pages as the whole state ([`View`]), so a page only ever draws what it
//! is sent.
//!
//! Invariants: at most one thought (a move, an analysis, the chart or two brains' game) runs at a
//! time, on the engine thread; a thought's findings count only while it is the session's current one
//! (a change of the position or the mode stops it and makes it stale); when the last page goes, the
//! thought is stopped and no new one starts until a page or a request comes back, but two brains'
//! game, which has a clock, plays on. While a watched game is under way nothing changes it by hand:
//! its moves come only from its players, and the person may step through them.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex, MutexGuard};

use serde::Serialize;

use crate::eval::score::score_text;
use crate::game::board::{Color, Pos};
use crate::game::rules::Rules;
use crate::tools::analyze::on_chart;
use crate::tools::record::read::Replayed;
use crate::web::chart::{self, Chart};
use crate::web::duel::{self, Roster};
use crate::web::game::{Ending, Game, GameError};
use crate::web::seat::{Engine, Heard, Job, Limit, Line, Tell};

/// What the page is told of the followed match's file ([`crate::web::follow`]); `version` grows when
/// the list of games changes (a game begins or ends), so the page asks for the list again.
#[derive(Clone, Debug, Serialize)]
pub struct FollowStatus {
    pub file: String,
    pub version: u64,
    pub games: usize,
    /// The file is not there yet (the match has not started).
    pub missing: bool,
    /// The first line that could not be read.
    pub error: Option<String>,
}
/// Who the person plays in a game; the engine plays the rest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Human {
    Black,
    White,
    /// Both sides: the engine only watches.
    Both,
    /// Neither: the engine plays itself.
    Neither,
}

impl Human {
    /// Whether the person plays `c`.
    pub fn plays(self, c: Color) -> bool {
        match self {
            Human::Black => c == Color::Black,
            Human::White => c == Color::White,
            Human::Both => true,
            Human::Neither => false,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// A game: the engine answers on its turns.
    Play,
    /// The engine thinks about the position until stopped, showing its best lines.
    Analyse,
    /// Clicks set stones by hand; the engine rests.
    Setup,
}

/// What the engine thread is given.
enum Work {
    Think(Job),
    Chart { game: Replayed, winner: Option<Color>, time_ms: u64 },
    Duel(duel::Job),
}

/// Who plays a game the board watches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// Two brains on the engine thread, in the thought of this id.
    Duel(u64),
    /// The game of this number in the followed match.
    Match(usize),
}

/// The game the board watches, and whether it is under way (its moves still come).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Watching {
    pub source: Source,
    pub live: bool,
}

/// The thought under way.
struct Running {
    id: u64,
    stop: Arc<AtomicBool>,
    kind: &'static str,
}

/// The mutable part of a session.
pub struct State {
    pub game: Game,
    pub human: Human,
    pub time_ms: u64,
    pub mode: Mode,
    pub nbest: usize,
    running: Option<Running>,
    next_id: u64,
    best: Option<Line>,
    lines: Vec<Line>,
    /// The engine's last evaluation of the game, black's view, clipped for the bar: it stays while
    /// the game goes on (a move's search ends its line, not what it thought).
    eval: Option<i32>,
    /// The engine's last complaint, or what the chart is doing.
    note: String,
    chart: Option<Chart>,
    /// The game the board watches others play, if it does.
    pub watching: Option<Watching>,
    /// The followed match's file, as the page is told of it.
    pub follow: Option<FollowStatus>,
    /// Pages watching the events; none: thoughts rest.
    watchers: usize,
    resting: bool,
    version: u64,
}

impl State {
    /// Replaces the game (a new one, an opened record): the old game's chart goes with it.
    pub fn replace_game(&mut self, game: Game) {
        self.game = game;
        self.chart = None;
        self.eval = None;
        self.watching = None;
    }

    /// Refused while a watched game is under way: its moves come from its players alone.
    pub fn by_hand(&self) -> Result<(), GameError> {
        match self.watching {
            Some(Watching { source: Source::Duel(_), live: true }) => {
                Err(GameError("the engines are playing this game: Stop it first".into()))
            }
            Some(Watching { source: Source::Match(_), live: true }) => {
                Err(GameError("the match is playing this game: Stop following it first".into()))
            }
            _ => Ok(()),
        }
    }

    /// Shows `game` as a game others play: the person watches both sides; a game over has the chart
    /// of its engines' evaluations.
    pub fn watch(&mut self, game: Game, source: Source, live: bool) {
        self.replace_game(game);
        self.watching = Some(Watching { source, live });
        self.mode = Mode::Play;
        self.human = Human::Both;
        if !live {
            self.chart = chart::of_notes(&self.game);
        }
    }

    /// Whether the thought under way is two brains' game the board still watches.
    fn duel_on(&self) -> bool {
        let Some(r) = &self.running else { return false };
        self.watching == Some(Watching { source: Source::Duel(r.id), live: true })
    }

    /// Sets up a stone (see `Game::set_up`): the position is another game, and its chart is gone.
    pub fn set_up(&mut self, x: i64, y: i64, stone: Option<Color>) -> Result<(), GameError> {
        self.by_hand()?;
        self.game.set_up(x, y, stone)?;
        self.chart = None;
        self.eval = None;
        self.watching = None;
        Ok(())
    }
}

/// A session shared by the server's handlers and the engine thread.
pub struct Session {
    state: Mutex<State>,
    engine: Arc<dyn Engine>,
    roster: Roster,
    work: Mutex<Sender<(u64, Arc<AtomicBool>, Work)>>,
    publish: Box<dyn Fn(String) + Send + Sync>,
}

/// The default time of an engine's move, ms.
pub const DEFAULT_TIME_MS: u64 = 1000;

impl Session {
    /// A session with `game` (none: freestyle's) in which the person plays black, and brains from
    /// `roster` to set against each other; `publish` is given every new state as JSON. Starts the
    /// engine thread.
    pub fn start(
        engine: Arc<dyn Engine>,
        roster: Roster,
        game: Option<Game>,
        publish: Box<dyn Fn(String) + Send + Sync>,
    ) -> Arc<Session> {
        let (send, work) = channel();
        let session = Arc::new(Session {
            state: Mutex::new(State {
                game: game.unwrap_or_else(|| Game::default_for(Rules::default())),
                human: Human::Black,
                time_ms: DEFAULT_TIME_MS,
                mode: Mode::Play,
                nbest: 3,
                running: None,
                next_id: 1,
                best: None,
                eval: None,
                lines: vec![],
                note: String::new(),
                chart: None,
                watching: None,
                follow: None,
                watchers: 0,
                resting: false,
                version: 0,
            }),
            engine,
            roster,
            work: Mutex::new(send),
            publish,
        });
        let weak = Arc::downgrade(&session);
        let _ =
            std::thread::Builder::new().name("board-engine".into()).spawn(move || engine_thread(weak, work));
        session
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A handler that panicked mid-change cannot leave the game half-changed (every change is
        // checked before it is made), so the state is still good.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Changes the session with `f` and, when it succeeds, restarts the engine's thinking for the new
    /// state and publishes it. A refused change leaves everything as it was.
    pub fn change<T>(&self, f: impl FnOnce(&mut State) -> Result<T, GameError>) -> Result<T, GameError> {
        let mut s = self.lock();
        let v = f(&mut s)?;
        s.resting = false;
        self.restart(&mut s);
        self.publish_locked(&mut s);
        Ok(v)
    }

    /// Stops the thought under way, if any (its findings are dropped), unless it is two brains' game
    /// the board still watches, and starts what the new state asks for.
    fn restart(&self, s: &mut State) {
        if s.duel_on() {
            return;
        }
        if let Some(r) = s.running.take() {
            r.stop.store(true, Ordering::Relaxed);
        }
        s.best = None;
        s.lines.clear();
        self.kick(s);
    }

    /// Starts the engine when the state asks for it and nothing runs.
    fn kick(&self, s: &mut State) {
        if s.running.is_some() || s.resting || s.game.ending().is_some() {
            return;
        }
        let board = s.game.board();
        let limit = match s.mode {
            Mode::Play if !s.human.plays(board.side_to_move()) => Limit::Move(s.time_ms),
            Mode::Analyse => Limit::UntilStopped,
            _ => return,
        };
        // A game's move is one search; only the analysis lists the N best.
        let (kind, nbest) = if limit == Limit::UntilStopped { ("analysis", s.nbest) } else { ("move", 1) };
        let job = Job { board, rules: s.game.rules, limit, nbest };
        self.send(s, kind, Work::Think(job));
    }

    fn send(&self, s: &mut State, kind: &'static str, work: Work) {
        let (id, stop) = (s.next_id, Arc::new(AtomicBool::new(false)));
        s.next_id += 1;
        let sent = self.work.lock().map(|w| w.send((id, Arc::clone(&stop), work)).is_ok()).unwrap_or(false);
        if sent {
            s.running = Some(Running { id, stop, kind });
        } else {
            s.note = "the engine thread has stopped".into();
        }
    }

    /// Stops the thought under way. Stop ends an analysis, not the game: the mode goes back to play
    /// with the sides as they were, and the engine moves if it is its turn. It ends two brains' game
    /// (after the answer under way), and the following of a match's game (which plays on).
    pub fn stop(&self) {
        let mut s = self.lock();
        if let Some(w) = s.watching.as_mut().filter(|w| matches!(w.source, Source::Match(_))) {
            w.live = false;
        }
        if let Some(r) = s.running.take() {
            r.stop.store(true, Ordering::Relaxed);
        }
        if s.mode == Mode::Analyse {
            s.mode = Mode::Play;
            self.restart(&mut s);
        }
        self.publish_locked(&mut s);
    }

    /// Analyses the game as it stands (all its moves) into the chart, at `time_ms` a position.
    pub fn chart(&self, time_ms: u64) -> Result<(), GameError> {
        let mut s = self.lock();
        s.by_hand()?;
        if s.game.moves.is_empty() {
            return Err(GameError("no moves to analyse".into()));
        }
        if let Some(r) = s.running.take() {
            r.stop.store(true, Ordering::Relaxed);
        }
        let at_end = Game { cursor: s.game.moves.len(), ..s.game.clone() };
        let winner = at_end.ending().and_then(|e| e.winner);
        let game = Replayed {
            rules: s.game.rules,
            start: s.game.start.clone(),
            moves: s.game.moves.clone(),
            decided: winner,
        };
        s.chart = None;
        s.note = "analysing the game for the chart".into();
        s.resting = false;
        self.send(&mut s, "chart", Work::Chart { game, winner, time_ms });
        self.publish_locked(&mut s);
        Ok(())
    }

    /// Sets engines `seats` (black's and white's numbers in the roster) to play `game` (a new board),
    /// or with none, the board's game from its moves up to the cursor.
    pub fn duel(
        &self,
        game: Option<Game>,
        seats: [usize; 2],
        turn_ms: Option<u64>,
        game_ms: Option<u64>,
    ) -> Result<(), GameError> {
        let mut s = self.lock();
        s.by_hand()?;
        let mut game = game.unwrap_or_else(|| s.game.up_to_cursor());
        let job = self.roster.job(&game, seats, turn_ms, game_ms)?;
        game.names = job.seats.clone().map(|e| e.name);
        game.notes = vec![None; game.moves.len()];
        if let Some(r) = s.running.take() {
            r.stop.store(true, Ordering::Relaxed);
        }
        s.best = None;
        s.lines.clear();
        s.resting = false;
        s.note.clear();
        let id = s.next_id;
        s.watch(game, Source::Duel(id), true);
        self.send(&mut s, "duel", Work::Duel(job));
        if s.running.is_none() {
            s.watching = None;
        }
        self.publish_locked(&mut s);
        Ok(())
    }

    /// Brings the watched game up to date when `source` is still the game the board watches and it is
    /// under way: `update` adds its new moves and says whether it is over (then the chart of its
    /// engines' evaluations is drawn).
    pub fn update_watched(&self, source: Source, update: impl FnOnce(&mut Game) -> bool) {
        let mut s = self.lock();
        if s.watching != Some(Watching { source, live: true }) {
            return;
        }
        if update(&mut s.game) {
            s.watching = Some(Watching { source, live: false });
            s.chart = chart::of_notes(&s.game);
        }
        self.publish_locked(&mut s);
    }

    /// The number of the followed match's game the board shows while it is under way.
    pub fn watched_match(&self) -> Option<usize> {
        match self.lock().watching {
            Some(Watching { source: Source::Match(n), live: true }) => Some(n),
            _ => None,
        }
    }

    /// The followed match's file has news for the page (a game began or ended, a line was bad).
    pub fn follow_news(&self, status: FollowStatus) {
        let mut s = self.lock();
        s.follow = Some(status);
        self.publish_locked(&mut s);
    }

    /// A page started watching.
    pub fn watcher_came(&self) {
        let mut s = self.lock();
        s.watchers += 1;
        s.resting = false;
        self.kick(&mut s);
        self.publish_locked(&mut s);
    }

    /// A page stopped watching: with none left, the thought stops and the engine rests.
    pub fn watcher_left(&self) {
        let mut s = self.lock();
        s.watchers = s.watchers.saturating_sub(1);
        if s.watchers == 0 && !s.duel_on() {
            if let Some(r) = s.running.take() {
                r.stop.store(true, Ordering::Relaxed);
            }
            s.resting = true;
        }
    }

    /// Stops everything for good (the server is going).
    pub fn close(&self) {
        let mut s = self.lock();
        if let Some(r) = s.running.take() {
            r.stop.store(true, Ordering::Relaxed);
        }
        s.resting = true;
    }

    /// The state as the page reads it.
    pub fn view(&self) -> String {
        let s = self.lock();
        serde_json::to_string(&View::of(&s, &self.engine.name(), &self.roster)).unwrap_or_default()
    }

    /// The game's record in `format`.
    pub fn record(&self, format: crate::web::game::Format) -> Result<String, GameError> {
        self.lock().game.record(format)
    }

    fn publish_locked(&self, s: &mut State) {
        s.version += 1;
        let json = serde_json::to_string(&View::of(s, &self.engine.name(), &self.roster)).unwrap_or_default();
        (self.publish)(json);
    }

    /// What the engine thread heard for thought `id`.
    fn heard(&self, id: u64, h: Heard) {
        let mut s = self.lock();
        if s.running.as_ref().is_none_or(|r| r.id != id) {
            return;
        }
        match h {
            Heard::Best(line) => {
                s.eval = black_view(&s, &line).or(s.eval);
                s.best = Some(line);
            }
            Heard::Lines(lines) => {
                if let Some(first) = lines.first() {
                    s.eval = black_view(&s, first).or(s.eval);
                    s.best = Some(first.clone());
                }
                s.lines = lines;
            }
            Heard::Move(Some(p)) if s.mode == Mode::Play => {
                s.running = None;
                if let Err(e) = s.game.play(p.x as i64, p.y as i64) {
                    s.note = format!("the engine's move {} was refused: {e}", p.notation());
                    s.resting = true;
                }
                s.best = None;
                s.lines.clear();
                self.kick(&mut s);
            }
            Heard::Move(_) => {}
            Heard::Failed(e) => {
                s.note = e;
                s.resting = true;
            }
        }
        self.publish_locked(&mut s);
    }

    /// Thought `id` has ended.
    fn finished(&self, id: u64, chart: Option<Result<Chart, String>>) {
        let mut s = self.lock();
        if s.running.as_ref().is_none_or(|r| r.id != id) {
            return;
        }
        s.running = None;
        match chart {
            Some(Ok(c)) => {
                s.chart = Some(c);
                s.note.clear();
            }
            Some(Err(e)) => s.note = format!("the chart: {e}"),
            None => {}
        }
        if s.mode != Mode::Analyse {
            self.kick(&mut s);
        }
        self.publish_locked(&mut s);
    }

    fn chart_progress(&self, id: u64, k: usize, n: usize) {
        let mut s = self.lock();
        if s.running.as_ref().is_some_and(|r| r.id == id) {
            s.note = format!("analysing the game for the chart: move {k} of {n}");
            self.publish_locked(&mut s);
        }
    }
}

/// The engine thread: one thought after another, for as long as the session lives.
fn engine_thread(session: std::sync::Weak<Session>, work: Receiver<(u64, Arc<AtomicBool>, Work)>) {
    for (id, stop, w) in work {
        let Some(session) = session.upgrade() else { return };
        if stop.load(Ordering::Relaxed) {
            continue;
        }
        match w {
            Work::Think(job) => {
                let weak = Arc::downgrade(&session);
                let tell: Tell = Arc::new(move |h| {
                    if let Some(s) = weak.upgrade() {
                        s.heard(id, h);
                    }
                });
                session.engine.run(&job, &stop, tell);
                session.finished(id, None);
            }
            Work::Duel(job) => {
                let source = Source::Duel(id);
                let result = duel::play(&job, &stop, &mut |p, note| {
                    session.update_watched(source, |g| {
                        if let Err(e) = g.append(p, Some(note)) {
                            log::warn!("two brains' game: {e}");
                        }
                        false
                    });
                });
                session.update_watched(source, |g| {
                    duel::settle(g, &result);
                    true
                });
                session.finished(id, None);
            }
            Work::Chart { game, winner, time_ms } => {
                let mut progress = |k, n| session.chart_progress(id, k, n);
                let judge = session.engine.judge(time_ms);
                let chart = chart::analysed(&game, winner, judge, &stop, &mut progress);
                session.finished(id, Some(chart));
            }
        }
    }
}

/// A point as the page reads it.
#[derive(Serialize)]
struct Point {
    x: usize,
    y: usize,
    name: String,
}

fn point(p: Pos) -> Point {
    Point { x: p.x as usize, y: p.y as usize, name: p.notation() }
}

/// A line's score from black's view, clipped for the bar, in the position as it stands.
fn black_view(s: &State, l: &Line) -> Option<i32> {
    let mover = s.game.board().side_to_move();
    l.score.map(|v| on_chart(if mover == Color::Black { v } else { -v }))
}

#[derive(Serialize)]
struct LineView {
    mv: Point,
    /// `+W7`, `-35`: the score as the protocol writes it, from the side to move's view.
    score: Option<String>,
    /// Black's view, clipped to ±1000, for the bar.
    black: Option<i32>,
    depth: i32,
    pv: Vec<Point>,
}

#[derive(Serialize)]
struct EndingView {
    winner: Option<&'static str>,
    line: Vec<Point>,
    reason: String,
}

/// The whole state, as JSON for the page.
#[derive(Serialize)]
struct View {
    version: u64,
    engine: String,
    rule: &'static str,
    line: u8,
    pente: bool,
    width: usize,
    height: usize,
    /// `[x, y, 0 black | 1 white]` for every stone at the cursor.
    stones: Vec<[usize; 3]>,
    moves: Vec<Point>,
    cursor: usize,
    /// Stones from the set-up before the first move.
    setup: usize,
    to_move: &'static str,
    captures: [usize; 2],
    forbidden: Vec<Point>,
    ending: Option<EndingView>,
    /// The engine's evaluation for the bar, black's view (±1000 a won game), kept while the game goes on.
    eval: Option<i32>,
    human: Human,
    mode: Mode,
    time_ms: u64,
    nbest: usize,
    thinking: Option<&'static str>,
    best: Option<LineView>,
    lines: Vec<LineView>,
    note: String,
    chart: Option<Chart>,
    watching: Option<WatchView>,
    /// Black's and white's players in a watched game, with what their last moves at the cursor told.
    players: Option<[PlayerView; 2]>,
    /// The brains a page may set against each other (by number), and the clock they play by.
    roster: RosterView,
    follow: Option<FollowStatus>,
}

#[derive(Serialize)]
struct WatchView {
    /// `duel` (two brains on the page) or `match` (a followed match's game).
    kind: &'static str,
    /// The match game's number.
    game: Option<usize>,
    /// Under way: its moves still come.
    live: bool,
}

#[derive(Serialize)]
struct PlayerView {
    name: String,
    /// Its last move's evaluation as the protocol writes it (`+W7`, `-35`), the mover's view.
    eval: Option<String>,
    depth: Option<i32>,
    /// The ms its last move took, and all its moves up to the cursor.
    ms: Option<u64>,
    used_ms: u64,
}

#[derive(Serialize)]
struct RosterView {
    engines: Vec<String>,
    turn_ms: u64,
    game_ms: u64,
}

/// Each side's player at the cursor: its name and its last move's note.
fn players(g: &Game) -> [PlayerView; 2] {
    [Color::Black, Color::White].map(|c| {
        let mine =
            || (0..g.cursor).filter(move |&i| g.mover(i) == c).filter_map(|i| g.notes.get(i).copied()?);
        let last = mine().next_back();
        PlayerView {
            name: g.names[c.index()].clone(),
            eval: last.and_then(|n| n.eval).map(score_text),
            depth: last.and_then(|n| n.depth),
            ms: last.map(|n| n.ms),
            used_ms: mine().map(|n| n.ms).sum(),
        }
    })
}

/// The last evaluation a watched game's engines told up to the cursor, black's view, clipped for the
/// bar.
fn told_eval(g: &Game) -> Option<i32> {
    (0..g.cursor).rev().find_map(|i| {
        let v = g.notes.get(i).copied()??.eval?;
        Some(on_chart(if g.mover(i) == Color::Black { v } else { -v }))
    })
}

impl View {
    fn of(s: &State, engine: &str, roster: &Roster) -> View {
        let board = s.game.board();
        let mover = board.side_to_move();
        let line_view = |l: &Line| LineView {
            mv: point(l.mv),
            score: l.score.map(score_text),
            black: black_view(s, l),
            depth: l.depth,
            pv: l.pv.iter().map(|&p| point(p)).collect(),
        };
        let stones = board
            .points()
            .filter_map(|p| match board.get(p) {
                crate::game::board::Cell::Stone(c) => Some([p.x as usize, p.y as usize, c.index()]),
                _ => None,
            })
            .collect();
        let ending: Option<Ending> = s.game.ending();
        // A won game stands at the bar's end, a drawn one at its middle.
        let eval = match &ending {
            Some(e) => {
                Some(e.winner.map_or(0, |c| on_chart(if c == Color::Black { i32::MAX } else { -i32::MAX })))
            }
            None if s.watching.is_some() => told_eval(&s.game),
            None => s.eval,
        };
        View {
            version: s.version,
            engine: engine.to_string(),
            rule: s.game.rules.name(),
            line: s.game.rules.line,
            pente: s.game.pente(),
            width: s.game.width(),
            height: s.game.height(),
            stones,
            moves: s.game.moves.iter().map(|&p| point(p)).collect(),
            cursor: s.game.cursor,
            setup: s.game.start.stone_count(),
            to_move: mover.name(),
            captures: [board.captured(Color::Black), board.captured(Color::White)],
            forbidden: if ending.is_none() {
                s.game.rules.forbidden_points(&board).into_iter().map(point).collect()
            } else {
                vec![]
            },
            ending: ending.map(|e| EndingView {
                winner: e.winner.map(Color::name),
                line: e.line.into_iter().map(point).collect(),
                reason: e.reason,
            }),
            human: s.human,
            mode: s.mode,
            time_ms: s.time_ms,
            nbest: s.nbest,
            thinking: s.running.as_ref().map(|r| r.kind),
            best: s.best.as_ref().map(line_view),
            eval,
            lines: s.lines.iter().map(line_view).collect(),
            note: s.note.clone(),
            chart: s.chart.clone(),
            watching: s.watching.map(|w| WatchView {
                kind: if matches!(w.source, Source::Duel(_)) { "duel" } else { "match" },
                game: match w.source {
                    Source::Match(n) => Some(n),
                    Source::Duel(_) => None,
                },
                live: w.live,
            }),
            players: s.watching.map(|_| players(&s.game)),
            roster: RosterView {
                engines: roster.engines.iter().map(|e| e.name.clone()).collect(),
                turn_ms: roster.turn_ms,
                game_ms: roster.game_ms,
            },
            follow: s.follow.clone(),
        }
    }
}
