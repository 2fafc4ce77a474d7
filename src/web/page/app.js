// The board page: draws the state the server sends over the event stream, and turns clicks into
// requests. It keeps no game of its own: every change comes back from the server as a new state.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const CELL = 40;
// Room for the coordinates outside the stones of the edge lines.
const MARGIN = 44;
let state = null;
// The followed match's list as last fetched, and the version it was fetched for.
let games = [];
let gamesVersion = -1;
let fetchingGames = false;

const $ = (id) => document.getElementById(id);

function el(name, attrs, parent) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

// How deep a line was searched; a won or lost one (+W7, -W8) is proven whatever depth found it, by the
// threat solver (depth 0) or by the search: every such line says so alike.
function depthText(line) {
  return /W/.test(line.score || "") ? "proven" : `depth ${line.depth}`;
}

// Column names as the engine writes them (Pos::notation): a to z, then aa, ab, ... as spreadsheets count.
function colName(x) {
  const letter = (k) => String.fromCharCode(97 + (k % 26));
  return x < 26 ? letter(x) : letter(Math.floor(x / 26) - 1) + letter(x % 26);
}

// An error shows next to the control that caused it: in the control's box, or under the board for a
// click on the board and the moves under it.
function showError(why, from) {
  document.querySelectorAll(".error").forEach((e) => { e.textContent = ""; });
  if (!why) return;
  const box = from && from.closest ? from.closest("fieldset") : null;
  let place = $("error");
  if (box) {
    place = box.querySelector(".error");
    if (!place) {
      place = document.createElement("div");
      place.className = "error";
      place.setAttribute("role", "alert");
      box.appendChild(place);
    }
  }
  place.textContent = why;
}

async function request(path, body) {
  const from = document.activeElement;
  const opts = { method: "POST" };
  if (body !== undefined) {
    opts.headers = { "Content-Type": "application/json" };
    opts.body = JSON.stringify(body);
  }
  const r = await fetch(path, opts);
  const text = await r.text();
  if (!r.ok) {
    let why = text;
    try { why = JSON.parse(text).error || text; } catch (_) { /* axum's own text */ }
    showError(why, from);
    return null;
  }
  showError("", null);
  const s = JSON.parse(text);
  show(s);
  return s;
}

// Pente shows the first player as white, as its boards do.
function stoneFill(colour) {
  const first = colour === 0;
  const dark = state && state.pente ? !first : first;
  return dark ? "#111" : "#f8f8f8";
}

function drawBoard(s) {
  const svg = $("board");
  svg.innerHTML = "";
  const w = MARGIN * 2 + CELL * (s.width - 1);
  const h = MARGIN * 2 + CELL * (s.height - 1);
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  const px = (x) => MARGIN + x * CELL;
  for (let x = 0; x < s.width; x++) {
    el("line", { x1: px(x), y1: px(0), x2: px(x), y2: px(s.height - 1), stroke: "#5a4020" }, svg);
    const t = el("text", { x: px(x), y: 16, "text-anchor": "middle", "font-size": 13, fill: "#5a4020" }, svg);
    t.textContent = colName(x);
  }
  for (let y = 0; y < s.height; y++) {
    el("line", { x1: px(0), y1: px(y), x2: px(s.width - 1), y2: px(y), stroke: "#5a4020" }, svg);
    const t = el("text", { x: 14, y: px(y) + 4, "text-anchor": "middle", "font-size": 13, fill: "#5a4020" }, svg);
    t.textContent = y + 1;
  }
  // Forbidden points for black (renju): small red crosses.
  for (const p of s.forbidden) {
    const g = el("g", { class: "forbidden", stroke: "#c00", "stroke-width": 3 }, svg);
    el("line", { x1: px(p.x) - 8, y1: px(p.y) - 8, x2: px(p.x) + 8, y2: px(p.y) + 8 }, g);
    el("line", { x1: px(p.x) + 8, y1: px(p.y) - 8, x2: px(p.x) - 8, y2: px(p.y) + 8 }, g);
  }
  // Move numbers by point, for the moves on the board.
  const number = {};
  for (let i = 0; i < s.cursor; i++) number[s.moves[i].x + "," + s.moves[i].y] = i + 1;
  for (const [x, y, c] of s.stones) {
    el("circle", { cx: px(x), cy: px(y), r: CELL * 0.45, fill: stoneFill(c), stroke: "#222", class: "stone" }, svg);
    const n = number[x + "," + y];
    if (n) {
      const t = el("text", { x: px(x), y: px(y) + 4, "text-anchor": "middle", "font-size": 12,
        fill: stoneFill(c) === "#111" ? "#eee" : "#222", "pointer-events": "none" }, svg);
      t.textContent = n;
    }
  }
  if (s.cursor > 0) {
    const last = s.moves[s.cursor - 1];
    el("circle", { cx: px(last.x), cy: px(last.y), r: CELL * 0.5, fill: "none", stroke: "#e33", "stroke-width": 3,
      class: "last" }, svg);
  }
  if (s.ending && s.ending.line.length) {
    const a = s.ending.line[0], b = s.ending.line[s.ending.line.length - 1];
    el("line", { x1: px(a.x), y1: px(a.y), x2: px(b.x), y2: px(b.y), stroke: "#e33", "stroke-width": 6,
      "stroke-linecap": "round", opacity: 0.7, class: "win" }, svg);
  }
  // The best line: numbered ghosts, each number in the colour that reads on its stone; the N best:
  // their values on their own points (over a ghost too), with a light halo that reads on either colour.
  const valued = new Set(s.lines.map((l) => `${l.mv.x},${l.mv.y}`));
  if (s.best && s.mode === "analyse") {
    s.best.pv.slice(0, 8).forEach((p, i) => {
      const colour = (s.to_move === "black" ? 0 : 1) ^ (i % 2);
      el("circle", { cx: px(p.x), cy: px(p.y), r: CELL * 0.4, fill: stoneFill(colour), opacity: 0.55, class: "pv" }, svg);
      if (valued.has(`${p.x},${p.y}`)) return;
      const t = el("text", { x: px(p.x), y: px(p.y) + 4, "text-anchor": "middle", "font-size": 12,
        "font-weight": "bold", fill: colour === 0 ? "#fff" : "#000" }, svg);
      t.textContent = i + 1;
    });
  }
  for (const l of s.lines) {
    const t = el("text", { x: px(l.mv.x), y: px(l.mv.y) + 4, "text-anchor": "middle", "font-size": 11,
      fill: "#036", "font-weight": "bold", stroke: "#fff", "stroke-width": 3, "paint-order": "stroke",
      class: "nbest" }, svg);
    t.textContent = l.score || "";
  }
  // A transparent cover on top: every click lands on the board, not on a stone or a label.
  el("rect", { x: 0, y: 0, width: w, height: h, fill: "transparent", class: "hit" }, svg);
}

function pointAt(evt) {
  const svg = $("board");
  const pt = svg.createSVGPoint();
  pt.x = evt.clientX;
  pt.y = evt.clientY;
  const p = pt.matrixTransform(svg.getScreenCTM().inverse());
  const x = Math.round((p.x - MARGIN) / CELL), y = Math.round((p.y - MARGIN) / CELL);
  if (x < 0 || y < 0 || x >= state.width || y >= state.height) return null;
  return { x, y };
}

function statusText(s) {
  const side = (c) => (s.pente ? (c === "black" ? "first player (white)" : "second player (black)") : c);
  if (s.ending) {
    return s.ending.winner ? `${side(s.ending.winner)} wins: ${s.ending.reason}` : `draw: ${s.ending.reason}`;
  }
  if (s.mode === "setup") return "setting up: click points to place stones";
  let t = `${side(s.to_move)} to move`;
  if (s.watching && s.watching.live) {
    t += s.watching.kind === "duel" ? " - the engines are playing" : ` - match game ${s.watching.game}, under way`;
  }
  if (s.thinking === "move") t += " - the engine is thinking";
  if (s.thinking === "analysis") t += " - analysing";
  if (s.pente) t += ` - captures: first ${s.captures[0]}, second ${s.captures[1]}`;
  return t;
}

// The forms show the game's settings when the game changes under them (a new game, a record).
function syncForms(s, old) {
  if (old && old.rule === s.rule && old.width === s.width && old.human === s.human && old.time_ms === s.time_ms) {
    return;
  }
  $("rule").value = s.rule;
  $("size").value = s.width;
  $("human").value = s.human;
  $("time").value = s.time_ms;
  $("nbest").value = s.nbest;
}

function show(s) {
  if (state && s.version < state.version) return;
  syncForms(s, state);
  state = s;
  drawBoard(s);
  $("engine").textContent = s.engine;
  $("status").textContent = statusText(s) + (s.note ? ` (${s.note})` : "");
  $("ply").textContent = `${s.cursor} / ${s.moves.length}`;
  const best = s.best;
  const black = s.eval ?? 0;
  $("evalfill").style.height = `${50 + black / 20}%`;
  $("info").textContent = best
    ? `${depthText(best)}  eval ${best.score ?? "-"}  ${best.pv.map((p) => p.name).join(" ")}`
    : "";
  const ol = $("lines");
  ol.innerHTML = "";
  for (const l of s.lines) {
    const li = document.createElement("li");
    li.textContent = `${l.mv.name}  ${l.score ?? "-"}  (${depthText(l)})  ${l.pv.map((p) => p.name).join(" ")}`;
    ol.appendChild(li);
  }
  showPlayers(s);
  showRoster(s);
  showFollow(s);
  const chart = $("chart");
  if (s.chart) {
    if (chart.dataset.svg !== s.chart.svg) {
      chart.innerHTML = s.chart.svg;
      chart.dataset.svg = s.chart.svg;
    }
    // The move on the board, marked on the chart.
    const svg = chart.querySelector("svg");
    const old = svg.querySelector(".cursor");
    if (old) old.remove();
    const c = s.chart;
    if (s.cursor >= 1 && s.cursor <= c.moves) {
      const x = c.left + (c.plot_width * (s.cursor - 0.5)) / c.moves;
      el("line", { x1: x, y1: 0, x2: x, y2: svg.viewBox.baseVal.height, stroke: "#e33", "stroke-width": 2,
        opacity: 0.6, class: "cursor" }, svg);
    }
  } else {
    chart.innerHTML = "";
    chart.dataset.svg = "";
  }
}

function seconds(ms) {
  return `${(ms / 1000).toFixed(2)} s`;
}

// Each side's player in a watched game: what its last move at the cursor told.
function showPlayers(s) {
  $("players").hidden = !s.players;
  if (!s.players) return;
  s.players.forEach((p, i) => {
    const row = $(`player${i}`);
    row.querySelector(".name").textContent = p.name;
    const told = p.ms === null ? "" : `eval ${p.eval ?? "-"}  depth ${p.depth ?? "-"}  ${seconds(p.ms)}`;
    row.querySelector(".told").textContent = `${told}  (${seconds(p.used_ms)} in all)`;
    row.classList.toggle("tomove", !s.ending && s.to_move === (i === 0 ? "black" : "white"));
  });
}

// The brains to set against each other, listed once; their clock filled in as serve was given it.
function showRoster(s) {
  const names = s.roster.engines;
  $("duelbar").hidden = names.length === 0;
  $("noengines").hidden = names.length > 0;
  for (const [id, pick] of [["duelblack", 0], ["duelwhite", 1]]) {
    const select = $(id);
    if (select.options.length === names.length) continue;
    select.innerHTML = "";
    names.forEach((name, i) => select.appendChild(new Option(name, i)));
    select.value = Math.min(pick, names.length - 1);
    $("duelturn").value = s.roster.turn_ms;
    $("duelgame").value = s.roster.game_ms;
  }
}

// The followed match's games, fetched again when the server says the list changed.
async function showFollow(s) {
  $("follow").hidden = !s.follow;
  if (!s.follow) return;
  const f = s.follow;
  $("followfile").textContent = f.missing ? `waiting for ${f.file}`
    : `${f.file}: ${f.games} game${f.games === 1 ? "" : "s"}${f.error ? ` (${f.error})` : ""}`;
  if (f.version !== gamesVersion && !fetchingGames) {
    fetchingGames = true;
    try {
      const r = await fetch("/api/match");
      if (r.ok) {
        games = (await r.json()).games;
        gamesVersion = f.version;
      }
    } finally {
      fetchingGames = false;
    }
  }
  const chosen = s.watching && s.watching.kind === "match" ? s.watching.game : null;
  const ol = $("games");
  // Drawn again only when it changed, so that a click is not lost to a redrawn list.
  const drawn = `${gamesVersion} ${chosen}`;
  if (ol.dataset.drawn === drawn) return;
  ol.dataset.drawn = drawn;
  ol.innerHTML = "";
  for (const g of games) {
    const li = document.createElement("li");
    li.value = g.number;
    const result = g.over ? (g.winner ? `${g.winner} wins: ${g.reason}` : `draw: ${g.reason}`) : "under way";
    li.textContent = `${g.black} v ${g.white} - ${result}`;
    li.dataset.game = g.number;
    li.classList.toggle("chosen", g.number === chosen);
    li.onclick = () => request("/api/follow", { game: g.number });
    ol.appendChild(li);
  }
}

function listen() {
  const events = new EventSource("/api/events");
  events.addEventListener("state", (e) => show(JSON.parse(e.data)));
  events.onerror = () => { $("status").textContent = "the server is not answering; retrying"; };
}

$("board").addEventListener("click", (evt) => {
  if (!state) return;
  const p = pointAt(evt);
  if (!p) return;
  if (state.mode === "setup") {
    const stone = document.querySelector("input[name=stone]:checked").value;
    request("/api/setup", { x: p.x, y: p.y, stone });
  } else {
    request("/api/move", p);
  }
});

$("new").onclick = () => request("/api/new", {
  rule: $("rule").value,
  size: Number($("size").value),
  human: $("human").value,
  time_ms: Number($("time").value),
});
$("rule").onchange = () => {
  $("size").value = ["pente", "keryo", "gpente"].includes($("rule").value) ? 19 : 15;
};
$("undo").onclick = () => request("/api/undo", {});
$("first").onclick = () => request("/api/goto", { ply: 0 });
$("prev").onclick = () => state && request("/api/goto", { ply: Math.max(0, state.cursor - 1) });
$("next").onclick = () => state && request("/api/goto", { ply: Math.min(state.moves.length, state.cursor + 1) });
$("last").onclick = () => state && request("/api/goto", { ply: state.moves.length });
$("analyse").onclick = () => request("/api/mode", { mode: "analyse", nbest: Number($("nbest").value) });
$("stop").onclick = () => request("/api/stop");
$("play").onclick = () => request("/api/mode", { mode: "play", human: $("human").value,
  time_ms: Number($("time").value) });
$("setup").onclick = () => request("/api/mode", { mode: "setup" });
$("load").onclick = async () => {
  const f = $("file").files[0];
  const text = f ? await f.text() : $("recordtext").value;
  if (text.trim()) request("/api/record", { text });
};
$("duel").onclick = () => {
  const body = { black: Number($("duelblack").value), white: Number($("duelwhite").value),
    turn_ms: Number($("duelturn").value), game_ms: Number($("duelgame").value) };
  if ($("duelhere").checked) body.from_here = true;
  else Object.assign(body, { rule: $("rule").value, size: Number($("size").value) });
  request("/api/duel", body);
};
$("duelstop").onclick = () => request("/api/stop");
$("chartbtn").onclick = () => request("/api/chart", { time_ms: Number($("charttime").value) });
$("chart").addEventListener("click", (evt) => {
  const svg = $("chart").querySelector("svg");
  if (!svg || !state || !state.chart) return;
  const c = state.chart;
  const box = svg.getBoundingClientRect();
  const x = ((evt.clientX - box.left) / box.width) * c.width;
  const k = Math.floor(((x - c.left) / c.plot_width) * c.moves) + 1;
  if (k >= 1 && k <= c.moves) request("/api/goto", { ply: k });
});
document.addEventListener("keydown", (e) => {
  if (e.target.tagName === "INPUT" || e.target.tagName === "TEXTAREA") return;
  if (e.key === "ArrowLeft") $("prev").click();
  if (e.key === "ArrowRight") $("next").click();
});

fetch("/api/state").then((r) => r.json()).then(show);
listen();
