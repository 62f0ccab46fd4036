import AxeBuilder from "@axe-core/playwright";
import { test, expect, actionItems } from "./fixtures.mjs";

async function violations(page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.length} node(s), e.g. ${v.nodes[0]?.target.join(" ")}`);
}

for (const scheme of ["light", "dark"]) {
  test(`axe finds no violations on the main page (${scheme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto("/");
    await expect(actionItems(page).first()).toBeVisible();
    await page.getByRole("button", { name: "Run to convergence" }).click();
    await page.locator("details.level-edge > summary").click();
    await expect(page.locator(".divergence")).toBeVisible();
    expect(await violations(page)).toEqual([]);
  });
}

test("axe finds no violations on the embed view", async ({ page }) => {
  await page.goto("/?embed&readonly&preset=stuck-namespace");
  await expect(actionItems(page).first()).toBeVisible();
  expect(await violations(page)).toEqual([]);
});

test("axe finds no violations with an error and a notice showing", async ({ page }) => {
  await page.goto("/#v0/old");
  await page.getByRole("textbox", { name: "Observed state", exact: true }).fill('{"a": [1,]}');
  await expect(page.locator("#observed-error")).toContainText("Line 1");
  expect(await violations(page)).toEqual([]);
});

test("axe finds no violations in a lesson with feedback showing", async ({ page }) => {
  await page.goto("/?lesson=four-actions&step=2");
  await page.getByRole("button", { name: "CREATE a", exact: true }).click();
  await page.getByRole("button", { name: "Check", exact: true }).click();
  await expect(page.locator(".feedback")).toBeVisible();
  expect(await violations(page)).toEqual([]);
});
