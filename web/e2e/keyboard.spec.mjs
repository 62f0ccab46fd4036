// Keyboard only: a full flow through the page without the mouse, with the
// documented shortcuts (docs/keyboard.md and the page's footer).
import { test, expect, editor, actionItems } from "./fixtures.mjs";

test.use({ permissions: ["clipboard-read", "clipboard-write"] });

/** "role name" of the focused element, close to what a screen reader says. */
const focused = (page) =>
  page.evaluate(() => {
    const element = document.activeElement;
    const roles = { SELECT: "combobox", BUTTON: "button", TEXTAREA: "textbox", SUMMARY: "summary", A: "link" };
    const inputRoles = { file: "file", text: "textbox", range: "slider", number: "spinbutton", checkbox: "checkbox", radio: "radio" };
    const role = element.tagName === "INPUT" ? inputRoles[element.type] : roles[element.tagName] ?? element.tagName;
    const name = element.getAttribute("aria-label") ?? element.labels?.[0]?.textContent ?? element.textContent;
    return `${role} ${name.trim().replace(/\s+/g, " ")}`;
  });

/**
 * Whether the focused element shows a focus ring: its own outline or shadow,
 * or that of the wrapper that draws it for a hidden or transparent control
 * (the editor's frame around its textarea, the Import label around its input).
 */
const focusIsVisible = (page) =>
  page.evaluate(() => {
    const element = document.activeElement;
    const rings = [element, element.closest(".code"), element.closest("label.button")].filter(Boolean);
    return rings.some((ring) => {
      const style = getComputedStyle(ring);
      const box = ring.getBoundingClientRect();
      const outlined = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 2;
      return box.width > 4 && box.height > 4 && (outlined || style.boxShadow !== "none");
    });
  });

/** Presses Tab and expects the focus to land on `expected`, with a visible ring. */
async function tabTo(page, expected) {
  await page.keyboard.press("Tab");
  expect(await focused(page)).toBe(expected);
  expect(await focusIsVisible(page), `visible focus on ${expected}`).toBe(true);
}

const progress = (page) => page.locator(".sim-progress");

test.beforeEach(async ({ page }) => {
  // Any pointer input would mean the flow was not keyboard-only.
  await page.addInitScript(() => {
    window.pointerEvents = 0;
    for (const type of ["pointerdown", "mousedown", "wheel"]) {
      addEventListener(type, () => (window.pointerEvents += 1), true);
    }
  });
});

test.afterEach(async ({ page }) => {
  expect(await page.evaluate(() => window.pointerEvents)).toBe(0);
});

test("Tab visits the header, toolbar, editors and simulation controls in order, always with a visible focus ring", async ({ page }) => {
  await page.goto("/");
  await expect(actionItems(page)).toHaveCount(3);
  for (const name of [
    "link Skip to the simulation",
    "combobox Preset",
    "combobox Lesson",
    "button New here? Start with lesson 1",
    "button Your reconcile",
    "button Recent sessions",
    "button Share",
    "button Download scenario",
    "button Download results",
    "button Download desired as YAML",
    "file Import a scenario file",
    "button Add custom resource",
    "summary Desired state is JSON: change the format",
    "button Format Desired state",
    "textbox Desired state",
  ]) {
    await tabTo(page, name);
  }

  // Tab passes through an editor without touching it...
  const desired = editor(page, "Desired state");
  const text = await desired.inputValue();
  await tabTo(page, "summary Observed state is JSON: change the format");
  await expect(desired).toHaveValue(text);
  await page.keyboard.press("Shift+Tab");
  expect(await focused(page)).toBe("textbox Desired state");
  // ...until the user types there or presses Enter: then Tab indents and
  // Shift+Tab outdents, until Esc.
  await page.keyboard.press("ControlOrMeta+Home");
  await page.keyboard.press("Enter");
  await page.keyboard.press("Tab");
  await expect(desired).toHaveValue(`\n  ${text}`);
  expect(await focused(page)).toBe("textbox Desired state");
  await page.keyboard.press("Shift+Tab");
  await expect(desired).toHaveValue(`\n${text}`);
  await page.keyboard.press("Backspace");
  await expect(desired).toHaveValue(text);
  await page.keyboard.press("Escape");
  await tabTo(page, "summary Observed state is JSON: change the format");
  await tabTo(page, "button Format Observed state");
  await tabTo(page, "textbox Observed state");
  await page.keyboard.press("Escape");
  await tabTo(page, "summary Finalizers is JSON: change the format");
  await tabTo(page, "button Format Finalizers");
  await tabTo(page, "textbox Finalizers");
  await page.keyboard.press("Escape");
  // The plan has nothing to operate; the simulation controls come next.
  for (const name of [
    "button Step",
    // "Previous event" is disabled until a step by event: no stop.
    "button Next event",
    "button Run to convergence",
    "button Play",
    "combobox Play speed",
    "summary Faults and settings",
  ]) {
    await tabTo(page, name);
  }
  // Closed on the page, as in embeds: Enter opens it, and Tab goes in.
  await page.keyboard.press("Enter");
  await tabTo(page, "combobox Target object");
  // Shift+Tab goes back the same way.
  await page.keyboard.press("Shift+Tab");
  expect(await focused(page)).toBe("summary Faults and settings");
  await page.keyboard.press("Shift+Tab");
  expect(await focused(page)).toBe("combobox Play speed");
});

test("a full keyboard flow: preset, shortcuts, simulation, disclosure panels and a lesson", async ({ page }) => {
  await page.goto("/");
  await expect(actionItems(page)).toHaveCount(3);

  // The preset menu: Alt+Down opens it, Escape closes it unchanged, and the
  // arrow keys then choose the next preset. (The skip link comes first.)
  await tabTo(page, "link Skip to the simulation");
  await tabTo(page, "combobox Preset");
  const preset = page.locator("#preset-select");
  await expect(preset).toHaveValue("basics");
  await page.keyboard.press("Alt+ArrowDown");
  await page.keyboard.press("Escape");
  await expect(preset).toHaveValue("basics");
  expect(await focused(page)).toBe("combobox Preset");
  await page.keyboard.press("ArrowDown");
  await expect(preset).toHaveValue("load-balancer-finalizer");
  await expect(actionItems(page)).toHaveText([/FINALIZE\s*svc/]);
  // The next preset runs four passes, enough for the steps below.
  await page.keyboard.press("ArrowDown");
  await expect(preset).toHaveValue("cache-2-replicas");
  await expect(actionItems(page)).toHaveText([/CREATE\s*cache-1/]);

  // Ctrl/Cmd+Enter runs one pass, from anywhere, even inside an editor.
  // (Thirteen Tabs reach the editor: the toolbar with Recent sessions, Add custom resource, then its format menu and Format.)
  for (let i = 0; i < 13; i++) await page.keyboard.press("Tab");
  expect(await focused(page)).toBe("textbox Desired state");
  const desiredText = await editor(page, "Desired state").inputValue();
  await page.keyboard.press("ControlOrMeta+Enter");
  await expect(progress(page)).toHaveText(/^Pass 1 of/);
  await expect(editor(page, "Desired state")).toHaveValue(desiredText);

  // Ctrl/Cmd+S copies a share link and shows it (the page stops the browser's "Save page").
  await page.keyboard.press("ControlOrMeta+s");
  const link = await page.getByLabel("Share link").inputValue();
  expect(link).toMatch(/\/#v2\/[A-Za-z0-9_-]+$/);
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(link);

  // The simulation controls answer Enter and Space; Play keeps the focus when it becomes Pause.
  await page.keyboard.press("Escape");
  for (const name of ["summary Observed state is JSON: change the format", "button Format Observed state", "textbox Observed state"]) await tabTo(page, name);
  await page.keyboard.press("Escape");
  for (const name of ["summary Finalizers is JSON: change the format", "button Format Finalizers", "textbox Finalizers"]) await tabTo(page, name);
  await page.keyboard.press("Escape");
  await tabTo(page, "button Step");
  await page.keyboard.press("Enter");
  await expect(progress(page)).toHaveText(/^Pass 2 of/);
  await tabTo(page, "button Next event");
  await tabTo(page, "button Run to convergence");
  await tabTo(page, "button Play");
  for (let i = 0; i < 3; i++) await page.keyboard.press("Shift+Tab");
  expect(await focused(page)).toBe("button Step");
  await page.keyboard.press("Space");
  // Issue 18 (one cursor): the preset's scripted delete after pass 2 is a moment of its own.
  await expect(progress(page)).toHaveText(/^Pass 2 of \d+, then another actor's event$/);
  for (let i = 0; i < 3; i++) await page.keyboard.press("Tab");
  expect(await focused(page)).toBe("button Play");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("button", { name: "Pause" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("button", { name: "Play" })).toBeFocused();
  await page.keyboard.press("Shift+Tab");
  await page.keyboard.press("Enter");
  await expect(page.locator(".verdict")).toContainText("Converged");

  // The timeline's passes open as snapshots.
  await tabTo(page, "button Play");
  await tabTo(page, "combobox Play speed");
  await tabTo(page, "button Reset");
  await tabTo(page, "button Pass 1 t = 1 ms why: custom resource added");
  await page.keyboard.press("Enter");
  await expect(page.getByText(/^Viewing pass 1; the run is revealed up to pass \d+\.$/)).toBeVisible();
  const faults = page.locator("details.fault-panel");
  let name = await focused(page);
  // The selected pass's "Every step" disclosure is a stop of its own.
  // Another actor's event is a row of its own (issue 18: one cursor), a stop too.
  const inTimeline = (name) => name.startsWith("button Pass ") || name.startsWith("summary Every step") || name.startsWith("button t = ");
  for (let passes = 1; inTimeline(name) && passes < 20; passes++) {
    await page.keyboard.press("Tab");
    name = await focused(page);
  }
  expect(name).toBe("summary Faults and settings");
  await page.keyboard.press("Enter");
  await expect(faults).toHaveAttribute("open");
  // Escape closes the disclosure panel that holds the focus and returns to its summary.
  await tabTo(page, "combobox Target object");
  await tabTo(page, "button Delete it");
  await page.keyboard.press("Escape");
  await expect(faults).not.toHaveAttribute("open");
  expect(await focused(page)).toBe("summary Faults and settings");
  await page.keyboard.press("Enter");
  await expect(faults).toHaveAttribute("open");
  const comparison = page.locator("details.level-edge");
  await page.keyboard.press("Escape");
  await expect(faults).not.toHaveAttribute("open");
  // The control plane's picture: Enter opens it at the cursor, Escape closes it.
  const picture = page.locator("details.control-plane");
  await tabTo(page, "summary The control plane, pictured");
  await page.keyboard.press("Enter");
  await expect(picture.locator(".cp-text li[data-part=now]")).toContainText("pass 1 returns");
  await page.keyboard.press("Escape");
  await expect(picture).not.toHaveAttribute("open");
  expect(await focused(page)).toBe("summary The control plane, pictured");
  await tabTo(page, "summary Level- vs edge-triggered");
  await page.keyboard.press("Enter");
  await expect(comparison.locator(".divergence")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(comparison).not.toHaveAttribute("open");
  await expect(comparison.locator(".divergence")).toHaveCount(0);
  expect(await focused(page)).toBe("summary Level- vs edge-triggered");

  // A lesson, from the menu to a checked prediction. The comparison's summary
  // is the last stop, so Tab wraps round to the top.
  await page.keyboard.press("Tab");
  await tabTo(page, "link Skip to the simulation");
  await tabTo(page, "combobox Preset");
  await tabTo(page, "combobox Lesson");
  await page.keyboard.press("ArrowDown");
  await expect(page.locator(".lesson-panel h2")).toHaveText("Desired vs observed: the four actions");
  // The lesson panel follows the toolbar; the editors follow the panel.
  for (const name of ["button Your reconcile", "button Recent sessions", "button Share", "button Download scenario", "button Download results", "button Download desired as YAML", "file Import a scenario file"]) {
    await tabTo(page, name);
  }
  // The share link notice is still up: it can be read, copied and dismissed by keyboard.
  await tabTo(page, "textbox Share link");
  await tabTo(page, "button Dismiss message");
  await page.keyboard.press("Enter");
  await expect(page.getByLabel("Share link")).toHaveCount(0);
  // The focus moves on to what follows the notice (not back to the toolbar,
  // not to the page's start), so the lesson panel is next.
  await expect(page.locator(".layout")).toBeFocused();
  await page.keyboard.press("Tab");
  expect(await focused(page)).toBe("button Close the lesson");
  await tabTo(page, "button Next →");
  await page.keyboard.press("Enter");
  await expect(page.locator(".lesson-progress")).toHaveText("Step 2 of 4");
  // Predict the plan: back to the first option, pick the actions in order
  // with Space, then Check.
  for (const name of ["button ← Previous", "button Check", "button Start over", "button DELETE c", "button FINALIZE c", "button DELETE b", "button UPDATE b", "button CREATE b", "button UPDATE a", "button CREATE a"]) {
    await page.keyboard.press("Shift+Tab");
    expect(await focused(page)).toBe(name);
  }
  await page.keyboard.press("Space");
  await expect(page.getByRole("button", { name: "CREATE a", exact: true })).toHaveAttribute("aria-pressed", "true");
  for (const name of ["button UPDATE a", "button CREATE b", "button UPDATE b"]) await tabTo(page, name);
  await page.keyboard.press("Space");
  for (const name of ["button DELETE b", "button FINALIZE c", "button DELETE c"]) await tabTo(page, name);
  await page.keyboard.press("Space");
  // The answer so far is in a polite live region.
  await expect(page.locator(".picked")).toHaveAttribute("aria-live", "polite");
  await expect(page.locator(".picked")).toContainText("CREATE a, UPDATE b, DELETE c");
  await tabTo(page, "button Start over");
  await tabTo(page, "button Check");
  await page.keyboard.press("Enter");
  await expect(page.locator(".feedback.right")).toBeVisible();
});

test("Your reconcile by keyboard alone: open, choose the language, write with Tab, leave with Esc then Tab, Check, load the counterexample", async ({ page }) => {
  await page.goto("/");
  await expect(actionItems(page)).toHaveCount(3);
  for (const name of ["link Skip to the simulation", "combobox Preset", "combobox Lesson", "button New here? Start with lesson 1", "button Your reconcile"]) {
    await tabTo(page, name);
  }
  await page.keyboard.press("Enter");
  // The button goes once the pane is open; the pane follows the editors.
  await expect(page.getByRole("region", { name: "Your reconcile" })).toBeVisible();
  const language = page.getByLabel("Language");
  await language.focus();
  await page.keyboard.press("ArrowDown");
  await expect(language).toHaveValue("javascript");
  for (const name of ["button Close Your reconcile", "textbox Your reconcile, in JavaScript"]) await tabTo(page, name);
  const code = page.getByRole("textbox", { name: "Your reconcile, in JavaScript" });
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.type("export function reconcile(desired, observed) {\n");
  await page.keyboard.press("Tab");
  await page.keyboard.type("return [];\n}\n");
  await expect(code).toHaveValue("export function reconcile(desired, observed) {\n  return [];\n}\n");
  await page.keyboard.press("Escape");
  await tabTo(page, "button Check");
  await page.keyboard.press("Enter");
  await expect(page.locator(".check-status")).toHaveText(/^Failed/, { timeout: 20_000 });
  // The focus stayed on Check while it ran.
  expect(await focused(page)).toBe("button Check");
  await tabTo(page, "button Run in the loop");
  await tabTo(page, "button Load into the editors");
  await page.keyboard.press("Enter");
  await expect(page.locator(".notice")).toContainText("Loaded the counterexample.");
});

test("from the top, a keyboard user reaches Step without changing any document: by the skip link, or by Tab through the editors", async ({ page }) => {
  await page.goto("/");
  await expect(actionItems(page)).toHaveCount(3);
  const documents = () => Promise.all(["Desired state", "Observed state", "Finalizers"].map((name) => editor(page, name).inputValue()));
  const before = await documents();
  await tabTo(page, "link Skip to the simulation");
  await page.keyboard.press("Enter");
  await tabTo(page, "button Step");
  // Without the skip link, Tab passes through the three editors.
  await page.goto("/");
  await expect(actionItems(page)).toHaveCount(3);
  for (let i = 0; i < 30 && (await focused(page)) !== "button Step"; i++) await page.keyboard.press("Tab");
  expect(await focused(page)).toBe("button Step");
  expect(await documents()).toEqual(before);
});
