//! `pbrain-quincunx serve`: the command line of the board in the browser.

use std::io::Write;
use std::net::IpAddr;
use std::path::PathBuf;

use anyhow::{Result, bail};
use clap::ArgMatches;
use quincunx::tools::client::referee::distinct_names;
use quincunx::web::duel::Roster;
use quincunx::web::game::Game;
use quincunx::web::{ServeOptions, serve};

use crate::cli::matches::named_engines;
use crate::cli::{EngineCommand, GameArgs, engine_command, num, threads, usage, whole};

/// Plays and studies games with the engine in the browser
#[derive(clap::Args)]
#[command(before_help = "A local web server whose page plays and studies games with the
engine in every rule (freestyle, exact five, renju, caro, Pente), opens and saves SGF, PSQ and pos
records and charts a game's analysis; it also shows games between brains, two of those given here
set against each other on the page, or a running match's. It prints the address to open; Ctrl-C
stops it. The page and its scripts are in the binary: no network is needed.")]
pub struct ServeArgs {
    /// The port (0: any free port)
    #[arg(long, value_name = "N", default_value_t = 8080, value_parser = whole::<u16, 0>)]
    port: u16,
    /// The address to listen on (127.0.0.1: this machine only; another address
    /// lets other machines play with your engine, and is warned of)
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1", verbatim_doc_comment)]
    host: IpAddr,
    /// A Gomocup brain (quoted as one word), as `match` takes it; the first drives the
    /// board instead of our search (BOARD for each position, its score read from its
    /// MESSAGE lines), and any two given can play each other on the page
    #[arg(long, value_name = "CMD", value_parser = engine_command, verbatim_doc_comment)]
    engine: Vec<EngineCommand>,
    /// A name for the engine given just before (default: its program's file name)
    #[arg(long, value_name = "NAME")]
    name: Vec<String>,
    /// The page's games between brains: ms a move, 0 = none (--turn: its old name)
    #[arg(long, value_name = "MS", visible_alias = "turn", default_value_t = 1000, value_parser = num::<u64>)]
    time: u64,
    /// ... and ms a game and side, 0 = none
    #[arg(long = "game", value_name = "MS", default_value_t = 0, value_parser = num::<u64>)]
    game_time: u64,
    /// ... and the grace beyond them before an answer is late, in ms
    #[arg(long, value_name = "MS", default_value_t = 500, value_parser = num::<u64>)]
    tolerance: u64,
    #[command(flatten)]
    game: GameArgs,
    /// Follow a running match from the file its --live option writes: the page lists
    /// its games and shows the one chosen as it is played
    #[arg(long, value_name = "FILE", verbatim_doc_comment)]
    follow: Option<PathBuf>,
    /// Search threads, and INFO thread_num for the brains
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = threads)]
    threads: usize,
}

impl ServeArgs {
    /// `pbrain-quincunx serve …`; `m` tells which `--name` follows which `--engine`.
    pub fn run(self, m: &ArgMatches) -> Result<()> {
        let opts = self.options(m).map_err(|e| usage("serve", e))?;
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

    /// The server the options describe, or what is wrong with them together.
    fn options(self, m: &ArgMatches) -> Result<ServeOptions> {
        let mut engines = named_engines(self.engine, self.name, m)?;
        let names = distinct_names(&engines.iter().map(|e| e.name.clone()).collect::<Vec<_>>());
        for (engine, name) in engines.iter_mut().zip(names) {
            engine.name = name;
        }
        if self.time == 0 && self.game_time == 0 {
            bail!("--time 0 and --game 0: one of them must limit a move");
        }
        let game = if self.game.given() {
            let rules = self.game.rules()?;
            let (w, h) = self.game.board(&rules);
            Some(Game::new(rules, w, h).map_err(anyhow::Error::msg)?)
        } else {
            None
        };
        Ok(ServeOptions {
            host: self.host,
            port: self.port,
            roster: Roster {
                engines,
                turn_ms: self.time,
                game_ms: self.game_time,
                tolerance_ms: self.tolerance,
                threads: self.threads,
            },
            threads: self.threads,
            game,
            follow: self.follow,
        })
    }
}
