// Shared test setup: every test fails on a console error or an uncaught exception (a wasm panic is one).
import { test as base, expect } from "@playwright/test";
import { readFileSync, readdirSync } from "node:fs";

export const test = base.extend({
  // A RegExp for the problems a test provokes on purpose, matched against
  // "console error: …" / "page error: …"; every other problem still fails the test.
  expectedProblems: [null, { option: true }],
  page: async ({ page, expectedProblems }, use) => {
    const problems = [];
    const note = (problem) => {
      if (!expectedProblems?.test(problem)) problems.push(problem);
    };
    page.on("console", (msg) => {
      if (msg.type() === "error") note(`console error: ${msg.text()}`);
    });
    page.on("pageerror", (error) => note(`page error: ${error.message}`));
    await use(page);
    expect(problems, "no console errors or panics").toEqual([]);
  },
});

export { expect };

export const editor = (page, name) => page.getByRole("textbox", { name, exact: true });
export const actionList = (page) => page.getByRole("list", { name: "Actions", exact: true });
export const actionItems = (page) => actionList(page).locator(":scope > li");

/** Replaces an editor's text by typing it, as a person would. */
export async function typeInto(page, name, text) {
  const box = editor(page, name);
  await box.click();
  await box.press("ControlOrMeta+a");
  await box.press("Delete");
  await box.pressSequentially(text);
}

/** Pastes text over the whole of an editor's document: one input event, as a paste sends (`fill` is slow for megabytes). */
export async function paste(page, name, text) {
  await editor(page, name).evaluate((area, value) => {
    // Over a Select All: a large document's editor holds a window of it, and a
    // whole-window selection stands for the whole document.
    area.setSelectionRange(0, area.value.length);
    area.dispatchEvent(new InputEvent("beforeinput", { inputType: "insertFromPaste", bubbles: true }));
    area.value = value;
    area.dispatchEvent(new Event("input", { bubbles: true }));
  }, text);
}

/** The whole document an editor holds, as Select All + Copy gives it (the textarea of a
 *  large document holds only a window of it; Copy over Select All takes the whole). */
export async function documentText(page, name) {
  return editor(page, name).evaluate((area) => {
    area.setSelectionRange(0, area.value.length);
    const clipboardData = new DataTransfer();
    const copy = new ClipboardEvent("copy", { clipboardData, bubbles: true, cancelable: true });
    area.dispatchEvent(copy);
    return copy.defaultPrevented ? clipboardData.getData("text/plain") : area.value;
  });
}

/** The action list as ["KIND name", ...]. */
export async function actionSummaries(page) {
  const items = actionItems(page);
  const kinds = await items.locator(".kind").allTextContents();
  const names = await items.locator(".name").allTextContents();
  return kinds.map((kind, i) => `${kind} ${names[i]}`);
}

/** What the page autosaved in its tab's own session (the tab's sessionStorage names it), or "". */
export function autosaved(page) {
  return page.evaluate(() => {
    const id = sessionStorage.getItem("reconcile-playground/v1/tab-session");
    return localStorage.getItem(`reconcile-playground/v1/session/${id}`) ?? "";
  });
}

/** Holds the requests matching `pattern` until the returned function is called; then `answer` answers them (the server's file by default). */
export async function holdRequests(page, pattern, answer = (route) => route.continue()) {
  let release;
  const released = new Promise((resolve) => (release = resolve));
  await page.route(pattern, async (route) => {
    await released;
    await answer(route);
  });
  return release;
}

/** Opens "Faults and settings" (closed on the page, as in embeds) and, with `advanced`, its advanced settings. */
export async function openSettings(page, { advanced = false } = {}) {
  const faults = page.locator("details.fault-panel");
  if (!(await faults.evaluate((details) => details.open))) await faults.locator(":scope > summary").click();
  if (!advanced) return;
  const more = faults.locator("details.advanced-settings");
  if (!(await more.evaluate((details) => details.open))) await more.locator(":scope > summary").click();
}

// Waits on events, not sleeps. A test that proves something does not happen
// waits for a later event ordered after it, then asserts.

/** Resolves after the page's next two frames: what the tasks before changed is rendered. */
export const nextFrames = (target) =>
  target.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));

/** Resolves once a timer of `ms` started now in the page has fired. Every timer the page
 *  started before, with a delay of `ms` or less, fired first: the HTML standard runs them in order. */
export const afterPageTimer = (target, ms) =>
  target.evaluate((ms) => new Promise((resolve) => setTimeout(resolve, ms)), ms);

/** Saves the autosave and the address now, as leaving the page does (sw-register.js does
 *  the same before its reload). Returns the address, as it is after the save. */
export const flushAutosave = (target) =>
  target.evaluate(() => {
    dispatchEvent(new PageTransitionEvent("pagehide", { persisted: false }));
    return location.href;
  });

/** A `u32` constant of the page's Rust source, e.g. a delay: one source for the page and its tests. */
export function rustConstant(file, name) {
  const source = readFileSync(new URL(`../${file}`, import.meta.url), "utf8");
  const found = source.match(new RegExp(`const ${name}: u32 = ([\\d_]+);`));
  if (!found) throw new Error(`no const ${name}: u32 in ${file}`);
  return Number(found[1].replaceAll("_", ""));
}

/** The message a test posts after others, to learn that they were handled. */
export const MARKER = "e2e-marker";

/** Starts listening in `target` (a page or a frame) for the MARKER. */
export const listenForMarker = (target) =>
  target.evaluate((marker) => {
    window.e2eMarker = new Promise((resolve) => {
      addEventListener("message", function heard(event) {
        if (event.data !== marker) return;
        removeEventListener("message", heard);
        resolve();
      });
    });
  }, MARKER);

/** Resolves once `target` heard the MARKER. One sender's messages arrive in order, so every
 *  message it posted before the marker was handled; two frames later, what they changed is rendered. */
export const heardMarker = (target) =>
  target.evaluate(async () => {
    await window.e2eMarker;
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  });

/** The Playwright frame of an iframe, to run code in it. */
export const frameOf = async (page, selector = "#pg") => (await page.locator(selector).elementHandle()).contentFrame();

/** The lesson files (the page's index is built from them), in teaching order:
 *  [{ id, steps: [{ exercise }] }]. Tests read answers here, never type them. */
const lessonsDir = new URL("../../crates/reconcile-content/lessons/", import.meta.url);
export const LESSONS = readdirSync(lessonsDir)
  .filter((file) => file.endsWith(".json"))
  .sort()
  .map((file) => JSON.parse(readFileSync(new URL(file, lessonsDir), "utf8")));

/** The right choice of step `step` (from 1) of lesson `id`, as its file says. */
export function answer(id, step) {
  const lesson = LESSONS.find((lesson) => lesson.id === id);
  const choices = lesson?.steps[step - 1]?.exercise?.choices ?? [];
  const right = choices.filter((choice) => choice.correct);
  if (right.length !== 1) throw new Error(`lesson ${id}, step ${step}: ${right.length} right choices`);
  return right[0].text;
}
