// janggi-zero web page: draws the board in SVG and talks to the JSON API (/api/...).
// Every word comes from the catalogues through t() (i18n.js); the server's words are mapped to keys.
"use strict";
let info = null, state = null, selected = null, busy = false, hintMove = null;
const $ = (id) => document.getElementById(id);

// Dynamic text: show(id, fn) sets the element's text to fn() and again on every change of language.
const views = new Map();
function show(id, fn) {
  const e = $(id);
  e.removeAttribute("data-i18n");
  views.set(id, fn);
  e.textContent = fn();
}
function named(prefix, value) { return value && I18N.catalogues.en[prefix + value] !== undefined ? t(prefix + value) : value; }
function levelName(l) { return named("level.", l); }
// The game on the board: the state's, or the one chosen for a new game before any.
function game() { return state ? state.game || "janggi" : (($("game") || {}).value || "janggi"); }
function sideName(c) { return t(sideKey(c, game())); }

// The server's error messages, as far as the page knows them, in the page's language.
const SERVER_ERRORS = [
  [/^busy:/, "error.busy"], [/^unknown game/, "error.unknown_game"], [/^the game is over/, "error.game_over"],
  [/^it is the engine's turn/, "error.engine_turn"], [/^nothing to undo/, "error.nothing_to_undo"],
  [/^a name may hold only/, "error.name_chars"], [/^a name has 2 to 20/, "error.name_length"],
  [/^a ranked game needs a player name/, "error.name_needed"], [/^this server keeps no players/, "error.no_players"],
  [/^no network is loaded/, "error.no_network"], [/^xiangqi (has one start|takes no rule)/, "error.xiangqi_options"], [/^bad reply from the server/, "error.bad_reply"],
  [/^a ranked game/, "error.ranked_start"], [/^in a ranked game/, "error.ranked_start"],
  [/^(the engine failed|engine produced)/, "error.engine"],
  [/^sign in to play ranked games/, "error.sign_in_ranked"], [/^sign in as '(.*)' to play under that name/, "error.sign_in_name", "name"],
  [/^this game is (.*)'s: sign in/, "error.not_your_game", "name"], [/^cross-site request refused/, "error.cross_site"],
];
function errorText(e) {
  const msg = String(e && e.message !== undefined ? e.message : e);
  for (const [re, key, param] of SERVER_ERRORS) {
    const m = msg.match(re);
    if (m) return t(key, param ? { [param]: m[1] } : undefined);
  }
  return t("error.other", { message: msg });
}
// Why a game is no longer ranked (the server's note).
const NOTES = { "the engine moved for you": "note.engine_moved", "another level moved": "note.other_level",
                "a hint was shown": "note.hint", "a move was taken back": "note.undo",
                "abandoned: counted as a loss": "note.abandoned" };
function noteText(n) { return NOTES[n] ? t(NOTES[n]) : n; }

async function api(method, path, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) { opts.body = JSON.stringify(body); opts.headers["Content-Type"] = "application/json"; }
  const res = await fetch(path, opts);
  const data = await res.json().catch(() => ({ error: "bad reply from the server" }));  // mapped by errorText
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
  drawGrid(svg, flipped(), game());
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
    drawPiece(svg, p, flipped(), (p.sq === selected ? "selected " : "") + (mine ? "movable " : "") + (inCheck ? "check" : ""), game());
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
    let move = selected + sq;
    const promotions = (state.promotions || {})[move];
    if (promotions) move = await choosePromotion(move, promotions);
    selected = null;
    hintMove = null;
    if (!move) { draw(); return; }
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
    show("thinking", () => errorText(e));
  }
  busy = false; updateButtons();
  maybeEngine();
}

async function maybeEngine() {
  if (!state || state.result.over || humanToMove() || busy) return;
  busy = true; updateButtons();
  show("thinking", () => t("engine.thinking"));
  try {
    const r = await api("POST", "/api/engine", { id: state.id });
    setState(r.state);
    showEval(r.eval);
  } catch (e) {
    busy = false; updateButtons();
    if (e.status === 503) {  // every engine is thinking: ask again shortly
      show("thinking", () => t("engine.busy"));
      setTimeout(maybeEngine, 1000);
      return;
    }
    show("thinking", () => errorText(e));
    return;
  }
  busy = false; updateButtons();
  if (state.human === "none") setTimeout(maybeEngine, 400);
}

function showEval(ev, prefix) {
  // The bar fills from the bottom with the expected score of the side at the bottom of the board.
  $("evalbar").classList.toggle("flipped", flipped());
  if (!ev || ev.hidden) {
    $("evalfill").style.height = "50%"; show("evaltext", () => "");
    if (ev && ev.hidden) show("thinking", () => (prefix ? prefix() : "") +
      t("eval.hidden", { level: levelName(ev.by), seconds: (ev.think_ms / 1000).toFixed(1) }));
    return;
  }
  const [w, d] = ev.wdl;
  const cho = (w + d / 2) / 1000;  // Cho's expected score
  const score = flipped() ? 1 - cho : cho;
  $("evalfill").style.height = (score * 100).toFixed(1) + "%";
  const pawns = (flipped() ? -ev.cp : ev.cp) / 100, mate = flipped() ? -ev.mate : ev.mate;
  show("evaltext", () => mate ? (mate > 0 ? t("eval.mate_in", { n: mate }) : t("eval.mated_in", { n: -mate })) :
    Math.abs(pawns) >= 100 ? t(pawns > 0 ? "eval.winning" : "eval.losing") : (pawns >= 0 ? "+" : "") + pawns.toFixed(1));
  const pv = (ev.pv_notation || []).slice(0, 8).join(" ");
  const wdl = ev.wdl.map((x) => (x / 10).toFixed(0)).join("/");
  show("thinking", () => (prefix ? prefix() : "") + t("eval.line", {
    level: levelName(ev.by), side: sideName("cho"),
    search: ev.network ? t("eval.visits", { nodes: ev.nodes }) : t("eval.depth", { depth: ev.depth, nodes: ev.nodes }),
    wdl, nps: ev.nps, line: pv }));
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
  const mine = state.human === "cho" || state.human === "han";
  let text = r.winner === "draw" ? t("end.draw") : mine ? t(r.winner === state.human ? "end.you_won" : "end.you_lost")
                                                       : t("end.wins", { side: sideName(r.winner) });
  const ending = named("ending.", r.ending);
  text = r.count ? t("end.by_count", { outcome: text, ending, cho: r.count.cho, han: r.count.han })
                 : t("end.by", { outcome: text, ending });
  const rk = state.rank || {};
  if (rk.recorded && rk.ranked) text += " " + t("end.points", { points: rk.points });
  return text;
}

function setState(s) {
  if (!state || state.id !== s.id) hintMove = null;
  state = s;
  remember(state.id);
  if ($("game").value !== game()) { $("game").value = game(); showGame(); }  // the next game: this one's
  document.body.classList.toggle("live", !state.result.over);
  if (selected && !state.legal[selected]) selected = null;
  draw();
  const st = $("status");
  st.classList.toggle("over", state.result.over);
  show("status", () => state.result.over ? endText(state.result)
    : t("status.to_move", { side: sideName(state.turn) }) + (state.in_check ? " " + t("status.check") : "") +
      (state.bikjang ? " " + t("status.bikjang") : "") + (humanToMove() ? "" : " " + t("status.engine")));
  showRank();
  show("engine-name", () => { const lv = levelInfo(state.level); return t("engine.playing", { level: lv ? describeLevel(lv) : state.level }); });
  showMoves();
  const dl = $("download");
  dl.href = "/api/record?id=" + state.id;
  dl.classList.remove("disabled");
  updateButtons();
}

// The move list: UCI with Korean notation in Janggi; in Xiangqi the notation first (Chinese or WXF, by
// the page's language: games.js) with UCI after it.
function showMoves() {
  const xq = game() === "xiangqi";
  document.body.classList.toggle("xiangqi", xq);
  $("moves-cho").textContent = t(xq ? "moves.red" : "moves.cho");
  $("moves-han").textContent = t(xq ? "moves.black" : "moves.han");
  const tb = document.querySelector("#moves tbody");
  tb.innerHTML = "";
  for (let i = 0; state && i < state.moves.length; i += 2) {
    const tr = document.createElement("tr");
    for (const [text, m] of [[String(i / 2 + 1)], ["", state.moves[i]], ["", state.moves[i + 1]]]) {
      const td = document.createElement("td");
      td.textContent = m ? (xq ? moveNotation(m, "xiangqi") : m.uci) : text;
      if (m) { const k = document.createElement("span"); k.className = "kor"; k.textContent = xq ? m.uci : m.korean; td.appendChild(k); }
      tr.appendChild(td);
    }
    tb.appendChild(tr);
  }
  tb.scrollTop = tb.scrollHeight;
}

function updateButtons() {
  const live = state && !state.result.over;
  $("pass").disabled = busy || !humanToMove() || !state.pass;
  $("pass").style.display = game() === "xiangqi" ? "none" : "";  // Xiangqi has no pass
  $("undo").disabled = busy || !live || state.ply === 0;
  $("engine").disabled = busy || !live;
  $("engine").removeAttribute("data-i18n");
  $("engine").textContent = humanToMove() || !live ? t("button.hint") : t("button.engine");
  $("resign").disabled = busy || !live || state.human === "none";
  $("new-game").disabled = busy;
  const over = !!(state && state.result.over);
  $("review-link").hidden = !over;
  if (over) $("review-link").href = "/review.html?id=" + encodeURIComponent(state.id);
}

// Ranked games are for signed-in players (account.js); guests play unranked.
function showAccount() {
  const me = window.jzAccount;
  $("ranked").disabled = !me;
  if (!me) $("ranked").checked = false;
  showRuleOptions();
  show("account-status", () => (window.jzAccount ? t("account.playing_as", { name: window.jzAccount.name })
                                                 : t("account.guest")));
}

// What the server offers for a game (its levels, network, default): /api/info's games entry.
function gameInfo(g) { return ((info && info.games) || []).find((x) => x.name === g) || info || {}; }
function chosenGame() { return $("game").value || "janggi"; }
function levelInfo(name, g) { return (gameInfo(g || game()).level_info || []).find((l) => l.name === name); }
function describeLevel(l) {
  return t("level.described", { level: levelName(l.name), seconds: (l.limit_ms / 1000).toFixed(1), points: l.points });
}

function showRank() {
  show("rank-status", () => {
    const r = state.rank || {};
    if (!r.player) return t("rank.unranked_nameless");
    if (r.recorded) {
      const text = r.ranked ? t("rank.recorded_ranked", { player: r.player, result: named("result.", r.result), points: r.points })
                            : t("rank.recorded_unranked", { player: r.player, note: r.note ? noteText(r.note) : t("rank.not_ranked") });
      return text + (r.record_error ? " " + t("rank.db_error", { error: r.record_error }) : "");
    }
    return r.ranked ? t("rank.ranked", { player: r.player, points: (levelInfo(state.level) || {}).points })
                    : r.note ? t("rank.unranked_note", { player: r.player, note: noteText(r.note) })
                             : t("rank.unranked", { player: r.player });
  });
}

function showLevel() {
  const l = levelInfo($("level").value, chosenGame());
  if (!l) return;
  show("level-desc", () => named("level.desc.", l.name) + (l.strength ? " " + t("level.measured", { strength: strengthText(l.strength) }) : ""));
}
// The network's measured strength, the server's "86% vs alphabeta:level=easy (100 games, 1000 ms per move); ...".
function strengthText(line) {
  return line.split("; ").map((part) => {
    const m = part.match(/^(\d+)% vs (\S+) \((\d+) games(?:, (\d+) ms per move|, (\d+) simulations)?\)$/);
    if (!m) return part;
    const lv = m[2].match(/^alphabeta:level=(\w+)$/);
    const p = { score: m[1], level: lv ? named("levelshort.", lv[1]) : m[2], games: m[3] };
    return m[4] ? t("level.score_ms", { ...p, ms: m[4] }) : m[5] ? t("level.score_sims", { ...p, sims: m[5] }) : t("level.score", p);
  }).join(t("list.sep"));
}
function showRules() { show("rules-desc", () => named("ruleset.desc.", $("rules").value)); }

// The new-game form for the chosen game: Janggi's setups, rule sets and options hidden for Xiangqi,
// the sides named Red and Black, the levels of that game, and a word when it has no network here.
function showGame() {
  const g = chosenGame(), xq = g === "xiangqi", gi = gameInfo(g);
  $("setup").classList.toggle("xiangqi", xq);
  for (const o of $("human").options)
    if (o.value === "cho" || o.value === "han") {
      const key = "human." + (xq ? (o.value === "cho" ? "red" : "black") : o.value);
      o.setAttribute("data-i18n", key);
      o.textContent = t(key);
    }
  fillSelect("level", gi.levels || ["easy", "normal", "expert"], "level.", gi.default_level || "expert");
  show("game-note", () => gi.network ? "" : t("game.no_network", { game: t("game." + g) }));
  $("rules-link").href = rulesPage(state ? game() : g);
  $("leaderboard-link").href = "/leaderboard.html?game=" + (state ? game() : g);
  showLevel();
  if (!state) draw();
}

// The ranked rule with the points of this server's levels.
function rankedRule() {
  const pts = (gameInfo(chosenGame()).level_info || []).map((l) => t("rank.level_points", { level: named("levelshort.", l.name), points: l.points }));
  return t("rank.rule", { points: pts.join(t("list.sep")), minutes: (info && info.abandon_minutes) || 15 });
}

// A select of values named by the catalogue (prefix + value); keeps its choice when filled again.
function fillSelect(id, values, prefix, def) {
  const s = $(id), keep = s.value;
  s.textContent = "";
  for (const v of values) {
    const o = document.createElement("option");
    o.value = v; o.textContent = named(prefix, v);
    s.appendChild(o);
  }
  s.value = keep && values.includes(keep) ? keep : def;
}
function fillSelects() {
  fillSelect("cho-setup", info.setups, "setup.", "inner");
  fillSelect("han-setup", info.setups, "setup.", "inner");
  fillSelect("rules", [...(gameInfo("janggi").rules || info.rules), "simplified"], "ruleset.", "janggi");
  fillRuleOptions();
  fillSelect("game", (info.games || [{ name: "janggi" }]).map((g) => g.name), "game.", "janggi");
  showGame();
}

// Soldier promotion (a rule option): the pieces on offer and "no promotion", as buttons in a dialog.
// Resolves to the UCI move chosen, or null when the dialog is closed.
function choosePromotion(plain, moves) {
  return new Promise((resolve) => {
    const dlg = document.createElement("dialog");
    dlg.id = "promotion";
    const title = document.createElement("p");
    title.textContent = t("promotion.choose");
    dlg.appendChild(title);
    const color = state.turn;
    for (const uci of [...moves, plain]) {
      const b = document.createElement("button");
      b.type = "button";
      const type = uci.length > plain.length ? uci.slice(-1).toUpperCase() : null;
      b.textContent = type ? HANJA[color][type] + " " + t("piece." + type) : t("promotion.none");
      b.className = type ? "glyph promote-" + type : "promote-none";
      b.onclick = () => { dlg.close(); dlg.remove(); resolve(uci); };
      dlg.appendChild(b);
    }
    dlg.addEventListener("cancel", () => { dlg.remove(); resolve(null); });
    document.body.appendChild(dlg);
    dlg.showModal();
  });
}

// The rule options chosen for an unranked game (ranked games are played without any), and the
// simplified rules: janggicasual with facing-draw.
function chosenRules() {
  const simple = $("rules").value === "simplified";
  const options = ranked() ? [] : [...document.querySelectorAll("#rule-options input:checked")].map((c) => c.value);
  if (simple && !options.includes("facing-draw")) options.push("facing-draw");
  return { rules: simple ? "janggicasual" : $("rules").value, rule_options: options.join(",") };
}
function ranked() { return !!(info.players && window.jzAccount && $("ranked").checked); }

// Rule options are for unranked games; the elephant-chariot setup is offered while its option is on.
function showRuleOptions() {
  const off = ranked();
  for (const c of document.querySelectorAll("#rule-options input")) { c.disabled = off; if (off) c.checked = false; }
  const ec = !off && !!document.querySelector('#rule-options input[value="elephant-chariot"]:checked');
  for (const id of ["cho-setup", "han-setup"]) {
    const sel = $(id), has = [...sel.options].some((o) => o.value === "elephant-chariot");
    if (ec && !has) {
      const o = document.createElement("option");
      o.value = "elephant-chariot";
      o.textContent = t("setup.elephant-chariot");
      sel.appendChild(o);
    } else if (!ec && has) {
      if (sel.value === "elephant-chariot") sel.value = "inner";
      sel.querySelector('option[value="elephant-chariot"]').remove();
    }
  }
}

function fillRuleOptions() {
  const box = $("rule-options");
  const checked = new Set([...box.querySelectorAll("input:checked")].map((c) => c.value));
  box.textContent = "";
  for (const name of info.rule_options || []) {
    const l = document.createElement("label");
    l.className = "check";
    const c = document.createElement("input");
    c.type = "checkbox";
    c.value = name;
    c.checked = checked.has(name);
    c.onchange = showRuleOptions;
    l.append(c, " " + t("option." + name));
    l.title = t("option." + name + ".desc");
    box.appendChild(l);
  }
  showRuleOptions();
}

function liveRankedOrStarted() { return state && !state.result.over && (state.ply > 0 || (state.rank || {}).ranked); }

function newGame() {
  if (liveRankedOrStarted() && !confirm(t("confirm.leave"))) return;
  hintMove = null;
  showEval(null);
  show("thinking", () => "");
  const body = chosenGame() === "xiangqi" ? { rules: "xiangqi", human: $("human").value, level: $("level").value }
    : { cho_setup: $("cho-setup").value, han_setup: $("han-setup").value, ...chosenRules(), human: $("human").value,
        level: $("level").value };
  if (info.players && window.jzAccount) body.ranked = $("ranked").checked;  // the server knows who plays
  return act(() => api("POST", "/api/new", body));
}

async function init() {
  I18N.apply();
  draw();
  try { info = await api("GET", "/api/info"); } catch (e) { show("status", () => errorText(e)); return; }
  fillSelects();
  show("engine-name", () => t(info.network ? "engine.network" : "engine.alphabeta"));
  $("level").onchange = showLevel;
  $("game").onchange = () => { showGame(); show("ranked-rule", rankedRule); };
  $("rules").onchange = showRules;
  $("ranked").onchange = showRuleOptions;
  showLevel();
  showRules();
  show("ranked-rule", rankedRule);
  $("player-box").hidden = !info.players;
  window.addEventListener("jz-account", showAccount);
  await window.jzAccountReady;
  showAccount();
  I18N.onChange(() => {
    fillSelects();
    for (const [id, fn] of views) $(id).textContent = fn();
    draw();
    showMoves();
    updateButtons();
  });
  $("new-game").onclick = newGame;
  $("pass").onclick = () => act(() => api("POST", "/api/move", { id: state.id, move: state.pass }));
  $("undo").onclick = () => { showEval(null); act(() => api("POST", "/api/undo", { id: state.id })); };
  $("resign").onclick = () => { if (confirm(t("confirm.resign"))) act(() => api("POST", "/api/resign", { id: state.id })); };
  $("engine").onclick = async () => {
    if (busy) return;
    const hint = humanToMove();
    if (hint && (state.rank || {}).ranked && !confirm(t("confirm.hint"))) return;
    busy = true; updateButtons();
    try {
      const r = await api("POST", hint ? "/api/hint" : "/api/engine", { id: state.id });
      hintMove = hint ? r.hint : null;
      setState(r.state);
      showEval(r.eval, hint ? () => t("hint.move", { move: r.notation, uci: r.hint }) + " " : null);
      if (hint && !r.eval) show("thinking", () => t("hint.move", { move: r.notation, uci: r.hint }));
    } catch (e) { show("thinking", () => errorText(e)); }
    busy = false; updateButtons();
    maybeEngine();
  };
  $("show-setup").onclick = () => $("setup").classList.toggle("open");
  $("board").addEventListener("click", (ev) => { const sq = svgPointToSquare(ev); if (sq) clickSquare(sq); });
  // ?autostart[&variant=xiangqi&human=..&level=..&play=b1c3,b10c8&select=h1]: start at once (demos, screenshots).
  const q = new URLSearchParams(location.search);
  if (q.get("autostart") === null) return resume(q.get("game") || storedGame());
  if (q.get("variant")) { $("game").value = q.get("variant"); showGame(); }
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
// A game started while it loads wins: the late answer neither replaces nor forgets it.
async function resume(id) {
  if (!id || !/^[0-9a-f]{1,32}$/.test(id)) return;
  const before = state;
  try {
    const s = await api("GET", "/api/state?id=" + encodeURIComponent(id));
    if (state !== before) return;
    setState(s);
    showEval(s.eval);
    $("setup").classList.remove("open");
    maybeEngine();
  } catch (e) {
    if (state !== before) return;
    forget();
    show("status", () => t("status.gone"));
  }
}

init();
