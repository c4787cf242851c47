// What the browser tests share: checks with a tally, a `serve` process on an ephemeral loopback port
// with a temporary data directory, Debian's Chromium with a DejaVu-only fontconfig (the pages must not
// rely on CJK system fonts), console errors collected per page, a board square pressed by mouse or
// touch, and the binary's own UCI engine as a player for the person's side.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const puppeteer = require("puppeteer-core");

export const tally = { passed: 0, failed: 0 };
export function check(ok, what) {
  if (ok) tally.passed++; else tally.failed++;
  console.log((ok ? "ok   " : "FAIL ") + what);
}

export const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "jz-browser-"));

export function startServer(binary) {
  return new Promise((resolve, reject) => {
    const p = spawn(binary, ["serve", "--port", "0", "--no-model", "--data-dir", path.join(tmp, "data")],
                    { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    p.stdout.on("data", (d) => {
      out += d;
      const m = out.match(/serving on (http:\/\/[^/]+\/)/);
      if (m) resolve({ proc: p, url: m[1] });
    });
    p.on("exit", (code) => reject(new Error("serve exited with " + code + ": " + out)));
  });
}

export async function launchBrowser() {
  const fontsConf = path.join(tmp, "fonts.conf");
  fs.writeFileSync(fontsConf, `<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd"><fontconfig>
<dir>/usr/share/fonts/truetype/dejavu</dir><cachedir>${tmp}/fc-cache</cachedir></fontconfig>`);
  return puppeteer.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--font-render-hinting=none"],
    env: { ...process.env, FONTCONFIG_FILE: fontsConf },
  });
}

// Console errors and uncaught exceptions of a page go to `errors`, tagged.
export function collectErrors(page, errors, tag) {
  page.on("console", (m) => { if (m.type() === "error") errors.push(`[${tag}] ${m.text()}`); });
  page.on("pageerror", (e) => errors.push(`[${tag}] ${e}`));
}

// A point of the board (unflipped unless `flip`), by mouse or by touch.
export async function pressSquare(page, sq, touch, flip) {
  const box = await page.$eval("#board", (svg, sq, flip) => {
    const r0 = svg.getBoundingClientRect();  // a tap lands only inside the viewport
    if (r0.top < 0 || r0.bottom > window.innerHeight) svg.scrollIntoView({ block: "center" });
    let f = sq.charCodeAt(0) - 97, r = parseInt(sq.slice(1), 10) - 1;
    if (flip) { f = 8 - f; r = 9 - r; }
    const p = svg.createSVGPoint();
    p.x = 48 + f * 64; p.y = 48 + (9 - r) * 64;
    const q = p.matrixTransform(svg.getScreenCTM());
    return [q.x, q.y];
  }, sq, !!flip);
  if (touch) await page.touchscreen.tap(box[0], box[1]);
  else await page.mouse.click(box[0], box[1]);
}

// `janggi-zero uci` as a player: best(startFen, moves) -> its move at `movetime` ms; score(startFen, moves,
// depth) -> the side to move's score in centipawns from a fixed-depth search (a mate as +-100000).
export function uciEngine(binary, movetime) {
  const p = spawn(binary, ["uci"], { stdio: ["pipe", "pipe", "inherit"] });
  let buf = "", waiting = null;
  p.stdout.on("data", (d) => {
    buf += d;
    const m = buf.match(/bestmove (\S+)/);
    if (m && waiting) { const text = buf; buf = ""; const w = waiting; waiting = null; w(text); }
  });
  p.stdin.write("uci\nsetoption name UCI_Variant value janggi\nisready\n");
  const search = (startFen, moves, go) => new Promise((resolve) => {
    waiting = resolve;
    buf = "";
    p.stdin.write(`position fen ${startFen}${moves.length ? " moves " + moves.join(" ") : ""}\ngo ${go}\n`);
  });
  return {
    async best(startFen, moves) { return (await search(startFen, moves, `movetime ${movetime}`)).match(/bestmove (\S+)/)[1]; },
    async score(startFen, moves, depth) {
      const scores = [...(await search(startFen, moves, `depth ${depth}`)).matchAll(/score (cp|mate) (-?\d+)/g)];
      if (!scores.length) return 0;  // no search: the game is over after these moves
      const [, kind, n] = scores[scores.length - 1];
      return kind === "cp" ? Number(n) : (Number(n) > 0 ? 100000 : -100000);
    },
    quit() { p.stdin.write("quit\n"); },
  };
}

export function finish(name) {
  console.log(`${name}: ${tally.passed} passed, ${tally.failed} failed`);
  fs.rmSync(tmp, { recursive: true, force: true });
  process.exit(tally.failed ? 1 : 0);
}
