// Board drawing shared by the game page (app.js) and the rules pages (rules.js): the grid with its
// palace lines, and the pieces with their labels (font: /labels-serif.woff, see style.css). Janggi's are
// octagons with Hanja; Xiangqi's are discs with Chinese characters on a board cut by the river
// (楚河 漢界), Red (cho) and Black (han). A piece's tooltip names it in the page's language (t() of i18n.js).
"use strict";
const SVGNS = "http://www.w3.org/2000/svg";
const CELL = 64, MARGIN = 48;
const RADIUS = { K: 30, R: 25, C: 25, N: 25, B: 25, A: 20, P: 20 };  // sized by rank
const HANJA = { cho: { K: "楚", A: "士", B: "象", N: "馬", R: "車", C: "包", P: "卒" },
                han: { K: "漢", A: "士", B: "象", N: "馬", R: "車", C: "包", P: "兵" } };
const CHINESE = { cho: { K: "帥", A: "仕", B: "相", N: "傌", R: "俥", C: "炮", P: "兵" },
                  han: { K: "將", A: "士", B: "象", N: "馬", R: "車", C: "砲", P: "卒" } };
const XIANGQI_RADIUS = 27;  // every Xiangqi piece the same size, as on a real board

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

// game: "janggi" (default) or "xiangqi", whose files stop at the river between ranks 5 and 6 (0-based 4, 5)
// except the two edges, with 楚河 and 漢界 written in it.
function drawGrid(svg, flip, game) {
  const xy = (f, r) => boardXY(f, r, flip), xq = game === "xiangqi";
  svg.classList.toggle("xiangqi", xq);
  const g = el("g", { class: "grid" }, svg);
  for (let r = 0; r < 10; r++) { const [x1, y] = xy(0, r), [x2] = xy(8, r); el("line", { x1, y1: y, x2, y2: y }, g); }
  for (let f = 0; f < 9; f++) {
    const spans = xq && f > 0 && f < 8 ? [[0, 4], [5, 9]] : [[0, 9]];
    for (const [a, b] of spans) { const [x, y1] = xy(f, a), [, y2] = xy(f, b); el("line", { x1: x, y1, x2: x, y2 }, g); }
  }
  if (xq) {  // the river's words, each read from its own bank
    const [, y4] = xy(0, 4), [, y5] = xy(0, 5), y = (y4 + y5) / 2;
    for (const [text, f] of [["楚 河", flip ? 6 : 2], ["漢 界", flip ? 2 : 6]]) {
      const [x] = xy(f, 0);
      el("text", { x, y, class: "river" }, svg).textContent = text;
    }
  }
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

// The label a piece carries in its game (the server's when it sent one).
function pieceLabel(p, game) { return p.label || (game === "xiangqi" ? CHINESE : HANJA)[p.color][p.type]; }
// Its name in the page's language, for tooltips and the rules page.
function pieceName(type, color, game) {
  if (game === "xiangqi") return t("xq.piece." + type);
  return t("piece." + type + (type === "K" || type === "P" ? "." + color : ""));
}

// p: {file, rank, color: "cho"|"han", type: "K".."P"[, label, sq]}; extra: more classes; game as drawGrid's.
function drawPiece(svg, p, flip, extra, game) {
  const [x, y] = boardXY(p.file, p.rank, flip), xq = game === "xiangqi", r = xq ? XIANGQI_RADIUS : RADIUS[p.type];
  const g = el("g", { class: "piece " + p.color + (extra ? " " + extra : "") }, svg);
  if (xq) el("circle", { cx: x, cy: y, r }, g);
  else el("polygon", { points: octagon(x, y, r) }, g);
  el("text", { x, y: y + 1, "font-size": (r * (xq ? 1.1 : 1.15)).toFixed(0) }, g).textContent = pieceLabel(p, game);
  if (p.sq) el("title", {}, g).textContent = pieceName(p.type, p.color, game) + " " + p.sq;
  return g;
}

// A small diagram: pieces as "Kcho@e2" strings, dots on squares ("e3"), crosses on blocked ones.
function drawDiagram(svg, pieces, dots, crosses, game) {
  drawGrid(svg, false, game);
  const sq = (s) => [s.charCodeAt(0) - 97, parseInt(s.slice(1), 10) - 1];
  for (const spec of pieces) {
    const m = spec.match(/^([KABNRCP])(cho|han)@([a-i]\d+)$/);
    const [file, rank] = sq(m[3]);
    drawPiece(svg, { file, rank, color: m[2], type: m[1] }, false, "", game);
  }
  for (const s of dots || []) { const [x, y] = boardXY(...sq(s), false); el("circle", { cx: x, cy: y, r: 10, class: "target" }, svg); }
  for (const s of crosses || []) {
    const [x, y] = boardXY(...sq(s), false);
    el("path", { d: `M${x - 10},${y - 10}L${x + 10},${y + 10}M${x + 10},${y - 10}L${x - 10},${y + 10}`, class: "blocked" }, svg);
  }
}
