// Longest main-thread task while Play runs, in headless Debian Chromium on the release build.
// The scenario is generated: N pods on a flaky API (failure rate 50%), so the run has many passes.
// Usage: node bench/play-long-tasks.mjs [pods]   (serves ../dist itself; prints JSON)
import { serveAndLaunch } from "./lib.mjs";

const pods = Number(process.argv[2] ?? 200);
const port = 4178;
const site = await serveAndLaunch(port);
const { browser } = site;
try {
  const page = await browser.newPage();
  await page.goto(`${site.url}/?preset=flaky-api`);
  await page.getByRole("button", { name: "Step" }).waitFor();
  const desired = Object.fromEntries(
    Array.from({ length: pods }, (_, i) => [`pod-${String(i).padStart(4, "0")}`, { image: "app:2", replicas: i }]),
  );
  // Paste-like edit: set the value and send one input event. (Playwright's fill()
  // inserts multi-line text slowly even into a bare textarea, so it would measure itself.)
  await page.getByRole("textbox", { name: "Desired state", exact: true }).evaluate((area, text) => {
    area.value = text;
    area.dispatchEvent(new Event("input", { bubbles: true }));
  }, JSON.stringify(desired, null, 2));
  await page.getByText(`${pods} to create`).waitFor({ timeout: 30_000 });
  await page.evaluate(() => {
    window.longTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.longTasks.push(entry.duration);
    }).observe({ type: "longtask", buffered: false });
  });
  await page.getByLabel("Play speed").selectOption("8");
  const started = Date.now();
  await page.getByRole("button", { name: "Play" }).click();
  // Polled with the page's own querySelector, four times a second: Playwright's locator
  // engine walks the whole DOM on every poll, and with a thousand-row pass list those walks
  // showed up as long tasks of their own (over a second), which are not the page's.
  await page.waitForFunction(
    () => document.querySelector(".verdict.converged, .verdict.not-converging") !== null,
    null,
    { polling: 250, timeout: 120_000 },
  );
  const elapsed = Date.now() - started;
  const passes = await page.locator(".sim-progress").textContent();
  const tasks = await page.evaluate(() => window.longTasks);
  const max = tasks.length ? Math.max(...tasks) : 0;
  const worst = [...tasks].sort((a, b) => b - a).slice(0, 5).map(Math.round);
  console.log(JSON.stringify({ pods, progress: passes, playMs: elapsed, longTasks: tasks.length, maxLongTaskMs: Math.round(max), worstMs: worst }));
} catch (error) {
  // Keep failures short: Playwright errors can quote the whole filled document.
  console.log(JSON.stringify({ pods, error: String(error.message).split("\n")[0] }));
  process.exitCode = 1;
} finally {
  await site.close();
}
