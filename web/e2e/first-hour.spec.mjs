// A learner's first hour (issue 31): a calm first view, room to write, and
// answers that stay in view on a phone.
import { test, expect, nextFrames, LESSONS as lessons } from "./fixtures.mjs";

test.describe("Faults and settings", () => {
  test("start closed on the page, and the advanced settings sit behind a second disclosure", async ({ page }) => {
    await page.goto("/");
    const faults = page.locator("details.fault-panel");
    await expect(faults).toBeAttached();
    expect(await faults.evaluate((details) => details.open)).toBe(false);
    await expect(page.getByRole("button", { name: "Delete it" })).toBeHidden();

    await faults.locator("summary").first().click();
    await expect(page.getByRole("button", { name: "Delete it" })).toBeVisible();
    // Rate limiters, queues, naming and status writes wait behind their own disclosure.
    const advanced = faults.locator("details.advanced-settings");
    expect(await advanced.evaluate((details) => details.open)).toBe(false);
    for (const label of ["Backoff policy", "Work queue", "How the controller names what it creates", "What the controller writes to its status"]) {
      await expect(page.getByLabel(label)).toBeHidden();
    }
    await advanced.locator("summary").click();
    for (const label of ["Backoff policy", "Work queue", "How the controller names what it creates", "What the controller writes to its status"]) {
      await expect(page.getByLabel(label)).toBeVisible();
    }
    // One plain sentence each, before the details.
    const plain = advanced.locator("fieldset .plain");
    await expect(plain).toHaveCount(4);
    for (const sentence of await plain.allTextContents()) {
      expect(sentence.trim().split(/(?<=\.)\s/)).toHaveLength(1);
      expect(sentence).not.toMatch(/qps|DefaultControllerRateLimiter|generateName/);
    }
  });
});

/** How many characters of the editor's font fit on one line of the "Your reconcile" editor. */
const editorColumns = (page) =>
  page.getByRole("textbox", { name: /^Your reconcile, in / }).evaluate((area) => {
    const style = getComputedStyle(area);
    const context = document.createElement("canvas").getContext("2d");
    context.font = `${style.fontSize} ${style.fontFamily}`;
    const inner = area.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return Math.floor(inner / context.measureText("0").width);
  });

for (const width of [1280, 1440, 1920]) {
  for (const address of ["/", "/?lesson=four-actions"]) {
    test(`the "Your reconcile" editor shows at least 80 columns at ${width} px (${address})`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(address);
      await page.getByRole("button", { name: "Your reconcile" }).click();
      await expect(page.getByRole("textbox", { name: /^Your reconcile, in / })).toBeVisible();
      expect(await editorColumns(page)).toBeGreaterThanOrEqual(80);
    });
  }
}

test.describe("on a 390 px phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("Check in a lesson keeps the feedback and Next in view; the revealed plan is one tap away", async ({ page }) => {
    await page.goto("/?lesson=four-actions&step=2");
    for (const action of ["CREATE a", "UPDATE b", "DELETE c"]) await page.getByRole("button", { name: action, exact: true }).click();
    await page.getByRole("button", { name: "Check", exact: true }).click();
    await expect(page.locator(".feedback")).toContainText("✓ Correct");
    // Any scroll the answer starts has begun by the next frames; the checks below retry until it ends.
    await nextFrames(page);
    await expect(page.locator(".feedback")).toBeInViewport();
    await expect(page.getByRole("button", { name: "Next →" })).toBeInViewport();
    await expect(page.locator(".plan-pane")).not.toBeInViewport();
    await page.locator(".exercise").getByRole("link", { name: "See the plan" }).click();
    await expect(page.locator(".plan-pane")).toBeInViewport();
  });
});

// Point 1, no leaks: rendered from the lessons' own files, so a new lesson is checked too.
for (const lesson of lessons) {
  test(`lesson "${lesson.id}": no step shows the plan, the pass count or the verdict that it or a later step asks for`, async ({ page }) => {
    test.setTimeout(20_000 + 8_000 * lesson.steps.length);
    for (const [index, step] of lesson.steps.entries()) {
      const asked = lesson.steps.slice(index).map((s) => s.exercise?.kind).filter(Boolean);
      const where = `step ${index + 1}`;
      await page.goto(`/?lesson=${lesson.id}&step=${index + 1}`);
      await expect(page.locator(".lesson-progress")).toHaveText(`Step ${index + 1} of ${lesson.steps.length}`);
      if (asked.includes("actions")) {
        await expect(page.locator(".plan-pane"), where).toHaveClass(/concealed/);
        await expect(page.getByRole("list", { name: "Actions", exact: true }), where).toHaveCount(0);
      }
      if (!asked.includes("passes")) continue;
      const run = page.getByRole("button", { name: "Run to convergence" });
      if (await run.isVisible()) {
        await run.click();
        await expect(page.locator(".sim-progress"), where).toHaveText(/^Pass \d+(, then another actor's event)?$/);
        await expect(page.locator(".verdict:not(.pending)"), where).toBeHidden();
      } else {
        await expect(page.locator(".sim-pane"), where).toHaveClass(/concealed/);
      }
    }
  });
}
