//! Helpers shared by the data-driven tests: where the test data lives (`tests/data/`, whose README says
//! where each file came from), a small JSON reader (the test data is JSON; a parser of our own keeps the
//! dependency list to the four the design names), and positions built from stone lists in pos notation
//! (`H8`).

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use quincunx::game::board::{Board, Pos};

/// Runs `cmd` with piped output and waits at most two minutes for it: a hang fails the test instead
/// of hanging it.
pub fn output_within_deadline(cmd: &mut Command) -> Output {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let deadline = Instant::now() + Duration::from_secs(120);
    while child.try_wait().expect("wait").is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("{cmd:?} did not finish");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().expect("output")
}

/// An empty directory of one test's own, `quincunx-<suite>-<pid>-<test>` under the system's temporary
/// directory.
pub fn scratch_dir(suite: &str, test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("quincunx-{suite}-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temporary directory");
    dir
}

/// The command that runs `tests/fault-engines/<name>.sh`, a scripted faulty brain.
pub fn fault_engine_command(name: &str) -> String {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fault-engines").join(format!("{name}.sh"));
    format!("bash {}", path.display())
}

/// `tests/data/<rel>` from the package root.
pub fn data_path(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(rel)
}

pub fn read_data(rel: &str) -> String {
    let p = data_path(rel);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("cannot read {}: {e}", p.display()))
}

#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    Arr(Vec<Json>),
    Obj(BTreeMap<String, Json>),
}

impl Json {
    pub fn parse(text: &str) -> Json {
        let mut p = Parser { s: text.as_bytes(), i: 0 };
        let v = p.value();
        p.ws();
        assert_eq!(p.i, p.s.len(), "trailing characters in JSON");
        v
    }

    pub fn get(&self, key: &str) -> &Json {
        match self {
            Json::Obj(m) => m.get(key).unwrap_or(&Json::Null),
            _ => &Json::Null,
        }
    }

    pub fn str(&self) -> &str {
        match self {
            Json::Str(s) => s,
            other => panic!("not a string: {other:?}"),
        }
    }

    pub fn arr(&self) -> &[Json] {
        match self {
            Json::Arr(v) => v,
            Json::Null => &[],
            other => panic!("not an array: {other:?}"),
        }
    }

    pub fn obj(&self) -> &BTreeMap<String, Json> {
        match self {
            Json::Obj(m) => m,
            other => panic!("not an object: {other:?}"),
        }
    }

    pub fn num(&self) -> f64 {
        match self {
            Json::Num(n) => *n,
            other => panic!("not a number: {other:?}"),
        }
    }

    pub fn bool(&self) -> bool {
        match self {
            Json::Bool(b) => *b,
            other => panic!("not a bool: {other:?}"),
        }
    }

    pub fn is_null(&self) -> bool {
        *self == Json::Null
    }
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn ws(&mut self) {
        while self.i < self.s.len() && self.s[self.i].is_ascii_whitespace() {
            self.i += 1;
        }
    }

    fn eat(&mut self, c: u8) {
        self.ws();
        assert_eq!(self.s.get(self.i), Some(&c), "JSON: expected '{}' at {}", c as char, self.i);
        self.i += 1;
    }

    fn value(&mut self) -> Json {
        self.ws();
        match self.s[self.i] {
            b'{' => {
                self.i += 1;
                let mut m = BTreeMap::new();
                self.ws();
                if self.s[self.i] == b'}' {
                    self.i += 1;
                    return Json::Obj(m);
                }
                loop {
                    self.ws();
                    let k = self.string();
                    self.eat(b':');
                    let v = self.value();
                    m.insert(k, v);
                    self.ws();
                    self.i += 1;
                    if self.s[self.i - 1] == b'}' {
                        return Json::Obj(m);
                    }
                }
            }
            b'[' => {
                self.i += 1;
                let mut v = vec![];
                self.ws();
                if self.s[self.i] == b']' {
                    self.i += 1;
                    return Json::Arr(v);
                }
                loop {
                    v.push(self.value());
                    self.ws();
                    self.i += 1;
                    if self.s[self.i - 1] == b']' {
                        return Json::Arr(v);
                    }
                }
            }
            b'"' => Json::Str(self.string()),
            b't' => {
                self.i += 4;
                Json::Bool(true)
            }
            b'f' => {
                self.i += 5;
                Json::Bool(false)
            }
            b'n' => {
                self.i += 4;
                Json::Null
            }
            _ => {
                let start = self.i;
                while self.i < self.s.len() && b"+-0123456789.eE".contains(&self.s[self.i]) {
                    self.i += 1;
                }
                let t = std::str::from_utf8(&self.s[start..self.i]).unwrap();
                Json::Num(t.parse().unwrap_or_else(|_| panic!("JSON: bad number '{t}'")))
            }
        }
    }

    fn string(&mut self) -> String {
        self.eat(b'"');
        let mut out = Vec::new();
        while self.s[self.i] != b'"' {
            if self.s[self.i] == b'\\' {
                self.i += 1;
                match self.s[self.i] {
                    b'n' => out.push(b'\n'),
                    b't' => out.push(b'\t'),
                    b'u' => {
                        let hex = std::str::from_utf8(&self.s[self.i + 1..self.i + 5]).unwrap();
                        let c = char::from_u32(u32::from_str_radix(hex, 16).unwrap()).unwrap_or('?');
                        out.extend(c.to_string().as_bytes());
                        self.i += 4;
                    }
                    c => out.push(c),
                }
            } else {
                out.push(self.s[self.i]);
            }
            self.i += 1;
        }
        self.i += 1;
        String::from_utf8(out).unwrap()
    }
}

/// A point in the data's notation (`H8`, case-insensitive).
pub fn pos(s: &str) -> Pos {
    Pos::from_notation(s).unwrap_or_else(|| panic!("bad point '{s}'"))
}

/// A set-up position from black and white stone lists (any counts).
pub fn position(size: i64, black: &[Json], white: &[Json]) -> Board {
    let mut b = Board::new(size, size).unwrap();
    let black: Vec<Pos> = black.iter().map(|j| pos(j.str())).collect();
    let white: Vec<Pos> = white.iter().map(|j| pos(j.str())).collect();
    b.set_position(&black, &white, &[]).unwrap();
    b
}

/// A game position from a move string in pos notation (`h8i9j10`), black first.
pub fn game(size: i64, moves: &str) -> Board {
    Board::from_moves(size, size, moves).unwrap_or_else(|e| panic!("{moves}: {e}"))
}
#[cfg(feature = "board")]
pub mod board;
