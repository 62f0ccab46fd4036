// The engines Playwright cannot drive here, Debian's Firefox ESR and WebKitGTK's
// MiniBrowser (driver.mjs), each running two suites: the main flows (flows.mjs) and the
// sandbox's checks (checks.mjs; Chromium runs those in e2e/sandbox.spec.mjs, and its own
// flows in the Playwright specs); then "Your reconcile" checked with the server stopped. How the sandbox works: web/static/sandbox/README.md.
//
//   node e2e/engines/run.mjs [firefox] [webkit]     (from web/; DIST and PORT as for Playwright)
//
// ENGINE_REPORTS=1 prints what each sandbox scenario reported; ENGINE_TESTS=a,b runs only
// those flows and checks. Serves DIST (default ../dist) itself, prints one line per test
// and closes with Playwright-style counts ("N passed (Xs)", "N failed", "N flaky", "N skipped"),
// which `cargo xtask test` adds to its totals. Exits 1 if any test failed. A time cap
// (ENGINE_TIME_CAP_S, default 600 s) fails the run rather than letting CI hang.
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { checks, PLAYGROUND_PATH } from "./checks.mjs";
import { firefox, missing, processes, webkit } from "./driver.mjs";
import { flows } from "./flows.mjs";
import { listening } from "./listening.mjs";

const port = Number(process.env.PORT ?? 4176);
const dist = process.env.DIST ?? "../dist";
const base = `http://127.0.0.1:${port}`;
const engines = process.argv.slice(2).length ? process.argv.slice(2) : ["firefox", "webkit"];
const only = process.env.ENGINE_TESTS?.split(",");
const chosen = (names) => names.filter((name) => !only || only.includes(name));
const flowNames = chosen(Object.keys(flows));
const checkNames = chosen(Object.keys(checks));
const counts = { passed: 0, failed: 0, skipped: 0, flaky: 0 };
const started = Date.now();
const running = processes();
/** The site's server, stopped by the offline check and started again. */
let server;

/** Runs a test, and once more if it fails (as Playwright's `retries: 1`): passing then, it is counted flaky. */
async function attempt(label, body) {
  for (const retry of [false, true]) {
    const t = Date.now();
    try {
      await body();
      if (retry) counts.flaky++;
      else counts.passed++;
      console.log(`  ${retry ? "flaky" : "ok   "} ${label} (${Date.now() - t} ms)`);
      return;
    } catch (error) {
      const verdict = retry ? "FAIL " : "fail ";
      if (retry) counts.failed++;
      console.log(`  ${verdict} ${label} (${Date.now() - t} ms)${retry ? "" : ", retrying"}\n        ${String(error.message).split("\n").join("\n        ")}`);
    }
  }
}

const scenario = (name) => import("/__e2e/sandbox-scenarios.mjs").then((m) => m[name]());

// The checks whose learner's code the sandbox stops while it runs (worker.terminate()).
// Firefox ESR 140.10 reports that stop as the page error "uncaught exception: undefined"
// (seen from "runaway" when another run came before it); nothing on the page throws it.
const STOPS_A_RUNNING_WORKER = new Set(["runaway", "runLimit", "pythonStartLimit", "pythonMemory", "pythonRunaway"]);
const WORKER_STOPPED = "page error: uncaught exception: undefined";

async function runEngine(engine) {
  const why = missing(engine);
  if (why) {
    counts.skipped += flowNames.length + checkNames.length;
    console.log(`  skip  ${engine} › ${flowNames.length + checkNames.length} tests: ${why}`);
    return;
  }
  // Each WebKit session gets a driver on a port of its own (they stop with the run).
  let drivers = 0;
  const open = () => (engine === "firefox" ? firefox(base) : webkit(base, port + ++drivers, running.start));
  const driver = await open();
  try {
    for (const name of flowNames) await attempt(`${engine} › flows › ${name}`, () => flows[name](driver));
    // Before the sandbox's checks and their memory-heavy Python runs. In a browser of its
    // own, as Playwright gives each test: after the flows' pages and workers, WebKitGTK
    // stalls a check ~50 s at times, and then may lose the site's cache storage.
    if (!only || only.includes("offline")) {
      await attempt(`${engine} › offline › your reconcile checks with no server`, async () => {
        const own = await open();
        try {
          await checkOffline(own);
        } finally {
          driver.problems.push(...own.problems);
          await own.close();
        }
      });
    }
    if (checkNames.length) {
      await driver.goto(PLAYGROUND_PATH);
      await driver.waitFor(() => !!document.querySelector('textarea[aria-label="Desired state"]'));
      for (const name of checkNames) {
        await attempt(`${engine} › sandbox › ${name}`, async () => {
          const before = driver.problems.length;
          const report = await driver.evaluate(scenario, name);
          if (engine === "firefox" && STOPS_A_RUNNING_WORKER.has(name)) {
            // Waits for a late report of the stop, then lets exactly that message go.
            await new Promise((resolve) => setTimeout(resolve, 200));
            const added = driver.problems.splice(before);
            driver.problems.push(...added.filter((problem) => problem !== WORKER_STOPPED));
          }
          if (process.env.ENGINE_REPORTS) console.log(`  report ${engine} ${name}: ${JSON.stringify(report)}`);
          checks[name](report, engine);
        });
      }
    }
    // The storage and policy checks provoke CSP refusals on purpose (a fetch from the
    // sandbox, string eval on the page); any other page error fails. (WebDriver reports none.)
    if (engine === "firefox") {
      await attempt(`${engine} › no unexpected page errors`, async () => {
        const unexpected = driver.problems.filter((problem) => !/^page error: Content-Security-Policy: /.test(problem));
        if (unexpected.length) throw new Error(unexpected.join("\n"));
      });
    }
  } finally {
    await driver.close();
  }
}

/** Starts the site's server (again). */
async function serve() {
  server = running.start(process.execPath, [fileURLToPath(new URL("../serve.mjs", import.meta.url)), dist, String(port)]);
  await listening(port);
}

/**
 * "Your reconcile" checked once online, then again with the server stopped (issue 28):
 * the sandbox's page comes from the playground's worker, sandboxed by its CSP header,
 * since no engine lets a worker answer a frame with the `sandbox` attribute.
 */
async function checkOffline(d) {
  const check = () => {
    const button = [...document.querySelectorAll(".exercise-pane button")].find((b) => b.textContent.trim() === "Check");
    button?.click();
    return Boolean(button);
  };
  const status = () => document.querySelector(".exercise-pane .check-status")?.textContent ?? "";
  const checked = async (where) => {
    await d.waitFor(check, [], { what: "the pane's Check button" }).catch(async (error) => {
      // A navigation the worker could not answer shows the engine's error page here.
      const page = await d.evaluate(() => `${location.href}: ${document.body?.innerText.slice(0, 200)}`).catch(() => "unreadable");
      throw new Error(`${error.message}; the page was ${JSON.stringify(page)}`);
    });
    // The starter returns nothing, so the check fails at its first case. WebKitGTK at
    // times stalls such a check for about 50 s, online or not, its page unresponsive
    // (in about a third of the runs here); 120 s lets that pass, and fails a lost check.
    const failed = () => (document.querySelector(".exercise-pane .check-status")?.textContent ?? "").startsWith("Failed");
    try {
      const t = Date.now();
      await d.waitFor(failed, [], { timeout: 120000, what: `a check's result ${where}` });
      if (process.env.ENGINE_REPORTS) console.log(`  report checked ${where} in ${Date.now() - t} ms`);
    } catch (error) {
      const frame = await d.evaluate(() => document.querySelector('iframe[title="Sandbox for your code"]')?.getAttribute("src") ?? null);
      throw new Error(`${error.message}; the status read ${JSON.stringify(await d.evaluate(status))}, the sandbox frame ${JSON.stringify(frame)}`);
    }
  };
  const t = Date.now();
  await d.goto("/?exercise=reconcile&lang=javascript");
  await d.waitFor(() => navigator.serviceWorker?.controller !== null, [], { what: "the worker serving the page" });
  if (process.env.ENGINE_REPORTS) console.log(`  report the worker served the page after ${Date.now() - t} ms`);
  await checked("online");
  process.kill(-server.pid, "SIGTERM");
  await new Promise((resolve) => server.once("exit", resolve));
  try {
    await d.goto("/?exercise=reconcile&lang=javascript");
    await checked("with the server stopped");
    const frame = await d.evaluate(() => document.querySelector('iframe[title="Sandbox for your code"]')?.getAttribute("src"));
    assert.match(String(frame), /\/sandbox-sw\.html$/);
  } finally {
    await serve();
  }
}

const capSeconds = Number(process.env.ENGINE_TIME_CAP_S ?? 600);
const cap = setTimeout(() => {
  console.log(`  FAIL  the engines' suites ran past their ${capSeconds} s cap`);
  running.stopAll();
  process.exit(1);
}, capSeconds * 1000);
try {
  await serve();
  for (const engine of engines) {
    try {
      if (engine !== "firefox" && engine !== "webkit") throw new Error(`unknown engine ${engine} (firefox, webkit)`);
      await runEngine(engine);
    } catch (error) {
      counts.failed++;
      console.log(`  FAIL  ${engine} › could not run: ${error.stack ?? error}`);
    }
  }
} finally {
  clearTimeout(cap);
  running.stopAll();
}
console.log("");
console.log(`  ${counts.passed} passed (${((Date.now() - started) / 1000).toFixed(1)}s)`);
if (counts.failed) console.log(`  ${counts.failed} failed`);
if (counts.flaky) console.log(`  ${counts.flaky} flaky`);
if (counts.skipped) console.log(`  ${counts.skipped} skipped`);
process.exit(counts.failed ? 1 : 0);
