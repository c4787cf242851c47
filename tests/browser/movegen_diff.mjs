// Legal-move generation against an independent implementation, without a browser:
//   node tests/browser/movegen_diff.mjs <janggi-zero binary> <variant> [games] [seed]
// ffish (Fairy-Stockfish's rules in WebAssembly, npm; the reference of docs/rules.md) plays seeded random
// games of the variant; each distinct position's legal moves, as ffish lists them for the position set up
// from its FEN, are compared with ours: `janggi-zero perft --variant V --fens FILE --depth 1 --moves`, one
// run for all of them. Both write UCI alike (a Janggi pass is the general's square twice) and the same FEN.
// The moves are chosen with weights (captures, then checks, preferred) so that games go deep and
// material comes off; Janggi games start from a random one of the 16 setups.
// Left out, by the documented difference (docs/rules.md): a position where the side NOT to move is in
// check (after a pass in bikjang, which ends the game): our FEN reader refuses it.
// Exit 0: the same moves everywhere; 1: differences (the first few printed); 2: a setup error.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

import { loadFfish, prng } from "./ffish_support.mjs";

const [binary, variant, gamesArg = "200", seedArg = "1"] = process.argv.slice(2);
const JANGGI = ["janggi", "janggitraditional", "janggimodern", "janggicasual"];
const PLY_CAP = 300, SHOW = 5;

function fail(message) {
  console.error(`movegen_diff: ${message}`);
  process.exit(2);
}

// A random one of the 16 Janggi setups: horse and elephant in either order on each wing.
function janggiStart(ff, rand) {
  const wing = () => (rand() < 0.5 ? "NB" : "BN");
  const rank = () => `R${wing()}A1A${wing()}R`;
  const parts = ff.startingFen(variant).split("/");
  parts[0] = rank().toLowerCase();
  parts[9] = rank() + parts[9].slice(parts[9].indexOf(" "));
  return parts.join("/");
}

// Half the time a capture where there is one, else a check some of the time, else any move.
function pickMove(board, moves, rand) {
  const pick = (list) => list[Math.floor(rand() * list.length)];
  const r = rand();
  if (r < 0.5) {
    const captures = moves.filter((m) => board.isCapture(m));
    if (captures.length) return pick(captures);
  } else if (r < 0.7) {
    const checks = moves.filter((m) => {
      board.push(m);
      const check = board.isCheck();
      board.pop();
      return check;
    });
    if (checks.length) return pick(checks);
  }
  return pick(moves);
}

const movesOf = (s) => (s ? s.split(" ").filter(Boolean).sort() : []);
const key = (fen) => fen.split(" ").slice(0, 2).join(" ");  // the counters do not change the moves

// Distinct positions of the games: FEN -> ffish's moves for the position set up from that FEN (setFen
// clears the history, as our perft's FEN has none; a new board costs milliseconds, setFen microseconds).
function collect(ff, games, rand) {
  const seen = new Map(), fresh = new ff.Board(variant), flipped = new ff.Board(variant);
  let excluded = 0, plies = 0;
  for (let g = 0; g < games; g++) {
    const board = new ff.Board(variant, JANGGI.includes(variant) ? janggiStart(ff, rand) : ff.startingFen(variant));
    for (let ply = 0; ; ply++) {
      const fen = board.fen();
      if (!seen.has(key(fen))) {
        flipped.setFen(fen.replace(/ [wb] /, (s) => (s === " w " ? " b " : " w ")));
        fresh.setFen(fen);
        if (flipped.isCheck()) excluded++;
        else seen.set(key(fen), { fen, moves: movesOf(fresh.legalMoves()) });
      }
      const moves = movesOf(board.legalMoves());  // none once the game has ended (passes)
      if (ply >= PLY_CAP || board.isGameOver() || !moves.length) break;
      board.push(pickMove(board, moves, rand));
      plies++;
    }
    board.delete();
  }
  fresh.delete();
  flipped.delete();
  return { positions: [...seen.values()], excluded, plies };
}

// Ours, in one process: a line per FEN, the count, a tab, the sorted moves.
function ours(positions) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "movegen-diff-"));
  const file = path.join(dir, "fens.txt");
  const args = ["perft", "--variant", variant, "--fens", file, "--depth", "1", "--moves"];
  let run;
  try {  // fail() exits at once, so only after the folder is gone
    fs.writeFileSync(file, positions.map((p) => p.fen).join("\n") + "\n");
    run = spawnSync(binary, args, { encoding: "utf8", maxBuffer: 1 << 30 });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  if (run.error) fail(`cannot run ${binary}: ${run.error.message}`);
  if (run.status !== 0) fail(`${binary} ${args.join(" ")} exited ${run.status}: ${run.stderr.trim()}`);
  const lines = run.stdout.split("\n").filter(Boolean);
  if (lines.length !== positions.length) fail(`${lines.length} result lines for ${positions.length} FENs`);
  return lines.map((line) => {
    const [count, moves = ""] = line.split("\t");
    const list = movesOf(moves);
    if (Number(count) !== list.length) fail(`count ${count} and ${list.length} moves disagree: ${line}`);
    return list;
  });
}

async function main() {
  if (!binary || !variant) fail("usage: movegen_diff.mjs <janggi-zero binary> <variant> [games] [seed]");
  const games = Number(gamesArg), seed = Number(seedArg);
  if (!Number.isInteger(games) || games < 1 || !Number.isInteger(seed)) fail("games and seed are integers");
  let ff;
  try {
    ff = await loadFfish();
  } catch (e) {
    fail(`cannot load ffish (npm ci in tests/browser): ${e.message}`);
  }
  if (!ff.variants().split(" ").includes(variant)) fail(`ffish does not know the variant '${variant}'`);
  const { positions, excluded, plies } = collect(ff, games, prng(seed));
  const mine = ours(positions);
  let compared = 0;
  const diffs = [];
  positions.forEach((p, i) => {
    const a = new Set(p.moves), b = new Set(mine[i]);
    const onlyRef = p.moves.filter((m) => !b.has(m)), onlyOurs = mine[i].filter((m) => !a.has(m));
    compared += new Set([...a, ...b]).size;
    if (onlyRef.length || onlyOurs.length) diffs.push({ fen: p.fen, onlyRef, onlyOurs });
  });
  console.log(`${variant}: ${positions.length} positions, ${compared} moves compared, ${diffs.length} differences` +
              ` (${games} games, ${plies} plies, seed ${seed}; ${excluded} excluded)`);
  for (const d of diffs.slice(0, SHOW)) {
    console.log(`  ${d.fen}\n    only ffish: ${d.onlyRef.join(" ") || "-"}\n    only janggi-zero: ${d.onlyOurs.join(" ") || "-"}`);
  }
  process.exit(diffs.length ? 1 : 0);
}

main().catch((e) => fail(e.stack || String(e)));
