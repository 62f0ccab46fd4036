// Layouts a learner and a course author meet: 375 and 390 px phones and a 760 px course column.
import { test, expect, actionItems } from "./fixtures.mjs";

/** How far the page reaches past the screen's right edge, in CSS pixels. */
const overflow = (page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

test.describe("on a 390 px phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("nothing reaches past the screen's edge, with or without a lesson, embedded or not", async ({ page }) => {
    for (const address of ["/", "/?lesson=four-actions", "/?lesson=four-actions&step=4", "/?lesson=backoff", "/?embed"]) {
      await page.goto(address);
      await expect(page.getByRole("textbox", { name: "Desired state", exact: true })).toBeVisible();
      expect(await overflow(page), address).toBeLessThanOrEqual(0);
    }
  });
});

test.describe("on a 375 px phone", () => {
  test.use({ viewport: { width: 375, height: 667 } });

  // The simulation's heading once sat in a header nested in another, which
  // did not shrink: the page was 382 px wide at 375.
  test("nothing reaches past the screen's edge, the control-plane view open or not", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByRole("textbox", { name: "Desired state", exact: true })).toBeVisible();
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await page.locator("details.control-plane summary").click();
    await expect(page.locator(".cp-text")).toBeAttached();
    expect(await overflow(page)).toBeLessThanOrEqual(0);
  });

  // The lesson panel was sticky in one column too, and covered up to a whole
  // screen of the workspace below it as the page scrolled.
  test("a lesson's panel scrolls away with the page instead of covering the workspace", async ({ page }) => {
    await page.goto("/?lesson=stale-cache");
    const summary = page.locator("details.control-plane summary");
    await summary.scrollIntoViewIfNeeded();
    const hit = await summary.evaluate((element) => {
      const box = element.getBoundingClientRect();
      return element.contains(document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2));
    });
    expect(hit, "the control-plane view's summary is on top where it is shown").toBe(true);
    await expect(page.locator(".lesson-panel")).not.toBeInViewport();
  });
});

test("in a 760 px course column an embed shows the plan within the snippet's first 600 px, and its editors side by side", async ({ page }) => {
  await page.setViewportSize({ width: 760, height: 600 });
  await page.goto("/?embed");
  await expect(actionItems(page)).toHaveCount(3);
  const bottom = await page.locator(".plan-pane").evaluate((pane) => pane.getBoundingClientRect().bottom);
  expect(bottom).toBeLessThanOrEqual(600);
  const tops = await page.locator(".editor-pane").evaluateAll((panes) => panes.map((pane) => pane.getBoundingClientRect().top));
  expect(new Set(tops).size, "the three editors share one row").toBe(1);
  expect(await overflow(page)).toBeLessThanOrEqual(0);
  // An empty Finalizers document takes the room of its line, not a tall box.
  const finalizers = await page.locator(".editor-pane").nth(2).locator(".code").evaluate((code) => code.getBoundingClientRect().height);
  expect(finalizers).toBeLessThan(80);
});
