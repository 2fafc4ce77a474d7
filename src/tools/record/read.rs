//! Reading game records (for `analyze` and the board): PSQ as Piskvork writes it, SGF as c-gomoku-cli and our `match`
//! write it (one or many games a file), and plain move lists in pos notation (one game a line).
//! Writing records is [`super::write`]; this reads them back.
//!
//! Reading only takes the text apart: a game becomes a [`Recorded`], its points as the record wrote
//! them (not yet checked against any board) and what it says of the board, the rules, the players and
//! the result, each `None` when it does not say. [`replay`] then plays every move through
//! `Board::try_play` and the rules' verdict, so that a broken record is an error naming its game and
//! move, and a move after the game was decided is one too.

use std::fmt;

use crate::game::board::{Board, BoardError, Color, Pos};
use crate::game::rules::{Rules, Verdict};

/// A record, or a game of it, that cannot be read or replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError {
    /// The game in the file, from 1 (`None`: the file as a whole).
    pub game: Option<usize>,
    /// The move in the game, from 1, with the point as the record wrote it.
    pub mv: Option<(usize, String)>,
    pub what: String,
}

impl RecordError {
    fn file(what: impl Into<String>) -> RecordError {
        RecordError { game: None, mv: None, what: what.into() }
    }

    fn game(game: usize, what: impl Into<String>) -> RecordError {
        RecordError { game: Some(game), mv: None, what: what.into() }
    }
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(g) = self.game {
            write!(f, "game {g}, ")?;
        }
        if let Some((n, text)) = &self.mv {
            write!(f, "move {n} ({text}): ")?;
        }
        f.write_str(&self.what)
    }
}

impl std::error::Error for RecordError {}

/// A point as a record gives it, in protocol coordinates (column, row from the top), possibly off the
/// board; `text` is how the record wrote it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Point {
    pub x: i64,
    pub y: i64,
    pub text: String,
}

impl Point {
    /// The point in pos notation, as every tool names a square (`h8`); as the record wrote it when it
    /// has no such name (off any board).
    pub fn name(&self) -> String {
        match (u8::try_from(self.x), u8::try_from(self.y)) {
            (Ok(x), Ok(y)) if x < 26 && (y as usize) < crate::game::board::MAX_SIDE => {
                Pos { x, y }.notation()
            }
            _ => format!("'{}'", self.text),
        }
    }
}

/// One game as a record tells it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Recorded {
    /// Its place in the file, from 1.
    pub number: usize,
    pub size: Option<(usize, usize)>,
    pub rules: Option<Rules>,
    /// A rule the record names in words we do not know: the command line must say.
    pub unknown_rule: Option<String>,
    pub black: Option<String>,
    pub white: Option<String>,
    /// The result in the record's words.
    pub result: Option<String>,
    /// The winner the record names (SGF `RE`), `Some(None)` for a draw.
    pub winner: Option<Option<Color>>,
    /// Stones set up before the first move (SGF `AB`, `AW`), black's then white's.
    pub setup: [Vec<Point>; 2],
    /// The moves, each with the colour the record gives it (SGF) or none (it alternates).
    pub moves: Vec<(Point, Option<Color>)>,
}

/// Reads a file's games: SGF when it starts with `(`, PSQ when its first line starts with
/// `Piskvorky`, else a move list a line. A game that cannot be read is an `Err` in its place (the
/// others are still read), a file that cannot be read at all one `Err` with no game.
pub fn read(text: &str) -> Vec<Result<Recorded, RecordError>> {
    let text = text.trim_start_matches('\u{feff}');
    let start = text.trim_start();
    if start.starts_with('(') {
        sgf::read(start)
    } else if start.get(..9).is_some_and(|w| w.eq_ignore_ascii_case("piskvorky")) {
        vec![read_psq(start)]
    } else {
        read_move_lists(text)
    }
}

/// PSQ: `Piskvorky WxH, ...`, one `x,y[,ms]` line a move (1-based), then black's name, white's and
/// the result, as far as they are there. Piskvork ends its records with a bare number, which is no
/// result: it is dropped.
fn read_psq(text: &str) -> Result<Recorded, RecordError> {
    let mut lines = text.lines().map(str::trim);
    let header = lines.next().unwrap_or_default();
    let size = header
        .split_whitespace()
        .nth(1)
        .map(|s| s.trim_end_matches(','))
        .and_then(|s| s.split_once(['x', 'X']))
        .and_then(|(w, h)| Some((w.parse().ok()?, h.parse().ok()?)))
        .ok_or_else(|| RecordError::file(format!("PSQ header '{header}' names no size WxH")))?;
    let mut game = Recorded { number: 1, size: Some(size), ..Recorded::default() };
    let mut rest = vec![];
    for line in lines.by_ref() {
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        let numbers: Option<Vec<i64>> = fields.iter().map(|f| f.parse().ok()).collect();
        match numbers.as_deref() {
            Some(&[x, y] | &[x, y, _]) => {
                game.moves.push((Point { x: x - 1, y: y - 1, text: format!("{x},{y}") }, None));
            }
            _ => {
                rest.push(line);
                break;
            }
        }
    }
    rest.extend(lines);
    let mut named = rest.into_iter().filter(|l| !l.is_empty()).map(str::to_string);
    game.black = named.next();
    game.white = named.next();
    let result: Vec<String> = named.filter(|l| l.parse::<i64>().is_err()).collect();
    game.result = (!result.is_empty()).then(|| result.join("; "));
    Ok(game)
}

/// Move lists: one game a line in pos notation (`h8i9j7`, `h8 i9 j7` or `h8,i9,j7`); blank lines and
/// lines from `#` are skipped.
fn read_move_lists(text: &str) -> Vec<Result<Recorded, RecordError>> {
    let games = text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#'));
    games.enumerate().map(|(i, line)| read_move_list(i + 1, line)).collect()
}

fn read_move_list(number: usize, line: &str) -> Result<Recorded, RecordError> {
    let joined: String = line.split([' ', '\t', ',', ';']).collect();
    let points = Pos::parse_list(&joined).map_err(|e| RecordError::game(number, e))?;
    let moves = points
        .into_iter()
        .map(|p| (Point { x: p.x as i64, y: p.y as i64, text: p.notation() }, None))
        .collect();
    Ok(Recorded { number, moves, ..Recorded::default() })
}

/// A record's game checked move by move: the position before the first move, the moves, and the
/// winner if the last move decided the game.
#[derive(Clone, Debug)]
pub struct Replayed {
    pub rules: Rules,
    pub start: Board,
    pub moves: Vec<Pos>,
    /// The winner when the last move made a five (or won by captures) or lost by a foul.
    pub decided: Option<Color>,
}

/// Plays `game` on a `width` x `height` board under `rules`, every move checked: on the board, on an
/// empty point, of the colour whose turn it is, and not after the game was decided.
pub fn replay(game: &Recorded, rules: Rules, width: usize, height: usize) -> Result<Replayed, RecordError> {
    let n = game.number;
    let mut board =
        Board::new(width as i64, height as i64).map_err(|e| RecordError::game(n, e.to_string()))?;
    board.set_capture(rules.capture_rule());
    let [black, white] = game.setup.each_ref().map(|stones| {
        stones
            .iter()
            .map(|p| board.pos(p.x, p.y).ok_or_else(|| format!("set-up stone {} is off the board", p.name())))
            .collect::<Result<Vec<Pos>, String>>()
    });
    let (black, white) =
        (black.map_err(|e| RecordError::game(n, e))?, white.map_err(|e| RecordError::game(n, e))?);
    board
        .set_position(&black, &white, &[])
        .map_err(|e| RecordError::game(n, format!("set-up stones: {e}")))?;
    let start = board.clone();
    let (mut moves, mut decided) = (vec![], None::<Color>);
    for (i, (point, color)) in game.moves.iter().enumerate() {
        let fail = |what: String| RecordError { game: Some(n), mv: Some((i + 1, point.name())), what };
        let mover = board.side_to_move();
        if let Some(winner) = decided {
            return Err(fail(format!("the game was over: {} had won", winner.name())));
        }
        if color.is_some_and(|c| c != mover) {
            return Err(fail(format!("it is {}'s turn", mover.name())));
        }
        let verdict =
            board.pos(point.x, point.y).filter(|&p| board.is_empty(p)).map(|p| rules.verdict(&board, p));
        // The move is named once, in the record's own notation: the error says only what is wrong.
        let p = board.try_play(point.x, point.y).map_err(|e| {
            fail(match e {
                BoardError::Occupied(_) => "the point is already taken".into(),
                BoardError::OffBoard { .. } => format!("off the {width}x{height} board"),
                e => e.to_string(),
            })
        })?;
        decided = match verdict {
            Some(Verdict::Win) => Some(mover),
            Some(Verdict::Foul(_) | Verdict::Illegal(_)) => Some(mover.opp()),
            _ => None,
        };
        moves.push(p);
    }
    Ok(Replayed { rules, start, moves, decided })
}

/// SGF: a collection of game trees; each game is its main line (the first variation wherever there
/// are several). Properties other than those of a game's board, players and moves are skipped.
mod sgf {
    use super::{Point, RecordError, Recorded};
    use crate::game::board::Color;
    use crate::game::rules::Rules;

    /// Variations nested deeper than this are refused.
    const MAX_NESTING: usize = 500;

    /// A node's properties, each with its values (escapes resolved).
    type Node = Vec<(String, Vec<String>)>;

    pub(super) fn read(text: &str) -> Vec<Result<Recorded, RecordError>> {
        let mut parser = Parser { s: text.as_bytes(), i: 0 };
        let mut games = vec![];
        loop {
            parser.blanks();
            if parser.i >= parser.s.len() {
                break;
            }
            let number = games.len() + 1;
            match parser.tree(true, 0) {
                Ok(nodes) => games.push(game(number, &nodes)),
                Err(e) => {
                    // A syntax error leaves the rest of the file unreadable: it ends the reading.
                    games.push(Err(RecordError::game(number, e)));
                    break;
                }
            }
        }
        if games.is_empty() {
            games.push(Err(RecordError::file("no SGF game in the file")));
        }
        games
    }

    /// The game one main line tells.
    fn game(number: usize, nodes: &[Node]) -> Result<Recorded, RecordError> {
        let bad = |what: String| RecordError::game(number, what);
        let mut g = Recorded { number, ..Recorded::default() };
        for node in nodes {
            for (name, values) in node {
                let first = values.first().map(String::as_str).unwrap_or_default();
                match name.as_str() {
                    "SZ" => {
                        g.size =
                            Some(size(first).ok_or_else(|| bad(format!("SZ[{first}] is no board size")))?)
                    }
                    "RU" => match rules(first) {
                        Some(r) => g.rules = Some(r),
                        None => g.unknown_rule = Some(first.to_string()),
                    },
                    "PB" => g.black = Some(first.to_string()),
                    "PW" => g.white = Some(first.to_string()),
                    "RE" => {
                        g.result = Some(first.to_string());
                        g.winner = winner(first);
                    }
                    "AB" | "AW" => {
                        let side = usize::from(name == "AW");
                        for v in values {
                            g.setup[side]
                                .push(point(v).ok_or_else(|| bad(format!("{name}[{v}] is no point")))?);
                        }
                    }
                    "B" | "W" => {
                        let color = if name == "B" { Color::Black } else { Color::White };
                        let what = || format!("move {} ({name}[{first}]): no point", g.moves.len() + 1);
                        let p = point(first).ok_or_else(|| bad(what()))?;
                        g.moves.push((p, Some(color)));
                    }
                    _ => {}
                }
            }
        }
        Ok(g)
    }

    /// `SZ[15]` or `SZ[20:15]` (columns:rows).
    fn size(v: &str) -> Option<(usize, usize)> {
        match v.split_once(':') {
            Some((w, h)) => Some((w.trim().parse().ok()?, h.trim().parse().ok()?)),
            None => v.trim().parse().ok().map(|n| (n, n)),
        }
    }

    /// `RU`: a Gomocup rule code (what `match` writes) or a game's name.
    fn rules(v: &str) -> Option<Rules> {
        let v = v.trim();
        match v.parse::<i64>() {
            Ok(code) => match Rules::from_mask(code, 5) {
                (rules, None) => Some(rules),
                (_, Some(_)) => None,
            },
            Err(_) => Rules::named(v),
        }
    }

    /// `RE`: `B+…` and `W+…` name the winner, `0` and `Draw` a draw; anything else says nothing.
    fn winner(v: &str) -> Option<Option<Color>> {
        let v = v.trim().to_ascii_uppercase();
        if v.starts_with("B+") {
            Some(Some(Color::Black))
        } else if v.starts_with("W+") {
            Some(Some(Color::White))
        } else if v == "0" || v == "DRAW" {
            Some(None)
        } else {
            None
        }
    }

    /// Two letters, column then row from the top-left corner (what our `match` and c-gomoku-cli
    /// write; from 26 on, `A` to `Z`). An empty value or `tt` is a pass, which gomoku does not have.
    fn point(v: &str) -> Option<Point> {
        let b = v.trim().as_bytes();
        let coord = |c: u8| crate::tools::record::write::sgf_value(c).map(|v| v as i64);
        match b {
            [x, y] => Some(Point { x: coord(*x)?, y: coord(*y)?, text: v.trim().to_string() }),
            _ => None,
        }
    }

    struct Parser<'a> {
        s: &'a [u8],
        i: usize,
    }

    impl Parser<'_> {
        fn blanks(&mut self) {
            while self.s.get(self.i).is_some_and(|c| c.is_ascii_whitespace()) {
                self.i += 1;
            }
        }

        fn expect(&mut self, c: u8) -> Result<(), String> {
            self.blanks();
            if self.s.get(self.i) == Some(&c) {
                self.i += 1;
                Ok(())
            } else {
                Err(format!("SGF: '{}' expected at byte {}", c as char, self.i))
            }
        }

        /// A game tree `( ;node ;node ... (variation) ... )`: its nodes along the first variation when
        /// `keep`, none otherwise (the other variations are read past and dropped).
        fn tree(&mut self, keep: bool, depth: usize) -> Result<Vec<Node>, String> {
            // Each variation is a call: a file of endless nesting must not exhaust the stack.
            if depth > MAX_NESTING {
                return Err(format!("SGF: variations nested more than {MAX_NESTING} deep"));
            }
            self.expect(b'(')?;
            let mut nodes = vec![];
            let mut first_variation = true;
            loop {
                self.blanks();
                match self.s.get(self.i) {
                    Some(b';') => {
                        self.i += 1;
                        let node = self.node()?;
                        if keep {
                            nodes.push(node);
                        }
                    }
                    Some(b'(') => {
                        let sub = self.tree(keep && first_variation, depth + 1)?;
                        nodes.extend(sub);
                        first_variation = false;
                    }
                    Some(b')') => {
                        self.i += 1;
                        return Ok(nodes);
                    }
                    Some(&c) => return Err(format!("SGF: unexpected '{}' at byte {}", c as char, self.i)),
                    None => return Err("SGF: the file ends inside a game (a ')' is missing)".into()),
                }
            }
        }

        /// The properties of one node, up to the next `;`, `(` or `)`.
        fn node(&mut self) -> Result<Node, String> {
            let mut props = vec![];
            loop {
                self.blanks();
                let start = self.i;
                while self.s.get(self.i).is_some_and(|c| c.is_ascii_alphabetic()) {
                    self.i += 1;
                }
                if start == self.i {
                    return Ok(props);
                }
                // FF[3]-style names may have lowercase letters (`AddBlack`); the capitals are the name.
                let name: String = self.s[start..self.i]
                    .iter()
                    .filter(|c| c.is_ascii_uppercase())
                    .map(|&c| c as char)
                    .collect();
                let mut values = vec![];
                loop {
                    self.blanks();
                    if self.s.get(self.i) != Some(&b'[') {
                        break;
                    }
                    self.i += 1;
                    values.push(self.value()?);
                }
                if values.is_empty() {
                    return Err(format!("SGF: property {name} without a value at byte {}", self.i));
                }
                props.push((name, values));
            }
        }

        /// A value up to its unescaped `]`, with `\` escapes resolved.
        fn value(&mut self) -> Result<String, String> {
            let mut bytes = vec![];
            loop {
                match self.s.get(self.i) {
                    Some(b']') => {
                        self.i += 1;
                        return Ok(String::from_utf8_lossy(&bytes).into_owned());
                    }
                    Some(b'\\') => {
                        bytes.extend(self.s.get(self.i + 1));
                        self.i += 2;
                    }
                    Some(&c) => {
                        bytes.push(c);
                        self.i += 1;
                    }
                    None => {
                        return Err("SGF: the file ends inside a property value (a ']' is missing)".into());
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::record::write::GameRecord;

    fn recorded() -> GameRecord {
        let moves = ["h8", "i9", "h9"].map(|m| (Pos::from_notation(m).unwrap(), 5)).to_vec();
        GameRecord {
            width: 15,
            height: 15,
            rule: 4,
            black: "one [x]".into(),
            white: "two".into(),
            setup: [vec![], vec![]],
            moves,
            opening_len: 1,
            winner: Some(Color::White),
            reason: "time".into(),
        }
    }

    fn notation(g: &Recorded) -> Vec<String> {
        g.moves.iter().map(|(p, _)| Pos::new(p.x as usize, p.y as usize).notation()).collect()
    }

    #[test]
    fn what_match_writes_reads_back() {
        let record = recorded();
        let sgf = read(&record.sgf().repeat(2));
        assert_eq!(sgf.len(), 2);
        let g = sgf[1].as_ref().unwrap();
        assert_eq!((g.number, g.size, g.rules), (2, Some((15, 15)), Rules::named("renju")));
        assert_eq!((g.black.as_deref(), g.winner), (Some("one [x]"), Some(Some(Color::White))));
        assert_eq!(notation(g), ["h8", "i9", "h9"]);
        assert_eq!(g.moves[1].1, Some(Color::White));

        let psq = read(&record.psq());
        let g = psq[0].as_ref().unwrap();
        assert_eq!(
            (g.size, g.black.as_deref(), g.white.as_deref()),
            (Some((15, 15)), Some("one [x]"), Some("two"))
        );
        assert_eq!(notation(g), ["h8", "i9", "h9"]);
    }

    #[test]
    fn sgf_setup_variations_and_unknown_properties() {
        let text = "(;GM[4]SZ[20:15]AB[hh][ii]AW[jj]C[a comment \\] with a bracket]BL[30.5]\n\
                    ;W[kk]C[x](;B[ll];W[mm])(;B[aa]))";
        let games = read(text);
        let g = games[0].as_ref().unwrap();
        assert_eq!(g.size, Some((20, 15)));
        assert_eq!(g.setup[0].len() + g.setup[1].len(), 3);
        assert_eq!(notation(g), ["k11", "l12", "m13"]);
        let r = replay(g, Rules::default(), 20, 15).unwrap();
        assert_eq!(r.start.stone_count(), 3);
    }

    #[test]
    fn broken_records_name_the_game_and_the_move() {
        let games = read("h8 i9 h8\nh8i9\nh8 zz\n");
        let occupied = replay(games[0].as_ref().unwrap(), Rules::default(), 15, 15).unwrap_err();
        assert_eq!((occupied.game, occupied.mv.map(|m| m.0)), (Some(1), Some(3)));
        assert!(replay(games[1].as_ref().unwrap(), Rules::default(), 15, 15).is_ok());
        assert_eq!(games[2].as_ref().unwrap_err().game, Some(3));
        // Off the board, a colour out of turn, a move after the five, an unclosed game.
        let off = read("Piskvorky 15x15, 1:1, 0\n8,8,0\n16,1,0\n");
        let e = replay(off[0].as_ref().unwrap(), Rules::default(), 15, 15).unwrap_err();
        assert_eq!(e.mv.map(|m| m.0), Some(2));
        let turn = read("(;B[hh];B[ii])");
        assert!(replay(turn[0].as_ref().unwrap(), Rules::default(), 15, 15).is_err());
        let after = read("a1b1a2b2a3b3a4b4a5b5");
        let e = replay(after[0].as_ref().unwrap(), Rules::default(), 15, 15).unwrap_err();
        assert_eq!(e.mv.map(|m| m.0), Some(10));
        assert!(read("(;B[hh];W[ii]")[0].is_err());
        assert!(read(&"(;B[hh]".repeat(100_000))[0].is_err());
        assert!(read("Piskvorky\n1,1,0")[0].is_err());
    }

    #[test]
    fn the_winning_move_decides_the_game() {
        let five = read("a1b1a2b2a3b3a4b4a5");
        let r = replay(five[0].as_ref().unwrap(), Rules::default(), 15, 15).unwrap();
        assert_eq!((r.moves.len(), r.decided), (9, Some(Color::Black)));
    }
}
