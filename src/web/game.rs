//! The game on the browser board: the rules, the set-up position, the line of moves and how far along
//! it the board stands (the cursor), with every change checked by the library's rules; for a game
//! engines played, what each move's engine told of it and how the game ended when the board alone
//! cannot tell (a fault, a stone limit).
//!
//! Invariants: every move in `moves` was legal where it was played, but for a last move an engine
//! played that lost the game (a renju foul), so the board at any cursor is replayed without a check
//! failing; `notes` has one entry per move; a refused request (an `Err`) leaves the game as it was;
//! moves after the cursor are kept until a different move is played there (stepping back and forth
//! through a game does not lose it), and `decided` stands only for the whole line of moves.

use std::fmt;

use crate::game::board::{Board, Cell, Color, DIRECTIONS, MAX_SIDE, MIN_SIDE, Pos};
use crate::game::rules::{Rules, Variant, Verdict};
use crate::tools::matches::live::Note;
use crate::tools::record::read::{self as records, Recorded, Replayed};
use crate::tools::record::write::GameRecord;

/// Why a request about the game was refused: said to the person as it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameError(pub String);

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for GameError {}

fn refuse<T>(why: impl Into<String>) -> Result<T, GameError> {
    Err(GameError(why.into()))
}

/// How a game ended at the cursor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    /// `None`: a draw.
    pub winner: Option<Color>,
    /// The stones of the winning line (empty for a win by captures or a foul).
    pub line: Vec<Pos>,
    pub reason: String,
}

/// The record formats the board reads and writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Sgf,
    Psq,
    /// Moves in pos notation on one line (`h8i9j7`), as `analyze` and c-gomoku-cli's openings read.
    Pos,
}

impl Format {
    pub fn named(name: &str) -> Option<Format> {
        match name {
            "sgf" => Some(Format::Sgf),
            "psq" => Some(Format::Psq),
            "pos" => Some(Format::Pos),
            _ => None,
        }
    }
}

/// The game: set-up stones, then moves.
#[derive(Clone, Debug)]
pub struct Game {
    pub rules: Rules,
    /// The position before the first move (hand-set stones, a record's set-up).
    pub start: Board,
    pub moves: Vec<Pos>,
    /// How many of `moves` are on the board.
    pub cursor: usize,
    /// The players' names, black's and white's, as a record or the board names them.
    pub names: [String; 2],
    /// What each move's engine told of it, when an engine the board watched played it.
    pub notes: Vec<Option<Note>>,
    /// How the game ended after its last move when the board does not show it (a fault, a stone
    /// limit, a draw by agreement): it stands at the last move.
    pub decided: Option<Ending>,
}

impl Game {
    /// A new empty board of `width` x `height` ([`MIN_SIDE`] to [`MAX_SIDE`] a side).
    pub fn new(rules: Rules, width: usize, height: usize) -> Result<Game, GameError> {
        if !(MIN_SIDE..=MAX_SIDE).contains(&width) || !(MIN_SIDE..=MAX_SIDE).contains(&height) {
            return refuse(format!(
                "a board is {MIN_SIDE} to {MAX_SIDE} points a side, not {width}x{height}"
            ));
        }
        let mut start = Board::new(width as i64, height as i64).map_err(|e| GameError(e.to_string()))?;
        start.set_capture(rules.capture_rule());
        Ok(Game {
            rules,
            start,
            moves: vec![],
            cursor: 0,
            names: [String::new(), String::new()],
            notes: vec![],
            decided: None,
        })
    }

    /// A new game of `rules` on the board they play on by default.
    pub fn default_for(rules: Rules) -> Game {
        let side = rules.default_side();
        Game::new(rules, side, side).unwrap_or_else(|_| unreachable!("the default sides are in range"))
    }

    pub fn width(&self) -> usize {
        self.start.width()
    }

    pub fn height(&self) -> usize {
        self.start.height()
    }

    /// The board at the cursor.
    pub fn board(&self) -> Board {
        self.board_at(self.cursor)
    }

    /// The board after the first `ply` moves.
    pub fn board_at(&self, ply: usize) -> Board {
        let mut b = self.start.clone();
        for &p in &self.moves[..ply.min(self.moves.len())] {
            b.play_unchecked(p);
        }
        b
    }

    /// How the game stands at the cursor: decided by its last move, drawn, or `None` (going on).
    pub fn ending(&self) -> Option<Ending> {
        let board = self.board();
        if self.cursor > 0 {
            let p = self.moves[self.cursor - 1];
            let before = self.board_at(self.cursor - 1);
            let mover = before.side_to_move();
            match self.rules.verdict(&before, p) {
                Verdict::Win => {
                    let line = five_through(&board, p, mover, self.rules.line as usize);
                    let reason = if line.is_empty() { "captures" } else { "five in a row" };
                    return Some(Ending { winner: Some(mover), line, reason: reason.into() });
                }
                Verdict::Foul(k) => {
                    return Some(Ending {
                        winner: Some(mover.opp()),
                        line: vec![],
                        reason: format!("renju foul ({k})"),
                    });
                }
                Verdict::Illegal(why) => {
                    return Some(Ending { winner: Some(mover.opp()), line: vec![], reason: why.into() });
                }
                Verdict::Continue => {}
            }
        }
        if board.is_full() || !self.rules.any_line_open(&board) {
            return Some(Ending { winner: None, line: vec![], reason: "no line can be completed".into() });
        }
        self.decided.clone().filter(|_| self.cursor == self.moves.len())
    }

    /// The colour of move `i` (from 0): moves alternate from the set-up position's side to move.
    pub fn mover(&self, i: usize) -> Color {
        let first = self.start.side_to_move();
        if i.is_multiple_of(2) { first } else { first.opp() }
    }

    /// Adds an engine's move at the end of the line, as the referee took it: a renju foul or a move
    /// against Pente's opening is kept (it ends the game), a point off the board or taken, or a move
    /// after the end, is refused. The cursor follows when it stood at the end.
    pub fn append(&mut self, p: Pos, note: Option<Note>) -> Result<(), GameError> {
        let at_end = Game { cursor: self.moves.len(), ..self.clone() };
        if let Some(end) = at_end.ending() {
            return refuse(format!("the game is over: {}", end.reason));
        }
        let board = at_end.board();
        if board.pos(p.x as i64, p.y as i64).is_none() || !board.is_empty(p) {
            return refuse(format!("{} is off the board or taken", p.notation()));
        }
        if self.cursor == self.moves.len() {
            self.cursor += 1;
        }
        self.moves.push(p);
        self.notes.push(note);
        Ok(())
    }

    /// Ends the game after its last move for a reason the board does not show; nothing when the board
    /// shows an ending there already.
    pub fn decide(&mut self, winner: Option<Color>, reason: &str) {
        let at_end = Game { cursor: self.moves.len(), decided: None, ..self.clone() };
        if at_end.ending().is_none() {
            self.decided = Some(Ending { winner, line: vec![], reason: reason.into() });
        }
    }

    /// The game up to the cursor, the moves after it dropped.
    pub fn up_to_cursor(&self) -> Game {
        let mut g = self.clone();
        g.forget_after(self.cursor);
        g
    }

    /// Drops the moves from the `n`th on, with their notes and an ending decided after them.
    fn forget_after(&mut self, n: usize) {
        if n < self.moves.len() {
            self.moves.truncate(n);
            self.notes.truncate(n);
            self.decided = None;
        }
        self.cursor = self.cursor.min(n);
    }

    /// Plays `(x, y)` for the side to move at the cursor. The moves after the cursor go, unless this
    /// is the next of them (then the line is kept). Refused: off the board, taken, after the end, a
    /// renju forbidden point for black (shown, so refused rather than lost), Pente's opening rule.
    pub fn play(&mut self, x: i64, y: i64) -> Result<Pos, GameError> {
        let board = self.board();
        let Some(p) = board.pos(x, y) else { return refuse(format!("({x}, {y}) is off the board")) };
        if !board.is_empty(p) {
            return refuse(format!("{} is taken", p.notation()));
        }
        if let Some(end) = self.ending() {
            return refuse(format!("the game is over: {}", end.reason));
        }
        match self.rules.verdict(&board, p) {
            Verdict::Foul(k) => return refuse(format!("{} is forbidden for black ({k})", p.notation())),
            Verdict::Illegal(why) => return refuse(format!("{}: {why}", p.notation())),
            Verdict::Win | Verdict::Continue => {}
        }
        if self.moves.get(self.cursor) != Some(&p) {
            self.forget_after(self.cursor);
            self.moves.push(p);
            self.notes.push(None);
        }
        self.cursor += 1;
        Ok(p)
    }

    /// Moves the cursor to `ply` (0: the set-up position).
    pub fn goto(&mut self, ply: usize) -> Result<(), GameError> {
        if ply > self.moves.len() {
            return refuse(format!("the game has {} moves, not {ply}", self.moves.len()));
        }
        self.cursor = ply;
        Ok(())
    }

    /// Takes back `n` moves: they are forgotten, not kept for stepping forward.
    pub fn undo(&mut self, n: usize) -> Result<(), GameError> {
        if n == 0 || n > self.cursor {
            return refuse(format!("{} moves on the board, cannot take back {n}", self.cursor));
        }
        self.forget_after(self.cursor - n);
        Ok(())
    }

    /// Sets up a point of the starting position by hand: a stone of `stone`, or empty with `None`.
    /// The moves are dropped (they were played from the old position).
    pub fn set_up(&mut self, x: i64, y: i64, stone: Option<Color>) -> Result<(), GameError> {
        let Some(p) = self.start.pos(x, y) else { return refuse(format!("({x}, {y}) is off the board")) };
        let (mut black, mut white): (Vec<Pos>, Vec<Pos>) = (vec![], vec![]);
        for q in self.start.points().filter(|&q| q != p) {
            match self.start.get(q) {
                Cell::Stone(Color::Black) => black.push(q),
                Cell::Stone(Color::White) => white.push(q),
                _ => {}
            }
        }
        match stone {
            Some(Color::Black) => black.push(p),
            Some(Color::White) => white.push(p),
            None => {}
        }
        let mut start = self.start.clone();
        start.set_position(&black, &white, &[]).map_err(|e| GameError(e.to_string()))?;
        self.start = start;
        self.forget_after(0);
        self.decided = None;
        Ok(())
    }

    /// The first game of a record (SGF, PSQ, or moves in pos notation), every move checked, the cursor
    /// at its end. `rules` apply when the record names none.
    pub fn from_record(text: &str, rules: Rules) -> Result<Game, GameError> {
        let first = records::read(text).into_iter().next();
        let recorded: Recorded = match first {
            Some(Ok(r)) => r,
            Some(Err(e)) => return refuse(e.to_string()),
            None => return refuse("the record holds no game"),
        };
        let rules = recorded.rules.unwrap_or(rules);
        let (w, h) = recorded.size.unwrap_or_else(|| (rules.default_side(), rules.default_side()));
        let empty = Game::new(rules, w, h)?;
        let replayed: Replayed =
            records::replay(&recorded, rules, w, h).map_err(|e| GameError(e.to_string()))?;
        let names = [recorded.black.unwrap_or_default(), recorded.white.unwrap_or_default()];
        let cursor = replayed.moves.len();
        let notes = vec![None; cursor];
        Ok(Game { start: replayed.start, moves: replayed.moves, cursor, names, notes, ..empty })
    }

    /// The game as a record: all its moves, whatever the cursor.
    pub fn record(&self, format: Format) -> Result<String, GameError> {
        let setup = [Color::Black, Color::White].map(|c| {
            self.start.points().filter(|&p| self.start.get(p) == Cell::Stone(c)).collect::<Vec<_>>()
        });
        let at_end = Game { cursor: self.moves.len(), ..self.clone() };
        let ending = at_end.ending();
        match format {
            Format::Pos if setup.iter().any(|s| !s.is_empty()) => {
                return refuse("pos notation has no set-up stones: save as SGF");
            }
            Format::Pos => return Ok(self.moves.iter().map(|p| p.notation()).collect::<String>() + "\n"),
            Format::Psq if setup.iter().any(|s| !s.is_empty()) => {
                return refuse("PSQ has no set-up stones: save as SGF");
            }
            _ => {}
        }
        let name = |i: usize, fallback: &str| {
            if self.names[i].is_empty() { fallback.to_string() } else { self.names[i].clone() }
        };
        let record = GameRecord {
            width: self.width(),
            height: self.height(),
            rule: self.rules.mask(),
            black: name(0, "black"),
            white: name(1, "white"),
            setup,
            moves: self.moves.iter().zip(&self.notes).map(|(&p, n)| (p, n.map_or(0, |n| n.ms))).collect(),
            opening_len: 0,
            winner: ending.as_ref().and_then(|e| e.winner),
            reason: ending.map_or_else(|| "unfinished".into(), |e| e.reason),
        };
        Ok(match format {
            Format::Sgf => record.sgf(),
            _ => record.psq(),
        })
    }

    /// Whether the rules are the Pente family's (the first player white, captures counted).
    pub fn pente(&self) -> bool {
        matches!(self.rules.variant, Variant::Pente { .. })
    }
}

/// The `color` stones of the line through `p` that make its five (`line` in a row or more), or none
/// when no line does (a win by captures).
fn five_through(board: &Board, p: Pos, color: Color, line: usize) -> Vec<Pos> {
    for d in DIRECTIONS {
        if board.run_through(p, d, color) < line {
            continue;
        }
        let back = board.run_from(p, (-d.0, -d.1), color) as i32;
        let ahead = board.run_from(p, d, color) as i32;
        return (-back..=ahead)
            .filter_map(|k| board.pos(p.x as i64 + (k * d.0) as i64, p.y as i64 + (k * d.1) as i64))
            .collect();
    }
    vec![]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(moves: &str) -> Vec<Pos> {
        moves.split_whitespace().map(|m| Pos::from_notation(m).unwrap()).collect()
    }

    fn play(g: &mut Game, moves: &str) {
        for p in list(moves) {
            g.play(p.x as i64, p.y as i64).unwrap();
        }
    }

    #[test]
    fn a_five_ends_the_game_with_its_line_marked() {
        let mut g = Game::default_for(Rules::default());
        play(&mut g, "h8 h9 i8 i9 j8 j9 k8 k9");
        assert_eq!(g.ending(), None);
        play(&mut g, "l8");
        let end = g.ending().unwrap();
        assert_eq!(end.winner, Some(Color::Black));
        assert_eq!(end.line, list("h8 i8 j8 k8 l8"));
        // After the end nothing more is played, and the game is as it was.
        assert!(g.play(0, 0).is_err());
        assert_eq!(g.moves.len(), 9);
    }

    #[test]
    fn stepping_back_keeps_the_line_until_another_move_is_played() {
        let mut g = Game::default_for(Rules::default());
        play(&mut g, "h8 h9 i8");
        g.goto(1).unwrap();
        assert_eq!((g.cursor, g.moves.len()), (1, 3));
        play(&mut g, "h9");
        assert_eq!((g.cursor, g.moves.len()), (2, 3));
        play(&mut g, "a1");
        assert_eq!(g.moves, list("h8 h9 a1"));
        assert!(g.goto(4).is_err());
        g.undo(2).unwrap();
        assert_eq!(g.moves, list("h8"));
        assert!(g.undo(2).is_err());
    }

    #[test]
    fn black_is_refused_a_forbidden_point_in_renju() {
        // Black's double three at j8 (h8 i8 across, j9 j10 down): refused, the game unchanged.
        let mut g = Game::default_for(Rules::named("renju").unwrap());
        play(&mut g, "h8 a1 i8 a3 j9 a5 j10 a7");
        let before = g.moves.clone();
        let j8 = Pos::from_notation("j8").unwrap();
        assert!(g.rules.forbidden_points(&g.board()).contains(&j8));
        assert!(g.play(j8.x as i64, j8.y as i64).is_err());
        assert_eq!(g.moves, before);
    }

    #[test]
    fn an_engine_s_moves_are_appended_with_their_notes_and_a_fault_ends_the_game() {
        let mut g = Game::default_for(Rules::named("renju").unwrap());
        play(&mut g, "h8 a1 i8 a3 j9 a5 j10 a7");
        g.goto(2).unwrap();
        // The cursor stays where the person looks; black's double three is kept, and ends the game.
        let note = Note { ms: 40, eval: Some(12), depth: Some(7) };
        g.append(Pos::from_notation("j8").unwrap(), Some(note)).unwrap();
        assert_eq!((g.cursor, g.moves.len(), g.notes[8]), (2, 9, Some(note)));
        assert!(g.append(Pos::from_notation("a9").unwrap(), None).is_err());
        g.goto(9).unwrap();
        assert_eq!(g.ending().map(|e| e.winner), Some(Some(Color::White)));
        // A fault is decided off the board, at the last move only; a move played back there drops it.
        let mut g = Game::default_for(Rules::default());
        g.append(Pos::from_notation("h8").unwrap(), None).unwrap();
        assert!(g.append(Pos::from_notation("h8").unwrap(), None).is_err());
        g.decide(Some(Color::Black), "white: no answer in time");
        assert_eq!(
            g.ending().map(|e| (e.winner, e.reason)),
            Some((Some(Color::Black), "white: no answer in time".into()))
        );
        assert!(g.append(Pos::from_notation("h9").unwrap(), None).is_err());
        assert!(g.record(Format::Psq).unwrap().contains("white: no answer in time"));
        g.goto(0).unwrap();
        assert_eq!(g.ending(), None);
        play(&mut g, "i9");
        assert_eq!((g.decided.clone(), g.notes.len()), (None, 1));
    }

    #[test]
    fn records_are_written_and_read_back() {
        let mut g = Game::default_for(Rules::named("exact").unwrap());
        play(&mut g, "h8 h9 i8");
        for format in [Format::Sgf, Format::Psq, Format::Pos] {
            let text = g.record(format).unwrap();
            let back = Game::from_record(&text, Rules::named("exact").unwrap()).unwrap();
            assert_eq!((back.moves.clone(), back.cursor), (g.moves.clone(), 3), "{format:?}");
        }
        // Set-up stones go to SGF only.
        g.set_up(0, 0, Some(Color::White)).unwrap();
        assert!(g.moves.is_empty());
        assert!(g.record(Format::Psq).is_err());
        let back = Game::from_record(&g.record(Format::Sgf).unwrap(), Rules::default()).unwrap();
        assert_eq!(back.start.get(Pos::new(0, 0)), Cell::Stone(Color::White));
    }
}
