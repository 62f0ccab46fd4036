// The sandbox checks (checks.mjs) in the two engines Playwright cannot drive here:
// Debian's Firefox ESR over WebDriver BiDi (puppeteer-core) and WebKitGTK's MiniBrowser
// over WebDriver (selenium-webdriver + WebKitWebDriver under xvfb-run). Chromium runs
// the same checks in e2e/sandbox.spec.mjs. How the sandbox works: web/static/sandbox/README.md.
//
//   node e2e/engines/sandbox.mjs [firefox] [webkit]     (from web/; DIST and PORT as for Playwright)
//
// SANDBOX_REPORTS=1 prints what each scenario reported; SANDBOX_CHECKS=a,b runs only those.
//
// Serves DIST (default ../dist) itself, prints one line per check and closes with
// Playwright-style counts ("N passed (Xs)", "N failed", "N skipped"), which
// `cargo xtask test` adds to its totals. Exits 1 if any check failed.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { checks, PLAYGROUND_PATH } from "./checks.mjs";
import { listening } from "./listening.mjs";

const FIREFOX = "/usr/bin/firefox-esr";
const WEBKIT_DRIVER = "/usr/bin/WebKitWebDriver";
const MINIBROWSER = "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser";
const XVFB_RUN = "/usr/bin/xvfb-run";

const port = Number(process.env.PORT ?? 4176);
const dist = process.env.DIST ?? "../dist";
const base = `http://127.0.0.1:${port}`;
const engines = process.argv.slice(2).length ? process.argv.slice(2) : ["firefox", "webkit"];
// SANDBOX_CHECKS=python,pythonRunaway runs only those checks.
const only = process.env.SANDBOX_CHECKS?.split(",");
const names = Object.keys(checks).filter((name) => !only || only.includes(name));
const counts = { passed: 0, failed: 0, skipped: 0 };
const started = Date.now();
const children = [];

/** Starts a process in its own group, so that it and its children can be stopped together. */
function start(command, args, options = {}) {
  const child = spawn(command, args, { stdio: ["ignore", "ignore", "inherit"], detached: true, ...options });
  children.push(child);
  return child;
}

function stopAll() {
  for (const child of children) {
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {}
  }
}

/** Runs every scenario through `evaluate(name)` and checks its report. */
async function runChecks(engine, evaluate) {
  for (const name of names) {
    const t = Date.now();
    try {
      const report = await evaluate(name);
      if (process.env.SANDBOX_REPORTS) console.log(`  report ${engine} ${name}: ${JSON.stringify(report)}`);
      checks[name](report);
      counts.passed++;
      console.log(`  ok    ${engine} › sandbox › ${name} (${Date.now() - t} ms)`);
    } catch (error) {
      counts.failed++;
      console.log(`  FAIL  ${engine} › sandbox › ${name} (${Date.now() - t} ms)\n        ${String(error.message).split("\n").join("\n        ")}`);
    }
  }
}

function skip(engine, why) {
  counts.skipped += names.length;
  console.log(`  skip  ${engine} › sandbox › ${names.length} checks: ${why}`);
}

const scenario = (name) => import("/__e2e/sandbox-scenarios.mjs").then((m) => m[name]());

async function firefox() {
  if (!existsSync(FIREFOX)) return skip("firefox", `${FIREFOX} is missing (apt-get install firefox-esr)`);
  const { default: puppeteer } = await import("puppeteer-core");
  const browser = await puppeteer.launch({ browser: "firefox", executablePath: FIREFOX, headless: true });
  try {
    const page = await browser.newPage();
    const problems = [];
    page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
    await page.goto(`${base}${PLAYGROUND_PATH}`);
    await page.waitForSelector('textarea[aria-label="Desired state"]');
    await runChecks("firefox", (name) => page.evaluate(scenario, name));
    // The storage and policy checks provoke CSP refusals on purpose (a fetch from the
    // sandbox, string eval on the page); any other page error fails.
    const unexpected = problems.filter((problem) => !/^page error: Content-Security-Policy: /.test(problem));
    if (unexpected.length) {
      counts.failed++;
      console.log(`  FAIL  firefox › sandbox › no unexpected page errors\n        ${unexpected.join("\n        ")}`);
    } else {
      counts.passed++;
      console.log(`  ok    firefox › sandbox › no unexpected page errors (${problems.length} expected CSP ${problems.length === 1 ? "refusal" : "refusals"})`);
    }
  } finally {
    await browser.close();
  }
}

async function webkit() {
  for (const needed of [WEBKIT_DRIVER, MINIBROWSER, XVFB_RUN]) {
    if (!existsSync(needed)) return skip("webkit", `${needed} is missing (apt-get install webkit2gtk-driver xvfb)`);
  }
  const { Builder } = await import("selenium-webdriver");
  const driverPort = port + 1;
  start(XVFB_RUN, ["-a", WEBKIT_DRIVER, `--port=${driverPort}`]);
  await listening(driverPort);
  const driver = await new Builder()
    .usingServer(`http://127.0.0.1:${driverPort}`)
    .withCapabilities({
      browserName: "MiniBrowser",
      "webkitgtk:browserOptions": { binary: MINIBROWSER, args: ["--automation"] },
    })
    .build();
  try {
    await driver.manage().setTimeouts({ script: 120000, pageLoad: 30000 });
    await driver.get(`${base}${PLAYGROUND_PATH}`);
    await driver.wait(async () => driver.executeScript('return !!document.querySelector(\'textarea[aria-label="Desired state"]\')'), 20000);
    await runChecks("webkit", async (name) => {
      const outcome = await driver.executeAsyncScript(
        `const done = arguments[arguments.length - 1];
         import("/__e2e/sandbox-scenarios.mjs").then((m) => m[arguments[0]]())
           .then((report) => done({ report }), (error) => done({ error: String(error && error.stack || error) }));`,
        name,
      );
      if (outcome.error) throw new Error(outcome.error);
      return outcome.report;
    });
  } finally {
    await driver.quit().catch(() => {});
  }
}

let exitCode = 0;
try {
  const server = start(process.execPath, [fileURLToPath(new URL("../serve.mjs", import.meta.url)), dist, String(port)]);
  void server;
  await listening(port);
  for (const engine of engines) {
    try {
      if (engine === "firefox") await firefox();
      else if (engine === "webkit") await webkit();
      else throw new Error(`unknown engine ${engine} (firefox, webkit)`);
    } catch (error) {
      counts.failed++;
      console.log(`  FAIL  ${engine} › could not run: ${error.stack ?? error}`);
    }
  }
} finally {
  stopAll();
}
console.log("");
console.log(`  ${counts.passed} passed (${((Date.now() - started) / 1000).toFixed(1)}s)`);
if (counts.failed) console.log(`  ${counts.failed} failed`);
if (counts.skipped) console.log(`  ${counts.skipped} skipped`);
if (counts.failed) exitCode = 1;
process.exit(exitCode);
