//! Runs every scripted session in `protocol-tests/*.txt` against the built `pbrain-quincunx`, through the
//! same runner as `pbrain-quincunx script`, once for each player: `[search]` is the brain as managers run
//! it (no arguments), `[weights]` the classic player (`--player weights`). A scenario states what the
//! protocol requires, so both must pass it. One test per file and player, reported the way libtest
//! reports, so `cargo test` counts them; a scenario about another engine would count as ignored. The
//! brain's stderr shares the pipe of its stdout, as under Piskvork: a stray line there fails the step
//! that reads it.
//!
//! Arguments: any word not starting with `-` is a filter (a test runs when its name contains one), and
//! `--skip WORD` leaves out the tests whose name contains it; other libtest options are accepted and
//! ignored.

use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Instant;

use quincunx::tools::client::process::StderrMode;
use quincunx::tools::script::{Script, run};

/// The players, by the name shown in brackets, with the engine arguments that choose them.
const PLAYERS: [(&str, &[&str]); 2] = [("search", &[]), ("weights", &["--player", "weights"])];

/// Sessions at once. The search thinks on every core for each move, and the timing scenarios check
/// answers against the turn limit, so more sessions than cores would only make those late.
const WORKERS: usize = 2;

/// libtest options that take a value, so that the value is not read as a filter.
const WITH_VALUE: [&str; 6] = ["--test-threads", "--skip", "--format", "--color", "-Z", "--logfile"];

fn main() {
    let started = Instant::now();
    let (filters, skips) = arguments();
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("protocol-tests");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("protocol-tests/ exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    let all: Vec<(String, &PathBuf, &[&str])> = files
        .iter()
        .flat_map(|path| {
            let file = path.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default();
            PLAYERS
                .iter()
                .map(move |(player, args)| (format!("protocol-tests/{file} [{player}]"), path, *args))
        })
        .collect();
    let chosen: Vec<&(String, &PathBuf, &[&str])> = all
        .iter()
        .filter(|(name, ..)| filters.is_empty() || filters.iter().any(|f| name.contains(f.as_str())))
        .filter(|(name, ..)| !skips.iter().any(|s| name.contains(s.as_str())))
        .collect();
    let filtered_out = all.len() - chosen.len();
    let program = env!("CARGO_BIN_EXE_pbrain-quincunx").to_string();
    println!("\nrunning {} tests", chosen.len());
    let failures = Mutex::new(vec![]);
    let ignored = Mutex::new(0);
    let next = Mutex::new(chosen.iter());
    std::thread::scope(|s| {
        for _ in 0..WORKERS {
            s.spawn(|| {
                loop {
                    let Some((name, path, args)) = next.lock().unwrap().next().copied() else { break };
                    let engine: Vec<String> =
                        std::iter::once(program.clone()).chain(args.iter().map(|a| a.to_string())).collect();
                    let text = std::fs::read_to_string(path).expect("readable script");
                    let t = Instant::now();
                    let outcome =
                        Script::parse(name, &text).map(|script| run(&script, &engine, StderrMode::Merge));
                    let secs = t.elapsed().as_secs_f64();
                    match outcome {
                        Ok(report) if report.skip.is_some() => {
                            *ignored.lock().unwrap() += 1;
                            println!("test {name} ... ignored, {}", report.skip.unwrap_or_default());
                        }
                        Ok(report) if report.passed() => println!("test {name} ... ok ({secs:.1}s)"),
                        Ok(report) => {
                            println!("test {name} ... FAILED ({secs:.1}s)");
                            failures
                                .lock()
                                .unwrap()
                                .push(format!("---- {name} ----\n{}", report.render(true)));
                        }
                        Err(e) => {
                            println!("test {name} ... FAILED");
                            failures.lock().unwrap().push(format!("---- {name} ----\n  {e}\n"));
                        }
                    }
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    let ignored = ignored.into_inner().unwrap();
    let failed = failures.len();
    let passed = chosen.len() - failed - ignored;
    if failed > 0 {
        println!("\nfailures:\n\n{}", failures.join("\n"));
    }
    let verdict = if failed == 0 { "ok" } else { "FAILED" };
    println!(
        "\ntest result: {verdict}. {passed} passed; {failed} failed; {ignored} ignored; 0 measured; \
         {filtered_out} filtered out; finished in {:.2}s\n",
        started.elapsed().as_secs_f64()
    );
    if failed > 0 {
        std::process::exit(101);
    }
}

/// The filters and the `--skip` words among the arguments.
fn arguments() -> (Vec<String>, Vec<String>) {
    let (mut filters, mut skips) = (vec![], vec![]);
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--skip" {
            skips.extend(args.next());
        } else if WITH_VALUE.contains(&a.as_str()) {
            args.next();
        } else if !a.starts_with('-') {
            filters.push(a);
        }
    }
    (filters, skips)
}
