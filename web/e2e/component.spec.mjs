// <reconcile-playground> (pkg/reconcile-playground.js) in a course page on another origin:
// the page pastes a module script and the element, and writes no script of its own.
import { RIGHT_RECONCILE } from "../bench/learner-reconcile.mjs";
import { test, expect, editor, actionItems, MARKER, listenForMarker, heardMarker } from "./fixtures.mjs";

const port = Number(process.env.PORT ?? 4173);
const playground = `http://127.0.0.1:${port}`;
const host = `http://localhost:${port}`;

/** A course page on `host` holding the component's script and `elements`, as an author pastes them. */
async function coursePage(page, elements) {
  const html = `<script type="module" src="${playground}/pkg/reconcile-playground.js"></script>\n${elements}`;
  // Every message the element turns into a DOM event, as the page hears them from its start.
  await page.addInitScript(() => {
    window.events = [];
    const progress = ["step-reached", "answered", "lesson-completed"].map((kind) => "reconcile-playground:" + kind);
    for (const type of ["reconcile-playground:height", "reconcile-playground:checked", ...progress]) {
      document.addEventListener(type, (event) => window.events.push({ type: event.type, target: event.target.id, detail: event.detail }));
    }
  });
  await page.goto(`${host}/__e2e/paste.html#${encodeURIComponent(html)}`);
  return page.frameLocator("reconcile-playground iframe");
}

const frameFits = (page, selector = "reconcile-playground") => async () => {
  const frame = page.locator(`${selector} iframe`);
  const content = await page.frameLocator(`${selector} iframe`).locator(".app").evaluate((app) => Math.ceil(app.getBoundingClientRect().height));
  return (await frame.evaluate((f) => f.getBoundingClientRect().height)) === content;
};

test("the component makes the frame from its attributes and sizes it to the content, with no script of the author's", async ({ page }) => {
  const frame = await coursePage(page, '<reconcile-playground id="pg" preset="load-balancer-finalizer" panes="editors,plan" readonly></reconcile-playground>');
  await expect(actionItems(frame)).toHaveText([/FINALIZE\s*svc/]);
  await expect(editor(frame, "Desired state")).toHaveJSProperty("readOnly", true);
  await expect(frame.getByRole("button", { name: "Step" })).toHaveCount(0);
  const src = new URL(await page.locator("#pg iframe").getAttribute("src"));
  expect(src.origin).toBe(playground);
  expect(Object.fromEntries(src.searchParams)).toEqual({ embed: "", preset: "load-balancer-finalizer", panes: "editors,plan", readonly: "", allow: host });
  expect(await page.locator("#pg iframe").getAttribute("title")).toBe("Reconcile Playground");
  // Sized to the content, not left at its 480px start.
  await expect.poll(frameFits(page)).toBe(true);
  expect(await page.locator("#pg iframe").evaluate((f) => f.getBoundingClientRect().height)).not.toBe(480);
  // Each height message became a DOM event on the element, in the envelope.
  const heights = (await page.evaluate(() => window.events)).filter((event) => event.type === "reconcile-playground:height");
  expect(heights.length).toBeGreaterThan(0);
  expect(heights.at(-1)).toMatchObject({ target: "pg", detail: { type: "reconcile-playground:height", version: 1 } });
  expect(heights.at(-1).detail.height).toBe(await page.locator("#pg iframe").evaluate((f) => f.getBoundingClientRect().height));
});

test("the component obeys only its own frame on the playground's origin", async ({ page }) => {
  await coursePage(page, '<reconcile-playground id="a" panes="plan"></reconcile-playground><reconcile-playground id="b" panes="editors,plan"></reconcile-playground>');
  await expect.poll(frameFits(page, "#a")).toBe(true);
  await expect.poll(frameFits(page, "#b")).toBe(true);
  const heightOf = (id) => page.locator(`#${id} iframe`).evaluate((f) => f.getBoundingClientRect().height);
  const [a, b] = [await heightOf("a"), await heightOf("b")];
  expect(a).not.toBe(b);
  const before = await page.evaluate(() => window.events.length);
  // A height posted by the course page itself (another source), and one from a frame on another origin.
  await listenForMarker(page);
  await page.evaluate(async (marker) => {
    postMessage({ type: "reconcile-playground:height", version: 1, height: 7 }, "*");
    const other = document.createElement("iframe");
    other.srcdoc = `<script>parent.postMessage({ type: "reconcile-playground:height", version: 1, height: 9 }, "*"); parent.postMessage("${marker}", "*");<\/script>`;
    document.body.append(other);
  }, MARKER);
  await heardMarker(page);
  expect([await heightOf("a"), await heightOf("b")]).toEqual([a, b]);
  expect(await page.evaluate(() => window.events.length)).toBe(before);
});

test("the component's methods command its frame", async ({ page }) => {
  const frame = await coursePage(page, '<reconcile-playground id="pg" preset="missed-events" panes="sim"></reconcile-playground>');
  const passes = frame.getByRole("list", { name: "Passes" }).locator(":scope > li");
  await expect(frame.getByRole("button", { name: "Step" })).toBeVisible();
  await page.evaluate(() => document.getElementById("pg").step());
  await expect(passes).toHaveCount(1);
  await page.evaluate(() => document.getElementById("pg").run());
  await expect(frame.locator(".verdict")).toHaveText(/Converged/);
});

test("a learner's Check arrives as a DOM event, with no listener of the page's on window", async ({ page }) => {
  const wrong = RIGHT_RECONCILE.replaceAll(".sort(byCodePoint)", ".sort()");
  const exercise = await coursePage(page, '<reconcile-playground id="ex" exercise="reconcile" lang="javascript"></reconcile-playground>');
  await exercise.getByRole("textbox", { name: /^Your reconcile, in / }).fill(wrong);
  await exercise.getByRole("button", { name: "Check", exact: true }).click();
  await expect.poll(() => page.evaluate(() => window.events.filter((e) => e.type === "reconcile-playground:checked")), { timeout: 30_000 })
    .toEqual([expect.objectContaining({ target: "ex", detail: expect.objectContaining({ version: 1, passed: false }) })]);
});

test("changing an attribute reopens the frame with it", async ({ page }) => {
  const frame = await coursePage(page, '<reconcile-playground id="pg" preset="load-balancer-finalizer" panes="plan"></reconcile-playground>');
  await expect(actionItems(frame)).toHaveText([/FINALIZE\s*svc/]);
  await page.evaluate(() => document.getElementById("pg").setAttribute("preset", "basics"));
  await expect(actionItems(frame).first()).not.toContainText("FINALIZE");
  expect(new URL(await page.locator("#pg iframe").getAttribute("src")).searchParams.get("preset")).toBe("basics");
});

test("a lesson's progress arrives as DOM events: steps, answers and its completion", async ({ page }) => {
  const frame = await coursePage(page, '<reconcile-playground id="pg" lesson="finalizers"></reconcile-playground>');
  const check = () => frame.getByRole("button", { name: "Check", exact: true }).click();
  const giveUp = () => frame.getByRole("button", { name: "Show the answer" }).click();
  const next = () => frame.getByRole("button", { name: "Next →" }).click();
  await frame.getByRole("button", { name: "DELETE svc", exact: true }).click();
  await check();
  await giveUp();
  await next();
  await frame.getByRole("radio", { name: "The API server, after a timeout." }).check();
  await check();
  await giveUp();
  await next();
  await frame.getByLabel("Your prediction: number of passes").fill("4");
  await check();
  await giveUp();
  await next();
  await frame.getByRole("radio", { name: "Remove the finalizer by hand." }).check();
  await check();
  await giveUp();
  const heard = () => page.evaluate(() => window.events.filter((e) => !e.type.endsWith(":height")).map((e) => [e.target, e.detail.type.split(":")[1], e.detail.step ?? null]));
  const steps = [1, 2, 3, 4].flatMap((step) => [["pg", "step-reached", step], ["pg", "answered", step]]);
  await expect.poll(heard).toEqual([...steps, ["pg", "lesson-completed", null]]);
  const events = await page.evaluate(() => window.events);
  expect(events.find((e) => e.type.endsWith(":answered")).detail).toEqual({ type: "reconcile-playground:answered", version: 1, lesson: "finalizers", step: 1, correct: false, firstTry: true });
  expect(events.findLast((e) => !e.type.endsWith(":height")).detail).toEqual({ type: "reconcile-playground:lesson-completed", version: 1, lesson: "finalizers", total: 4 });
});
