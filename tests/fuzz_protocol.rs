//! Seeded fuzzing of the protocol loop, in process and on a bounded budget (so it runs in CI).
//!
//! 1. Differential: a random session (valid and invalid commands alike) is run twice, once with one
//!    certainly-bad line injected between two commands. The output must be the first output plus exactly
//!    one `ERROR`/`UNKNOWN` line: the bad line got one answer and changed nothing.
//! 2. Garbage: random bytes, invalid UTF-8, huge numbers, lines of a megabyte, blocks left open: no
//!    panic, no hang, every output line of an allowed form.
//!
//! The classic player answers instantly and deterministically, which the comparison needs; the search
//! shares the protocol and engine code exercised here.

use std::io::Cursor;
use std::sync::Arc;
use std::sync::mpsc;
use std::time::Duration;

use quincunx::brain::engine::Engine;
use quincunx::eval::weights::WeightMatrix;

/// xorshift64*: a small seeded generator, so a failure names its seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len() as u64) as usize]
    }
}

/// Runs the protocol on `input` with a watchdog; the output, or a panic message.
fn run_session(input: Vec<u8>) -> String {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut out = Vec::new();
        let engine = Engine::new(Arc::new(WeightMatrix::default()));
        let r = quincunx::brain::protocol::run(Cursor::new(input), &mut out, engine);
        let _ = tx.send((r.is_ok(), out));
    });
    match rx.recv_timeout(Duration::from_secs(20)) {
        Ok((true, out)) => String::from_utf8(out).expect("the engine writes UTF-8"),
        Ok((false, _)) => panic!("protocol I/O error"),
        Err(_) => panic!("the protocol loop hung or panicked"),
    }
}

const INFO_KEYS: &[&str] = &[
    "timeout_turn",
    "timeout_match",
    "time_left",
    "max_memory",
    "rule",
    "thread_num",
    "max_depth",
    "max_node",
    "hash_size",
    "show_detail",
    "line_length",
    "game_type",
    "foo",
];

const INFO_VALUES: &[&str] = &[
    "0",
    "1",
    "-1",
    "4",
    "8",
    "-5",
    "+300",
    "+0",
    "127",
    "255",
    "2147483647",
    "-2147483648",
    "4294967295",
    "9223372036854775807",
    "-9223372036854775808",
    "18446744073709551615",
    "99999999999999999999999",
    "abc",
    "",
];

/// One command (or a whole block) of a random session, valid or not.
fn random_unit(rng: &mut Rng) -> String {
    let n = |rng: &mut Rng| rng.below(22) as i64 - 2;
    match rng.below(19) {
        0 => format!("START {}", rng.pick(&["15", "20", "7", "5", "32", "4", "40", "x"])),
        1 => format!("TURN {},{}", n(rng), n(rng)),
        2 => "BEGIN".into(),
        3 => {
            let k = rng.below(6);
            let mut s = String::from("BOARD\n");
            for i in 0..k {
                s += &format!("{},{},{}\n", n(rng), n(rng), 1 + (i + rng.below(2)) % 2);
            }
            s + "DONE"
        }
        // Every number a manager may send, the ends of every integer type and signed values among them:
        // clamped or saturated, never an overflow.
        4 => format!("INFO {} {}", rng.pick(INFO_KEYS), rng.pick(INFO_VALUES)),
        5 => format!("TAKEBACK {},{}", n(rng), n(rng)),
        6 => format!("PLAY {},{}", n(rng), n(rng)),
        7 => "RESTART".into(),
        8 => format!("RECTSTART {},{}", n(rng) + 3, n(rng) + 3),
        9 => "YXSHOWFORBID".into(),
        10 => "ABOUT".into(),
        11 => {
            let k = rng.pick(&["0", "3", "5", "2"]).parse::<u64>().unwrap_or(0);
            let mut s = String::from("SWAP2BOARD\n");
            for _ in 0..k {
                s += &format!("{},{}\n", 5 + rng.below(5), 5 + rng.below(5));
            }
            s + "DONE"
        }
        12 => {
            let mut s = String::from("YXBOARD\n");
            for i in 0..rng.below(4) {
                s += &format!("{},{},{}\n", n(rng), n(rng), 1 + i % 2);
            }
            s + "DONE"
        }
        13 => "YXSTOP".into(),
        14 => "DONE".into(),
        // Pente: our extension keys, good values and bad.
        15 => format!("INFO variant {}", rng.pick(&["pente", "keryo", "gomoku", "gpente", "chess"])),
        16 => format!("INFO captures {}", rng.pick(&["0,0", "2,4", "6,2", "3,0", "2", "x,y", "12,0"])),
        17 => format!("YXBALANCEONE {}", rng.pick(INFO_VALUES)),
        _ => format!("TURN {},{}", 6 + rng.below(4), 6 + rng.below(4)),
    }
}

/// A line every state answers with exactly one ERROR or UNKNOWN and nothing else.
fn bad_line(rng: &mut Rng) -> Vec<u8> {
    let text: &str = match rng.below(12) {
        0 => "TURN 99,99",
        1 => "TURN 7",
        2 => "START 4",
        3 => "PLAY 99999999999999999999,1",
        4 => "RECTSTART 3,3",
        5 => "hello world",
        6 => "TAKEBACK a,b",
        7 => "TURN 1,2,3",
        // Bad in every state, Pente or not: not two counts, not a variant.
        9 => "INFO captures 2,x",
        10 => "INFO variant chess",
        8 => return vec![0xff, 0xfe, b'X', 0x80],
        _ => return vec![b'A'; 70_000],
    };
    text.as_bytes().to_vec()
}

fn is_error(line: &str) -> bool {
    line.starts_with("ERROR ") || line.starts_with("UNKNOWN ")
}

#[test]
fn a_bad_line_gets_one_answer_and_changes_nothing() {
    let mut with_moves = 0;
    let sessions = 500u64;
    for seed in 1..=sessions {
        let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
        let mut units: Vec<String> = (0..rng.below(30) + 3).map(|_| random_unit(&mut rng)).collect();
        // Most sessions play a game: a valid START first.
        if rng.below(8) != 0 {
            units.insert(0, format!("START {}", rng.pick(&["15", "20", "9"])));
        }
        let at = rng.below(units.len() as u64 + 1) as usize;
        let bad = bad_line(&mut rng);
        let mut base = Vec::new();
        let mut injected = Vec::new();
        for (i, u) in units.iter().enumerate() {
            if i == at {
                injected.extend(&bad);
                injected.push(b'\n');
            }
            base.extend(u.as_bytes());
            base.push(b'\n');
            injected.extend(u.as_bytes());
            injected.push(b'\n');
        }
        if at == units.len() {
            injected.extend(&bad);
            injected.push(b'\n');
        }
        let a: Vec<String> = run_session(base).lines().map(String::from).collect();
        let b: Vec<String> = run_session(injected).lines().map(String::from).collect();
        if a.iter().any(|l| quincunx::tools::client::process::parse_move(l).is_some()) {
            with_moves += 1;
        }
        assert_eq!(b.len(), a.len() + 1, "seed {seed}: one more line expected\nbase: {a:?}\ninjected: {b:?}");
        let explained = (0..b.len()).any(|k| is_error(&b[k]) && b[..k] == a[..k] && b[k + 1..] == a[k..]);
        assert!(
            explained,
            "seed {seed}: the outputs differ by more than one ERROR/UNKNOWN\nunits: {units:?}\nbase: {a:?}\ninjected: {b:?}"
        );
    }
    // Coverage: most sessions must reach a game and get moves, or the test proves little.
    println!("{with_moves}/{sessions} sessions answered moves");
    assert!(with_moves * 2 > sessions, "only {with_moves}/{sessions} sessions answered a move");
}

#[test]
fn garbage_never_panics_or_hangs() {
    let allowed = |l: &str| {
        l == "OK"
            || l == "SWAP"
            || is_error(l)
            || l.starts_with("MESSAGE ")
            || l.starts_with("FORBID ")
            || l.starts_with("name=\"")
            || l.split(' ').all(|m| {
                let mut p = m.split(',');
                matches!((p.next(), p.next(), p.next()), (Some(x), Some(y), None)
                    if !x.is_empty() && !y.is_empty() && x.bytes().chain(y.bytes()).all(|c| c.is_ascii_digit()))
            })
    };
    for seed in 1..=120u64 {
        let mut rng = Rng(seed.wrapping_mul(0xD1B5_4A32_D192_ED03) | 1);
        let mut input = Vec::new();
        for _ in 0..rng.below(40) + 1 {
            match rng.below(6) {
                0 => input.extend((0..rng.below(40)).map(|_| rng.next() as u8)),
                1 => input.extend(vec![b'7'; rng.below(1_200_000) as usize]),
                2 => input.extend(format!("TURN {},{}", rng.next() as i64, rng.next() as i64).as_bytes()),
                3 => input.extend(b"BOARD\n1,1,1\n1,1,1\n2,2,9\n"),
                _ => input.extend(random_unit(&mut rng).as_bytes()),
            }
            input.push(if rng.below(3) == 0 { b'\r' } else { b'\n' });
        }
        let out = run_session(input);
        for line in out.lines() {
            assert!(allowed(line), "seed {seed}: unexpected output line {line:?}");
            assert!(!line.chars().any(|c| c.is_control()), "seed {seed}: control character in {line:?}");
        }
    }
}
