// ?theme=light|dark for the page and embeds; without it the page follows the system's theme.
import { test, expect, actionItems } from "./fixtures.mjs";

const port = Number(process.env.PORT ?? 4173);
const LIGHT_BG = "rgb(247, 247, 248)";
const DARK_BG = "rgb(21, 23, 27)";

const background = (target) => target.locator("body").evaluate((body) => getComputedStyle(body).backgroundColor);

/** Every colour variable main.css sets on :root, by name, as the page computes it. */
const colours = (page) =>
  page.evaluate(() => {
    const names = new Set();
    for (const sheet of document.styleSheets) {
      for (const rule of sheet.cssRules) {
        if (rule.selectorText === ":root") for (const name of rule.style) if (name.startsWith("--")) names.add(name);
      }
    }
    const style = getComputedStyle(document.documentElement);
    return Object.fromEntries([...names].map((name) => [name, style.getPropertyValue(name).trim()]));
  });

for (const system of ["light", "dark"]) {
  test(`theme= wins over a ${system} system; without it the page follows the system`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: system });
    // [query, the colours shown, the root's color-scheme]; an unknown theme is ignored.
    for (const [query, shown, scheme] of [["", system, "light dark"], ["?theme=light", "light", "light"], ["?theme=dark", "dark", "dark"], ["?theme=blue", system, "light dark"]]) {
      await page.goto(`/${query}`);
      await expect(actionItems(page).first()).toBeVisible();
      expect(await background(page), query).toBe(shown === "dark" ? DARK_BG : LIGHT_BG);
      expect(await page.evaluate(() => getComputedStyle(document.documentElement).colorScheme), query).toBe(scheme);
    }
  });
}

test("?theme=dark and a dark system give the same colours: main.css's two dark blocks agree", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "light" });
  await page.goto("/?theme=dark");
  await expect(actionItems(page).first()).toBeVisible();
  const chosen = await colours(page);
  await page.emulateMedia({ colorScheme: "dark" });
  await page.goto("/");
  await expect(actionItems(page).first()).toBeVisible();
  const system = await colours(page);
  expect(Object.keys(system).length).toBeGreaterThan(15);
  expect(chosen).toEqual(system);
  await page.emulateMedia({ colorScheme: "light" });
  await page.goto("/");
  expect(await colours(page)).not.toEqual(system);
});

test("an embed and the component take the theme: a dark course page gets a dark panel", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "light" });
  const html = `<script type="module" src="http://127.0.0.1:${port}/pkg/reconcile-playground.js"></script>
<reconcile-playground theme="dark" panes="plan"></reconcile-playground>
<iframe id="plain" style="width:700px;height:400px" src="http://127.0.0.1:${port}/?embed&theme=dark&panes=plan"></iframe>`;
  await page.goto(`http://localhost:${port}/__e2e/paste.html#${encodeURIComponent(html)}`);
  for (const frame of [page.frameLocator("reconcile-playground iframe"), page.frameLocator("#plain")]) {
    await expect(actionItems(frame).first()).toBeVisible();
    expect(await background(frame)).toBe(DARK_BG);
  }
});
