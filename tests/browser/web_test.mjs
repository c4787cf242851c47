// The web page as a person uses it, in Debian's headless Chromium driven by puppeteer-core:
//   node tests/browser/web_test.mjs JANGGI_ZERO OUT_DIR
// Starts `serve` on an ephemeral loopback port with a temporary data directory, and Chromium with a
// fontconfig that holds no CJK font (DejaVu only), then: the page loads (time to interactive), a name
// and a ranked game against easy, a click on a piece shows its targets, a click on a target is answered
// by the engine (time per reply against the level's limit), pass, undo (the game is then unranked), the
// move list and the evaluation update, a resigned ranked game lands on the leaderboard, the rules page
// draws its diagrams, and every Hangul and Hanja label renders with the embedded fonts (a piece's pixels
// differ from a missing glyph's). Then each language, 繁體中文, 한국어 and English, in a fresh browser profile
// at 390x844 with touch: chosen by the browser's languages (Accept-Language, navigator.languages), every
// page in it and fitting 390 px, the header's switch changes it and the choice holds after a reload and
// on the other pages, ?lang= chooses too. Any console error fails (t() logs one for a missing key).
// Screenshots go to OUT_DIR (lang-CODE-PAGE.png for the languages).
import fs from "node:fs";
import path from "node:path";
import { check, collectErrors, launchBrowser, pressSquare as pressBoardSquare, startServer, tally, tmp } from "./harness.mjs";

const [binary, outDir] = process.argv.slice(2);
if (!binary || !outDir) {
  console.error("usage: node web_test.mjs JANGGI_ZERO OUT_DIR");
  process.exit(2);
}
fs.mkdirSync(outDir, { recursive: true });
const report = {};

// For each selector: the CJK characters of the node's own text all come from the JZ Labels fonts.
async function cjkFromEmbeddedFonts(page, selectors) {
  const cdp = await page.target().createCDPSession();
  await cdp.send("DOM.enable");
  await cdp.send("CSS.enable");
  const doc = await cdp.send("DOM.getDocument", { depth: -1 });
  let ok = true;
  for (const sel of selectors) {
    const { nodeId } = await cdp.send("DOM.querySelector", { nodeId: doc.root.nodeId, selector: sel });
    const text = await page.$eval(sel, (e) => e.tagName === "SELECT" ? e.options[e.selectedIndex].text
      : [...e.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent).join(""));
    // The fonts' unicode-range (style.css): Hangul, Hanja, CJK and full-width punctuation.
    const cjk = [...text].filter((c) => /[\u1100-\u11ff\u3000-\u303f\u3130-\u318f\u4e00-\u9fff\uac00-\ud7a3\uff00-\uffef]/.test(c)).length;
    const { fonts } = await cdp.send("CSS.getPlatformFontsForNode", { nodeId });
    const ours = fonts.filter((f) => f.familyName.startsWith("JZ Labels")).reduce((n, f) => n + f.glyphCount, 0);
    if (cjk === 0 || ours !== cjk) {
      ok = false;
      console.log(`  ${sel} ${JSON.stringify(text)}: ${cjk} CJK characters, ${ours} from the embedded fonts; ` +
                  fonts.map((f) => f.familyName + " " + f.glyphCount).join(", "));
    }
  }
  await cdp.detach();
  return ok;
}

// Xiangqi at 390x844 in 繁體中文: the game chosen on the new-game form, the river (楚河 漢界) on the board, a
// move by tapping answered by the engine, the move list in Chinese notation (WXF in English), a reload
// keeps the game; the Xiangqi rules page and the Xiangqi leaderboard fit the phone.
async function xiangqiOnAPhone(page) {
  await page.goto(server.url + "?lang=zh-TW", { waitUntil: "networkidle0" });
  await page.select("#game", "xiangqi");
  const form = await page.evaluate(() => ({
    setupHidden: document.querySelector("#cho-setup").offsetParent === null,
    levels: [...document.querySelectorAll("#level option")].map((o) => o.value),
    note: document.querySelector("#game-note").textContent,
    red: document.querySelector('#human option[value="cho"]').textContent }));
  check(form.setupHidden && form.red === "紅方（先走）", `Xiangqi: Janggi's setups are hidden and the sides are Red and Black (${form.red})`);
  check(!form.levels.includes("net") && form.note.includes("神經網路"),
        `Xiangqi: no network on this server, and the page says so (${form.levels.join(",")}: ${form.note})`);
  await page.select("#level", "easy");
  await page.$eval("#ranked", (c) => { c.checked = false; });
  await page.tap("#new-game");
  await page.waitForFunction(() => state && state.game === "xiangqi" && state.ply === 0 && !busy);
  const board = await page.evaluate(() => ({
    river: [...document.querySelectorAll("#board text.river")].map((e) => e.textContent),
    labels: [...document.querySelectorAll("#board g.piece text")].map((e) => e.textContent).join(""),
    round: document.querySelectorAll("#board g.piece circle").length }));
  check(board.river.join(" ") === "楚 河 漢 界" && board.round === 32 && board.labels.includes("帥") && board.labels.includes("將"),
        `Xiangqi: the board has the river's words (${board.river.join(" ")}) and 32 round pieces (${board.labels})`);
  await pressBoardSquare(page, "h3", true);  // the central cannon, 炮二平五
  check(await page.$$eval("#board circle.target", (c) => c.length) > 0, "Xiangqi: tapping the cannon on h3 shows its targets");
  await pressBoardSquare(page, "e3", true);
  await page.waitForFunction(() => state && state.ply === 2 && !busy);
  const list = async () => page.evaluate(() => [...document.querySelectorAll("#moves tbody tr:first-child td")].map((td) =>
    [...td.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent).join("")));
  let row = await list();
  check(row[1] === "炮二平五" && /^[車馬象士將砲卒][1-9前後][進退平][1-9]$/.test(row[2]),
        `Xiangqi: the move list is in Chinese notation (${row.join(" ")}) and the engine answered`);
  check(await page.$eval("#moves-cho", (e) => e.textContent) === "紅方", "Xiangqi: the move list's columns are Red and Black");
  check(await page.evaluate(() => ["#pass", "#review-link"].every((s) => document.querySelector(s).offsetParent === null)),
        "Xiangqi: no pass button, and no review link while the game is on");
  check(await cjkFromEmbeddedFonts(page, ["#board text.river", "#board g.piece.cho text", "#board g.piece.han text",
                                          "#moves tbody tr td:nth-child(2)"]),
        "Xiangqi: the river, the pieces and the notation come from the embedded fonts");
  await page.screenshot({ path: path.join(outDir, "web-phone-xiangqi.png") });
  const before = await page.evaluate(() => [state.id, state.moves.map((m) => m.uci).join(" ")]);
  await page.reload({ waitUntil: "networkidle0" });
  await page.waitForFunction(() => state && state.ply === 2);
  const after = await page.evaluate(() => [state.id, state.moves.map((m) => m.uci).join(" "), state.game,
                                           document.querySelectorAll("#board text.river").length]);
  check(after[0] === before[0] && after[1] === before[1] && after[2] === "xiangqi" && after[3] === 2,
        `Xiangqi: a reload resumes the game on its board (${after[1]})`);
  await page.select("#lang", "en");
  row = await list();
  check(row[1] === "C2.5" && /^[RHECAKP][1-9+\-.][+\-.][1-9]$/.test(row[2]), `Xiangqi in English: the move list in WXF (${row.join(" ")})`);
  await page.tap("#resign");
  await page.waitForFunction(() => state && state.result.over);
  await page.goto(server.url + "review.html?id=" + before[0], { waitUntil: "networkidle0" });
  await page.waitForFunction(() => document.querySelectorAll("#moves td.move").length === 2);
  const review = await page.evaluate(() => [[...document.querySelectorAll("#moves td.move")].map((td) => td.textContent),
                                            document.querySelector("#moves-cho").textContent,
                                            document.querySelectorAll("#board text.river").length]);
  check(review[0][0].startsWith("C2.5") && review[1] === "Red" && review[2] === 2,
        `Xiangqi: the review shows the game on its board, Red and Black, in WXF (${review[0].join(" ")})`);
  for (const url of ["xiangqi-rules.html", "leaderboard.html?game=xiangqi"]) {
    await page.goto(server.url + url, { waitUntil: "networkidle0" });
    const s = await page.evaluate(() => ({ width: document.documentElement.scrollWidth,
      diagrams: [...document.querySelectorAll("svg.diagram")].map((x) => x.querySelectorAll("g.piece").length +
                                                                       x.querySelectorAll("text.river").length),
      game: (document.querySelector("#lb-game") || {}).value }));
    check(s.width <= 390 && (url.startsWith("leader") ? s.game === "xiangqi" : s.diagrams.length === 5 && s.diagrams.every((n) => n > 2)),
          `Xiangqi: ${url} fits 390 px (${s.width}) ${url.startsWith("leader") ? "on the Xiangqi ladder" : "with 5 diagrams"}`);
    await page.screenshot({ path: path.join(outDir, `web-phone-xiangqi-${url.split(/[.?]/)[0]}.png`), fullPage: true });
  }
}

const server = await startServer(binary);
const browser = await launchBrowser();
const consoleErrors = [];
try {
  const page = await browser.newPage();
  await page.setViewport({ width: 1100, height: 820 });
  collectErrors(page, consoleErrors, "play");
  page.on("dialog", (d) => d.accept());  // "Resign this game?", "Leave the game in progress?"

  // Loaded and interactive: the engine list is filled from /api/info. This scenario runs in English.
  let t0 = Date.now();
  await page.goto(server.url + "?lang=en", { waitUntil: "domcontentloaded" });
  await page.waitForFunction(() => document.querySelectorAll("#level option").length >= 3);
  report.interactive_ms = Date.now() - t0;
  check(report.interactive_ms < 5000, `page interactive in ${report.interactive_ms} ms`);
  check(await page.$eval("#ranked-rule", (e) => e.textContent.includes("no undo")), "the ranked rule is shown before the game");

  // A ranked game against easy, for a signed-in player (registered through the API, as the page would).
  const registered = await page.evaluate(() => fetch("/api/account/register", {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ name: "browser1", password: "browser-test-password" }) }).then((r) => r.status));
  check(registered === 200, `browser1 registered and signed in (${registered})`);
  await page.reload({ waitUntil: "domcontentloaded" });  // the page learns who is signed in
  await page.waitForFunction(() => document.querySelectorAll("#level option").length >= 3);
  if (await page.$("#player-name")) await page.type("#player-name", "browser1");
  await page.select("#level", "easy");
  await page.click("#new-game");
  await page.waitForFunction(() => document.querySelector("#rank-status").textContent.includes("Ranked game for browser1"));
  check(await page.$eval("#engine-name", (e) => e.textContent.includes("easy")), "the page says which engine and level plays");

  // Labels: each piece's Hanja and the page's Hangul render from the embedded fonts.
  await page.evaluate(() => document.fonts.ready);
  const fontsOk = await page.evaluate(async () => {
    await document.fonts.load('700 40px "JZ Serif"', "楚漢車包馬象士卒兵");
    await document.fonts.load('40px "JZ Sans"', "한수쉼초안상");
    const alpha = (font, ch) => {
      const c = document.createElement("canvas");
      c.width = c.height = 64;
      const x = c.getContext("2d");
      x.font = font; x.textAlign = "center"; x.textBaseline = "middle"; x.fillText(ch, 32, 32);
      const d = x.getImageData(0, 0, 64, 64).data, a = [];
      for (let i = 3; i < d.length; i += 4) a.push(d[i] > 127 ? 1 : 0);
      return a;
    };
    const same = (a, b) => a.every((v, i) => v === b[i]);
    const bad = [];
    for (const [font, chars] of [['700 40px "JZ Serif", serif', "楚漢車包馬象士卒兵"], ['40px "JZ Sans", sans-serif', "한수쉼초안상바깥왼오른"]]) {
      const tofu = alpha(font, "丐");  // in no font here: drawn as a missing glyph
      for (const ch of chars) {
        const a = alpha(font, ch);
        if (a.reduce((s, v) => s + v, 0) < 40 || same(a, tofu)) bad.push(ch);
      }
    }
    return bad;
  });
  check(fontsOk.length === 0, "every label glyph renders (missing: " + fontsOk.join("") + ")");
  // Page text: every Hangul and Hanja character of these nodes is drawn with the embedded fonts (Chromium's
  // own account of the fonts it used), not with a fallback's missing glyph.
  check(await cjkFromEmbeddedFonts(page, ["header .sub", "#pass", "#setup label.janggi-only span", "#moves th:nth-child(2)",
                                          "#status", "#cho-setup"]), "the page's Hangul comes from the embedded font");
  // The same on the board itself: a piece with its label differs from the piece with a missing glyph.
  const piece = await page.$("#board g.piece.cho");
  const shot1 = await piece.screenshot();
  const label = await page.$eval("#board g.piece.cho text", (t) => { const s = t.textContent; t.textContent = "丐"; return s; });
  const shot2 = await piece.screenshot();
  await page.$eval("#board g.piece.cho text", (t, s) => { t.textContent = s; }, label);
  check(!Buffer.from(shot1).equals(Buffer.from(shot2)), `the board's piece label ${label} is drawn, not a box`);

  // Click a soldier: its targets show; click one: the engine answers within easy's limit.
  // A point of the board (unflipped), by mouse or by touch.
  const pressSquare = (sq, touch) => pressBoardSquare(page, sq, touch);
  const clickSquare = (sq) => pressSquare(sq, false);
  await clickSquare("a4");
  const targets = await page.$$eval("#board circle.target", (c) => c.length);
  check(targets > 0, `clicking the soldier on a4 shows ${targets} targets`);
  t0 = Date.now();
  await clickSquare("a5");
  await page.waitForFunction(() => document.querySelectorAll("#moves tbody tr").length === 1 &&
                                   document.querySelector("#moves tbody tr td:nth-child(3)").textContent !== "");
  report.reply_ms = Date.now() - t0;
  // The engine's own answer time: the /api/engine requests as the browser timed them.
  const engineMs = await page.evaluate(() => performance.getEntriesByType("resource")
    .filter((e) => e.name.endsWith("/api/engine")).map((e) => Math.round(e.duration)));
  report.engine_ms = engineMs;
  const think = await page.evaluate(() => [state.eval.think_ms, state.eval.limit_ms]);
  report.think_ms = [think[0]];
  check(think[1] === 300 && think[0] <= think[1] * 2,  // twice the limit: slack for a loaded machine
        `the engine thought ${think[0]} ms (easy: at most ${think[1]} ms; the request took ${engineMs.join(", ")} ms, ` +
        `move to reply on screen ${report.reply_ms} ms)`);
  const evalText = await page.$eval("#thinking", (e) => e.textContent);
  check(evalText.startsWith("easy") && evalText.includes("hidden during a ranked game") && !evalText.includes("line:"),
        "a ranked game names the level and hides the evaluation: " + evalText.slice(0, 90));
  await page.screenshot({ path: path.join(outDir, "web-game.png") });

  // Undo: the game is no longer ranked. Then a pass (the engine answers it).
  await page.waitForFunction(() => !document.querySelector("#undo").disabled);
  await page.click("#undo");
  await page.waitForFunction(() => document.querySelector("#rank-status").textContent.includes("taken back"));
  check(true, "undo makes the game unranked");
  await page.waitForFunction(() => !document.querySelector("#pass").disabled);
  await page.click("#pass");
  await page.waitForFunction(() => document.querySelectorAll("#moves tbody tr").length === 1 &&
                                   document.querySelector("#moves tbody tr td:nth-child(3)").textContent !== "" &&
                                   !document.querySelector("#new-game").disabled);
  check(await page.$eval("#moves tbody tr td:nth-child(2)", (e) => e.textContent.includes("한수쉼")),
        "the pass is in the move list (한수쉼) and the engine answered it");
  report.think_ms.push(await page.evaluate(() => state.eval.think_ms));
  check(report.think_ms[1] <= 330, `the engine's answer to the pass took ${report.think_ms[1]} ms`);
  check(await page.$eval("#thinking", (e) => e.textContent.includes("line:")), "an unranked game shows the engine's line");

  // A ranked game resigned: recorded, and the player is on the leaderboard.
  await page.click("#new-game");
  await page.waitForFunction(() => document.querySelector("#rank-status").textContent.includes("Ranked game for"));
  await page.click("#resign");
  await page.waitForFunction(() => document.querySelector("#rank-status").textContent.includes("recorded"));
  check(await page.$eval("#rank-status", (e) => e.textContent.includes("loss, +0 points")), "a resigned ranked game is recorded as a loss");
  await page.screenshot({ path: path.join(outDir, "web-over.png") });
  await page.goto(server.url + "leaderboard.html", { waitUntil: "networkidle0" });
  const rows = await page.$$eval("#leaderboard tbody tr", (trs) => trs.map((tr) => tr.textContent));
  check(rows.some((r) => r.includes("browser1")), "the leaderboard lists the player");
  await page.screenshot({ path: path.join(outDir, "web-leaderboard.png") });

  // The rules page draws its diagrams.
  await page.goto(server.url + "rules.html", { waitUntil: "networkidle0" });
  check(await cjkFromEmbeddedFonts(page, ["h3:nth-of-type(3)", "h3:nth-of-type(4)", "td.glyph", "table.pieces td:nth-child(2)"]),
        "the rules page's Hangul and Hanja come from the embedded fonts");
  const diagrams = await page.$$eval("svg.diagram", (s) => s.map((x) => x.querySelectorAll("g.piece").length));
  check(diagrams.length >= 4 && diagrams.every((n) => n > 0), `the rules page draws ${diagrams.length} diagrams`);
  await page.screenshot({ path: path.join(outDir, "web-rules.png"), fullPage: true });

  // A phone: 390x844 with touch. Every page fits the width; the game survives a reload.
  await page.setViewport({ width: 390, height: 844, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
  for (const p of ["", "rules.html", "leaderboard.html"]) {
    await page.goto(server.url + p, { waitUntil: "networkidle0" });
    const w = await page.evaluate(() => document.documentElement.scrollWidth);
    check(w <= 390, `${p || "the play page"} fits 390 px (scrollWidth ${w})`);
  }
  await page.goto(server.url, { waitUntil: "networkidle0" });
  await page.select("#level", "easy");
  await page.$eval("#ranked", (c) => { c.checked = false; });
  await page.tap("#new-game");
  await page.waitForFunction(() => state && state.ply === 0 && !state.result.over && location.search.includes("game="));
  const tapSquare = (sq) => pressSquare(sq, true);
  await tapSquare("c4");
  await tapSquare("c5");
  await page.waitForFunction(() => state && state.ply === 2 && !busy);
  const layout = await page.evaluate(() => ({
    status: document.querySelector("#status").getBoundingClientRect().bottom,
    undo: document.querySelector("#undo").getBoundingClientRect().bottom,
    form: document.querySelector("#cho-setup").offsetParent === null,  // hidden with its label
    eval: document.querySelector("#thinking").textContent,
  }));
  check(layout.status < 844 && layout.undo < 844, `status and buttons on the first screen (bottoms ${layout.status}, ${layout.undo})`);
  check(layout.form, "the new-game form is folded during the game");
  check(layout.eval.includes("line:"), "an unranked game shows the engine's line");
  await page.screenshot({ path: path.join(outDir, "web-phone.png") });
  const before = await page.evaluate(() => [state.id, state.moves.map((m) => m.uci).join(" ")]);
  await page.reload({ waitUntil: "networkidle0" });
  await page.waitForFunction(() => state && state.ply === 2);
  const after = await page.evaluate(() => [state.id, state.moves.map((m) => m.uci).join(" ")]);
  check(after[0] === before[0] && after[1] === before[1], `a reload resumes the game (${after[1]})`);
  await page.goto(server.url, { waitUntil: "networkidle0" });  // no id in the address: local storage has it
  await page.waitForFunction(() => state && state.ply === 2);
  check(await page.evaluate((id) => state.id === id, before[0]), "the game comes back from local storage");
  const resumedShot = path.join(outDir, "web-phone-resumed.png");
  await page.screenshot({ path: resumedShot });
  await page.tap("#resign");
  await page.waitForFunction(() => state && state.result.over);
  check(await page.$eval("#undo", (b) => b.disabled), "undo is off once the game is over");
  check(await page.$eval("#status", (e) => e.textContent.startsWith("You lost")), "the end says who won in words");

  // A new game started while the stored one still loads stays: the late answer neither replaces nor forgets it.
  await page.setRequestInterception(true);
  const slowState = (req) => { if (req.url().includes("/api/state")) setTimeout(() => req.continue(), 1500); else req.continue(); };
  page.on("request", slowState);
  await page.goto(server.url, { waitUntil: "load" });
  await page.waitForFunction(() => document.querySelectorAll("#level option").length >= 3 && !!window.jzAccountReady);
  await page.evaluate(() => window.jzAccountReady.then(() => null));
  const lateAnswer = page.waitForResponse((r) => r.url().includes("/api/state"));
  await page.select("#level", "easy");
  await page.tap("#new-game");
  await page.waitForFunction(() => state && state.ply === 0 && !state.result.over);
  const fresh = await page.evaluate(() => state.id);
  await lateAnswer;
  await page.evaluate(() => new Promise((r) => setTimeout(r, 100)));  // the answer's handler has run
  const kept = await page.evaluate(() => [state.id, state.result.over, localStorage.getItem("jz-game")]);
  check(kept[0] === fresh && !kept[1] && kept[2] === fresh && fresh !== before[0],
        `a new game started while the stored one loads stays (${kept.join(", ")})`);
  page.off("request", slowState);
  await page.setRequestInterception(false);
  await page.tap("#resign");  // over, as before: the next page opens on the new-game form
  await page.waitForFunction(() => state && state.result.over);

  await xiangqiOnAPhone(page);

  // Each language in a fresh profile (nothing stored), chosen by the browser's languages.
  report.lang_ms = Date.now();
  const LANGS = { en: { browser: ["en-US", "en"], next: "ko", newGame: "New game", rules: "How Janggi is played" },
                  "zh-TW": { browser: ["zh-HK", "zh"], next: "en", newGame: "新遊戲", rules: "玩法說明" },
                  ko: { browser: ["ko-KR", "ko"], next: "zh-TW", newGame: "새 대국", rules: "규칙 설명" } };
  for (const [code, L] of Object.entries(LANGS)) {
    const ctx = await browser.createBrowserContext();
    const p = await ctx.newPage();
    collectErrors(p, consoleErrors, code);
    await p.setViewport({ width: 390, height: 844, isMobile: true, hasTouch: true, deviceScaleFactor: 1 });
    await p.setExtraHTTPHeaders({ "Accept-Language": L.browser.join(",") });
    await p.evaluateOnNewDocument((langs) => {
      Object.defineProperty(navigator, "languages", { get: () => langs });
      Object.defineProperty(navigator, "language", { get: () => langs[0] });
    }, L.browser);
    const state = async () => p.evaluate(() => ({ lang: document.documentElement.lang, width: document.documentElement.scrollWidth,
                                                  newGame: (document.querySelector("#new-game") || {}).textContent,
                                                  h2: (document.querySelector("h2") || {}).textContent,
                                                  sw: (document.querySelector("#lang") || {}).value }));
    const pages = [["play", ""], ["rules", "rules.html"], ["leaderboard", "leaderboard.html"]];
    // Loaded: the words are in place when the scripts have run; the width once the fonts are in.
    const open = async (url) => {
      await p.goto(server.url + url, { waitUntil: "load" });
      if (url === "" || url.startsWith("?")) await p.waitForFunction(() => document.querySelectorAll("#level option").length >= 3);
      await p.evaluate(() => document.fonts.ready.then(() => null));
    };
    const seen = [];
    for (const [name, url] of pages) {
      await open(url);
      const s = await state();
      seen.push(`${name} ${s.lang} ${s.width}px`);
      check(s.lang === code && s.sw === code && s.width <= 390 &&
            (name !== "play" || s.newGame === L.newGame) && (name !== "rules" || s.h2 === L.rules),
            `${code}: the ${name} page comes in ${s.lang} (switch ${s.sw}) from the browser's ${L.browser.join(",")} ` +
            `and fits 390 px (scrollWidth ${s.width})`);
      await p.screenshot({ path: path.join(outDir, `lang-${code}-${name}.png`), fullPage: name !== "play" });
      if (name === "play" && code !== "en")
        check(await cjkFromEmbeddedFonts(p, ["#setup h2", "#new-game", "#status", "header nav a"]),
              `${code}: the page's Hangul and Hanja come from the embedded fonts`);
    }
    // The header's switch: the page changes at once; a reload and the other pages keep the choice.
    await open("");
    await p.select("#lang", L.next);
    let s = await state();
    const want = LANGS[L.next];
    check(s.lang === L.next && s.newGame === want.newGame, `${code}: the switch turns the page into ${L.next} ("${s.newGame}")`);
    await p.reload({ waitUntil: "load" });
    await p.waitForFunction(() => document.querySelectorAll("#level option").length >= 3);
    s = await state();
    const kept = [s.lang === L.next && s.newGame === want.newGame && s.width <= 390];
    for (const [, url] of pages.slice(1)) {
      await open(url);
      s = await state();
      kept.push(s.lang === L.next && s.sw === L.next && (url !== "rules.html" || s.h2 === want.rules));
    }
    check(kept.every((x) => x), `${code}: the choice of ${L.next} holds after a reload and on the rules and leaderboard pages`);
    // ?lang= in the address chooses too (and is remembered).
    await open("rules.html?lang=" + code);
    s = await state();
    await open("leaderboard.html");
    const after = await state();
    check(s.lang === code && s.h2 === L.rules && after.lang === code, `${code}: ?lang=${code} chooses it, and it stays`);
    await ctx.close();
  }
  report.lang_ms = Date.now() - report.lang_ms;

  check(consoleErrors.length === 0, "no console errors" + (consoleErrors.length ? ": " + consoleErrors.join(" | ") : ""));
} catch (e) {
  check(false, "exception: " + (e && e.stack ? e.stack : e));
} finally {
  await browser.close();
  server.proc.kill("SIGTERM");
  fs.rmSync(tmp, { recursive: true, force: true });
}
console.log(`browser: languages checked in ${report.lang_ms} ms; interactive ${report.interactive_ms} ms, easy engine ${(report.think_ms || []).join(", ")} ms ` +
            `(requests ${(report.engine_ms || []).join(", ")} ms), move to reply on screen ${report.reply_ms} ms`);
console.log(`${tally.passed} passed, ${tally.failed} failed`);
process.exit(tally.failed ? 1 : 0);
