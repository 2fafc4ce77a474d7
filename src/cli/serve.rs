//! `pbrain-quincunx serve`: the command line of the board in the browser.

use std::io::Write;
use std::net::IpAddr;

use anyhow::{Context, Result, bail};
use quincunx::tools::process::split_command;
use quincunx::web::{ServeOptions, serve};

use crate::cli::{unknown_option, usage, whole};

const SERVE_USAGE: &str = "\
usage: pbrain-quincunx serve [--port N] [--host ADDR] [--engine CMD] [--threads N]

Starts the board in the browser: a local web server whose page plays and studies games with the
engine in every rule (freestyle, exact five, renju, caro, Pente), opens and saves SGF, PSQ and pos
records and charts a game's analysis. It prints the address to open; Ctrl-C stops it. The page and
its scripts are in the binary: no network is needed.
  --port N       the port (default 8080; 0: any free port)
  --host ADDR    the address to listen on (default 127.0.0.1, this machine only; another address
                 lets other machines play with your engine, and is warned of)
  --engine CMD   drive another Gomocup brain (quoted as one word) instead of our search, as `match`
                 does: BOARD for each position, its score read from its MESSAGE lines
  --threads N    search threads (default 1)";

const FLAGS: &[&str] = &["--port", "--host", "--engine", "--threads", "--help"];

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
    let mut o = ServeOptions { host: IpAddr::from([127, 0, 0, 1]), port: 8080, engine: None, threads: 1 };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || it.next().cloned().with_context(|| format!("{a} needs a value"));
        match a.as_str() {
            "-h" | "--help" => return Ok(None),
            "--port" => o.port = whole(a, &value()?, 0)?,
            "--host" => {
                let v = value()?;
                o.host = v.parse().with_context(|| format!("--host '{v}': not an IP address"))?;
            }
            "--engine" => o.engine = Some(split_command(&value()?).map_err(anyhow::Error::msg)?),
            "--threads" => o.threads = whole(a, &value()?, 1)?,
            f if f.starts_with('-') => return Err(unknown_option("serve", f, FLAGS)),
            f => bail!("serve takes no argument '{f}'"),
        }
    }
    Ok(Some(o))
}
