// "Your reconcile" on a controller exercise: pick it, get its starter and
// hints, Check it with checkController, and read the result: the properties,
// and on failure the property, the story and a link that replays the run.
import { test, expect, autosaved, MARKER, listenForMarker, heardMarker, frameOf } from "./fixtures.mjs";
import { exercise, knownBug } from "./controller-exercises.mjs";

const port = Number(process.env.PORT ?? 4173);
const code = (page) => page.getByRole("textbox", { name: /^Your reconcile, in / });
const status = (page) => page.locator(".exercise-pane .check-status");
const properties = (page) => page.getByRole("list", { name: "Properties" }).locator("li");
const finalizer = exercise("external-finalizer");

/** Chooses `name` in the pane's exercise choice. */
async function choose(page, name) {
  await page.locator("#exercise-choice").selectOption(name);
}

test("external-finalizer in JavaScript: the starter, the goal, hints one at a time", async ({ page }) => {
  await page.goto("/?exercise=reconcile&lang=javascript");
  await choose(page, "external-finalizer");
  await expect(code(page)).toHaveValue(finalizer.starter.js);
  await expect(page.locator(".controller-goal")).toHaveText(/^Goal: \S/);
  await expect(page.getByRole("list", { name: "Hints" })).toHaveCount(0);
  await page.getByRole("button", { name: /^Show a hint \(1 of \d+\)$/ }).click();
  await expect(page.getByRole("list", { name: "Hints" }).locator("li")).toHaveCount(1);
  await page.getByRole("button", { name: /^Show a hint \(2 of \d+\)$/ }).click();
  await expect(page.getByRole("list", { name: "Hints" }).locator("li")).toHaveCount(2);
  // Hints are kept per exercise: another exercise starts with none, and coming back shows both.
  await choose(page, "status");
  await expect(page.getByRole("list", { name: "Hints" })).toHaveCount(0);
  await choose(page, "external-finalizer");
  await expect(page.getByRole("list", { name: "Hints" }).locator("li")).toHaveCount(2);
  await expect(page.getByRole("button", { name: /^Show a hint \(3 of \d+\)$/ })).toBeVisible();
});

test("the reference passes with its properties listed, and a known bug fails with a replay link", async ({ page }) => {
  await page.goto("/?exercise=external-finalizer&lang=javascript");
  await expect(code(page)).toHaveValue(finalizer.starter.js);
  await code(page).fill(finalizer.reference.js);
  await page.getByRole("button", { name: "Check", exact: true }).click();
  await expect(status(page)).toHaveText(/^Passed: every property held in \d+ schedules\./, { timeout: 60_000 });
  await expect(properties(page)).toHaveText([/^eventually stable: held/, /^safe: held/, /^idempotent once converged: held/]);

  // Caught only under a fault: its counterexample has a schedule and a story.
  const bug = knownBug("external-finalizer", "fails-when-absent");
  await code(page).fill(bug.js);
  await page.getByRole("button", { name: "Check", exact: true }).click();
  await expect(status(page)).toHaveText(/^Failed: a property broke\. Schedules explored: \d+\./, { timeout: 60_000 });
  const found = page.getByRole("region", { name: "Counterexample" });
  await expect(found.locator("h3")).toHaveText(`Broken: ${bug.property}`);
  await expect(found.locator(".controller-schedule")).toContainText(bug.faults[0]);
  await expect(found.getByRole("list", { name: "What happened" }).locator("li")).toHaveCount(bug.faults.length);
  // The schedule and the story count requests alike, from 1.
  const told = await found.getByRole("list", { name: "What happened" }).locator("li").first().innerText();
  await expect(found.locator(".controller-schedule")).toContainText(`at request ${told.match(/request (\d+)/)[1]}`);
  await expect(found.getByRole("list", { name: "What happened" }).locator("li").first()).toHaveText(/crash/);
  await expect(properties(page).filter({ hasText: `${bug.property}: broken` })).toHaveCount(1);
  const link = found.getByRole("link", { name: "Open in the simulation" });
  await expect(link).toHaveAttribute("href", /^http:\/\/[^?#]+\/#v4\//);
  await expect(link).toHaveAttribute("target", "_blank");
});

test("a module without reconcile is an error that keeps the code and shows the output", async ({ page }) => {
  await page.goto("/?exercise=owned-configmap&lang=javascript");
  const source = 'console.log("loaded");\nexport function reconcil(request, client) {}\n';
  await code(page).fill(source);
  await page.getByRole("button", { name: "Check", exact: true }).click();
  await expect(status(page)).toHaveText(/^Your controller could not be checked: .*reconcile/, { timeout: 60_000 });
  await expect(code(page)).toHaveValue(source);
  await page.getByText(/^Output of your code \(\d+ lines?\)/).click();
  await expect(page.locator(".learner-output pre")).toContainText("loaded");
});

test("misuse of the client names the call; a schedule that runs on is stopped; the code stays", async ({ page }) => {
  await page.goto("/?exercise=owned-configmap&lang=javascript");
  const misuse = "export function reconcile(request, client) {\n  client.get(\"Nope\", request.name);\n}\n";
  await code(page).fill(misuse);
  await page.getByRole("button", { name: "Check", exact: true }).click();
  await expect(status(page)).toHaveText(/^Your controller could not be checked: client\.get: this exercise has no kind "Nope"/, { timeout: 60_000 });
  await expect(code(page)).toHaveValue(misuse);
  const endless = "export function reconcile(request, client) {\n  while (true) {}\n}\n";
  await code(page).fill(endless);
  await page.getByRole("button", { name: "Check", exact: true }).click();
  await expect(page.getByRole("button", { name: "Checking…" })).toHaveAttribute("aria-disabled", "true");
  await expect(status(page)).toHaveText(/^Your controller could not be checked: .*more than 2 seconds on the fault-free run/, { timeout: 60_000 });
  await expect(code(page)).toHaveValue(endless);
});

test("Stop ends a JavaScript check mid-way: it says so, keeps the code and the output, and the next Check passes", async ({ page }) => {
  await page.goto("/?exercise=owned-configmap&lang=javascript");
  const source = `console.log("imported");\n${exercise("owned-configmap").reference.js}`;
  await code(page).fill(source);
  const check = page.locator(".exercise-pane .check-button");
  const stop = page.getByRole("button", { name: "Stop", exact: true });
  await expect(stop).toHaveCount(0);
  await check.click();
  await expect(status(page)).toHaveText(/^Running… [1-9]\d* schedules explored so far\./, { timeout: 60_000 });
  // From the keyboard: Tab from Check reaches Stop, Enter presses it.
  await check.focus();
  await page.keyboard.press("Tab");
  await expect(stop).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(status(page)).toHaveText("Stopped: you stopped the check before it ended. Your code is as you left it.");
  await expect(stop).toHaveCount(0);
  await expect(check).toBeFocused();
  await expect(check).toHaveText("Check");
  await expect(check).not.toHaveAttribute("aria-disabled");
  await expect(code(page)).toHaveValue(source);
  await page.getByText(/^Output of your code \(\d+ lines?\)/).click();
  await expect(page.locator(".learner-output pre")).toContainText("imported");
  // A fresh worker: the next Check runs to its end.
  await check.click();
  await expect(status(page)).toHaveText(/^Passed: every property held in \d+ schedules\./, { timeout: 60_000 });
});

test("switching exercise and back keeps the code typed in each", async ({ page }) => {
  await page.goto("/?exercise=reconcile&lang=javascript");
  const mine = "export function reconcile(desired) { return []; } // mine\n";
  await code(page).fill(mine);
  await choose(page, "external-finalizer");
  const controller = `${finalizer.starter.js}// my controller\n`;
  await code(page).fill(controller);
  await choose(page, "status");
  await expect(code(page)).toHaveValue(exercise("status").starter.js);
  await choose(page, "reconcile");
  await expect(code(page)).toHaveValue(mine);
  await choose(page, "external-finalizer");
  await expect(code(page)).toHaveValue(controller);
  // The page keeps it for links and autosaves: a reload brings both back.
  await expect.poll(() => autosaved(page)).toContain("// my controller");
  await page.reload();
  // The address asks for the seed's exercise, so the pane opens on it.
  await expect(code(page)).toHaveValue(mine);
  await choose(page, "external-finalizer");
  await expect(code(page)).toHaveValue(controller);
});

test("Python: the reference of owned-configmap passes", async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto("/?exercise=owned-configmap&lang=python");
  await expect(code(page)).toHaveValue(exercise("owned-configmap").starter.py);
  await code(page).fill(exercise("owned-configmap").reference.py);
  await page.getByRole("button", { name: "Check", exact: true }).click();
  await expect(status(page)).toHaveText(/^Passed: every property held/, { timeout: 150_000 });
  await expect(properties(page)).toHaveCount(3);
});

test("Python: Stop while Python loads ends the check, and the code stays", async ({ page }) => {
  test.setTimeout(90_000);
  await page.goto("/?exercise=owned-configmap&lang=python");
  const source = exercise("owned-configmap").reference.py;
  await code(page).fill(source);
  const check = page.locator(".exercise-pane .check-button");
  await check.click();
  await expect(status(page)).toHaveText(/^(Loading|Starting) Python…/, { timeout: 30_000 });
  await page.getByRole("button", { name: "Stop", exact: true }).click();
  await expect(status(page)).toHaveText(/^Stopped: you stopped the check before it ended\./);
  await expect(check).toBeFocused();
  await expect(check).toHaveText("Check");
  await expect(code(page)).toHaveValue(source);
});

test("in a course page's frame, a controller's result reaches the allowed origin as controller-checked", async ({ page }) => {
  const run = async (allow) => {
    const src = `http://127.0.0.1:${port}/?embed&exercise=external-finalizer&lang=javascript${allow ? `&allow=${encodeURIComponent(allow)}` : ""}`;
    await page.goto(`http://localhost:${port}/__e2e/host.html?src=${encodeURIComponent(src)}&height=900`);
    const frame = page.frameLocator("#pg");
    await frame.getByRole("textbox", { name: /^Your reconcile, in / }).fill(knownBug("external-finalizer", "removes-first").js);
    await frame.getByRole("button", { name: "Check", exact: true }).click();
    await expect(frame.locator(".check-status")).toHaveText(/^Failed/, { timeout: 60_000 });
    await listenForMarker(page);
    await (await frameOf(page)).evaluate((marker) => parent.postMessage(marker, "*"), MARKER);
    await heardMarker(page);
    return page.evaluate(() => window.messages.filter((m) => /checked$/.test(m?.type ?? "")));
  };
  const delivered = await run(`http://localhost:${port}`);
  // Only the new type: `checked` listeners hear nothing of a controller's check.
  expect(delivered.map((m) => m.type)).toEqual(["reconcile-playground:controller-checked"]);
  const [message] = delivered;
  expect(message).toMatchObject({ version: 1, passed: false, exercise: "external-finalizer" });
  expect(message.schedulesExplored).toBeGreaterThan(0);
  expect(message.properties.map((p) => p.name)).toEqual(["eventually stable", "safe", "idempotent once converged"]);
  expect(Object.keys(message.counterexample).sort()).toEqual(["detail", "link", "property", "schedule", "story"]);
  expect(message.counterexample.property).toBe("safe");
  expect(message.counterexample.link).toMatch(/^#v4\//);
  expect(message).not.toHaveProperty("logs");
  expect(await run("http://evil.example")).toEqual([]);
});
