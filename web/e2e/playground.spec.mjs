import { test, expect, editor, actionList, actionItems, typeInto, actionSummaries } from "./fixtures.mjs";

test.beforeEach(async ({ page }) => {
  await page.goto("/");
  await expect(actionItems(page).first()).toBeVisible();
});

test("loads the seed example with its exact action list", async ({ page }, testInfo) => {
  await expect(page).toHaveTitle("Reconcile Playground");
  for (const name of ["Desired state", "Observed state", "Finalizers"]) {
    await expect(editor(page, name)).toBeVisible();
  }
  expect(await actionSummaries(page)).toEqual(["CREATE a", "UPDATE b", "DELETE c"]);
  await expect(page.locator("#plan-summary")).toHaveText("1 to create, 1 to update, 0 to finalize, 1 to delete");
  const update = actionItems(page).nth(1);
  await expect(update.locator(".spec")).toHaveText('{"replicas":3}');
  await expect(update.getByRole("list", { name: "Drift of b" })).toHaveText(/\$\.replicas: 1\s*→\s*becomes\s*3/);
  await expect(actionItems(page).nth(2).locator(".reason")).toHaveText("no longer desired, and it has no finalizers");
  await page.screenshot({ path: testInfo.outputPath("playground.png"), fullPage: true });
});

test("each preset shows its action list", async ({ page }) => {
  const presets = page.getByLabel("Preset", { exact: true });
  await presets.selectOption({ label: "LoadBalancer finalizer" });
  expect(await actionSummaries(page)).toEqual(["FINALIZE svc"]);
  await expect(page.locator("#plan-summary")).toHaveText("0 to create, 0 to update, 1 to finalize, 0 to delete");
  await expect(actionItems(page).first().locator(".reason")).toContainText("cloud/lb-cleanup");

  await presets.selectOption({ label: "Cache with 2 replicas" });
  expect(await actionSummaries(page)).toEqual(["CREATE cache-1"]);
  await expect(editor(page, "Observed state")).toHaveValue(/cache-0/);

  await presets.selectOption({ label: "Create, update, delete" });
  expect(await actionSummaries(page)).toEqual(["CREATE a", "UPDATE b", "DELETE c"]);
});

test("typing into each editor updates the list live", async ({ page }) => {
  await typeInto(page, "Desired state", '{"a": {"replicas": 1}, "b": {"replicas": 1.0}, "d": true}');
  await expect.poll(() => actionSummaries(page)).toEqual(["CREATE a", "CREATE d", "DELETE c"]);

  await typeInto(page, "Observed state", '{"b": {"replicas": 1}, "c": {}, "z": null}');
  await expect.poll(() => actionSummaries(page)).toEqual(["CREATE a", "CREATE d", "DELETE c", "DELETE z"]);

  await typeInto(page, "Finalizers", '{"c": ["example.com/cleanup"], "z": []}');
  await expect.poll(() => actionSummaries(page)).toEqual(["CREATE a", "CREATE d", "FINALIZE c", "DELETE z"]);
  await expect(page.locator("#plan-summary")).toHaveText("2 to create, 0 to update, 1 to finalize, 1 to delete");
  await expect(page.getByText("Custom (edited)")).toBeAttached();
});

test("invalid JSON shows line:col, keeps the text and marks the list stale", async ({ page }) => {
  const typed = '{\n"b": {"replicas": 1},\n"c": {"replicas": 1},\n}';
  await typeInto(page, "Observed state", typed);
  const error = page.locator("#observed-error");
  await expect(error).toHaveText(/^Line 4, column 1 at \$: trailing comma/);
  await expect(editor(page, "Observed state")).toHaveValue(typed);
  await expect(editor(page, "Observed state")).toHaveAttribute("aria-invalid", "true");
  await expect(actionList(page)).toHaveAttribute("data-stale", "true");
  await expect(page.getByText("Stale", { exact: true })).toBeVisible();
  // The last valid result stays visible.
  expect(await actionSummaries(page)).toEqual(["CREATE a", "UPDATE b", "DELETE c"]);
  // The error line is marked in the gutter.
  await expect(page.locator(".editor-pane.has-error .gutter .error-line")).toHaveText(/4/);

  // Fixing it clears the error and the staleness.
  await editor(page, "Observed state").press("ControlOrMeta+End");
  await editor(page, "Observed state").press("ArrowUp");
  await editor(page, "Observed state").press("End");
  await editor(page, "Observed state").press("Backspace");
  await expect(error).toHaveText("");
  await expect(actionList(page)).toHaveAttribute("data-stale", "false");
});

test("Tab indents once you type, Format pretty-prints, and Format on bad JSON keeps the text", async ({ page }) => {
  await typeInto(page, "Desired state", '{"a":{"replicas":1}}');
  const desired = editor(page, "Desired state");
  await desired.press("Home");
  await desired.press("Tab");
  await expect(desired).toHaveValue('  {"a":{"replicas":1}}');
  await desired.press("Shift+Tab");
  await expect(desired).toHaveValue('{"a":{"replicas":1}}');

  await page.getByRole("button", { name: "Format Desired state" }).click();
  await expect(desired).toHaveValue('{\n  "a": {\n    "replicas": 1\n  }\n}\n');

  await typeInto(page, "Observed state", '{"b": [1, 2');
  await page.getByRole("button", { name: "Format Observed state" }).click();
  await expect(editor(page, "Observed state")).toHaveValue('{"b": [1, 2');
  await expect(page.locator("#observed-error")).toContainText("Line 1, column");

  // Escape, then Tab, leaves the editor instead of indenting.
  await desired.focus();
  await desired.press("End");
  await desired.press("x");
  await desired.press("Escape");
  await desired.press("Tab");
  await expect(desired).not.toBeFocused();
  // Reached without typing, Tab passes through and leaves the text as it was.
  const before = await desired.inputValue();
  await desired.focus();
  await desired.press("Tab");
  await expect(desired).not.toBeFocused();
  await expect(desired).toHaveValue(before);
});

test("names sort by code point, not UTF-16", async ({ page }) => {
  await typeInto(page, "Observed state", "{}");
  await typeInto(page, "Desired state", '{"\uE000": 1, "\u{1F680}": 2, "b": 3}');
  await expect.poll(() => actionSummaries(page)).toEqual(["CREATE b", "CREATE \uE000", "CREATE \u{1F680}"]);
});
