//! One line of the Gomocup/Piskvork protocol, parsed: the command words (case-insensitive), their
//! arguments as numbers, and the values of `INFO` keys. Parsing never panics: a line that is not a
//! command is `Unknown` (answered `UNKNOWN`), a known command with bad arguments is `Bad` (`ERROR`).
//! Its errors quote what was sent through [`clip`], which every other quote of foreign text uses too.

use std::fmt;
use std::str::FromStr;

use crate::brain::engine::{GameVariant, Info};

/// One command line, parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Start(i64),
    RectStart(i64, i64),
    Restart,
    Begin,
    Turn(i64, i64),
    Board,
    YxBoard,
    Swap2Board,
    Done,
    Info(String, String),
    End,
    About,
    TakeBack(i64, i64),
    Play(i64, i64),
    Stop,
    ShowForbid,
    HashClear,
    /// `YXNBEST N`: the N best moves, then the best one played.
    NBest(i64),
    /// `YXBALANCEONE B` / `YXBALANCETWO B`: a balanced move, or two.
    Balance {
        two: bool,
        bias: i64,
    },
    /// `YXSHOWINFO`: what a GUI may set.
    ShowInfo,
    /// A data line of a block: `X,Y,field` or `X,Y`.
    Data(Vec<i64>),
}

/// Why a line is not a command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// Not a command we know: answered `UNKNOWN`.
    Unknown(String),
    /// A known command with bad arguments: answered `ERROR`.
    Bad(String),
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Unknown(s) | ParseError::Bad(s) => f.write_str(s),
        }
    }
}

/// A decimal integer as managers write them; anything else is a clear error, never a panic.
fn int(s: &str) -> Result<i64, ParseError> {
    let t = s.trim();
    if t.is_empty() {
        return Err(ParseError::Bad("a number is missing".into()));
    }
    t.parse::<i64>().map_err(|e| {
        use std::num::IntErrorKind::*;
        match e.kind() {
            PosOverflow | NegOverflow => ParseError::Bad(format!("number '{}' is out of range", clip(t))),
            _ => ParseError::Bad(format!("'{}' is not a number", clip(t))),
        }
    })
}

/// Text another program or a person sent, quoted back in a message: control characters escaped (a NUL
/// or an escape sequence must not reach a manager or a terminal), at most 40 characters. The one way
/// foreign text is quoted: the brain's errors, the referee's faults, the board's refusals.
pub fn clip(s: &str) -> String {
    let mut shown = String::new();
    for c in s.chars().take(40) {
        if c.is_control() {
            shown.extend(c.escape_default());
        } else {
            shown.push(c);
        }
    }
    if s.chars().count() > 40 { format!("{shown}...") } else { shown }
}

/// Comma-separated integers, exactly `n` of them (or `n` or `m` where `alt` says so).
fn ints(s: &str, counts: &[usize], what: &str) -> Result<Vec<i64>, ParseError> {
    let parts: Vec<&str> = s.split(',').collect();
    if !counts.contains(&parts.len()) || s.trim().is_empty() {
        return Err(ParseError::Bad(format!("expected {what}, got '{}'", clip(s.trim()))));
    }
    parts.into_iter().map(int).collect()
}

fn xy(s: &str) -> Result<(i64, i64), ParseError> {
    let v = ints(s, &[2], "X,Y")?;
    Ok((v[0], v[1]))
}

fn no_args(cmd: Command, args: &str, word: &str) -> Result<Command, ParseError> {
    if args.is_empty() { Ok(cmd) } else { Err(ParseError::Bad(format!("{word} takes no argument"))) }
}

impl FromStr for Command {
    type Err = ParseError;

    fn from_str(line: &str) -> Result<Command, ParseError> {
        let line = line.trim();
        let (word, args) = match line.find(char::is_whitespace) {
            Some(i) => (&line[..i], line[i..].trim()),
            None => (line, ""),
        };
        if word.starts_with(|c: char| c.is_ascii_digit() || c == '-') {
            // `7,7,1` lines of BOARD blocks, `7,7` lines of SWAP2BOARD.
            return ints(line, &[2, 3], "X,Y or X,Y,field").map(Command::Data);
        }
        let upper = word.to_ascii_uppercase();
        match upper.as_str() {
            "START" => Ok(Command::Start(int(args)?)),
            "RECTSTART" => {
                let (w, h) = xy(args).map_err(|_| {
                    ParseError::Bad(format!("RECTSTART takes WIDTH,HEIGHT, got '{}'", clip(args)))
                })?;
                Ok(Command::RectStart(w, h))
            }
            "RESTART" => no_args(Command::Restart, args, "RESTART"),
            "BEGIN" => no_args(Command::Begin, args, "BEGIN"),
            "TURN" => xy(args).map(|(x, y)| Command::Turn(x, y)),
            "BOARD" => no_args(Command::Board, args, "BOARD"),
            "YXBOARD" => no_args(Command::YxBoard, args, "YXBOARD"),
            "SWAP2BOARD" => no_args(Command::Swap2Board, args, "SWAP2BOARD"),
            "DONE" => no_args(Command::Done, args, "DONE"),
            "INFO" => {
                let (key, value) = match args.find(char::is_whitespace) {
                    Some(i) => (&args[..i], args[i..].trim()),
                    None => (args, ""),
                };
                Ok(Command::Info(key.to_ascii_lowercase(), value.to_string()))
            }
            "END" => Ok(Command::End),
            "ABOUT" => Ok(Command::About),
            "TAKEBACK" => xy(args).map(|(x, y)| Command::TakeBack(x, y)),
            "PLAY" => xy(args).map(|(x, y)| Command::Play(x, y)),
            "YXSTOP" | "STOP" => Ok(Command::Stop),
            "YXSHOWFORBID" => Ok(Command::ShowForbid),
            "YXHASHCLEAR" => Ok(Command::HashClear),
            "YXNBEST" => Ok(Command::NBest(int(args)?)),
            "YXBALANCEONE" => Ok(Command::Balance { two: false, bias: int(args)? }),
            "YXBALANCETWO" => Ok(Command::Balance { two: true, bias: int(args)? }),
            "YXSHOWINFO" => no_args(Command::ShowInfo, args, "YXSHOWINFO"),
            _ => Err(ParseError::Unknown(format!("command '{}'", clip(word)))),
        }
    }
}

/// A manager's number for a setting: a decimal integer, a sign allowed, and one past the range of
/// `i64` taken as its nearest end (a time of 10^30 ms is as unlimited as one of 2^63 - 1 ms); the
/// settings' users clamp further.
fn saturating_int(s: &str) -> Result<i64, ParseError> {
    let t = s.trim();
    let digits = t.strip_prefix(['+', '-']).unwrap_or(t);
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        return Ok(t.parse::<i64>().unwrap_or(if t.starts_with('-') { i64::MIN } else { i64::MAX }));
    }
    int(t)
}

/// Parses the value of an INFO key. `Ok(None)`: a key we accept and ignore (unknown keys included, as
/// the spec demands); `Err`: a value we could not use, to report later.
pub fn parse_info(key: &str, value: &str) -> Result<Option<Info>, String> {
    let num = || saturating_int(value).map_err(|e| format!("INFO {key}: {e}"));
    let unsigned = || {
        let v = num()?;
        u64::try_from(v).map_err(|_| format!("INFO {key}: {v} is negative"))
    };
    Ok(Some(match key {
        "timeout_turn" => Info::TimeoutTurn(num()?),
        "timeout_match" => Info::TimeoutMatch(num()?),
        "time_left" => Info::TimeLeft(num()?),
        "max_memory" => Info::MaxMemory(unsigned()?),
        "game_type" => Info::GameType(num()?),
        "rule" => Info::Rule(num()?),
        "folder" => Info::Folder(value.to_string()),
        "thread_num" => Info::ThreadNum(usize::try_from(unsigned()?).unwrap_or(usize::MAX)),
        "max_depth" => Info::MaxDepth(unsigned()?),
        "max_node" => Info::MaxNode(unsigned()?),
        "line_length" => {
            let v = num()?;
            Info::LineLength(u8::try_from(v).map_err(|_| format!("INFO line_length: {v} is out of range"))?)
        }
        "show_detail" => {
            let v = unsigned()?;
            Info::ShowDetail(u8::try_from(v).map_err(|_| format!("INFO show_detail: {v} is out of range"))?)
        }
        "hash_size" => Info::HashSize(unsigned()?),
        "variant" => Info::Variant(match value.trim().to_ascii_lowercase().as_str() {
            "gomoku" => GameVariant::Gomoku,
            "pente" => GameVariant::Pente,
            "keryo" => GameVariant::Keryo,
            "gpente" => GameVariant::GPente,
            _ => {
                return Err(format!("INFO variant: '{}' is not gomoku, pente, keryo or gpente", clip(value)));
            }
        }),
        // `evaluate` is the GUI's mouse position for debug builds; everything else is someone else's.
        _ => return Ok(None),
    }))
}

/// Our extension keys: a manager that sends them knows them, so a bad value gets an `ERROR` at once
/// instead of a `MESSAGE` before the next move.
pub(super) fn answered_key(key: &str) -> bool {
    matches!(key, "variant" | "captures")
}

/// The value of `INFO captures A,B`: two counts of captured stones.
pub fn parse_captures(value: &str) -> Result<(usize, usize), String> {
    let bad = || format!("INFO captures: '{}' is not two counts A,B", clip(value));
    let (a, b) = value.split_once(',').ok_or_else(bad)?;
    let count = |t: &str| t.trim().parse::<usize>().ok().filter(|&n| n <= 1000);
    Ok((count(a).ok_or_else(bad)?, count(b).ok_or_else(bad)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_parse_case_insensitively() {
        assert_eq!("start 15".parse(), Ok(Command::Start(15)));
        assert_eq!("Turn 7,8".parse(), Ok(Command::Turn(7, 8)));
        assert_eq!("TURN 7, 8".parse(), Ok(Command::Turn(7, 8)));
        assert_eq!("rectstart 20,15".parse(), Ok(Command::RectStart(20, 15)));
        assert_eq!("10,10,1".parse(), Ok(Command::Data(vec![10, 10, 1])));
        assert_eq!("INFO Rule 4".parse(), Ok(Command::Info("rule".into(), "4".into())));
        assert_eq!("yxstop".parse(), Ok(Command::Stop));
    }

    #[test]
    fn bad_arguments_are_errors_and_strangers_unknown() {
        assert!(matches!("TURN 7".parse::<Command>(), Err(ParseError::Bad(_))));
        assert!(matches!("TURN 7,7,7".parse::<Command>(), Err(ParseError::Bad(_))));
        assert!(matches!("START 99999999999999999999999".parse::<Command>(), Err(ParseError::Bad(_))));
        assert!(matches!("START x".parse::<Command>(), Err(ParseError::Bad(_))));
        assert!(matches!("BEGIN now".parse::<Command>(), Err(ParseError::Bad(_))));
        assert!(matches!("HELLO".parse::<Command>(), Err(ParseError::Unknown(_))));
    }

    #[test]
    fn info_values() {
        assert_eq!(parse_info("time_left", "-150"), Ok(Some(Info::TimeLeft(-150))));
        assert_eq!(parse_info("max_node", "9000000000"), Ok(Some(Info::MaxNode(9_000_000_000))));
        assert_eq!(parse_info("whatever", "1"), Ok(None));
        assert!(parse_info("timeout_turn", "soon").is_err());
        assert!(parse_info("max_memory", "-1").is_err());
    }

    #[test]
    fn info_numbers_past_the_range_are_taken_as_its_ends() {
        let turn = |v: &str| parse_info("timeout_turn", v);
        assert_eq!(turn("9223372036854775807"), Ok(Some(Info::TimeoutTurn(i64::MAX))));
        assert_eq!(turn("99999999999999999999999999"), Ok(Some(Info::TimeoutTurn(i64::MAX))));
        assert_eq!(turn("-99999999999999999999999999"), Ok(Some(Info::TimeoutTurn(i64::MIN))));
        assert_eq!(turn("+300"), Ok(Some(Info::TimeoutTurn(300))));
        assert_eq!(
            parse_info("max_memory", "18446744073709551615"),
            Ok(Some(Info::MaxMemory(i64::MAX as u64)))
        );
        assert_eq!(parse_info("max_node", "+1"), Ok(Some(Info::MaxNode(1))));
        assert!(turn("+-3").is_err());
        assert!(turn("3.5").is_err());
        assert!(turn("").is_err());
    }
}
