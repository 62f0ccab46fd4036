import { test, expect, editor, actionItems } from "./fixtures.mjs";

const names = ["Desired state", "Observed state", "Finalizers"];

async function boxes(page) {
  return Promise.all(names.map((name) => editor(page, name).boundingBox()));
}

test("editors sit side by side on a wide screen", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/");
  await expect(actionItems(page).first()).toBeVisible();
  const [d, o, f] = await boxes(page);
  expect(Math.abs(d.y - o.y)).toBeLessThan(2);
  expect(Math.abs(o.y - f.y)).toBeLessThan(2);
  expect(d.x).toBeLessThan(o.x);
  expect(o.x).toBeLessThan(f.x);
});

test("editors stack on a narrow screen", async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 420, height: 900 });
  await page.goto("/");
  await expect(actionItems(page).first()).toBeVisible();
  const [d, o, f] = await boxes(page);
  expect(d.y).toBeLessThan(o.y);
  expect(o.y).toBeLessThan(f.y);
  expect(Math.abs(d.x - o.x)).toBeLessThan(2);
  // Nothing forces horizontal scrolling of the page.
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.screenshot({ path: testInfo.outputPath("narrow.png"), fullPage: true });
});

test("follows the system light and dark theme", async ({ page }, testInfo) => {
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  await page.emulateMedia({ colorScheme: "light" });
  await page.goto("/");
  await expect(actionItems(page).first()).toBeVisible();
  const light = await background();
  await page.emulateMedia({ colorScheme: "dark" });
  const dark = await background();
  expect(light).toBe("rgb(247, 247, 248)");
  expect(dark).toBe("rgb(21, 23, 27)");
  await page.screenshot({ path: testInfo.outputPath("dark.png"), fullPage: true });
});
