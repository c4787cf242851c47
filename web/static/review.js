// The review of a finished game (/review.html?id=GAME): the board at any position (the move list,
// the arrow keys, Home/End, the graph), flipped or not; the evaluation graph from the server's
// background analysis (polled until done); the mover's mistakes marked in the list and the graph,
// with the played move (red) and the engine's better one (green) as arrows; the count that counting
// would give; and the game to copy as FEN, .gib, PGN or a link. Data: GET /api/review (web/review_api.h).
"use strict";
const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const gameId = params.get("id") || "";
let review = null, at = 0, flip = false, mistakeAt = new Map();

function game() { return (review && review.game) || "janggi"; }
function sideName(side) { return t(sideKey(side, game())); }

// FEN board -> pieces {file, rank, color, type}; upper case is Cho, rank 10 first.
function piecesOf(fen) {
  const out = [];
  fen.split(" ")[0].split("/").forEach((row, i) => {
    let file = 0;
    for (const ch of row.match(/\d+|./g) || []) {
      if (/\d/.test(ch)) { file += parseInt(ch, 10); continue; }
      out.push({ file, rank: 9 - i, color: ch === ch.toUpperCase() ? "cho" : "han", type: ch.toUpperCase() });
      file++;
    }
  });
  return out;
}

function squareXY(sq) {
  const m = sq.match(/^([a-i])(\d+)$/);
  return boardXY(m[1].charCodeAt(0) - 97, parseInt(m[2], 10) - 1, flip);
}
function parts(uci) { const m = (uci || "").match(/^([a-i]\d+)([a-i]\d+)[a-z]?$/); return m && m[1] !== m[2] ? [m[1], m[2]] : null; }

// A move as an arrow; a pass (the general's square twice) as a ring around the general.
function arrow(svg, uci, cls) {
  const pass = (uci || "").match(/^([a-i]\d+)\1$/);
  if (pass) {
    const [x, y] = squareXY(pass[1]);
    el("circle", { cx: x, cy: y, r: 36, class: "arrow pass " + cls }, svg);
    return;
  }
  const p = parts(uci);
  if (!p) return;
  const [x1, y1] = squareXY(p[0]), [x2, y2] = squareXY(p[1]);
  const len = Math.hypot(x2 - x1, y2 - y1), ux = (x2 - x1) / len, uy = (y2 - y1) / len;
  const ex = x2 - ux * 24, ey = y2 - uy * 24;  // the head ends before the target's centre
  el("line", { x1, y1, x2: ex, y2: ey, class: "arrow " + cls }, svg);
  el("polygon", { points: `${x2 - ux * 6},${y2 - uy * 6} ${ex - uy * 14},${ey + ux * 14} ${ex + uy * 14},${ey - ux * 14}`,
                  class: "arrowhead " + cls }, svg);
}

function drawBoard() {
  const svg = $("board");
  svg.textContent = "";
  drawGrid(svg, flip, game());
  const last = at > 0 ? parts(review.moves[at - 1].uci) : null;
  for (const sq of last || []) { const [x, y] = squareXY(sq); el("rect", { x: x - 30, y: y - 30, width: 60, height: 60, rx: 8, class: "lastmove" }, svg); }
  for (const p of piecesOf(review.positions[at].fen)) drawPiece(svg, p, flip, "", game());
  const m = mistakeAt.get(at);  // the next move was a mistake: what was played, and what was better
  if (m) { arrow(svg, m.played, "played"); arrow(svg, m.best, "better"); }
}

function evals() { return (review.analysis && review.analysis.evals) || []; }

function drawGraph() {
  const svg = $("graph"), W = 600, H = 140, n = review.positions.length;
  svg.textContent = "";
  const x = (i) => (n > 1 ? (i / (n - 1)) * W : 0);
  const y = (s) => (flip ? s : 1 - s) * H;  // the side at the bottom of the board is at the bottom
  el("rect", { x: 0, y: 0, width: W, height: H, class: "graph-bg" }, svg);
  el("line", { x1: 0, y1: H / 2, x2: W, y2: H / 2, class: "graph-mid" }, svg);
  const ev = evals();
  if (ev.length) {
    const pts = ev.map((e, i) => `${x(i).toFixed(1)},${y(e.score).toFixed(1)}`);
    el("polygon", { points: `0,${y(0)} ${pts.join(" ")} ${x(ev.length - 1).toFixed(1)},${y(0)}`, class: "graph-cho" }, svg);
    el("polyline", { points: pts.join(" "), class: "graph-line" }, svg);
  }
  for (const [i, m] of mistakeAt) {
    if (i + 1 >= ev.length) continue;
    el("circle", { cx: x(i + 1), cy: y(ev[i + 1].score), r: 5, class: "graph-dot " + m.kind }, svg);
  }
  el("line", { x1: x(at), y1: 0, x2: x(at), y2: H, class: "graph-now" }, svg);
}

const MARK = { inaccuracy: "?!", mistake: "?", blunder: "??" };

function moveList() {
  const xq = game() === "xiangqi";
  $("moves-cho").textContent = t(xq ? "moves.red" : "moves.cho");
  $("moves-han").textContent = t(xq ? "moves.black" : "moves.han");
  const tb = document.querySelector("#moves tbody");
  tb.textContent = "";
  for (let i = 0; i < review.moves.length; i += 2) {
    const tr = document.createElement("tr");
    const num = document.createElement("td");
    num.textContent = String(i / 2 + 1);
    tr.appendChild(num);
    for (const k of [i, i + 1]) {
      const td = document.createElement("td");
      const m = review.moves[k];
      if (m) {
        td.textContent = moveNotation(m, game()) + (mistakeAt.has(k) ? " " + MARK[mistakeAt.get(k).kind] : "");
        td.className = "move" + (k + 1 === at ? " current" : "") + (mistakeAt.has(k) ? " " + mistakeAt.get(k).kind : "");
        td.tabIndex = 0;
        td.onclick = () => go(k + 1);
      }
      tr.appendChild(td);
    }
    tb.appendChild(tr);
  }
  const cur = tb.querySelector(".current");
  if (cur) cur.scrollIntoView({ block: "nearest" });
}

function mistakeList() {
  const ul = $("mistakes");
  ul.textContent = "";
  const a = review.analysis || {};
  if (!a.mistakes || !a.mistakes.length) {
    const li = document.createElement("li");
    li.textContent = a.status === "done" ? t("review.no_mistakes") : t("review.waiting");
    ul.appendChild(li);
    return;
  }
  for (const m of a.mistakes) {
    const li = document.createElement("li");
    const side = m.ply % 2 === 0 ? review.first : (review.first === "cho" ? "han" : "cho");
    li.className = "mistake " + m.kind;
    li.textContent = t("review.mistake_line", { n: Math.floor(m.ply / 2) + 1, side: sideName(side), kind: t("review.kind." + m.kind),
                                                move: moveNotation(review.moves[m.ply], game()), best: m.best, drop: Math.round(m.drop * 100) });
    li.tabIndex = 0;
    li.onclick = () => go(m.ply);
    ul.appendChild(li);
  }
}

function texts() {
  const r = review, p = r.positions[at], ev = evals()[at];
  $("summary").textContent = t("review.summary", { player: r.player || t("review.guest"), level: t("level." + r.level),
                                                  side: r.human === "cho" || r.human === "han" ? sideName(r.human) : "-",
                                                  result: r.result.text, moves: r.moves.length });
  $("position-note").textContent = t("review.position", { n: at, total: r.moves.length }) +
    (ev ? " · " + t("review.eval", { cho: Math.round(ev.score * 100) }) : "");
  // Counting and .gib are Janggi's: a Xiangqi game has neither (its record copies as PGN).
  $("count").textContent = game() === "xiangqi" ? "" : t("review.count", { cho: p.count.cho, han: p.count.han });
  $("copy-gib").style.display = game() === "xiangqi" ? "none" : "";
  const a = r.analysis || {};
  $("analysis-status").textContent = a.error ? a.error
    : a.status === "done" ? t("review.analysed", { nodes: a.nodes, seconds: (a.seconds || 0).toFixed(1) })
    : t("review.analysing", { done: a.done || 0, total: a.total || r.positions.length });
}

function render() {
  mistakeAt = new Map(((review.analysis || {}).mistakes || []).map((m) => [m.ply, m]));
  drawBoard();
  drawGraph();
  moveList();
  mistakeList();
  texts();
}

function go(i) {
  if (!review) return;
  at = Math.max(0, Math.min(review.positions.length - 1, i));
  render();
}

async function copy(text) {
  try { await navigator.clipboard.writeText(text); }
  catch (e) {  // no clipboard API (a plain-HTTP page): a selected text area
    const ta = document.createElement("textarea");
    ta.value = text;
    document.body.appendChild(ta);
    ta.select();
    document.execCommand("copy");
    ta.remove();
  }
  $("copied").textContent = t("review.copied");
}

async function load() {
  const r = await fetch("/api/review?id=" + encodeURIComponent(gameId));
  const j = await r.json().catch(() => ({}));
  if (r.status !== 200) { $("summary").textContent = t("review.unavailable"); return; }
  const first = review === null;
  review = j;
  review.first = (j.positions[0].fen.split(" ")[1] || "w") === "w" ? "cho" : "han";
  if (first) { at = j.positions.length - 1; flip = j.human === "han"; }
  render();
  if (j.analysis && j.analysis.status !== "done" && !j.analysis.error) setTimeout(load, 1000);
}

function init() {
  I18N.apply();
  I18N.onChange(() => { if (review) render(); });
  $("first").onclick = () => go(0);
  $("prev").onclick = () => go(at - 1);
  $("next").onclick = () => go(at + 1);
  $("last").onclick = () => go(Infinity);
  $("flip").onclick = () => { flip = !flip; if (review) render(); };
  $("graph").addEventListener("click", (ev) => {
    if (!review) return;
    const box = $("graph").getBoundingClientRect();
    go(Math.round(((ev.clientX - box.left) / box.width) * (review.positions.length - 1)));
  });
  document.addEventListener("keydown", (ev) => {
    if (ev.target.closest && ev.target.closest("input, select, textarea, dialog")) return;
    const keys = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: Infinity };
    if (ev.key in keys) { ev.preventDefault(); go(keys[ev.key]); }
    if (ev.key === "f") { flip = !flip; if (review) render(); }
  });
  $("copy-fen").onclick = () => review && copy(review.positions[at].fen);
  $("copy-gib").onclick = () => review && copy(review.gib);
  $("copy-pgn").onclick = () => review && copy(review.pgn);
  $("copy-link").onclick = () => copy(location.origin + "/review.html?id=" + encodeURIComponent(gameId));
  load();
}

init();
