// Measures a first visit over slow links: navigation → the page's `first-action-list`
// performance mark, in a fresh browser context (nothing cached, no service worker yet),
// under Chromium's network emulation of 4G (9 Mbps, 170 ms) and 3G (1.6 Mbps, 300 ms),
// from a static server that sends gzip, then brotli, as a host serving precompressed files
// does: the build's copies when present (`FILE.gz`, gzip by zopfli; `FILE.br`, brotli quality
// 11; `cargo xtask precompress`), else the file compressed once (gzip level 9, brotli quality
// 11), so compressing never counts.
// `pageMountedMs`: to the page's first render (its `page-mounted` mark), which replaces the
// plan index.html shows first (web/static/prerendered-plan.js).
// Also counts the bytes the page downloaded (as sent, compressed): by the first action
// list, and once its network is idle (what it fetches on demand right after, if anything).
// Usage: node bench/slow-links.mjs [runs]   (serves ../dist or $DIST itself; prints JSON lines)
import { PROFILES, serveAndLaunch, summarize } from "./lib.mjs";

const runs = Number(process.argv[2] ?? 7);
/** What each series' browser says it accepts (Chromium leaves brotli out over plain http). */
const ENCODINGS = { gzip: "gzip, deflate", br: "br, gzip, deflate" };
/** The network counts as idle after this long without a request in flight. */
const IDLE_MS = 1000;

/** One first visit under `conditions`, accepting `acceptEncoding`: its timing and bytes. */
async function firstVisit(browser, url, conditions, acceptEncoding) {
  const context = await browser.newContext({ serviceWorkers: "block" });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    const bytes = new Map();
    const inFlight = new Set();
    let lastChange = Date.now();
    cdp.on("Network.requestWillBeSent", ({ requestId }) => {
      inFlight.add(requestId);
      lastChange = Date.now();
    });
    const done = ({ requestId, encodedDataLength }) => {
      inFlight.delete(requestId);
      bytes.set(requestId, encodedDataLength ?? 0);
      lastChange = Date.now();
    };
    cdp.on("Network.loadingFinished", done);
    cdp.on("Network.loadingFailed", done);
    await cdp.send("Network.enable");
    await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
    await cdp.send("Network.setExtraHTTPHeaders", { headers: { "Accept-Encoding": acceptEncoding } });
    await cdp.send("Network.emulateNetworkConditions", conditions);
    await page.goto(`${url}/`);
    await page.getByRole("list", { name: "Actions" }).locator(":scope > li").first().waitFor({ timeout: 60_000 });
    const ms = await page.evaluate(() => performance.getEntriesByName("first-action-list")[0].startTime);
    const total = () => [...bytes.values()].reduce((a, b) => a + b, 0);
    const atFirstActionList = total();
    await page.waitForFunction(() => performance.getEntriesByName("page-mounted").length > 0, null, { timeout: 60_000 });
    const mounted = await page.evaluate(() => performance.getEntriesByName("page-mounted")[0].startTime);
    while (inFlight.size > 0 || Date.now() - lastChange < IDLE_MS) {
      await new Promise((wake) => setTimeout(wake, 100));
    }
    return { ms, mounted, atFirstActionList, whenIdle: total(), requests: bytes.size };
  } finally {
    await context.close();
  }
}

const site = await serveAndLaunch(Number(process.env.PORT ?? 4177), undefined, { brotli: true });
try {
  for (const [encoding, acceptEncoding] of Object.entries(ENCODINGS)) {
    // Untimed: the server reads each file's copy (or compresses it) on its first request.
    await firstVisit(site.browser, site.url, PROFILES["4g"], acceptEncoding);
    for (const [profile, conditions] of Object.entries(PROFILES)) {
      const visits = [];
      for (let i = 0; i < runs; i++) visits.push(await firstVisit(site.browser, site.url, conditions, acceptEncoding));
      const last = visits[visits.length - 1];
      console.log(
        JSON.stringify({
          profile,
          encoding,
          runs,
          firstActionListMs: summarize(visits.map((v) => v.ms)),
          pageMountedMs: summarize(visits.map((v) => v.mounted)),
          bytesAtFirstActionList: last.atFirstActionList,
          bytesWhenIdle: last.whenIdle,
          requestsWhenIdle: last.requests,
        }),
      );
    }
  }
} finally {
  await site.close();
}
