// If the page panics, the user sees a banner that keeps their work (docs/bad-input.md).
// `?debug=panic` makes the next edit panic on purpose, in the release build.
import { test, expect, editor, typeInto, paste, actionSummaries, autosaved } from "./fixtures.mjs";

const PANIC_MESSAGE = "deliberate panic on edit, requested with ?debug=panic";

test.use({
  permissions: ["clipboard-read", "clipboard-write"],
  // The panic, logged with its stack, and the trap that the release build's
  // abort turns it into: expected here, and nothing else.
  expectedProblems:
    /^console error: panicked at web\/src\/hooks\/use_page_callbacks\.rs:\d+:\d+:\ndeliberate panic on edit, requested with \?debug=panic\n|^page error: unreachable$/,
});

test("a panic shows a banner that keeps the work, copies debug info and reloads the state", async ({ page }) => {
  const logged = [];
  page.on("console", (msg) => msg.type() === "error" && logged.push(msg.text()));
  page.on("pageerror", (error) => logged.push(error.message));

  // Earlier work, autosaved.
  await page.goto("/");
  await typeInto(page, "Desired state", '{"kept": {"replicas": 2}}');
  await expect.poll(() => autosaved(page)).toContain("kept");

  await page.goto("/?debug=panic");
  await expect(editor(page, "Desired state")).toHaveValue('{"kept": {"replicas": 2}}');
  const observed = await editor(page, "Observed state").inputValue();
  // This keystroke panics before the reducer sees it; the banner still keeps it.
  await editor(page, "Observed state").click();
  await editor(page, "Observed state").press("ControlOrMeta+End");
  await page.keyboard.type("x");

  const banner = page.getByRole("alert");
  await expect(banner).toBeVisible();
  await expect(banner).toContainText("Something went wrong inside the playground.");
  await expect(banner).toContainText("Your work is kept: Reload brings back your documents and settings.");
  await expect(banner.getByRole("button", { name: "Reload" })).toBeFocused();
  expect(logged).toHaveLength(2);
  expect(logged[0]).toContain(PANIC_MESSAGE);
  expect(logged[1]).toBe("unreachable");

  // Saved at once, and the address now holds the state (without ?debug=panic).
  expect(JSON.parse(await autosaved(page)).observed).toBe(`${observed}x`);
  expect(new URL(page.url()).search).toBe("");
  expect(new URL(page.url()).hash).toMatch(/^#v2\//);

  await banner.getByRole("button", { name: "Copy debug info" }).click();
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toContain(PANIC_MESSAGE);
  const info = await page.evaluate(() => navigator.clipboard.readText());
  expect(info).toMatch(/^Reconcile Playground \d+\.\d+\.\d+ panicked\n/);
  expect(info).toMatch(/\nLocation: web\/src\/hooks\/use_page_callbacks\.rs:\d+:\d+\n/);
  expect(info).toContain(`\nUser agent: ${await page.evaluate(() => navigator.userAgent)}\n`);
  expect(info).toContain(`\nState: ${page.url()}\n`);
  // Text only: the banner holds no element it did not build itself.
  await expect(banner.locator("pre")).toHaveText(info);
  await expect(banner.locator("pre *")).toHaveCount(0);

  await Promise.all([page.waitForEvent("load"), banner.getByRole("button", { name: "Reload" }).click()]);
  await expect(editor(page, "Observed state")).toHaveValue(`${observed}x`);
  await expect(editor(page, "Desired state")).toHaveValue('{"kept": {"replicas": 2}}');
  await expect(page.getByRole("alert")).toHaveCount(0);
  await expect(page.locator(".notice")).toHaveCount(0);
  // A working page again: this edit re-plans instead of panicking.
  await typeInto(page, "Observed state", "{}");
  await expect.poll(() => actionSummaries(page)).toEqual(["CREATE kept"]);
  expect(logged).toHaveLength(2);
});

test("a panic keeps a large document whole, not the window its editor shows", async ({ page }) => {
  // About 200 KB in 15,000 lines: the editor holds a window of it.
  const large = `{\n${Array.from({ length: 3_000 }, (_, i) => `  "pod-${i}": {\n    "replicas": ${i % 3},\n    "image": "app:1"\n  }`).join(",\n")}\n}`;
  await page.goto("/");
  await paste(page, "Desired state", large);
  await expect.poll(() => autosaved(page).then((saved) => saved.includes("pod-2999"))).toBe(true);

  await page.goto("/?debug=panic");
  const shown = await editor(page, "Desired state").inputValue();
  expect(shown.length).toBeLessThan(large.length / 4);
  await editor(page, "Observed state").click();
  await page.keyboard.type("x");
  await expect(page.getByRole("alert")).toBeVisible();
  expect(JSON.parse(await autosaved(page)).desired).toBe(large);
});
