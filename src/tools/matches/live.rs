//! A match's live file (`match --live FILE`): each game's start, each of its moves as it is taken and
//! its end, appended while the match plays, so that another program (the board's `serve --follow
//! FILE`) can show the games as they go. [`Writer`] writes it; [`Reader`] reads it piece by piece as it
//! grows.
//!
//! The format is text, one line each, each line written whole (games played at once interleave):
//! - `quincunx-live 1` first;
//! - `game N RULE LINE WxH OPENING`: game N begins: the rule as `--rule` names it (`freestyle`,
//!   `renju`, `pente`, ...), the line length, the board, the opening's stones in pos notation
//!   (`h8i9j10`, black first) or `-`;
//! - `black N NAME`, `white N NAME`: its players;
//! - `move N POINT MS EVAL DEPTH`: a move of game N in pos notation, the ms its answer took, and the
//!   evaluation (the mover's view, on the brain's own scale; `+W7` a win in 7 plies) and depth its
//!   MESSAGE lines told before it, or `-` where they told none;
//! - `end N WINNER REASON`: game N is over: `black`, `white` or `draw`, and why.
//!
//! Names and reasons run to the end of their line with `\`, newline and carriage return written as
//! `\\`, `\n`, `\r`.
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

use crate::brain::command::clip;
use crate::eval::score::{WIN_THRESHOLD, score_text};
use crate::game::board::{Board, Color, Pos};
use crate::game::rules::{MAX_LINE, MIN_LINE, Rules, Variant};
use crate::tools::client::judge::{message_depth, message_score, score_word};
use crate::tools::client::referee::{GameResult, GameSettings, Played};
use crate::tools::matches::results::{escape_line, unescape_line};
use crate::tools::record::write::OutputError;

const HEADER: &str = "quincunx-live 1";

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
        writeln!(file, "{HEADER}").map_err(|e| OutputError::new(path, &e))?;
        Ok(Writer { path: path.to_path_buf(), file: Mutex::new(file), error: Mutex::new(None) })
    }

    fn line(&self, text: String) {
        let mut file = self.file.lock().unwrap_or_else(|e| e.into_inner());
        if let Err(e) = file.write_all(format!("{text}\n").as_bytes()).and_then(|()| file.flush()) {
            let mut first = self.error.lock().unwrap_or_else(|e| e.into_inner());
            first.get_or_insert(OutputError::new(&self.path, &e));
        }
    }

    /// Game `number` begins: its settings, the opening, black's and white's names.
    pub fn begin(&self, number: usize, s: &GameSettings, opening: &[Pos], names: [&str; 2]) {
        let stones: String = opening.iter().map(|p| p.notation()).collect();
        let stones = if stones.is_empty() { "-".to_string() } else { stones };
        self.line(format!(
            "game {number} {} {} {}x{} {stones}",
            s.rules.name(),
            s.rules.line,
            s.width,
            s.height
        ));
        for (colour, name) in ["black", "white"].into_iter().zip(names) {
            self.line(format!("{colour} {number} {}", escape_line(name)));
        }
    }

    /// A move of game `number`.
    pub fn moved(&self, number: usize, m: &Played) {
        let note = Note::of(m);
        let eval = note.eval.map_or("-".into(), score_text);
        let depth = note.depth.map_or("-".into(), |d| d.to_string());
        self.line(format!("move {number} {} {} {eval} {depth}", m.point.notation(), note.ms));
    }

    /// Game `number` is over; `Err` is the first write that failed, this one's or an earlier one's.
    pub fn end(&self, number: usize, r: &GameResult) -> Result<(), OutputError> {
        let winner = r.winner.map_or("draw", colour_name);
        self.line(format!("end {number} {winner} {}", escape_line(&r.ending.to_string())));
        match self.error.lock().unwrap_or_else(|e| e.into_inner()).as_ref() {
            Some(e) => Err(e.clone()),
            None => Ok(()),
        }
    }
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
    fn take(&mut self, line: &str) -> Result<Option<usize>, String> {
        if self.lines == 1 {
            self.foreign = line != HEADER;
            return if self.foreign {
                Err(format!("not a live file: the first line is not '{HEADER}'"))
            } else {
                Ok(None)
            };
        }
        let mut words = line.splitn(3, ' ');
        let (key, number, rest) = (words.next().unwrap_or(""), words.next(), words.next().unwrap_or(""));
        let number: usize = match number.map(str::parse) {
            Some(Ok(n)) => n,
            _ => return Err(format!("'{}': no game number", clip(line))),
        };
        if key == "game" {
            if self.index.contains_key(&number) {
                return Err(format!("game {number} begins twice"));
            }
            let game = begin(number, rest)?;
            self.index.insert(number, self.games.len());
            self.games.push(game);
            return Ok(Some(number));
        }
        let Some(&i) = self.index.get(&number) else { return Err(format!("game {number} has not begun")) };
        let game = &mut self.games[i];
        if game.end.is_some() {
            return Err(format!("game {number} is over"));
        }
        match key {
            "black" => game.names[0] = unescape_line(rest)?,
            "white" => game.names[1] = unescape_line(rest)?,
            "move" => {
                let (p, note) = move_words(rest)?;
                if p.x as usize >= game.width || p.y as usize >= game.height || !game.board.is_empty(p) {
                    return Err(format!("game {number}: {} is off the board or taken", p.notation()));
                }
                game.board.play_unchecked(p);
                game.moves.push((p, note));
            }
            "end" => {
                let (winner, reason) = rest.split_once(' ').unwrap_or((rest, ""));
                let winner = match winner {
                    "black" => Some(Color::Black),
                    "white" => Some(Color::White),
                    "draw" => None,
                    other => return Err(format!("'{}' is not black, white or draw", clip(other))),
                };
                game.end = Some(End { winner, reason: unescape_line(reason)? });
            }
            other => return Err(format!("unknown line '{}'", clip(other))),
        }
        Ok(Some(number))
    }
}

/// A game from its `game` line's words after the number: `RULE LINE WxH OPENING`.
fn begin(number: usize, rest: &str) -> Result<LiveGame, String> {
    let w: Vec<&str> = rest.split(' ').collect();
    let [rule, line, size, opening] = w[..] else {
        return Err(format!("game {number}: expected a rule, a line length, a board and an opening"));
    };
    let mut rules = Rules::named(rule).ok_or_else(|| format!("game {number}: no rule '{}'", clip(rule)))?;
    let line: u8 = line.parse().map_err(|_| format!("game {number}: '{}' is no line length", clip(line)))?;
    if matches!(rules.variant, Variant::Freestyle | Variant::Exact) && (MIN_LINE..=MAX_LINE).contains(&line) {
        rules.line = line;
    } else if line != rules.line {
        return Err(format!("game {number}: {} plays {} in a row, not {line}", rules.name(), rules.line));
    }
    let bad_size = || format!("game {number}: '{}' is not a board (WxH)", clip(size));
    let (width, height) = size.split_once('x').ok_or_else(bad_size)?;
    let (width, height): (usize, usize) =
        (width.parse().map_err(|_| bad_size())?, height.parse().map_err(|_| bad_size())?);
    let mut board = Board::new(width as i64, height as i64).map_err(|e| format!("game {number}: {e}"))?;
    board.set_capture(rules.capture_rule());
    let stones = if opening == "-" { vec![] } else { Pos::parse_list(opening)? };
    for &p in &stones {
        if p.x as usize >= width || p.y as usize >= height || !board.is_empty(p) {
            return Err(format!("game {number}: the opening's {} is off the board or taken", p.notation()));
        }
        board.play_unchecked(p);
    }
    Ok(LiveGame {
        number,
        rules,
        width,
        height,
        names: [String::new(), String::new()],
        opening: stones,
        moves: vec![],
        end: None,
        board,
    })
}

/// A `move` line's words after the number: `POINT MS EVAL DEPTH`.
fn move_words(rest: &str) -> Result<(Pos, Note), String> {
    let w: Vec<&str> = rest.split(' ').collect();
    let [point, ms, eval, depth] = w[..] else {
        return Err("a move is a point, its ms, an evaluation and a depth".into());
    };
    let p = Pos::from_notation(point).ok_or_else(|| format!("'{}' is not a point", clip(point)))?;
    let ms = ms.parse().map_err(|_| format!("'{}' is not a time in ms", clip(ms)))?;
    let eval = match eval {
        "-" => None,
        e => Some(score_word(e).ok_or_else(|| format!("'{}' is not an evaluation", clip(e)))?),
    };
    let depth = match depth {
        "-" => None,
        d => Some(d.parse().map_err(|_| format!("'{}' is not a depth", clip(d)))?),
    };
    Ok((p, Note { ms, eval, depth }))
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
        let path = std::env::temp_dir().join(format!("quincunx-live-{}.txt", std::process::id()));
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
        let _ = std::fs::remove_file(&path);
        // Fed a byte at a time, a line counts once it is complete.
        let mut r = Reader::default();
        let mut changed = vec![];
        for b in &text {
            changed.extend(r.feed(&[*b]));
        }
        assert_eq!(changed, [1, 1, 1, 2, 2, 2, 1, 2, 1]);
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
        let text = "quincunx-live 1\ngame 1 freestyle 5 15x15 -\nmove 1 h8 10 - -\nmove 1 h8 10 - -\n\
                    move 2 a1 1 - -\nmove 1 z99 1 - -\ngame 1 renju 5 15x15 -\ngame 3 chess 5 15x15 -\n\
                    game 4 renju 6 15x15 -\ngame 5 freestyle 5 99x3 -\nend 1 nobody\nmove 1 i9 x - -\n\
                    move 1 i9 1 - -\nend 1 black five in a row\nmove 1 j10 1 - -\nwhat 1\n";
        r.feed(text.as_bytes());
        assert_eq!(r.error().as_deref().map(|e| e.split(':').next()), Some(Some("line 4")));
        let g = r.game(1).unwrap();
        assert_eq!(g.moves.iter().map(|(p, _)| *p).collect::<Vec<_>>(), [pos("h8"), pos("i9")]);
        assert_eq!(g.end.as_ref().map(|e| e.winner), Some(Some(Color::Black)));
        assert_eq!(r.games().len(), 1);
        let mut other = Reader::default();
        other.feed(b"not a live file\ngame 1 freestyle 5 15x15 -\n");
        assert_eq!(other.error().as_deref().map(|e| e.starts_with("line 1")), Some(true));
    }
}
