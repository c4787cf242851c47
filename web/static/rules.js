// The rules page: draws its diagrams with the game page's board code (board.js).
"use strict";
for (const svg of document.querySelectorAll("svg.diagram")) {
  const list = (k) => (svg.dataset[k] || "").split(",").filter((x) => x);
  drawDiagram(svg, list("pieces"), list("dots"), list("crosses"));
}
fetch("/api/info").then((r) => r.json()).then((info) => {
  document.getElementById("ranked-rule").textContent = info.ranked_rule +
    (info.players ? "" : " (This server keeps no players: start it with --data-dir.)");
}).catch(() => {});
