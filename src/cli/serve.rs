//! `pbrain-quincunx serve`: the command line of the board in the browser.

use std::io::Write;
use std::net::IpAddr;

use anyhow::Result;
use quincunx::web::{ServeOptions, serve};

use crate::cli::{EngineCommand, engine_command, threads, whole};

/// Plays and studies games with the engine in the browser
#[derive(clap::Args)]
#[command(before_help = "A local web server whose page plays and studies games with the
engine in every rule (freestyle, exact five, renju, caro, Pente), opens and saves SGF, PSQ and pos
records and charts a game's analysis. It prints the address to open; Ctrl-C stops it. The page and
its scripts are in the binary: no network is needed.")]
pub struct ServeArgs {
    /// The port (0: any free port)
    #[arg(long, value_name = "N", default_value_t = 8080, value_parser = whole::<u16, 0>)]
    port: u16,
    /// The address to listen on (127.0.0.1: this machine only; another address
    /// lets other machines play with your engine, and is warned of)
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1", verbatim_doc_comment)]
    host: IpAddr,
    /// Drive another Gomocup brain (quoted as one word) instead of our search, as `match`
    /// does: BOARD for each position, its score read from its MESSAGE lines
    #[arg(long, value_name = "CMD", value_parser = engine_command, verbatim_doc_comment)]
    engine: Option<EngineCommand>,
    /// Search threads
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = threads)]
    threads: usize,
}

impl ServeArgs {
    /// `pbrain-quincunx serve …`.
    pub fn run(self) -> Result<()> {
        let opts = ServeOptions {
            host: self.host,
            port: self.port,
            engine: self.engine.map(|e| e.0),
            threads: self.threads,
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
}
