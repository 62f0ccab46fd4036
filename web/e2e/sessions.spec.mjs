// Sessions per tab and the storage notice (issue 17; docs/sessions.md).
import { readFileSync } from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import { test, expect, editor, typeInto, actionSummaries, autosaved, flushAutosave, nextFrames } from "./fixtures.mjs";

const INDEX_KEY = "reconcile-playground/v1/sessions";
const TAB_KEY = "reconcile-playground/v1/tab-session";
const SESSION_KEY = (id) => `reconcile-playground/v1/session/${id}`;

const notice = (page) => page.locator(".notice:not(.storage-notice) p");
const storageNotice = (page) => page.locator(".storage-notice");
const recentButton = (page) => page.getByRole("button", { name: "Recent sessions", exact: true });
const recentList = (page) => page.getByRole("region", { name: "Recent sessions" });
const tabSession = (page) => page.evaluate((key) => sessionStorage.getItem(key), TAB_KEY);
const sessionText = (page, id) => page.evaluate((key) => localStorage.getItem(key), SESSION_KEY(id));
const indexLines = (page) =>
  page.evaluate((key) => (localStorage.getItem(key) ?? "").split("\n").filter(Boolean), INDEX_KEY);

/** Types `text` into the desired document and waits until the tab's session holds it. */
async function editDesired(page, text, mark) {
  await typeInto(page, "Desired state", text);
  await expect.poll(() => autosaved(page)).toContain(mark);
}

/** A new tab that edits its desired document to `text` (until its session holds `mark`). */
async function tabThatEdits(context, text, mark) {
  const page = await context.newPage();
  await page.goto("/");
  await editDesired(page, text, mark);
  return page;
}

test("two tabs keep their own work: after one closes, a new tab reaches it from Recent sessions", async ({ context }) => {
  const a = await tabThatEdits(context, '{"tab-a": {"replicas": 1}}', "tab-a");
  const b = await tabThatEdits(context, '{"tab-b": {"replicas": 2}}', "tab-b");
  expect(await tabSession(a)).not.toBe(await tabSession(b));
  await a.close();

  // A new tab starts from a copy of the newest session (b's), and says where the others are.
  const c = await context.newPage();
  await c.goto("/");
  await expect(editor(c, "Desired state")).toHaveValue('{"tab-b": {"replicas": 2}}');
  await expect(notice(c)).toContainText("This tab starts from a copy of your latest session.");
  // The copy is not listed as a session of its own until it is edited: not even once saved.
  await flushAutosave(c);
  expect(await indexLines(c)).toHaveLength(2);

  await c.getByRole("button", { name: "Show recent sessions" }).click();
  await expect(recentButton(c)).toHaveAttribute("aria-expanded", "true");
  const items = recentList(c).getByRole("listitem");
  await expect(items).toHaveCount(2);
  await expect(items.nth(0)).toContainText("Free play, saved just now");
  await expect(items.nth(0)).toContainText('{"tab-b": {"replicas": 2}}');
  await expect(items.nth(1)).toContainText('{"tab-a": {"replicas": 1}}');
  await items.nth(1).getByRole("button", { name: /tab-a/ }).click();
  await expect(editor(c, "Desired state")).toHaveValue('{"tab-a": {"replicas": 1}}');
  await expect.poll(() => actionSummaries(c)).toContain("CREATE tab-a");
  await expect(notice(c)).toContainText("Opened the session.");
  await expect(recentList(c)).toHaveCount(0);

  // c now continues a's session; b's is untouched, and can be deleted from the list.
  await editDesired(c, '{"tab-a": {"replicas": 5}}', '"replicas\\": 5');
  expect(await indexLines(c)).toHaveLength(2);
  const bId = await tabSession(b);
  expect(await sessionText(c, bId)).toContain("tab-b");
  await recentButton(c).click();
  await expect(items.nth(0)).toContainText("(this tab)");
  await expect(items.nth(0).getByRole("button", { name: /^Delete/ })).toHaveCount(0);
  await items.nth(1).getByRole("button", { name: /^Delete/ }).click();
  await expect(items).toHaveCount(1);
  expect(await sessionText(c, bId)).toBe(null);
});

test("a reload keeps the tab's own session even when another tab saved later", async ({ context }) => {
  const a = await tabThatEdits(context, '{"mine": {}}', "mine");
  await tabThatEdits(context, '{"theirs": {}}', "theirs");
  await a.reload();
  await expect(editor(a, "Desired state")).toHaveValue('{"mine": {}}');
  await expect(notice(a)).toHaveCount(0);
});

/** A second tab on the first one's session, as a duplicated tab is (it copies sessionStorage). */
async function duplicateOf(context, page, { deaf = false } = {}) {
  const id = await tabSession(page);
  const twin = await context.newPage();
  await twin.addInitScript(
    ([key, id, deaf]) => {
      if (!sessionStorage.getItem(key)) sessionStorage.setItem(key, id);
      // Deaf to other tabs' writes: the check before each save must catch them alone.
      // The keys it missed are kept, for a test to know when a write reached it.
      window.missedKeys = [];
      if (deaf) {
        window.addEventListener("storage", (event) => {
          event.stopImmediatePropagation();
          window.missedKeys.push(event.key);
        }, true);
      }
    },
    [TAB_KEY, id, deaf],
  );
  await twin.goto("/");
  return { id, twin };
}

test("two tabs on one session: the other tab's write makes this one fork, and neither overwrites the other", async ({ context }) => {
  const a = await tabThatEdits(context, '{"shared": {"v": 1}}', "shared");
  const { id, twin: b } = await duplicateOf(context, a);
  await expect(editor(b, "Desired state")).toHaveValue('{"shared": {"v": 1}}');
  expect(await tabSession(b)).toBe(id);

  await editDesired(a, '{"shared": {"v": 2}}', '\\"v\\": 2');
  await expect(notice(b)).toHaveText("This session is also open in another tab; this tab now keeps its own copy.");
  const forked = await tabSession(b);
  expect(forked).not.toBe(id);
  // The copy exists at once, with what b shows.
  await expect.poll(() => sessionText(b, forked)).toContain('\\"v\\": 1');

  await editDesired(b, '{"from-b": {}}', "from-b");
  expect(await sessionText(a, id)).toContain('\\"v\\": 2');
  expect(await sessionText(a, id)).not.toContain("from-b");
  expect(await tabSession(a)).toBe(id);
  await expect(notice(a)).toHaveCount(0);
  expect(await indexLines(a)).toHaveLength(2);
});

test("a tab that missed the other tab's write still forks before it saves", async ({ context }) => {
  const a = await tabThatEdits(context, '{"shared": {"v": 1}}', "shared");
  const { id, twin: b } = await duplicateOf(context, a, { deaf: true });
  await expect(editor(b, "Desired state")).toHaveValue('{"shared": {"v": 1}}');
  await editDesired(a, '{"shared": {"v": 2}}', '\\"v\\": 2');
  await expect.poll(() => b.evaluate(() => window.missedKeys)).toContain(SESSION_KEY(id));
  await nextFrames(b);
  await expect(notice(b)).toHaveCount(0);

  await typeInto(b, "Desired state", '{"later": {}}');
  await expect(notice(b)).toHaveText("This session is also open in another tab; this tab now keeps its own copy.");
  expect(await tabSession(b)).not.toBe(id);
  await expect.poll(() => autosaved(b)).toContain("later");
  expect(await sessionText(a, id)).toContain('\\"v\\": 2');
});

test("a full storage: a persistent notice with Download scenario and Copy share link, until a save succeeds", async ({ page }) => {
  // Fill local storage to the last byte before the page loads (once: a reload keeps it full).
  await page.addInitScript(() => {
    if (localStorage.getItem("filler-0") !== null) return;
    let n = 0;
    for (let size = 1 << 20; size >= 1; size = Math.floor(size / 2)) {
      const chunk = "x".repeat(size);
      try {
        for (;;) localStorage.setItem(`filler-${n++}`, chunk);
      } catch {
        // Full for this size; smaller ones may still fit.
      }
    }
  });
  await page.goto("/");
  await expect(storageNotice(page)).toHaveCount(0);
  await typeInto(page, "Desired state", '{"unsaved": {"replicas": 7}}');
  await expect(storageNotice(page)).toContainText("Autosave is off: this browser's storage is full.");
  // It stays through other messages and more edits.
  await page.getByRole("button", { name: "Copy share link" }).click();
  await expect(page.getByLabel("Share link")).toHaveValue(/#v2\//);
  await typeInto(page, "Observed state", "{}");
  await expect(storageNotice(page)).toBeVisible();

  const [file] = await Promise.all([
    page.waitForEvent("download"),
    storageNotice(page).getByRole("button", { name: "Download scenario" }).click(),
  ]);
  expect(file.suggestedFilename()).toBe("scenario.json");
  expect(JSON.parse(readFileSync(await file.path(), "utf8"))).toEqual({
    desired: { unsaved: { replicas: 7 } },
    observed: {},
    finalizers: null,
  });

  // Room again: the next save succeeds and the notice goes.
  await page.evaluate(() => {
    for (const key of Object.keys(localStorage)) if (key.startsWith("filler-")) localStorage.removeItem(key);
  });
  await typeInto(page, "Observed state", '{"b": {}}');
  await expect(storageNotice(page)).toHaveCount(0);
  expect(await autosaved(page)).toContain("unsaved");
});

/** Storage as a sandboxed third-party frame has it: reading `localStorage` or `sessionStorage` throws. */
function denyStorage(page) {
  return page.addInitScript(() => {
    for (const name of ["localStorage", "sessionStorage"]) {
      Object.defineProperty(window, name, {
        get() {
          throw new DOMException(`${name} is denied`, "SecurityError");
        },
      });
    }
  });
}

test("storage denied: the page says autosave is off at once, and still works", async ({ page }) => {
  await denyStorage(page);
  await page.goto("/");
  await expect(storageNotice(page)).toContainText("Autosave is off: this browser's storage is unavailable.");
  await typeInto(page, "Desired state", '{"works": {}}');
  await expect.poll(() => actionSummaries(page)).toEqual(["CREATE works", "DELETE b", "DELETE c"]);
  await page.getByRole("button", { name: "Step" }).click();
  await expect(page.getByRole("list", { name: "Passes" }).locator(":scope > li")).toHaveCount(1);
  await expect(storageNotice(page)).toBeVisible();
  await recentButton(page).click();
  await expect(recentList(page)).toContainText("No sessions saved in this browser yet.");
  // The address still holds the state: a share link is the way to keep it.
  await storageNotice(page).getByRole("button", { name: "Copy share link" }).click();
  await expect(page.getByLabel("Share link")).toHaveValue(/#v2\//);
});

test("storage denied in an embed: a compact notice that blocks nothing", async ({ page }) => {
  await denyStorage(page);
  await page.goto("/?embed");
  const compact = storageNotice(page);
  await expect(compact).toHaveText(/^Autosave is off: this browser's storage is unavailable\.Download scenarioCopy share link$/);
  await expect(compact).toHaveClass(/compact/);
  await typeInto(page, "Desired state", '{"embedded": {}}');
  await expect.poll(() => actionSummaries(page)).toContain("CREATE embedded");
  // The embed's address is the course page's frame's: Copy share link leaves it alone.
  await compact.getByRole("button", { name: "Copy share link" }).click();
  await expect(page.getByLabel("Share link")).toHaveValue(/#v2\//);
  expect(new URL(page.url()).hash).toBe("");
});

test("the Recent sessions menu works from the keyboard, and axe finds no violations in it", async ({ context }) => {
  await tabThatEdits(context, '{"first": {}}', "first");
  const page = await tabThatEdits(context, '{"second": {}}', "second");
  await recentButton(page).focus();
  await page.keyboard.press("Enter");
  await expect(recentList(page).getByRole("listitem")).toHaveCount(2);
  await page.keyboard.press("Tab");
  await expect(recentList(page).getByRole("button", { name: /first/ })).toBeFocused();
  for (const scheme of ["light", "dark"]) {
    await page.emulateMedia({ colorScheme: scheme });
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations.map((v) => `${v.id}: ${v.nodes[0]?.target.join(" ")}`), scheme).toEqual([]);
  }
  await page.keyboard.press("Escape");
  await expect(recentList(page)).toHaveCount(0);
  await expect(recentButton(page)).toBeFocused();
  await expect(recentButton(page)).toHaveAttribute("aria-expanded", "false");
});

test("axe finds no violations in the storage notice", async ({ page }) => {
  await denyStorage(page);
  await page.goto("/");
  await expect(storageNotice(page)).toBeVisible();
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes[0]?.target.join(" ")}`)).toEqual([]);
});
