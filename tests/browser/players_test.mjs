// Players on the web page, in each language (繁體中文, 한국어, English), each at 390x844 with touch and at
// 1280x800 with a mouse: register through the header's dialog, play a ranked game against easy to a
// win (the person's moves from the binary's own UCI engine; a reload after a few moves resumes it), see
// the result and +10, find the game on
// the leaderboard and in the player's history, open its review (the evaluation graph from the
// background analysis, the mistakes marked, arrows for the played and the better move, keyboard
// navigation), and leave a ranked game for a new one: it counts as a loss; rule options and the
// simplified rules for unranked games. No page scrolls sideways at
// 390 px; no console error. Screenshots of each step in OUT_DIR.
//   node tests/browser/players_test.mjs JANGGI_ZERO OUT_DIR
import fs from "node:fs";
import path from "node:path";
import { check, collectErrors, finish, launchBrowser, pressSquare, startServer, uciEngine } from "./harness.mjs";

const [binary, outDir] = process.argv.slice(2);
if (!binary || !outDir) {
  console.error("usage: node players_test.mjs JANGGI_ZERO OUT_DIR");
  process.exit(2);
}
fs.mkdirSync(outDir, { recursive: true });
const report = {};
const server = await startServer(binary);
const browser = await launchBrowser();
const engine = uciEngine(binary, 150);
const errors = [];

// Each language on a phone (390x844, touch) and on a desktop (1280x800, mouse).
const RUNS = [{ lang: "zh-TW", player: "wanjia01", phone: true }, { lang: "ko", player: "브라우저", phone: true },
              { lang: "en", player: "browser2", phone: true }, { lang: "zh-TW", player: "wanjia02", phone: false },
              { lang: "ko", player: "데스크톱", phone: false }, { lang: "en", player: "browser3", phone: false }];

async function fits(page, what) {
  const w = await page.evaluate(() => document.documentElement.scrollWidth);
  check(w <= 390, `[${what}] fits 390 px (scrollWidth ${w})`);
}

// The legal move that loses the least among those that lose at least SLIP_CP against the best one in a
// depth-3 search (the largest loss if none does): about a pawn and a half to a piece.
const SLIP_CP = 250;
async function slip(page, s) {
  const legal = await page.evaluate(() => Object.entries(state.legal).flatMap(([from, tos]) => tos.map((to) => from + to)));
  const scored = [];
  for (const m of legal.filter((m) => m.slice(0, 2) !== m.slice(2)))
    scored.push([m, -(await engine.score(s.start, [...s.moves, m], 3))]);
  const best = Math.max(...scored.map(([, v]) => v));
  scored.sort((a, b) => b[1] - a[1]);
  const slips = scored.filter(([, v]) => best - v >= SLIP_CP && best - v < 100000);
  return (slips.length ? slips[0] : scored[scored.length - 1])[0];
}

// Plays Cho for the person with the UCI engine until the game ends; returns the plies played.
async function playToTheEnd(page, touch, tag) {
  let reloaded = false, slipped = false;
  for (let i = 0; i < 400; i++) {
    const s = await page.evaluate(() => ({ over: state.result.over, turn: state.turn, busy, start: state.start_fen,
                                           moves: state.moves.map((m) => m.uci), pass: state.pass }));
    if (s.over) return s.moves.length;
    if (!reloaded && s.moves.length >= 6 && !s.busy) {  // a reload mid-game resumes it
      reloaded = true;
      const id = await page.evaluate(() => state.id);
      await page.reload({ waitUntil: "load" });
      await page.waitForFunction((n) => typeof state !== "undefined" && state && state.moves.length >= n, {}, s.moves.length);
      const back = await page.evaluate(() => [state.id, state.moves.map((m) => m.uci).join(" "), state.rank.ranked]);
      check(back[0] === id && back[1].startsWith(s.moves.join(" ")) && back[2], `[${tag}] a reload mid-game resumes it, still ranked`);
      continue;
    }
    if (s.busy || s.turn !== "cho") { await new Promise((r) => setTimeout(r, 30)); continue; }
    // Once, early, a deliberate inaccuracy: the review must then have a mistake to list whatever the rest of
    // the game holds (a flawless win against easy lists none).
    const slipNow = !slipped && s.moves.length >= 8;
    slipped = slipped || slipNow;
    const mv = slipNow ? await slip(page, s) : await engine.best(s.start, s.moves);
    const m = mv.match(/^([a-i]\d+)([a-i]\d+)$/);
    if (!m) throw new Error("engine answered " + mv);
    if (m[1] === m[2]) await page.click("#pass");
    else { await pressSquare(page, m[1], touch); await pressSquare(page, m[2], touch); }
    await page.waitForFunction((n) => state.result.over || (state.moves.length > n && !busy && state.turn === "cho"),
                               { timeout: 20000 }, s.moves.length);
  }
  throw new Error("no end in 400 turns");
}

try {
  for (const run of RUNS) {
    const tag = run.lang + (run.phone ? "-phone" : "-desktop");
    const ctx = await browser.createBrowserContext();  // a fresh profile: its own cookie and storage
    const page = await ctx.newPage();
    collectErrors(page, errors, tag);
    page.on("dialog", (d) => d.accept());  // "Leave the game in progress?" and the like
    if (run.phone) await page.setViewport({ width: 390, height: 844, isMobile: true, hasTouch: true, deviceScaleFactor: 1 });
    else await page.setViewport({ width: 1280, height: 800 });
    await page.goto(server.url + "?lang=" + run.lang, { waitUntil: "load" });
    await page.waitForFunction(() => document.querySelectorAll("#level option").length >= 3 && !!window.jzAccountReady);
    await page.evaluate(() => window.jzAccountReady.then(() => null));
    check(await page.$eval("#ranked", (c) => c.disabled), `[${tag}] a guest cannot tick Ranked`);

    // Register through the dialog.
    await page.click("#sign-in");
    await page.waitForSelector("#account-dialog[open]");
    await page.type("#account-user", run.player);
    await page.type("#account-password", "a long enough password");
    await page.screenshot({ path: path.join(outDir, `players-${tag}-1-register.png`) });
    await page.click("#account-register");
    await page.waitForFunction((n) => (document.querySelector("#account-name") || {}).textContent === n, {}, run.player);
    check(!(await page.$eval("#ranked", (c) => c.disabled)), `[${tag}] signed in as ${run.player}: Ranked is offered`);

    // A ranked game against easy, played to a win.
    await page.select("#level", "easy");
    await page.$eval("#ranked", (c) => { c.checked = true; });
    await page.click("#new-game");
    await page.waitForFunction(() => state && state.ply === 0 && state.rank.ranked);
    if (run.phone) await fits(page, `${tag} play`);
    let t0 = Date.now();
    const plies = await playToTheEnd(page, run.phone, tag);
    const end = await page.evaluate(() => ({ rank: state.rank, result: state.result, status: document.querySelector("#status").textContent,
                                             review: !document.querySelector("#review-link").hidden }));
    report[`${tag} game`] = { plies, seconds: (Date.now() - t0) / 1000, ending: end.result.ending };
    check(end.rank.result === "win" && end.rank.points === 10 && end.status.includes("+10"),
          `[${tag}] a ranked win against easy in ${plies} plies (${end.result.ending}): "${end.status}"`);
    check(end.review, `[${tag}] the finished game offers its review`);
    await page.screenshot({ path: path.join(outDir, `players-${tag}-2-won.png`) });

    // Its review: graph, mistakes, arrows, keys.
    t0 = Date.now();
    await Promise.all([page.waitForNavigation({ waitUntil: "load" }), page.click("#review-link")]);
    await page.waitForFunction(() => typeof review !== "undefined" && review && review.analysis.status === "done",
                               { timeout: 120000 });
    report[`${tag} review s`] = (Date.now() - t0) / 1000;
    const rv = await page.evaluate(() => ({ line: !!document.querySelector("#graph polyline"),
                                            dots: document.querySelectorAll("#graph circle.graph-dot").length,
                                            listed: document.querySelectorAll("#mistakes li.mistake").length,
                                            marked: document.querySelectorAll("#moves td.inaccuracy, #moves td.mistake, #moves td.blunder").length,
                                            positions: review.positions.length, at }));
    check(rv.line && rv.positions === plies + 1, `[${tag}] the review graphs ${rv.positions} positions in ${report[`${tag} review s`]} s`);
    check(rv.listed > 0 && rv.dots === rv.listed && rv.marked === rv.listed,
          `[${tag}] ${rv.listed} mistakes listed, marked in the graph and the move list`);
    await page.click("#mistakes li.mistake");
    check(await page.evaluate(() => !!document.querySelector("#board .arrow.better") && !!document.querySelector("#board .arrow.played")),
          `[${tag}] a mistake shows the played and the better move as arrows (a pass as a ring)`);
    const before = await page.evaluate(() => at);
    await page.keyboard.press("ArrowRight");
    check(await page.evaluate((b) => at === b + 1, before), `[${tag}] the right arrow key steps forward`);
    if (run.phone) await fits(page, `${tag} review`);
    await page.screenshot({ path: path.join(outDir, `players-${tag}-3-review.png`), fullPage: true });

    // The leaderboard and the history.
    await page.goto(server.url + "leaderboard.html", { waitUntil: "networkidle0" });
    const row = await page.$$eval("#leaderboard tbody tr", (rows, n) => rows.map((r) => [...r.cells].map((c) => c.textContent))
      .find((c) => c[1] === n), run.player);
    check(row && row[2] === "10", `[${tag}] the leaderboard shows ${run.player} with 10 points`);
    await page.click("#history-link");
    await page.waitForFunction(() => document.querySelectorAll("#history tbody tr").length >= 1);
    const hist = await page.$$eval("#history tbody tr", (rows) => rows.map((r) => r.cells[4].textContent));
    check(hist.length === 1 && hist[0] === "+10", `[${tag}] the history lists the game with +10`);
    if (run.phone) await fits(page, `${tag} history`);
    await page.screenshot({ path: path.join(outDir, `players-${tag}-4-history.png`), fullPage: true });

    // Walking away from a ranked game (a new game instead) counts as a loss.
    await page.goto(server.url, { waitUntil: "load" });
    await page.waitForFunction(() => document.querySelectorAll("#level option").length >= 3);
    await page.evaluate(() => window.jzAccountReady.then(() => null));
    await page.select("#level", "easy");
    await page.$eval("#ranked", (c) => { c.checked = true; });
    await page.click("#new-game");
    await page.waitForFunction(() => state && state.ply === 0 && state.rank.ranked && !state.result.over);
    await pressSquare(page, "c4", run.phone);
    await pressSquare(page, "c5", run.phone);
    await page.waitForFunction(() => state.ply === 2 && !busy);
    if (run.phone) await page.evaluate(() => document.querySelector("#show-setup").click());
    await page.click("#new-game");
    await page.waitForFunction(() => state && state.ply === 0);
    const games = await page.evaluate((n) => fetch("/api/games?order=newest&player=" + encodeURIComponent(n)).then((r) => r.json()), run.player);
    check(games.games.length === 2 && games.games[0].result === "loss",
          `[${tag}] the abandoned ranked game is recorded as a loss (${games.games.map((g) => g.result).join(", ")})`);
    // Rule options are for unranked games; the simplified rules are janggicasual with facing-draw.
    if (!run.phone) {
      await page.$eval("#ranked", (c) => { c.checked = true; c.dispatchEvent(new Event("change")); });
      check(await page.$$eval("#rule-options input", (cs) => cs.length === 4 && cs.every((c) => c.disabled)),
            `[${tag}] rule options are off for a ranked game`);
      await page.$eval("#ranked", (c) => { c.checked = false; c.dispatchEvent(new Event("change")); });
      await page.select("#rules", "simplified");
      await page.click('#rule-options input[value="soldier-promotion"]');
      await page.click("#new-game");
      await page.waitForFunction(() => state && state.ply === 0 && state.rules === "janggicasual");
      const ro = await page.evaluate(() => state.rule_options);
      check(ro === "soldier-promotion,facing-draw", `[${tag}] simplified rules with soldier promotion: ${ro}`);
    }
    await ctx.close();
  }
  check(errors.length === 0, "no console errors" + (errors.length ? ": " + errors.slice(0, 5).join(" | ") : ""));
} catch (e) {
  check(false, "the scenario ran: " + e.stack);
} finally {
  engine.quit();
  await browser.close();
  server.proc.kill();
  fs.writeFileSync(path.join(outDir, "players-report.json"), JSON.stringify(report, null, 2));
  console.log(JSON.stringify(report));
}
finish("players_test");
