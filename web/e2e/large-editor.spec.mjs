// A large document's editor holds a window of its lines (web/src/editor_window.rs):
// scrolling, the caret, Select All, copy, cut and paste must still act on the whole document.
import { test, expect, editor, paste, documentText } from "./fixtures.mjs";

test.use({ permissions: ["clipboard-read", "clipboard-write"] });

const RESOURCES = 5_000;

/** About 460 KB in 30,002 lines: far past what the editor holds whole (64 KB). */
function prettyDocument() {
  const members = Array.from(
    { length: RESOURCES },
    (_, i) => `  "pod-${String(i).padStart(5, "0")}": {\n    "replicas": ${i % 5},\n    "image": "app:1"\n  }`,
  );
  return `{\n${members.join(",\n")}\n}`;
}

const area = (page) => editor(page, "Desired state");
const pane = (page) => page.locator(".editor-pane", { has: area(page) });
/** The first and last line numbers in the gutter. */
async function gutterRange(page) {
  const numbers = (await pane(page).locator(".gutter .numbers").textContent()).trim().split(/\s+/).map(Number);
  return [numbers[0], numbers[numbers.length - 1]];
}

async function openWith(page, desired) {
  await page.goto("/");
  await expect(page.locator("#plan-summary")).not.toBeEmpty();
  await paste(page, "Observed state", "{}");
  await paste(page, "Desired state", desired);
}

test("a large document is edited through a window of its lines", async ({ page }) => {
  const text = prettyDocument();
  const lines = text.split("\n").length;
  await openWith(page, text);
  await expect(page.locator("#plan-summary")).toHaveText(`${RESOURCES} to create, 0 to update, 0 to finalize, 0 to delete`);

  // The textarea holds a part of the document, and the part is the document's own text.
  const shown = await area(page).inputValue();
  expect(shown.length).toBeLessThan(text.length / 10);
  expect(text.includes(shown)).toBe(true);

  // Ctrl+Home and Ctrl+End reach the document's ends, not just the window's.
  await area(page).focus();
  await page.keyboard.press("ControlOrMeta+Home");
  await expect.poll(() => gutterRange(page).then(([first]) => first)).toBe(1);
  expect(text.startsWith(await area(page).inputValue())).toBe(true);
  await page.keyboard.press("ControlOrMeta+End");
  await expect.poll(() => gutterRange(page).then(([, last]) => last)).toBe(lines);
  expect(text.endsWith(await area(page).inputValue())).toBe(true);
  expect(await area(page).evaluate((a) => a.selectionStart === a.value.length)).toBe(true);

  // Scrolling to the middle brings the middle's lines in.
  await pane(page).locator(".code").evaluate((code) => {
    code.scrollTop = code.scrollHeight / 2;
  });
  // (Waits for the window to leave the end that Ctrl+End put it at: its first
  // line there is past a quarter too, so that alone would not wait.)
  await expect
    .poll(() => gutterRange(page).then(([first]) => first > lines / 4 && first < lines / 2))
    .toBe(true);
  const [first, last] = await gutterRange(page);
  expect(first).toBeLessThan(lines / 2);
  expect(last).toBeGreaterThan(lines / 2);
  await expect(area(page)).toHaveValue(/"pod-02500": \{\n    "replicas": 0,/);

  // Typing there edits that spot of the whole document.
  const target = '"pod-02500": {\n    "replicas": 0';
  await area(page).evaluate((a, target) => {
    const at = a.value.indexOf(target) + target.length;
    a.focus();
    a.setSelectionRange(at, at);
  }, target);
  await page.keyboard.press("Backspace");
  await page.keyboard.type("42");
  const edited = text.replace(target, '"pod-02500": {\n    "replicas": 42');
  await expect.poll(() => documentText(page, "Desired state").then((t) => t === edited)).toBe(true);
  await expect(page.locator("#plan-summary")).toHaveText(`${RESOURCES} to create, 0 to update, 0 to finalize, 0 to delete`);

  // Select All + Copy puts the whole document on the clipboard.
  await area(page).focus();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.press("ControlOrMeta+c");
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText()).then((t) => t === edited)).toBe(true);

  // Select All, then typing, replaces the whole document.
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.type('{"web": {}}');
  await expect(area(page)).toHaveValue('{"web": {}}');
  await expect(page.locator("#plan-summary")).toHaveText("1 to create, 0 to update, 0 to finalize, 0 to delete");
  expect(await gutterRange(page)).toEqual([1, 1]);
});

test("a large paste lands whole, with the caret at its end", async ({ page }) => {
  const text = prettyDocument();
  await openWith(page, '{"web": {}}');
  await page.evaluate((text) => navigator.clipboard.writeText(text), text);
  await area(page).focus();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.press("ControlOrMeta+v");
  await expect(page.locator("#plan-summary")).toHaveText(`${RESOURCES} to create, 0 to update, 0 to finalize, 0 to delete`);
  // The window is where the caret is: at the end of the pasted text, on screen.
  await expect.poll(() => gutterRange(page).then(([, last]) => last)).toBe(text.split("\n").length);
  expect(await area(page).evaluate((a) => a.selectionStart === a.value.length)).toBe(true);
  expect(
    await pane(page).locator(".code").evaluate((code) => code.scrollTop + code.clientHeight >= code.scrollHeight - 40),
  ).toBe(true);
  expect(await documentText(page, "Desired state")).toBe(text);

  // Pasting into the middle of it inserts there.
  await area(page).evaluate((a) => {
    const at = a.value.indexOf('"image": "app:1"');
    a.setSelectionRange(at, at);
  });
  const offsetInWindow = await area(page).evaluate((a) => a.selectionStart);
  const windowText = await area(page).inputValue();
  const windowStart = text.lastIndexOf(windowText);
  const insert = `"note": "${"n".repeat(20_000)}",\n    `;
  await page.evaluate((insert) => navigator.clipboard.writeText(insert), insert);
  await page.keyboard.press("ControlOrMeta+v");
  const expected = text.slice(0, windowStart + offsetInWindow) + insert + text.slice(windowStart + offsetInWindow);
  await expect.poll(() => documentText(page, "Desired state").then((t) => t === expected)).toBe(true);
});

test("Select All + Cut takes the whole large document", async ({ page }) => {
  const text = prettyDocument();
  await openWith(page, text);
  await expect(page.locator("#plan-summary")).toHaveText(`${RESOURCES} to create, 0 to update, 0 to finalize, 0 to delete`);
  await area(page).focus();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.press("ControlOrMeta+x");
  await expect(area(page)).toHaveValue("");
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText()).then((t) => t === text)).toBe(true);
  await expect(page.locator("#desired-error")).toContainText("the document is empty");
});

test("a document of one long line is shown a piece at a time", async ({ page }) => {
  const desired = Object.fromEntries(Array.from({ length: 3_000 }, (_, i) => [`pod-${i}`, { replicas: i % 4, image: "registry.example/app:1.2.3" }]));
  const text = JSON.stringify(desired);
  expect(text.length).toBeGreaterThan(150_000);
  await openWith(page, text);
  await expect(page.locator("#plan-summary")).toHaveText("3000 to create, 0 to update, 0 to finalize, 0 to delete");
  const shown = await area(page).inputValue();
  expect(shown.length).toBeLessThanOrEqual(40_000);
  expect(text.includes(shown)).toBe(true);
  await area(page).focus();
  await page.keyboard.press("ControlOrMeta+Home");
  await expect.poll(() => area(page).inputValue().then((value) => text.startsWith(value))).toBe(true);
  // Typing at the start edits the start of the line.
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await page.keyboard.type("x");
  await expect.poll(() => documentText(page, "Desired state").then((t) => t === `{"xpod-0${text.slice(7)}`)).toBe(true);
  await page.keyboard.press("ControlOrMeta+End");
  await expect.poll(() => area(page).inputValue().then((value) => value.endsWith(text.slice(-40)))).toBe(true);
  expect(await gutterRange(page)).toEqual([1, 1]);
});

test("an error outside the window has a Go to line button that brings it in", async ({ page }) => {
  const text = prettyDocument().replace('"pod-02500": {\n    "replicas": 0,', '"pod-02500": {\n    "replicas": 0,,');
  await openWith(page, text);
  const message = "Line 10003, column 19 at $[\"pod-02500\"]: expected a member name in double quotes";
  await expect(page.locator("#desired-error")).toHaveText(message);
  // The paste left the caret, and so the window, at the end: line 10003 is not in it.
  await expect.poll(() => gutterRange(page).then(([, last]) => last)).toBe(text.split("\n").length);
  await expect(pane(page).locator(".gutter .error-line")).toHaveCount(0);
  await pane(page).getByRole("button", { name: "Go to line 10003" }).click();
  await expect(pane(page).locator(".gutter .error-line")).toHaveText("10003");
  await expect(pane(page).locator(".highlight .line.error-line")).toHaveText('    "replicas": 0,,');
  await expect(area(page)).toBeFocused();
  // The caret is at line 10003, column 19: just before the second comma.
  const caret = await area(page).evaluate((a) => [a.value.slice(a.selectionStart - 18, a.selectionStart), a.value[a.selectionStart]]);
  expect(caret).toEqual(['    "replicas": 0,', ","]);
  await expect(pane(page).getByRole("button", { name: "Go to line 10003" })).toHaveCount(0);
});
