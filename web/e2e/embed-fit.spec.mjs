// Embeds that fit a course column (docs/embedding.md): the default embed before the learner
// acts, and the height of the snippet "Embed this state" writes for the panes an author picks.
import { test, expect, actionItems } from "./fixtures.mjs";

const port = Number(process.env.PORT ?? 4173);
// The course page and the playground on one origin, so the frame keeps its storage, as
// browsers that partition third-party storage keep it (a browser that blocks it adds the
// one-line autosave notice).
const origin = `http://localhost:${port}`;
const COLUMN = 760;

/** `html` pasted into a course page whose column is 760 px wide. */
async function inColumn(page, html) {
  await page.setViewportSize({ width: 1000, height: 900 });
  await page.goto(`${origin}/__e2e/paste.html#${encodeURIComponent(`<div style="width:${COLUMN}px">${html}</div>`)}`);
}

const frameHeight = (page) => page.locator("iframe").evaluate((f) => f.getBoundingClientRect().height);
const contentHeight = (frame) => frame.locator(".app").evaluate((app) => Math.ceil(app.getBoundingClientRect().height));

test("the default embed fits 700 px of a 760 px column before the learner acts, with no empty chart and whole headings", async ({ page }) => {
  await inColumn(page, `<script type="module" src="${origin}/pkg/reconcile-playground.js"></script><reconcile-playground></reconcile-playground>`);
  const frame = page.frameLocator("iframe");
  await expect(actionItems(frame)).toHaveCount(3);
  // The simulation's module has come: its first line and its three disclosures show.
  await expect(frame.locator(".moment-status")).toHaveText("At the start: 3 out of sync.");
  await expect(frame.locator(".sim-host > details")).toHaveCount(3);
  await expect.poll(async () => (await frameHeight(page)) === (await contentHeight(frame))).toBe(true);
  expect(await frameHeight(page)).toBeLessThanOrEqual(700);
  // No empty timeline, chart or status grid, and no "the verdict shows when it ends" yet.
  await expect(frame.locator(".sim-grid, .chart, .verdict")).toHaveCount(0);
  // Each heading shows whole, and "Pass 0 of 3" stays in the controls' row.
  for (const heading of await frame.locator("h2").all()) {
    expect(await heading.evaluate((h) => h.scrollWidth <= h.clientWidth), await heading.textContent()).toBe(true);
  }
  const top = (locator) => locator.evaluate((el) => el.getBoundingClientRect().top);
  const step = frame.getByRole("button", { name: "Step", exact: true });
  expect(Math.abs((await top(frame.locator(".sim-progress"))) - (await top(step)))).toBeLessThan(10);
  // Format stays, as "{}" with its name "Format Desired state".
  await expect(frame.getByRole("button", { name: "Format Desired state" })).toBeVisible();

  // The first Step shows the run: the timeline and the chart come, and the frame grows to them.
  const before = await frameHeight(page);
  await step.click();
  await expect(frame.locator(".chart")).toBeVisible();
  await expect(frame.getByRole("list", { name: "Passes" }).locator(":scope > li")).toHaveCount(1);
  await expect.poll(() => frameHeight(page)).toBeGreaterThan(before);
  await expect.poll(async () => (await frameHeight(page)) === (await contentHeight(frame))).toBe(true);
});

test("the snippet of Embed this state is as tall as the panes chosen, for a host that cannot resize it", async ({ page }) => {
  test.setTimeout(60_000);
  // [the boxes left ticked, of Editors, Plan, Simulation, Faults and settings]
  const choices = [["Editors", "Plan", "Simulation", "Faults and settings"], ["Editors", "Plan"], ["Plan"], ["Editors"], ["Simulation", "Faults and settings"], ["Plan", "Simulation"], ["Faults and settings"]];
  const boxes = ["Editors", "Plan", "Simulation", "Faults and settings"];
  for (const chosen of choices) {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${origin}/`);
    await expect(actionItems(page)).toHaveCount(3);
    await page.getByRole("button", { name: "Share" }).click();
    const embedCode = page.locator(".embed-code");
    await embedCode.getByText("Embed this state in a course page").click();
    // Tick the chosen first: the last pane left cannot be unticked.
    for (const box of [...chosen, ...boxes.filter((box) => !chosen.includes(box))]) {
      await embedCode.getByLabel(box, { exact: true }).setChecked(chosen.includes(box));
    }
    const snippet = await embedCode.getByLabel("Embed code").inputValue();
    const height = Number(/height:(\d+)px/.exec(snippet)[1]);
    // The frame alone, as a host that strips scripts keeps it.
    await inColumn(page, snippet.slice(0, snippet.indexOf("<script>")));
    const frame = page.frameLocator("iframe");
    await expect(frame.locator(".app")).toBeVisible();
    // The simulation's module has drawn its part.
    if (chosen.some((box) => box === "Simulation" || box === "Faults and settings")) await expect(frame.locator(".sim-host > details").first()).toBeVisible();
    expect(await frameHeight(page)).toBe(height);
    // The content fills the frame, with no scrollbar and at most 12 px blank below.
    await expect.poll(async () => height - (await contentHeight(frame)), { message: chosen.join(",") }).toBeGreaterThanOrEqual(0);
    expect(height - (await contentHeight(frame)), chosen.join(",")).toBeLessThanOrEqual(12);
  }
});
