// What differs between the page's two games, Janggi and Xiangqi: the side names (Cho/Han, Red/Black),
// the move list's notation, the rules page. Shared by the game, review and leaderboard pages.
"use strict";
const GAMES = ["janggi", "xiangqi"];
function gameOfRules(rules) { return rules === "xiangqi" ? "xiangqi" : "janggi"; }
// The catalogue key of a side's name: Cho / Han in Janggi, Red / Black in Xiangqi (Red, like Cho, moves first).
function sideKey(color, game) {
  if (game === "xiangqi") return color === "cho" ? "side.red" : "side.black";
  return color === "cho" ? "side.cho" : "side.han";
}
// A move as lists show it: Janggi's Korean notation; Xiangqi's Chinese (炮二平五) where the page is in
// Chinese, else its WXF letters (C2.5).
function moveNotation(m, game) {
  if (game !== "xiangqi") return m.korean;
  return I18N.lang.startsWith("zh") ? m.chinese : m.wxf;
}
function rulesPage(game) { return game === "xiangqi" ? "/xiangqi-rules.html" : "/rules.html"; }
