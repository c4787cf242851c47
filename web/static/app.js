// janggi-zero web page: draws the board in SVG and talks to the JSON API (/api/...).
"use strict";
const SETUP_KOREAN = { inner: "안상 (마상상마)", outer: "바깥상 (상마마상)", left: "왼상 (상마상마)", right: "오른상 (마상마상)" };
const LEVEL_NAMES = { easy: "easy (alpha-beta)", normal: "normal (alpha-beta)", expert: "expert (alpha-beta)", net: "network (MCTS)" };

let info = null, state = null, selected = null, busy = false;
const $ = (id) => document.getElementById(id);

async function api(method, path, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) { opts.body = JSON.stringify(body); opts.headers["Content-Type"] = "application/json"; }
  const res = await fetch(path, opts);
  const data = await res.json().catch(() => ({ error: "bad reply from the server" }));
  if (!res.ok) throw new Error(data.error || res.statusText);
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
    $("thinking").textContent = "error: " + e.message;
    busy = false; updateButtons();
    return;
  }
  busy = false; updateButtons();
  if (state.human === "none") setTimeout(maybeEngine, 400);
}

function showEval(ev) {
  if (!ev) { $("evalfill").style.height = "50%"; $("evaltext").textContent = "0.00"; return; }
  const [w, d] = ev.wdl;
  const score = (w + d / 2) / 1000;  // Cho's expected score
  $("evalfill").style.height = (score * 100).toFixed(1) + "%";
  $("evaltext").textContent = ev.mate ? "M" + ev.mate : (ev.cp >= 0 ? "+" : "") + (ev.cp / 100).toFixed(2);
  const pv = (ev.pv_korean || []).slice(0, 8).join(" ");
  const wdl = ev.wdl.map((x) => (x / 10).toFixed(0)).join("/");
  $("thinking").textContent = `${LEVEL_NAMES[ev.by] || ev.by}: ${ev.network ? ev.nodes + " visits" : "depth " + ev.depth + ", " + ev.nodes + " nodes"}` +
    `, Cho W/D/L ${wdl}%, ${ev.nps} n/s — line: ${pv}`;
}

function setState(s) {
  state = s;
  if (selected && !state.legal[selected]) selected = null;
  draw();
  const st = $("status");
  st.classList.toggle("over", state.result.over);
  if (state.result.over) {
    const w = state.result.winner;
    st.textContent = "Game over: " + (w === "draw" ? "draw" : (w === "cho" ? "Cho (초)" : "Han (한)") + " wins") +
      " by " + state.result.ending + " — " + state.result.text;
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
  $("undo").disabled = busy || !state || (state.ply === 0 && !state.result.over);
  $("engine").disabled = busy || !live;
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

function newGame() {
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
  $("resign").onclick = () => act(() => api("POST", "/api/resign", { id: state.id }));
  $("engine").onclick = async () => {
    if (busy) return;
    busy = true; updateButtons();
    try { const r = await api("POST", "/api/engine", { id: state.id }); setState(r.state); showEval(r.eval); }
    catch (e) { $("thinking").textContent = "error: " + e.message; }
    busy = false; updateButtons();
    maybeEngine();
  };
  $("board").addEventListener("click", (ev) => { const sq = svgPointToSquare(ev); if (sq) clickSquare(sq); });
  // ?autostart[&human=..&level=..&play=b1c3,b10c8&select=h1]: start at once (demos, screenshots).
  const q = new URLSearchParams(location.search);
  if (q.get("autostart") === null) return;
  for (const k of ["human", "level", "rules", "cho-setup", "han-setup"]) if (q.get(k)) $(k).value = q.get(k);
  await newGame();
  for (const m of (q.get("play") || "").split(",").filter((x) => x)) {
    if (m === "engine") { const r = await api("POST", "/api/engine", { id: state.id }); setState(r.state); showEval(r.eval); }
    else await act(() => api("POST", "/api/move", { id: state.id, move: m }));
  }
  if (q.get("select")) { selected = q.get("select"); draw(); }
}

init();
