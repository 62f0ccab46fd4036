import { test, expect, editor, actionItems, actionSummaries, typeInto, flushAutosave, MARKER, listenForMarker, heardMarker } from "./fixtures.mjs";

// The playground and the host page are one server reached under two names, so two origins.
const port = Number(process.env.PORT ?? 4173);

/**
 * A course page on another origin (localhost, while the playground is on
 * 127.0.0.1) that embeds the playground and resizes the iframe on request.
 */
async function hostPage(page, query, startHeight = 120) {
  const src = `http://127.0.0.1:${port}/?${query}`;
  await page.goto(`http://localhost:${port}/__e2e/host.html?src=${encodeURIComponent(src)}&height=${startHeight}`);
  return page.frameLocator("#pg");
}

test("an embedded playground tells its parent its height, and the parent resizes it", async ({ page }) => {
  const frame = await hostPage(page, "embed");
  await expect(frame.getByRole("list", { name: "Actions" }).locator(":scope > li").first()).toBeVisible();
  // The prerendered plan may report a height first; the page mounts over it.
  await expect(frame.locator("#prerendered-plan")).toHaveCount(0);
  await expect.poll(() => page.evaluate(() => window.heights.length)).toBeGreaterThan(0);
  // The frame ends at the height last reported (a report can follow a resize:
  // the frame's own scrollbar, gone once it is tall enough, changes the wrapping).
  await expect.poll(() => page.evaluate(() => document.getElementById("pg").getBoundingClientRect().height === window.heights.at(-1))).toBe(true);
  expect(await page.evaluate(() => window.heights.at(-1))).toBeGreaterThan(400);
  // Each message is the envelope: its type, version 1, and the fields listeners read before it.
  const [message, height] = await page.evaluate(() => [window.messages.at(-1), window.heights.at(-1)]);
  expect(message).toEqual({ type: "reconcile-playground:height", version: 1, height });
  await expect(frame.getByRole("link", { name: "Open in playground ↗" })).toHaveAttribute("href", new RegExp(`^http://127\\.0\\.0\\.1:${port}/#v2/`));
  // No header chrome: the tagline and toolbar are gone; only a one-line title bar remains.
  // (A browser that denies this third-party frame storage shows the compact
  // autosave notice, whose "Copy share link" is no toolbar.)
  await expect(frame.locator(".tagline")).toHaveCount(0);
  await expect(frame.getByRole("button", { name: "Share", exact: true })).toHaveCount(0);
  await expect(frame.locator(".storage-notice:not(.compact)")).toHaveCount(0);
});

test("an embedded playground's frame shrinks to its content, and follows it up and down as a panel opens and closes", async ({ page }) => {
  // The frame starts far taller than a plan alone needs.
  const frame = await hostPage(page, "embed&panes=sim&preset=missed-events", 3000);
  const faults = frame.locator("details.fault-panel");
  // In a course column "Faults and settings" starts closed.
  await expect(faults).toHaveJSProperty("open", false);
  const contentHeight = () => frame.locator(".app").evaluate((app) => Math.ceil(app.getBoundingClientRect().height));
  const frameHeight = () => page.locator("#pg").evaluate((f) => f.getBoundingClientRect().height);
  await expect.poll(frameHeight).toBeLessThan(3000);
  const closed = await contentHeight();
  await expect.poll(frameHeight).toBe(closed);
  await frame.getByText("Faults and settings").click();
  await expect(faults).toHaveJSProperty("open", true);
  const open = await contentHeight();
  expect(open).toBeGreaterThan(closed + 100);
  await expect.poll(frameHeight).toBe(open);
  // Closing it makes the content shorter; the frame follows.
  await frame.getByText("Faults and settings").click();
  await expect.poll(frameHeight).toBe(closed);
});

test("Share offers embed code for the shared state; pasted into a course page, it shows that state as chosen and fits its frame", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.goto("/");
  await typeInto(page, "Desired state", '{"from-snippet": {"replicas": 2}}');
  await expect.poll(() => actionSummaries(page)).toContain("CREATE from-snippet");
  await page.getByRole("button", { name: "Share" }).click();
  const link = await page.getByLabel("Share link").inputValue();
  const hash = link.slice(link.indexOf("#"));
  const embedCode = page.locator(".embed-code");
  await embedCode.getByText("Embed this state in a course page").click();
  const code = embedCode.getByLabel("Embed code");
  expect(await code.inputValue()).toContain(`src="http://127.0.0.1:${port}/?embed${hash}"`);
  expect(await code.inputValue()).toContain(`if (event.origin !== "http://127.0.0.1:${port}") return;`);

  // Without the faults: the timeline is named on its own.
  await embedCode.getByLabel("Faults and settings", { exact: true }).uncheck();
  expect(await code.inputValue()).toContain(`src="http://127.0.0.1:${port}/?embed&amp;panes=editors,plan,timeline${hash}"`);
  // Editors and plan only, read-only.
  await embedCode.getByLabel("Simulation", { exact: true }).uncheck();
  await embedCode.getByLabel("Read-only (documents, faults and settings)").check();
  expect(await code.inputValue()).toContain(`src="http://127.0.0.1:${port}/?embed&amp;panes=editors,plan&amp;readonly${hash}"`);
  // An embed shows at least one pane: with only the plan left, it cannot be unticked.
  await embedCode.getByLabel("Editors", { exact: true }).uncheck();
  await expect(embedCode.getByLabel("Plan", { exact: true })).toBeDisabled();
  await embedCode.getByLabel("Editors", { exact: true }).check();
  await expect(embedCode.getByLabel("Plan", { exact: true })).toBeEnabled();

  await embedCode.getByRole("button", { name: "Copy embed code" }).click();
  await expect(embedCode.getByRole("status")).toHaveText("Copied to the clipboard.");
  const snippet = await code.inputValue();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(snippet);

  // Pasted as it is into a course page on another origin.
  await page.goto(`http://localhost:${port}/__e2e/paste.html#${encodeURIComponent(snippet)}`);
  const frame = page.frameLocator("iframe");
  await expect(editor(frame, "Desired state")).toHaveValue('{"from-snippet": {"replicas": 2}}');
  await expect(editor(frame, "Desired state")).toHaveJSProperty("readOnly", true);
  await expect(frame.getByRole("list", { name: "Actions" }).locator(":scope > li").first()).toContainText("CREATE");
  await expect(frame.getByRole("button", { name: "Step" })).toHaveCount(0);
  // The snippet's listener sized the frame to the playground's content (not its 600px start).
  const fits = async () => (await page.locator("iframe").evaluate((f) => f.clientHeight)) ===
    (await frame.locator(".app").evaluate((app) => Math.ceil(app.getBoundingClientRect().height)));
  await expect.poll(fits).toBe(true);
  expect(await page.locator("iframe").evaluate((f) => f.clientHeight)).not.toBe(600);
});

test("two exact-state embeds on one course page keep their work apart", async ({ page }) => {
  // Two states, each shared as a link.
  await page.goto("/");
  const linkOf = async (desired, previous) => {
    await typeInto(page, "Desired state", desired);
    await page.getByRole("button", { name: "Share" }).click();
    // Share shows the link once its state is encoded: until then, the last one stays.
    const link = page.getByLabel("Share link");
    await expect.poll(() => link.inputValue()).toMatch(/#v\d\//);
    await expect.poll(() => link.inputValue()).not.toBe(previous);
    await expect(page.locator(".link-outdated")).toHaveCount(0);
    return link.inputValue();
  };
  const first = await linkOf('{"first": {}}');
  const second = await linkOf('{"second": {}}', first);
  const frameOf = (link) => `<iframe title="Reconcile Playground" style="width:100%;height:300px" src="${link.replace("#", "?embed#")}"></iframe>`;
  // A course page on the playground's own site, as dist/example.html is (there,
  // embeds have storage; a browser may deny it to embeds from another site).
  await page.goto(`/__e2e/paste.html#${encodeURIComponent(frameOf(first) + frameOf(second))}`);
  const frames = [page.frameLocator("iframe").first(), page.frameLocator("iframe").last()];
  await expect(editor(frames[0], "Desired state")).toHaveValue('{"first": {}}');
  await expect(editor(frames[1], "Desired state")).toHaveValue('{"second": {}}');

  // A learner edits the first; its work is saved for the first alone.
  await typeInto(frames[0], "Desired state", '{"first": {"edited": true}}');
  await flushAutosave(await page.locator("iframe").first().elementHandle().then((element) => element.contentFrame()));
  await page.reload();
  await expect(editor(frames[1], "Desired state")).toHaveValue('{"second": {}}');
  await expect(frames[1].locator(".notice")).toHaveCount(0);
  // The first shows its link again, with the learner's edit one click away.
  await expect(editor(frames[0], "Desired state")).toHaveValue('{"first": {}}');
  await frames[0].getByRole("button", { name: "Restore your last session" }).click();
  await expect(editor(frames[0], "Desired state")).toHaveValue('{"first": {"edited": true}}');
});

test("an embed's Open in playground link follows edits and opens that state", async ({ page, context }) => {
  await page.goto("/?embed");
  const link = page.getByRole("link", { name: "Open in playground ↗" });
  await expect(link).toHaveAttribute("href", /#v2\//);
  await typeInto(page, "Desired state", '{"from-embed": {"replicas": 3}}');
  const before = await link.getAttribute("href");
  await expect.poll(() => link.getAttribute("href")).not.toBe(before);
  const opened = await context.newPage();
  await opened.goto(await link.getAttribute("href"));
  await expect(editor(opened, "Desired state")).toHaveValue('{"from-embed": {"replicas": 3}}');
});

test("a readonly embed locks the editors and every control that changes the run; Step and Run still move through it", async ({ page }) => {
  await page.goto("/?embed&readonly");
  const desired = editor(page, "Desired state");
  await expect(desired).toHaveJSProperty("readOnly", true);
  const before = await desired.inputValue();
  await desired.click();
  await page.keyboard.type("xyz");
  await expect(desired).toHaveValue(before);
  await expect(page.getByRole("button", { name: "Format Desired state" })).toHaveCount(0);
  await page.getByRole("button", { name: "Step" }).click();
  await expect(page.getByRole("list", { name: "Passes" }).locator(":scope > li")).toHaveCount(1);
  // Faults and settings change the run: every one of its controls is disabled.
  const faults = page.locator(".fault-panel");
  await faults.locator(":scope > summary").click();
  await expect(faults).toContainText("Read-only: this run's faults and settings are fixed");
  for (const name of ["Delete it", "Drift it"]) await expect(faults.getByRole("button", { name })).toBeDisabled();
  const controls = faults.locator("button, input, select");
  expect(await controls.count()).toBeGreaterThan(5);
  for (const control of await controls.all()) await expect(control).toBeDisabled();
});

test("an embed that is not readonly keeps its faults and settings working", async ({ page }) => {
  await page.goto("/?embed");
  await page.getByText("Faults and settings").click();
  await expect(page.locator(".fault-panel").getByRole("button", { name: "Delete it" })).toBeEnabled();
});

test("panes= names the timeline and the faults apart; sim is both", async ({ page }) => {
  await page.goto("/?embed&panes=plan,timeline");
  await expect(page.getByRole("button", { name: "Step" })).toBeVisible();
  // In an embed the timeline comes with the first Step (embed-fit.spec.mjs).
  await expect(page.locator(".moment-status")).toBeVisible();
  await expect(page.locator(".sim-grid")).toHaveCount(0);
  await page.getByRole("button", { name: "Step" }).click();
  await expect(page.locator(".sim-grid")).toBeVisible();
  await expect(page.locator(".fault-panel")).toHaveCount(0);
  await page.goto("/?embed&panes=faults");
  await expect(page.locator(".fault-panel")).toBeVisible();
  await expect(page.locator(".sim-grid")).toHaveCount(0);
  await page.goto("/?embed&panes=sim");
  await expect(page.locator(".fault-panel")).toBeVisible();
  await page.getByRole("button", { name: "Step" }).click();
  await expect(page.locator(".sim-grid")).toBeVisible();
});

test("panes= chooses what shows and preset= the starting content", async ({ page }) => {
  await page.goto("/?embed&panes=plan&preset=load-balancer-finalizer");
  await expect(actionItems(page)).toHaveCount(1);
  await expect(actionItems(page).first()).toContainText("FINALIZE");
  await expect(editor(page, "Desired state")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Step" })).toHaveCount(0);
});

test("commands from the parent are obeyed only from allowed origins", async ({ page }) => {
  const load = (frameOrigin, envelope = {}, desired = '{"from-parent": 1}') =>
    page.evaluate(([origin, envelope, desired]) => {
      document.getElementById("pg").contentWindow.postMessage(
        { type: "reconcile-playground:load", desired, observed: "{}", ...envelope },
        origin,
      );
    }, [frameOrigin, envelope, desired]);

  let frame = await hostPage(page, "embed&allow=http://evil.example");
  await expect(frame.getByRole("list", { name: "Actions" }).locator(":scope > li").first()).toBeVisible();
  const playground = await page.locator("#pg").elementHandle().then((element) => element.contentFrame());
  await listenForMarker(playground);
  await load(`http://127.0.0.1:${port}`);
  // Posted after the command, the marker arrives after it.
  await page.evaluate((marker) => document.getElementById("pg").contentWindow.postMessage(marker, "*"), MARKER);
  await heardMarker(playground);
  await expect(frame.getByRole("textbox", { name: "Desired state" })).not.toHaveValue(/from-parent/);

  frame = await hostPage(page, `embed&allow=${encodeURIComponent(`http://localhost:${port}`)}`);
  await expect(frame.getByRole("list", { name: "Actions" }).locator(":scope > li").first()).toBeVisible();
  await load(`http://127.0.0.1:${port}`);
  await expect(frame.getByRole("textbox", { name: "Desired state" })).toHaveValue('{"from-parent": 1}');
  await expect(frame.getByRole("list", { name: "Actions" }).locator(":scope > li")).toHaveText([/CREATE\s*from-parent/]);
  // In the envelope: version 1 is obeyed; a newer version is not half understood.
  await load(`http://127.0.0.1:${port}`, { version: 1 }, '{"from-version-1": 1}');
  await expect(frame.getByRole("textbox", { name: "Desired state" })).toHaveValue('{"from-version-1": 1}');
  await load(`http://127.0.0.1:${port}`, { version: 2 }, '{"from-version-2": 1}');
  const allowed = await page.locator("#pg").elementHandle().then((element) => element.contentFrame());
  await listenForMarker(allowed);
  await page.evaluate((marker) => document.getElementById("pg").contentWindow.postMessage(marker, "*"), MARKER);
  await heardMarker(allowed);
  await expect(frame.getByRole("textbox", { name: "Desired state" })).toHaveValue('{"from-version-1": 1}');
});

test("the example course page embeds two playgrounds and calls the JS API", async ({ page }) => {
  await page.goto("/example.html");
  await expect(page.locator("#api-result")).toHaveText(
    '[["CREATE","a",{"replicas":1}],["UPDATE","b",{"replicas":3}],["DELETE","c",null]]\n1 to create, 1 to update, 0 to finalize, 1 to delete',
  );
  const first = page.frameLocator("#finalizer-demo");
  await expect(first.getByRole("list", { name: "Actions" }).locator(":scope > li")).toHaveText([/FINALIZE\s*svc/]);
  const second = page.frameLocator("#missed-events-demo");
  await second.getByRole("button", { name: "Run to convergence" }).click();
  await expect(second.locator(".verdict")).toHaveText("✓ Converged after 3 passes (t = 518 ms)");
  // Both frames fit their content exactly, from their 420px starting height:
  // no gap below it, no scrollbar inside.
  for (const id of ["#finalizer-demo", "#missed-events-demo"]) {
    const content = page.frameLocator(id).locator(".app");
    const fits = async () => {
      const inner = await content.evaluate((app) => [Math.ceil(app.getBoundingClientRect().height), document.documentElement.scrollHeight, document.documentElement.clientHeight]);
      const frame = await page.locator(id).evaluate((f) => f.clientHeight);
      return frame === inner[0] && inner[1] <= inner[2];
    };
    await expect.poll(fits).toBe(true);
  }
});

test("an embedded lesson reports its progress only to the origins allow= names", async ({ page }) => {
  const host = `http://localhost:${port}`;
  const frame = await hostPage(page, `embed&lesson=finalizers&allow=${encodeURIComponent(host)}`);
  const progress = () => page.evaluate(() => window.messages.filter((m) => !/:(height|state)$/.test(m.type)));
  await expect.poll(progress).toEqual([{ type: "reconcile-playground:step-reached", version: 1, lesson: "finalizers", step: 1, total: 4 }]);
  // A wrong first try, then a right second one.
  await frame.getByRole("button", { name: "DELETE svc", exact: true }).click();
  await frame.getByRole("button", { name: "Check", exact: true }).click();
  await frame.getByRole("button", { name: "Start over" }).click();
  await frame.getByRole("button", { name: "FINALIZE svc", exact: true }).click();
  await frame.getByRole("button", { name: "Check", exact: true }).click();
  const answered = (correct, firstTry) => ({ type: "reconcile-playground:answered", version: 1, lesson: "finalizers", step: 1, correct, firstTry });
  await expect.poll(progress).toEqual([expect.anything(), answered(false, true), answered(true, false)]);
  await frame.getByRole("button", { name: "Next →" }).click();
  await expect.poll(() => progress().then((m) => m.at(-1))).toMatchObject({ type: "reconcile-playground:step-reached", step: 2 });

  // Another origin allowed: the same lesson tells this page nothing but heights.
  const other = await hostPage(page, "embed&lesson=finalizers&allow=http://course.example");
  await expect(other.getByRole("button", { name: "DELETE svc", exact: true })).toBeVisible();
  await other.getByRole("button", { name: "DELETE svc", exact: true }).click();
  await other.getByRole("button", { name: "Check", exact: true }).click();
  await expect(other.locator(".feedback")).toContainText("Try once more.");
  await expect.poll(() => page.evaluate(() => window.heights.length)).toBeGreaterThan(0);
  expect(await progress()).toEqual([]);
});
