//! Scripted protocol sessions: a script says what to send to a brain and what must come back; the
//! runner plays it against a fresh process of any Gomocup engine and reports every step.
//!
//! The format (documented for users in `protocol-tests/README.md`), one step per line:
//!
//! ```text
//! # comment                 blank lines and comments are skipped
//! > START 15                send the line (escapes \r \n \t \\ \xHH; a LF is appended)
//! >> TURN 7,7\r             send the bytes with escapes decoded and no LF appended
//! < OK                      the next answer is exactly this line
//! <~ ERROR *                the next answer matches the pattern: * any run of characters, ? one
//! <move                     the next answer is a legal move (X,Y on an empty point of the board the
//!                           runner tracks from START/BOARD/TURN/TAKEBACK and the engine's moves)
//! <silent 300               no answer at all within 300 ms
//! <exit 500                 the process exits within 500 ms
//! limit 1000                each later answer must arrive within 1000 ms of the last line sent
//! pause 50                  wait 50 ms before the next step
//! close                     close the engine's stdin (end of input)
//! args --style defensive    extra arguments for the engine (first line only)
//! ```
//!
//! `MESSAGE ` and `DEBUG ` lines are never matched: they are skipped and kept in the report.
//!
//! Invariants: the runner never waits longer than a step's limit, never panics on what an engine
//! prints, and kills the engine's whole process group when the script ends.

use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::board::{Board, CaptureRule, Pos};
use crate::brain::{Brain, Received, parse_move};
use crate::protocol::Command;
use crate::rules::Rules;

/// How long an answer may take when the script does not say (`limit`).
pub const DEFAULT_LIMIT_MS: u64 = 5_000;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// `> line`: the bytes include the LF that ends the line.
    SendLine(Vec<u8>),
    /// `>> bytes`: sent as they are.
    SendRaw(Vec<u8>),
    Exact(String),
    Pattern(String),
    Move,
    Silent(u64),
    Exit(u64),
    Limit(u64),
    Pause(u64),
    Close,
}

#[derive(Clone, Debug)]
pub struct Script {
    pub name: String,
    pub args: Vec<String>,
    /// Steps with their line numbers in the file.
    pub steps: Vec<(usize, Step)>,
}

/// Decodes `\r \n \t \\ \xHH` in a line to send.
fn unescape(s: &str) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' {
            out.push(b[i]);
            i += 1;
            continue;
        }
        match b.get(i + 1) {
            Some(b'r') => out.push(b'\r'),
            Some(b'n') => out.push(b'\n'),
            Some(b't') => out.push(b'\t'),
            Some(b'\\') => out.push(b'\\'),
            Some(b'x') => {
                let hex = s.get(i + 2..i + 4).ok_or("\\x needs two hex digits")?;
                out.push(u8::from_str_radix(hex, 16).map_err(|_| format!("bad escape \\x{hex}"))?);
                i += 2;
            }
            _ => return Err(format!("unknown escape in '{s}'")),
        }
        i += 2;
    }
    Ok(out)
}

impl Script {
    pub fn parse(name: &str, text: &str) -> Result<Script, String> {
        let mut steps = vec![];
        let mut args = vec![];
        for (i, raw) in text.lines().enumerate() {
            let n = i + 1;
            let line = raw.trim_end_matches('\r');
            let trimmed = line.trim();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            let err = |e: String| format!("{name}:{n}: {e}");
            let num = |s: &str| {
                s.trim().parse::<u64>().map_err(|_| err(format!("'{}' is not a number of ms", s.trim())))
            };
            let step = if let Some(rest) = line.strip_prefix(">> ") {
                Step::SendRaw(unescape(rest).map_err(err)?)
            } else if let Some(rest) = line.strip_prefix("> ") {
                let mut bytes = unescape(rest).map_err(err)?;
                bytes.push(b'\n');
                Step::SendLine(bytes)
            } else if let Some(rest) = line.strip_prefix("<~ ") {
                Step::Pattern(rest.to_string())
            } else if trimmed == "<move" {
                Step::Move
            } else if let Some(rest) = trimmed.strip_prefix("<silent") {
                Step::Silent(num(rest)?)
            } else if let Some(rest) = trimmed.strip_prefix("<exit") {
                Step::Exit(num(rest)?)
            } else if let Some(rest) = line.strip_prefix("< ") {
                Step::Exact(rest.to_string())
            } else if let Some(rest) = trimmed.strip_prefix("limit ") {
                Step::Limit(num(rest)?)
            } else if let Some(rest) = trimmed.strip_prefix("pause ") {
                Step::Pause(num(rest)?)
            } else if trimmed == "close" {
                Step::Close
            } else if let Some(rest) = trimmed.strip_prefix("args ") {
                args.extend(rest.split_whitespace().map(String::from));
                continue;
            } else {
                return Err(err(format!("cannot read step '{trimmed}'")));
            };
            steps.push((n, step));
        }
        Ok(Script { name: name.to_string(), args, steps })
    }
}

/// `*` matches any run of characters, `?` any one character; everything else itself.
pub fn glob_match(pattern: &str, text: &str) -> bool {
    let (p, t): (Vec<char>, Vec<char>) = (pattern.chars().collect(), text.chars().collect());
    let (mut pi, mut ti) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        if pi < p.len() && (p[pi] == '?' || p[pi] == t[ti]) {
            pi += 1;
            ti += 1;
        } else if pi < p.len() && p[pi] == '*' {
            star = Some((pi, ti));
            pi += 1;
        } else if let Some((sp, st)) = star {
            pi = sp + 1;
            ti = st + 1;
            star = Some((sp, st + 1));
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|&c| c == '*')
}

/// One step's result.
#[derive(Clone, Debug)]
pub struct StepReport {
    pub line: usize,
    pub step: String,
    pub passed: bool,
    /// What came back (or why the step failed).
    pub detail: String,
    /// MESSAGE/DEBUG lines skipped while waiting.
    pub skipped: Vec<String>,
    /// For an expectation: the last line sent before it (what the answer answers).
    pub after: Option<String>,
}

#[derive(Clone, Debug)]
pub struct Report {
    pub name: String,
    pub steps: Vec<StepReport>,
    /// A problem outside any step (the engine would not start).
    pub error: Option<String>,
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
        for s in &self.steps {
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
            "captures" => self.captures = crate::protocol::parse_captures(value).ok(),
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
    fn engine_move(&mut self, line: &str) -> Result<(), String> {
        self.snapshot = None;
        let (x, y) = parse_move(line).ok_or("not X,Y")?;
        self.awaiting_move = false;
        let b = self.board.as_mut().ok_or("a move, but no game was started")?;
        b.try_play(x, y).map(|_| ()).map_err(|e| e.to_string())
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

/// Runs `script` against a fresh process of `engine` (program and arguments).
pub fn run(script: &Script, engine: &[String]) -> Report {
    let mut report = Report { name: script.name.clone(), steps: vec![], error: None };
    let command: Vec<String> = engine.iter().chain(&script.args).cloned().collect();
    let mut brain = match Brain::spawn(&command, Stdio::null()) {
        Ok(b) => b,
        Err(e) => {
            report.error = Some(format!("cannot start '{}': {e}", command.join(" ")));
            return report;
        }
    };
    let mut tracker = Tracker::default();
    let mut limit = Duration::from_millis(DEFAULT_LIMIT_MS);
    let mut last_send = Instant::now();
    let mut last_sent: Option<String> = None;
    for (line_no, step) in &script.steps {
        let mut skipped = vec![];
        let (passed, detail) = match step {
            Step::SendLine(bytes) | Step::SendRaw(bytes) => {
                last_sent = Some(describe(step));
                tracker.sent(bytes);
                last_send = Instant::now();
                match brain.send_raw(bytes) {
                    Ok(()) => (true, String::new()),
                    Err(e) => (false, format!("cannot write: {e}")),
                }
            }
            Step::Limit(ms) => {
                limit = Duration::from_millis(*ms);
                (true, String::new())
            }
            Step::Pause(ms) => {
                std::thread::sleep(Duration::from_millis(*ms));
                (true, String::new())
            }
            Step::Close => {
                brain.close_stdin();
                (true, String::new())
            }
            Step::Exit(ms) => match brain.wait_exit(Instant::now() + Duration::from_millis(*ms)) {
                Some(status) => (true, format!("exited ({status})")),
                None => (false, format!("still running after {ms} ms")),
            },
            Step::Silent(ms) => {
                match brain.recv_answer(Instant::now() + Duration::from_millis(*ms), &mut skipped) {
                    Received::Line(l) => {
                        tracker.maybe_move(&l);
                        (false, format!("got '{l}'"))
                    }
                    Received::Timeout => (true, "no answer".into()),
                    Received::Closed => (true, "no answer (output closed)".into()),
                    Received::Flood => (false, "flood of skipped lines".into()),
                }
            }
            Step::Exact(_) | Step::Pattern(_) | Step::Move => match brain
                .recv_answer(last_send + limit, &mut skipped)
            {
                Received::Line(l) => {
                    let verdict = match step {
                        Step::Exact(want) => (l == *want).then_some(()).ok_or_else(|| format!("got '{l}'")),
                        Step::Pattern(p) => {
                            glob_match(p, &l).then_some(()).ok_or_else(|| format!("got '{l}'"))
                        }
                        _ => tracker.engine_move(&l).map_err(|e| format!("got '{l}': {e}")),
                    };
                    if !matches!(step, Step::Move) {
                        tracker.maybe_move(&l);
                    }
                    let ms = last_send.elapsed().as_millis();
                    match verdict {
                        Ok(()) => (true, format!("got '{l}' after {ms} ms")),
                        Err(e) => (false, e),
                    }
                }
                Received::Timeout => (false, format!("no answer within {} ms", limit.as_millis())),
                Received::Closed => (false, "the engine closed its output (exited?)".into()),
                Received::Flood => (false, "flood of skipped lines".into()),
            },
        };
        let after = matches!(step, Step::Exact(_) | Step::Pattern(_) | Step::Move | Step::Silent(_))
            .then(|| last_sent.clone())
            .flatten();
        report.steps.push(StepReport {
            line: *line_no,
            step: describe(step),
            passed,
            detail,
            skipped,
            after,
        });
    }
    // A moment to exit by itself after its input closes, then the whole process group goes.
    brain.close_stdin();
    let _ = brain.wait_exit(Instant::now() + Duration::from_millis(500));
    brain.kill();
    report
}

fn describe(step: &Step) -> String {
    let shown = |b: &[u8]| String::from_utf8_lossy(b).escape_debug().to_string();
    match step {
        Step::SendLine(b) => format!("> {}", shown(&b[..b.len().saturating_sub(1)])),
        Step::SendRaw(b) => format!(">> {}", shown(b)),
        Step::Exact(s) => format!("< {s}"),
        Step::Pattern(s) => format!("<~ {s}"),
        Step::Move => "<move".into(),
        Step::Silent(ms) => format!("<silent {ms}"),
        Step::Exit(ms) => format!("<exit {ms}"),
        Step::Limit(ms) => format!("limit {ms}"),
        Step::Pause(ms) => format!("pause {ms}"),
        Step::Close => "close".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs() {
        assert!(glob_match("ERROR *", "ERROR bad thing"));
        assert!(!glob_match("ERROR *", "UNKNOWN x"));
        assert!(glob_match("FORBID *.", "FORBID 0707."));
        assert!(glob_match("?,?", "7,7"));
        assert!(!glob_match("?,?", "10,7"));
        assert!(glob_match("*", ""));
    }

    #[test]
    fn parses_every_step() {
        let s = Script::parse(
            "t",
            "args --style defensive\n# c\n> START 15\\r\n>> X\\x41\n< OK\n<~ E*\n<move\n<silent 5\n<exit 9\nlimit 7\npause 1\nclose\n",
        )
        .unwrap();
        assert_eq!(s.args, vec!["--style", "defensive"]);
        assert_eq!(s.steps[0].1, Step::SendLine(b"START 15\r\n".to_vec()));
        assert_eq!(s.steps[1].1, Step::SendRaw(b"XA".to_vec()));
        assert_eq!(s.steps.len(), 10);
        assert!(Script::parse("t", "what is this").is_err());
    }
}
