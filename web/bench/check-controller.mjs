// Times the JS API's `checkController()` of a correct JavaScript controller
// in headless Debian Chromium on the release build: the fault-free run and
// 1,000 fault schedules, each process a freshly imported module, as a course
// page runs it. Records main-thread long tasks (over 50 ms) meanwhile.
// Budgets (issue 30): 10 s for the check; no task over 200 ms.
// Usage: node bench/check-controller.mjs [runs] [exercise] [controller file]
//   (serves ../dist itself, or $DIST; prints JSON)
import { readFileSync } from "node:fs";
import { serveAndLaunch, summarize } from "./lib.mjs";

const runs = Number(process.argv[2] ?? 3);
const exercise = process.argv[3] ?? "owned-configmap";
const file = process.argv[4] ?? `../e2e/controllers/${exercise}.js`;
const source = readFileSync(new URL(file, import.meta.url), "utf8");
const budgetMs = 10000;
const taskBudgetMs = 200;
const schedules = 1000;
const site = await serveAndLaunch(4179);
let result;
try {
  const page = await site.browser.newPage();
  // A page of the site's origin without its CSP, so modules may come from Blobs.
  await page.route("**/bench-controller.html", (route) =>
    route.fulfill({ contentType: "text/html", body: "<!doctype html><title>bench</title>" }),
  );
  await page.goto(`${site.url}/bench-controller.html`);
  result = await page.evaluate(async ({ runs, exercise, source, schedules }) => {
    const api = new URL("/pkg/reconcile.js", location.href).href;
    const { checkController } = await import(api);
    const text = source.replace(/from "reconcile"/g, `from ${JSON.stringify(api)}`);
    const url = URL.createObjectURL(new Blob([text], { type: "text/javascript" }));
    let loads = 0;
    const load = async () => (await import(`${url}#${++loads}`)).reconcile;
    const longTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) longTasks.push(entry.duration);
    }).observe({ type: "longtask", buffered: false });
    await checkController(load, { exercise, budget: 50 });
    const samples = [];
    let last;
    for (let i = 0; i < runs; i++) {
      const start = performance.now();
      last = await checkController(load, { exercise, budget: schedules });
      samples.push(performance.now() - start);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    return { samples, passed: last.passed, explored: last.schedulesExplored, longTasks, loads };
  }, { runs, exercise, source, schedules });
} finally {
  await site.close();
}
const timing = summarize(result.samples);
const maxLongTaskMs = Math.max(0, ...result.longTasks);
console.log(JSON.stringify({
  case: `a correct JavaScript controller of ${exercise}: the fault-free run and ${schedules} schedules`,
  runs,
  passed: result.passed,
  schedulesExplored: result.explored,
  modulesLoaded: result.loads,
  checkControllerMs: timing,
  budgetMs,
  longTasks: result.longTasks.length,
  maxLongTaskMs,
  taskBudgetMs,
  withinBudget: result.passed && result.explored === schedules && timing.median <= budgetMs && maxLongTaskMs <= taskBudgetMs,
}));
