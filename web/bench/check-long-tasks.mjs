// Longest main-thread task while "Your reconcile" checks a correct reconcile,
// in headless Debian Chromium on the release build: the path a learner takes
// (type the code, press Check, read the verdict). Python includes Pyodide's
// first start in a fresh browser. Budget: no task over 200 ms.
// With a controller exercise's name, its reference (in that language) is
// checked through the pane with checkController's default 1,000 schedules;
// `checkMs`, the time to the result, has a budget too (issue 30: 10 s in
// JavaScript, 20 s in Python). With a number of runs, each run is a fresh
// page in a fresh browser context: `checkMs` is their median, the longest
// task the longest of all.
// Usage: node bench/check-long-tasks.mjs [javascript|python] [exercise] [runs]
//   (serves ../dist itself; prints JSON)
import { readFileSync } from "node:fs";
import { serveAndLaunch } from "./lib.mjs";
import { RIGHT_RECONCILE } from "./learner-reconcile.mjs";

const language = process.argv[2] ?? "javascript";
const exercise = process.argv[3] ?? "reconcile";
const runs = Number(process.argv[4] ?? 1);
const budgetMs = 200;
const controllerFile = (extension) =>
  readFileSync(new URL(`../../crates/reconcile-content/exercises/controllers/${exercise}/reference.${extension}`, import.meta.url), "utf8");
const sources = exercise === "reconcile"
  ? {
    javascript: () => RIGHT_RECONCILE,
    python: () => readFileSync(new URL("./learner-reconcile.py", import.meta.url), "utf8"),
  }
  : { javascript: () => controllerFile("mjs"), python: () => controllerFile("py") };
const checkBudgetMs = exercise === "reconcile" ? null : language === "python" ? 20000 : 10000;
/** One check from a fresh page: its time to the verdict, the verdict, and the long tasks. */
async function checkOnce(site) {
  const context = await site.browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(`${site.url}/?exercise=${exercise}&lang=${language}`);
    const code = page.getByRole("textbox", { name: /^Your reconcile, in / });
    await code.fill(sources[language]());
    await page.evaluate(() => {
      window.longTasks = [];
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) window.longTasks.push(entry.duration);
      }).observe({ type: "longtask", buffered: false });
    });
    const started = Date.now();
    await page.getByRole("button", { name: "Check", exact: true }).click();
    await page.waitForFunction(
      () => document.querySelector(".check-status .verdict") !== null,
      null,
      { polling: 250, timeout: 120_000 },
    );
    const elapsed = Date.now() - started;
    const verdict = await page.locator(".check-status").textContent();
    const tasks = await page.evaluate(() => window.longTasks);
    return { elapsed, verdict, tasks };
  } finally {
    await context.close();
  }
}

const site = await serveAndLaunch(4179);
try {
  const results = [];
  for (let i = 0; i < runs; i++) results.push(await checkOnce(site));
  const times = results.map((r) => r.elapsed).sort((a, b) => a - b);
  const elapsed = times[Math.floor(times.length / 2)];
  const tasks = results.flatMap((r) => r.tasks);
  const max = tasks.length ? Math.max(...tasks) : 0;
  const verdict = results.find((r) => !r.verdict.startsWith("Passed"))?.verdict ?? results[0].verdict;
  console.log(JSON.stringify({
    language,
    exercise,
    verdict,
    checkMs: elapsed,
    checkRunsMs: times,
    checkBudgetMs,
    longTasks: tasks.length,
    maxLongTaskMs: Math.round(max),
    budgetMs,
    withinBudget: verdict.startsWith("Passed") && max <= budgetMs && (checkBudgetMs === null || elapsed <= checkBudgetMs),
  }));
} catch (error) {
  console.log(JSON.stringify({ language, exercise, error: String(error.message).split("\n")[0] }));
  process.exitCode = 1;
} finally {
  await site.close();
}
