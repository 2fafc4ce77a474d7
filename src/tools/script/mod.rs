//! Scripted protocol sessions: a script says what to send to a brain and what must come back; the
//! runner plays it against a fresh process of any Gomocup engine and reports every step.
//!
//! The script format and its parser are in `format.rs`. `MESSAGE ` and `DEBUG ` lines are never
//! matched: they are skipped and kept in the report.
//!
//! Invariants: the runner never waits longer than a step's limit, never panics on what an engine
//! prints, and kills the engine's whole process group when the script ends. Once the engine is lost (no
//! answer in time, output closed, a flood, its input gone) no later step waits on it.

mod format;

pub use format::{Script, Step, glob_match};

use std::time::{Duration, Instant};

use crate::brain::command::Command;
use crate::game::board::{Board, CaptureRule, Pos};
use crate::game::rules::Rules;
use crate::tools::client::process::{Brain, MAX_SKIPPED_LINES, Received, StderrMode, is_chatter, parse_move};

/// How long an answer may take when the script does not say (`limit`).
pub const DEFAULT_LIMIT_MS: u64 = 5_000;

/// One step's result.
#[derive(Clone, Debug)]
pub struct StepReport {
    pub line: usize,
    pub step: String,
    pub passed: bool,
    /// Why a check failed (`None` when it passed or was not a check).
    pub failure: Option<Failure>,
    /// False for a step after the engine was lost: it was not run (and a check among them failed).
    pub ran: bool,
    /// What came back (or why the step failed).
    pub detail: String,
    /// MESSAGE/DEBUG lines skipped while waiting.
    pub skipped: Vec<String>,
    /// For an expectation: the last line sent before it (what the answer answers).
    pub after: Option<String>,
}

/// Why a step failed, as a value (the report's `detail` says it in words).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Failure {
    /// No answer within the step's limit.
    NoAnswer,
    /// The engine closed its output (it exited or crashed).
    Closed,
    /// More skipped MESSAGE/DEBUG lines than an answer may hide behind.
    Flood,
    /// The engine's input could not be written.
    CannotWrite,
    /// An answer where the protocol wants silence.
    NotSilent,
    /// The process had not exited within the step's time.
    StillRunning,
    /// An answer other than the one expected.
    WrongAnswer,
    /// A move expected, and the answer is not `X,Y`.
    NotAMove,
    /// A move expected, and it is not legal on the tracked board (occupied, off the board, no game).
    IllegalMove,
    /// Not run: the engine was lost at an earlier step.
    NotRun,
    /// `stall`: the engine's processes could not be stopped and continued.
    CannotStall,
}

impl Failure {
    /// The failures after which the engine is lost ([`Session::lost`]): an answer missing, or the
    /// input gone.
    fn loses_engine(self) -> bool {
        matches!(self, Failure::NoAnswer | Failure::Closed | Failure::Flood | Failure::CannotWrite)
    }
}

#[derive(Clone, Debug)]
pub struct Report {
    pub name: String,
    pub steps: Vec<StepReport>,
    /// A problem outside any step (the engine would not start).
    pub error: Option<String>,
    /// Why the script was not run at all (it is about another engine); it then has no steps.
    pub skip: Option<String>,
}

impl Report {
    pub fn passed(&self) -> bool {
        self.error.is_none() && self.steps.iter().all(|s| s.passed)
    }

    /// A readable account: failed steps always, every step with `verbose`.
    pub fn render(&self, verbose: bool) -> String {
        let mut out = String::new();
        if let Some(e) = &self.error {
            out.push_str(&format!("  error: {e}\n"));
        }
        // The steps not run are the last ones: one line for them all, not one wait-free FAIL per step.
        let ran = self.steps.iter().take_while(|s| s.ran).count();
        let (done, not_run) = self.steps.split_at(ran);
        for s in done {
            if verbose {
                for m in &s.skipped {
                    out.push_str(&format!("          ({m})\n"));
                }
            }
            if verbose || !s.passed {
                let mark = if s.passed { "ok  " } else { "FAIL" };
                out.push_str(&format!("  {mark} line {:>3}: {:<28} {}\n", s.line, s.step, s.detail));
                if !s.passed
                    && let Some(sent) = &s.after
                {
                    out.push_str(&format!("                 sent: {sent}\n"));
                }
            }
        }
        if let (Some(first), Some(last)) = (not_run.first(), not_run.last()) {
            let checks = not_run.iter().filter(|s| !s.passed).count();
            if verbose || checks > 0 {
                let mark = if checks > 0 { "FAIL" } else { "--  " };
                let noun = if checks == 1 { "check" } else { "checks" };
                let (from, to) = (first.line, last.line);
                out.push_str(&format!("  {mark} lines {from}-{to}: {checks} {noun} {}\n", first.detail));
            }
        }
        out
    }
}

/// The board as the script's own sends and the engine's answers leave it. It mirrors the engine's own
/// contract: a command the engine refuses (answers `ERROR`) changes nothing, so every state-changing
/// send keeps a snapshot that an `ERROR` answer restores.
#[derive(Default)]
struct Tracker {
    board: Option<Board>,
    /// The open block: its kind and rows.
    block: Option<(Command, Vec<Vec<i64>>)>,
    /// The board before the last state-changing command, until its answer is seen.
    snapshot: Option<Option<Board>>,
    awaiting_move: bool,
    /// `INFO variant`: the capture rule new boards get (Pente).
    capture: Option<CaptureRule>,
    /// `INFO captures`, for the next BOARD.
    captures: Option<(usize, usize)>,
}

impl Tracker {
    fn save(&mut self) {
        self.snapshot = Some(self.board.clone());
    }

    /// A fresh board of the game the script chose.
    fn new_board(&self, w: i64, h: i64) -> Option<Board> {
        let mut b = Board::new(w, h).ok()?;
        b.set_capture(self.capture);
        Some(b)
    }

    /// Our extension keys change what the tracked game is.
    fn info(&mut self, key: &str, value: &str) {
        match key {
            "variant" => {
                let rules = match value.trim().to_ascii_lowercase().as_str() {
                    "gomoku" => Rules::default(),
                    name => match Rules::pente_named(name) {
                        Some(r) => r,
                        None => return,
                    },
                };
                self.capture = rules.capture_rule();
                if let Some(b) = self.board.as_mut() {
                    b.set_capture(self.capture);
                }
            }
            "captures" => self.captures = crate::brain::command::parse_captures(value).ok(),
            _ => {}
        }
    }

    fn sent(&mut self, bytes: &[u8]) {
        let text = String::from_utf8_lossy(bytes);
        for line in text.split(['\r', '\n']).filter(|l| !l.trim().is_empty()) {
            let Ok(cmd) = line.parse::<Command>() else { continue };
            if self.block.is_some() {
                match cmd {
                    Command::Data(v) => {
                        if let Some((_, rows)) = self.block.as_mut() {
                            rows.push(v);
                        }
                        continue;
                    }
                    Command::Done => {
                        self.close_block();
                        continue;
                    }
                    Command::Info(key, value) => {
                        self.info(&key, &value);
                        continue;
                    }
                    // Any other command ends the block unapplied, as the engine does.
                    _ => self.block = None,
                }
            }
            match cmd {
                Command::Start(n) => {
                    self.save();
                    self.captures = None;
                    self.board = self.new_board(n, n).or(self.board.take());
                }
                Command::RectStart(w, h) => {
                    self.save();
                    self.captures = None;
                    self.board = self.new_board(w, h).or(self.board.take());
                }
                Command::Restart => {
                    self.save();
                    self.captures = None;
                    if let Some((w, h)) = self.board.as_ref().map(|b| (b.width() as i64, b.height() as i64)) {
                        self.board = self.new_board(w, h);
                    }
                }
                Command::Info(key, value) => self.info(&key, &value),
                Command::Board | Command::YxBoard | Command::Swap2Board => self.block = Some((cmd, vec![])),
                Command::Turn(x, y) => {
                    self.save();
                    if let Some(b) = self.board.as_mut() {
                        let _ = b.try_play(x, y);
                    }
                    self.awaiting_move = true;
                }
                Command::Begin | Command::Play(..) => {
                    self.save();
                    self.awaiting_move = true;
                }
                Command::TakeBack(x, y) => {
                    self.save();
                    if let Some(b) = self.board.as_mut()
                        && let Some(p) = b.pos(x, y)
                    {
                        let _ = b.take_back(p);
                    }
                }
                _ => {}
            }
        }
    }

    fn close_block(&mut self) {
        let Some((kind, rows)) = self.block.take() else { return };
        self.save();
        let Some(b) = self.board.as_mut() else { return };
        let point = |r: &Vec<i64>| if r.len() >= 2 { b.pos(r[0], r[1]) } else { None };
        match kind {
            Command::Swap2Board => {
                let mut next = Board::new(b.width() as i64, b.height() as i64).expect("same size");
                for r in &rows {
                    if let Some(p) = point(r).filter(|&p| next.is_empty(p)) {
                        next.play_unchecked(p);
                    }
                }
                *b = next;
            }
            _ => {
                let with = |f: i64| -> Vec<Pos> {
                    rows.iter().filter(|r| r.len() == 3 && r[2] == f).filter_map(point).collect()
                };
                let (own, opp, walls) = (with(1), with(2), with(3));
                let (took, lost) = self.captures.take().unwrap_or((0, 0));
                let (black, white, by) = if own.len() + lost == opp.len() + took {
                    (own, opp, [took, lost])
                } else {
                    (opp, own, [lost, took])
                };
                if b.set_position(&black, &white, &walls).is_ok() {
                    b.set_captured(by);
                }
                if kind == Command::Board {
                    self.awaiting_move = true;
                }
            }
        }
    }

    /// Sees one answer: an ERROR undoes the command it answers; anything else confirms it.
    fn answered(&mut self, line: &str) {
        let snapshot = self.snapshot.take();
        if line.starts_with("ERROR") {
            if let Some(before) = snapshot {
                self.board = before;
            }
            self.awaiting_move = false;
        } else if let Some(moves) = swap2_stones(line) {
            // A swap2 answer places its stones.
            if let Some(b) = self.board.as_mut() {
                for (x, y) in moves {
                    let _ = b.try_play(x, y);
                }
            }
        }
    }

    /// Checks an answer that should be a legal move (`X,Y` exactly, digits only, as managers demand) on
    /// the tracked board, and plays it; `Err` says why it is not one.
    fn engine_move(&mut self, line: &str) -> Result<(), (Failure, String)> {
        self.snapshot = None;
        let (x, y) = parse_move(line).ok_or((Failure::NotAMove, "not X,Y".to_string()))?;
        self.awaiting_move = false;
        let b = self
            .board
            .as_mut()
            .ok_or((Failure::IllegalMove, "a move, but no game was started".to_string()))?;
        b.try_play(x, y).map(|_| ()).map_err(|e| (Failure::IllegalMove, e.to_string()))
    }

    /// Plays an exact or pattern-matched answer that happens to be a move.
    fn maybe_move(&mut self, line: &str) {
        if self.awaiting_move && parse_move(line).is_some() {
            let _ = self.engine_move(line);
        } else {
            self.answered(line);
        }
    }
}

/// `X,Y X,Y …` with two or more points: a swap2 answer.
fn swap2_stones(line: &str) -> Option<Vec<(i64, i64)>> {
    let moves: Option<Vec<_>> = line.split(' ').map(parse_move).collect();
    moves.filter(|m| m.len() >= 2)
}

/// Starts `engine` (program and arguments) once and kills it at once: a command that cannot be started
/// is one clear error before any script runs, not the same failure reported for every script.
pub fn check_engine(engine: &[String], stderr: StderrMode) -> Result<(), String> {
    let mut brain = Brain::spawn(engine, stderr)
        .map_err(|e| format!("cannot start the engine '{}': {e}", engine.join(" ")))?;
    brain.kill();
    Ok(())
}

/// Runs `script` against a fresh process of `engine` (program and arguments), its stderr as `stderr`
/// says.
pub fn run(script: &Script, engine: &[String], stderr: StderrMode) -> Report {
    let mut report = Report { name: script.name.clone(), steps: vec![], error: None, skip: None };
    if let Some(why) = script.skip_reason(engine) {
        report.skip = Some(why);
        return report;
    }
    let command: Vec<String> = engine.iter().chain(&script.args).cloned().collect();
    let mut session = match Brain::spawn(&command, stderr) {
        Ok(brain) => Session::new(brain),
        Err(e) => {
            report.error = Some(format!("cannot start '{}': {e}", command.join(" ")));
            return report;
        }
    };
    for (line_no, step) in &script.steps {
        let done = match session.lost {
            Some(at) => not_run(*line_no, step, at),
            None => session.step(*line_no, step),
        };
        report.steps.push(done);
    }
    session.end();
    report
}

/// A step after the engine was lost: not run, and failed if it is a check.
fn not_run(line: usize, step: &Step, lost_at: usize) -> StepReport {
    StepReport {
        line,
        step: describe(step),
        passed: !step.is_check(),
        failure: step.is_check().then_some(Failure::NotRun),
        ran: false,
        detail: format!("not run: the engine was lost at line {lost_at}"),
        skipped: vec![],
        after: None,
    }
}

/// A script in progress: the engine and what the steps before have left for the next.
struct Session {
    brain: Brain,
    tracker: Tracker,
    /// How long an answer may take after the last line sent (`limit`).
    limit: Duration,
    last_send: Instant,
    /// What the last send step sent, for the report of the answers to it.
    last_sent: Option<String>,
    /// Once an answer is missing (late, output closed, a flood) or the input is gone, the script and
    /// the engine no longer agree on what answers what, and a hung engine would make every later check
    /// wait out its limit: the rest of the script is not run, and its checks fail at once. The line
    /// where that happened.
    lost: Option<usize>,
}

impl Session {
    fn new(brain: Brain) -> Session {
        Session {
            brain,
            tracker: Tracker::default(),
            limit: Duration::from_millis(DEFAULT_LIMIT_MS),
            last_send: Instant::now(),
            last_sent: None,
            lost: None,
        }
    }

    /// Runs one step and reports it.
    fn step(&mut self, line: usize, step: &Step) -> StepReport {
        let mut skipped = vec![];
        let (failure, detail) = match step {
            Step::SendLine(bytes) | Step::SendRaw(bytes) => self.send(step, bytes),
            Step::Limit(ms) => {
                self.limit = Duration::from_millis(*ms);
                (None, String::new())
            }
            Step::Pause(ms) => {
                std::thread::sleep(Duration::from_millis(*ms));
                (None, String::new())
            }
            Step::Stall(ms) => match self.brain.stall(Duration::from_millis(*ms)) {
                Ok(()) => (None, String::new()),
                Err(e) => (Some(Failure::CannotStall), format!("cannot stall the engine: {e}")),
            },
            Step::Close => {
                self.brain.close_stdin();
                (None, String::new())
            }
            Step::Exit(ms) => self.exit(*ms),
            Step::Silent(ms) => self.silent(*ms, &mut skipped),
            Step::Message(p) => self.message(p, &mut skipped),
            Step::Exact(_) | Step::Pattern(_) | Step::Move | Step::OneOf(_) => {
                self.answer(step, &mut skipped)
            }
        };
        if failure.is_some_and(Failure::loses_engine) {
            self.lost = Some(line);
        }
        let after = step.reads_output().then(|| self.last_sent.clone()).flatten();
        StepReport {
            line,
            step: describe(step),
            passed: failure.is_none(),
            failure,
            ran: true,
            detail,
            skipped,
            after,
        }
    }

    fn send(&mut self, step: &Step, bytes: &[u8]) -> (Option<Failure>, String) {
        self.last_sent = Some(describe(step));
        self.tracker.sent(bytes);
        self.last_send = Instant::now();
        match self.brain.send_raw(bytes) {
            Ok(()) => (None, String::new()),
            Err(e) => (Some(Failure::CannotWrite), format!("cannot write: {e}")),
        }
    }

    fn exit(&mut self, ms: u64) -> (Option<Failure>, String) {
        match self.brain.wait_exit(Instant::now() + Duration::from_millis(ms)) {
            Some(status) => (None, format!("exited ({status})")),
            None => (Some(Failure::StillRunning), format!("still running after {ms} ms")),
        }
    }

    fn silent(&mut self, ms: u64, skipped: &mut Vec<String>) -> (Option<Failure>, String) {
        match self.brain.recv_answer(Instant::now() + Duration::from_millis(ms), skipped) {
            Received::Line(l) => {
                self.tracker.maybe_move(&l);
                (Some(Failure::NotSilent), format!("got '{l}'"))
            }
            Received::Timeout => (None, "no answer".into()),
            Received::Closed => (None, "no answer (output closed)".into()),
            Received::Flood => (Some(Failure::Flood), "flood of skipped lines".into()),
        }
    }

    /// A message step: `MESSAGE` lines are read (and the others kept as skipped) until one matches,
    /// within the limit of the last send; an answer before it fails the step.
    fn message(&mut self, pattern: &str, skipped: &mut Vec<String>) -> (Option<Failure>, String) {
        for _ in 0..MAX_SKIPPED_LINES {
            let line = match self.brain.recv_line(self.last_send + self.limit) {
                Received::Line(l) => l,
                Received::Timeout => {
                    let why = format!("no MESSAGE matching '{pattern}' within {} ms", self.limit.as_millis());
                    return (Some(Failure::NoAnswer), why);
                }
                Received::Flood => return (Some(Failure::Flood), "flood of skipped lines".into()),
                Received::Closed => {
                    return (Some(Failure::Closed), "the engine closed its output (exited?)".into());
                }
            };
            if let Some(text) = line.strip_prefix("MESSAGE ")
                && glob_match(pattern, text)
            {
                return (None, format!("got '{line}' after {} ms", self.last_send.elapsed().as_millis()));
            }
            if !is_chatter(&line) {
                self.tracker.maybe_move(&line);
                return (Some(Failure::WrongAnswer), format!("got '{line}' before a matching MESSAGE"));
            }
            if skipped.len() < 100 {
                skipped.push(line);
            }
        }
        (Some(Failure::Flood), "flood of skipped lines".into())
    }

    /// An answer step: the next answer, within the limit of the last send, checked.
    fn answer(&mut self, step: &Step, skipped: &mut Vec<String>) -> (Option<Failure>, String) {
        let line = match self.brain.recv_answer(self.last_send + self.limit, skipped) {
            Received::Line(l) => l,
            Received::Timeout => {
                return (Some(Failure::NoAnswer), format!("no answer within {} ms", self.limit.as_millis()));
            }
            Received::Flood => return (Some(Failure::Flood), "flood of skipped lines".into()),
            Received::Closed => {
                return (Some(Failure::Closed), "the engine closed its output (exited?)".into());
            }
        };
        let ms = self.last_send.elapsed().as_millis();
        match check_answer(step, &line, &mut self.tracker) {
            Ok(()) => (None, format!("got '{line}' after {ms} ms")),
            Err((failure, why)) => (Some(failure), why),
        }
    }

    /// A moment to exit by itself after its input closes (not for a lost engine, which has had its
    /// chance), then the whole process group goes.
    fn end(mut self) {
        if self.lost.is_none() {
            self.brain.close_stdin();
            let _ = self.brain.wait_exit(Instant::now() + Duration::from_millis(500));
        }
        self.brain.kill();
    }
}

/// Checks one answer line against an answer step, and keeps the tracked board in step with it.
fn check_answer(step: &Step, line: &str, tracker: &mut Tracker) -> Result<(), (Failure, String)> {
    let got = || format!("got '{line}'");
    let as_move =
        |tracker: &mut Tracker| tracker.engine_move(line).map_err(|(f, e)| (f, format!("{}: {e}", got())));
    match step {
        Step::Move => as_move(tracker),
        Step::OneOf(moves) => match parse_move(line) {
            Some(m) if moves.contains(&m) => as_move(tracker),
            _ => {
                tracker.maybe_move(line);
                Err((Failure::WrongAnswer, format!("{}: not one of the moves listed", got())))
            }
        },
        Step::Exact(want) => {
            tracker.maybe_move(line);
            (line == want).then_some(()).ok_or_else(|| (Failure::WrongAnswer, got()))
        }
        Step::Pattern(p) => {
            tracker.maybe_move(line);
            glob_match(p, line).then_some(()).ok_or_else(|| (Failure::WrongAnswer, got()))
        }
        _ => Ok(()),
    }
}

fn describe(step: &Step) -> String {
    let shown = |b: &[u8]| String::from_utf8_lossy(b).escape_debug().to_string();
    match step {
        Step::SendLine(b) => format!("> {}", shown(&b[..b.len().saturating_sub(1)])),
        Step::SendRaw(b) => format!(">> {}", shown(b)),
        Step::Exact(s) => format!("< {s}"),
        Step::Pattern(s) => format!("<~ {s}"),
        Step::Move => "<move".into(),
        Step::OneOf(moves) => {
            let listed: Vec<String> = moves.iter().map(|(x, y)| format!("{x},{y}")).collect();
            format!("<one-of {}", listed.join(" "))
        }
        Step::Message(p) => format!("<message {p}"),
        Step::Silent(ms) => format!("<silent {ms}"),
        Step::Exit(ms) => format!("<exit {ms}"),
        Step::Limit(ms) => format!("limit {ms}"),
        Step::Pause(ms) => format!("pause {ms}"),
        Step::Stall(ms) => format!("stall {ms}"),
        Step::Close => "close".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_of_accepts_a_listed_legal_move_and_plays_it() {
        let mut t = Tracker::default();
        t.sent(b"START 15\nBEGIN\n");
        let step = Step::OneOf(vec![(7, 7), (8, 8)]);
        assert_eq!(check_answer(&step, "7,7", &mut t), Ok(()));
        t.sent(b"TURN 0,0\n");
        // 7,7 is listed but taken now: the first answer was played.
        assert!(check_answer(&step, "7,7", &mut t).is_err());
        t.sent(b"TURN 1,1\n");
        assert!(check_answer(&step, "9,9", &mut t).is_err());
        assert!(check_answer(&step, "SWAP", &mut t).is_err());
    }

    #[test]
    fn steps_not_run_are_one_failure_line() {
        let step = |line, passed, ran| StepReport {
            line,
            step: String::new(),
            passed,
            failure: (!passed).then_some(if ran { Failure::WrongAnswer } else { Failure::NotRun }),
            ran,
            detail: if ran { String::new() } else { "not run: lost".into() },
            skipped: vec![],
            after: None,
        };
        let r = Report {
            name: "t".into(),
            steps: vec![
                step(1, true, true),
                step(2, false, true),
                step(3, true, false),
                step(4, false, false),
            ],
            error: None,
            skip: None,
        };
        assert!(!r.passed());
        assert_eq!(r.render(false).lines().count(), 2);
        assert_eq!(r.render(true).lines().count(), 3);
    }
}
