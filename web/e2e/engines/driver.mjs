// A small driver adapter over the two engines Playwright cannot drive here, so that one
// flow spec (flows.mjs) and one set of sandbox checks (checks.mjs) run in both:
// Debian's Firefox ESR over WebDriver BiDi (puppeteer-core) and WebKitGTK's MiniBrowser
// over WebDriver (selenium-webdriver, WebKitWebDriver under xvfb-run). What the two do
// alike (run a function in the page) goes through `evaluate`; what a person does
// (click, type) goes through each engine's own input, where the engines differ.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { listening } from "./listening.mjs";

const FIREFOX = "/usr/bin/firefox-esr";
const WEBKIT_DRIVER = "/usr/bin/WebKitWebDriver";
const MINIBROWSER = "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser";
const XVFB_RUN = "/usr/bin/xvfb-run";

/** Marks the element `find` returns in the page, so a real click can target it by CSS. */
const MARK = "data-e2e-target";

/** What an engine needs that is missing (apt packages), or null. */
export function missing(engine) {
  const needed = engine === "firefox" ? [FIREFOX] : [WEBKIT_DRIVER, MINIBROWSER, XVFB_RUN];
  const absent = needed.find((path) => !existsSync(path));
  if (!absent) return null;
  const packages = engine === "firefox" ? "firefox-esr" : "webkit2gtk-driver xvfb";
  return `${absent} is missing (apt-get install ${packages})`;
}

/** The calls every flow and check uses, on top of an engine's own `evaluate`, `goto`, `typeKeys`,
 *  `clickSelector`, and, for a frame on the page, `evaluateInFrame`, `clickInFrame` and `pressKey`. */
function withCommonCalls(base, driver) {
  const engineGoto = driver.goto;
  const common = {
    base,
    /** Opens `path`, once the page open now has its simulation module: the page fetches it
     *  right after its first view, and leaving while it downloads cancels a request the
     *  service worker took, which Firefox reports as a page error with no address. A page
     *  that never fetches it (no valid documents) is left after 10 s. Then waits until the
     *  page has mounted over its prerendered plan (web/static/prerendered-plan.js): the plan
     *  shows before the editors exist. */
    async goto(path) {
      const settled = () =>
        !document.querySelector(".sim-pane") ||
        performance.getEntriesByType("resource").some((entry) => entry.name.includes("reconcile_simulation_ui_bg.wasm"));
      await common.waitFor(settled, [], { timeout: 10000 }).catch(() => {});
      const opened = await engineGoto(path);
      await common.waitFor(() => !document.getElementById("prerendered-plan"), [], { what: "the page mounted over its prerendered plan" });
      return opened;
    },
    /** Polls `fn(...args)` in the page until it returns something truthy; returns it. */
    async waitFor(fn, args = [], { timeout = 15000, what = fn.toString() } = {}) {
      const deadline = Date.now() + timeout;
      let last;
      for (;;) {
        last = await driver.evaluate(fn, ...args).catch((error) => `threw: ${error.message}`);
        if (last && !(typeof last === "string" && last.startsWith("threw: "))) return last;
        if (Date.now() > deadline) throw new Error(`timed out after ${timeout} ms waiting for ${what} (last: ${JSON.stringify(last)})`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    /** Scrolls `selector` into the middle of the view and waits until it stops moving: a
     *  scroll lays out what was off screen, which can shift it between the driver's
     *  reading of its place and its click, and the click lands elsewhere. */
    async scrollToAndSettle(selector) {
      await driver.evaluate((s) => document.querySelector(s)?.scrollIntoView({ block: "center" }), selector);
      let last = null;
      for (let i = 0; i < 50; i++) {
        const place = await driver.evaluate((s) => JSON.stringify(document.querySelector(s)?.getBoundingClientRect()), selector);
        if (place === last) return;
        last = place;
        await new Promise((resolve) => setTimeout(resolve, 150));
      }
    },
    /** The text of the first element matching `selector`, or null. */
    text(selector) {
      return driver.evaluate((s) => document.querySelector(s)?.textContent ?? null, selector);
    },
    /** Waits until `selector`'s text matches `expected` (a string: equal; a RegExp source: matches). */
    async waitForText(selector, expected, { timeout } = {}) {
      const pattern = expected instanceof RegExp ? expected.source : null;
      await common.waitFor(
        (s, want, source) => {
          const text = document.querySelector(s)?.textContent;
          return text != null && (source ? new RegExp(source).test(text) : text === want);
        },
        [selector, pattern ? null : expected, pattern],
        { timeout, what: `${selector} to read ${expected}` },
      );
    },
    /** Clicks the button whose text is `name`, with the engine's own pointer input. */
    async clickButton(name) {
      await common.waitFor(
        (label, mark) => {
          document.querySelectorAll(`[${mark}]`).forEach((e) => e.removeAttribute(mark));
          const button = [...document.querySelectorAll("button, summary")].find((b) => b.textContent.trim() === label && !b.disabled);
          button?.setAttribute(mark, "");
          return !!button;
        },
        [name, MARK],
        { what: `an enabled button "${name}"` },
      );
      await common.scrollToAndSettle(`[${MARK}]`);
      await driver.clickSelector(`[${MARK}]`);
    },
    /** Replaces an editor's text by typing it with the engine's keyboard, as a person would. */
    async typeInto(label, text) {
      await driver.typeKeys(`textarea[aria-label="${label}"]`, text);
    },
    /** The value of the editor labelled `label`. */
    editorValue(label) {
      return driver.evaluate((l) => document.querySelector(`textarea[aria-label="${l}"]`)?.value ?? null, label);
    },
    /** Chooses an option by its text in the select labelled `label` (a change event, as a choice sends). */
    async selectOption(label, option) {
      const chosen = await driver.evaluate(
        (l, o) => {
          const select = [...document.querySelectorAll("select")].find((s) => s.labels?.[0]?.textContent.trim().startsWith(l) || s.getAttribute("aria-label") === l);
          const item = select && [...select.options].find((x) => x.textContent.trim() === o);
          if (!item) return false;
          select.value = item.value;
          select.dispatchEvent(new Event("change", { bubbles: true }));
          return true;
        },
        label,
        option,
      );
      if (!chosen) throw new Error(`no option "${option}" in the select labelled "${label}"`);
    },
  };
  return Object.assign(driver, common);
}

/** Firefox ESR over WebDriver BiDi. */
export async function firefox(base) {
  const { default: puppeteer } = await import("puppeteer-core");
  const browser = await puppeteer.launch({ browser: "firefox", executablePath: FIREFOX, headless: true });
  const page = await browser.newPage();
  const problems = [];
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  /** The document of the frame `selector` finds, another origin's maybe. */
  const frameOf = async (selector) => (await page.waitForSelector(selector)).contentFrame();
  return withCommonCalls(base, {
    engine: "firefox",
    problems,
    goto: (path) => page.goto(new URL(path, base).href),
    evaluate: (fn, ...args) => page.evaluate(fn, ...args),
    async typeKeys(selector, text) {
      await page.click(selector);
      await page.keyboard.down("Control");
      await page.keyboard.press("a");
      await page.keyboard.up("Control");
      await page.keyboard.press("Delete");
      await page.keyboard.type(text);
    },
    clickSelector: (selector) => page.click(selector),
    evaluateInFrame: async (frame, fn, ...args) => (await frameOf(frame)).evaluate(fn, ...args),
    clickInFrame: async (frame, selector) => (await frameOf(frame)).click(selector),
    pressKey: (key) => page.keyboard.press(key),
    close: () => browser.close(),
  });
}

/** WebKitGTK's MiniBrowser over WebDriver; `driverPort` is where WebKitWebDriver listens. */
export async function webkit(base, driverPort, start) {
  const { Builder, By, Key } = await import("selenium-webdriver");
  start(XVFB_RUN, ["-a", WEBKIT_DRIVER, `--port=${driverPort}`]);
  await listening(driverPort);
  const driver = await new Builder()
    .usingServer(`http://127.0.0.1:${driverPort}`)
    .withCapabilities({
      browserName: "MiniBrowser",
      "webkitgtk:browserOptions": { binary: MINIBROWSER, args: ["--automation"] },
    })
    .build();
  await driver.manage().setTimeouts({ script: 120000, pageLoad: 30000 });
  /** Runs `body` in the document of the frame `selector` finds, then in the page again. */
  const inFrame = async (selector, body) => {
    await driver.switchTo().frame(await driver.findElement(By.css(selector)));
    try {
      return await body();
    } finally {
      await driver.switchTo().defaultContent();
    }
  };
  const keys = { ArrowLeft: Key.ARROW_LEFT, ArrowRight: Key.ARROW_RIGHT, PageUp: Key.PAGE_UP, PageDown: Key.PAGE_DOWN };
  const webkitDriver = {
    engine: "webkit",
    problems: [],
    goto: (path) => driver.get(new URL(path, base).href),
    async evaluate(fn, ...args) {
      const outcome = await driver.executeAsyncScript(
        `const done = arguments[arguments.length - 1];
         const args = Array.prototype.slice.call(arguments, 0, -1);
         Promise.resolve()
           .then(() => (${fn}).apply(null, args))
           .then((value) => done({ value }), (error) => done({ error: String((error && error.stack) || error) }));`,
        ...args,
      );
      if (outcome.error) throw new Error(outcome.error);
      return outcome.value;
    },
    async typeKeys(selector, text) {
      const element = await driver.findElement(By.css(selector));
      await element.click();
      await element.sendKeys(Key.chord(Key.CONTROL, "a"), Key.DELETE);
      await element.sendKeys(text);
    },
    clickSelector: async (selector) => (await driver.findElement(By.css(selector))).click(),
    evaluateInFrame: (frame, fn, ...args) => inFrame(frame, () => webkitDriver.evaluate(fn, ...args)),
    clickInFrame: (frame, selector) => inFrame(frame, async () => (await driver.findElement(By.css(selector))).click()),
    pressKey: (key) => driver.actions().sendKeys(keys[key] ?? key).perform(),
    close: () => driver.quit().catch(() => {}),
  };
  return withCommonCalls(base, webkitDriver);
}

/** Starts a process in its own group, so that it and its children can be stopped together. */
export function processes() {
  const children = [];
  return {
    start(command, args, options = {}) {
      const child = spawn(command, args, { stdio: ["ignore", "ignore", "inherit"], detached: true, ...options });
      children.push(child);
      return child;
    },
    stopAll() {
      for (const child of children) {
        try {
          process.kill(-child.pid, "SIGTERM");
        } catch {}
      }
    },
  };
}
