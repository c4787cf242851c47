// The web page's catalogues, without a browser:
//   node tests/browser/i18n_catalogues.mjs [SOURCE_DIR]
// Every catalogue web/static/i18n-*.js has exactly the keys of English (i18n-en.js), no empty text, and the
// same {parameters} in each text as English; every key the pages use exists: data-i18n* attributes of the
// HTML files, t("...") literals of the scripts, and the keys the scripts build from the server's values
// (setups, levels, rule sets, endings, results, pieces: DYNAMIC below, kept with the API).
import fs from "node:fs";
import path from "node:path";
import vm from "node:vm";
import { fileURLToPath } from "node:url";

const root = process.argv[2] || path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const dir = path.join(root, "web/static");
let passed = 0, failed = 0;
function check(ok, what) {
  if (ok) passed++; else failed++;
  console.log((ok ? "ok   " : "FAIL ") + what);
}

const catalogues = {};
const files = fs.readdirSync(dir).filter((f) => /^i18n-.+\.js$/.test(f)).sort();
for (const f of files) {
  const I18N = { add(code, cat) { catalogues[code] = Object.assign(catalogues[code] || {}, cat); } };
  vm.runInNewContext(fs.readFileSync(path.join(dir, f), "utf8"), { I18N }, { filename: f });
}
const en = catalogues.en || {};
check(Object.keys(en).length > 100, `English has ${Object.keys(en).length} keys`);
check(["en", "zh-TW", "ko"].every((c) => catalogues[c]), `catalogues: ${Object.keys(catalogues).join(", ")}`);

const params = (s) => [...String(s).matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort().join(",");
for (const [code, cat] of Object.entries(catalogues)) {
  const missing = Object.keys(en).filter((k) => !(k in cat));
  const extra = Object.keys(cat).filter((k) => !(k in en));
  const empty = Object.keys(cat).filter((k) => typeof cat[k] !== "string" || cat[k].trim() === "");
  const badParams = Object.keys(cat).filter((k) => k in en && params(cat[k]) !== params(en[k]));
  check(!missing.length, `${code}: no key missing${missing.length ? ": " + missing.join(", ") : ""}`);
  check(!extra.length, `${code}: no key that English lacks${extra.length ? ": " + extra.join(", ") : ""}`);
  check(!empty.length, `${code}: no empty text${empty.length ? ": " + empty.join(", ") : ""}`);
  check(!badParams.length, `${code}: the same {parameters} as English${badParams.length ? ": " + badParams.join(", ") : ""}`);
}

// Keys the pages use.
const used = new Map();  // key -> where
const note = (key, where) => { if (!used.has(key)) used.set(key, where); };
for (const f of fs.readdirSync(dir).filter((f) => f.endsWith(".html"))) {
  const text = fs.readFileSync(path.join(dir, f), "utf8");
  for (const m of text.matchAll(/data-i18n(?:-title|-placeholder|-aria-label)?="([^"]*)"/g)) note(m[1], f);
}
for (const f of fs.readdirSync(dir).filter((f) => f.endsWith(".js") && !f.startsWith("i18n"))) {
  const text = fs.readFileSync(path.join(dir, f), "utf8");
  for (const m of text.matchAll(/\bt\(\s*(["'])([^"'`]+)\1\s*[,)]/g)) note(m[2], f);  // not "prefix." + value
}
const DYNAMIC = {
  "setup.": ["inner", "outer", "left", "right"],
  "level.": ["easy", "normal", "expert", "net"],
  "levelshort.": ["easy", "normal", "expert", "net"],
  "level.desc.": ["easy", "normal", "expert", "net"],
  "ruleset.": ["janggi", "janggitraditional", "janggimodern", "janggicasual", "xiangqi"],
  "ruleset.desc.": ["janggi", "janggitraditional", "janggimodern", "janggicasual", "xiangqi"],
  "game.": ["janggi", "xiangqi"],
  "human.": ["red", "black"],
  "moves.": ["red", "black"],
  "xq.piece.": ["K", "A", "B", "N", "R", "C", "P"],
  "ending.": ["checkmate", "double pass", "bikjang", "repetition", "perpetual check", "move rule", "back-and-forth",
              "resignation", "length cap", "illegal move", "time", "same-piece check", "stalemate"],
  "result.": ["win", "loss", "draw"],
  "piece.": ["K.cho", "K.han", "A", "B", "N", "R", "C", "P.cho", "P.han"],
  "side.": ["cho", "han", "red", "black"],
  "lang.": ["name", "label"],
};
for (const [prefix, values] of Object.entries(DYNAMIC)) for (const v of values) note(prefix + v, "built by a script");
check(used.size > 100, `the pages use ${used.size} keys`);
const absent = [...used].filter(([k]) => !(k in en)).map(([k, w]) => `${k} (${w})`);
check(!absent.length, `every key the pages use is in the catalogues${absent.length ? ": " + absent.join(", ") : ""}`);
// The HTML keeps no words of its own: only keys (and names, numbers, symbols, the board's Hanja).
for (const f of fs.readdirSync(dir).filter((f) => f.endsWith(".html"))) {
  const body = fs.readFileSync(path.join(dir, f), "utf8").replace(/<script[\s\S]*?<\/script>/g, "")
    .replace(/<style[\s\S]*?<\/style>/g, "").replace(/<[^>]*>/g, " ");
  const words = body.split(/\s+/).filter((w) => /[A-Za-z\u1100-\u11ff\uac00-\ud7a3]{2,}/.test(w) &&
                                                 !["janggi-zero", "JSONL", ".gib", "0.00"].includes(w));
  check(!words.length, `${f} holds no text outside the catalogues${words.length ? ": " + words.join(" ") : ""}`);
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
