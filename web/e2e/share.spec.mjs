import { readFileSync } from "node:fs";
import { deflateRawSync } from "node:zlib";
import { test, expect, editor, actionItems, typeInto, actionSummaries, autosaved, openSettings, nextFrames } from "./fixtures.mjs";

const passes = (page) => page.getByRole("list", { name: "Passes", exact: true }).locator(":scope > li");
const notice = (page) => page.locator(".notice");

test("a share link restores the same state in a fresh browser", async ({ page, browser }) => {
  await page.goto("/");
  await typeInto(page, "Desired state", '{"a": {"replicas": 2}, "z": {}}');
  await expect.poll(() => actionSummaries(page)).toEqual(["CREATE a", "CREATE z", "DELETE b", "DELETE c"]);
  await page.getByRole("button", { name: "Step" }).click();
  await page.getByRole("button", { name: "Step" }).click();
  await page.getByRole("button", { name: "Share" }).click();
  const link = await page.getByLabel("Share link").inputValue();
  expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#v2\/[A-Za-z0-9_-]+$/);

  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  await other.goto(link);
  await expect(editor(other, "Desired state")).toHaveValue('{"a": {"replicas": 2}, "z": {}}');
  await expect(passes(other)).toHaveCount(2);
  expect(await actionSummaries(other)).toEqual(await actionSummaries(page));
  await fresh.close();
});

test("Ctrl+S makes the share link too", async ({ page }) => {
  await page.goto("/");
  await expect(actionItems(page).first()).toBeVisible();
  await page.keyboard.press("Control+s");
  await expect(page.getByLabel("Share link")).toHaveValue(/#v2\//);
});

test("leaving the page right after an edit still saves it", async ({ page }) => {
  await page.goto("/");
  await expect(actionItems(page).first()).toBeVisible();
  // Typed, and the tab closed at once: well within the autosave's pause.
  await editor(page, "Finalizers").fill('{"c": ["quick/exit"]}');
  await page.goto("about:blank");
  await page.goto("/");
  await expect(editor(page, "Finalizers")).toHaveValue('{"c": ["quick/exit"]}');
});

test("a shown share link says when the playground has moved on from it", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("button", { name: "Share" }).click();
  const first = await page.getByLabel("Share link").inputValue();
  const outdated = page.locator(".link-outdated");
  await expect(outdated).toHaveCount(0);
  // A pass run is part of the state a link holds.
  await page.getByRole("button", { name: "Step" }).click();
  await expect(outdated).toContainText("Press Share again for the current one.");
  await page.getByRole("button", { name: "Share" }).click();
  await expect(outdated).toHaveCount(0);
  const second = await page.getByLabel("Share link").inputValue();
  expect(second).not.toBe(first);
  await typeInto(page, "Desired state", "{}");
  await expect(outdated).toBeVisible();
  // Share again: a link of what the page shows now.
  await page.getByRole("button", { name: "Share" }).click();
  await expect(outdated).toHaveCount(0);
});

test("a reload restores the autosave", async ({ page }) => {
  await page.goto("/");
  await typeInto(page, "Observed state", '{"only": 1}');
  await expect.poll(() => autosaved(page)).toContain("only");
  await page.goto("/");
  await expect(editor(page, "Observed state")).toHaveValue('{"only": 1}');
});

/** Where builds before sessions kept their one autosave (read once, into a session). */
const AUTOSAVE_KEY = "reconcile-playground/v1/autosave";
const backoffDescription = (page) => page.getByText(/^Per item: |^Every failure requeues /);
/** A state as earlier builds wrote it, with the backoff's snake_case names. */
const oldState = (backoff) => JSON.stringify({ desired: '{"a": 1}\n', observed: "{}\n", finalizers: "null\n", sim: { backoff } });

test("a link of an earlier build, with snake_case backoff names, opens with its settings", async ({ page }) => {
  const old = oldState({ policy: "client-go", base_ms: 7, max_ms: 900, qps: 10, burst: 100 });
  await page.goto(`/#v1/${deflateRawSync(Buffer.from(old)).toString("base64url")}`);
  await expect(backoffDescription(page)).toContainText("Per item: 7 ms · 2ⁿ after n failures, at most 900 ms; overall: a token bucket of 10 qps, burst 100.");
  // Saved again with the camelCase names only.
  await expect.poll(() => autosaved(page)).toContain('"backoff":{"policy":"client-go","baseMs":7,"maxMs":900,"qps":10.0,"burst":100}');
  expect(await autosaved(page)).not.toContain("_ms");
});

test("a v1 link that carries dropRate opens with a note of what it became, and the slider at its value", async ({ page }) => {
  const old = JSON.stringify({ desired: '{"a": 1}\n', observed: "{}\n", finalizers: "null\n", sim: { dropRate: 0.3 } });
  await page.goto(`/#v1/${deflateRawSync(Buffer.from(old)).toString("base64url")}`);
  const note = page.locator(".notice").filter({ hasText: "informer cache" });
  await expect(note).toContainText('"watch events dropped: 30%" is now "Watch breaks: 30% of events"');
  await expect(note).toContainText("the informer lists again, so no change is missed for good");
  await openSettings(page);
  await expect(page.locator("label.slider", { hasText: "Watch breaks: 30% of events" })).toBeVisible();
  // Saved again under the new name; a link made now is v2 and opens without the note.
  await expect.poll(() => autosaved(page)).toContain('"watchBreakRate":0.3');
  expect(await autosaved(page)).not.toContain("dropRate");
  await page.getByRole("button", { name: "Share" }).click();
  const link = await page.getByLabel("Share link").inputValue();
  expect(link).toMatch(/#v2\//);
  await page.goto("about:blank");
  await page.goto(link);
  await openSettings(page);
  await expect(page.locator("label.slider", { hasText: "Watch breaks: 30% of events" })).toBeVisible();
  await expect(page.locator(".notice").filter({ hasText: "informer cache" })).toHaveCount(0);
});

test("a link with a misspelt setting opens its documents and runs the defaults, saying where the setting is", async ({ page }) => {
  const state = JSON.stringify({ desired: '{"a": 1}\n', observed: "{}\n", finalizers: "null\n", sim: { failureRat: 0.5 } });
  await page.goto(`/#v2/${deflateRawSync(Buffer.from(state)).toString("base64url")}`);
  await expect(notice(page)).toContainText("The simulation could not read these settings, so it runs with the default settings instead.");
  await expect(notice(page)).toContainText('Simulation options at $: unknown option "failureRat"');
  await expect(editor(page, "Desired state")).toHaveValue('{"a": 1}\n');
  await page.getByRole("button", { name: "Step" }).click();
  await expect(passes(page)).toHaveCount(1);
  await expect.poll(() => autosaved(page)).toContain('"failureRate":0.0');
  expect(await autosaved(page)).not.toContain("failureRat\"");
});

test("an autosave of an earlier build, with snake_case backoff names, opens with its settings", async ({ page }) => {
  const old = oldState({ policy: "fixed-delay", delay_ms: 5000 });
  await page.addInitScript(([key, value]) => localStorage.setItem(key, value), [AUTOSAVE_KEY, old]);
  await page.goto("/");
  await expect(page.getByLabel("Backoff policy")).toHaveValue("fixed-5s");
  await expect(backoffDescription(page)).toContainText("Every failure requeues after 5.0 s");
  await expect(editor(page, "Desired state")).toHaveValue('{"a": 1}\n');
});

test("opening a link keeps the previous session restorable", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("button", { name: "Share" }).click();
  const defaultLink = await page.getByLabel("Share link").inputValue();
  await typeInto(page, "Finalizers", '{"c": ["keep/me"]}');
  await expect.poll(() => autosaved(page)).toContain("keep/me");
  await page.goto(defaultLink);
  await page.reload();
  await expect(editor(page, "Finalizers")).toHaveValue("null\n");
  await page.getByRole("button", { name: "Restore your last session" }).click();
  await expect(editor(page, "Finalizers")).toHaveValue('{"c": ["keep/me"]}');
  // The button is gone with the notice; the focus moved on to the workspace.
  await expect(page.getByRole("button", { name: "Restore your last session" })).toHaveCount(0);
  await expect(page.locator(".layout")).toBeFocused();
});

test("a preset or a lesson chosen over edited documents keeps them one click away", async ({ page }) => {
  await page.goto("/");
  // An unedited preset is replaced without a word.
  await page.getByLabel("Preset").selectOption("stuck-namespace");
  await expect(notice(page)).toHaveCount(0);
  await typeInto(page, "Desired state", '{"my-work": {"replicas": 4}}');
  await expect.poll(() => actionSummaries(page)).toContain("CREATE my-work");

  await page.getByLabel("Preset").selectOption("basics");
  await expect(notice(page)).toHaveText(/Loaded the preset “Create, update, delete”\. It replaced your edited documents\./);
  await expect(editor(page, "Desired state")).not.toHaveValue(/my-work/);
  await page.getByRole("button", { name: "Bring back your edits" }).click();
  await expect(editor(page, "Desired state")).toHaveValue('{"my-work": {"replicas": 4}}');
  await expect.poll(() => actionSummaries(page)).toContain("CREATE my-work");
  await expect(notice(page)).toHaveCount(0);

  // The same for a lesson, which Restore also closes.
  await page.getByLabel("Lesson").selectOption("finalizers");
  await expect(page.locator(".lesson-panel")).toBeVisible();
  await expect(notice(page)).toContainText("It replaced your edited documents.");
  await page.getByRole("button", { name: "Bring back your edits" }).click();
  await expect(editor(page, "Desired state")).toHaveValue('{"my-work": {"replicas": 4}}');
  await expect(page.locator(".lesson-panel")).toHaveCount(0);
});

test("replaced edits are still offered after a reload, until restored or forgotten", async ({ page }) => {
  await page.goto("/");
  await typeInto(page, "Desired state", '{"my-work": {}}');
  await page.getByLabel("Preset").selectOption("stuck-namespace");
  await expect(notice(page)).toContainText("It replaced your edited documents.");
  // Closed (the preset autosaved meanwhile) and opened again.
  await expect.poll(() => autosaved(page)).toContain("stuck-namespace");
  await page.reload();
  await expect(notice(page)).toHaveText(/Your previous session is still saved in this browser\./);
  await page.getByRole("button", { name: "Restore your last session" }).click();
  await expect(editor(page, "Desired state")).toHaveValue('{"my-work": {}}');
  await expect(notice(page)).toHaveCount(0);
  await expect.poll(() => autosaved(page)).toContain("my-work");
  await page.reload();
  await expect(editor(page, "Desired state")).toHaveValue('{"my-work": {}}');
  await expect(notice(page)).toHaveCount(0);

  // Replaced again, then forgotten: it is not offered again.
  await page.getByLabel("Preset").selectOption("stuck-namespace");
  await page.getByRole("button", { name: "Dismiss message" }).click();
  await expect(notice(page)).toHaveText(/Your previous session is still saved/);
  await page.getByRole("button", { name: "Forget it" }).click();
  await expect(notice(page)).toHaveCount(0);
  await expect.poll(() => page.evaluate(() => localStorage.getItem("reconcile-playground/v1/previous"))).toBe(null);
  await expect.poll(() => autosaved(page)).toContain("stuck-namespace");
  await page.reload();
  await expect(editor(page, "Desired state")).not.toHaveValue(/my-work/);
  await expect(notice(page)).toHaveCount(0);
});

for (const query of ["preset=stuck-namespace", "lesson=finalizers"]) {
  test(`opening ?${query} keeps the autosaved work restorable`, async ({ page }) => {
    await page.goto("/");
    await typeInto(page, "Desired state", '{"my-work": {}}');
    await expect.poll(() => autosaved(page)).toContain("my-work");
    await page.goto(`/?${query}`);
    await expect(editor(page, "Desired state")).not.toHaveValue(/my-work/);
    await page.getByRole("button", { name: "Restore your last session" }).click();
    await expect(editor(page, "Desired state")).toHaveValue('{"my-work": {}}');
  });
}

test("import a scenario file, and bad files keep the editors as they were", async ({ page }) => {
  await page.goto("/");
  const picker = page.getByLabel("Import a scenario file");
  const scenario = { desired: { web: { replicas: 2 } }, observed: {}, finalizers: null };
  await picker.setInputFiles({ name: "good.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(scenario)) });
  await expect(notice(page)).toContainText("Loaded good.json.");
  await expect(editor(page, "Desired state")).toHaveValue('{\n  "web": {\n    "replicas": 2\n  }\n}\n');
  expect(await actionSummaries(page)).toEqual(["CREATE web"]);

  await picker.setInputFiles({ name: "broken.json", mimeType: "application/json", buffer: Buffer.from('{"desired": {}, "observed": [1,]}') });
  await expect(notice(page)).toContainText("Import failed: broken.json: Scenario: line 1, column");
  await expect(notice(page)).toContainText("$.observed");
  await expect(editor(page, "Desired state")).toHaveValue('{\n  "web": {\n    "replicas": 2\n  }\n}\n');
});

test("a file dragged over the page shows the drop target; dropped anywhere, it is imported", async ({ page }) => {
  await page.goto("/");
  const scenario = { desired: { dropped: { replicas: 1 } }, observed: {}, finalizers: null };
  const files = await page.evaluateHandle((text) => {
    const transfer = new DataTransfer();
    transfer.items.add(new File([text], "dropped.json", { type: "application/json" }));
    return transfer;
  }, JSON.stringify(scenario));
  const dropZone = page.locator(".drop-zone");

  // Dragged over the title, far from the editors: the whole window is the target.
  await page.dispatchEvent("h1", "dragenter", { dataTransfer: files });
  await expect(dropZone).toHaveText("Drop a scenario file to import it");
  // Taken away again: the target goes, nothing is imported.
  await dropZone.dispatchEvent("dragleave", { dataTransfer: files });
  await expect(dropZone).toHaveCount(0);
  await expect(notice(page)).toHaveCount(0);

  await page.dispatchEvent("h1", "dragenter", { dataTransfer: files });
  await dropZone.dispatchEvent("dragover", { dataTransfer: files });
  await dropZone.dispatchEvent("drop", { dataTransfer: files });
  await expect(dropZone).toHaveCount(0);
  await expect(notice(page)).toContainText("Loaded dropped.json.");
  await expect(editor(page, "Desired state")).toHaveValue('{\n  "dropped": {\n    "replicas": 1\n  }\n}\n');
  expect(await actionSummaries(page)).toEqual(["CREATE dropped"]);

  // Text dragged about (not a file) is not a drop target.
  const text = await page.evaluateHandle(() => {
    const transfer = new DataTransfer();
    transfer.setData("text/plain", "{}");
    return transfer;
  });
  await page.dispatchEvent("main", "dragenter", { dataTransfer: text });
  await expect(dropZone).toHaveCount(0);
});

test("a read-only embed imports nothing dropped on it, and the browser does not open the file instead", async ({ page }) => {
  await page.goto("/?embed&readonly");
  const before = await editor(page, "Desired state").inputValue();
  const prevented = await page.evaluate(() => {
    const transfer = new DataTransfer();
    transfer.items.add(new File(['{"desired": {"x": {}}, "observed": {}}'], "x.json", { type: "application/json" }));
    // Kept, for the test to read it again after the page would have.
    window.droppedFile = transfer.files[0];
    const target = document.querySelector("main");
    const events = ["dragenter", "dragover", "drop"].map((type) => new DragEvent(type, { dataTransfer: transfer, bubbles: true, cancelable: true }));
    return events.map((event) => (target.dispatchEvent(event), event.defaultPrevented));
  });
  expect(prevented).toEqual([true, true, true]);
  await expect(page.locator(".drop-zone")).toHaveCount(0);
  // An import would read the file first: a read started now ends after it.
  await page.evaluate(() => window.droppedFile.text());
  await nextFrames(page);
  await expect(editor(page, "Desired state")).toHaveValue(before);
  await expect(page.locator(".notice")).toHaveCount(0);
});

test("download the scenario and the results", async ({ page }) => {
  await page.goto("/");
  await expect(actionItems(page).first()).toBeVisible();
  const [scenarioFile] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Download scenario" }).click(),
  ]);
  expect(scenarioFile.suggestedFilename()).toBe("scenario.json");
  const scenario = JSON.parse(readFileSync(await scenarioFile.path(), "utf8"));
  expect(scenario).toEqual({
    desired: { a: { replicas: 1 }, b: { replicas: 3 } },
    observed: { b: { replicas: 1 }, c: { replicas: 1 } },
    finalizers: null,
  });
  const [resultsFile] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Download results" }).click(),
  ]);
  const results = JSON.parse(readFileSync(await resultsFile.path(), "utf8"));
  expect(results.actions).toEqual([["CREATE", "a", { replicas: 1 }], ["UPDATE", "b", { replicas: 3 }], ["DELETE", "c", null]]);
  expect(results.timeline.verdict.verdict).toBe("converged");
});

test("a teacher's lesson link reopens at the step, with the answers shown and the cursor and panels where they were", async ({ page, browser }) => {
  await page.goto("/?lesson=finalizers&step=3");
  await expect(page.locator(".sim-pane")).toContainText("Hidden until you make your prediction");
  await page.getByLabel("Your prediction: number of passes").fill("4");
  await page.getByRole("button", { name: "Check", exact: true }).click();
  await page.getByRole("button", { name: "Show the answer" }).click();
  await page.getByRole("button", { name: "Step" }).click();
  await page.getByRole("button", { name: "Step" }).click();
  await expect(passes(page)).toHaveCount(2);
  await page.locator("details.control-plane > summary").click();
  await expect(page.locator("details.control-plane")).toHaveJSProperty("open", true);
  await page.getByRole("button", { name: "Share" }).click();
  const link = await page.getByLabel("Share link").inputValue();
  expect(link).toMatch(/#v2\//);

  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  await other.goto(link);
  await expect(other.getByRole("complementary", { name: /./ })).toContainText("Step 3 of 4");
  await expect(other.locator(".feedback")).toContainText("The answer is shown: the simulation has it.");
  await expect(other.locator(".sim-pane")).not.toContainText("Hidden until you make your prediction");
  await expect(passes(other)).toHaveCount(2);
  await expect(other.locator("details.control-plane")).toHaveJSProperty("open", true);
  await fresh.close();
});
