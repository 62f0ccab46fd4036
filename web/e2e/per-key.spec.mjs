// A run of several custom resources (issue 29, step 6): the picture's work queue names
// each worker's key and the keys in line, the status grid and the chart go per key, and
// two presets show client-go's bucket binding and fairness between keys.
import AxeBuilder from "@axe-core/playwright";
import { test, expect } from "./fixtures.mjs";

const tabs = (page) => page.getByRole("tablist", { name: "Custom resources" }).getByRole("tab");
const passes = (page) => page.getByRole("list", { name: "Passes", exact: true }).locator(":scope > li");
const verdict = (page) => page.locator(".verdict");
const keyGrid = (page) => page.getByRole("table", { name: "Custom resource status" });
const view = (page) => page.locator("details.control-plane");
const part = (page, name) => view(page).locator(`.cp-text li[data-part=${name}]`);

async function choosePreset(page, label) {
  await page.goto("/");
  await expect(page.getByRole("button", { name: "Step" })).toBeEnabled();
  await page.getByLabel("Preset", { exact: true }).selectOption({ label });
}

test("one custom resource: no per-key table, no chart choice, the queue as before", async ({ page }) => {
  await page.goto("/?preset=basics");
  await page.getByRole("button", { name: "Step" }).click();
  await expect(page.getByRole("table", { name: "Resource status", exact: true })).toBeVisible();
  await expect(keyGrid(page)).toHaveCount(0);
  await expect(page.getByLabel("Chart of")).toHaveCount(0);
  await view(page).locator("summary").click();
  await expect(part(page, "queue")).toContainText("Work queue: key custom-resource:");
  await expect(part(page, "queue")).not.toContainText("worker 1 holds");
});

test("fairness: a failing key backs off while the others converge, per key and in the picture", async ({ page }) => {
  await choosePreset(page, "A failing key does not starve the others");
  await expect(tabs(page)).toHaveText(["cache-a", "cache-b", "cache-c", "cache-d", "cache-e"]);
  await expect(page.locator("#preset-summary")).toContainText("409 AlreadyExists every time");

  // After pass 1 both workers hold a key; cache-b, failed once, waits in line behind the others.
  await page.getByRole("button", { name: "Step" }).click();
  await view(page).locator("summary").click();
  const queue = part(page, "queue");
  await expect(queue).toContainText("worker 1 holds cache-a; queued again when done");
  await expect(queue).toContainText("worker 2 holds cache-c");
  await expect(queue).toContainText("ready, in line: cache-d, cache-e, cache-b");
  await expect(keyGrid(page).locator("caption")).toHaveText("1 of 5 custom resources converged");

  await page.getByRole("button", { name: "Run to convergence" }).click();
  await expect(verdict(page)).toHaveText("✗ Not converging: still planning actions after the pass limit of 24");
  await expect(keyGrid(page).locator("caption")).toHaveText("4 of 5 custom resources converged");
  await expect(keyGrid(page).locator("tr[data-key=cache-b]")).toContainText("1 object(s) out of sync");
  await expect(keyGrid(page).locator("tr[data-key=cache-e]")).toContainText("converged");
  // Its requeues wait longer each time: 10 ms, then 20 ms … on the cursor's last pass, far later.
  await expect(passes(page).last()).toContainText("key: cache-b");
  await expect(passes(page).last().locator(".pass-action")).toContainText("failed (409");
  await expect(queue).toContainText(/worker \d holds cache-b, failed \d+×/);

  // The chart shows one key when asked.
  const chart = page.locator("figure.chart");
  await expect(chart.locator("figcaption")).toHaveText("Out-of-sync resources at each moment");
  await page.getByLabel("Chart of").selectOption("cache-b");
  await expect(chart.locator("figcaption")).toHaveText("Out-of-sync objects of cache-b at each moment");
  await expect(chart.locator("desc")).toContainText("each other actor's event: 1, 1, 1, 1,");
  // cache-a is done after pass 1; pass 2 ended earlier (t = 11 ms, another worker), before its second CREATE.
  await page.getByLabel("Chart of").selectOption("cache-a");
  await expect(chart.locator("desc")).toContainText("each other actor's event: 2, 0, 1, 0, 0,");
  await page.getByLabel("Chart of").selectOption("");
  await expect(chart.locator("figcaption")).toHaveText("Out-of-sync resources at each moment");
  const results = await new AxeBuilder({ page }).include(".sim-side").include("details.control-plane").analyze();
  expect(results.violations).toEqual([]);
});

test("client-go's bucket: after the burst of 100, each requeue waits 100 ms more", async ({ page }) => {
  await choosePreset(page, "client-go's bucket binds");
  await expect(tabs(page)).toHaveCount(120);
  await expect(page.locator("#preset-summary")).toContainText("bucket (10 per second, burst 100)");
  await page.getByRole("button", { name: "Run to convergence" }).click();
  await expect(verdict(page)).toHaveText("✗ Not converging: still planning actions after the pass limit of 140");
  await expect(keyGrid(page).locator("caption")).toHaveText("0 of 120 custom resources converged");
  // Within the burst the per-item 5 ms; past it, 100 ms apart (the golden timeline's numbers).
  const requeue = (key) => passes(page).filter({ hasText: `key: ${key} ` }).first().locator(".pass-action");
  await expect(requeue("cache-099")).toContainText("requeued at t = 256 ms");
  await expect(requeue("cache-103")).toContainText("requeued at t = 411 ms");
  await expect(requeue("cache-104")).toContainText("requeued at t = 511 ms");
  await expect(requeue("cache-105")).toContainText("requeued at t = 611 ms");
  await view(page).locator("summary").click();
  await expect(part(page, "queue")).toContainText(/waiting for a requeue: cache-\d{3} until t = /);
});
