//! The board in the browser (`pbrain-quincunx serve`): a local web server whose embedded page plays and
//! studies games with the engine, or with any Gomocup brain, and shows games between brains: two
//! set against each other on the page, or a running match's. [`game`] owns the game and its checks,
//! [`seat`] the engine behind the board, [`chart`] a game's chart, [`duel`] two brains' game on the
//! page, [`follow`] the match followed from its live file, [`session`] who plays, the mode and the
//! one thought under way, [`server`] the HTTP requests and the event stream. Behind the `board`
//! feature: the brain itself never needs any of it.

pub mod chart;
pub mod duel;
pub mod follow;
pub mod game;
pub mod seat;
pub mod server;
pub mod session;

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{Context, Result};
use tokio::sync::broadcast;

use crate::web::duel::Roster;
use crate::web::follow::Follow;
use crate::web::game::Game;
use crate::web::seat::{Engine, Other, Own};
use crate::web::server::{App, router};
use crate::web::session::Session;

/// What `serve` was asked.
#[derive(Clone, Debug)]
pub struct ServeOptions {
    pub host: IpAddr,
    /// 0: any free port.
    pub port: u16,
    /// The brains given (`--engine`): the first is the board's engine instead of our search, and
    /// any two of them may play each other, by `roster`'s clock.
    pub roster: Roster,
    pub threads: usize,
    /// The board's first game (`--rule`, `--size`): none, freestyle's.
    pub game: Option<Game>,
    /// A running match's live file to follow.
    pub follow: Option<PathBuf>,
}

/// States kept for a page that reads the event stream slowly before it is sent the latest instead.
const BACKLOG: usize = 64;

/// Ctrl-C and SIGTERM (as `kill` and service managers ask), listened for from the call on: a handler
/// installed at a `select!`'s first poll can come after a client's whole session, which that poll may serve.
#[cfg(unix)]
fn stop_signals() -> Result<impl std::future::Future<Output = &'static str>> {
    use tokio::signal::unix::{SignalKind, signal};
    let mut interrupt = signal(SignalKind::interrupt()).context("cannot listen for Ctrl-C")?;
    let mut terminate = signal(SignalKind::terminate()).context("cannot listen for SIGTERM")?;
    Ok(async move {
        tokio::select! {
            _ = interrupt.recv() => "Ctrl-C",
            _ = terminate.recv() => "SIGTERM",
        }
    })
}

/// Ctrl-C where there is no SIGTERM.
#[cfg(not(unix))]
fn stop_signals() -> Result<impl std::future::Future<Output = &'static str>> {
    let mut interrupt = tokio::signal::windows::ctrl_c().context("cannot listen for Ctrl-C")?;
    Ok(async move {
        interrupt.recv().await;
        "Ctrl-C"
    })
}

/// Serves the board until Ctrl-C or SIGTERM; `ready` is told the address once it listens.
pub fn serve(opts: &ServeOptions, ready: impl FnOnce(SocketAddr)) -> Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the server's runtime")?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind((opts.host, opts.port))
            .await
            .with_context(|| format!("cannot listen on {}:{}", opts.host, opts.port))?;
        let address = listener.local_addr()?;
        let stop = stop_signals()?;
        ready(address);
        let engine: Arc<dyn Engine> = match opts.roster.engines.first() {
            Some(e) => Arc::new(Other::new(e.command.clone(), opts.threads)),
            None => Arc::new(Own::new(opts.threads)),
        };
        let (events, _) = broadcast::channel(BACKLOG);
        let publish = events.clone();
        let session = Session::start(
            engine,
            opts.roster.clone(),
            opts.game.clone(),
            Box::new(move |json| drop(publish.send(json))),
        );
        let follow = opts.follow.as_deref().map(|path| Follow::start(path, &session));
        let app = App { session: Arc::clone(&session), events, follow };
        tokio::select! {
            served = axum::serve(listener, router(app, address.port())).into_future() => served.context("the server failed")?,
            signal = stop => log::info!("{signal}: the board stops"),
        }
        session.close();
        Ok(())
    })
}
