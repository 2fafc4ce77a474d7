//! Where the person's lines come from: a pipe (or file), read as a script, every line in turn; or a
//! terminal, read as typed, where what was typed while the engine thought is dropped, and named.
//!
//! A thread reads the terminal as it comes and stamps each piece with the time it came; after the
//! engine's turn what came since it began is dropped, as it was typed before its move could be seen.
//! While the engine thinks the terminal's echo and line editing are off (`stty`, there being no
//! termios crate here): keys neither garble the thinking line nor wait unseen in the terminal's
//! buffer, each reaches the thread at once, so that even a line half typed is dropped and named.
//! Ctrl-C then arrives as a key: it puts the terminal back and ends the program, as it would have.
//! Without `stty` the terminal stays as it was, and only whole lines are seen.
//! A pipe keeps everything: a script feeds its moves ahead of the prompts by nature.

use std::collections::VecDeque;
use std::io::{self, BufRead, Read};
use std::process::{Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// A source of the person's lines.
pub trait Input {
    /// The next line, without its end; `None` at the end of the input.
    fn line(&mut self) -> io::Result<Option<String>>;

    /// Drops what came in since `since` (typed while the engine thought): whole lines and a line
    /// still being typed, each returned.
    fn drop_since(&mut self, since: Instant) -> Vec<String>;

    /// Whether the lines read should be echoed: a pipe's are, so that the output reads as a
    /// transcript; a terminal has shown them as they were typed.
    fn echoes(&self) -> bool;

    /// Keys typed from now on (`true`) are neither shown nor held until Enter, or are again
    /// (`false`); whether they are now hidden. Only a terminal does anything.
    fn hush(&mut self, _on: bool) -> bool {
        false
    }
}

/// Lines from a pipe or a file, all of them played in order however early they came.
pub struct Piped<R>(pub R);

impl<R: BufRead> Input for Piped<R> {
    fn line(&mut self) -> io::Result<Option<String>> {
        let mut line = String::new();
        if self.0.read_line(&mut line)? == 0 {
            return Ok(None);
        }
        Ok(Some(line.trim_end_matches(['\n', '\r']).to_string()))
    }

    fn drop_since(&mut self, _: Instant) -> Vec<String> {
        vec![]
    }

    fn echoes(&self) -> bool {
        true
    }
}

/// A piece of what was typed as the reading thread passes it on: the time it came and its text (a
/// line or more with their ends, or keys of a line not yet ended), or the read's error.
pub type Stamped = io::Result<(Instant, String)>;

/// The terminal's settings (`stty -g`) while they are changed, to be put back.
type Saved = Arc<Mutex<Option<String>>>;

/// Lines typed at a terminal, each stamped with the time it was entered.
pub struct Typed {
    incoming: Receiver<Stamped>,
    /// Whole lines (or a read's error) already taken from `incoming` but not yet read, each with the
    /// time its end came.
    waiting: VecDeque<Stamped>,
    /// A line not yet ended: the time its first key came, and its keys.
    partial: Option<(Instant, String)>,
    /// Set while the terminal's echo is off.
    saved: Saved,
}

/// `stty ARGS` on the process's terminal; its output when it succeeded.
fn stty(args: &[&str]) -> Option<String> {
    let out = Command::new("stty").args(args).stdin(Stdio::inherit()).stderr(Stdio::null()).output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// Puts the terminal's settings back if they were changed.
fn restore(saved: &Saved) {
    let mut saved = saved.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(settings) = saved.take() {
        let _ = stty(&[&settings]);
    }
}

impl Typed {
    /// Reads the process's stdin on a thread of its own. The thread blocks on the terminal for the
    /// rest of the process (it ends with it), which is why it is only for stdin.
    pub fn stdin() -> Typed {
        let (send, incoming) = channel();
        let saved: Saved = Arc::default();
        let hushed = Arc::clone(&saved);
        std::thread::spawn(move || {
            let mut stdin = io::stdin().lock();
            let mut buf = [0u8; 1024];
            loop {
                let stamped = match stdin.read(&mut buf) {
                    Ok(0) => return,
                    Ok(n) => {
                        // Ctrl-C reaches us as a key only while the keys are hushed.
                        if buf[..n].contains(&3) {
                            restore(&hushed);
                            std::process::exit(130);
                        }
                        Ok((Instant::now(), String::from_utf8_lossy(&buf[..n]).into_owned()))
                    }
                    Err(e) => Err(e),
                };
                let failed = stamped.is_err();
                if send.send(stamped).is_err() || failed {
                    return;
                }
            }
        });
        Typed { incoming, waiting: VecDeque::new(), partial: None, saved }
    }

    /// Pieces from any sender of stamped text (tests stamp them as they please).
    pub fn from_channel(incoming: Receiver<Stamped>) -> Typed {
        Typed { incoming, waiting: VecDeque::new(), partial: None, saved: Arc::default() }
    }

    /// Cuts a piece into whole lines (into `waiting`) and the start of the next (`partial`).
    fn take(&mut self, stamped: Stamped) {
        let (at, text) = match stamped {
            Ok(piece) => piece,
            Err(e) => return self.waiting.push_back(Err(e)),
        };
        let mut rest = text.as_str();
        while !rest.is_empty() {
            let (keys, ended) = match rest.find('\n') {
                Some(i) => (&rest[..i], true),
                None => (rest, false),
            };
            rest = if ended { &rest[keys.len() + 1..] } else { "" };
            let (began, mut line) = self.partial.take().unwrap_or((at, String::new()));
            // Without line editing a backspace comes as a key: it takes the last one back.
            for c in keys.chars() {
                match c {
                    '\u{7f}' | '\u{8}' => {
                        line.pop();
                    }
                    '\r' => {}
                    c => line.push(c),
                }
            }
            if ended {
                self.waiting.push_back(Ok((at, line)));
            } else {
                self.partial = Some((began, line));
            }
        }
    }

    /// Takes every piece that has come.
    fn gather(&mut self) {
        while let Ok(stamped) = self.incoming.try_recv() {
            self.take(stamped);
        }
    }
}

impl Input for Typed {
    fn line(&mut self) -> io::Result<Option<String>> {
        loop {
            if let Some(stamped) = self.waiting.pop_front() {
                return stamped.map(|(_, line)| Some(line));
            }
            match self.incoming.recv() {
                Ok(stamped) => self.take(stamped),
                // The reader hung up: the input has ended (with a line not ended, that line).
                Err(_) => return Ok(self.partial.take().map(|(_, line)| line)),
            }
        }
    }

    fn drop_since(&mut self, since: Instant) -> Vec<String> {
        self.gather();
        let mut dropped = vec![];
        // A read's error stays for `line` to report.
        for stamped in std::mem::take(&mut self.waiting) {
            match stamped {
                Ok((at, line)) if at >= since => dropped.push(line),
                kept => self.waiting.push_back(kept),
            }
        }
        if let Some((at, line)) = self.partial.take() {
            if at >= since {
                dropped.push(line);
            } else {
                self.partial = Some((at, line));
            }
        }
        dropped.retain(|l| !l.trim().is_empty());
        dropped
    }

    fn echoes(&self) -> bool {
        false
    }

    fn hush(&mut self, on: bool) -> bool {
        if !on {
            restore(&self.saved);
            return false;
        }
        let mut saved = self.saved.lock().unwrap_or_else(|e| e.into_inner());
        if saved.is_none() {
            let Some(settings) = stty(&["-g"]) else { return false };
            if stty(&["-echo", "-icanon", "-isig", "min", "1", "time", "0"]).is_none() {
                return false;
            }
            *saved = Some(settings);
        }
        true
    }
}

impl Drop for Typed {
    fn drop(&mut self) {
        restore(&self.saved);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn lines_typed_since_the_engine_began_are_dropped_and_the_rest_kept_in_order() {
        let began = Instant::now();
        let before = began - Duration::from_secs(1);
        let (send, incoming) = channel();
        let mut typed = Typed::from_channel(incoming);
        for (at, text) in
            [(before, "H8\n"), (began, "H9\n"), (began + Duration::from_millis(5), "J9\n"), (before, "K9\n")]
        {
            send.send(Ok((at, text.to_string()))).unwrap();
        }
        assert_eq!(typed.drop_since(began), ["H9", "J9"]);
        assert_eq!(typed.line().unwrap().as_deref(), Some("H8"));
        assert_eq!(typed.line().unwrap().as_deref(), Some("K9"));
        send.send(Ok((Instant::now(), "L9\n".into()))).unwrap();
        assert_eq!(typed.line().unwrap().as_deref(), Some("L9"));
        drop(send);
        assert_eq!(typed.line().unwrap(), None, "the reader hung up: the end of the input");
        assert!(!typed.echoes());
    }

    #[test]
    fn keys_typed_while_the_engine_thinks_are_dropped_and_named_even_without_enter() {
        // Hushed, the terminal passes on each key as it comes: a line begun and ended while the engine
        // thinks, and one begun but not ended, are both dropped, and both named.
        let began = Instant::now();
        let (send, incoming) = channel();
        let mut typed = Typed::from_channel(incoming);
        let later = |ms| began + Duration::from_millis(ms);
        for (at, keys) in
            [(later(1), "h"), (later(2), "8"), (later(3), "\n"), (later(4), "j1"), (later(5), "x\u{7f}0")]
        {
            send.send(Ok((at, keys.to_string()))).unwrap();
        }
        assert_eq!(typed.drop_since(began), ["h8", "j10"]);
        // What is typed after the engine's move is the next line, whole.
        send.send(Ok((Instant::now(), "k11\n".into()))).unwrap();
        assert_eq!(typed.line().unwrap().as_deref(), Some("k11"));
    }

    #[test]
    fn a_pipe_keeps_every_line() {
        let mut piped = Piped(&b"H8\r\nH9\n"[..]);
        assert!(piped.drop_since(Instant::now()).is_empty());
        assert_eq!(piped.line().unwrap().as_deref(), Some("H8"));
        assert_eq!(piped.line().unwrap().as_deref(), Some("H9"));
        assert_eq!(piped.line().unwrap(), None);
        assert!(piped.echoes());
    }
}
