// Per-step render time of the control-plane picture while stepping by event ("event ▶")
// with its view open, in headless Debian Chromium on the release build. The scenario is
// generated: N pods whose image the controller must update, so pass 1 has N requests.
// Each step is timed from the click to the picture's words changing (a MutationObserver).
// The view is part of the simulation section's module (crates/reconcile-simulation-ui),
// loaded once the first view has painted: in between come the page's reducer and its render
// (the controls), then the cursor handed to the module, the section's render (the timeline
// with the pass's events, World now) and the picture's replay. The plan at the cursor comes
// a microtask after the module has drawn, and is not in the figure.
// Usage: node bench/control-plane-steps.mjs [pods] [steps]   (serves ../dist; prints JSON)
import { serveAndLaunch } from "./lib.mjs";

const pods = Number(process.argv[2] ?? 50);
const steps = Number(process.argv[3] ?? 60);
const site = await serveAndLaunch(4179);
try {
  const page = await site.browser.newPage();
  await page.goto(`${site.url}/?preset=basics`);
  await page.getByRole("button", { name: "Step" }).waitFor();
  const pod = (image) =>
    JSON.stringify(Object.fromEntries(Array.from({ length: pods }, (_, i) => [`pod-${String(i).padStart(4, "0")}`, { image }])));
  for (const [name, text] of [["Desired state", pod("app:2")], ["Observed state", pod("app:1")]]) {
    await page.getByRole("textbox", { name, exact: true }).evaluate((area, value) => {
      area.value = value;
      area.dispatchEvent(new Event("input", { bubbles: true }));
    }, text);
  }
  await page.getByText(`${pods} to update`).waitFor({ timeout: 30_000 });
  await page.locator("details.control-plane summary").click();
  await page.locator(".cp-text").waitFor({ state: "attached" });
  const times = await page.evaluate(async (count) => {
    const button = [...document.querySelectorAll("button")].find((b) => b.getAttribute("aria-label") === "Next event");
    const out = [];
    for (let i = 0; i < count && !button.disabled; i++) {
      const now = document.querySelector(".cp-text li[data-part=now]");
      const changed = new Promise((resolve) => {
        const observer = new MutationObserver(() => { observer.disconnect(); resolve(performance.now()); });
        observer.observe(now.parentElement, { subtree: true, childList: true, characterData: true });
      });
      const start = performance.now();
      button.click();
      out.push((await changed) - start);
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    }
    return out;
  }, steps);
  const sorted = [...times].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  const round = (ms) => Math.round(ms * 10) / 10;
  const worst = times.map((ms, step) => [round(ms), step + 1]).sort((a, b) => b[0] - a[0]).slice(0, 3);
  console.log(JSON.stringify({ pods, steps: times.length, medianStepMs: round(median), maxStepMs: round(sorted.at(-1)), worst }));
} catch (error) {
  console.log(JSON.stringify({ pods, error: String(error.message).split("\n")[0] }));
  process.exitCode = 1;
} finally {
  await site.close();
}
