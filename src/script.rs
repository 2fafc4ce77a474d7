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

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, Command as Process, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use crate::board::Board;
use crate::protocol::Command;

/// How long an answer may take when the script does not say (`limit`).
pub const DEFAULT_LIMIT_MS: u64 = 5_000;
/// Lines an engine may print, skipped or not, before the runner calls it a flood.
const MAX_LINES_PER_STEP: usize = 10_000;
/// Longest answer line kept.
const MAX_ANSWER_BYTES: usize = 64 * 1024;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    Send(Vec<u8>),
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
                Step::Send(unescape(rest).map_err(err)?)
            } else if let Some(rest) = line.strip_prefix("> ") {
                let mut bytes = unescape(rest).map_err(err)?;
                bytes.push(b'\n');
                Step::Send(bytes)
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
            }
        }
        out
    }
}

/// What the stdout reader hands over.
enum Out {
    Line(String),
    Eof,
}

/// The board as the script's own sends and the engine's moves leave it.
#[derive(Default)]
struct Tracker {
    board: Option<Board>,
    block: Option<Vec<(i64, i64, i64)>>,
    awaiting_move: bool,
}

impl Tracker {
    fn sent(&mut self, bytes: &[u8]) {
        let text = String::from_utf8_lossy(bytes);
        for line in text.split(['\r', '\n']).filter(|l| !l.trim().is_empty()) {
            let Ok(cmd) = line.parse::<Command>() else { continue };
            match (cmd, self.block.as_mut()) {
                (Command::Data(v), Some(rows)) if v.len() == 3 => rows.push((v[0], v[1], v[2])),
                (Command::Done, Some(_)) => {
                    let rows = self.block.take().unwrap_or_default();
                    if let Some(b) = self.board.as_mut() {
                        let own: Vec<_> =
                            rows.iter().filter(|r| r.2 == 1).filter_map(|r| b.pos(r.0, r.1)).collect();
                        let opp: Vec<_> =
                            rows.iter().filter(|r| r.2 == 2).filter_map(|r| b.pos(r.0, r.1)).collect();
                        let walls: Vec<_> =
                            rows.iter().filter(|r| r.2 == 3).filter_map(|r| b.pos(r.0, r.1)).collect();
                        let (black, white) = if own.len() == opp.len() { (own, opp) } else { (opp, own) };
                        let _ = b.set_position(&black, &white, &walls);
                    }
                    self.awaiting_move = true;
                }
                (Command::Start(n), _) => self.board = Board::new(n, n).ok(),
                (Command::RectStart(w, h), _) => self.board = Board::new(w, h).ok(),
                (Command::Restart, _) => {
                    if let Some(b) = self.board.as_mut() {
                        *b = Board::new(b.width() as i64, b.height() as i64).expect("same size");
                    }
                }
                (Command::Board, _) => self.block = Some(vec![]),
                (Command::Turn(x, y), _) => {
                    if let Some(b) = self.board.as_mut() {
                        let _ = b.try_play(x, y);
                    }
                    self.awaiting_move = true;
                }
                (Command::Begin | Command::Play(..), _) => self.awaiting_move = true,
                (Command::TakeBack(x, y), _) => {
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

    /// Checks an answer that should be a legal move (`X,Y` exactly, digits only, as managers demand)
    /// and plays it; `Err` says why it is not one.
    fn engine_move(&mut self, line: &str) -> Result<(), String> {
        let digits = |s: &str| !s.is_empty() && s.len() <= 4 && s.bytes().all(|b| b.is_ascii_digit());
        let coords: Vec<&str> = line.split(',').collect();
        if coords.len() != 2 || !coords.iter().all(|c| digits(c)) {
            return Err("not X,Y".into());
        }
        let (x, y) = (coords[0].parse::<i64>().unwrap_or(-1), coords[1].parse::<i64>().unwrap_or(-1));
        self.awaiting_move = false;
        match self.board.as_mut() {
            Some(b) => b.try_play(x, y).map(|_| ()).map_err(|e| e.to_string()),
            None => Ok(()),
        }
    }

    /// Plays an exact or pattern-matched answer that happens to be a move.
    fn maybe_move(&mut self, line: &str) {
        if self.awaiting_move {
            let _ = self.engine_move(line);
        }
    }
}

/// Runs `script` against a fresh process of `engine` (program and arguments).
pub fn run(script: &Script, engine: &[String]) -> Report {
    let mut report = Report { name: script.name.clone(), steps: vec![], error: None };
    let Some((program, base_args)) = engine.split_first() else {
        report.error = Some("no engine command".into());
        return report;
    };
    let mut cmd = Process::new(program);
    cmd.args(base_args).args(&script.args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null());
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        cmd.process_group(0);
    }
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => {
            report.error = Some(format!("cannot start '{program}': {e}"));
            return report;
        }
    };
    let rx = spawn_stdout_reader(&mut child);
    let mut stdin = child.stdin.take();
    let mut tracker = Tracker::default();
    let mut limit = Duration::from_millis(DEFAULT_LIMIT_MS);
    let mut last_send = Instant::now();
    let mut eof = false;
    for (line_no, step) in &script.steps {
        let describe = describe(step);
        let mut skipped = vec![];
        let (passed, detail) = match step {
            Step::Send(bytes) => {
                tracker.sent(bytes);
                last_send = Instant::now();
                match stdin.as_mut().map(|s| s.write_all(bytes).and_then(|_| s.flush())) {
                    Some(Ok(())) => (true, String::new()),
                    Some(Err(e)) => (false, format!("cannot write: {e}")),
                    None => (false, "stdin already closed".into()),
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
                stdin = None;
                (true, String::new())
            }
            Step::Exit(ms) => {
                let deadline = Instant::now() + Duration::from_millis(*ms);
                loop {
                    match child.try_wait() {
                        Ok(Some(status)) => break (true, format!("exited ({status})")),
                        Ok(None) if Instant::now() >= deadline => {
                            break (false, format!("still running after {ms} ms"));
                        }
                        Ok(None) => std::thread::sleep(Duration::from_millis(2)),
                        Err(e) => break (false, format!("cannot wait: {e}")),
                    }
                }
            }
            Step::Silent(ms) => {
                match next_answer(&rx, Instant::now() + Duration::from_millis(*ms), &mut skipped, &mut eof) {
                    Answer::Line(l) => (false, format!("got '{l}'")),
                    Answer::Timeout => (true, "no answer".into()),
                    Answer::Eof => (true, "no answer (output closed)".into()),
                    Answer::Flood => (false, "flood of skipped lines".into()),
                }
            }
            Step::Exact(_) | Step::Pattern(_) | Step::Move => {
                match next_answer(&rx, last_send + limit, &mut skipped, &mut eof) {
                    Answer::Line(l) => {
                        let verdict = match step {
                            Step::Exact(want) => {
                                (l == *want).then_some(()).ok_or_else(|| format!("got '{l}'"))
                            }
                            Step::Pattern(p) => {
                                glob_match(p, &l).then_some(()).ok_or_else(|| format!("got '{l}'"))
                            }
                            _ => tracker.engine_move(&l).map_err(|e| format!("got '{l}': {e}")),
                        };
                        if !matches!(step, Step::Move) && verdict.is_ok() {
                            tracker.maybe_move(&l);
                        }
                        let ms = last_send.elapsed().as_millis();
                        match verdict {
                            Ok(()) => (true, format!("got '{l}' after {ms} ms")),
                            Err(e) => (false, e),
                        }
                    }
                    Answer::Timeout => (false, format!("no answer within {} ms", limit.as_millis())),
                    Answer::Eof => (false, "the engine closed its output (exited?)".into()),
                    Answer::Flood => (false, "flood of skipped lines".into()),
                }
            }
        };
        report.steps.push(StepReport { line: *line_no, step: describe, passed, detail, skipped });
    }
    drop(stdin);
    finish(&mut child);
    report
}

fn describe(step: &Step) -> String {
    match step {
        Step::Send(b) => format!("> {}", String::from_utf8_lossy(b).trim_end_matches('\n').escape_debug()),
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

enum Answer {
    Line(String),
    Timeout,
    Eof,
    Flood,
}

/// The next line that is not MESSAGE/DEBUG, before `deadline`.
fn next_answer(rx: &Receiver<Out>, deadline: Instant, skipped: &mut Vec<String>, eof: &mut bool) -> Answer {
    if *eof {
        return Answer::Eof;
    }
    for _ in 0..MAX_LINES_PER_STEP {
        let wait = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(wait) {
            Ok(Out::Line(l)) => {
                let upper = l.to_ascii_uppercase();
                if upper.starts_with("MESSAGE ")
                    || upper.starts_with("DEBUG ")
                    || upper == "MESSAGE"
                    || upper == "DEBUG"
                {
                    if skipped.len() < 100 {
                        skipped.push(l);
                    }
                    continue;
                }
                return Answer::Line(l);
            }
            Ok(Out::Eof) | Err(RecvTimeoutError::Disconnected) => {
                *eof = true;
                return Answer::Eof;
            }
            Err(RecvTimeoutError::Timeout) => return Answer::Timeout,
        }
    }
    Answer::Flood
}

fn spawn_stdout_reader(child: &mut Child) -> Receiver<Out> {
    let (tx, rx) = mpsc::channel();
    if let Some(out) = child.stdout.take() {
        std::thread::spawn(move || {
            let mut reader = BufReader::new(out);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                // Bounded: a line without end is cut at MAX_ANSWER_BYTES.
                match (&mut reader).take(MAX_ANSWER_BYTES as u64).read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf).trim_end_matches(['\r', '\n']).to_string();
                        if tx.send(Out::Line(line)).is_err() {
                            return;
                        }
                    }
                }
            }
            let _ = tx.send(Out::Eof);
        });
    }
    rx
}

/// Ends the engine: a moment to exit by itself after its stdin closed, then its whole process group is
/// killed.
fn finish(child: &mut Child) {
    let deadline = Instant::now() + Duration::from_millis(500);
    while Instant::now() < deadline {
        if let Ok(Some(_)) = child.try_wait() {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    #[cfg(unix)]
    {
        let _ = Process::new("kill")
            .args(["-KILL", "--", &format!("-{}", child.id())])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }
    let _ = child.kill();
    let _ = child.wait();
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
        assert_eq!(s.steps[0].1, Step::Send(b"START 15\r\n".to_vec()));
        assert_eq!(s.steps[1].1, Step::Send(b"XA".to_vec()));
        assert_eq!(s.steps.len(), 10);
        assert!(Script::parse("t", "what is this").is_err());
    }
}
