// Presenter mode (`?present`, web/src/present.rs): one pane at a time in large type, moved with
// the arrow keys or the bar's buttons; in a reveal.js deck (e2e/pages/deck.html, reveal.js from
// npm) the keys the frame does not use move the deck. Firefox and WebKit run the deck in
// e2e/engines/flows.mjs (presenterInADeck).
import { test, expect, editor } from "./fixtures.mjs";

const port = Number(process.env.PORT ?? 4173);
const playground = `http://127.0.0.1:${port}`;
const host = `http://localhost:${port}`;

/** The smallest font size, in CSS pixels, of the text the page renders (SVG aside: its
 *  size is in the drawing's units), with a sample of the text at that size. */
const smallestText = (page) =>
  page.evaluate(() => {
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    let smallest = { size: Infinity, text: "" };
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const element = node.parentElement;
      if (!node.textContent.trim() || element.closest("svg, script, style, option")) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      // Rendered: not hidden, and not clipped to a pixel (text for screen readers only).
      const shown = [...range.getClientRects()].some((rect) => rect.width > 1 && rect.height > 1);
      if (!shown || element.closest(".visually-hidden")) continue;
      const size = parseFloat(getComputedStyle(element).fontSize);
      if (size < smallest.size) smallest = { size, text: node.textContent.trim().slice(0, 40) };
    }
    return smallest;
  });

/** Which of the four panes the page renders. */
const renderedPanes = (page) =>
  page.evaluate(() =>
    [".lesson-panel", ".scenario-column", ".plan-pane", ".sim-pane"].filter((selector) => {
      const pane = document.querySelector(selector);
      return pane && pane.getBoundingClientRect().height > 0;
    }),
  );

test("presenter mode shows one pane at a time in type of 18 px or more at 1280x720", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto("/?embed&present&theme=light&lesson=four-actions");
  const place = page.locator(".present-place");
  const seen = [];
  for (const [n, label, selector] of [[1, "Lesson", ".lesson-panel"], [2, "Editors", ".scenario-column"], [3, "Plan", ".plan-pane"], [4, "Simulation", ".sim-pane"]]) {
    await expect(place).toHaveText(`${n} / 4 ${label}`);
    await expect.poll(() => renderedPanes(page)).toEqual([selector]);
    const smallest = await smallestText(page);
    expect(smallest.size, `"${smallest.text}" on the ${label} pane`).toBeGreaterThanOrEqual(18);
    seen.push(label);
    if (n < 4) await page.getByRole("button", { name: "Next pane →" }).click();
  }
  expect(seen).toHaveLength(4);
  await expect(page.getByRole("button", { name: "Next pane →" })).toBeDisabled();
  // With no editing control focused, the arrows move the panes.
  await page.locator(".present-place").click();
  await page.keyboard.press("ArrowLeft");
  await expect(place).toHaveText("3 / 4 Plan");
  await page.keyboard.press("ArrowRight");
  await expect(place).toHaveText("4 / 4 Simulation");
});

test("the chart's labels are large on the simulation pane", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto("/?embed&present&theme=light&preset=basics&panes=sim");
  await expect(page.locator(".present-place")).toHaveText("1 / 1 Simulation");
  await page.getByRole("button", { name: "Run to convergence" }).click();
  const tick = page.locator(".chart .tick").first();
  await expect(tick).toBeVisible();
  // An SVG label's size is in the drawing's units: its rendered height is what a room reads.
  expect(await tick.evaluate((text) => text.getBoundingClientRect().height)).toBeGreaterThanOrEqual(18);
});

test("in a reveal.js deck, keys the frame does not use move the deck, and an editor keeps its arrows", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(`${host}/__e2e/deck.html?playground=${playground}`);
  await page.waitForFunction(() => window.Reveal?.isReady());
  await page.evaluate(() => Reveal.slide(1));
  const src = new URL(await page.locator("reconcile-playground iframe").getAttribute("src"));
  expect(src.origin).toBe(playground);
  expect(src.searchParams.has("present")).toBe(true);
  const frame = page.frameLocator("reconcile-playground iframe");
  const place = frame.locator(".present-place");
  const deck = () => page.evaluate(() => Reveal.getIndices().h);
  await expect(place).toHaveText("1 / 3 Editors");

  // At the first pane, ArrowLeft is the deck's: it goes back a slide.
  await place.click();
  await page.keyboard.press("ArrowLeft");
  await expect.poll(deck).toBe(0);
  expect(await page.evaluate(() => keys)).toEqual(["ArrowLeft"]);
  // The focus is the deck's again: its own keys move it.
  await page.keyboard.press("ArrowRight");
  await expect.poll(deck).toBe(1);

  // Within the panes, the arrows are the playground's; past the last, the deck's.
  await place.click();
  await page.keyboard.press("ArrowRight");
  await expect(place).toHaveText("2 / 3 Plan");
  await page.keyboard.press("ArrowRight");
  await expect(place).toHaveText("3 / 3 Simulation");
  expect(await deck()).toBe(1);
  await page.keyboard.press("ArrowRight");
  await expect.poll(deck).toBe(2);
  await page.keyboard.press("ArrowLeft");
  await expect.poll(deck).toBe(1);
  await expect(place).toHaveText("3 / 3 Simulation");

  // PageUp and PageDown are always the deck's; a host can keep a key from the deck.
  await place.click();
  await page.evaluate(() => document.addEventListener("reconcile-playground:key", (event) => event.preventDefault(), { once: true }));
  await page.keyboard.press("PageDown");
  await expect.poll(() => page.evaluate(() => keys.length)).toBe(3);
  expect(await deck()).toBe(1);
  await place.click();
  await page.keyboard.press("PageUp");
  await expect.poll(deck).toBe(0);
  expect(await page.evaluate(() => keys)).toEqual(["ArrowLeft", "ArrowRight", "PageDown", "PageUp"]);

  // In an editor the arrows and Space are the editor's.
  await page.evaluate(() => Reveal.slide(1));
  await frame.getByRole("button", { name: "← Previous pane" }).click();
  await frame.getByRole("button", { name: "← Previous pane" }).click();
  await expect(place).toHaveText("1 / 3 Editors");
  const desired = editor(frame, "Desired state");
  await desired.click();
  await desired.evaluate((area) => area.setSelectionRange(5, 5));
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("ArrowLeft");
  await page.keyboard.press("ArrowRight");
  expect(await desired.evaluate((area) => [area.selectionStart, document.activeElement === area])).toEqual([4, true]);
  await expect(place).toHaveText("1 / 3 Editors");
  expect(await deck()).toBe(1);
  expect(await page.evaluate(() => keys.length)).toBe(4);
});
