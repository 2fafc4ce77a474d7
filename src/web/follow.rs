//! A running match followed from its live file (`serve --follow FILE`, written by `match --live
//! FILE`): a thread reads what the match appends ([`crate::tools::matches::live::Reader`]), the page lists the
//! games, and the one chosen is brought onto the board and kept up to date while it is played.
//!
//! Invariants: the file is only read, never written, and what it holds cannot panic the server (the
//! reader skips and reports what it cannot take); a file that shrinks was started afresh by another
//! match and is read again from its start; the board's game is only ever a prefix of the game in the
//! file: a game that stops matching it is no longer followed.

use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::Duration;

use serde::Serialize;

use crate::game::board::Color;
use crate::tools::matches::live::{LiveGame, Reader};
use crate::web::game::{Game, GameError};
use crate::web::session::{FollowStatus, Session, Source};

/// How often the file is looked at.
const POLL: Duration = Duration::from_millis(200);
/// The most read at one look, bytes: a long match's file is taken in a few looks.
const CHUNK: u64 = 1 << 20;

/// The followed file and what has been read of it.
pub struct Follow {
    path: PathBuf,
    read: Mutex<Progress>,
}

struct Progress {
    reader: Reader,
    /// Bytes of the file read.
    offset: u64,
    status: FollowStatus,
}

/// One game as the page lists it.
#[derive(Serialize)]
struct Listed<'a> {
    number: usize,
    black: &'a str,
    white: &'a str,
    moves: usize,
    over: bool,
    winner: Option<&'static str>,
    reason: Option<&'a str>,
}

impl Follow {
    /// Follows `path` for `session` on a thread of its own, until the session goes.
    pub fn start(path: &Path, session: &Arc<Session>) -> Arc<Follow> {
        let status = FollowStatus {
            file: path.display().to_string(),
            version: 0,
            games: 0,
            missing: true,
            error: None,
        };
        session.follow_news(status.clone());
        let follow = Arc::new(Follow {
            path: path.to_path_buf(),
            read: Mutex::new(Progress { reader: Reader::default(), offset: 0, status }),
        });
        let (me, weak) = (Arc::clone(&follow), Arc::downgrade(session));
        let _ = std::thread::Builder::new().name("board-follow".into()).spawn(move || me.watch(weak));
        follow
    }

    fn lock(&self) -> MutexGuard<'_, Progress> {
        self.read.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn watch(&self, session: Weak<Session>) {
        loop {
            std::thread::sleep(POLL);
            let Some(session) = session.upgrade() else { return };
            self.look(&session);
        }
    }

    /// Reads what was appended since the last look and tells the session what changed.
    fn look(&self, session: &Session) {
        let mut p = self.lock();
        let before = (p.reader.games().len(), ended(&p.reader), p.reader.error(), p.status.missing);
        let (bytes, missing) = match read_from(&self.path, p.offset) {
            Ok(None) => (vec![], false),
            Ok(Some((bytes, restart))) => {
                if restart {
                    p.reader = Reader::default();
                    p.offset = 0;
                }
                (bytes, false)
            }
            Err(_) => (vec![], true),
        };
        p.offset += bytes.len() as u64;
        let changed = p.reader.feed(&bytes);
        if let Some(n) = session.watched_match().filter(|n| changed.contains(n))
            && let Some(live) = p.reader.game(n).cloned()
        {
            session.update_watched(Source::Match(n), |g| catch_up(g, &live));
        }
        let after = (p.reader.games().len(), ended(&p.reader), p.reader.error(), missing);
        if after != before {
            p.status.version += 1;
            (p.status.games, p.status.error, p.status.missing) = (after.0, after.2, missing);
            session.follow_news(p.status.clone());
        }
    }

    /// The games read so far, as JSON for the page.
    pub fn list(&self) -> String {
        let p = self.lock();
        let games: Vec<Listed> = p
            .reader
            .games()
            .iter()
            .map(|g| Listed {
                number: g.number,
                black: &g.names[0],
                white: &g.names[1],
                moves: g.opening.len() + g.moves.len(),
                over: g.end.is_some(),
                winner: g
                    .end
                    .as_ref()
                    .and_then(|e| e.winner)
                    .map(|c| if c == Color::Black { "black" } else { "white" }),
                reason: g.end.as_ref().map(|e| e.reason.as_str()),
            })
            .collect();
        serde_json::json!({ "status": p.status, "games": games }).to_string()
    }

    /// Game `number` as the board shows it, and whether it is under way.
    pub fn game(&self, number: usize) -> Result<(Game, bool), GameError> {
        let live = self.lock().reader.game(number).cloned();
        let live = live.ok_or_else(|| GameError(format!("the match has no game {number} (yet)")))?;
        let mut game = Game::new(live.rules, live.width, live.height)?;
        game.names = live.names.clone();
        catch_up(&mut game, &live);
        Ok((game, live.end.is_none()))
    }
}

fn ended(r: &Reader) -> usize {
    r.games().iter().filter(|g| g.end.is_some()).count()
}

/// The bytes of `path` from `offset` on (at most [`CHUNK`]), and whether the file shrank, so that
/// they are its start; `None`: nothing new.
fn read_from(path: &Path, offset: u64) -> std::io::Result<Option<(Vec<u8>, bool)>> {
    let mut file = std::fs::File::open(path)?;
    let len = file.metadata()?.len();
    let restart = len < offset;
    let from = if restart { 0 } else { offset };
    if len == from {
        return Ok(None);
    }
    file.seek(SeekFrom::Start(from))?;
    let mut bytes = vec![];
    file.take(CHUNK).read_to_end(&mut bytes)?;
    Ok(Some((bytes, restart)))
}

/// Adds to `g` the moves of `live` it lacks, and its end once it has one; true when the game is over
/// for the board: it ended, or it no longer matches `g`.
fn catch_up(g: &mut Game, live: &LiveGame) -> bool {
    let all: Vec<_> = (live.opening.iter().map(|&p| (p, None)))
        .chain(live.moves.iter().map(|&(p, note)| (p, Some(note))))
        .collect();
    let known = g.moves.len();
    if known > all.len() || all[..known].iter().map(|m| m.0).ne(g.moves.iter().copied()) {
        return true;
    }
    for &(p, note) in &all[known..] {
        if g.append(p, note).is_err() {
            return true;
        }
    }
    match &live.end {
        Some(end) => {
            g.decide(end.winner, &end.reason);
            true
        }
        None => false,
    }
}
