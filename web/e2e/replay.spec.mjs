// Issue 30's "Open in the simulation": a `#v4/…` link (a counterexample's, from
// checkController) opens the failing run of a learner's controller in the
// simulation section's views, replayed from its record: no learner's code, no
// contract controller. A corrupt or unopenable replay link says so.
import { readFileSync } from "node:fs";
import { deflateRawSync } from "node:zlib";
import { test, expect, editor, autosaved } from "./fixtures.mjs";
import { knownBug } from "./controller-exercises.mjs";

const passes = (page) => page.getByRole("list", { name: "Passes", exact: true }).locator(":scope > li");
const selectedPass = (page) => page.locator("li.pass[aria-current=step]");
const banner = (page) => page.locator(".replay-banner");

/** A `#v4/` link of `json`, as a link is made (base64url of raw deflate). */
const v4 = (json) => `#v4/${deflateRawSync(Buffer.from(JSON.stringify(json))).toString("base64url")}`;

/** The counterexample `checkController` gives for `source` (JavaScript), from a blank same-origin page. */
async function counterexampleOf(page, source) {
  await page.route("**/replay-test.html", (route) =>
    route.fulfill({ contentType: "text/html", body: '<!doctype html><title>test</title><link rel="icon" href="data:,">' }),
  );
  await page.goto("/replay-test.html");
  return page.evaluate(async (source) => {
    const api = new URL("/pkg/reconcile.js", location.href).href;
    const { checkController } = await import(api);
    const text = source.replace(/from "reconcile"/g, `from ${JSON.stringify(api)}`);
    const url = URL.createObjectURL(new Blob([text], { type: "text/javascript" }));
    let loads = 0;
    const load = async () => (await import(`${url}#${++loads}`)).reconcile;
    const result = await checkController(load, {});
    return result.counterexample;
  }, source);
}

test("a counterexample's link shows the replayed run in the simulation's views, and leaving it keeps the autosave", async ({ page }) => {
  // The learner's own work first: autosaved, and not the replay's input.
  await page.goto("/");
  await editor(page, "Desired state").fill('{"kept": {"replicas": 1}}');
  await expect.poll(() => autosaved(page)).toContain("kept");

  // An update on every reconcile: "idempotent once converged" breaks at a pass, fault-free.
  const example = await counterexampleOf(page, knownBug("owned-configmap", "blind-update").js);
  expect(example.property).toBe("idempotent once converged");
  expect(example.link).toMatch(/^#v4\//);
  await page.goto("about:blank");
  await page.goto(`/${example.link}`);

  // The page says what it shows; the editors and the plan are not the replay's input.
  await expect(banner(page)).toContainText("A replay of a learner's controller on exercise owned-configmap");
  await expect(banner(page)).toContainText(`The property “${example.property}” broke: ${example.detail}.`);
  for (const sentence of example.story) await expect(banner(page)).toContainText(sentence);
  await expect(page.locator(".replay-note")).toContainText("not its input");
  await expect(editor(page, "Desired state")).toHaveCount(0);
  expect(page.url()).toContain(example.link);

  // The timeline: one pass per reconcile of the record, all revealed, the cursor where it broke.
  await expect(passes(page)).toHaveCount(example.record.length);
  const broke = page.locator("li.pass.broke");
  await expect(broke).toHaveCount(1);
  await expect(broke).toHaveAttribute("aria-current", "step");
  await expect(broke).toContainText("✗ the property had broken here");
  const brokePass = Number(await broke.getAttribute("data-pass"));
  expect(example.detail).toContain(`reconcile ${brokePass} of`);
  await expect(banner(page).getByRole("list", { name: `Calls of pass ${brokePass}` })).toContainText("client.update");

  // The exercise's objects, not the contract's default scenario (a, b, c).
  const name = example.record[0].name;
  await expect(page.getByRole("table", { name: "Resource status", exact: true })).toContainText(`${name}-config`);
  await expect(page.getByRole("table", { name: "Custom resource status", exact: true })).toContainText(name);
  const picture = page.locator("details.control-plane");
  await picture.locator("summary").click();
  await expect(picture.locator(".cp-text")).toContainText(`${name}-config`);
  await expect(page.locator(".level-edge.not-for-replay")).toContainText("does not apply to a replay");
  // The engine's verdict (the contract's reading) gives way to the check's.
  await expect(page.locator(".replay-counts")).toContainText("A replay's verdict is the check's");
  await expect(page.locator(".verdict.not-converging, .verdict.converged")).toHaveCount(0);
  await expect(page.locator(".fault-panel.not-for-replay")).toBeVisible();

  // Stepping: pass 1, then Step to pass 2; the calls follow the cursor.
  await page.locator('li.pass[data-pass="1"] .pass-head').click();
  await expect(selectedPass(page)).toHaveAttribute("data-pass", "1");
  await expect(banner(page).getByRole("list", { name: "Calls of pass 1" })).toContainText("client.get");
  await page.getByRole("button", { name: "Step", exact: true }).click();
  await expect(selectedPass(page)).toHaveAttribute("data-pass", "2");
  await banner(page).getByRole("button", { name: "Go to where it broke" }).click();
  await expect(selectedPass(page)).toHaveAttribute("data-pass", String(brokePass));

  // Leaving: the learner's autosaved documents, run by the contract again, at their own address.
  await page.locator(".replay-note").getByRole("button", { name: "Leave the replay" }).click();
  await expect(editor(page, "Desired state")).toHaveValue('{"kept": {"replicas": 1}}');
  await expect(banner(page)).toHaveCount(0);
  await expect.poll(() => page.evaluate(() => location.hash)).toMatch(/^#v2\//);
  expect(await autosaved(page)).toContain("kept");
});

test("Share during a replay gives its own link, and Download results holds the replay alone", async ({ page, browser }) => {
  // No ownerReference: "eventually stable" breaks at the pass limit, fault-free.
  const example = await counterexampleOf(page, knownBug("owned-configmap", "no-owner").js);
  expect(example.property).toBe("eventually stable");
  await page.goto("about:blank");
  await page.goto(`/${example.link}`);
  await expect(passes(page)).toHaveCount(example.record.length);

  // The verdict speaks of the property and the goal, not of the contract's planned actions.
  await expect(banner(page)).toContainText(`The property “eventually stable” broke: ${example.detail}.`);
  expect(example.detail).toContain("the goal still did not hold");
  expect(example.detail).not.toContain("planning actions");
  await expect(banner(page)).not.toContainText("Not converging");

  // Share: the address the replay came from, said to be the replay's; the autosave's is not given.
  const share = page.getByRole("button", { name: "Share", exact: true });
  await expect(share).toHaveAttribute("title", /this replay/);
  await share.click();
  const notice = page.locator(".notice", { has: page.getByLabel("Share link") });
  await expect(notice).toContainText("Link to this replay copied to the clipboard");
  await expect(notice).toContainText("It opens this same failing run");
  await expect(page.locator(".embed-code")).toHaveCount(0);
  const link = await page.getByLabel("Share link").inputValue();
  expect(link).toBe(new URL(`/${example.link}`, page.url()).href);
  expect(page.url()).toContain(example.link);

  // The link reopens the same replay elsewhere.
  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  await other.goto(link);
  await expect(banner(other)).toContainText(`The property “${example.property}” broke: ${example.detail}.`);
  await expect(passes(other)).toHaveCount(example.record.length);
  await expect(other.locator("li.pass.broke")).toHaveAttribute("data-pass", await page.locator("li.pass.broke").getAttribute("data-pass"));
  await fresh.close();

  // Download results: the exercise, the property broken, the schedule, the story, the replay's timeline; no plan.
  const [resultsFile] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Download results" }).click(),
  ]);
  expect(resultsFile.suggestedFilename()).toBe("results.json");
  const results = JSON.parse(readFileSync(await resultsFile.path(), "utf8"));
  expect(Object.keys(results).sort()).toEqual(["exercise", "property", "schedule", "story", "timeline"]);
  expect(results.exercise).toBe("owned-configmap");
  expect(results.property).toEqual({ name: example.property, held: false, detail: example.detail });
  expect(results.schedule).toEqual(example.schedule);
  expect(results.story).toEqual(example.story);
  expect(results.timeline.passes).toHaveLength(example.record.length);
});

test("a corrupt replay link says so and loads the default; one that does not open says why", async ({ page }) => {
  await page.goto("/#v4/AAAA");
  await expect(page.locator(".notice")).toContainText("This link is damaged or cut short");
  await expect(editor(page, "Desired state")).toBeVisible();
  await expect(banner(page)).toHaveCount(0);

  await page.goto("about:blank");
  await page.goto(`/${v4({ replay: { exercise: "no-such-exercise", script: { schedule: [], reconciles: [] } } })}`);
  await expect(page.locator(".replay-refused")).toContainText('This replay cannot be opened: no exercise "no-such-exercise"');
  await page.getByRole("button", { name: "Leave the replay" }).click();
  await expect(editor(page, "Desired state")).toBeVisible();
  await expect(page.locator(".replay-refused")).toHaveCount(0);
});
