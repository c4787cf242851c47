// The leaderboard page: players by points on one game's ladder (/api/leaderboard?game=, ?game= in the
// address chooses it); words from the catalogues (i18n.js).
"use strict";
I18N.apply();
(async () => {
  const tb = document.querySelector("#leaderboard tbody"), note = document.getElementById("board-note");
  const pick = document.getElementById("lb-game");
  let data = null, error = null;
  function fillGames() {
    const keep = pick.value || new URLSearchParams(location.search).get("game") || "janggi";
    pick.textContent = "";
    for (const g of GAMES) {
      const o = document.createElement("option");
      o.value = g; o.textContent = t("game." + g);
      pick.appendChild(o);
    }
    pick.value = GAMES.includes(keep) ? keep : "janggi";
  }
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
  async function load() {
    tb.textContent = "";
    data = null;
    const res = await fetch("/api/leaderboard?game=" + encodeURIComponent(pick.value));
    const body = await res.json().catch(() => ({}));
    if (!res.ok) error = body.error || res.statusText;
    else data = body, error = null;
    render();
  }
  I18N.onChange(() => { fillGames(); render(); });
  fillGames();
  pick.onchange = () => {
    history.replaceState(null, "", "?game=" + pick.value);
    load();
  };
  await load();
})();
