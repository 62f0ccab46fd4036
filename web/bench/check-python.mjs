// Times the JS API's `check()` of a correct Python reconcile (bench/learner-reconcile.py)
// in headless Debian Chromium on the release build: Python (Pyodide) in the sandbox's
// opaque-origin worker, as a course page or the playground runs it.
//   - cold start: from `check()` called to the first case answered, in a fresh browser
//     context (nothing cached: the page fetches Pyodide's files, hands them to the frame,
//     which starts Python); and again on a new page of the same context (files from the
//     HTTP cache, if the server let it keep them). Budget: 5 s.
//   - a check of 1,000 cases once Python is running. Budget: 2 s.
// Usage: node bench/check-python.mjs [runs]   (serves ../dist itself, or $DIST; prints JSON)
import { readFileSync } from "node:fs";
import { serveAndLaunch, summarize } from "./lib.mjs";

const runs = Number(process.argv[2] ?? 5);
const warmUp = 1;
const cases = 1000;
const budget = { coldStartMs: 5000, checkMs: 2000 };
const source = readFileSync(new URL("./learner-reconcile.py", import.meta.url), "utf8");

/**
 * In the page: check() with a sandbox whose `run` is watched, so the time to the first
 * answered case is known (check() itself only resolves when all cases are done).
 */
async function coldStart(source) {
  const { Sandbox } = await import("/sandbox-host.js");
  const run = Sandbox.prototype.run;
  const started = performance.now();
  let firstAnswerMs = null;
  Sandbox.prototype.run = async function (...args) {
    const outcome = await run.apply(this, args);
    if (firstAnswerMs === null && outcome.results.length > 0) firstAnswerMs = performance.now() - started;
    return outcome;
  };
  try {
    const api = await import("/pkg/reconcile.js");
    const result = await api.check(source, { language: "python", cases: 500 });
    const fetched = performance.getEntriesByType("resource").filter((e) => e.name.includes("/pyodide/"));
    return {
      firstAnswerMs,
      wholeCheckMs: performance.now() - started,
      passed: result.passed,
      pyodideBytesFetched: fetched.reduce((sum, e) => sum + (e.transferSize || 0), 0),
    };
  } finally {
    Sandbox.prototype.run = run;
  }
}

async function warmChecks({ source, runs, warmUp, cases }) {
  const api = await import("/pkg/reconcile.js");
  let last;
  for (let i = 0; i < warmUp; i++) last = await api.check(source, { language: "python", cases });
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    last = await api.check(source, { language: "python", cases });
    samples.push(performance.now() - start);
  }
  return { samples, passed: last.passed, total: last.total };
}

const site = await serveAndLaunch(4179);
let cold;
let cached;
let warm;
try {
  const context = await site.browser.newContext();
  const first = await context.newPage();
  await first.goto(`${site.url}/`);
  cold = await first.evaluate(coldStart, source);
  warm = await first.evaluate(warmChecks, { source, runs, warmUp, cases });
  await first.close();
  const second = await context.newPage();
  await second.goto(`${site.url}/`);
  cached = await second.evaluate(coldStart, source);
  await context.close();
} finally {
  await site.close();
}
const round = (ms) => Math.round(ms);
const timing = summarize(warm.samples);
console.log(
  JSON.stringify({
    case: "a correct Python reconcile (Pyodide), 1,000 generated cases",
    coldStart: { firstAnswerMs: round(cold.firstAnswerMs), wholeCheckOf500Ms: round(cold.wholeCheckMs), pyodideBytesFetched: cold.pyodideBytesFetched, passed: cold.passed },
    coldStartNewPage: { firstAnswerMs: round(cached.firstAnswerMs), pyodideBytesFetched: cached.pyodideBytesFetched, passed: cached.passed },
    runs,
    warmUp,
    passed: warm.passed,
    total: warm.total,
    checkMs: timing,
    budget,
    withinBudget: warm.passed && warm.total === cases && timing.median <= budget.checkMs && cold.firstAnswerMs <= budget.coldStartMs,
  }),
);
