// The rules pages (rules.html: Janggi, xiangqi-rules.html: Xiangqi): draw their diagrams with the game
// page's board code (board.js, the game from data-game); their words come from the catalogues (data-i18n, i18n.js).
"use strict";
I18N.apply();
for (const svg of document.querySelectorAll("svg.diagram")) {
  const list = (k) => (svg.dataset[k] || "").split(",").filter((x) => x);
  drawDiagram(svg, list("pieces"), list("dots"), list("crosses"), svg.dataset.game);
}
// The ranked rule with this server's levels and points.
let info = null;
function showRankedRule() {
  if (!info) return;
  const pts = (info.level_info || []).map((l) => t("rank.level_points", { level: t("levelshort." + l.name), points: l.points }));
  document.getElementById("ranked-rule").textContent = t("rank.rule", { points: pts.join(t("list.sep")), minutes: info.abandon_minutes || 15 }) +
    (info.players ? "" : " " + t("rank.no_players"));
}
I18N.onChange(showRankedRule);
fetch("/api/info").then((r) => r.json()).then((i) => { info = i; showRankedRule(); }).catch(() => {});
