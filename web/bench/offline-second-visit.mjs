// Measures a second visit with no network: navigation → first action list, everything
// from the service worker's cache (sw.js; docs/offline.md). The first visit loads the
// release build from a static server that serves gzip, under Chromium's network
// emulation of 4G, and waits until the worker serves the page; then each run opens a
// new tab in that browser context, offline (Chromium's network emulation and the
// context's offline switch, which covers the worker too), and reads the page's
// `first-action-list` performance mark.
// Usage: node bench/offline-second-visit.mjs [runs]   (serves ../dist or $DIST itself; prints JSON)
import { serveAndLaunch, summarize } from "./lib.mjs";

const runs = Number(process.argv[2] ?? 15);
const FOUR_G = { offline: false, latency: 170, downloadThroughput: 9e6 / 8, uploadThroughput: 9e6 / 8 };
const OFFLINE = { offline: true, latency: 0, downloadThroughput: -1, uploadThroughput: -1 };
const site = await serveAndLaunch(Number(process.env.PORT ?? 4176), undefined, { gzip: true });

/** Opens the playground in a new tab of `context` under `conditions`; the first action list's mark. */
async function visit(context, conditions) {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", conditions);
  await page.goto(`${site.url}/`);
  await page.getByRole("list", { name: "Actions" }).locator(":scope > li").first().waitFor();
  const ms = await page.evaluate(() => performance.getEntriesByName("first-action-list")[0].startTime);
  return { page, ms };
}

let firstVisitMs;
const samples = [];
try {
  const context = await site.browser.newContext();
  const first = await visit(context, FOUR_G);
  firstVisitMs = Math.round(first.ms * 10) / 10;
  await first.page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 60_000 });
  await first.page.close();
  await context.setOffline(true);
  for (let i = 0; i < runs; i++) {
    const { page, ms } = await visit(context, OFFLINE);
    const controlled = await page.evaluate(() => navigator.serviceWorker.controller !== null);
    if (!controlled) throw new Error("the offline visit was not served by the service worker");
    samples.push(ms);
    await page.close();
  }
} finally {
  await site.close();
}
console.log(JSON.stringify({ runs, firstVisit4gMs: firstVisitMs, secondVisitOffline: summarize(samples) }));
