// The component's module as an anywidget (MyST's {anywidget}, Jupyter, marimo): a host page
// imports it and calls its default export's render({ model, el }), with a model of get/on/off.
import { test, expect, actionItems } from "./fixtures.mjs";

const port = Number(process.env.PORT ?? 4173);
const playground = `http://127.0.0.1:${port}`;

/** The host page on another origin, rendering the module with `traits`. */
async function notebook(page, traits) {
  const query = new URLSearchParams({ module: `${playground}/pkg/reconcile-playground.js`, traits: JSON.stringify(traits) });
  await page.goto(`http://localhost:${port}/__e2e/anywidget.html?${query}`);
  await page.waitForFunction(() => window.host);
  return page.frameLocator("#out reconcile-playground iframe");
}

const frameParams = async (page) => Object.fromEntries(new URL(await page.locator("#out iframe").getAttribute("src")).searchParams);

test("render() makes the playground from the model's traits, sized to its content", async ({ page }) => {
  const frame = await notebook(page, { preset: "load-balancer-finalizer", panes: ["editors", "plan"], readonly: true, step: 2, theme: "dark", exercise: "" });
  await expect(actionItems(frame)).toHaveText([/FINALIZE\s*svc/]);
  // Traits become the URL's parameters: a list is joined, true is a flag, "" and absent ones are left out.
  expect(await frameParams(page)).toEqual({ embed: "", preset: "load-balancer-finalizer", panes: "editors,plan", readonly: "", step: "2", theme: "dark", allow: `http://localhost:${port}` });
  const fits = async () => {
    const height = await page.locator("#out iframe").evaluate((f) => f.getBoundingClientRect().height);
    const content = await frame.locator(".app").evaluate((app) => Math.ceil(app.getBoundingClientRect().height));
    return height === content;
  };
  await expect.poll(fits).toBe(true);
  expect(await page.locator("#out iframe").evaluate((f) => f.getBoundingClientRect().height)).toBeLessThan(480);
});

test("a changed trait reopens the frame with it; the cleanup removes the view and its listeners", async ({ page }) => {
  const frame = await notebook(page, { preset: "load-balancer-finalizer", panes: "plan" });
  await expect(actionItems(frame)).toHaveText([/FINALIZE\s*svc/]);
  await page.evaluate(() => window.host.change("preset", "basics"));
  await expect(actionItems(frame).first()).toContainText("CREATE");
  expect((await frameParams(page)).preset).toBe("basics");
  // A trait set to false or null drops its attribute.
  await page.evaluate(() => window.host.change("readonly", true));
  await expect.poll(async () => (await frameParams(page)).readonly).toBe("");
  await page.evaluate(() => window.host.change("readonly", false));
  await expect.poll(async () => "readonly" in (await frameParams(page))).toBe(false);
  expect(await page.evaluate(() => window.host.listening())).toBeGreaterThan(0);
  await page.evaluate(() => window.host.cleanup());
  await expect(page.locator("#out reconcile-playground")).toHaveCount(0);
  expect(await page.evaluate(() => window.host.listening())).toBe(0);
});
