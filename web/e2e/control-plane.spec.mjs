// The control plane, pictured: the SVG and its text equivalent follow the one cursor,
// and the words agree with the timeline at every step.
import AxeBuilder from "@axe-core/playwright";
import { test, expect, paste, afterPageTimer, nextFrames } from "./fixtures.mjs";

const view = (page) => page.locator("details.control-plane");
const part = (page, name) => view(page).locator(`.cp-text li[data-part=${name}]`);
const nextEvent = (page) => page.getByRole("button", { name: "Next event" });
const currentRow = (page) => page.locator("li.current-event[aria-current=step]");

async function open(page, preset) {
  await page.goto(`/?preset=${preset}`);
  await page.getByRole("button", { name: "Step" }).waitFor();
  await view(page).locator("summary").click();
  await expect(view(page)).toHaveAttribute("open");
  await expect(part(page, "now")).toContainText("the start: the informer has listed the store into its cache");
}

/** Steps by event to the end, checking the words against the timeline's event row each time. */
async function walk(page, check = () => {}) {
  const seen = [];
  for (let i = 0; i < 400 && (await nextEvent(page).isEnabled()); i++) {
    await nextEvent(page).click();
    const row = (await currentRow(page).textContent()).trim();
    // The row reads "t = 16 ms: watch event a added: …"; the picture's "Now (t = 16 ms): watch event …".
    const [, at, what] = row.match(/^t = (.+?): (.*)$/);
    await expect(part(page, "now")).toHaveText(`Now (t = ${at}): ${what}`);
    const selected = await page.locator("li.pass[aria-current=step]").getAttribute("data-pass");
    const controller = (await part(page, "controller").textContent()) ?? "";
    const pass = controller.match(/pass (\d+)/);
    if (pass) expect(Number(pass[1]), `${row} / ${controller}`).toBe(Number(selected));
    seen.push({ row, texts: await view(page).locator(".cp-text").textContent() });
    await check(row);
  }
  return seen;
}

test("step by event: at every step the words agree with the timeline (seed example)", async ({ page }) => {
  await open(page, "basics");
  const seen = await walk(page);
  expect(seen.length).toBeGreaterThan(10);
  // Pass 1's CREATE a: the request wrote a, and its watch event is on its way.
  const create = seen.find((s) => s.row.includes("CREATE a → 201"));
  expect(create.texts).toMatch(/Watch events in flight: a added, arrives at t = \d+ ms/);
  expect(create.texts).toContain("Informer cache: custom-resource");
  expect(create.texts).toMatch(/a\s+not in the cache yet/);
  // The delivery that follows puts a in the cache.
  const delivered = seen.find((s) => s.row.includes("watch event a added"));
  expect(delivered.texts).not.toMatch(/a\s+not in the cache yet/);
});

test("ten changes: adds merged into the waiting key, and pass 3 reads web-9 stale", async ({ page }) => {
  await open(page, "ten-changes");
  const seen = await walk(page, async (row) => {
    // The stale card is drawn, not only told.
    if (row.includes("pass 3 (")) await expect(view(page).locator(".cp-wide .cp-stale")).not.toHaveCount(0);
  });
  const merged = seen.find((s) => s.row.includes("already queued"));
  expect(merged.texts).toContain("this add merged: the key was waiting already (one key, one entry)");
  const pass3 = seen.find((s) => s.row.includes("pass 3 ("));
  expect(pass3.texts).toMatch(/web-9 rv \d+ · gen \d+ stale: the store has rv \d+/);
});

test("a status write is a step of its own: the store's new version, on its way to the cache", async ({ page }) => {
  await open(page, "status-timestamp");
  const seen = await walk(page);
  const write = seen.find((s) => s.row.includes("PUT /status → 200: the custom resource has a new resourceVersion"));
  expect(write, seen.map((s) => s.row).join("\n")).toBeTruthy();
  expect(write.texts).toMatch(/Watch events in flight: the custom resource updated, arrives at t = \d+ ms/);
  expect(write.texts).toMatch(/Informer cache: custom-resource rv \d+ · gen 1 stale: the store has rv \d+/);
});

test("missed events: the controller is down after its crash, and the picture follows Step and the timeline", async ({ page }) => {
  await open(page, "missed-events");
  await page.getByRole("button", { name: "Step" }).click();
  await expect(part(page, "now")).toContainText("pass 1 ends: the controller crashed");
  await expect(part(page, "controller")).toContainText("pass 1 ended: the controller crashed");
  // The actor's event after pass 1 is a moment of its own.
  await page.getByRole("button", { name: "Step" }).click();
  await expect(part(page, "now")).toContainText("the custom resource's spec changes: spec changed");
  await expect(part(page, "controller")).toContainText("down after a crash; restarts at t = ");
  await expect(part(page, "watch")).toContainText("none");
  // Clicking a pass in the timeline moves the picture there.
  await page.getByRole("button", { name: /^Pass 1 / }).click();
  await expect(part(page, "now")).toContainText("pass 1 ends");
});

test("axe finds nothing with the view open, light and dark; screenshots", async ({ page }, info) => {
  await open(page, "ten-changes");
  for (let i = 0; i < 30; i++) await nextEvent(page).click();
  for (const scheme of ["light", "dark"]) {
    await page.emulateMedia({ colorScheme: scheme });
    const results = await new AxeBuilder({ page }).include("details.control-plane").analyze();
    expect(results.violations, scheme).toEqual([]);
    await view(page).screenshot({ path: info.outputPath(`control-plane-${scheme}.png`) });
  }
  const whole = await new AxeBuilder({ page }).analyze();
  expect(whole.violations).toEqual([]);
});

test("a 375 px screen gets the stacked drawing, and the view widens nothing", async ({ page }, info) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto("/?preset=basics");
  await page.getByRole("button", { name: "Step" }).waitFor();
  const closed = await page.evaluate(() => document.documentElement.scrollWidth);
  await view(page).locator("summary").click();
  for (let i = 0; i < 3; i++) await nextEvent(page).click();
  await expect(view(page).locator(".cp-stacked")).toBeVisible();
  await expect(view(page).locator(".cp-wide")).toBeHidden();
  const box = await view(page).locator(".cp-stacked").boundingBox();
  expect(box.x + box.width).toBeLessThanOrEqual(375);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(closed);
  await view(page).screenshot({ path: info.outputPath("control-plane-375.png") });
});

test("reduced motion: the highlighted part does not animate", async ({ page }) => {
  await page.emulateMedia({ reducedMotion: "reduce" });
  await open(page, "basics");
  await nextEvent(page).click();
  const lit = view(page).locator(".cp-wide .cp-lit > .cp-box").first();
  await expect(lit).toBeVisible();
  expect(await lit.evaluate((el) => getComputedStyle(el).animationName)).toBe("none");
  await page.emulateMedia({ reducedMotion: "no-preference" });
  expect(await lit.evaluate((el) => getComputedStyle(el).animationName)).toBe("cp-flash");
});

test("keyboard only: the view opens from its summary and event ▶ drives it", async ({ page }) => {
  await page.goto("/?preset=basics");
  await page.getByRole("button", { name: "Step" }).waitFor();
  const summary = view(page).locator("summary");
  await summary.focus();
  await page.keyboard.press("Enter");
  await expect(view(page)).toHaveAttribute("open");
  await nextEvent(page).focus();
  await page.keyboard.press("Enter");
  await expect(part(page, "now")).toContainText("the worker takes the key: pass 1");
  await page.keyboard.press("Enter");
  await expect(part(page, "now")).toContainText("CREATE a → 201");
  // Closed, it computes nothing and shows nothing.
  await summary.focus();
  await page.keyboard.press("Enter");
  await expect(view(page).locator(".cp-text")).toHaveCount(0);
});

// The plots below the picture: swimlanes (one lane per object through the moments) and the
// key's backoff delays against the policy's curve. Both follow the one cursor.
const lanesText = (page) => view(page).locator(".sl-text");
const laneRow = (page, name) => lanesText(page).locator("tbody tr", { has: page.locator(`th:text-is("${name}")`) });
const currentColumn = (page) => view(page).locator(".sl-wide .sl-col.sl-current");
const boRows = (page) => view(page).locator(".bo-table tr.bo-row");

test("swimlanes: the seed example's lanes say each state in words and follow the cursor", async ({ page }) => {
  await open(page, "basics");
  await page.getByRole("button", { name: "Step" }).click();
  await expect(currentColumn(page)).toHaveAttribute("data-position", "1");
  await expect(lanesText(page).locator("thead th").nth(2)).toHaveText("pass 1 (the cursor)");
  await expect(laneRow(page, "a").locator("td")).toHaveText(["missing", "in sync; CREATE ok"]);
  await expect(laneRow(page, "b").locator("td")).toHaveText(["drifted", "in sync; UPDATE ok"]);
  await page.getByRole("button", { name: "Run to convergence" }).click();
  await expect(laneRow(page, "c").locator("td")).toHaveText([
    "extra",
    "not there; DELETE ok",
    "not there; DELETE 404, done",
    "not there",
  ]);
  // The drawing says it too: symbols and words in the cells, never colour alone.
  const cell = view(page).locator('.sl-wide .sl-col[data-position="0"] .sl-cell[data-object="a"]');
  await expect(cell.locator(".sl-word")).toHaveText("∅ missing");
  await expect(cell).toHaveClass(/lane-missing/);
  // Clicking a column moves the one cursor: the picture and the timeline follow.
  await view(page).locator('.sl-wide .sl-col[data-position="0"] .sl-head').click();
  await expect(currentColumn(page)).toHaveAttribute("data-position", "0");
  await expect(part(page, "now")).toContainText("the start");
  await view(page).locator('.sl-wide .sl-col[data-position="2"] .sl-head').click();
  await expect(page.locator("li.pass[aria-current=step]")).toHaveAttribute("data-pass", "2");
  await expect(part(page, "now")).toContainText("pass 2");
  // The keyboard: ← and → on the focused lanes.
  await view(page).locator(".sl-focus").focus();
  await page.keyboard.press("ArrowLeft");
  await expect(currentColumn(page)).toHaveAttribute("data-position", "1");
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await expect(currentColumn(page)).toHaveAttribute("data-position", "3");
});

test("backoff: lesson 7's delays, 5, 10, 20 and 40 ms, against client-go's curve", async ({ page }) => {
  await page.goto("/?lesson=backoff");
  await page.getByRole("button", { name: "Step" }).waitFor();
  await view(page).locator("summary").click();
  await expect(view(page).locator(".bo-none")).toHaveText("No failure yet at the revealed moment: Step or Run on.");
  await page.getByRole("button", { name: "Run to convergence" }).click();
  await expect(boRows(page)).toHaveCount(4);
  await expect(boRows(page).locator(".bo-curve-ms")).toHaveText(["5 ms", "10 ms", "20 ms", "40 ms"]);
  await expect(boRows(page).locator(".bo-actual-ms")).toHaveText(["5 ms", "10 ms", "20 ms", "40 ms"]);
  await expect(view(page).locator(".bo-summary")).toHaveText(
    "Actual delays: 5 ms, 10 ms, 20 ms, 40 ms; the policy's curve: 5 ms, 10 ms, 20 ms, 40 ms.",
  );
  await expect(view(page).locator(".bo-point")).toHaveCount(4);
  // A row's button moves the cursor to its pass; the point and the row are marked.
  await page.getByRole("button", { name: "Pass 2: move the cursor there" }).click();
  await expect(page.locator("li.pass[aria-current=step]")).toHaveAttribute("data-pass", "2");
  await expect(view(page).locator(".bo-row.current")).toHaveAttribute("data-pass", "2");
  await expect(view(page).locator(".bo-point.current")).toHaveAttribute("data-pass", "2");
  await expect(currentColumn(page)).toHaveAttribute("data-position", "2");
  // Clicking a point does the same.
  await view(page).locator('.bo-point[data-pass="4"] circle').click();
  await expect(view(page).locator(".bo-row.current")).toHaveAttribute("data-pass", "4");
});

test("backoff: a run of failures after a success is drawn beside the one before, not over it", async ({ page }) => {
  // The flaky API: failures 1 and 2 in a row (passes 1 and 2), a success, then failure 1 again (pass 4).
  await page.goto("/?preset=flaky-api");
  await page.getByRole("button", { name: "Step" }).waitFor();
  await view(page).locator("summary").click();
  await page.getByRole("button", { name: "Run to convergence" }).click();
  await expect(boRows(page)).toHaveCount(3);
  const cx = (pass) => view(page).locator(`.bo-point[data-pass="${pass}"] circle`).getAttribute("cx").then(Number);
  const [first, again] = [await cx(1), await cx(4)];
  expect(again - first).toBe(6);
  // Each is a target of its own: clicking the later one moves the cursor to its pass.
  await view(page).locator('.bo-point[data-pass="4"] circle').click();
  await expect(view(page).locator(".bo-row.current")).toHaveAttribute("data-pass", "4");
  await view(page).locator('.bo-point[data-pass="1"] circle').click();
  await expect(view(page).locator(".bo-row.current")).toHaveAttribute("data-pass", "1");
});

test("the plots: axe finds nothing, light and dark; 375 px fits; the keyboard reaches them; screenshots", async ({ page }, info) => {
  await page.goto("/?lesson=backoff");
  await page.getByRole("button", { name: "Step" }).waitFor();
  await view(page).locator("summary").click();
  await page.getByRole("button", { name: "Run to convergence" }).click();
  await page.getByRole("button", { name: "Pass 3: move the cursor there" }).click();
  for (const scheme of ["light", "dark"]) {
    await page.emulateMedia({ colorScheme: scheme });
    const results = await new AxeBuilder({ page }).include("details.control-plane").analyze();
    expect(results.violations, scheme).toEqual([]);
    await view(page).locator(".cp-plots").screenshot({ path: info.outputPath(`plots-${scheme}.png`) });
  }
  // Tab from the view's summary reaches the lanes, then the table's buttons.
  await view(page).locator("summary").focus();
  const reached = [];
  for (let i = 0; i < 40 && reached.length < 2; i++) {
    await page.keyboard.press("Tab");
    const where = await page.evaluate(() => document.activeElement?.className || document.activeElement?.tagName);
    if (where === "sl-focus" && !reached.includes("lanes")) reached.push("lanes");
    if (where === "BUTTON" && (await page.evaluate(() => !!document.activeElement.closest(".bo-table")))) reached.push("backoff");
  }
  expect(reached).toEqual(["lanes", "backoff"]);
  await page.keyboard.press("Enter");
  await expect(page.locator("li.pass[aria-current=step]")).toHaveAttribute("data-pass", "1");
  // A 375 px screen (the flaky API: failures, a busy worker): the narrow lanes, and the open view widens nothing.
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto("/?preset=flaky-api");
  await page.getByRole("button", { name: "Step" }).waitFor();
  const scrollWidth = () => page.evaluate(() => document.documentElement.scrollWidth);
  const closed = await scrollWidth();
  await view(page).locator("summary").click();
  await page.getByRole("button", { name: "Run to convergence" }).click();
  await expect(boRows(page)).toHaveCount(3);
  await expect(boRows(page).first().locator(".bo-actual-ms")).toHaveText("10 ms (the worker was busy); pass 2 ran the key sooner");
  await expect(view(page).locator(".sl-narrow")).toBeVisible();
  await expect(view(page).locator(".sl-wide")).toBeHidden();
  for (const plot of [".sl-narrow", ".bo-svg"]) {
    const box = await view(page).locator(plot).boundingBox();
    expect(box.x + box.width, plot).toBeLessThanOrEqual(375);
  }
  expect(await scrollWidth()).toBe(closed);
  await view(page).locator(".cp-plots").screenshot({ path: info.outputPath("plots-375.png") });
});

// The simulation section is a module of its own (crates/reconcile-simulation-ui,
// `mount_simulation`): the first view carries none of it, and it comes once the first
// action list is on screen, once for the section and both views of the run.
const MODULE = /reconcile_simulation_ui/;

test("the first view loads none of the simulation; it comes after the first action list, once for every view of the run", async ({ page }) => {
  const requests = [];
  page.on("request", (request) => requests.push(new URL(request.url()).pathname));
  await page.goto("/?preset=basics");
  await expect(page.locator(".verdict-banner")).toBeVisible();
  // The page's own first render (`?preset=basics` shows index.html's prerendered plan before it).
  const [mark, started] = await page.evaluate(() => [
    performance.getEntriesByName("page-mounted")[0].startTime,
    performance.getEntriesByType("resource").filter((r) => /reconcile_simulation_ui/.test(r.name)).map((r) => r.startTime),
  ]);
  expect(started).toHaveLength(3);
  for (const at of started) expect(at).toBeGreaterThan(mark);
  expect(requests.filter((path) => MODULE.test(path)).sort()).toEqual([
    "/pkg/reconcile_simulation_ui.css",
    "/pkg/reconcile_simulation_ui.js",
    "/pkg/reconcile_simulation_ui_bg.wasm",
  ]);
  await expect(page.locator(".sim-loading")).toHaveCount(0);
  // Both views of the run are parts of it: no new download, and its stylesheet came with it.
  await view(page).locator("summary").click();
  await expect(part(page, "now")).toContainText("the start");
  await expect(view(page).locator(".cp-stacked")).toBeHidden();
  await page.locator("details.level-edge > summary").click();
  await expect(page.locator("details.level-edge .lanes-scroll")).toHaveCSS("overflow-x", "auto");
  // Closed, stepped and opened again: the picture is at the cursor at once.
  await view(page).locator("summary").click();
  await page.getByRole("button", { name: "Step" }).click();
  await view(page).locator("summary").click();
  await expect(part(page, "now")).toContainText("pass 1 returns");
  expect(requests.filter((path) => MODULE.test(path))).toHaveLength(3);
});

test("a new run reaches the open view: the scenario edited, the view simulates it again", async ({ page }) => {
  await open(page, "basics");
  await page.getByRole("button", { name: "Step" }).click();
  await expect(laneRow(page, "a")).toHaveCount(1);
  await expect(laneRow(page, "d")).toHaveCount(0);
  await paste(page, "Desired state", '{"a":{"replicas":1},"b":{"replicas":3},"d":{"replicas":2}}');
  await expect(laneRow(page, "d").locator("td").first()).toHaveText("missing");
  await page.getByRole("button", { name: "Run to convergence" }).click();
  await expect(laneRow(page, "d").locator("td").last()).toHaveText(/^in sync/);
  // The page and the view stand at the same moment of the same run: its end.
  await expect(lanesText(page).locator("thead th").last()).toHaveText(/\(the cursor\)$/);
  const last = await page.locator("li.pass").count();
  await expect(lanesText(page).locator("thead th").last()).toContainText(`pass ${last}`);
});

test("an embed that shows only the editors and the plan never downloads the simulation", async ({ page }) => {
  const requests = [];
  page.on("request", (request) => requests.push(new URL(request.url()).pathname));
  await page.goto("/?embed&preset=basics&panes=editors,plan");
  await expect(page.locator("#plan-summary")).toHaveText("1 to create, 1 to update, 0 to finalize, 1 to delete");
  // The page asks for the module once it has painted: a timer of 0 ms started at mount.
  // A timer of 0 ms started now fires after it; two frames later its effects have run.
  await afterPageTimer(page, 0);
  await nextFrames(page);
  await expect(page.locator('link[href*="reconcile_simulation_ui"], .sim-host')).toHaveCount(0);
  expect(requests.filter((path) => MODULE.test(path))).toEqual([]);
});

test.describe("a failed download of the simulation", () => {
  test.use({ expectedProblems: /^console error: Failed to load resource: net::ERR_FAILED$/ });
  for (const file of ["reconcile_simulation_ui.js", "reconcile_simulation_ui_bg.wasm", "reconcile_simulation_ui.css"]) {
    test(`(${file}) says so; a Step pressed meanwhile is kept, and Try again loads it and applies it`, async ({ page }) => {
      let fail = true;
      await page.route(`**/pkg/${file}`, (route) => (fail ? route.abort() : route.continue()));
      await page.goto("/?preset=basics");
      await expect(page.locator(".sim-loading[role=alert]")).toContainText("The simulation could not be loaded");
      await expect(page.locator(".sim-progress")).toHaveText("Pass 0 (simulating…)");
      await page.getByRole("button", { name: "Step" }).click();
      fail = false;
      await page.locator(".sim-pane").getByRole("button", { name: "Try again" }).click();
      await expect(page.locator(".sim-loading")).toHaveCount(0);
      await expect(page.locator(".sim-progress")).toHaveText(/^Pass 1 of \d+$/);
      await expect(page.locator("li.pass[aria-current=step]")).toHaveAttribute("data-pass", "1");
      await expect(page.locator("#plan-heading")).toHaveText("Plan for pass 2");
    });
  }
});

test("the simulation's yew app numbers its tree apart from the page's and the pane's; its clicks move only the page's cursor", async ({ page }) => {
  await page.goto("/?preset=basics&exercise=reconcile&lang=javascript");
  await expect(page.locator(".code-editor textarea, .code-editor")).not.toHaveCount(0);
  await view(page).locator("summary").click();
  await expect(part(page, "now")).toContainText("the start");
  const [body, host] = await page.evaluate(() => [
    document.body.__yew_subtree_id,
    document.querySelector(".sim-host").__yew_subtree_id,
  ]);
  expect(body).toBeGreaterThan(0);
  expect(host).toBeGreaterThan(body);
  await page.getByRole("button", { name: "Run to convergence" }).click();
  await view(page).locator('.sl-wide .sl-col[data-position="1"] .sl-head').click();
  await expect(page.locator("li.pass[aria-current=step]")).toHaveAttribute("data-pass", "1");
  await expect(page.locator(".notice")).toHaveCount(0);
  await expect(page.locator("li.pass")).not.toHaveCount(0);
});
