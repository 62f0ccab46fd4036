// The plans index.html holds for a first visit (issue 33's course-page budget;
// crates/xtask/src/prerender.rs): each is exactly the plan pane the page then
// renders, it is shown and marked before the wasm arrives, and the page's own
// list replaces it with no moment of two lists. Addresses whose first plan is
// not certain (a link's state, a saved session) never show one.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { test, expect, actionList, actionItems, holdRequests } from "./fixtures.mjs";

const dist = resolve(process.env.DIST ?? "../dist");
const index = readFileSync(join(dist, "index.html"), "utf8");
/** [preset id, the template's markup] for every prerendered view. */
const views = [...index.matchAll(/<template data-view="([^"]+)">(.*?)<\/template>/gs)].map((m) => [m[1], m[2]]);
const prerendered = (page) => page.locator("#prerendered-plan");
const WASM = /_bg\.wasm$/;

/** A DOM tree as text with each element's attributes sorted, so the same markup compares equal. */
function canonical(node) {
  if (node.nodeType === Node.TEXT_NODE) return node.data;
  if (node.nodeType !== Node.ELEMENT_NODE) return "";
  const attributes = [...node.attributes].map((a) => `${a.name}="${a.value}"`).sort().join(" ");
  return `<${node.localName} ${attributes}>${[...node.childNodes].map(canonical).join("")}</${node.localName}>`;
}

test("the build prerenders the default view and most presets", () => {
  expect(views.map(([id]) => id)).toContain("basics");
  expect(views.length).toBeGreaterThanOrEqual(10);
});

for (const [id, markup] of views) {
  test(`the prerendered plan of ${id} is the page's own`, async ({ page }) => {
    await page.goto(`/?preset=${id}`);
    await expect(prerendered(page)).toHaveCount(0);
    await expect(page.locator(".app")).toHaveCount(1);
    const [ours, built] = await page.evaluate(
      ([source, markup]) => {
        const canonical = new Function(`return (${source})`)();
        const template = document.createElement("template");
        template.innerHTML = markup;
        return [canonical(document.querySelector(".app .plan-pane")), canonical(template.content.firstElementChild)];
      },
      [canonical.toString(), markup],
    );
    expect(built).toBe(ours);
  });
}

test("before the wasm arrives, the plan is on screen, marked and accessible; then the page's replaces it", async ({ page }) => {
  const release = await holdRequests(page, WASM);
  // The page's load waits for the wasm, held here.
  await page.goto("/?embed&preset=load-balancer-finalizer&panes=editors,plan", { waitUntil: "commit" });
  await expect(prerendered(page)).toBeVisible();
  const items = await actionItems(page).count();
  expect(items).toBeGreaterThan(0);
  await expect(page.getByRole("heading", { name: "Plan" })).toBeVisible();
  expect(await page.evaluate(() => performance.getEntriesByName("first-action-list").length)).toBe(1);
  // Every frame from here on: never two lists, never none.
  await page.evaluate(() => {
    window.listCounts = new Set();
    const count = () => {
      window.listCounts.add(document.querySelectorAll('ol[aria-label="Actions"]').length);
      requestAnimationFrame(count);
    };
    count();
  });
  release();
  await expect(page.locator(".app")).toHaveCount(1);
  await expect(prerendered(page)).toHaveCount(0);
  await expect(actionList(page)).toHaveCount(1);
  await expect(actionItems(page)).toHaveCount(items);
  expect(await page.evaluate(() => [...window.listCounts])).toEqual([1]);
  expect(await page.evaluate(() => performance.getEntriesByName("first-action-list").length)).toBe(1);
});

test("a theme is the prerendered plan's from the start, as it is the page's", async ({ page }) => {
  const release = await holdRequests(page, WASM);
  await page.goto("/?embed&preset=basics&theme=dark", { waitUntil: "commit" });
  await expect(prerendered(page)).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  release();
  await expect(page.locator(".app")).toHaveCount(1);
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
});

test("a link's state, a saved session or another parameter opens without a prerendered plan", async ({ page }) => {
  await page.goto("/?preset=basics");
  await expect(page.locator(".app")).toHaveCount(1);
  // Typing is autosaved: the default view now reopens this session.
  await page.getByRole("textbox", { name: "Desired state", exact: true }).press("End");
  await page.getByRole("textbox", { name: "Desired state", exact: true }).pressSequentially(" ");
  await expect.poll(() => page.evaluate(() => localStorage.length)).toBeGreaterThan(0);
  // The page never mounts here: whatever is on screen is the prerender's.
  await holdRequests(page, WASM);
  const addresses = ["/", "/?preset=basics#v2/abc", "/?preset=basics&lesson=01-four-actions", "/?preset=basics&exercise=reconcile", "/?embed&preset=basics&panes=editors"];
  for (const address of addresses) {
    await page.goto(address, { waitUntil: "commit" });
    // Parsed, so the inline script at the body's end has run.
    await page.waitForFunction(() => document.readyState !== "loading");
    expect(await prerendered(page).count(), address).toBe(0);
  }
  // The control: with nothing in its way, the same held page shows one.
  await page.goto("/?preset=basics", { waitUntil: "commit" });
  await expect(prerendered(page)).toBeVisible();
  await page.unrouteAll({ behavior: "ignoreErrors" });
});
