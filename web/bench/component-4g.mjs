// Measures a course page that uses the component (issue 33): from the host page's
// navigation start to the first action list inside the component's frame, in a fresh
// browser context (nothing cached, no service worker) under Chromium's emulated 4G
// (9 Mbps, 170 ms), gzip as a host serving precompressed files sends it. The host page
// (web/e2e/pages/component-host.html: one script tag, one element), the component and the
// frame all come from the playground's origin. Budget: 800 ms.
// Also what was downloaded by then (Resource Timing, host page and frame): the requests
// finished before the mark, their bytes as sent (compressed, with headers), and the
// longest chain of requests one after another (each one's start after the last's end).
// Usage: node bench/component-4g.mjs [runs]   (serves ../dist or $DIST itself; prints JSON)
import { PROFILES, serveAndLaunch, summarize } from "./lib.mjs";

const runs = Number(process.argv[2] ?? 7);
const budgetMs = 800;

/** The finished requests of this document (its navigation and resources), on the epoch's clock.
 *  A frame's document is the frame's own navigation entry, not its parent's resource entry. */
function requests() {
  const resources = performance.getEntriesByType("resource").filter((entry) => entry.initiatorType !== "iframe");
  return [...performance.getEntriesByType("navigation"), ...resources].map((entry) => ({
    start: performance.timeOrigin + entry.startTime,
    end: performance.timeOrigin + entry.responseEnd,
    bytes: entry.transferSize,
  }));
}

/** The requests done before `at`, their bytes and their longest chain one after another. */
function before(all, at) {
  const done = all.filter((r) => r.end > 0 && r.end <= at).sort((a, b) => a.end - b.end);
  const chain = new Map();
  for (const r of done) chain.set(r, 1 + Math.max(0, ...done.filter((p) => p.end <= r.start).map((p) => chain.get(p))));
  return { requests: done.length, bytes: done.reduce((sum, r) => sum + r.bytes, 0), chain: Math.max(0, ...chain.values()) };
}

/** One cold visit of the host page: ms from its navigation start to the frame's first action list, and what came before. */
async function visit(browser, url) {
  const context = await browser.newContext({ serviceWorkers: "block" });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
    await cdp.send("Network.setExtraHTTPHeaders", { headers: { "Accept-Encoding": "gzip, deflate" } });
    await cdp.send("Network.emulateNetworkConditions", PROFILES["4g"]);
    await page.goto(`${url}/__e2e/component-host.html`);
    const frame = page.frameLocator("reconcile-playground iframe");
    await frame.getByRole("list", { name: "Actions" }).locator(":scope > li").first().waitFor({ timeout: 60_000 });
    const hostOrigin = await page.evaluate(() => performance.timeOrigin);
    const inFrame = await frame.locator("body").evaluate(() => ({
      origin: performance.timeOrigin,
      mark: performance.getEntriesByName("first-action-list")[0]?.startTime ?? null,
    }));
    if (inFrame.mark === null) throw new Error("the frame made no first-action-list mark");
    const at = inFrame.origin + inFrame.mark;
    const all = [...(await page.evaluate(requests)), ...(await frame.locator("body").evaluate(requests))];
    return { ms: at - hostOrigin, ...before(all, at) };
  } finally {
    await context.close();
  }
}

const site = await serveAndLaunch(Number(process.env.PORT ?? 4180), undefined, { gzip: true });
let samples;
try {
  await visit(site.browser, site.url); // untimed: the server reads each file's copy once
  samples = [];
  for (let i = 0; i < runs; i++) samples.push(await visit(site.browser, site.url));
} finally {
  await site.close();
}
const timing = summarize(samples.map((sample) => sample.ms));
const last = samples[samples.length - 1];
console.log(JSON.stringify({
  case: "a course page with <reconcile-playground>, cold, emulated 4G, gzip",
  runs,
  firstActionListMs: timing,
  requestsBeforeMark: last.requests,
  chainBeforeMark: last.chain,
  bytesBeforeMark: last.bytes,
  budgetMs,
  withinBudget: timing.median <= budgetMs,
}));
