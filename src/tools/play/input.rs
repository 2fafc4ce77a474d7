//! Where the person's lines come from: a pipe (or file), read as a script, every line in turn; or a
//! terminal, read as typed, where what was typed while the engine thought is dropped.
//!
//! A terminal in line mode hands a line over only at Enter, and without termios (no crate for it here)
//! its pending input cannot be flushed. So a thread reads the terminal's lines as they are entered and
//! stamps each with the time it came; after the engine's turn the lines stamped since it began are
//! dropped, as they were typed before its move could be seen. A line only half typed when the engine
//! answers is beyond reach: it stays in the terminal's buffer and ends up in the next line read.
//! A pipe keeps everything: a script feeds its moves ahead of the prompts by nature.

use std::collections::VecDeque;
use std::io::{self, BufRead};
use std::sync::mpsc::{Receiver, channel};
use std::time::Instant;

/// A source of the person's lines.
pub trait Input {
    /// The next line, without its end; `None` at the end of the input.
    fn line(&mut self) -> io::Result<Option<String>>;

    /// Drops the lines that came in since `since` (typed while the engine thought) and returns them.
    fn drop_since(&mut self, since: Instant) -> Vec<String>;

    /// Whether the lines read should be echoed: a pipe's are, so that the output reads as a
    /// transcript; a terminal has shown them as they were typed.
    fn echoes(&self) -> bool;
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

/// A line as the reading thread passes it on: the time it came and its text, or the read's error.
pub type Stamped = io::Result<(Instant, String)>;

/// Lines typed at a terminal, each stamped with the time it was entered.
pub struct Typed {
    incoming: Receiver<Stamped>,
    /// Lines (or a read's error) already taken from `incoming` but not yet read.
    waiting: VecDeque<Stamped>,
}

impl Typed {
    /// Reads the process's stdin on a thread of its own. The thread blocks on the terminal for the
    /// rest of the process (it ends with it), which is why it is only for stdin.
    pub fn stdin() -> Typed {
        let (send, incoming) = channel();
        std::thread::spawn(move || {
            let mut stdin = io::stdin().lock();
            loop {
                let mut line = String::new();
                let stamped = match stdin.read_line(&mut line) {
                    Ok(0) => return,
                    Ok(_) => Ok((Instant::now(), line.trim_end_matches(['\n', '\r']).to_string())),
                    Err(e) => Err(e),
                };
                let failed = stamped.is_err();
                if send.send(stamped).is_err() || failed {
                    return;
                }
            }
        });
        Typed::from_channel(incoming)
    }

    /// Lines from any sender of stamped lines (tests stamp them as they please).
    pub fn from_channel(incoming: Receiver<Stamped>) -> Typed {
        Typed { incoming, waiting: VecDeque::new() }
    }
}

impl Input for Typed {
    fn line(&mut self) -> io::Result<Option<String>> {
        match self.waiting.pop_front().map_or_else(|| self.incoming.recv(), Ok) {
            Ok(stamped) => stamped.map(|(_, line)| Some(line)),
            // The reader hung up: the input has ended.
            Err(_) => Ok(None),
        }
    }

    fn drop_since(&mut self, since: Instant) -> Vec<String> {
        self.waiting.extend(self.incoming.try_iter());
        let mut dropped = vec![];
        // A read's error stays for `line` to report.
        for stamped in std::mem::take(&mut self.waiting) {
            match stamped {
                Ok((at, line)) if at >= since => dropped.push(line),
                kept => self.waiting.push_back(kept),
            }
        }
        dropped
    }

    fn echoes(&self) -> bool {
        false
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
        for (at, line) in
            [(before, "H8"), (began, "H9"), (began + Duration::from_millis(5), "J9"), (before, "K9")]
        {
            send.send(Ok((at, line.to_string()))).unwrap();
        }
        assert_eq!(typed.drop_since(began), ["H9", "J9"]);
        assert_eq!(typed.line().unwrap().as_deref(), Some("H8"));
        assert_eq!(typed.line().unwrap().as_deref(), Some("K9"));
        send.send(Ok((Instant::now(), "L9".into()))).unwrap();
        assert_eq!(typed.line().unwrap().as_deref(), Some("L9"));
        drop(send);
        assert_eq!(typed.line().unwrap(), None, "the reader hung up: the end of the input");
        assert!(!typed.echoes());
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
