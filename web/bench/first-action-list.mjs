// Measures navigation → first action list on the release build in headless Debian Chromium.
// `first-action-list` marks the first action list on screen: on a first visit to `/`, the
// plan index.html holds (web/static/prerendered-plan.js marks it); else the page's first
// render's. `page-mounted` marks the page's first render, which replaces the prerendered plan.
// Usage: node bench/first-action-list.mjs [runs]   (serves ../dist itself; prints JSON)
import { serveAndLaunch } from "./lib.mjs";

const runs = Number(process.argv[2] ?? 15);
const port = 4174;
const site = await serveAndLaunch(port);
const { browser } = site;
const samples = [];
try {
  for (let i = 0; i < runs; i++) {
    // A fresh context each run: nothing cached, as for a first visit.
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${site.url}/`);
    await page.getByRole("list", { name: "Actions" }).locator(":scope > li").first().waitFor();
    await page.waitForFunction(() => performance.getEntriesByName("page-mounted").length > 0);
    const ms = await page.evaluate(() => {
      const mark = (name) => performance.getEntriesByName(name)[0].startTime;
      const nav = performance.getEntriesByType("navigation")[0];
      return { firstActionList: mark("first-action-list"), pageMounted: mark("page-mounted"), domContentLoaded: nav.domContentLoadedEventEnd };
    });
    samples.push(ms);
    await context.close();
  }
} finally {
  await site.close();
}
const sorted = (key) => samples.map((s) => s[key]).sort((a, b) => a - b);
const stats = (key) => {
  const v = sorted(key);
  const ms = (x) => Math.round(x * 10) / 10;
  return { median: ms(v[Math.floor(v.length / 2)]), min: ms(v[0]), max: ms(v[v.length - 1]) };
};
console.log(JSON.stringify({ runs, firstActionList: stats("firstActionList"), pageMounted: stats("pageMounted"), domContentLoaded: stats("domContentLoaded") }));
