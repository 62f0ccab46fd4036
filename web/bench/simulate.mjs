// Times the simulation budget case in wasm, in headless Debian Chromium, on the release build:
// 1,000 desired pods, nothing observed, half of all actions failing, at most 1,000 passes
// (the run uses all of them). Budget: 100 ms for the whole run.
// It calls the JS API's `simulateVerdict`, which runs the same simulation as `simulate` but
// returns only `{ passes, verdict, verdictText }`, so no per-pass world crosses into JavaScript.
// Then the several-custom-resources case: custom-resources-100x10.json (100 custom resources,
// 10 desired objects each: 3 to create, 3 to update, 1 extra to delete) with 4 workers, to
// convergence, through the JS API's `simulate` (the whole timeline crosses). Budget: 200 ms.
// Usage: node bench/simulate.mjs [runs]   (serves ../dist itself, or $DIST; prints JSON)
import { readFileSync } from "node:fs";
import { serveAndLaunch, summarize } from "./lib.mjs";

const fleet = readFileSync(new URL("./custom-resources-100x10.json", import.meta.url), "utf8");
const fleetBudgetMs = 200;

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
  result = await page.evaluate(async ({ runs, warmUp, fleet }) => {
    const api = await import("/pkg/reconcile.js");
    await api.default();
    await api.loadSimulation();
    const desired = {};
    for (let i = 0; i < 1000; i++) {
      desired[`pod-${String(i).padStart(4, "0")}`] = { image: "app:2", replicas: 0 };
    }
    const scenario = { desired, observed: {} };
    // `call` after `warmUp` untimed calls, `runs` times: the times and the last result.
    const timed = async (call) => {
      let last;
      for (let i = 0; i < warmUp; i++) last = await call();
      const samples = [];
      for (let i = 0; i < runs; i++) {
        const start = performance.now();
        last = await call();
        samples.push(performance.now() - start);
      }
      return [samples, last];
    };
    const [samples, last] = await timed(() =>
      api.simulateVerdict(scenario, { failureRate: 0.5, maxPasses: 1000 }),
    );
    // Several custom resources, four workers, the whole timeline.
    const [fleetSamples, timeline] = await timed(() =>
      api.simulate(fleet, { workers: 4, maxPasses: 10000 }),
    );
    return {
      samples,
      passes: last.passes,
      verdictText: last.verdictText,
      fleetSamples,
      fleetPasses: timeline.passes.length,
      fleetVerdictText: timeline.verdictText,
    };
  }, { runs, warmUp, fleet });
} finally {
  await site.close();
}
const timing = summarize(result.samples);
const fleetTiming = summarize(result.fleetSamples);
console.log(JSON.stringify({
  case: "1000 desired pods, observed {}, failureRate 0.5, maxPasses 1000",
  runs,
  warmUp,
  passes: result.passes,
  verdictText: result.verdictText,
  simulateVerdictMs: timing,
  budgetMs,
  withinBudget: timing.median <= budgetMs,
  customResources: {
    case: "custom-resources-100x10.json, workers 4, simulate",
    passes: result.fleetPasses,
    verdictText: result.fleetVerdictText,
    customResourcesMs: fleetTiming,
    budgetMs: fleetBudgetMs,
    withinBudget: fleetTiming.median <= fleetBudgetMs,
  },
}));
