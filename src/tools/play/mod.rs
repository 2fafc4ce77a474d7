//! The terminal game: a person plays a tournament of rounds against the engine (`pbrain-quincunx play`).
//!
//! It owns the tournament (rounds, the coin, points, saving and resuming) and the person's side of the
//! screen: the board drawn with box-drawing lines, columns lettered `A..` from the left and rows
//! numbered from 1 at the top, the pos notation of every tool (so the centre of 19x19 is J10), stones as circles, the last move
//! marked. It reads commands from an [`Input`] (a pipe's lines, or a terminal's as typed) and writes
//! to any `Write`, so a pipe drives it as well as a terminal; the engine's moves come from the search
//! with a time (or depth) per move, shown thinking on a terminal.
//!
//! Invariants: the board is only changed through the rules' checks (a refused input leaves it as it
//! was); the first player of a round is Black internally, shown as white (○) in Pente as its boards
//! show it and as black (●) under the gomoku rules; points are counted once, when a round ends.

use std::io::{IsTerminal, Write};

use anyhow::{Result, bail};

use crate::eval::score::WIN_THRESHOLD;
use crate::game::board::{Board, Cell, Color, DIRECTIONS, MAX_SIDE, MIN_SIDE, Pos};
use crate::game::random::{Rng, clock_seed};
use crate::game::rules::{OpeningError, Rules, Variant, Verdict, tournament_opening};

/// `writeln!` for messages: the text is wrapped to the screen's width (see [`screen::wrap`]).
macro_rules! say {
    ($out:expr, $($arg:tt)*) => {
        $out.write_all($crate::tools::play::screen::wrap(&format!($($arg)*)).as_bytes())
    };
}

mod input;
mod round;
mod save;
mod screen;
mod think;

pub use input::{Input, Piped, Stamped, Typed};
use think::EngineSide;

pub use screen::{cell_name, draw, parse_cell};

/// Who sits where.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Who {
    Human,
    Engine,
}

impl Who {
    fn other(self) -> Who {
        match self {
            Who::Human => Who::Engine,
            Who::Engine => Who::Human,
        }
    }

    fn word(self) -> &'static str {
        match self {
            Who::Human => "human",
            Who::Engine => "engine",
        }
    }
}

/// What the command line chose.
#[derive(Clone, Debug)]
pub struct PlayConfig {
    pub rules: Rules,
    pub size: usize,
    /// The engine's time per move, ms.
    pub time_ms: u64,
    /// A fixed search depth instead (deterministic: tests use it).
    pub depth: Option<u64>,
    pub threads: usize,
    /// The coin's seed (default: the clock).
    pub seed: u64,
    /// The tournament opening (the first stone on the centre, the first player's second stone 3 or
    /// more points out) under the gomoku rules too; Pente always has it.
    pub tournament_rule: bool,
}

impl PlayConfig {
    /// The Pente family keeps its own conventions: the first player is white, captures count.
    pub fn pente(&self) -> bool {
        matches!(self.rules.variant, Variant::Pente { .. })
    }

    /// Whether the tournament opening binds this game.
    pub fn opening_rule(&self) -> bool {
        self.tournament_rule || self.pente()
    }

    /// How the first player's stones are named: white in Pente, black in gomoku.
    fn first_colour(&self) -> &'static str {
        if self.pente() { "white, ○" } else { "black, ●" }
    }
}

/// What the command line gave; `None` (or `false`) where it said nothing, so that a resumed
/// tournament keeps its own setting there and takes the command line's everywhere else.
#[derive(Clone, Debug, Default)]
pub struct PlayOptions {
    pub rules: Option<Rules>,
    pub size: Option<usize>,
    pub time_ms: Option<u64>,
    pub depth: Option<u64>,
    pub threads: Option<usize>,
    pub seed: Option<u64>,
    pub tournament_rule: bool,
}

impl PlayOptions {
    /// A new tournament: the defaults where nothing was given (freestyle; 15x15, or 19x19 for the
    /// Pente family as its boards are).
    pub fn start(&self) -> Result<Tournament> {
        let rules = self.rules.unwrap_or_default();
        let size = self.size.unwrap_or(rules.default_side());
        if !(MIN_SIDE..=MAX_SIDE).contains(&size) {
            bail!("--size {size}: the board is {MIN_SIDE} to {MAX_SIDE} wide");
        }
        Ok(Tournament::new(PlayConfig {
            rules,
            size,
            time_ms: self.time_ms.unwrap_or(1000),
            depth: self.depth,
            threads: self.threads.unwrap_or(1),
            seed: self.seed.unwrap_or_else(clock_seed),
            tournament_rule: self.tournament_rule,
        }))
    }

    /// A saved tournament with the options given now: they win over the saved ones. Only what would
    /// make another game of the moves already played (the rules, the size, the opening) is refused
    /// when it differs.
    pub fn resume(&self, mut t: Tournament) -> Result<Tournament> {
        if let Some(rules) = self.rules
            && rules != t.cfg.rules
        {
            bail!("--rule: the saved tournament is {}; it cannot change", t.cfg.rules);
        }
        if let Some(size) = self.size
            && size != t.cfg.size
        {
            bail!("--size: the saved tournament is on {0}x{0}; it cannot change", t.cfg.size);
        }
        if self.tournament_rule && !t.cfg.opening_rule() {
            bail!("--tournament-rule: the saved tournament was started without it; it cannot change");
        }
        if let Some(ms) = self.time_ms {
            t.cfg.time_ms = ms;
            // A time asked for now replaces a saved fixed depth (unless a depth is asked for too).
            t.cfg.depth = None;
        }
        if let Some(depth) = self.depth {
            t.cfg.depth = Some(depth);
        }
        if let Some(threads) = self.threads {
            t.cfg.threads = threads;
        }
        if let Some(seed) = self.seed {
            t.cfg.seed = seed;
            t.rng = Rng::new(seed);
        }
        Ok(t)
    }
}

/// The tournament so far: what `save` writes and `--resume` reads.
#[derive(Clone, Debug)]
pub struct Tournament {
    pub cfg: PlayConfig,
    /// Points of the human and of the engine.
    pub score: [u32; 2],
    pub round: u32,
    /// Who plays first in the current round.
    pub first: Who,
    /// The current round's moves.
    pub moves: Vec<Pos>,
    /// The coin.
    rng: Rng,
}

/// Why a stone may not go on `p`, if it may not.
fn refusal(cfg: &PlayConfig, board: &Board, p: Pos) -> Option<String> {
    if !board.is_empty(p) {
        return Some(format!("{} is occupied.", cell_name(p)));
    }
    let rules = &cfg.rules;
    if !cfg.opening_rule() {
        return rule_refusal(rules, board, p);
    }
    // The refusal names the centre, for the person at the board.
    let centre = Pos::new(board.width() / 2, board.height() / 2);
    match tournament_opening(board, p, false) {
        Some(OpeningError::NotOnCentre) => {
            return Some(format!("The first stone must go on the centre, {}.", cell_name(centre)));
        }
        // Only the first player's second stone comes third, and only the person reads the refusal.
        Some(OpeningError::TooNearCentre) => {
            return Some("Not allowed: your second stone must be 3 or more points from the centre.".into());
        }
        _ => {}
    }
    rule_refusal(rules, board, p)
}

/// Why the rules themselves refuse `p`: Pente's opening, renju's fouls.
fn rule_refusal(rules: &Rules, board: &Board, p: Pos) -> Option<String> {
    match rules.verdict(board, p) {
        Verdict::Illegal(why) => Some(format!("Not allowed: {why}.")),
        Verdict::Foul(kind) => {
            Some(format!("Not allowed: {kind} is forbidden for the first player in renju."))
        }
        _ => None,
    }
}

/// Runs of exactly four stones of `c` on the board (each line counted once).
fn fours_on_board(board: &Board, c: Color) -> u32 {
    let mut n = 0;
    for p in board.points() {
        for d in DIRECTIONS {
            let before = board.at(p.x as i32 - d.0, p.y as i32 - d.1);
            if board.get(p) != Cell::Stone(c) || before == Cell::Stone(c) {
                continue;
            }
            if board.run_from(p, d, c) == 3 {
                n += 1;
            }
        }
    }
    n
}

/// How a round ended.
enum RoundEnd {
    Five(Who),
    Captures(Who),
    Draw,
    /// Abandoned, with the engine's last score of the position (its side's view) if it searched one
    /// since the round's board last changed back.
    Quit(Option<i32>),
}

/// The points a round gives (human, engine) if it ends on `board`: 5 to the winner by five, 1 per
/// captured pair, 1 per line of exactly four.
fn round_points(t: &Tournament, board: &Board, five: Option<Who>) -> [u32; 2] {
    [Who::Human, Who::Engine].map(|who| {
        let c = t.color_of(who);
        board.captured(c) as u32 / 2 + fours_on_board(board, c) + if five == Some(who) { 5 } else { 0 }
    })
}

impl Tournament {
    pub fn new(cfg: PlayConfig) -> Tournament {
        let rng = Rng::new(cfg.seed);
        Tournament { cfg, score: [0, 0], round: 1, first: Who::Human, moves: vec![], rng }
    }

    fn board(&self) -> Result<Board> {
        let mut b = Board::new(self.cfg.size as i64, self.cfg.size as i64)?;
        b.set_capture(self.cfg.rules.capture_rule());
        for &p in &self.moves {
            if !b.is_empty(p) {
                bail!("the saved moves play {} twice", cell_name(p));
            }
            b.play_unchecked(p);
        }
        Ok(b)
    }

    fn who(&self, c: Color) -> Who {
        if c == Color::Black { self.first } else { self.first.other() }
    }

    fn color_of(&self, w: Who) -> Color {
        if w == self.first { Color::Black } else { Color::White }
    }
}

/// Runs a tournament on the process's stdin and stdout. A terminal's lines are read as typed (what is
/// typed while the engine thinks is dropped) and a terminal's screen shows the engine thinking; a
/// pipe's lines are a script, every one played in turn, and a pipe's output only the transcript.
pub fn run_on_stdio(t: Tournament) -> Result<()> {
    let live = std::io::stdout().is_terminal();
    let mut out = std::io::stdout().lock();
    if std::io::stdin().is_terminal() {
        run_tournament(t, &mut Typed::stdin(), &mut out, live)
    } else {
        run_tournament(t, &mut Piped(std::io::stdin().lock()), &mut out, live)
    }
}

/// Runs a tournament: `input` gives the person's lines, `out` gets everything shown; `live` (a
/// terminal) adds the line that shows the engine thinking.
pub fn run_tournament(
    mut t: Tournament,
    input: &mut impl Input,
    out: &mut impl Write,
    live: bool,
) -> Result<()> {
    let engine = EngineSide::new();
    let rules = t.cfg.rules;
    say!(out, "Quincunx: a tournament of {} on {}x{} against the engine.", rules, t.cfg.size, t.cfg.size)?;
    match t.cfg.depth {
        Some(d) => say!(out, "The engine searches to depth {d} a move.")?,
        None => say!(out, "The engine thinks {} ms a move.", t.cfg.time_ms)?,
    }
    if t.cfg.pente() {
        say!(
            out,
            "Points per round: 5 for five in a row, 1 per captured pair, 1 per line of exactly four at the end."
        )?;
    } else {
        say!(out, "Points per round: 5 for five in a row, 1 per line of exactly four at the end.")?;
    }
    let centre = cell_name(Pos::new(t.cfg.size / 2, t.cfg.size / 2));
    say!(out, "Commands: a move such as {centre} (the centre), hint, undo, save FILE, quit, help.")?;
    let resumed = !t.moves.is_empty() || t.round > 1 || t.score != [0, 0];
    if !resumed {
        match toss(&mut t, input, out)? {
            Some(w) => t.first = w,
            None => return finish(&t, out, Some(Standing::default())),
        }
    } else {
        say!(out, "Resuming round {}: you {}, engine {}.", t.round, t.score[0], t.score[1])?;
    }
    loop {
        let end = round::play_round(&mut t, &engine, input, out, live)?;
        let board = t.board()?;
        let gained = round_points(&t, &board, if let RoundEnd::Five(w) = end { Some(w) } else { None });
        let verdict = match end {
            RoundEnd::Five(Who::Human) => "You win the round with five in a row!".to_string(),
            RoundEnd::Five(Who::Engine) => "The engine wins the round with five in a row.".to_string(),
            RoundEnd::Captures(Who::Human) => "You win the round on captures!".to_string(),
            RoundEnd::Captures(Who::Engine) => "The engine wins the round on captures.".to_string(),
            RoundEnd::Draw => "The round is a draw: the board is full.".to_string(),
            RoundEnd::Quit(engine_score) => {
                say!(out, "Round {} abandoned; its points do not count.", t.round)?;
                let standing = Standing { round_points: gained, engine_score, round: t.round };
                return finish(&t, out, Some(standing));
            }
        };
        t.score[0] += gained[0];
        t.score[1] += gained[1];
        say!(out, "{verdict}")?;
        say!(
            out,
            "Round {} points: you {}, engine {}. Total: you {}, engine {}.",
            t.round,
            gained[0],
            gained[1],
            t.score[0],
            t.score[1]
        )?;
        t.round += 1;
        t.moves.clear();
        if ask_yes_no(input, out, "Play another round? (y/n) ")? != Some(true) {
            return finish(&t, out, None);
        }
        // The player with more points opens; a tie is tossed again.
        t.first = match t.score[0].cmp(&t.score[1]) {
            std::cmp::Ordering::Greater => Who::Human,
            std::cmp::Ordering::Less => Who::Engine,
            std::cmp::Ordering::Equal => match toss(&mut t, input, out)? {
                Some(w) => w,
                None => return finish(&t, out, Some(Standing::default())),
            },
        };
        if t.first == Who::Human {
            say!(out, "You play first ({}).", t.cfg.first_colour())?;
        } else {
            say!(out, "The engine plays first ({}).", t.cfg.first_colour())?;
        }
    }
}

/// `1 point`, `2 points`.
fn points(n: u32) -> String {
    format!("{n} point{}", if n == 1 { "" } else { "s" })
}

/// Where an abandoned round stood when it was left.
#[derive(Default)]
struct Standing {
    /// The round, 0 when none had begun.
    round: u32,
    /// Its points had it ended there (human, engine).
    round_points: [u32; 2],
    /// The engine's last score of it, from its side.
    engine_score: Option<i32>,
}

/// The totals, and the tournament's winner, or who led when it was abandoned (`abandoned`): a
/// tournament left midway is no draw, whatever the totals.
fn finish(t: &Tournament, out: &mut impl Write, abandoned: Option<Standing>) -> Result<()> {
    use std::cmp::Ordering::{Equal, Greater, Less};
    let [you, engine] = t.score;
    say!(out, "Final score: you {you}, engine {engine}.")?;
    let Some(standing) = abandoned else {
        let line = match you.cmp(&engine) {
            Greater => "You win the tournament!",
            Less => "The engine wins the tournament.",
            Equal => "The tournament is a draw.",
        };
        say!(out, "{line}")?;
        return Ok(());
    };
    let lead = match you.cmp(&engine) {
        Greater => format!("you lead {you} to {engine}"),
        Less => format!("the engine leads {engine} to {you}"),
        Equal => format!("the score is level at {you}"),
    };
    say!(out, "The tournament was abandoned: {lead}.")?;
    if standing.round == 0 {
        return Ok(());
    }
    let [r_you, r_engine] = standing.round_points;
    let round = standing.round;
    let line = match (r_you.cmp(&r_engine), standing.engine_score) {
        (Greater, _) => {
            format!("In round {round} you were ahead on the board, {} to {r_engine}.", points(r_you))
        }
        (Less, _) => {
            format!("In round {round} the engine was ahead on the board, {} to {r_you}.", points(r_engine))
        }
        (Equal, Some(s)) if s >= WIN_THRESHOLD => format!("In round {round} the engine had a forced win."),
        (Equal, Some(s)) if s <= -WIN_THRESHOLD => format!("In round {round} you had a forced win."),
        // Nothing on the board to tell.
        (Equal, _) if r_you == 0 => return Ok(()),
        (Equal, _) => format!("In round {round} the points on the board were level, {r_you} to {r_engine}."),
    };
    say!(out, "{line}")?;
    Ok(())
}

/// Prints a prompt and reads a line; `None` at the end of input. From a pipe the line is echoed, so
/// the output reads as a transcript of the game.
fn ask(input: &mut impl Input, out: &mut impl Write, prompt: &str) -> Result<Option<String>> {
    write!(out, "{prompt}")?;
    out.flush()?;
    let Some(line) = input.line()? else {
        writeln!(out)?;
        return Ok(None);
    };
    if input.echoes() {
        writeln!(out, "{}", line.trim_end())?;
    }
    Ok(Some(line.trim().to_string()))
}

/// Asks until the answer is yes or no (a slip of the keyboard, or a bare Enter, must not end the
/// tournament); `None` when the input ends.
fn ask_yes_no(input: &mut impl Input, out: &mut impl Write, prompt: &str) -> Result<Option<bool>> {
    loop {
        let Some(answer) = ask(input, out, prompt)? else { return Ok(None) };
        match answer.to_ascii_lowercase().as_str() {
            "y" | "yes" => return Ok(Some(true)),
            "n" | "no" => return Ok(Some(false)),
            _ => say!(out, "Please answer y or n.")?,
        }
    }
}

/// The coin toss: the person calls it, the winner plays first. `None` when the input ends.
fn toss(t: &mut Tournament, input: &mut impl Input, out: &mut impl Write) -> Result<Option<Who>> {
    let call = loop {
        let Some(line) = ask(input, out, "Coin toss: call it, heads or tails? ")? else { return Ok(None) };
        match line.to_ascii_lowercase().as_str() {
            "h" | "heads" => break true,
            "t" | "tails" => break false,
            _ => say!(out, "Please answer heads or tails.")?,
        }
    };
    let heads = t.rng.next_u64() & 1 == 0;
    let won = call == heads;
    say!(
        out,
        "The coin shows {}. {}",
        if heads { "heads" } else { "tails" },
        if won {
            format!("You win the toss and play first ({}).", t.cfg.first_colour())
        } else {
            format!("The engine plays first ({}).", t.cfg.first_colour())
        }
    )?;
    Ok(Some(if won { Who::Human } else { Who::Engine }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    /// Freestyle on 9x9 at depth 2, where calling tails wins the toss.
    fn small() -> Tournament {
        let opts = PlayOptions {
            size: Some(9),
            depth: Some(2),
            threads: Some(1),
            seed: Some(3),
            ..PlayOptions::default()
        };
        opts.start().unwrap()
    }

    /// Runs `t` on `input`, returns what was shown.
    fn shown(t: Tournament, input: &mut impl Input, live: bool) -> String {
        let mut out = Vec::new();
        run_tournament(t, input, &mut out, live).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn what_is_typed_while_the_engine_thinks_is_not_played() {
        let tmp = tempfile::tempdir().unwrap();
        let saved = tmp.path().join("typed.sav");
        let before = Instant::now() - Duration::from_secs(1);
        // A1 comes in (a day from now) while the engine answers E5; B2 was typed before it began.
        let during = Instant::now() + Duration::from_secs(86_400);
        let (send, incoming) = std::sync::mpsc::channel();
        let save = format!("save {}", saved.display());
        for (at, line) in [(before, "tails"), (before, "E5"), (during, "A1"), (before, "B2"), (before, &save)]
        {
            send.send(Ok((at, format!("{line}\n")))).unwrap();
        }
        drop(send);
        let out = shown(small(), &mut Typed::from_channel(incoming), false);
        assert!(out.contains("Not played, as it was typed while the engine was thinking: A1."), "{out}");
        let text = std::fs::read_to_string(&saved).unwrap();
        let moves = text.lines().find_map(|l| l.strip_prefix("moves ")).unwrap();
        let moves: Vec<&str> = moves.split(' ').collect();
        assert_eq!((moves.len(), moves[0], moves[2]), (4, "E5", "B2"), "{text}");
    }

    #[test]
    fn a_terminal_sees_the_engine_think_and_a_pipe_only_the_transcript() {
        let typed = "tails\nE5\nhint\nquit\n";
        let piped = shown(small(), &mut Piped(typed.as_bytes()), false);
        let live = shown(small(), &mut Piped(typed.as_bytes()), true);
        assert!(!piped.contains('\r') && !piped.contains('\x1b'), "{piped}");
        // A frame for each iteration, rewritten in place.
        for frame in ["Engine thinking", ": depth 1, best ", ": depth 2, best ", "Finding a hint"] {
            assert!(live.contains(frame), "no '{frame}' in {live:?}");
        }
        // Without its frames the terminal's screen is the pipe's transcript (times aside).
        let frames = ["| ", "/ ", "- ", "\\ "];
        let kept: String =
            live.split("\r\x1b[K").filter(|part| !frames.iter().any(|f| part.starts_with(f))).collect();
        let digitless = |s: &str| s.chars().filter(|c| !c.is_ascii_digit()).collect::<String>();
        assert_eq!(digitless(&kept), digitless(&piped));
    }

    #[test]
    fn cells_are_lettered_from_the_left_and_numbered_from_the_top_as_pos_notation() {
        assert_eq!(parse_cell("J10", 19, 19), Some(Pos::new(9, 9)));
        assert_eq!(parse_cell("a1", 19, 19), Some(Pos::new(0, 0)));
        assert_eq!(parse_cell("S19", 19, 19), Some(Pos::new(18, 18)));
        assert_eq!(parse_cell("T1", 19, 19), None);
        assert_eq!(parse_cell("A20", 19, 19), None);
        assert_eq!(parse_cell("10", 19, 19), None);
        assert_eq!(cell_name(Pos::new(8, 10)), "I11");
        assert_eq!(parse_cell(&Pos::new(8, 10).notation(), 15, 15), Some(Pos::new(8, 10)));
    }

    #[test]
    fn fours_are_counted_once_per_line() {
        let b: Board =
            "x x x x . .\no o o . . .\n. . . . . .\n. . . . . .\n. . . . . .\n. . . . . .".parse().unwrap();
        assert_eq!(fours_on_board(&b, Color::Black), 1);
        assert_eq!(fours_on_board(&b, Color::White), 0);
    }

    #[test]
    fn an_abandoned_tournament_names_the_leader_never_a_draw() {
        let t = PlayOptions { seed: Some(1), ..PlayOptions::default() }.start().unwrap();
        let said = |standing: Standing| {
            let mut out = Vec::new();
            finish(&t, &mut out, Some(standing)).unwrap();
            String::from_utf8(out).unwrap()
        };
        let won = said(Standing { round: 1, round_points: [0, 0], engine_score: Some(WIN_THRESHOLD + 5) });
        assert!(
            won.contains("the score is level at 0") && won.contains("the engine had a forced win"),
            "{won}"
        );
        assert!(!won.contains("draw"), "{won}");
        let lost = said(Standing { round: 1, round_points: [0, 0], engine_score: Some(-WIN_THRESHOLD - 5) });
        assert!(lost.contains("you had a forced win"), "{lost}");
        let ahead = said(Standing { round: 1, round_points: [2, 1], engine_score: None });
        assert!(ahead.contains("you were ahead on the board, 2 points to 1"), "{ahead}");
    }

    #[test]
    fn saved_text_round_trips() {
        let mut t = Tournament::new(PlayConfig {
            rules: Rules::pente(false),
            size: 19,
            time_ms: 500,
            depth: Some(3),
            threads: 1,
            seed: 7,
            tournament_rule: true,
        });
        t.moves = vec![Pos::new(9, 9), Pos::new(10, 10)];
        t.score = [3, 6];
        t.round = 2;
        t.first = Who::Engine;
        let back = Tournament::from_text(&t.to_text()).unwrap();
        assert_eq!(back.to_text(), t.to_text());
        t.cfg.rules = Rules::default();
        t.cfg.tournament_rule = false;
        let back = Tournament::from_text(&t.to_text()).unwrap();
        assert!(!back.cfg.tournament_rule && !back.cfg.pente());
        assert_eq!(back.to_text(), t.to_text());
    }

    #[test]
    fn files_saved_before_the_tournament_key_keep_the_opening_rule() {
        let old = "quincunx-play 1\nrules freestyle\nsize 15\ntime 500\ndepth 0\nthreads 1\nscore 1 2\n\
                   round 2\nfirst engine\nrng 9\nmoves H8 H9\n";
        let t = Tournament::from_text(old).unwrap();
        assert!(t.cfg.tournament_rule && t.cfg.opening_rule());
        let pente = old.replace("freestyle", "pente").replace("15", "19").replace("H8 H9", "J10 J11");
        let t = Tournament::from_text(&pente).unwrap();
        assert!(t.cfg.pente() && t.cfg.opening_rule());
        assert_eq!(t.moves.len(), 2);
    }
}
