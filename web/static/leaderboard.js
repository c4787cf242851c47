// The leaderboard page: players by points (/api/leaderboard); words from the catalogues (i18n.js).
"use strict";
I18N.apply();
(async () => {
  const tb = document.querySelector("#leaderboard tbody"), note = document.getElementById("board-note");
  let data = null, error = null;
  const levelName = (l) => (I18N.catalogues.en["levelshort." + l] !== undefined ? t("levelshort." + l) : l);
  function render() {
    if (error !== null) {  // the server's message, in the page's words where the page knows it
      note.textContent = /keeps no players/.test(error) ? t("error.no_players") : t("error.other", { message: error });
      return;
    }
    if (!data) return;
    note.textContent = t("lb.note") + (data.players.length ? "" : " " + t("lb.empty"));
    tb.textContent = "";
    for (const p of data.players) {
      const tr = document.createElement("tr");
      const levels = Object.entries(p.levels).map(([l, s]) =>
        t("lb.level_stats", { level: levelName(l), points: s.points, wins: s.wins, losses: s.losses, draws: s.draws })).join(t("list.sep"));
      for (const v of [p.rank, p.name, p.points, p.wins, p.losses, p.draws, p.games, levels]) {
        const td = document.createElement("td");
        if (v === p.name) {  // the player's games, each with its review
          const a = document.createElement("a");
          a.href = "/history.html?player=" + encodeURIComponent(p.name);
          a.textContent = v;
          td.appendChild(a);
        } else {
          td.textContent = v;
        }
        tr.appendChild(td);
      }
      tb.appendChild(tr);
    }
  }
  I18N.onChange(render);
  const res = await fetch("/api/leaderboard");
  const body = await res.json().catch(() => ({}));
  if (!res.ok) error = body.error || res.statusText;
  else data = body;
  render();
})();
