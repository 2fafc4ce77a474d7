//! The Gomocup/Piskvork protocol: reads command lines, asks the engine, prints the answers.
//!
//! This layer parses and prints and nothing else; the game lives in [`Engine`]. Its invariants are the
//! managers' rules (protocol.md, "Errors and what happens"):
//! - stdout carries protocol lines only, each flushed at once: `OK`, `X,Y`, `ERROR <reason>`,
//!   `UNKNOWN <reason>`, `MESSAGE <text>`, and the answers of ABOUT, SWAP2BOARD and YXSHOWFORBID;
//! - INFO is never answered; a value it had to ignore is reported as a `MESSAGE` line just before the
//!   next move, when the manager reads again. Our extension keys `variant` and `captures` are the
//!   exception: a manager that sends them knows them, and a bad value gets an `ERROR` at once;
//! - every other bad line gets exactly one `ERROR` or `UNKNOWN` line and changes nothing;
//! - a BOARD / YXBOARD / SWAP2BOARD block is one command: a bad line inside it (or an overlong one)
//!   makes the block's DONE answer one `ERROR`; INFO inside it is applied as usual; any other command
//!   word ends the block with an `ERROR` and is then obeyed;
//! - command words are case-insensitive; lines may end in CR LF, LF or CR; empty lines are skipped;
//! - a reader thread keeps stdin flowing while the engine thinks: YXSTOP/STOP and `INFO timeout_turn 0`
//!   stop the thought, other commands wait for the answer, and their time starts when they are taken
//!   up (a piped `TURN` thinks as long as a manager's would); INFO is applied at once unless commands wait
//!   ahead of it, so every command sees exactly the settings sent before it (`variant` and `captures`,
//!   which may be answered, wait like commands);
//! - END answers what came before it: the thought under way and every thought waiting are cut short at
//!   once and answered in order, then the brain exits. The end of input does the same, except that a
//!   thought with a limit is finished as it would be with the input open (a piped `TURN` gets the move
//!   a manager would);
//! - a block left open by END or the end of input is refused with one `ERROR`, as when a command ends it.

use std::collections::VecDeque;
use std::fmt;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::sync::mpsc::{self, Receiver, Sender};
use std::time::Instant;

use std::sync::Arc;

use crate::brain::analysis::{Answer, Task};
use crate::brain::command::{Command, ParseError, answered_key, clip, parse_captures, parse_info};
use crate::brain::engine::Engine;
use crate::eval::score::{WIN_THRESHOLD, score_text, win_rate};
use crate::game::board::Pos;
use crate::player::{Iteration, MAX_THREADS, Progress, Shortcut, Thought, Watch};

/// Lines longer than this are refused whole (a manager never sends one; a fuzzer does).
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// What the reader thread and the thinking thread tell the protocol loop.
#[derive(Debug)]
pub enum Event {
    Line(String, Instant),
    TooLong(Instant),
    Eof,
    Answer(Answer),
    /// How the thought under way goes (sent only when `INFO show_detail` asks for it).
    Progress(Progress),
    /// A warning or an error of any module (see `brain::notes`): a `MESSAGE` before the next move.
    Note(String),
}

/// Reads stdin on its own thread, splitting on LF, CR and CR LF, so the loop never blocks on input.
/// Invalid UTF-8 is replaced (and then fails to parse, which is answered); overlong lines are refused.
pub fn spawn_reader(input: impl Read + Send + 'static, tx: Sender<Event>) {
    let spawned = std::thread::Builder::new().name("stdin".into()).spawn(move || {
        let mut reader = BufReader::new(input);
        let mut line: Vec<u8> = Vec::new();
        let mut overlong = false;
        let send_line = |line: &mut Vec<u8>, overlong: &mut bool| -> bool {
            let at = Instant::now();
            let ev = if *overlong {
                Some(Event::TooLong(at))
            } else if line.iter().all(|b| b.is_ascii_whitespace()) {
                None
            } else {
                Some(Event::Line(String::from_utf8_lossy(line).into_owned(), at))
            };
            line.clear();
            *overlong = false;
            ev.is_none_or(|ev| tx.send(ev).is_ok())
        };
        loop {
            let buf = match reader.fill_buf() {
                Ok([]) => break,
                Ok(buf) => buf,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    log::warn!("cannot read the input ({e}): taken as its end");
                    break;
                }
            };
            let mut used = 0;
            let mut alive = true;
            for &b in buf {
                used += 1;
                if b == b'\n' || b == b'\r' {
                    alive = send_line(&mut line, &mut overlong);
                    if !alive {
                        break;
                    }
                } else if line.len() < MAX_LINE_BYTES {
                    line.push(b);
                } else {
                    overlong = true;
                }
            }
            reader.consume(used);
            if !alive {
                return;
            }
        }
        if !line.is_empty() || overlong {
            send_line(&mut line, &mut overlong);
        }
        let _ = tx.send(Event::Eof);
    });
    if spawned.is_err() {
        log::error!("cannot start the stdin reader");
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BlockKind {
    Board,
    YxBoard,
    Swap2,
}

impl BlockKind {
    fn name(self) -> &'static str {
        match self {
            BlockKind::Board => "BOARD",
            BlockKind::YxBoard => "YXBOARD",
            BlockKind::Swap2 => "SWAP2BOARD",
        }
    }
}

/// A BOARD-like block being read.
struct Block {
    kind: BlockKind,
    started: Instant,
    rows: Vec<Vec<i64>>,
    error: Option<String>,
}

#[derive(PartialEq, Eq)]
enum Flow {
    Continue,
    Exit,
}

/// The `ABOUT` answer.
pub fn about_line() -> String {
    format!(
        "name=\"Quincunx\", version=\"{}\", author=\"Quincunx developers\", country=\"International\", www=\"https://github.com/quincunx-gomoku/quincunx\"",
        env!("CARGO_PKG_VERSION")
    )
}

/// The protocol loop's state.
pub struct Session<W: Write> {
    engine: Engine,
    out: W,
    tx: Sender<Event>,
    block: Option<Block>,
    /// INFO values we could not use, reported before the next move.
    warnings: Vec<String>,
    /// The same for INFO read while the engine thinks: they wait for the move after, so where a warning
    /// appears never depends on when the reader thread delivered its line.
    later_warnings: Vec<String>,
    /// Commands that arrived while the engine was thinking, in order.
    deferred: VecDeque<Event>,
    /// When the thought under way began.
    thinking_since: Instant,
    /// END or the end of input has come: the thoughts still to answer are cut short (see `Closing`).
    closing: Option<Closing>,
}

/// Why the session is closing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Closing {
    /// END: every thought is cut short.
    End,
    /// The end of input: thoughts with no limit are cut short, the others finish.
    Eof,
}

/// Runs the protocol on `input` and `out` until END or the end of input.
pub fn run(input: impl Read + Send + 'static, out: impl Write, engine: Engine) -> io::Result<()> {
    let (tx, rx) = mpsc::channel();
    serve(input, out, engine, tx, rx)
}

/// [`run`] on a channel made by the caller, which may give others its sender (`brain::notes`).
pub fn serve(
    input: impl Read + Send + 'static,
    out: impl Write,
    engine: Engine,
    tx: Sender<Event>,
    rx: Receiver<Event>,
) -> io::Result<()> {
    spawn_reader(input, tx.clone());
    let mut session = Session {
        engine,
        out,
        tx,
        block: None,
        warnings: vec![],
        later_warnings: vec![],
        deferred: VecDeque::new(),
        thinking_since: Instant::now(),
        closing: None,
    };
    match session.serve(rx) {
        // The manager stopped reading (it sent END and closed the pipe): nothing is left to tell it.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        r => r,
    }
}

impl<W: Write> Session<W> {
    fn serve(&mut self, rx: Receiver<Event>) -> io::Result<()> {
        loop {
            let thinking = self.engine.is_thinking();
            let event = match (thinking, self.deferred.pop_front()) {
                // A command's clock starts when it is taken up, not when it was read: piped commands
                // wait for the thought before them, which a manager would have waited for too.
                (false, Some(Event::Line(line, _))) => Event::Line(line, Instant::now()),
                (false, Some(ev)) => ev,
                (_, held) => {
                    if let Some(ev) = held {
                        self.deferred.push_front(ev);
                    }
                    match rx.recv() {
                        Ok(ev) => ev,
                        Err(_) => return Ok(()),
                    }
                }
            };
            let flow = match event {
                Event::Answer(a) => self.answer_move(&a)?,
                Event::Progress(p) => {
                    self.show_progress(&p)?;
                    Flow::Continue
                }
                Event::Note(text) => {
                    // Sent before the answer of the thought it is about, so it goes out with that move.
                    self.warnings.push(text);
                    Flow::Continue
                }
                Event::Eof if thinking => {
                    self.close(Closing::Eof);
                    self.deferred.push_back(Event::Eof);
                    Flow::Continue
                }
                Event::Eof => {
                    self.abandon_block()?;
                    Flow::Exit
                }
                Event::TooLong(at) if thinking => {
                    self.deferred.push_back(Event::TooLong(at));
                    Flow::Continue
                }
                Event::TooLong(_) => {
                    let why = format!("a line longer than {MAX_LINE_BYTES} bytes");
                    match self.block.as_mut() {
                        // Inside a block it spoils the block: DONE answers for it.
                        Some(block) => {
                            block.error.get_or_insert(format!("{why} in {}", block.kind.name()));
                        }
                        None => self.error(format!("{why} was ignored"))?,
                    }
                    Flow::Continue
                }
                Event::Line(line, at) if thinking => self.while_thinking(line, at),
                Event::Line(line, at) => self.handle(&line, at)?,
            };
            if flow == Flow::Exit {
                return Ok(());
            }
        }
    }

    fn say(&mut self, line: impl AsRef<str>) -> io::Result<()> {
        let line = line.as_ref();
        log::debug!("< {line}");
        writeln!(self.out, "{line}")?;
        self.out.flush()
    }

    fn error(&mut self, reason: impl fmt::Display) -> io::Result<()> {
        // One line, whatever the reason holds.
        let text = reason.to_string().replace(['\r', '\n'], " ");
        self.say(format!("ERROR {text}"))
    }

    fn message(&mut self, text: &str) -> io::Result<()> {
        self.say(format!("MESSAGE {}", text.replace(['\r', '\n'], " ")))
    }

    /// END or the end of input: the thought under way is cut short when `why` says so, and so is each
    /// thought started from now on (`think`).
    fn close(&mut self, why: Closing) {
        if self.closing != Some(Closing::End) {
            self.closing = Some(why);
        }
        if self.cuts_short() {
            self.engine.stop();
        }
    }

    /// Whether a thought with the current settings is to be cut short.
    fn cuts_short(&self) -> bool {
        let s = self.engine.settings();
        match self.closing {
            None => false,
            Some(Closing::End) => true,
            Some(Closing::Eof) => s.clock.is_unlimited() && s.max_depth == 0 && s.max_node == 0,
        }
    }

    /// A block that END or the end of input leaves open is refused, as one ended by a command is.
    fn abandon_block(&mut self) -> io::Result<()> {
        match self.block.take() {
            Some(b) => self.error(format!("{} was not closed by DONE; it is ignored", b.kind.name())),
            None => Ok(()),
        }
    }

    /// A line that came while the engine thinks: only stops and INFO act now; END cuts the thoughts
    /// short and waits for the answers before it.
    fn while_thinking(&mut self, line: String, at: Instant) -> Flow {
        match line.parse::<Command>() {
            Ok(Command::End) => {
                self.close(Closing::End);
                self.deferred.push_back(Event::Line(line, at));
                Flow::Continue
            }
            Ok(Command::Stop) => {
                self.engine.stop();
                Flow::Continue
            }
            Ok(Command::Info(key, value)) => {
                // Piskvork's stop button is `INFO timeout_turn 0`: it stops the thought at once.
                if key == "timeout_turn" && value.trim() == "0" {
                    self.engine.stop();
                }
                // INFO must not overtake commands that wait: their thoughts would see settings that
                // came after them, depending on how fast the reader was. Our extension keys may be
                // answered (ERROR), so they wait for the move like a command: an answer printed now
                // would come before or after the move depending on the reader's speed.
                if self.deferred.is_empty() && !answered_key(&key) {
                    self.info(&key, &value);
                } else {
                    self.deferred.push_back(Event::Line(line, at));
                }
                Flow::Continue
            }
            _ => {
                self.deferred.push_back(Event::Line(line, at));
                Flow::Continue
            }
        }
    }

    fn info(&mut self, key: &str, value: &str) {
        if key == "captures" {
            let r = parse_captures(value)
                .and_then(|(a, b)| self.engine.set_captures(a, b).map_err(|e| e.to_string()));
            if let Err(e) = r {
                let _ = self.error(e);
            }
            return;
        }
        let warning = match parse_info(key, value) {
            Ok(Some(info)) => self.engine.apply(info),
            Ok(None) => {
                log::debug!("INFO {key} ignored");
                None
            }
            Err(w) if answered_key(key) => {
                let _ = self.error(w);
                None
            }
            Err(w) => Some(w),
        };
        if let Some(w) = warning {
            if self.engine.is_thinking() { self.later_warnings.push(w) } else { self.warnings.push(w) }
        }
    }

    fn handle(&mut self, line: &str, at: Instant) -> io::Result<Flow> {
        log::debug!("> {line}");
        let parsed = line.parse::<Command>();
        if let Some(block) = self.block.as_mut() {
            match parsed {
                Ok(Command::Done) => return self.close_block(),
                Ok(Command::Data(v)) => {
                    let want = if block.kind == BlockKind::Swap2 { 2 } else { 3 };
                    if v.len() == want {
                        block.rows.push(v);
                    } else if block.error.is_none() {
                        let form = if want == 2 { "X,Y" } else { "X,Y,field" };
                        block.error =
                            Some(format!("{} expects {form} lines, got '{}'", block.kind.name(), clip(line)));
                    }
                    return Ok(Flow::Continue);
                }
                Ok(Command::End) => {
                    self.abandon_block()?;
                    return Ok(Flow::Exit);
                }
                Ok(Command::Info(key, value)) => {
                    // INFO is never answered, so it cannot end a block either.
                    self.info(&key, &value);
                    return Ok(Flow::Continue);
                }
                Ok(_) => {
                    let kind = self.block.take().map_or("BOARD", |b| b.kind.name());
                    self.error(format!("{kind} was not closed by DONE; it is ignored"))?;
                }
                Err(e) => {
                    if block.error.is_none() {
                        block.error = Some(format!("bad line in {}: {e}", block.kind.name()));
                    }
                    return Ok(Flow::Continue);
                }
            }
        }
        let cmd = match parsed {
            Ok(cmd) => cmd,
            Err(ParseError::Unknown(s)) => {
                self.say(format!("UNKNOWN {s}"))?;
                return Ok(Flow::Continue);
            }
            Err(ParseError::Bad(s)) => {
                self.error(s)?;
                return Ok(Flow::Continue);
            }
        };
        match cmd {
            Command::Start(n) => {
                let r = self.engine.new_game(n, n);
                self.reply_ok(r)?
            }
            Command::RectStart(w, h) => {
                let r = self.engine.new_game(w, h);
                self.reply_ok(r)?
            }
            Command::Restart => {
                let r = self.engine.restart();
                self.reply_ok(r)?
            }
            Command::Begin => match self.engine.begin() {
                Ok(()) => self.think(at, Task::Move)?,
                Err(e) => self.error(e)?,
            },
            Command::Turn(x, y) => match self.engine.opponent_move(x, y) {
                Ok(_) => self.think(at, Task::Move)?,
                Err(e) => self.error(e)?,
            },
            Command::NBest(n) if !(1..=MAX_NBEST).contains(&n) => {
                self.error(format!("YXNBEST takes 1 to {MAX_NBEST} moves, got {n}"))?
            }
            Command::NBest(n) => self.think(at, Task::NBest(n as usize))?,
            Command::Balance { bias, .. } if bias.unsigned_abs() >= WIN_THRESHOLD as u64 => {
                self.error(format!("a balance bias must lie within ±{}, got {bias}", WIN_THRESHOLD - 1))?
            }
            Command::Balance { two, bias } => self.think(at, Task::Balance { two, bias: bias as i32 })?,
            Command::ShowInfo => {
                self.message(&format!("Quincunx {}", env!("CARGO_PKG_VERSION")))?;
                self.message(&format!("INFO MAX_THREAD_NUM {MAX_THREADS}"))?;
                self.message(&format!("INFO MAX_HASH_SIZE {MAX_HASH_SIZE}"))?;
            }
            Command::Board | Command::YxBoard | Command::Swap2Board => {
                let kind = match cmd {
                    Command::Board => BlockKind::Board,
                    Command::YxBoard => BlockKind::YxBoard,
                    _ => BlockKind::Swap2,
                };
                self.block = Some(Block { kind, started: at, rows: vec![], error: None });
            }
            Command::Done => self.error("DONE without BOARD, YXBOARD or SWAP2BOARD")?,
            Command::Data(_) => self.error(format!("'{}' outside a BOARD block", clip(line.trim())))?,
            Command::Info(key, value) => self.info(&key, &value),
            Command::End => return Ok(Flow::Exit),
            Command::About => self.say(about_line())?,
            Command::TakeBack(x, y) => {
                let r = self.engine.take_back(x, y);
                self.reply_ok(r)?
            }
            Command::Play(x, y) => match self.engine.play_given(x, y) {
                Ok(p) => self.say(p.to_string())?,
                Err(e) => self.error(e)?,
            },
            Command::Stop => {}
            Command::ShowForbid => match self.engine.forbidden_points() {
                Ok(points) => {
                    let list: String = points.iter().map(|p| format!("{:02}{:02}", p.x, p.y)).collect();
                    self.say(format!("FORBID {list}."))?
                }
                Err(e) => self.error(e)?,
            },
            Command::HashClear => self.engine.clear_hash(),
        }
        Ok(Flow::Continue)
    }

    fn reply_ok(&mut self, r: Result<(), impl fmt::Display>) -> io::Result<()> {
        match r {
            Ok(()) => self.say("OK"),
            Err(e) => self.error(e),
        }
    }

    fn close_block(&mut self) -> io::Result<Flow> {
        let Some(block) = self.block.take() else { return Ok(Flow::Continue) };
        if let Some(e) = block.error {
            self.error(format!("{e}; the position is unchanged"))?;
            return Ok(Flow::Continue);
        }
        match block.kind {
            BlockKind::Board | BlockKind::YxBoard => {
                let stones: Vec<(i64, i64, i64)> = block.rows.iter().map(|r| (r[0], r[1], r[2])).collect();
                match self.engine.set_position(&stones) {
                    Ok(()) if block.kind == BlockKind::Board => self.think(block.started, Task::Move)?,
                    Ok(()) => {}
                    Err(e) => self.error(e)?,
                }
            }
            BlockKind::Swap2 => {
                let stones: Vec<(i64, i64)> = block.rows.iter().map(|r| (r[0], r[1])).collect();
                match self.engine.swap2(&stones) {
                    Ok(answer) => self.say(answer.to_string())?,
                    Err(e) => self.error(e)?,
                }
            }
        }
        Ok(Flow::Continue)
    }

    /// Starts the engine on `task`; the answer is printed when its thought arrives, and its progress as
    /// it comes when `INFO show_detail` asks for it.
    fn think(&mut self, at: Instant, task: Task) -> io::Result<()> {
        let tx = self.tx.clone();
        let watch = (self.engine.settings().show_detail != 0).then(|| {
            let tx = self.tx.clone();
            Watch(Arc::new(move |p: &Progress| {
                let _ = tx.send(Event::Progress(p.clone()));
            }))
        });
        self.thinking_since = at;
        let r = self.engine.think(at, task, watch, move |a| {
            let _ = tx.send(Event::Answer(a));
        });
        match r {
            Ok(()) if self.cuts_short() => self.engine.stop(),
            Ok(()) => {}
            Err(e) => self.error(e)?,
        }
        Ok(())
    }

    /// Yixin-Board's lines while a thought goes on: with `show_detail` bit 1 the realtime lines that
    /// light up the root moves (as Rapfi prints them: from depth 8 on, a root move's only after 200 ms),
    /// with bit 2 an `INFO` block for each completed iteration.
    fn show_progress(&mut self, p: &Progress) -> io::Result<()> {
        let detail = self.engine.settings().show_detail;
        let realtime = detail & 1 != 0;
        let settled = self.thinking_since.elapsed() >= REALTIME_AFTER;
        match p {
            Progress::Searching { depth, mv } if realtime && settled && *depth >= REALTIME_DEPTH => {
                self.message(&format!("REALTIME POS {mv}"))?;
            }
            Progress::Searched { depth, mv, lost, best }
                if realtime && settled && *depth >= REALTIME_DEPTH =>
            {
                self.message(&format!("REALTIME DONE {mv}"))?;
                if *lost {
                    self.message(&format!("REALTIME LOST {mv}"))?;
                } else if *best {
                    self.message(&format!("REALTIME BEST {mv}"))?;
                }
            }
            Progress::Iteration(it) => {
                if realtime && it.depth >= REALTIME_DEPTH {
                    self.message("REALTIME REFRESH")?;
                    self.message(&format!("REALTIME BEST {}", it.best))?;
                }
                if detail & 2 != 0 {
                    for line in detail_lines(0, 1, it.depth, it.score, &it.pv, Some(it)) {
                        self.say(line)?;
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn answer_move(&mut self, answer: &Answer) -> io::Result<Flow> {
        for w in std::mem::take(&mut self.warnings) {
            self.message(&w)?;
        }
        self.warnings = std::mem::take(&mut self.later_warnings);
        if let Some(fault) = &answer.fault {
            self.message(fault)?;
        }
        for m in thought_lines(&answer.thought) {
            self.message(&m)?;
        }
        let n = answer.lines.len();
        for (k, l) in answer.lines.iter().enumerate() {
            let pv = l.pv.iter().map(|p| p.notation()).collect::<Vec<_>>().join(" ");
            self.message(&format!("({}) {} | depth {} | {pv}", k + 1, score_text(l.score), l.depth))?;
            if self.engine.settings().show_detail & 2 != 0 {
                for line in detail_lines(k, n, l.depth, l.score, &l.pv, None) {
                    self.say(line)?;
                }
            }
        }
        match self.engine.finish(answer) {
            Ok(moves) => self.say(moves.iter().map(Pos::to_string).collect::<Vec<_>>().join(" "))?,
            Err(e) => self.error(e)?,
        }
        Ok(Flow::Continue)
    }
}

/// The iterations a move's `MESSAGE` lines show, the last ones: Piskvork shows each line in its window
/// as it reads it, and the 60 lines of a lost position's 1 ms thought took it past its 1.3 s limit
/// under Wine (a timeout, a lost game).
const SHOWN_ITERATIONS: usize = 4;
/// Realtime lines start at this depth (Rapfi's `REALTIME_MIN_DEPTH`): shallower ones flicker past.
const REALTIME_DEPTH: i32 = 8;
/// ...and a root move's lines only after this much thought (Rapfi's `REALTIME_MIN_ELAPSED`).
const REALTIME_AFTER: std::time::Duration = std::time::Duration::from_millis(200);
/// The most lines `YXNBEST` gives.
pub const MAX_NBEST: i64 = 64;
/// What `YXSHOWINFO` offers a GUI besides the threads: the hash size (as Rapfi answers).
const MAX_HASH_SIZE: usize = 30;

/// Yixin-Board's `INFO` block for one line of `numpv` (the `k`-th, from 0), with the search's counts when
/// it is an iteration.
fn detail_lines(
    k: usize,
    numpv: usize,
    depth: i32,
    score: i32,
    pv: &[Pos],
    it: Option<&Iteration>,
) -> Vec<String> {
    let mut lines =
        vec![format!("INFO PV {k}"), format!("INFO NUMPV {numpv}"), format!("INFO DEPTH {depth}")];
    if let Some(it) = it {
        let ms = it.time.as_millis();
        lines.push(format!("INFO NODES {}", it.nodes));
        lines.push(format!("INFO TOTALTIME {ms}"));
        lines.push(format!("INFO SPEED {}", it.nps));
    }
    lines.push(format!("INFO EVAL {score}"));
    lines.push(format!("INFO WINRATE {:.4}", win_rate(score)));
    lines.push(format!("INFO BESTLINE {}", pv.iter().map(Pos::to_string).collect::<Vec<_>>().join(" ")));
    lines.push("INFO PV DONE".into());
    lines
}

/// The `MESSAGE` lines that show how a move was found: the shortcut, each iteration, then the move
/// with its score and depth.
fn thought_lines(t: &Thought) -> Vec<String> {
    let moves = |line: &[Pos]| line.iter().map(|p| p.notation()).collect::<Vec<_>>().join(" ");
    let mv = t.mv.map_or("-".into(), |p| p.notation());
    let mut lines = vec![];
    match &t.shortcut {
        None => {}
        Some(Shortcut::Forced) => lines.push("forced move".into()),
        Some(Shortcut::Opening) => lines.push("opening move".into()),
        Some(Shortcut::CaptureWin) => lines.push("capture win".into()),
        Some(Shortcut::Vcf(line)) => lines.push(format!("VCF win: {}", moves(line))),
        Some(Shortcut::Vct(line)) => lines.push(format!("VCT win: {}", moves(line))),
        Some(Shortcut::Weight(w)) => lines.push(format!("weights: {mv} weight {w}")),
    }
    let shown = t.iterations.len().saturating_sub(SHOWN_ITERATIONS);
    for it in &t.iterations[shown..] {
        lines.push(if it.partial {
            format!("depth {} (partial) best {}", it.depth, it.best.notation())
        } else {
            format!(
                "depth {} eval {} nodes {} nps {} time {:.0}ms pv {}",
                it.depth,
                score_text(it.score),
                it.nodes,
                it.nps,
                it.time.as_secs_f64() * 1000.0,
                moves(&it.pv)
            )
        });
    }
    if let Some(score) = t.score {
        lines.push(format!("best {mv} eval {} depth {}", score_text(score), t.depth));
    }
    lines
}
