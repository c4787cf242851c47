// A player's games (/history.html?player=NAME; without one, the signed-in player's), newest first:
// when, level, side, result, points, and a link to each game's review. Data: GET /api/games.
"use strict";
I18N.apply();
(async () => {
  const tb = document.querySelector("#history tbody"), note = document.getElementById("history-note");
  await window.jzAccountReady;
  const player = new URLSearchParams(location.search).get("player") || (window.jzAccount || {}).name || "";
  let games = null, error = null;
  function render() {
    document.getElementById("history-heading").textContent = player ? t("history.heading", { player }) : t("history.title");
    if (!player) { note.textContent = t("history.sign_in"); return; }
    if (error !== null) { note.textContent = t("error.other", { message: error }); return; }
    if (!games) return;
    note.textContent = games.length ? t("history.note", { n: games.length }) : t("history.empty");
    tb.textContent = "";
    for (const g of games) {
      const tr = document.createElement("tr");
      const game = gameOfRules(g.rules), level = t("level." + g.level);  // Xiangqi's games named as such
      const cells = [g.finished_at.replace("T", " ").replace("Z", " UTC"),
                     game === "xiangqi" ? t("ruleset.xiangqi") + " · " + level : level,
                     g.human === "cho" || g.human === "han" ? t(sideKey(g.human, game)) : "-",
                     g.result ? t("result." + g.result) : "-", g.ranked ? "+" + g.points : t("history.unranked")];
      for (const v of cells) {
        const td = document.createElement("td");
        td.textContent = v;
        tr.appendChild(td);
      }
      const td = document.createElement("td");
      const a = document.createElement("a");
      a.href = "/review.html?id=" + encodeURIComponent(g.game_id);
      a.textContent = t("history.open");
      td.appendChild(a);
      tr.appendChild(td);
      tb.appendChild(tr);
    }
  }
  I18N.onChange(render);
  if (player) {
    const res = await fetch("/api/games?order=newest&limit=200&player=" + encodeURIComponent(player));
    const body = await res.json().catch(() => ({}));
    if (!res.ok) error = body.error || res.statusText;
    else games = body.games;
  }
  render();
})();
