//! `pbrain-quincunx`: the Gomocup brain. With no arguments it speaks the protocol on stdin/stdout.

use std::sync::Arc;

use anyhow::{Context, Result, bail};
use quincunx::engine::{Engine, Player};
use quincunx::weights::{Style, Table, WeightMatrix};

const USAGE: &str = "\
usage: pbrain-quincunx [--player weights] [--table tuple|proportional] [--style balanced|defensive]

With no arguments the engine speaks the Gomocup/Piskvork protocol on stdin/stdout.
  --player weights   the classic weight-matrix player (the default for now)
  --table T          its weight table: tuple (5-tuple, default) or proportional
  --style S          balanced (offence + defence, default) or defensive (defence counts double)
Diagnostics go to stderr: set RUST_LOG=debug to see every line in and out.";

fn main() -> Result<()> {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let player = parse_player(&args)?;
    let engine = Engine::new(player);
    quincunx::protocol::run(std::io::stdin(), std::io::stdout().lock(), engine).context("protocol I/O")?;
    Ok(())
}

fn parse_player(args: &[String]) -> Result<Arc<dyn Player>> {
    let mut wm = WeightMatrix::default();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value =
            |name: &str| it.next().cloned().with_context(|| format!("{name} needs a value\n{USAGE}"));
        match a.as_str() {
            "--player" => match value("--player")?.as_str() {
                "weights" => {}
                other => bail!("unknown player '{other}'\n{USAGE}"),
            },
            "--table" => {
                wm.table = match value("--table")?.as_str() {
                    "tuple" => Table::Tuple,
                    "proportional" => Table::Proportional,
                    other => bail!("unknown table '{other}'\n{USAGE}"),
                }
            }
            "--style" => {
                wm.style = match value("--style")?.as_str() {
                    "balanced" => Style::Balanced,
                    "defensive" => Style::Defensive,
                    other => bail!("unknown style '{other}'\n{USAGE}"),
                }
            }
            "-h" | "--help" => {
                println!("{USAGE}");
                std::process::exit(0);
            }
            other => bail!("unknown argument '{other}'\n{USAGE}"),
        }
    }
    Ok(Arc::new(wm))
}
