// Times the JS API's `check()` of a correct JavaScript reconcile on 1,000
// generated cases, in headless Debian Chromium on the release build: the
// checker module and the sandbox (an opaque-origin frame's worker), as a
// course page or the playground runs them. Budget: 300 ms for the check.
// Usage: node bench/check.mjs [runs]   (serves ../dist itself, or $DIST; prints JSON)
import { serveAndLaunch, summarize } from "./lib.mjs";
import { RIGHT_RECONCILE } from "./learner-reconcile.mjs";

const runs = Number(process.argv[2] ?? 7);
const warmUp = 2;
const budgetMs = 300;
const cases = 1000;
const site = await serveAndLaunch(4178);
let result;
try {
  const page = await site.browser.newPage();
  await page.goto(`${site.url}/`);
  result = await page.evaluate(async ({ runs, warmUp, cases, source }) => {
    const api = await import("/pkg/reconcile.js");
    let last;
    for (let i = 0; i < warmUp; i++) last = await api.check(source, { cases });
    const samples = [];
    for (let i = 0; i < runs; i++) {
      const start = performance.now();
      last = await api.check(source, { cases });
      samples.push(performance.now() - start);
    }
    return { samples, passed: last.passed, total: last.total };
  }, { runs, warmUp, cases, source: RIGHT_RECONCILE });
} finally {
  await site.close();
}
const timing = summarize(result.samples);
console.log(JSON.stringify({
  case: "a correct JavaScript reconcile, 1,000 generated cases",
  runs,
  warmUp,
  passed: result.passed,
  total: result.total,
  checkMs: timing,
  budgetMs,
  withinBudget: result.passed && result.total === cases && timing.median <= budgetMs,
}));
