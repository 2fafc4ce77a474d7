//! The HTTP side of the board: the embedded page, a JSON request for each thing a person does, the
//! record files, and the server-sent events that carry every new state to the pages.
//!
//! Invariants: a request the game refuses, or one that cannot be read, is answered 4xx with a JSON
//! `{"error": ...}` (or axum's own text for a body that is not the JSON asked for) and changes nothing;
//! no handler panics on what a request holds; each page's event stream counts as a watcher while it is
//! open (see `session`).
//!
//! What it trusts ([`guard`]): a request for the server's own address (a `Host` of an IP address or
//! `localhost`, on its port: a name of someone else's is DNS rebinding), a change coming from its own
//! page (an `Origin`, which browsers send with every POST, equal to that address; a tool that sends
//! none is no browser page), and a body in JSON (no form or `text/plain` body, which other sites may
//! send without asking). Anything else is refused with 403 or 415 before any handler runs.

use std::convert::Infallible;
use std::sync::Arc;

use axum::Router;
use axum::extract::{Query, State};
use axum::http::{StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use serde::Deserialize;
use tokio::sync::broadcast;
use tokio_stream::StreamExt;
use tokio_stream::wrappers::BroadcastStream;

use crate::brain::command::clip;
use crate::game::board::{Color, Pos};
use crate::game::rules::{MAX_LINE, MIN_LINE, Rules, Variant};
use crate::web::follow::Follow;
use crate::web::game::{Format, Game, GameError};
use crate::web::session::{Human, Mode, Session, Source};

const INDEX: &str = include_str!("page/index.html");
const APP_JS: &str = include_str!("page/app.js");
const STYLE: &str = include_str!("page/style.css");

#[derive(Clone)]
pub struct App {
    pub session: Arc<Session>,
    pub events: broadcast::Sender<String>,
    /// The match followed from its live file, if any.
    pub follow: Option<Arc<Follow>>,
}

/// The routes, behind [`guard`] for a server listening on `port`.
pub fn router(app: App, port: u16) -> Router {
    Router::new()
        .route("/", get(|| async { Html(INDEX) }))
        .route(
            "/app.js",
            get(|| async { ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], APP_JS) }),
        )
        .route("/style.css", get(|| async { ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], STYLE) }))
        .route("/api/state", get(state))
        .route("/api/events", get(events))
        .route("/api/new", post(new_game))
        .route("/api/move", post(play))
        .route("/api/undo", post(undo))
        .route("/api/goto", post(goto))
        .route("/api/mode", post(mode))
        .route("/api/setup", post(setup))
        .route("/api/stop", post(stop))
        .route("/api/record", get(save).post(load))
        .route("/api/chart", post(chart))
        .route("/api/duel", post(duel))
        .route("/api/match", get(match_games))
        .route("/api/follow", post(follow))
        .layer(axum::middleware::from_fn_with_state(port, guard))
        .with_state(app)
}

/// Refuses what does not come from the board's own page (see the module's doc).
async fn guard(
    State(port): State<u16>,
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    match trusted(req.headers(), req.method(), port) {
        Ok(()) => next.run(req).await,
        Err((status, why)) => refused(status, why),
    }
}

/// Whether a request may reach the board: its `Host`, its `Origin` and its body's type.
fn trusted(
    h: &header::HeaderMap,
    method: &axum::http::Method,
    port: u16,
) -> Result<(), (StatusCode, String)> {
    let text = |name| h.get(name).map(|v| v.to_str().unwrap_or("?"));
    let host = text(header::HOST).unwrap_or("");
    if !own_address(host, port) {
        return Err((
            StatusCode::FORBIDDEN,
            format!("the board answers at its own address, not '{}'", clip(host)),
        ));
    }
    if method == axum::http::Method::GET || method == axum::http::Method::HEAD {
        return Ok(());
    }
    if let Some(origin) = text(header::ORIGIN)
        && origin != format!("http://{host}")
    {
        return Err((
            StatusCode::FORBIDDEN,
            format!("a change must come from the board's page, not '{}'", clip(origin)),
        ));
    }
    let has_body = text(header::CONTENT_LENGTH).is_some_and(|n| n.trim() != "0")
        || h.contains_key(header::TRANSFER_ENCODING);
    let json = text(header::CONTENT_TYPE).is_some_and(|t| {
        t.split(';').next().is_some_and(|m| m.trim().eq_ignore_ascii_case("application/json"))
    });
    if has_body && !json {
        return Err((
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "a request's body is JSON (Content-Type: application/json)".into(),
        ));
    }
    Ok(())
}

/// Whether `host` (a `Host` header) names this server: an IP address or `localhost`, on `port`.
fn own_address(host: &str, port: u16) -> bool {
    let Some((name, p)) = host.rsplit_once(':') else { return false };
    let name = name.strip_prefix('[').and_then(|n| n.strip_suffix(']')).unwrap_or(name);
    p.parse::<u16>() == Ok(port)
        && (name.eq_ignore_ascii_case("localhost") || name.parse::<std::net::IpAddr>().is_ok())
}

fn json(body: String) -> Response {
    ([(header::CONTENT_TYPE, "application/json")], body).into_response()
}

fn refused(status: StatusCode, why: impl Into<String>) -> Response {
    let body = serde_json::json!({ "error": why.into() }).to_string();
    (status, [(header::CONTENT_TYPE, "application/json")], body).into_response()
}

/// A change's answer: the new state, or 400 with the reason.
fn answer(app: &App, r: Result<(), GameError>) -> Response {
    match r {
        Ok(()) => json(app.session.view()),
        Err(e) => refused(StatusCode::BAD_REQUEST, e.0),
    }
}

async fn state(State(app): State<App>) -> Response {
    json(app.session.view())
}

/// Removes a page from the watchers when its stream ends (the page closed or went away).
struct Watching(Arc<Session>);

impl Drop for Watching {
    fn drop(&mut self) {
        self.0.watcher_left();
    }
}

async fn events(State(app): State<App>) -> Sse<impl tokio_stream::Stream<Item = Result<Event, Infallible>>> {
    // Subscribed before the page counts as a watcher, so the state published then is its first event.
    let stream = BroadcastStream::new(app.events.subscribe());
    app.session.watcher_came();
    let watching = Watching(Arc::clone(&app.session));
    let stream = stream.map(move |m| {
        // A page too slow for the stream is sent the state as it is now.
        let json = m.unwrap_or_else(|_| watching.0.view());
        Ok(Event::default().event("state").data(json))
    });
    Sse::new(stream).keep_alive(KeepAlive::default())
}

/// A new game.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewGame {
    rule: String,
    size: Option<usize>,
    width: Option<usize>,
    height: Option<usize>,
    line: Option<u8>,
    human: Option<Human>,
    time_ms: Option<u64>,
}

/// The longest time a move may be given, ms (an hour).
const MAX_TIME_MS: u64 = 3_600_000;

/// An engine's time a move as asked, checked.
fn move_time(t: u64) -> Result<u64, GameError> {
    if !(1..=MAX_TIME_MS).contains(&t) {
        return Err(GameError(format!("a move's time is 1 to {MAX_TIME_MS} ms, not {t}")));
    }
    Ok(t)
}

/// An empty board of `rule` (with `line` in a row, for freestyle and exact five), `size` a side or
/// `width` x `height` (the rule's default side when not given).
fn fresh_game(
    rule: &str,
    size: Option<usize>,
    width: Option<usize>,
    height: Option<usize>,
    line: Option<u8>,
) -> Result<Game, GameError> {
    let Some(mut rules) = Rules::named(rule) else {
        return Err(GameError(format!("no rule named '{}'", clip(rule))));
    };
    if let Some(k) = line {
        if !matches!(rules.variant, Variant::Freestyle | Variant::Exact) {
            return Err(GameError("only freestyle and exact five take another line length".into()));
        }
        if !(MIN_LINE..=MAX_LINE).contains(&k) {
            return Err(GameError(format!("a line is {MIN_LINE} to {MAX_LINE} stones, not {k}")));
        }
        rules.line = k;
    }
    let side = size.unwrap_or_else(|| rules.default_side());
    Game::new(rules, width.unwrap_or(side), height.unwrap_or(side))
}

async fn new_game(State(app): State<App>, axum::Json(req): axum::Json<NewGame>) -> Response {
    let r = app.session.change(|s| {
        let game = fresh_game(&req.rule, req.size, req.width, req.height, req.line)?;
        let time_ms = move_time(req.time_ms.unwrap_or(s.time_ms))?;
        s.replace_game(game);
        s.human = req.human.unwrap_or(s.human);
        s.time_ms = time_ms;
        s.mode = Mode::Play;
        Ok(())
    });
    answer(&app, r)
}

/// A point: `{"x": 7, "y": 7}` or `{"point": "h8"}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Point {
    x: Option<i64>,
    y: Option<i64>,
    point: Option<String>,
    /// Set-up only: the stone to set, `black`, `white` or none to empty the point.
    stone: Option<String>,
}

impl Point {
    fn xy(&self) -> Result<(i64, i64), GameError> {
        match (self.x, self.y, &self.point) {
            (Some(x), Some(y), None) => Ok((x, y)),
            (None, None, Some(name)) => Pos::from_notation(name)
                .map(|p| (p.x as i64, p.y as i64))
                .ok_or_else(|| GameError(format!("'{}' is not a point (h8, a1, ...)", clip(name)))),
            _ => Err(GameError("give a point as x and y, or as point".into())),
        }
    }
}

async fn play(State(app): State<App>, axum::Json(req): axum::Json<Point>) -> Response {
    let r = app.session.change(|s| {
        let (x, y) = req.xy()?;
        s.by_hand()?;
        if s.mode == Mode::Setup {
            return Err(GameError("setting up: leave set-up to play".into()));
        }
        let board = s.game.board();
        if s.mode == Mode::Play && !s.human.plays(board.side_to_move()) {
            return Err(GameError("it is the engine's turn".into()));
        }
        s.game.play(x, y).map(|_| ())
    });
    answer(&app, r)
}

async fn undo(State(app): State<App>) -> Response {
    let r = app.session.change(|s| {
        s.by_hand()?;
        // In a game against the engine, back to the person's turn.
        let mut n = 1;
        if s.mode == Mode::Play && s.game.cursor >= 2 {
            let before = s.game.board_at(s.game.cursor - 1);
            if !s.human.plays(before.side_to_move()) {
                n = 2;
            }
        }
        s.game.undo(n.min(s.game.cursor.max(1)))
    });
    answer(&app, r)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Goto {
    ply: usize,
}

async fn goto(State(app): State<App>, axum::Json(req): axum::Json<Goto>) -> Response {
    let r = app.session.change(|s| s.game.goto(req.ply));
    answer(&app, r)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ModeRequest {
    mode: Mode,
    nbest: Option<usize>,
    human: Option<Human>,
    time_ms: Option<u64>,
}

/// The most best moves the analysis lists (as `YXNBEST` gives).
const MAX_NBEST: usize = 10;

async fn mode(State(app): State<App>, axum::Json(req): axum::Json<ModeRequest>) -> Response {
    let r = app.session.change(|s| {
        s.by_hand()?;
        if let Some(n) = req.nbest {
            if !(1..=MAX_NBEST).contains(&n) {
                return Err(GameError(format!("the analysis lists 1 to {MAX_NBEST} moves, not {n}")));
            }
            s.nbest = n;
        }
        if let Some(t) = req.time_ms {
            s.time_ms = move_time(t)?;
        }
        s.human = req.human.unwrap_or(s.human);
        s.mode = req.mode;
        Ok(())
    });
    answer(&app, r)
}

async fn setup(State(app): State<App>, axum::Json(req): axum::Json<Point>) -> Response {
    let r = app.session.change(|s| {
        let (x, y) = req.xy()?;
        let stone = match req.stone.as_deref() {
            Some("black") => Some(Color::Black),
            Some("white") => Some(Color::White),
            None | Some("empty") => None,
            Some(other) => {
                return Err(GameError(format!("a stone is black, white or empty, not '{}'", clip(other))));
            }
        };
        s.set_up(x, y, stone)?;
        s.mode = Mode::Setup;
        Ok(())
    });
    answer(&app, r)
}

async fn stop(State(app): State<App>) -> Response {
    app.session.stop();
    json(app.session.view())
}

#[derive(Deserialize)]
struct SaveQuery {
    format: Option<String>,
}

async fn save(State(app): State<App>, Query(q): Query<SaveQuery>) -> Response {
    let name = q.format.as_deref().unwrap_or("sgf");
    let Some(format) = Format::named(name) else {
        return refused(
            StatusCode::BAD_REQUEST,
            format!("no record format '{}' (sgf, psq, pos)", clip(name)),
        );
    };
    match app.session.record(format) {
        Ok(text) => (
            [
                (header::CONTENT_TYPE, "text/plain; charset=utf-8".to_string()),
                (header::CONTENT_DISPOSITION, format!("attachment; filename=\"game.{name}\"")),
            ],
            text,
        )
            .into_response(),
        Err(e) => refused(StatusCode::BAD_REQUEST, e.0),
    }
}

/// The largest record read, bytes.
const MAX_RECORD: usize = 1 << 20;

/// A record to open: its text, in any format the board reads.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LoadRecord {
    text: String,
}

async fn load(State(app): State<App>, axum::Json(req): axum::Json<LoadRecord>) -> Response {
    let body = req.text;
    if body.len() > MAX_RECORD {
        return refused(StatusCode::PAYLOAD_TOO_LARGE, "a record is at most 1 MiB");
    }
    let r = app.session.change(|s| {
        let game = Game::from_record(&body, s.game.rules)?;
        s.replace_game(game);
        s.mode = Mode::Play;
        s.human = Human::Both;
        Ok(())
    });
    answer(&app, r)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ChartRequest {
    time_ms: Option<u64>,
}

/// A chart's default time a position, ms.
const CHART_TIME_MS: u64 = 200;

async fn chart(State(app): State<App>, axum::Json(req): axum::Json<ChartRequest>) -> Response {
    let t = req.time_ms.unwrap_or(CHART_TIME_MS);
    if !(1..=60_000).contains(&t) {
        return refused(StatusCode::BAD_REQUEST, format!("a position's time is 1 to 60000 ms, not {t}"));
    }
    answer(&app, app.session.chart(t))
}

/// Two of the brains `serve` was given play: `black` and `white` are their numbers (from 0), on a
/// new board of `rule` (as a new game takes it) or, with `from_here`, from the moves on the board up
/// to the cursor; the clock is the one `serve` was given unless `turn_ms` and `game_ms` say.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DuelRequest {
    black: usize,
    white: usize,
    rule: Option<String>,
    size: Option<usize>,
    width: Option<usize>,
    height: Option<usize>,
    line: Option<u8>,
    turn_ms: Option<u64>,
    game_ms: Option<u64>,
    from_here: Option<bool>,
}

async fn duel(State(app): State<App>, axum::Json(req): axum::Json<DuelRequest>) -> Response {
    let board_given = req.size.is_some() || req.width.is_some() || req.height.is_some() || req.line.is_some();
    let game = match (req.from_here.unwrap_or(false), &req.rule) {
        (true, None) if !board_given => Ok(None),
        (true, _) => Err(GameError("a game from the board's position keeps its rule and board".into())),
        (false, Some(rule)) => fresh_game(rule, req.size, req.width, req.height, req.line).map(Some),
        (false, None) => Err(GameError("give the rule of the new board, or from_here".into())),
    };
    let r = game.and_then(|g| app.session.duel(g, [req.black, req.white], req.turn_ms, req.game_ms));
    answer(&app, r)
}

async fn match_games(State(app): State<App>) -> Response {
    match &app.follow {
        Some(f) => json(f.list()),
        None => refused(StatusCode::NOT_FOUND, "no match is followed: start serve with --follow FILE"),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FollowRequest {
    game: usize,
}

/// Shows game `game` of the followed match on the board, kept up to date while it is played.
async fn follow(State(app): State<App>, axum::Json(req): axum::Json<FollowRequest>) -> Response {
    let Some(f) = &app.follow else {
        return refused(StatusCode::BAD_REQUEST, "no match is followed: start serve with --follow FILE");
    };
    let r = f.game(req.game).and_then(|(game, live)| {
        app.session.change(|s| {
            s.watch(game, Source::Match(req.game), live);
            Ok(())
        })
    });
    answer(&app, r)
}
