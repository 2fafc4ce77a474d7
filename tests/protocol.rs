//! Runs every scripted session in `protocol-tests/*.txt` against the built `pbrain-quincunx`, through the
//! same runner as `pbrain-quincunx script`. One test per file, reported the way libtest reports, so
//! `cargo test` counts them.

use std::path::PathBuf;
use std::sync::Mutex;

use quincunx::script::{Script, run};

fn main() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("protocol-tests");
    let filter: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    let all: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("protocol-tests/ exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    let mut files: Vec<PathBuf> = all
        .iter()
        .filter(|p| filter.is_empty() || filter.iter().any(|f| p.to_string_lossy().contains(f.as_str())))
        .cloned()
        .collect();
    files.sort();
    let filtered_out = all.len() - files.len();
    // The scenarios test the protocol, so they run the classic player, whose answers are instant and
    // deterministic; a scenario's own `args --player search` (later on the command line) overrides it.
    let engine = vec![env!("CARGO_BIN_EXE_pbrain-quincunx").to_string(), "--player".into(), "weights".into()];
    println!("\nrunning {} tests", files.len());
    let failures = Mutex::new(vec![]);
    let next = Mutex::new(files.iter());
    // A few sessions at once: each is mostly waiting on pipes.
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| {
                loop {
                    let Some(path) = next.lock().unwrap().next() else { break };
                    let name = path.file_name().unwrap().to_string_lossy().to_string();
                    let text = std::fs::read_to_string(path).expect("readable script");
                    let result = Script::parse(&name, &text).map(|script| run(&script, &engine));
                    match result {
                        Ok(report) if report.passed() => println!("test protocol-tests/{name} ... ok"),
                        Ok(report) => {
                            println!("test protocol-tests/{name} ... FAILED");
                            failures
                                .lock()
                                .unwrap()
                                .push(format!("---- {name} ----\n{}", report.render(true)));
                        }
                        Err(e) => {
                            println!("test protocol-tests/{name} ... FAILED");
                            failures.lock().unwrap().push(format!("---- {name} ----\n  {e}\n"));
                        }
                    }
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    let (failed, passed) = (failures.len(), files.len() - failures.len());
    if failed > 0 {
        println!("\nfailures:\n\n{}", failures.join("\n"));
    }
    let verdict = if failed == 0 { "ok" } else { "FAILED" };
    println!(
        "\ntest result: {verdict}. {passed} passed; {failed} failed; 0 ignored; 0 measured; {filtered_out} filtered out\n"
    );
    if failed > 0 {
        std::process::exit(101);
    }
}
