//! The script format (documented for users in `protocol-tests/README.md`), one step per line:
//!
//! ```text
//! # comment                 blank lines and comments are skipped
//! > START 15                send the line (escapes \r \n \t \\ \xHH; a LF is appended)
//! >> TURN 7,7\r             send the bytes with escapes decoded and no LF appended
//! < OK                      the next answer is exactly this line
//! <~ ERROR *                the next answer matches the pattern: * any run of characters, ? one
//! <move                     the next answer is a legal move (X,Y on an empty point of the board the
//!                           runner tracks from START/BOARD/TURN/TAKEBACK and the engine's moves)
//! <one-of 5,7 9,7           the next answer is one of these moves, and legal (several are right)
//! <silent 300               no answer at all within 300 ms
//! <exit 500                 the process exits within 500 ms
//! limit 1000                each later answer must arrive within 1000 ms of the last line sent
//! pause 50                  wait 50 ms before the next step
//! stall 250                 stop the engine's processes for 250 ms, then let them go on (a loaded
//!                           machine: the engine's clock runs while its threads do not)
//! close                     close the engine's stdin (end of input)
//! args --style defensive    extra arguments for the engine (first line only)
//! engine quincunx           the scenario is about pbrain-quincunx alone: skipped for other engines
//! ```

use crate::tools::client::process::parse_move;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// `> line`: the bytes include the LF that ends the line.
    SendLine(Vec<u8>),
    /// `>> bytes`: sent as they are.
    SendRaw(Vec<u8>),
    Exact(String),
    Pattern(String),
    Move,
    /// `<one-of X,Y X,Y …`: a move, and one of these.
    OneOf(Vec<(i64, i64)>),
    /// `<message PATTERN`: a `MESSAGE` line whose text matches, before any answer.
    Message(String),
    Silent(u64),
    Exit(u64),
    Limit(u64),
    Pause(u64),
    Stall(u64),
    Close,
}

impl Step {
    /// Whether the step checks something the engine does (rather than doing something to it).
    pub(super) fn is_check(&self) -> bool {
        self.reads_output() || matches!(self, Step::Exit(_))
    }

    /// Whether the step reads what the engine writes (an answer, a message, or silence).
    pub(super) fn reads_output(&self) -> bool {
        matches!(
            self,
            Step::Exact(_)
                | Step::Pattern(_)
                | Step::Move
                | Step::OneOf(_)
                | Step::Message(_)
                | Step::Silent(_)
        )
    }
}

#[derive(Clone, Debug)]
pub struct Script {
    pub name: String,
    pub args: Vec<String>,
    /// `engine NAME`: the scenario is about `pbrain-NAME` alone (its answers, or its own options).
    pub engine: Option<String>,
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

/// A step made of its number of milliseconds.
type TimedStep = fn(u64) -> Step;

/// The steps that are a number of milliseconds, by the word that begins them (no word begins another
/// step).
const TIMED: [(&str, TimedStep); 5] = [
    ("<silent", Step::Silent),
    ("<exit", Step::Exit),
    ("limit ", Step::Limit),
    ("pause ", Step::Pause),
    ("stall ", Step::Stall),
];

impl Script {
    pub fn parse(name: &str, text: &str) -> Result<Script, String> {
        let mut steps = vec![];
        let mut args = vec![];
        let mut engine: Option<String> = None;
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
            } else if let Some(rest) =
                trimmed.strip_prefix("<one-of").filter(|r| r.is_empty() || r.starts_with(' '))
            {
                let moves: Option<Vec<_>> = rest.split_whitespace().map(parse_move).collect();
                match moves {
                    Some(m) if !m.is_empty() => Step::OneOf(m),
                    _ => return Err(err(format!("'{trimmed}' is not a list of X,Y moves"))),
                }
            } else if let Some(rest) = line.strip_prefix("<message ") {
                Step::Message(rest.to_string())
            } else if let Some((make, rest)) =
                TIMED.iter().find_map(|&(word, make)| Some((make, trimmed.strip_prefix(word)?)))
            {
                make(num(rest)?)
            } else if let Some(rest) = line.strip_prefix("< ") {
                Step::Exact(rest.to_string())
            } else if trimmed == "close" {
                Step::Close
            } else if let Some(rest) = trimmed.strip_prefix("args ") {
                args.extend(rest.split_whitespace().map(String::from));
                continue;
            } else if let Some(rest) = trimmed.strip_prefix("engine ") {
                let name = rest.trim();
                let word = |c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.');
                if !name.chars().all(word) {
                    return Err(err(format!("'{name}' is not an engine name")));
                }
                if engine.as_ref().is_some_and(|e| !e.eq_ignore_ascii_case(name)) {
                    return Err(err("a scenario is about one engine at most".into()));
                }
                engine = Some(name.to_string());
                continue;
            } else {
                return Err(err(format!("cannot read step '{trimmed}'")));
            };
            steps.push((n, step));
        }
        Ok(Script { name: name.to_string(), args, engine, steps })
    }

    /// Why the script does not apply to `engine` (a command and its arguments), if it does not: it is
    /// about one engine and the command does not run it. Gomocup names a brain's program `pbrain-NAME`, so
    /// the command runs it when one of its words is a file whose name starts with `pbrain-NAME` (case
    /// aside): `wine pbrain-x.exe` and `taskset -c 0 ./pbrain-x` run `x` as well as `./pbrain-x` does.
    pub fn skip_reason(&self, engine: &[String]) -> Option<String> {
        let name = self.engine.as_ref()?;
        let want = format!("pbrain-{}", name.to_ascii_lowercase());
        let file_name = |w: &String| w.rsplit(['/', '\\']).next().unwrap_or_default().to_ascii_lowercase();
        let runs = engine.iter().any(|w| file_name(w).starts_with(&want));
        (!runs).then(|| format!("about pbrain-{name} alone"))
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

    #[test]
    fn message_steps_keep_their_pattern() {
        let s = Script::parse("t", "<message REALTIME BEST *\n<message (1) * | depth *\n").unwrap();
        assert_eq!(s.steps[0].1, Step::Message("REALTIME BEST *".into()));
        assert_eq!(s.steps[1].1, Step::Message("(1) * | depth *".into()));
    }

    #[test]
    fn one_of_lists_moves() {
        let s = Script::parse("t", "<one-of 5,7 9,7\n<one-of 3,3\n").unwrap();
        assert_eq!(s.steps[0].1, Step::OneOf(vec![(5, 7), (9, 7)]));
        assert_eq!(s.steps[1].1, Step::OneOf(vec![(3, 3)]));
        for bad in ["<one-of", "<one-of 5,7 x", "<one-of 5, 7", "<one-of -1,2", "<one-of5,7"] {
            assert!(Script::parse("t", bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn an_engine_directive_names_the_engine_the_scenario_is_about() {
        let s = Script::parse("t", "# about us\nengine quincunx\n> ABOUT\n").unwrap();
        assert_eq!(s.engine.as_deref(), Some("quincunx"));
        assert_eq!(s.steps.len(), 1);
        assert!(Script::parse("t", "engine a b").is_err());
        assert!(Script::parse("t", "engine a\nengine b").is_err());
        assert!(Script::parse("t", "engine a\nengine A").is_ok());
    }

    #[test]
    fn a_scenario_about_one_engine_is_skipped_for_others() {
        let cmd = |c: &str| c.split(' ').map(String::from).collect::<Vec<_>>();
        let ours = Script::parse("t", "engine quincunx\n").unwrap();
        for runs in [
            "/work/target/release/pbrain-quincunx",
            "pbrain-quincunx --player weights",
            "wine C:\\brains\\pbrain-Quincunx.exe",
            "taskset -c 0 ./pbrain-quincunx-old",
        ] {
            assert_eq!(ours.skip_reason(&cmd(runs)), None, "{runs}");
        }
        for other in ["./pbrain-rapfi", "bash tests/fault-engines/hang.sh", "quincunx", "./pbrain-quin"] {
            assert!(ours.skip_reason(&cmd(other)).is_some(), "{other}");
        }
        let any = Script::parse("t", "> ABOUT\n").unwrap();
        assert_eq!(any.skip_reason(&cmd("./pbrain-rapfi")), None);
    }
}
