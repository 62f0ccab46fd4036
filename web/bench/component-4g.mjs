// Measures a course page that uses the component (issue 33): from the host page's
// navigation start to the first action list inside the component's frame, in a fresh
// browser context (nothing cached, no service worker) under Chromium's emulated 4G
// (9 Mbps, 170 ms), gzip as a host serving precompressed files sends it. The host page
// (web/e2e/pages/component-host.html: one script tag, one element), the component and the
// frame all come from the playground's origin. Budget: 800 ms.
// Usage: node bench/component-4g.mjs [runs]   (serves ../dist or $DIST itself; prints JSON)
import { PROFILES, serveAndLaunch, summarize } from "./lib.mjs";

const runs = Number(process.argv[2] ?? 7);
const budgetMs = 800;

/** One cold visit of the host page: ms from its navigation start to the frame's first action list. */
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
    return inFrame.origin + inFrame.mark - hostOrigin;
  } finally {
    await context.close();
  }
}

const site = await serveAndLaunch(Number(process.env.PORT ?? 4180));
let samples;
try {
  await visit(site.browser, site.url); // untimed: the server reads each file's copy once
  samples = [];
  for (let i = 0; i < runs; i++) samples.push(await visit(site.browser, site.url));
} finally {
  await site.close();
}
const timing = summarize(samples);
console.log(JSON.stringify({
  case: "a course page with <reconcile-playground>, cold, emulated 4G, gzip",
  runs,
  firstActionListMs: timing,
  budgetMs,
  withinBudget: timing.median <= budgetMs,
}));
