// janggi-zero web page: draws the board in SVG and talks to the JSON API (/api/...).
"use strict";
const SETUP_KOREAN = { inner: "안상 (마상상마)", outer: "바깥상 (상마마상)", left: "왼상 (상마상마)", right: "오른상 (마상마상)" };
const LEVEL_NAMES = { easy: "easy (alpha-beta)", normal: "normal (alpha-beta)", expert: "expert (alpha-beta)", net: "network (MCTS)" };

let info = null, state = null, selected = null, busy = false, hintMove = null;
const $ = (id) => document.getElementById(id);

async function api(method, path, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) { opts.body = JSON.stringify(body); opts.headers["Content-Type"] = "application/json"; }
  const res = await fetch(path, opts);
  const data = await res.json().catch(() => ({ error: "bad reply from the server" }));
  if (!res.ok) { const e = new Error(data.error || res.statusText); e.status = res.status; throw e; }
  return data;
}

function flipped() { return state && state.human === "han"; }
function xy(file, rank) { return boardXY(file, rank, flipped()); }
function sqName(file, rank) { return "abcdefghi"[file] + (rank + 1); }
function parseSq(s) { return [s.charCodeAt(0) - 97, parseInt(s.slice(1), 10) - 1]; }

function humanToMove() {
  if (!state || state.result.over) return false;
  return state.human === "both" || state.human === state.turn;
}

function draw() {
  const svg = $("board");
  svg.innerHTML = "";
  drawGrid(svg, flipped());
  if (!state) return;
  if (state.last_move) {
    const m = state.last_move.match(/^([a-i]\d+)([a-i]\d+)$/);
    for (const s of m ? [m[1], m[2]] : []) {
      const [f, r] = parseSq(s), [x, y] = xy(f, r);
      el("rect", { x: x - 30, y: y - 30, width: 60, height: 60, rx: 8, class: "lastmove" }, svg);
    }
  }
  if (hintMove) {
    const m = hintMove.match(/^([a-i]\d+)([a-i]\d+)$/);
    for (const s of m ? [m[1], m[2]] : []) {
      const [f, r] = parseSq(s), [x, y] = xy(f, r);
      el("rect", { x: x - 31, y: y - 31, width: 62, height: 62, rx: 10, class: "hint" }, svg);
    }
  }
  const targets = selected ? (state.legal[selected] || []) : [];
  const occupied = new Set(state.pieces.map((p) => p.sq));
  for (const p of state.pieces) {
    const mine = humanToMove() && p.color === state.turn && state.legal[p.sq];
    const inCheck = state.in_check && p.type === "K" && p.color === state.turn;
    drawPiece(svg, p, flipped(), (p.sq === selected ? "selected " : "") + (mine ? "movable " : "") + (inCheck ? "check" : ""));
  }
  for (const t of targets) {
    const [f, r] = parseSq(t), [x, y] = xy(f, r);
    const cap = occupied.has(t);
    el("circle", { cx: x, cy: y, r: cap ? 31 : 9, class: "target" + (cap ? " capture" : "") }, svg);
  }
}

function svgPointToSquare(ev) {
  const svg = $("board"), pt = svg.createSVGPoint();
  pt.x = ev.clientX; pt.y = ev.clientY;
  const p = pt.matrixTransform(svg.getScreenCTM().inverse());
  let f = Math.round((p.x - MARGIN) / CELL), r = 9 - Math.round((p.y - MARGIN) / CELL);
  if (flipped()) { f = 8 - f; r = 9 - r; }
  if (f < 0 || f > 8 || r < 0 || r > 9) return null;
  return sqName(f, r);
}

async function clickSquare(sq) {
  if (!humanToMove() || busy) return;
  if (selected && (state.legal[selected] || []).includes(sq)) {
    const move = selected + sq;
    selected = null;
    hintMove = null;
    await act(() => api("POST", "/api/move", { id: state.id, move }));
    return;
  }
  selected = state.legal[sq] ? (selected === sq ? null : sq) : null;
  draw();
}

async function act(fn) {
  busy = true; updateButtons();
  try {
    const s = await fn();
    setState(s.state || s);
    if (s.eval) showEval(s.eval);
  } catch (e) {
    $("thinking").textContent = "error: " + e.message;
  }
  busy = false; updateButtons();
  maybeEngine();
}

async function maybeEngine() {
  if (!state || state.result.over || humanToMove() || busy) return;
  busy = true; updateButtons();
  $("thinking").textContent = "engine is thinking…";
  try {
    const r = await api("POST", "/api/engine", { id: state.id });
    setState(r.state);
    showEval(r.eval);
  } catch (e) {
    busy = false; updateButtons();
    if (e.status === 503) {  // every engine is thinking: ask again shortly
      $("thinking").textContent = "The server is busy; the engine will answer in a moment…";
      setTimeout(maybeEngine, 1000);
      return;
    }
    $("thinking").textContent = "error: " + e.message;
    return;
  }
  busy = false; updateButtons();
  if (state.human === "none") setTimeout(maybeEngine, 400);
}

function showEval(ev) {
  // The bar fills from the bottom with the expected score of the side at the bottom of the board.
  $("evalbar").classList.toggle("flipped", flipped());
  if (!ev || ev.hidden) {
    $("evalfill").style.height = "50%"; $("evaltext").textContent = "";
    if (ev && ev.hidden) $("thinking").textContent = `${LEVEL_NAMES[ev.by] || ev.by} answered in ${(ev.think_ms / 1000).toFixed(1)} s. ` +
      "The evaluation and the engine's line are hidden during a ranked game.";
    return;
  }
  const [w, d] = ev.wdl;
  const cho = (w + d / 2) / 1000;  // Cho's expected score
  const score = flipped() ? 1 - cho : cho;
  $("evalfill").style.height = (score * 100).toFixed(1) + "%";
  const pawns = (flipped() ? -ev.cp : ev.cp) / 100, mate = flipped() ? -ev.mate : ev.mate;
  $("evaltext").textContent = mate ? (mate > 0 ? "mate in " + mate : "mated in " + -mate) :
    Math.abs(pawns) >= 100 ? (pawns > 0 ? "winning" : "losing") : (pawns >= 0 ? "+" : "") + pawns.toFixed(1);
  const pv = (ev.pv_korean || []).slice(0, 8).join(" ");
  const wdl = ev.wdl.map((x) => (x / 10).toFixed(0)).join("/");
  $("thinking").textContent = `${LEVEL_NAMES[ev.by] || ev.by}: ${ev.network ? ev.nodes + " visits" : "depth " + ev.depth + ", " + ev.nodes + " nodes"}` +
    `, Cho W/D/L ${wdl}%, ${ev.nps} n/s — line: ${pv}`;
}

// The game in the address (?game=ID) and in local storage: a reload, Back or a second tab resumes it.
function remember(id) {
  if (new URLSearchParams(location.search).get("game") !== id) history.replaceState(null, "", "/?game=" + id);
  try { localStorage.setItem("jz-game", id); } catch (e) { /* private mode: the address still holds it */ }
}
function forget() {
  history.replaceState(null, "", "/");
  try { localStorage.removeItem("jz-game"); } catch (e) { /* nothing stored */ }
}

function endText(r) {
  const side = (c) => (c === "cho" ? "Cho (초)" : "Han (한)");
  const mine = state.human === "cho" || state.human === "han";
  let text = r.winner === "draw" ? "Draw" : mine ? (r.winner === state.human ? "You won" : "You lost") : side(r.winner) + " wins";
  text += " by " + r.ending + (r.count ? ` (count: Cho ${r.count.cho}, Han ${r.count.han})` : "") + ".";
  const rk = state.rank || {};
  if (rk.recorded && rk.ranked) text += ` +${rk.points} points.`;
  return text;
}

function setState(s) {
  if (!state || state.id !== s.id) hintMove = null;
  state = s;
  remember(state.id);
  document.body.classList.toggle("live", !state.result.over);
  if (selected && !state.legal[selected]) selected = null;
  draw();
  const st = $("status");
  st.classList.toggle("over", state.result.over);
  if (state.result.over) {
    st.textContent = endText(state.result);
  } else {
    st.textContent = (state.turn === "cho" ? "Cho (초)" : "Han (한)") + " to move" +
      (state.in_check ? " — 장군 (check)!" : "") + (state.bikjang ? " — 빅장 (bikjang)" : "") +
      (humanToMove() ? "" : " (engine)");
  }
  showRank();
  const lv = levelInfo(state.level);
  $("engine-name").textContent = "Playing: " + (lv ? describeLevel(lv) : state.level);
  const tb = document.querySelector("#moves tbody");
  tb.innerHTML = "";
  for (let i = 0; i < state.moves.length; i += 2) {
    const tr = document.createElement("tr");
    const cell = (m) => m ? `${m.uci}<span class="kor">${m.korean}</span>` : "";
    tr.innerHTML = `<td>${i / 2 + 1}</td><td>${cell(state.moves[i])}</td><td>${cell(state.moves[i + 1])}</td>`;
    tb.appendChild(tr);
  }
  tb.scrollTop = tb.scrollHeight;
  const dl = $("download");
  dl.href = "/api/record?id=" + state.id;
  dl.classList.remove("disabled");
  updateButtons();
}

function updateButtons() {
  const live = state && !state.result.over;
  $("pass").disabled = busy || !humanToMove() || !state.pass;
  $("undo").disabled = busy || !live || state.ply === 0;
  $("engine").disabled = busy || !live;
  $("engine").textContent = humanToMove() || !live ? "Hint" : "Engine move";
  $("resign").disabled = busy || !live || state.human === "none";
  $("new-game").disabled = busy;
}

function levelInfo(name) { return ((info && info.level_info) || []).find((l) => l.name === name); }
function describeLevel(l) {
  return `${l.engine} · ${l.name} (at most ${(l.limit_ms / 1000).toFixed(1)} s per move, a ranked win is worth ${l.points} points)`;
}

function showRank() {
  const r = state.rank || {}, el = $("rank-status");
  if (!r.player) { el.textContent = "Unranked game (no player name)."; return; }
  if (r.recorded) {
    el.textContent = r.ranked ? `Ranked game recorded for ${r.player}: ${r.result}, +${r.points} points.`
                              : `Game recorded for ${r.player} (unranked: ${r.note || "not ranked"}).`;
    if (r.record_error) el.textContent += " Database error: " + r.record_error;
    return;
  }
  el.textContent = r.ranked ? `Ranked game for ${r.player}: a win earns ${(levelInfo(state.level) || {}).points} points.`
                            : `Unranked game for ${r.player}` + (r.note ? ": " + r.note : "") + ".";
}

function showLevel() {
  const l = levelInfo($("level").value);
  if (!l) return;
  $("level-desc").textContent = l.description + (l.strength ? ". Measured: " + l.strength : "") + ".";
}

function fillSelect(id, values, names, def) {
  const s = $(id);
  s.innerHTML = "";
  for (const v of values) {
    const o = document.createElement("option");
    o.value = v; o.textContent = names[v] || v;
    if (v === def) o.selected = true;
    s.appendChild(o);
  }
}

function liveRankedOrStarted() { return state && !state.result.over && (state.ply > 0 || (state.rank || {}).ranked); }

function newGame() {
  if (liveRankedOrStarted() && !confirm("Leave the game in progress and start a new one?")) return;
  hintMove = null;
  showEval(null);
  $("thinking").textContent = "";
  const body = { cho_setup: $("cho-setup").value, han_setup: $("han-setup").value, rules: $("rules").value,
                 human: $("human").value, level: $("level").value };
  const name = info.players ? $("player-name").value.trim() : "";
  if (name) { body.player = name; body.ranked = $("ranked").checked; localStorage.setItem("jz-player", name); }
  return act(() => api("POST", "/api/new", body));
}

async function init() {
  draw();
  try { info = await api("GET", "/api/info"); } catch (e) { $("status").textContent = "server error: " + e.message; return; }
  fillSelect("cho-setup", info.setups, SETUP_KOREAN, "inner");
  fillSelect("han-setup", info.setups, SETUP_KOREAN, "inner");
  fillSelect("rules", info.rules, {}, "janggi");
  fillSelect("level", info.levels, LEVEL_NAMES, info.default_level || (info.network ? "net" : "expert"));
  if (info.default_reason) $("level").title = "default: " + info.default_reason;
  $("engine-name").textContent = info.network ? "network " + info.network + " and alpha-beta" : "alpha-beta engine (no network loaded)";
  $("level").onchange = showLevel;
  showLevel();
  $("ranked-rule").textContent = info.ranked_rule || "";
  $("player-box").hidden = !info.players;
  $("player-name").value = localStorage.getItem("jz-player") || "";
  $("new-game").onclick = newGame;
  $("pass").onclick = () => act(() => api("POST", "/api/move", { id: state.id, move: state.pass }));
  $("undo").onclick = () => { showEval(null); act(() => api("POST", "/api/undo", { id: state.id })); };
  $("resign").onclick = () => { if (confirm("Resign this game?")) act(() => api("POST", "/api/resign", { id: state.id })); };
  $("engine").onclick = async () => {
    if (busy) return;
    const hint = humanToMove();
    if (hint && (state.rank || {}).ranked && !confirm("A hint makes this game unranked. Show one?")) return;
    busy = true; updateButtons();
    try {
      const r = await api("POST", hint ? "/api/hint" : "/api/engine", { id: state.id });
      hintMove = hint ? r.hint : null;
      setState(r.state); showEval(r.eval);
      if (hint) $("thinking").textContent = "Hint: " + r.korean + " (" + r.hint + "). " + $("thinking").textContent;
    } catch (e) { $("thinking").textContent = "error: " + e.message; }
    busy = false; updateButtons();
    maybeEngine();
  };
  $("show-setup").onclick = () => $("setup").classList.toggle("open");
  $("board").addEventListener("click", (ev) => { const sq = svgPointToSquare(ev); if (sq) clickSquare(sq); });
  // ?autostart[&human=..&level=..&play=b1c3,b10c8&select=h1]: start at once (demos, screenshots).
  const q = new URLSearchParams(location.search);
  if (q.get("autostart") === null) return resume(q.get("game") || storedGame());
  for (const k of ["human", "level", "rules", "cho-setup", "han-setup"]) if (q.get(k)) $(k).value = q.get(k);
  await newGame();
  for (const m of (q.get("play") || "").split(",").filter((x) => x)) {
    if (m === "engine") { const r = await api("POST", "/api/engine", { id: state.id }); setState(r.state); showEval(r.eval); }
    else await act(() => api("POST", "/api/move", { id: state.id, move: m }));
  }
  if (q.get("select")) { selected = q.get("select"); draw(); }
}

function storedGame() { try { return localStorage.getItem("jz-game"); } catch (e) { return null; } }

// Resumes the game the address or local storage names, while the server still holds it.
async function resume(id) {
  if (!id || !/^[0-9a-f]{1,32}$/.test(id)) return;
  try {
    const s = await api("GET", "/api/state?id=" + encodeURIComponent(id));
    setState(s);
    showEval(s.eval);
    $("setup").classList.remove("open");
    maybeEngine();
  } catch (e) {
    forget();
    $("status").textContent = "That game is no longer on the server; start a new one.";
  }
}

init();
