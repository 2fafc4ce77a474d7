//! `pbrain-quincunx serve`: the command line of the board in the browser.

use std::io::Write;
use std::net::IpAddr;
use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use quincunx::tools::tournament::distinct_names;
use quincunx::web::duel::Roster;
use quincunx::web::game::Game;
use quincunx::web::{ServeOptions, serve};

use crate::cli::matches::engine_spec;
use crate::cli::{GAME_FLAGS, GameChoice, num, unknown_option, usage, whole};

const SERVE_USAGE: &str = "\
usage: pbrain-quincunx serve [--port N] [--host ADDR] [--engine CMD [--name NAME]]... [options]

Starts the board in the browser: a local web server whose page plays and studies games with the
engine in every rule (freestyle, exact five, renju, caro, Pente), opens and saves SGF, PSQ and pos
records and charts a game's analysis; it also shows games between brains, two of those given here
set against each other on the page, or a running match's. It prints the address to open; Ctrl-C
stops it. The page and its scripts are in the binary: no network is needed.
  --port N       the port (default 8080; 0: any free port)
  --host ADDR    the address to listen on (default 127.0.0.1, this machine only; another address
                 lets other machines play with your engine, and is warned of)
  --engine CMD   a Gomocup brain (quoted as one word), as `match` takes it; the first drives the
                 board instead of our search (BOARD for each position, its score read from its
                 MESSAGE lines), and any two given can play each other on the page
  --name NAME    a name for the engine given just before (default: its program's file name)
  --turn MS      the page's games between brains: ms a move, 0 = none (default 1000)
  --game MS      ... and ms a game and side, 0 = none (default 0)
  --tolerance MS ... and the grace beyond them before an answer is late (default 500)
  --rule R, --line-length K, --size N|WxH
                 the board's first game, as `match` takes them (default freestyle, 15x15)
  --follow FILE  follow a running match from the file its --live option writes: the page lists
                 its games and shows the one chosen as it is played
  --threads N    search threads, and INFO thread_num for the brains (default 1)";

const FLAGS: &[&str] = &[
    "--port",
    "--host",
    "--engine",
    "--name",
    "--turn",
    "--game",
    "--tolerance",
    "--follow",
    "--threads",
    "--help",
];

/// `pbrain-quincunx serve …`.
pub fn serve_command(args: &[String]) -> Result<()> {
    let Some(opts) = parse_serve(args).map_err(|e| usage("serve", e))? else {
        outln!("{SERVE_USAGE}")?;
        return Ok(());
    };
    if !opts.host.is_loopback() {
        log::warn!("listening on {}: other machines can reach the board and use this engine", opts.host);
        eprintln!("Warning: listening on {}: other machines can reach the board.", opts.host);
    }
    serve(&opts, |addr| {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "Quincunx board: http://{addr}/ (Ctrl-C stops it)");
        let _ = out.flush();
    })
}

fn parse_serve(args: &[String]) -> Result<Option<ServeOptions>> {
    let mut o = ServeOptions {
        host: IpAddr::from([127, 0, 0, 1]),
        port: 8080,
        roster: Roster { engines: vec![], turn_ms: 1000, game_ms: 0, tolerance_ms: 500, threads: 1 },
        threads: 1,
        game: None,
        follow: None,
    };
    let mut choice = GameChoice::default();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || it.next().cloned().with_context(|| format!("{a} needs a value"));
        if choice.take(a, &mut value)? {
            continue;
        }
        let roster = &mut o.roster;
        match a.as_str() {
            "-h" | "--help" => return Ok(None),
            "--port" => o.port = whole(a, &value()?, 0)?,
            "--host" => {
                let v = value()?;
                o.host = v.parse().with_context(|| format!("--host '{v}': not an IP address"))?;
            }
            "--engine" => roster.engines.push(engine_spec(&value()?)?),
            "--name" => {
                let v = value()?;
                roster.engines.last_mut().context("--name must follow an --engine")?.name = v;
            }
            "--turn" => roster.turn_ms = num(a, &value()?)?,
            "--game" => roster.game_ms = num(a, &value()?)?,
            "--tolerance" => roster.tolerance_ms = num(a, &value()?)?,
            "--follow" => o.follow = Some(PathBuf::from(value()?)),
            "--threads" => o.threads = whole(a, &value()?, 1)?,
            f if f.starts_with('-') => return Err(unknown_option("serve", f, &[FLAGS, GAME_FLAGS].concat())),
            f => bail!("serve takes no argument '{f}'"),
        }
    }
    o.roster.threads = o.threads;
    let names = distinct_names(&o.roster.engines.iter().map(|e| e.name.clone()).collect::<Vec<_>>());
    for (engine, name) in o.roster.engines.iter_mut().zip(names) {
        engine.name = name;
    }
    if o.roster.turn_ms == 0 && o.roster.game_ms == 0 {
        bail!("--turn 0 and --game 0: one of them must limit a move");
    }
    if choice.rules_given()?.is_some() || choice.size_given().is_some() {
        let rules = choice.rules()?;
        let (w, h) = choice.board(&rules);
        o.game = Some(Game::new(rules, w, h).map_err(anyhow::Error::msg)?);
    }
    Ok(Some(o))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_option_is_in_the_usage() {
        for flag in FLAGS.iter().chain(GAME_FLAGS).filter(|f| **f != "--help") {
            assert!(SERVE_USAGE.contains(flag), "{flag}");
        }
    }
}
