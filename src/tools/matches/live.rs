//! A match's live file (`match --live FILE`): each game's start, each of its moves as it is taken and
//! its end, appended while the match plays, so that another program (the board's `serve --follow
//! FILE`) can show the games as they go. [`Writer`] writes it; [`Reader`] reads it piece by piece as it
//! grows.
//!
//! The format is JSON lines (serde), each line written whole (games played at once interleave):
//! - `{"format":"quincunx-live","version":2}` first;
//! - `{"event":"game","game":N,"rule":R,"line":L,"width":W,"height":H,"opening":S,"black":B,"white":W}`:
//!   game N begins: the rule as `--rule` names it (`freestyle`, `renju`, `pente`, ...), the line
//!   length, the board, the opening's stones in pos notation (`h8i9j10`, black first, `""` for none)
//!   and its players' names;
//! - `{"event":"move","game":N,"point":P,"ms":T,"eval":E,"depth":D}`: a move in pos notation, the ms
//!   its answer took, and the evaluation (the mover's view, on the brain's own scale; `"+W7"` a win in
//!   7 plies) and depth its MESSAGE lines told before it, or `null` where they told none;
//! - `{"event":"end","game":N,"winner":"black"|"white"|null,"reason":R}`: game N is over, and why.
//!
//! Invariants: the reader takes a line only once it is complete (a newline ends it), never panics on
//! what it reads, and keeps every game consistent: a line it cannot take (unknown, of a game not
//! begun or over, a move off the board or on a stone, ...) is skipped, and the first such line is
//! reported with its number.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::{Deserialize, Serialize};

use crate::brain::command::clip;
use crate::eval::score::{WIN_THRESHOLD, score_text};
use crate::game::board::{Board, Color, Pos};
use crate::game::rules::{MAX_LINE, MIN_LINE, Rules, Variant};
use crate::tools::client::judge::{message_depth, message_score, score_word};
use crate::tools::client::referee::{GameResult, GameSettings, Played};
use crate::tools::record::write::OutputError;

const FORMAT: &str = "quincunx-live";
const VERSION: u32 = 2;

/// The first line: what the file is.
#[derive(Serialize, Deserialize)]
struct Kind {
    format: String,
    version: u32,
}

/// One line after the first.
#[derive(Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "lowercase", deny_unknown_fields)]
enum Line {
    Game {
        game: usize,
        rule: String,
        line: u8,
        width: usize,
        height: usize,
        opening: String,
        black: String,
        white: String,
    },
    Move {
        game: usize,
        point: String,
        ms: u64,
        eval: Option<String>,
        depth: Option<i32>,
    },
    End {
        game: usize,
        winner: Option<String>,
        reason: String,
    },
}

/// What a move's brain told of it: the ms its answer took, its evaluation (the mover's view) and the
/// depth of its search, when its MESSAGE lines said.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Note {
    pub ms: u64,
    pub eval: Option<i32>,
    pub depth: Option<i32>,
}

impl Note {
    /// The note of a move as the referee took it. A depth of 0 is an answer without a search (an
    /// opening move, a forced reply): its score is kept only when it is a proven result, as
    /// `analyze`'s judge keeps it.
    pub fn of(m: &Played) -> Note {
        let depth = message_depth(m.said);
        let eval = message_score(m.said).filter(|v| depth != Some(0) || v.abs() >= WIN_THRESHOLD);
        Note { ms: m.ms, eval, depth }
    }
}

/// How a game ended: the winner (`None`: a draw) and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct End {
    pub winner: Option<Color>,
    pub reason: String,
}

/// One game of the file as far as it has been read.
#[derive(Clone, Debug)]
pub struct LiveGame {
    /// Its number in the match, from 1.
    pub number: usize,
    pub rules: Rules,
    pub width: usize,
    pub height: usize,
    /// Black's name and white's.
    pub names: [String; 2],
    /// The opening's stones, black first, before the first move.
    pub opening: Vec<Pos>,
    pub moves: Vec<(Pos, Note)>,
    pub end: Option<End>,
    /// The position after the moves read: the next must be on an empty point.
    board: Board,
}

/// Writes a match's live file; each line goes out whole and at once. A write that fails is kept and
/// told by [`Writer::end`], as a record that cannot be written is.
pub struct Writer {
    path: PathBuf,
    file: Mutex<File>,
    error: Mutex<Option<OutputError>>,
}

impl Writer {
    /// Creates (or empties) the file and writes its first line: a path that cannot be written is
    /// found before the first game.
    pub fn create(path: &Path) -> Result<Writer, OutputError> {
        let mut file = File::create(path).map_err(|e| OutputError::new(path, &e))?;
        let kind = Kind { format: FORMAT.into(), version: VERSION };
        writeln!(file, "{}", json(&kind)).map_err(|e| OutputError::new(path, &e))?;
        Ok(Writer { path: path.to_path_buf(), file: Mutex::new(file), error: Mutex::new(None) })
    }

    fn line(&self, line: &Line) {
        let mut file = self.file.lock().unwrap_or_else(|e| e.into_inner());
        if let Err(e) = file.write_all(format!("{}\n", json(line)).as_bytes()).and_then(|()| file.flush()) {
            let mut first = self.error.lock().unwrap_or_else(|e| e.into_inner());
            first.get_or_insert(OutputError::new(&self.path, &e));
        }
    }

    /// Game `number` begins: its settings, the opening, black's and white's names.
    pub fn begin(&self, number: usize, s: &GameSettings, opening: &[Pos], names: [&str; 2]) {
        self.line(&Line::Game {
            game: number,
            rule: s.rules.name().into(),
            line: s.rules.line,
            width: s.width,
            height: s.height,
            opening: opening.iter().map(|p| p.notation()).collect(),
            black: names[0].into(),
            white: names[1].into(),
        });
    }

    /// A move of game `number`.
    pub fn moved(&self, number: usize, m: &Played) {
        let note = Note::of(m);
        let (point, ms, depth) = (m.point.notation(), note.ms, note.depth);
        self.line(&Line::Move { game: number, point, ms, eval: note.eval.map(score_text), depth });
    }

    /// Game `number` is over; `Err` is the first write that failed, this one's or an earlier one's.
    pub fn end(&self, number: usize, r: &GameResult) -> Result<(), OutputError> {
        let winner = r.winner.map(|c| colour_name(c).to_string());
        self.line(&Line::End { game: number, winner, reason: r.ending.to_string() });
        match self.error.lock().unwrap_or_else(|e| e.into_inner()).as_ref() {
            Some(e) => Err(e.clone()),
            None => Ok(()),
        }
    }
}

/// One line's JSON: strings and numbers, which always serialise.
fn json<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

fn colour_name(c: Color) -> &'static str {
    if c == Color::Black { "black" } else { "white" }
}

/// Reads a live file as it grows: [`Reader::feed`] takes whatever was appended since.
#[derive(Default)]
pub struct Reader {
    games: Vec<LiveGame>,
    /// Game number → index in `games`.
    index: BTreeMap<usize, usize>,
    /// The start of a line not yet complete.
    partial: Vec<u8>,
    lines: usize,
    /// The first line that could not be taken: its number and why.
    error: Option<(usize, String)>,
    /// The first line is not the header: nothing more is read.
    foreign: bool,
}

impl Reader {
    /// Takes the bytes appended to the file since the last call; returns the numbers of the games its
    /// complete lines changed, each once, in the order first changed.
    pub fn feed(&mut self, bytes: &[u8]) -> Vec<usize> {
        self.partial.extend_from_slice(bytes);
        let Some(last) = self.partial.iter().rposition(|&b| b == b'\n') else { return vec![] };
        let complete: Vec<u8> = self.partial.drain(..=last).collect();
        let mut changed = vec![];
        for raw in complete[..last].split(|&b| b == b'\n') {
            self.lines += 1;
            if self.foreign || (raw.is_empty() && self.lines > 1) {
                continue;
            }
            let text = String::from_utf8_lossy(raw);
            match self.take(text.trim_end_matches('\r')) {
                Ok(Some(n)) if !changed.contains(&n) => changed.push(n),
                Ok(_) => {}
                Err(why) => {
                    self.error.get_or_insert((self.lines, why));
                }
            }
        }
        changed
    }

    /// The games begun so far, in the order they began.
    pub fn games(&self) -> &[LiveGame] {
        &self.games
    }

    pub fn game(&self, number: usize) -> Option<&LiveGame> {
        self.index.get(&number).map(|&i| &self.games[i])
    }

    /// The first line that could not be read, as `line N: why`.
    pub fn error(&self) -> Option<String> {
        self.error.as_ref().map(|(n, why)| format!("line {n}: {why}"))
    }

    /// One line; the game it changed.
    fn take(&mut self, text: &str) -> Result<Option<usize>, String> {
        if self.lines == 1 {
            let kind: Option<Kind> = serde_json::from_str(text).ok();
            self.foreign = !kind.as_ref().is_some_and(|k| k.format == FORMAT && k.version == VERSION);
            return match kind {
                _ if !self.foreign => Ok(None),
                None if text.starts_with("quincunx-live 1") => {
                    Err("version 1 (a text format): written by an older quincunx".into())
                }
                Some(k) if k.format == FORMAT => Err(format!(
                    "version {}: another version of the format than this program's ({VERSION})",
                    k.version
                )),
                _ => Err(format!(
                    "not a live file: the first line is not {}",
                    json(&Kind { format: FORMAT.into(), version: VERSION })
                )),
            };
        }
        let line: Line = serde_json::from_str(text).map_err(|e| format!("'{}': {e}", clip(text)))?;
        let number = match line {
            Line::Game { game: number, rule, line, width, height, opening, black, white } => {
                if self.index.contains_key(&number) {
                    return Err(format!("game {number} begins twice"));
                }
                let game = begin(number, &rule, line, (width, height), &opening, [black, white])?;
                self.index.insert(number, self.games.len());
                self.games.push(game);
                return Ok(Some(number));
            }
            Line::Move { game, .. } | Line::End { game, .. } => game,
        };
        let Some(&i) = self.index.get(&number) else { return Err(format!("game {number} has not begun")) };
        let game = &mut self.games[i];
        if game.end.is_some() {
            return Err(format!("game {number} is over"));
        }
        match line {
            Line::Move { point, ms, eval, depth, .. } => {
                let p =
                    Pos::from_notation(&point).ok_or_else(|| format!("'{}' is not a point", clip(&point)))?;
                if p.x as usize >= game.width || p.y as usize >= game.height || !game.board.is_empty(p) {
                    return Err(format!("game {number}: {} is off the board or taken", p.notation()));
                }
                let eval = match eval {
                    None => None,
                    Some(e) => {
                        Some(score_word(&e).ok_or_else(|| format!("'{}' is not an evaluation", clip(&e)))?)
                    }
                };
                game.board.play_unchecked(p);
                game.moves.push((p, Note { ms, eval, depth }));
            }
            Line::End { winner, reason, .. } => {
                let winner = match winner.as_deref() {
                    Some("black") => Some(Color::Black),
                    Some("white") => Some(Color::White),
                    None => None,
                    Some(other) => return Err(format!("'{}' is not black, white or null", clip(other))),
                };
                game.end = Some(End { winner, reason });
            }
            Line::Game { .. } => return Err(format!("game {number} begins twice")),
        }
        Ok(Some(number))
    }
}

/// A game from its `game` line.
fn begin(
    number: usize,
    rule: &str,
    line: u8,
    (width, height): (usize, usize),
    opening: &str,
    names: [String; 2],
) -> Result<LiveGame, String> {
    let mut rules = Rules::named(rule).ok_or_else(|| format!("game {number}: no rule '{}'", clip(rule)))?;
    if matches!(rules.variant, Variant::Freestyle | Variant::Exact) && (MIN_LINE..=MAX_LINE).contains(&line) {
        rules.line = line;
    } else if line != rules.line {
        return Err(format!("game {number}: {} plays {} in a row, not {line}", rules.name(), rules.line));
    }
    let mut board = Board::new(width as i64, height as i64).map_err(|e| format!("game {number}: {e}"))?;
    board.set_capture(rules.capture_rule());
    let stones = if opening.is_empty() { vec![] } else { Pos::parse_list(opening)? };
    for &p in &stones {
        if p.x as usize >= width || p.y as usize >= height || !board.is_empty(p) {
            return Err(format!("game {number}: the opening's {} is off the board or taken", p.notation()));
        }
        board.play_unchecked(p);
    }
    Ok(LiveGame { number, rules, width, height, names, opening: stones, moves: vec![], end: None, board })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::client::referee::Ending;

    fn settings(rules: Rules) -> GameSettings {
        fixtures::settings(rules, 100)
    }

    fn pos(m: &str) -> Pos {
        Pos::from_notation(m).unwrap()
    }

    use crate::tools::client::referee::fixtures::{self, result};

    #[test]
    fn what_is_written_is_read_back_line_by_line_as_it_grows() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("games.live");
        let w = Writer::create(&path).unwrap();
        let exact6 = Rules { line: 6, ..Rules::named("exact").unwrap() };
        w.begin(1, &settings(exact6), &[pos("h8"), pos("i9")], ["qx", "odd\\name\nhere"]);
        w.begin(2, &settings(Rules::named("renju").unwrap()), &[], ["a", "b"]);
        let said = ["MESSAGE depth 9 eval +W7 nodes 12".to_string()];
        w.moved(1, &Played { side: Color::Black, point: pos("j10"), ms: 120, said: &said });
        // A forced reply's 0 at depth 0 is no evaluation.
        let forced = ["MESSAGE forced move".to_string(), "MESSAGE best h8 eval 0 depth 0".to_string()];
        w.moved(2, &Played { side: Color::Black, point: pos("h8"), ms: 5, said: &forced });
        w.end(
            1,
            &result(
                Some(Color::White),
                Ending::Fault(crate::tools::client::referee::Fault::Timeout, "9 ms".into()),
            ),
        )
        .unwrap();
        let text = std::fs::read(&path).unwrap();
        // Fed a byte at a time, a line counts once it is complete.
        let mut r = Reader::default();
        let mut changed = vec![];
        for b in &text {
            changed.extend(r.feed(&[*b]));
        }
        assert_eq!(changed, [1, 2, 1, 2, 1]);
        assert_eq!(r.error(), None);
        let one = r.game(1).unwrap();
        assert_eq!((one.rules, one.width, one.opening.clone()), (exact6, 15, vec![pos("h8"), pos("i9")]));
        assert_eq!(one.names, ["qx".to_string(), "odd\\name\nhere".to_string()]);
        let note = Note { ms: 120, eval: score_word("+W7"), depth: Some(9) };
        assert_eq!(one.moves, [(pos("j10"), note)]);
        assert_eq!(
            one.end.as_ref().map(|e| (e.winner, e.reason.as_str())),
            Some((Some(Color::White), "no answer in time: 9 ms"))
        );
        let two = r.game(2).unwrap();
        assert_eq!(
            (two.rules, two.moves[0].1, two.end.clone()),
            (Rules::named("renju").unwrap(), Note { ms: 5, eval: None, depth: Some(0) }, None)
        );
        assert_eq!(r.games().iter().map(|g| g.number).collect::<Vec<_>>(), [1, 2]);
    }

    #[test]
    fn lines_that_cannot_be_taken_are_skipped_and_the_first_is_told() {
        let mut r = Reader::default();
        let game = |n: usize, rule: &str, line: u8, w: usize| {
            format!(
                r#"{{"event":"game","game":{n},"rule":"{rule}","line":{line},"width":{w},"height":15,"opening":"","black":"a","white":"b"}}"#
            )
        };
        let mv = |n: usize, p: &str, ms: &str| {
            format!(r#"{{"event":"move","game":{n},"point":"{p}","ms":{ms},"eval":null,"depth":null}}"#)
        };
        let end = |winner: &str| {
            format!(r#"{{"event":"end","game":1,"winner":{winner},"reason":"five in a row"}}"#)
        };
        let lines = [
            r#"{"format":"quincunx-live","version":2}"#.to_string(),
            game(1, "freestyle", 5, 15),
            mv(1, "h8", "10"),
            mv(1, "h8", "10"),
            mv(2, "a1", "1"),
            mv(1, "z99", "1"),
            game(1, "renju", 5, 15),
            game(3, "chess", 5, 15),
            game(4, "renju", 6, 15),
            game(5, "freestyle", 5, 99),
            end(r#""nobody""#),
            mv(1, "i9", r#""x""#),
            mv(1, "i9", "1"),
            end(r#""black""#),
            mv(1, "j10", "1"),
            r#"{"event":"what","game":1}"#.to_string(),
        ];
        r.feed((lines.join("\n") + "\n").as_bytes());
        assert_eq!(r.error().as_deref().map(|e| e.split(':').next()), Some(Some("line 4")));
        let g = r.game(1).unwrap();
        assert_eq!(g.moves.iter().map(|(p, _)| *p).collect::<Vec<_>>(), [pos("h8"), pos("i9")]);
        assert_eq!(g.end.as_ref().map(|e| e.winner), Some(Some(Color::Black)));
        assert_eq!(r.games().len(), 1);
        let mut other = Reader::default();
        other.feed(format!("not a live file\n{}\n", game(1, "freestyle", 5, 15)).as_bytes());
        assert_eq!(other.error().as_deref().map(|e| e.starts_with("line 1")), Some(true));
        assert!(other.games().is_empty());
        let mut old = Reader::default();
        old.feed(b"quincunx-live 1\ngame 1 freestyle 5 15x15 -\n");
        assert!(old.error().is_some_and(|e| e.contains("version 1")));
    }
}
