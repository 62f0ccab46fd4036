// Times the simulation budget case in wasm, in headless Debian Chromium, on the release build:
// 1,000 desired pods, nothing observed, half of all actions failing, at most 1,000 passes
// (the run uses all of them). Budget: 100 ms for the whole run.
// It calls the JS API's `simulateVerdict`, which runs the same simulation as `simulate` but
// returns only `{ passes, verdict, verdictText }`, so no per-pass world crosses into JavaScript.
// Usage: node bench/simulate.mjs [runs]   (serves ../dist itself, or $DIST; prints JSON)
import { serveAndLaunch, summarize } from "./lib.mjs";

const runs = Number(process.argv[2] ?? 15);
const warmUp = 2;
const budgetMs = 100;
const port = 4177;
const site = await serveAndLaunch(port);
const { browser } = site;
let result;
try {
  const page = await browser.newPage();
  await page.goto(`${site.url}/`);
  result = await page.evaluate(async ({ runs, warmUp }) => {
    const api = await import("/pkg/reconcile.js");
    await api.default();
    await api.loadSimulation();
    const desired = {};
    for (let i = 0; i < 1000; i++) {
      desired[`pod-${String(i).padStart(4, "0")}`] = { image: "app:2", replicas: 0 };
    }
    const scenario = { desired, observed: {} };
    const options = { failureRate: 0.5, maxPasses: 1000 };
    let last;
    for (let i = 0; i < warmUp; i++) last = await api.simulateVerdict(scenario, options);
    const samples = [];
    for (let i = 0; i < runs; i++) {
      const start = performance.now();
      last = await api.simulateVerdict(scenario, options);
      samples.push(performance.now() - start);
    }
    return { samples, passes: last.passes, verdictText: last.verdictText };
  }, { runs, warmUp });
} finally {
  await site.close();
}
const timing = summarize(result.samples);
console.log(JSON.stringify({
  case: "1000 desired pods, observed {}, failureRate 0.5, maxPasses 1000",
  runs,
  warmUp,
  passes: result.passes,
  verdictText: result.verdictText,
  simulateVerdictMs: timing,
  budgetMs,
  withinBudget: timing.median <= budgetMs,
}));
