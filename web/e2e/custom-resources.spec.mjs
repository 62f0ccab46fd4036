// Several custom resources (issue 29, step 6): a tab per custom resource above the editors,
// the plan of the tab shown, the simulation of them all, and a #v3/ share link.
import { test, expect, editor, typeInto, actionSummaries } from "./fixtures.mjs";

const tabs = (page) => page.getByRole("tablist", { name: "Custom resources" }).getByRole("tab");
const passKeys = (page) => page.getByRole("list", { name: "Passes", exact: true }).locator(".pass-key");

test("with one custom resource there is no tab row, only Add", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("button", { name: "Add custom resource" })).toBeVisible();
  await expect(tabs(page)).toHaveCount(0);
});

test("a second custom resource: its own documents and plan, both keys simulated, a v3 link", async ({ page, browser }) => {
  await page.goto("/");
  const first = await actionSummaries(page);
  await page.getByRole("button", { name: "Add custom resource" }).click();
  await expect(tabs(page)).toHaveCount(2);
  await expect(tabs(page).nth(1)).toHaveAttribute("aria-selected", "true");
  await page.getByLabel("Name of the custom resource shown").fill("cache-b");
  await typeInto(page, "Desired state", '{"x": {"replicas": 1}}');
  await expect.poll(() => actionSummaries(page)).toEqual(["CREATE x"]);

  // The first tab kept its documents and its plan; back again, nothing typed is lost.
  await tabs(page).nth(0).click();
  await expect.poll(() => actionSummaries(page)).toEqual(first);
  await tabs(page).nth(1).focus();
  await page.keyboard.press("Enter");
  await expect(editor(page, "Desired state")).toHaveValue('{"x": {"replicas": 1}}');

  // An error in a tab not shown marks it and says where it is.
  await typeInto(page, "Desired state", '{"x": {"replicas": 1},}');
  await tabs(page).nth(0).click();
  await expect(tabs(page).nth(1)).toHaveAccessibleName("cache-b (has an error)");
  await expect(page.getByRole("list", { name: "Errors in the custom resources" })).toContainText("cache-b: Desired");
  await tabs(page).nth(1).click();
  await typeInto(page, "Desired state", '{"x": {"replicas": 1}}');
  await expect.poll(() => actionSummaries(page)).toEqual(["CREATE x"]);

  // The simulation runs both keys; the timeline names each pass's key.
  await page.getByRole("button", { name: "Run to convergence" }).click();
  await expect(passKeys(page).filter({ hasText: "key: cache-b" }).first()).toBeVisible();
  await expect(passKeys(page).filter({ hasText: "key: custom-resource" }).first()).toBeVisible();
  const picture = page.locator("details.control-plane");
  await picture.locator("summary").click();
  await expect(picture.locator(".cp-text")).toContainText("cache-b");

  // A v3 link reopens both tabs.
  await page.getByRole("button", { name: "Share" }).click();
  const link = await page.getByLabel("Share link").inputValue();
  expect(link).toMatch(/#v3\//);
  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  await other.goto(link);
  await expect(tabs(other)).toHaveCount(2);
  await expect(tabs(other).nth(1)).toHaveText("cache-b");
  await tabs(other).nth(1).click();
  await expect(editor(other, "Desired state")).toHaveValue('{"x": {"replicas": 1}}');
  await fresh.close();
});

test("an object name in two custom resources: the simulation section refuses them and the tab is marked", async ({ page }) => {
  await page.goto("/");
  const observed = await editor(page, "Observed state").inputValue();
  await page.getByRole("button", { name: "Add custom resource" }).click();
  await typeInto(page, "Observed state", observed);
  await expect(tabs(page).nth(1)).toHaveAccessibleName("custom-resource-2 (has an error)");
  const errors = page.getByRole("list", { name: "Errors in the custom resources" });
  await expect(errors).toContainText("custom-resource-2: the object name");
  // Apart again, both run: the mark goes.
  await typeInto(page, "Observed state", "{}");
  await expect(tabs(page).nth(1)).toHaveAccessibleName("custom-resource-2");
  await expect(errors).toHaveCount(0);
});
