// The leaderboard page: players by points (/api/leaderboard).
"use strict";
(async () => {
  const tb = document.querySelector("#leaderboard tbody");
  const res = await fetch("/api/leaderboard");
  const data = await res.json();
  if (!res.ok) { document.getElementById("board-note").textContent = data.error; return; }
  for (const p of data.players) {
    const tr = document.createElement("tr");
    const levels = Object.entries(p.levels).map(([l, s]) => `${l} ${s.points} (${s.wins}/${s.losses}/${s.draws})`).join(", ");
    for (const v of [p.rank, p.name, p.points, p.wins, p.losses, p.draws, p.games, levels]) {
      const td = document.createElement("td");
      td.textContent = v;
      tr.appendChild(td);
    }
    tb.appendChild(tr);
  }
  if (!data.players.length) document.getElementById("board-note").textContent += " No players yet.";
})();
