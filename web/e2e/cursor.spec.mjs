// Issue 18, "One cursor": the simulation has one current moment (the start,
// after a pass, or after another actor's event), and every view shows it:
// the verdict banner, the chart, the status grid, the timeline, World now
// and the Plan.
import AxeBuilder from "@axe-core/playwright";
import { test, expect, actionItems, openSettings, flushAutosave } from "./fixtures.mjs";

const momentStatus = (page) => page.locator(".moment-status");
const chartPoints = (page) => page.locator(".chart circle.point");
const currentPoint = (page) => page.locator(".chart circle.point.current");
const grid = (page) => page.getByRole("table", { name: "Resource status" });
const world = (page) => page.getByRole("table", { name: "World now" });
const planHeading = (page) => page.locator("#plan-heading");
const step = (page) => page.getByRole("button", { name: "Step" });

test.beforeEach(async ({ page }) => {
  await page.goto("/");
  await expect(step(page)).toBeEnabled();
});

/** Run the seed example to its end, then have another actor delete b right after pass 3. */
async function deleteBAfterTheRun(page) {
  await page.getByRole("button", { name: "Run to convergence" }).click();
  await openSettings(page);
  await page.getByLabel("Target object").selectOption("b");
  await page.getByRole("button", { name: "Delete it" }).click();
}

/** The rows of a table as { name, text }: the row header's name and the whole row's text. */
const rowsOf = (table) =>
  table.locator("tbody tr").evaluateAll((rows) =>
    rows.filter((row) => row.querySelector("th")).map((row) => ({ name: row.querySelector("th").textContent, text: row.textContent })));

/** What the views say at the cursor, read from each of them. */
async function views(page) {
  const status = await momentStatus(page).textContent();
  const rows = await rowsOf(grid(page));
  return {
    status,
    statusCount: Number(await momentStatus(page).getAttribute("data-out-of-sync")),
    chartCount: Number(await currentPoint(page).getAttribute("data-out-of-sync")),
    gridCaption: await grid(page).locator("caption").textContent(),
    // Every row that is not in sync is one action reconcile would return.
    gridOutOfSync: rows.filter((row) => !/✓ in sync/.test(row.text)).length,
    gridRows: rows,
    worldHeading: (await world(page).count()) ? await page.locator("#world-now-heading").textContent() : null,
    worldRows: (await world(page).count()) ? await rowsOf(world(page)) : [],
  };
}

test("after an injected delete the verdict, chart, status grid and World now agree at every cursor position", async ({ page }) => {
  await deleteBAfterTheRun(page);
  // The delete is a moment of its own, and the cursor goes there.
  const eventRow = page.locator(".actor-event");
  await expect(eventRow).toHaveCount(1);
  await expect(eventRow).toHaveAttribute("aria-current", "step");
  await expect(momentStatus(page)).toHaveText("At this moment (after someone deletes b (after pass 3)): 1 out of sync.");
  await expect(grid(page).locator("caption")).toHaveText("Resource status after someone deletes b (after pass 3)");
  await expect(grid(page).locator("tbody tr").filter({ has: page.getByRole("rowheader", { name: "b", exact: true }) })).toContainText("∅ missing");
  await expect(page.locator("#world-now-heading")).toHaveText("World now — after someone deletes b (after pass 3)");
  await expect(world(page).locator("tbody tr").filter({ has: page.getByRole("rowheader", { name: "b", exact: true }) })).toContainText("removed");
  await expect(currentPoint(page)).toHaveAttribute("data-out-of-sync", "1");

  // Walk every moment from the start: each view names the same moment and the same count.
  await page.getByRole("button", { name: "Run to convergence" }).click();
  await expect(page.locator(".verdict")).toContainText("Converged after 5 passes");
  await page.getByRole("button", { name: "Reset" }).click();
  const seen = [];
  for (let position = 0; position < 20; position++) {
    await expect(currentPoint(page)).toHaveAttribute("data-moment", String(position));
    const now = await views(page);
    seen.push(now.statusCount);
    expect(now.chartCount, `chart at position ${position}: ${now.status}`).toBe(now.statusCount);
    expect(now.gridOutOfSync, `grid at position ${position}: ${now.gridRows.map((row) => row.text).join(" | ")}`).toBe(now.statusCount);
    if (position === 0) {
      expect(now.status).toBe("At the start: 3 out of sync.");
      expect(now.gridCaption).toBe("Resource status at the start");
      expect(now.worldHeading).toBeNull();
    } else {
      const at = now.gridCaption.replace("Resource status after ", "");
      expect(now.status).toContain(`At this moment (after ${at})`);
      expect(now.worldHeading).toBe(`World now — after ${at}`);
      // World now lists what exists in the store at that moment: the names the
      // grid neither calls missing nor knows only from the controller's cache.
      const present = now.gridRows.filter((row) => !/∅ missing|the controller's cache still has it/.test(row.text)).map((row) => row.name);
      const listed = now.worldRows.filter((row) => !/removed/.test(row.text)).map((row) => row.name);
      expect(listed.sort(), `world at position ${position}`).toEqual(present.sort());
    }
    if (!(await step(page).isEnabled())) break;
    await step(page).click();
  }
  // Start, passes 1-3, the delete, pass 4 (recreates b), pass 5 (nothing to do).
  expect(seen).toEqual([3, 0, 0, 0, 1, 0, 0]);
  await expect(page.locator(".verdict")).toContainText("Converged after 5 passes");

  // A chart point and a timeline row move the cursor too.
  await page.locator('.chart circle.point[data-moment="4"]').click();
  await expect(momentStatus(page)).toContainText("after someone deletes b (after pass 3)): 1 out of sync.");
  await expect(page.getByText("Viewing someone deletes b (after pass 3); the run is revealed up to pass 5.")).toBeVisible();
  await page.getByRole("list", { name: "Passes", exact: true }).locator(":scope > li").nth(1).locator(".pass-head").click();
  await expect(grid(page).locator("caption")).toHaveText("Resource status after pass 2");
  await expect(currentPoint(page)).toHaveAttribute("data-moment", "2");
  await eventRow.getByRole("button").click();
  await expect(currentPoint(page)).toHaveAttribute("data-moment", "4");
  await page.getByRole("button", { name: "Back to the latest" }).click();
  await expect(currentPoint(page)).toHaveAttribute("data-moment", "6");
  await expect(chartPoints(page)).toHaveCount(7);
});

test("the plan follows the cursor: the start's plan, then the next pass's, and nothing to do at the end", async ({ page }) => {
  await expect(planHeading(page)).toHaveText("Plan");
  await expect(actionItems(page).locator(".action-head")).toHaveText([/CREATE\s*a/, /UPDATE\s*b/, /DELETE\s*c/]);
  await page.getByRole("button", { name: "Run to convergence" }).click();
  await expect(planHeading(page)).toHaveText("Plan for pass 4");
  await expect(page.locator(".plan-pane .nothing-to-do")).toHaveText("Nothing to do: reconcile returns no actions.");
  await expect(actionItems(page)).toHaveCount(0);
  await expect(page.locator(".plan-moment-note")).toContainText("the run has ended: nothing to do");
  // At pass 1, the plan is what pass 2 does: its cache has not seen c's delete yet.
  await page.getByRole("list", { name: "Passes", exact: true }).locator(":scope > li").nth(0).locator(".pass-head").click();
  await expect(planHeading(page)).toHaveText("Plan for pass 2");
  await expect(actionItems(page).locator(".action-head")).toHaveText([/DELETE\s*c/]);
  await expect(page.getByRole("list", { name: "Actions of pass 2" }).locator(".kind")).toHaveText(["DELETE"]);
  // The editors still hold the starting scenario, and say so.
  await expect(page.locator(".editors-heading")).toHaveText("Starting scenario (what you edit)");
  await page.getByRole("button", { name: "Reset" }).click();
  await expect(planHeading(page)).toHaveText("Plan");
  await expect(actionItems(page)).toHaveCount(3);
  await expect(page.locator(".editors-heading")).toHaveCount(0);
  await expect(world(page)).toHaveCount(0);
});

// Issue 31, "One moment on screen": stepping by event moves every view to the event's moment,
// inside a pass as well as between passes. A view drawn by moment says which one it marks.
/** Steps by event to the end of the run, checking at every event that each view shows its moment. */
async function everyEventOnOneMoment(page) {
  const next = page.getByRole("button", { name: "Next event" });
  const picture = page.locator("details.control-plane");
  await picture.locator("summary").click();
  await expect(picture).toHaveAttribute("open");
  const part = (name) => picture.locator(`.cp-text li[data-part=${name}]`);
  const lanesNote = picture.locator(".sl-moment");
  const chartNote = page.locator(".chart .chart-moment");
  const seen = [];
  let ended = 0;
  for (let i = 0; i < 200 && (await next.isEnabled()); i++) {
    await next.click();
    const row = (await page.locator("li.current-event[aria-current=step]").textContent()).trim();
    const [, t, what] = row.match(/^t = (.+?): (.*)$/);
    // The picture is at the event, as the timeline's row says.
    await expect(part("now")).toHaveText(`Now (t = ${t}): ${what}`);
    const pass = Number(await page.locator("li.pass[aria-current=step]").getAttribute("data-pass"));
    const end = what.match(/^pass (\d+) (ends|returns)/);
    if (end) ended = Number(end[1]);
    // A pass's end is the pass's moment; any other event is a moment of its own.
    const label = end ? `after pass ${pass}` : `t = ${t}, ${ended === pass ? "after" : "during"} pass ${pass}`;
    const running = !end && ended !== pass;
    const escaped = label.replace(/[()]/g, "\\$&");
    await expect(momentStatus(page)).toHaveText(new RegExp(`^At this moment \\(${escaped}\\): `));
    await expect(page.locator("#world-now-heading")).toHaveText(end ? `World now — ${label}` : `World now — at ${label}`);
    await expect(grid(page).locator("caption")).toHaveText(end ? `Resource status ${label}` : `Resource status at ${label}`);
    // The plan: the one the running pass sends, else the next pass's.
    await expect(planHeading(page)).toHaveText(`Plan for pass ${running ? pass : pass + 1}`);
    // The chart and the swimlanes are drawn by moment: they mark the end of the event's pass, and say so.
    const column = picture.locator(".sl-wide .sl-col.sl-current");
    await expect(column.locator(".sl-head")).toHaveText(`▸ pass ${pass}`);
    await expect(currentPoint(page)).toHaveAttribute("data-moment", await column.getAttribute("data-position"));
    const boundary = `The cursor is at ${label}. This view shows moments between passes, so it marks the end of pass ${pass}.`;
    for (const note of [lanesNote, chartNote]) {
      if (end) await expect(note).toHaveCount(0);
      else await expect(note).toHaveText(boundary);
    }
    // The same store everywhere: World now lists what the picture's store holds, the grid
    // names the same objects, and the verdict counts what the grid says is out of sync.
    const now = await views(page);
    const store = (await part("store").textContent()).replace(/^API server store: /, "").split("; ");
    const stored = store.map((card) => card.split(" ")[0]).filter((name) => name !== "custom-resource");
    const listed = now.worldRows.filter((r) => !/removed/.test(r.text)).map((r) => r.name);
    expect(listed.sort(), `World now at ${row}`).toEqual(stored.sort());
    const present = now.gridRows.filter((r) => !/∅ missing|the controller's cache still has it$/.test(r.text)).map((r) => r.name);
    expect(present.sort(), `the grid at ${row}`).toEqual(stored.sort());
    expect(now.gridOutOfSync, `the grid at ${row}`).toBe(now.statusCount);
    seen.push({ row, label, outOfSync: now.statusCount, world: now.worldRows.map((r) => r.text.replace(/\s+/g, " ")) });
  }
  return seen;
}

test("stepping by event, every view shows the event's moment at every event of the seed example", async ({ page }) => {
  // Every event, every view: a long walk on a loaded machine.
  test.setTimeout(120_000);
  const seen = await everyEventOnOneMoment(page);
  // Pass 1 sends three requests: each mends one resource, one event at a time.
  const during1 = seen.filter((s) => s.label.endsWith("during pass 1"));
  expect(during1.map((s) => s.outOfSync)).toEqual(expect.arrayContaining([3, 2, 1, 0]));
  expect(seen.filter((s) => s.label.includes("during")).length).toBeGreaterThan(6);
  // The fourth press: t = 16 ms in pass 1, b still at 1 replica and c still there.
  expect(seen[3].label).toBe("t = 16 ms, during pass 1");
  expect(seen[3].outOfSync).toBe(2);
  expect(seen[3].world).toEqual(["a+ added{\"replicas\":1}", "bunchanged{\"replicas\":1}", "cunchanged{\"replicas\":1}"]);
});

test("stepping by event between passes: the views show the event's moment after its pass", async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto("/?preset=cache-2-replicas");
  await expect(step(page)).toBeEnabled();
  const seen = await everyEventOnOneMoment(page);
  expect(seen.filter((s) => /^t = .*, after pass \d+$/.test(s.label)).length).toBeGreaterThan(2);
});

for (const scheme of ["light", "dark"]) {
  test(`axe finds no violations on World now and the plan at the cursor (${scheme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await deleteBAfterTheRun(page);
    await expect(world(page)).toBeVisible();
    await expect(planHeading(page)).toHaveText("Plan for pass 4");
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations.map((v) => `${v.id}: ${v.nodes[0]?.target.join(" ")}`)).toEqual([]);
  });
}

// Level vs edge as two lanes per object, walked by the same Step.
const lanes = (page) => page.getByRole("table", { name: "Level versus edge, object by object" });
// An object's edge row holds its name (rowspan 2); its level row is the next one.
const lane = (page, object, world) => {
  const edge = `tr.edge-lane:has(th code:text-is("${object}"))`;
  return lanes(page).locator(world === "edge" ? edge : `${edge} + tr.level-lane`);
};
const openLanes = (page) => page.locator("details.level-edge > summary").click();

test("the level lane shows b missing from the delete until the pass that recreates it; the edge handler heard it at once", async ({ page }) => {
  await deleteBAfterTheRun(page);
  await openLanes(page);
  const head = lanes(page).locator("thead th[aria-current=step]");
  await expect(head).toContainText("someone deletes b");
  await expect(head).toContainText("→ heard: someone deletes b. the handler: CREATE b: applied");
  await expect(head).toContainText("≠ the worlds differ");
  await expect(lane(page, "b", "level").locator("td.at-cursor")).toHaveText("∅ missing");
  await expect(lane(page, "b", "edge").locator("td.at-cursor")).toHaveText("✓ in sync");
  // Before the delete, both had b.
  await expect(lane(page, "b", "level").locator("td.lane-cell").nth(3)).toHaveText("✓ in sync");
  // The same Step moves the lanes on: the next pass puts b back in the store.
  await step(page).click();
  await expect(head).toContainText("pass 4");
  await expect(lane(page, "b", "level").locator("td.at-cursor")).toHaveText("✓ in sync");
  await expect(lane(page, "b", "level").locator("td.lane-missing")).toHaveCount(1);
  await expect(lane(page, "b", "edge").locator("td.lane-missing")).toHaveCount(0);
  // Reset: only the start is left.
  await page.getByRole("button", { name: "Reset" }).click();
  await expect(lanes(page).locator("thead th.lane-head")).toHaveCount(1);
  await expect(head).toContainText("start");
});

test("a change while the controller is down is a broken arrow, and only the edge lane keeps web-1", async ({ page }) => {
  await page.goto("/?preset=missed-events");
  await openLanes(page);
  await expect(lanes(page).locator("thead th.lane-head")).toHaveCount(1);
  await page.getByRole("button", { name: "Run to convergence" }).click();
  const missed = lanes(page).locator("thead .hearing.missed");
  await expect(missed).toHaveCount(1);
  await expect(missed).toContainText("missed: the custom resource's spec changes");
  await expect(missed).toContainText("nobody was listening: the controller was down");
  await expect(lane(page, "web-1", "edge").locator("td.lane-cell").last()).toHaveText("+ extra");
  await expect(lane(page, "web-1", "level").locator("td.lane-cell").last()).toHaveText("not there");
});

test("a link shared with level vs edge open opens it at that step for a class, the conclusion hidden until shown", async ({ page, context }) => {
  await page.goto("/?preset=missed-events");
  await step(page).click();
  await openLanes(page);
  await expect(page.locator(".divergence")).toBeVisible();
  await expect.poll(() => page.url()).toContain("#v2/");
  // The address follows a pause; leaving the page writes it at once.
  const link = await flushAutosave(page);
  const classroom = await context.newPage();
  await classroom.goto(link);
  await expect(lanes(classroom)).toBeVisible();
  // The link keeps the passes revealed (1) and the actors' events after them: the scale-down.
  await expect(lanes(classroom).locator("thead th.lane-head")).toHaveCount(3);
  await expect(lanes(classroom).locator("thead th.lane-head").last()).toContainText("missed: the custom resource's spec changes");
  await expect(classroom.locator(".divergence")).toHaveCount(0);
  await expect(classroom.locator(".edge-table")).toHaveCount(0);
  await expect(classroom.locator(".conclusion-hidden")).toContainText("Predict first");
  await classroom.getByRole("button", { name: "Show the conclusion" }).click();
  await expect(classroom.locator(".divergence")).toHaveText("They first diverge at step 2: the controller restarted and listed what exists.");
  const results = await new AxeBuilder({ page: classroom }).include("details.level-edge").analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.length}`)).toEqual([]);
});
