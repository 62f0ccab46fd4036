// Times the JS API's `checkController(source)` of a correct JavaScript controller
// in headless Debian Chromium on the release build, from the page's view: the
// fault-free run and 1,000 fault schedules, run in the sandbox's worker next to
// the simulation, each process a fresh import of the learner's module, as a
// course page runs it. The first check (which also starts the sandbox and hands
// it the loop module) is a warm-up. Records main-thread long tasks (over 50 ms)
// meanwhile. Budgets (issue 30): 10 s for the check; no task over 200 ms.
// A `.py` controller file is checked as Python (20 s; each check starts Pyodide
// afresh in its worker, and that start counts here).
// Usage: node bench/check-controller.mjs [runs] [exercise] [controller file]
//   (serves ../dist itself, or $DIST; prints JSON)
import { readFileSync } from "node:fs";
import { serveAndLaunch, summarize } from "./lib.mjs";

const runs = Number(process.argv[2] ?? 3);
const exercise = process.argv[3] ?? "owned-configmap";
const file = process.argv[4] ?? `../../crates/reconcile-content/exercises/controllers/${exercise}/reference.mjs`;
const source = readFileSync(new URL(file, import.meta.url), "utf8");
const language = file.endsWith(".py") ? "python" : "javascript";
const budgetMs = language === "python" ? 20000 : 10000;
const taskBudgetMs = 200;
const schedules = 1000;
const site = await serveAndLaunch(4179);
let result;
try {
  const page = await site.browser.newPage();
  // A plain page of the site's origin: the sandbox frame makes its own policy.
  await page.route("**/bench-controller.html", (route) =>
    route.fulfill({ contentType: "text/html", body: "<!doctype html><title>bench</title>" }),
  );
  await page.goto(`${site.url}/bench-controller.html`);
  result = await page.evaluate(async ({ runs, exercise, source, schedules, language }) => {
    const { checkController } = await import("/pkg/reconcile.js");
    const longTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) longTasks.push(entry.duration);
    }).observe({ type: "longtask", buffered: false });
    const warmStart = performance.now();
    await checkController(source, { language, exercise, budget: 50 });
    const warmUpMs = performance.now() - warmStart;
    const samples = [];
    let last;
    for (let i = 0; i < runs; i++) {
      const start = performance.now();
      last = await checkController(source, { language, exercise, budget: schedules });
      samples.push(performance.now() - start);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    return { samples, passed: last.passed, explored: last.schedulesExplored, longTasks, warmUpMs };
  }, { runs, exercise, source, schedules, language });
} finally {
  await site.close();
}
const timing = summarize(result.samples);
const maxLongTaskMs = Math.max(0, ...result.longTasks);
console.log(JSON.stringify({
  case: `a correct ${language === "python" ? "Python" : "JavaScript"} controller (source, in the sandbox) of ${exercise}: the fault-free run and ${schedules} schedules`,
  runs,
  passed: result.passed,
  schedulesExplored: result.explored,
  firstCheckOf50Ms: Math.round(result.warmUpMs),
  checkControllerMs: timing,
  budgetMs,
  longTasks: result.longTasks.length,
  maxLongTaskMs,
  taskBudgetMs,
  withinBudget: result.passed && result.explored === schedules && timing.median <= budgetMs && maxLongTaskMs <= taskBudgetMs,
}));
