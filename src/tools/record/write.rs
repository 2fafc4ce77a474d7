//! Game records: PSQ (Piskvork's format, one game per file) and SGF (one collection for a match).
//!
//! PSQ: `Piskvorky WxH, 11:11, 0`, then one `x,y,ms` line per move with 1-based coordinates, then the
//! players' names and the result in words. SGF: `GM[4]` (gomoku), letters `a..` for both coordinates
//! counted from the top-left corner, the opening stones as ordinary moves, `RE` as `B+`, `W+` or `0`,
//! and the reason of the end in a comment.
//!
//! A [`Recorder`] writes a match's records: its paths are checked when it is made (before the first
//! game), and each game is written as it ends, so a match that stops early keeps what it played.

use std::fmt::{self, Write};
use std::fs::{File, OpenOptions};
use std::io::{self, Write as _};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::game::board::{Color, Pos};

/// An output file or directory that cannot be written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutputError {
    pub path: PathBuf,
    pub kind: io::ErrorKind,
    /// The system's words for it.
    pub message: String,
}

impl OutputError {
    pub fn new(path: &Path, e: &io::Error) -> OutputError {
        OutputError { path: path.to_path_buf(), kind: e.kind(), message: e.to_string() }
    }
}

impl fmt::Display for OutputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot write {}: {}", self.path.display(), self.message)
    }
}

impl std::error::Error for OutputError {}

/// Where a match's records go: a directory of PSQ files, one SGF file, both or neither.
pub struct Recorder {
    psq_dir: Option<PathBuf>,
    sgf: Option<(PathBuf, Mutex<File>)>,
}

impl Recorder {
    /// Checks the paths: the PSQ directory is made if missing and must take a file; the SGF file is
    /// created (emptied if it exists) in a directory that must exist, as a typo there should not make
    /// directories. Checking first means a bad path costs no games.
    pub fn open(psq_dir: Option<&Path>, sgf: Option<&Path>) -> Result<Recorder, OutputError> {
        if let Some(dir) = psq_dir {
            std::fs::create_dir_all(dir).map_err(|e| OutputError::new(dir, &e))?;
            // A directory can exist and still refuse files; only a write tells.
            let probe = dir.join(format!(".pbrain-quincunx-probe-{}", std::process::id()));
            File::create(&probe).map_err(|e| OutputError::new(dir, &e))?;
            let _ = std::fs::remove_file(&probe);
        }
        let sgf = match sgf {
            Some(path) => {
                let file = OpenOptions::new()
                    .write(true)
                    .create(true)
                    .truncate(true)
                    .open(path)
                    .map_err(|e| OutputError::new(path, &e))?;
                Some((path.to_path_buf(), Mutex::new(file)))
            }
            None => None,
        };
        Ok(Recorder { psq_dir: psq_dir.map(Path::to_path_buf), sgf })
    }

    /// Writes one finished game: `DIR/game-NNNNN.psq` with its number, and its SGF appended.
    pub fn write(&self, number: usize, record: &GameRecord) -> Result<(), OutputError> {
        if let Some(dir) = &self.psq_dir {
            let path = dir.join(format!("game-{number:05}.psq"));
            std::fs::write(&path, record.psq()).map_err(|e| OutputError::new(&path, &e))?;
        }
        if let Some((path, file)) = &self.sgf {
            let mut file = file.lock().unwrap_or_else(|e| e.into_inner());
            file.write_all(record.sgf().as_bytes()).map_err(|e| OutputError::new(path, &e))?;
        }
        Ok(())
    }
}

/// One finished game as the referee saw it.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub width: usize,
    pub height: usize,
    pub rule: i64,
    pub black: String,
    pub white: String,
    /// Stones set up before the first move, black's then white's (SGF `AB`, `AW`; none in a match).
    pub setup: [Vec<Pos>; 2],
    /// Opening stones, then the engines' moves with the milliseconds each took (0 for opening stones).
    pub moves: Vec<(Pos, u64)>,
    /// How many of `moves` the opening placed.
    pub opening_len: usize,
    pub winner: Option<Color>,
    /// Why the game ended, in words.
    pub reason: String,
}

impl GameRecord {
    pub fn result_text(&self) -> String {
        match self.winner {
            Some(Color::Black) => format!("{} (black) wins: {}", self.black, self.reason),
            Some(Color::White) => format!("{} (white) wins: {}", self.white, self.reason),
            None => format!("draw: {}", self.reason),
        }
    }

    pub fn psq(&self) -> String {
        let mut s = format!("Piskvorky {}x{}, 11:11, 0\n", self.width, self.height);
        for (p, ms) in &self.moves {
            let _ = writeln!(s, "{},{},{}", p.x as u32 + 1, p.y as u32 + 1, ms);
        }
        let _ = writeln!(s, "{}\n{}\n{}", self.black, self.white, self.result_text());
        s
    }

    pub fn sgf(&self) -> String {
        let esc = |t: &str| t.replace('\\', "\\\\").replace(']', "\\]");
        let size = if self.width == self.height {
            self.width.to_string()
        } else {
            format!("{}:{}", self.width, self.height)
        };
        let re = match self.winner {
            Some(Color::Black) => "B+",
            Some(Color::White) => "W+",
            None => "0",
        };
        let mut s = format!(
            "(;GM[4]FF[4]CA[UTF-8]AP[quincunx]SZ[{size}]RU[{}]PB[{}]PW[{}]RE[{re}]C[{}]",
            self.rule,
            esc(&self.black),
            esc(&self.white),
            esc(&self.result_text())
        );
        let letter = |v: u8| sgf_letter(v as usize);
        for (tag, stones) in ["AB", "AW"].iter().zip(&self.setup) {
            if !stones.is_empty() {
                s.push_str(tag);
                for p in stones {
                    let _ = write!(s, "[{}{}]", letter(p.x), letter(p.y));
                }
            }
        }
        // With set-up stones the side to move follows their counts, as black moves first.
        let first_white = self.setup[0].len() > self.setup[1].len();
        for (i, (p, _)) in self.moves.iter().enumerate() {
            let c = if (i % 2 == 0) != first_white { 'B' } else { 'W' };
            let _ = write!(s, ";{c}[{}{}]", letter(p.x), letter(p.y));
        }
        s.push_str(")\n");
        s
    }
}

/// A coordinate as SGF writes it (FF[4]): `a` to `z` for 0 to 25, `A` to `Z` from 26.
pub fn sgf_letter(v: usize) -> char {
    if v < 26 { char::from(b'a' + v as u8) } else { char::from(b'A' + (v - 26) as u8) }
}

/// The coordinate an SGF letter gives, the inverse of [`sgf_letter`].
pub fn sgf_value(c: u8) -> Option<usize> {
    match c {
        b'a'..=b'z' => Some((c - b'a') as usize),
        b'A'..=b'Z' => Some((c - b'A') as usize + 26),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> GameRecord {
        GameRecord {
            width: 15,
            height: 15,
            rule: 0,
            black: "a".into(),
            white: "b".into(),
            setup: [vec![], vec![]],
            moves: vec![(Pos::new(7, 7), 0), (Pos::new(8, 8), 12)],
            opening_len: 1,
            winner: Some(Color::White),
            reason: "five in a row".into(),
        }
    }

    #[test]
    fn psq_is_one_based() {
        let psq = sample().psq();
        assert!(psq.starts_with("Piskvorky 15x15, 11:11, 0\n8,8,0\n9,9,12\na\nb\n"));
    }

    #[test]
    fn a_recorder_checks_its_paths_and_writes_each_game() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        // An SGF file in a directory that does not exist, a PSQ directory under a file: refused.
        let missing = dir.join("missing/games.sgf");
        assert_eq!(Recorder::open(None, Some(&missing)).err().map(|e| e.path), Some(missing));
        std::fs::write(dir.join("file"), "").unwrap();
        assert!(Recorder::open(Some(&dir.join("file/psq")), None).is_err());
        // Each game is in its files as soon as it is written.
        let (psq, sgf) = (dir.join("psq"), dir.join("games.sgf"));
        let recorder = Recorder::open(Some(&psq), Some(&sgf)).unwrap();
        assert_eq!(std::fs::read_dir(&psq).unwrap().count(), 0);
        for number in 1..=2 {
            recorder.write(number, &sample()).unwrap();
            assert_eq!(std::fs::read_to_string(&sgf).unwrap(), sample().sgf().repeat(number));
            assert_eq!(std::fs::read_dir(&psq).unwrap().count(), number);
        }
        assert_eq!(std::fs::read_to_string(psq.join("game-00002.psq")).unwrap(), sample().psq());
    }

    #[test]
    fn sgf_moves_and_result() {
        let sgf = sample().sgf();
        assert!(sgf.contains("SZ[15]") && sgf.contains("RE[W+]") && sgf.contains(";B[hh];W[ii])"));
    }
}
