// Measures navigation → first action list on the release build in headless Debian Chromium.
// The page sets performance.mark("first-action-list") in the effect that runs after its
// first render, which already contains the default preset's action list.
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
    const ms = await page.evaluate(() => {
      const mark = performance.getEntriesByName("first-action-list")[0];
      const nav = performance.getEntriesByType("navigation")[0];
      return { firstActionList: mark.startTime, domContentLoaded: nav.domContentLoadedEventEnd };
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
console.log(JSON.stringify({ runs, firstActionList: stats("firstActionList"), domContentLoaded: stats("domContentLoaded") }));
