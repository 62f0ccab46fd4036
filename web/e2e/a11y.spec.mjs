import AxeBuilder from "@axe-core/playwright";
import { test, expect, actionItems, editor, holdRequests, LESSONS, afterPageTimer, nextFrames, rustConstant } from "./fixtures.mjs";
import { knownBug } from "./controller-exercises.mjs";

/** The lesson files, in teaching order. */
const lessons = LESSONS;

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

for (const scheme of ["light", "dark"]) {
  test(`axe finds no violations in the share notice with the embed code open (${scheme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto("/");
    await page.getByRole("button", { name: "Share" }).click();
    await page.getByText("Embed this state in a course page").click();
    await page.locator(".embed-code").getByLabel("Read-only (documents, faults and settings)").check();
    await expect(page.getByLabel("Embed code")).toHaveValue(/readonly/);
    expect(await violations(page)).toEqual([]);
  });
}

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

test("axe finds no violations on the embed view of a lesson", async ({ page }) => {
  await page.goto("/?embed&lesson=triggers&step=2");
  await expect(page.locator(".lesson-panel .lesson-text")).toBeVisible();
  expect(await violations(page)).toEqual([]);
});

test.describe("a lesson whose file is slow or fails", () => {
  test.use({ expectedProblems: /^console error: Failed to load resource: net::ERR_FAILED$/ });
  test("axe finds no violations while it loads, nor in its error", async ({ page }) => {
    const release = await holdRequests(page, "**/lessons/06-triggers.json", (route) => route.abort());
    await page.goto("/?lesson=triggers&step=2");
    await expect(page.locator(".lesson-loading")).toBeVisible();
    expect(await violations(page), "loading").toEqual([]);
    release();
    await expect(page.locator(".lesson-load-error")).toBeVisible();
    expect(await violations(page), "failed").toEqual([]);
  });
});

test("the lesson files are the lessons the page offers", async ({ page }) => {
  await page.goto("/");
  // The menu is filled once the wasm has started; poll, since the page's HTML arrives first.
  const offered = () =>
    page.getByRole("combobox", { name: "Lesson" }).locator("option").evaluateAll((options) =>
      options.map((option) => option.value).filter(Boolean),
    );
  await expect.poll(offered).toEqual(lessons.map((lesson) => lesson.id));
});

/** Answers the step's exercise (rightly or not), so its feedback and revealed panes show. */
async function answer(page, exercise) {
  const panel = page.locator(".lesson-panel");
  switch (exercise.kind) {
    case "passes":
      await panel.getByRole("spinbutton").fill("2");
      break;
    case "choice":
      await panel.getByRole("radio").first().check();
      break;
    default:
      await panel.getByRole("group", { name: "Actions to choose from" }).getByRole("button").first().click();
  }
  await panel.getByRole("button", { name: "Check", exact: true }).click();
  await expect(panel.locator(".feedback")).toBeVisible();
}

// Every step of every lesson: as it opens (light), and with the exercise's feedback (dark).
for (const lesson of lessons) {
  for (const [index, step] of lesson.steps.entries()) {
    test(`axe finds no violations on lesson "${lesson.id}", step ${index + 1}`, async ({ page }) => {
      await page.emulateMedia({ colorScheme: "light" });
      await page.goto(`/?lesson=${lesson.id}&step=${index + 1}`);
      await expect(page.locator(".lesson-progress")).toHaveText(`Step ${index + 1} of ${lesson.steps.length}`);
      // The lesson's text has arrived (not "Loading lesson…").
      await expect(page.locator(".lesson-panel .lesson-text")).toBeVisible();
      expect(await violations(page)).toEqual([]);
      if (step.exercise) {
        await page.emulateMedia({ colorScheme: "dark" });
        await answer(page, step.exercise);
        expect(await violations(page), "with the feedback showing").toEqual([]);
      }
    });
  }
}

// ------------------------------------------------------------ the live region

const announcement = (page) => page.locator("#plan-announcement");
/** How long the page waits before it announces a plan, and before it checks an edit. */
const ANNOUNCE_DELAY_MS = rustConstant("src/components/action_list.rs", "ANNOUNCE_DELAY_MS");
const CHECK_DELAY_MS = rustConstant("src/hooks/use_playground.rs", "CHECK_DELAY_MS");

/** Resolves once any announcement the page has planned so far was made, and rendered. */
async function afterAnnouncements(page) {
  await afterPageTimer(page, ANNOUNCE_DELAY_MS);
  await nextFrames(page);
}

test("plan changes are announced once, in a polite live region, after typing settles", async ({ page }) => {
  await page.goto("/");
  await expect(actionItems(page)).toHaveCount(3);
  await expect(announcement(page)).toHaveAttribute("aria-live", "polite");
  await expect(announcement(page)).toHaveAttribute("aria-atomic", "true");
  // The plan on screen at load is not announced.
  await afterAnnouncements(page);
  await expect(announcement(page)).toHaveText("");

  await editor(page, "Desired state").fill('{"n": {}}');
  await expect(announcement(page)).toHaveText("Plan: 1 to create, 0 to update, 0 to finalize, 2 to delete. CREATE n, DELETE b, DELETE c.");

  // Type one key at a time, slower than the page re-plans: the list changes at every key,
  // the announcement once, when typing stops.
  await page.evaluate(() => {
    window.planChanges = 0;
    window.announcements = [];
    new MutationObserver(() => (window.planChanges += 1)).observe(document.querySelector(".actions"), { subtree: true, characterData: true, childList: true });
    const region = document.getElementById("plan-announcement");
    new MutationObserver(() => window.announcements.push(region.textContent)).observe(region, { subtree: true, characterData: true, childList: true });
  });
  await editor(page, "Desired state").evaluate((area) => area.setSelectionRange(3, 3));
  await editor(page, "Desired state").pressSequentially("ew", { delay: 250 });
  await expect(editor(page, "Desired state")).toHaveValue('{"new": {}}');
  await expect(announcement(page)).toHaveText("Plan: 1 to create, 0 to update, 0 to finalize, 2 to delete. CREATE new, DELETE b, DELETE c.");
  expect(await page.evaluate(() => window.planChanges)).toBeGreaterThanOrEqual(2);
  await afterAnnouncements(page);
  expect(await page.evaluate(() => window.announcements)).toEqual([
    "Plan: 1 to create, 0 to update, 0 to finalize, 2 to delete. CREATE new, DELETE b, DELETE c.",
  ]);

  // While the input has errors the last valid plan stays, and is not announced again.
  await editor(page, "Desired state").fill('{"new": ');
  await expect(page.locator("#desired-error")).toContainText("Line 1");
  await afterAnnouncements(page);
  expect(await page.evaluate(() => window.announcements)).toHaveLength(1);
  await editor(page, "Desired state").fill("{}");
  await expect(announcement(page)).toHaveText("Plan: 0 to create, 0 to update, 0 to finalize, 2 to delete. DELETE b, DELETE c.");
  await editor(page, "Observed state").fill("{}");
  await expect(announcement(page)).toHaveText("Plan: nothing to do, in sync.");
});

test("a plan hidden by a lesson's prediction is never announced", async ({ page }) => {
  await page.goto("/?lesson=four-actions&step=2");
  await expect(page.locator(".plan-pane.concealed")).toBeVisible();
  await editor(page, "Desired state").fill('{"secret": {}}');
  // The edit is checked after a pause; an announcement would be planned then.
  await afterPageTimer(page, CHECK_DELAY_MS);
  await nextFrames(page);
  await afterAnnouncements(page);
  await expect(announcement(page)).toHaveText("");
});

// ------------------------------------------------------------ reduced motion

/** Every element whose computed style still moves: a transition, an animation or smooth scrolling. */
const moving = (page) =>
  page.evaluate(() =>
    [...document.querySelectorAll("*")].flatMap((element) => {
      const style = getComputedStyle(element);
      const seconds = (list) => Math.max(...list.split(",").map((t) => parseFloat(t) || 0));
      const reasons = [];
      if (style.animationName !== "none" && seconds(style.animationDuration) > 0) reasons.push(`animation ${style.animationName}`);
      if (seconds(style.transitionDuration) > 0) reasons.push(`transition ${style.transitionProperty}`);
      if (style.scrollBehavior === "smooth") reasons.push("smooth scrolling");
      return reasons.map((reason) => `${element.tagName.toLowerCase()}.${element.className}: ${reason}`);
    }),
  );

test("with prefers-reduced-motion nothing animates, and Play still advances", async ({ page }) => {
  // Without the preference, the newest pass flashes and the timeline scrolls smoothly.
  await page.goto("/");
  await page.getByRole("button", { name: "Step" }).click();
  // Polled: the simulation section loads on demand, so the pass list may not be there yet.
  await expect
    .poll(() => moving(page))
    .toEqual(expect.arrayContaining([expect.stringContaining("animation pass-revealed"), "ol.pass-list: smooth scrolling"]));

  await page.emulateMedia({ reducedMotion: "reduce" });
  await page.goto("/?preset=fighting-controllers");
  await page.getByRole("button", { name: "Play" }).click();
  // While Play runs, the pass counter is not announced on every pass.
  await expect(page.locator(".sim-progress")).toHaveAttribute("aria-live", "off");
  await page.getByRole("combobox", { name: "Play speed" }).selectOption("8");
  // Play runs on by itself to the verdict, pass after pass.
  await expect(page.locator(".verdict:not(.pending)")).toBeVisible();
  await expect(page.locator(".sim-progress")).toHaveText(/^Pass (\d+) of \1$/);
  await expect(page.locator(".sim-progress")).toHaveAttribute("aria-live", "polite");
  expect(await page.locator(".pass").count()).toBeGreaterThan(2);
  expect(await moving(page)).toEqual([]);
  const newest = page.locator(".pass").last();
  await expect(newest).toHaveCSS("animation-name", "none");
  await expect(newest).toHaveCSS("animation-duration", "0s");
  await expect(page.locator(".pass-list")).toHaveCSS("scroll-behavior", "auto");
  // The timeline still follows the newest pass, in one jump.
  await expect.poll(() => page.locator(".pass-list").evaluate((list) => list.scrollHeight - list.clientHeight - list.scrollTop)).toBeLessThan(2);
});

for (const scheme of ["light", "dark"]) {
  test(`axe finds no violations on Your reconcile with a counterexample, output and loop verdicts (${scheme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto("/?exercise=reconcile&lang=javascript");
    const code = page.getByRole("textbox", { name: "Your reconcile, in JavaScript" });
    await code.fill("export function reconcile(desired, observed) {\n  console.log('called');\n  return Object.keys(desired).sort().map((n) => [\"CREATE\", n, desired[n]]);\n}\n");
    await page.getByRole("button", { name: "Check", exact: true }).click();
    await expect(page.locator(".counterexample")).toBeVisible({ timeout: 20_000 });
    await page.getByText(/^Output of your code/).first().click();
    await page.getByRole("button", { name: "Run in the loop" }).click();
    await expect(page.getByRole("list", { name: "Your reconcile in the loop" }).locator("li")).toHaveCount(3, { timeout: 30_000 });
    expect(await violations(page)).toEqual([]);
  });
}

test("axe finds no violations on a controller exercise with its hints, properties, counterexample and output", async ({ page }) => {
  await page.goto("/?exercise=external-finalizer&lang=javascript");
  await page.getByRole("button", { name: /^Show a hint/ }).click();
  const bug = knownBug("external-finalizer", "fails-when-absent");
  await page.getByRole("textbox", { name: "Your reconcile, in JavaScript" }).fill(`console.log("loaded");\n${bug.js}`);
  await page.getByRole("button", { name: "Check", exact: true }).click();
  await expect(page.getByRole("region", { name: "Counterexample" })).toBeVisible({ timeout: 60_000 });
  await page.getByText(/^Output of your code/).first().click();
  expect(await violations(page)).toEqual([]);
});
