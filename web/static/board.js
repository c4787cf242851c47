// Board drawing shared by the game page (app.js) and the rules page (rules.js): the grid with its
// palace lines, and the octagonal pieces with their Hanja labels (font: /labels.woff, see style.css).
// A piece's tooltip names it in the page's language (t() of i18n.js).
"use strict";
const SVGNS = "http://www.w3.org/2000/svg";
const CELL = 64, MARGIN = 48;
const RADIUS = { K: 30, R: 25, C: 25, N: 25, B: 25, A: 20, P: 20 };  // sized by rank
const HANJA = { cho: { K: "楚", A: "士", B: "象", N: "馬", R: "車", C: "包", P: "卒" },
                han: { K: "漢", A: "士", B: "象", N: "馬", R: "車", C: "包", P: "兵" } };

function el(name, attrs, parent) {
  const e = document.createElementNS(SVGNS, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}

// Board coordinates (file 0..8, rank 0..9; rank 0 = Cho's back rank) -> SVG point.
function boardXY(file, rank, flip) {
  if (flip) { file = 8 - file; rank = 9 - rank; }
  return [MARGIN + file * CELL, MARGIN + (9 - rank) * CELL];
}

function drawGrid(svg, flip) {
  const xy = (f, r) => boardXY(f, r, flip);
  const g = el("g", { class: "grid" }, svg);
  for (let r = 0; r < 10; r++) { const [x1, y] = xy(0, r), [x2] = xy(8, r); el("line", { x1, y1: y, x2, y2: y }, g); }
  for (let f = 0; f < 9; f++) { const [x, y1] = xy(f, 0), [, y2] = xy(f, 9); el("line", { x1: x, y1, x2: x, y2 }, g); }
  for (const base of [0, 7]) {  // palace diagonals
    for (const [a, b] of [[[3, base], [5, base + 2]], [[5, base], [3, base + 2]]]) {
      const [x1, y1] = xy(a[0], a[1]), [x2, y2] = xy(b[0], b[1]);
      el("line", { x1, y1, x2, y2, class: "palace" }, g);
    }
  }
  for (let f = 0; f < 9; f++) {
    const [x, y] = xy(f, flip ? 9 : 0);
    el("text", { x, y: y + 30, class: "coord" }, svg).textContent = "abcdefghi"[f];
  }
  for (let r = 0; r < 10; r++) {
    const [x, y] = xy(flip ? 8 : 0, r);
    el("text", { x: x - 30, y, class: "coord" }, svg).textContent = r + 1;
  }
}

function octagon(cx, cy, r) {
  const pts = [];
  for (let i = 0; i < 8; i++) {
    const a = Math.PI / 8 + i * Math.PI / 4;
    pts.push((cx + r * Math.cos(a)).toFixed(1) + "," + (cy + r * Math.sin(a)).toFixed(1));
  }
  return pts.join(" ");
}

// p: {file, rank, color: "cho"|"han", type: "K".."P"[, hanja, hangul, sq]}; extra: more classes.
function drawPiece(svg, p, flip, extra) {
  const [x, y] = boardXY(p.file, p.rank, flip), r = RADIUS[p.type];
  const g = el("g", { class: "piece " + p.color + (extra ? " " + extra : "") }, svg);
  el("polygon", { points: octagon(x, y, r) }, g);
  el("text", { x, y: y + 1, "font-size": (r * 1.15).toFixed(0) }, g).textContent = p.hanja || HANJA[p.color][p.type];
  if (p.sq) el("title", {}, g).textContent = t("piece." + p.type + (p.type === "K" || p.type === "P" ? "." + p.color : "")) + " " + p.sq;
  return g;
}

// A small diagram: pieces as "Kcho@e2" strings, dots on squares ("e3"), crosses on blocked ones.
function drawDiagram(svg, pieces, dots, crosses) {
  drawGrid(svg, false);
  const sq = (s) => [s.charCodeAt(0) - 97, parseInt(s.slice(1), 10) - 1];
  for (const spec of pieces) {
    const m = spec.match(/^([KABNRCP])(cho|han)@([a-i]\d+)$/);
    const [file, rank] = sq(m[3]);
    drawPiece(svg, { file, rank, color: m[2], type: m[1] }, false);
  }
  for (const s of dots || []) { const [x, y] = boardXY(...sq(s), false); el("circle", { cx: x, cy: y, r: 10, class: "target" }, svg); }
  for (const s of crosses || []) {
    const [x, y] = boardXY(...sq(s), false);
    el("path", { d: `M${x - 10},${y - 10}L${x + 10},${y + 10}M${x + 10},${y - 10}L${x - 10},${y + 10}`, class: "blocked" }, svg);
  }
}
