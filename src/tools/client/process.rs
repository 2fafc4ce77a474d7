//! A brain process seen from the manager's side: started in its own process group, fed lines on
//! stdin, read line by line from stdout with deadlines, and killed whole when it is done or misbehaves.
//!
//! The brain's stderr goes where its manager would put it ([`StderrMode`]): Piskvork gives it the pipe of
//! stdout, so a stray line there is read as the answer.
//!
//! Used by the referee's seats, the script runner and calibration. Invariants:
//! - no call waits past the deadline it is given, whatever the brain prints or fails to print;
//! - a line longer than [`MAX_ANSWER_BYTES`] is cut there; a flood of skipped lines ends the wait;
//! - dropping a [`Brain`] kills its whole process group (a brain that ignores END, or a wrapper script
//!   with children, leaves nothing behind).

use std::io::{self, BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Longest answer line kept; the rest of it is dropped.
pub const MAX_ANSWER_BYTES: usize = 64 * 1024;
/// Lines skipped (MESSAGE, DEBUG) while waiting for one answer before the brain is called a flood.
pub const MAX_SKIPPED_LINES: usize = 10_000;

/// Splits a command line into words: blanks separate, single or double quotes group, backslash escapes
/// the next character outside single quotes.
pub fn split_command(s: &str) -> Result<Vec<String>, String> {
    let mut words = vec![];
    let mut cur = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some('\''), c) => cur.push(c),
            (_, '\\') => {
                cur.push(chars.next().ok_or("command ends with a backslash")?);
                in_word = true;
            }
            (Some(_), c) => cur.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            (None, c) => {
                cur.push(c);
                in_word = true;
            }
        }
    }
    if quote.is_some() {
        return Err(format!("unclosed quote in '{s}'"));
    }
    if in_word {
        words.push(cur);
    }
    if words.is_empty() {
        return Err("empty engine command".into());
    }
    Ok(words)
}

/// What one wait for a line gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Received {
    Line(String),
    /// The deadline passed.
    Timeout,
    /// stdout closed (the brain exited or closed it).
    Closed,
    /// More than [`MAX_SKIPPED_LINES`] skippable lines and no answer.
    Flood,
}

enum Out {
    Line(String),
    Eof,
}

/// Where a brain's stderr goes: each manager has its habit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum StderrMode {
    /// Into the pipe of stdout, read as answers are (Piskvork, which loses the game on a stray line).
    Merge,
    /// Discarded.
    #[default]
    Ignore,
    /// Through to our own stderr, for a person or a log to read.
    Log,
}

impl StderrMode {
    pub const NAMES: &[&str] = &["merge", "ignore", "log"];

    pub fn parse(s: &str) -> Option<StderrMode> {
        match s.to_ascii_lowercase().as_str() {
            "merge" => Some(StderrMode::Merge),
            "ignore" => Some(StderrMode::Ignore),
            "log" => Some(StderrMode::Log),
            _ => None,
        }
    }
}

pub struct Brain {
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<Out>,
    closed: bool,
}

impl Brain {
    /// Starts `command` (program and arguments), its stderr as `stderr` says.
    pub fn spawn(command: &[String], stderr: StderrMode) -> io::Result<Brain> {
        let (program, args) = command
            .split_first()
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "empty command"))?;
        let mut cmd = Command::new(program);
        cmd.args(args).stdin(Stdio::piped());
        let merged = match stderr {
            StderrMode::Merge => {
                let (reader, writer) = io::pipe()?;
                cmd.stdout(writer.try_clone()?).stderr(writer);
                Some(reader)
            }
            StderrMode::Ignore => {
                cmd.stdout(Stdio::piped()).stderr(Stdio::null());
                None
            }
            StderrMode::Log => {
                cmd.stdout(Stdio::piped()).stderr(Stdio::inherit());
                None
            }
        };
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            cmd.process_group(0);
        }
        let mut child = cmd.spawn()?;
        // The command holds our copies of the merged pipe's write end: the brain's exit must close it.
        drop(cmd);
        let stdin = child.stdin.take();
        let (tx, rx) = mpsc::channel();
        let output: Option<Box<dyn Read + Send>> = match merged {
            Some(reader) => Some(Box::new(reader)),
            None => child.stdout.take().map(|o| Box::new(o) as Box<dyn Read + Send>),
        };
        if let Some(out) = output {
            std::thread::Builder::new().name("brain-stdout".into()).spawn(move || {
                let mut reader = BufReader::new(out);
                let mut buf = Vec::new();
                loop {
                    buf.clear();
                    let read = (&mut reader).take(MAX_ANSWER_BYTES as u64).read_until(b'\n', &mut buf);
                    match read {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {
                            // A cut line: drop the rest up to its end.
                            if buf.last() != Some(&b'\n') && buf.len() >= MAX_ANSWER_BYTES {
                                let mut rest = Vec::new();
                                let _ = reader.read_until(b'\n', &mut rest);
                            }
                            let text = String::from_utf8_lossy(&buf);
                            let line = text.trim_end_matches(['\r', '\n']).to_string();
                            // CR alone also ends a line (the protocol allows it).
                            for part in line.split('\r') {
                                if tx.send(Out::Line(part.to_string())).is_err() {
                                    return;
                                }
                            }
                        }
                    }
                }
                let _ = tx.send(Out::Eof);
            })?;
        }
        Ok(Brain { child, stdin, rx, closed: false })
    }

    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// Sends one line (a LF is appended).
    pub fn send(&mut self, line: &str) -> io::Result<()> {
        let mut bytes = line.as_bytes().to_vec();
        bytes.push(b'\n');
        self.send_raw(&bytes)
    }

    /// Sends bytes as they are.
    pub fn send_raw(&mut self, bytes: &[u8]) -> io::Result<()> {
        let stdin =
            self.stdin.as_mut().ok_or_else(|| io::Error::new(io::ErrorKind::BrokenPipe, "stdin closed"))?;
        stdin.write_all(bytes)?;
        stdin.flush()
    }

    /// Closes the brain's stdin (end of input).
    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// The next line, whatever it is, before `deadline`.
    pub fn recv_line(&mut self, deadline: Instant) -> Received {
        if self.closed {
            return Received::Closed;
        }
        match self.rx.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            Ok(Out::Line(l)) => Received::Line(l),
            Ok(Out::Eof) | Err(RecvTimeoutError::Disconnected) => {
                self.closed = true;
                Received::Closed
            }
            Err(RecvTimeoutError::Timeout) => Received::Timeout,
        }
    }

    /// The next line that is not `MESSAGE`/`DEBUG` (those go to `skipped`, up to a hundred kept), before
    /// `deadline`. Empty lines are skipped too (managers ignore them).
    pub fn recv_answer(&mut self, deadline: Instant, skipped: &mut Vec<String>) -> Received {
        for _ in 0..MAX_SKIPPED_LINES {
            match self.recv_line(deadline) {
                Received::Line(l) if is_chatter(&l) => {
                    if skipped.len() < 100 {
                        skipped.push(l);
                    }
                }
                other => return other,
            }
        }
        Received::Flood
    }

    /// Waits until the process exits or `deadline` passes.
    pub fn wait_exit(&mut self, deadline: Instant) -> Option<ExitStatus> {
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return Some(status),
                Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(2)),
                _ => return None,
            }
        }
    }

    /// Stops the whole process group for `pause` and lets it go on: what a loaded machine does to a
    /// brain that thinks (its clock runs on, its threads do not).
    pub fn stall(&mut self, pause: Duration) -> io::Result<()> {
        #[cfg(unix)]
        {
            let group = format!("-{}", self.child.id());
            let signal = |sig: &str| {
                Command::new("kill")
                    .args([sig, "--", &group])
                    .stdin(Stdio::null())
                    .stdout(Stdio::null())
                    .stderr(Stdio::null())
                    .status()
            };
            signal("-STOP")?;
            std::thread::sleep(pause);
            signal("-CONT")?;
            Ok(())
        }
        #[cfg(not(unix))]
        {
            let _ = pause;
            Err(io::Error::new(io::ErrorKind::Unsupported, "stalling a brain needs a Unix system"))
        }
    }

    /// Whether the process is still running.
    pub fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Kills the whole process group and reaps the process.
    pub fn kill(&mut self) {
        self.stdin = None;
        #[cfg(unix)]
        {
            // The group was made at spawn (process_group(0)), so its id is the child's pid. std has no
            // killpg; the kill utility does it without unsafe code.
            let _ = Command::new("kill")
                .args(["-KILL", "--", &format!("-{}", self.child.id())])
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status();
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Sends END, gives the brain `grace` to exit by itself, then kills what is left.
    pub fn shutdown(&mut self, grace: Duration) {
        let _ = self.send("END");
        self.stdin = None;
        let _ = self.wait_exit(Instant::now() + grace);
        self.kill();
    }
}

impl Drop for Brain {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Lines managers skip while waiting for an answer.
pub fn is_chatter(line: &str) -> bool {
    let upper = line.trim_start().to_ascii_uppercase();
    upper.is_empty() || upper.starts_with("MESSAGE") || upper.starts_with("DEBUG")
}

/// Parses a move answer the way strict managers do: exactly `X,Y`, non-negative decimal integers, nothing
/// else on the line.
pub fn parse_move(line: &str) -> Option<(i64, i64)> {
    let (x, y) = line.split_once(',')?;
    let num = |s: &str| {
        (!s.is_empty() && s.len() <= 9 && s.bytes().all(|b| b.is_ascii_digit())).then(|| s.parse().ok())?
    };
    Some((num(x)?, num(y)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_split_like_a_shell() {
        assert_eq!(split_command("./a -x 1").unwrap(), vec!["./a", "-x", "1"]);
        assert_eq!(split_command("'my engine' \"a b\" c\\ d").unwrap(), vec!["my engine", "a b", "c d"]);
        assert!(split_command("'open").is_err());
        assert!(split_command("   ").is_err());
    }

    #[test]
    fn strict_moves() {
        assert_eq!(parse_move("7,8"), Some((7, 8)));
        assert_eq!(parse_move("7, 8"), None);
        assert_eq!(parse_move("7,8 "), None);
        assert_eq!(parse_move("-1,8"), None);
        assert_eq!(parse_move("OK"), None);
    }
}
