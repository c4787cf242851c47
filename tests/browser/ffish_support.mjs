// What the ffish-based checks share (tests/browser/movegen_diff.mjs, scripts/xiangqi-reference-check.mjs):
// a small seeded PRNG and ffish loaded in node from this folder's node_modules.
import { createRequire } from "node:module";

// mulberry32: small, seeded, the same games on every machine.
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// ffish 0.7.10 reads its wasm from disk only while fetch is unset; it starts asynchronously, and its
// variant table (variants(), startingFen()) fills with the first board. Throws when it is not installed
// (`npm ci` in tests/browser).
export async function loadFfish() {
  delete globalThis.fetch;
  const ff = createRequire(import.meta.url)("ffish");
  if (!ff.calledRun) await new Promise((resolve) => { ff.onRuntimeInitialized = resolve; });
  new ff.Board().delete();
  return ff;
}
