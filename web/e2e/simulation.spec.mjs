import { test, expect, openSettings, typeInto } from "./fixtures.mjs";

const passes = (page) => page.getByRole("list", { name: "Passes", exact: true }).locator(":scope > li");
const verdict = (page) => page.locator(".verdict");

async function choosePreset(page, label) {
  await page.getByLabel("Preset", { exact: true }).selectOption({ label });
}

async function runToEnd(page) {
  await page.getByRole("button", { name: "Run to convergence" }).click();
}

test.beforeEach(async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("button", { name: "Step" })).toBeEnabled();
});

test("stepping through the seed example shows the observed state after each pass", async ({ page }) => {
  await expect(verdict(page)).toContainText("the verdict shows when it ends");
  const after = '{"a":{"replicas":1},"b":{"replicas":3}}';
  await page.getByRole("button", { name: "Step" }).click();
  await expect(passes(page)).toHaveCount(1);
  await expect(passes(page).nth(0)).toContainText("why: custom resource added");
  await expect(passes(page).nth(0).locator(".pass-action")).toHaveText([
    "CREATE a → ok", "UPDATE b → ok", "DELETE c → ok",
  ]);
  await expect(passes(page).nth(0).locator(".observed-after")).toHaveText(after);
  // Ctrl+Enter steps too.
  await page.keyboard.press("Control+Enter");
  await expect(passes(page)).toHaveCount(2);
  // Pass 2 reads an informer cache that has not heard of c's delete yet: DELETE c again, 404, done.
  await expect(passes(page).nth(1).locator(".pass-action")).toHaveText(["DELETE c → already gone (404; done)"]);
  await expect(passes(page).nth(1).locator(".observed-after")).toHaveText(after);
  await page.getByRole("button", { name: "Step" }).click();
  await expect(passes(page).nth(2).locator(".observed-after")).toHaveText(after);
  await expect(verdict(page)).toHaveText("✓ Converged after 3 passes (t = 42 ms)");
  await expect(page.getByRole("button", { name: "Step" })).toBeDisabled();
  await expect(page.getByRole("table", { name: "Resource status" }).locator("tbody tr")).toHaveText([
    /a\s*✓ in sync/, /b\s*✓ in sync/,
  ]);
});

// Issue 18 (one cursor): choosing a pass moves the one cursor there (it was a
// "read-only snapshot" beside a live point); the later passes stay listed.
test("choosing a pass moves the cursor there; one click goes back to the latest", async ({ page }) => {
  await runToEnd(page);
  await passes(page).nth(0).getByRole("button").click();
  await expect(page.getByText("Viewing pass 1; the run is revealed up to pass 3.")).toBeVisible();
  await expect(passes(page)).toHaveCount(3);
  await expect(page.getByRole("table", { name: "Resource status" }).locator("caption")).toHaveText("Resource status after pass 1");
  await page.getByRole("button", { name: "Back to the latest" }).click();
  await expect(page.getByText("Viewing pass 1; the run is revealed up to pass 3.")).toHaveCount(0);
  await expect(page.getByRole("table", { name: "Resource status" }).locator("caption")).toHaveText("Resource status after pass 3");
});

test("an injected drift is healed by the next pass", async ({ page }) => {
  await runToEnd(page);
  await openSettings(page);
  await page.getByLabel("Target object").selectOption("b");
  await page.getByLabel("Drift field path").fill("replicas");
  await page.getByLabel("Drift value (JSON)").fill("7");
  await page.getByRole("button", { name: "Drift it" }).click();
  await expect(passes(page).nth(2).locator(".happenings")).toContainText("someone sets b.replicas to 7: field changed");
  await page.getByRole("button", { name: "Step" }).click();
  const healing = passes(page).nth(3);
  await expect(healing).toContainText("why: owned object b updated");
  await expect(healing.locator(".pass-action")).toHaveText(["UPDATE b → ok"]);
  await expect(healing.locator(".observed-after")).toHaveText('{"a":{"replicas":1},"b":{"replicas":3}}');
  await runToEnd(page);
  await expect(verdict(page)).toContainText("Converged after");
});

test("a drift field path is a JSON path: a member name with dots is one member", async ({ page }) => {
  await runToEnd(page);
  await openSettings(page);
  await page.getByLabel("Target object").selectOption("b");
  await page.getByLabel("Drift field path").fill('$.metadata.labels["app.kubernetes.io/name"]');
  await page.getByLabel("Drift value (JSON)").fill('"web"');
  await page.getByRole("button", { name: "Drift it" }).click();
  await expect(passes(page).nth(2).locator(".happenings")).toContainText(
    'someone sets b.metadata.labels["app.kubernetes.io/name"] to "web": field changed');
  // A path that is not one says where it goes wrong, and nothing more is injected.
  await page.getByLabel("Drift field path").fill("metadata..labels");
  await page.getByRole("button", { name: "Drift it" }).click();
  await expect(page.getByRole("alert")).toHaveText("Field: column 10: expected a member name");
  await expect(passes(page).nth(2).locator(".happenings li")).toHaveCount(1);
  // The one drift made b differ: the next pass puts it back.
  await page.getByRole("button", { name: "Step" }).click();
  await expect(passes(page).nth(3).locator(".pass-action")).toHaveText(["UPDATE b → ok"]);
});

test("a drift field path over 127 members is refused with a message, not run", async ({ page }) => {
  await runToEnd(page);
  await openSettings(page);
  await page.getByLabel("Target object").selectOption("b");
  await page.getByLabel("Drift field path").fill(Array.from({ length: 10_000 }, (_, i) => `f${i}`).join("."));
  await page.getByLabel("Drift value (JSON)").fill("7");
  await page.getByRole("button", { name: "Drift it" }).click();
  await expect(page.getByRole("alert")).toHaveText("Field: a field path names at most 127 members, not 10000");
  await expect(verdict(page)).toContainText("Converged after");
  await page.getByLabel("Drift field path").fill("replicas");
  await page.getByRole("button", { name: "Drift it" }).click();
  await expect(page.getByRole("alert")).toHaveCount(0);
});

test("a crash mid-pass: the restart finishes the work without duplicates", async ({ page }) => {
  await choosePreset(page, "Crash mid-pass");
  await page.getByRole("button", { name: "Step" }).click();
  await expect(passes(page).nth(0).locator(".pass-action")).toHaveText([
    "CREATE cache-0 → ok",
    "CREATE cache-1 → lost: the controller crashed",
    "CREATE cache-2 → lost: the controller crashed",
  ]);
  await runToEnd(page);
  await expect(passes(page).nth(1)).toContainText("why: custom resource listed after the controller restarted");
  await expect(passes(page).nth(1).locator(".pass-action")).toHaveText(["CREATE cache-1 → ok", "CREATE cache-2 → ok"]);
  // Every object was created exactly once over the whole run.
  const applied = await page.locator(".pass-action.ok").allTextContents();
  expect(applied.sort()).toEqual(["CREATE cache-0 → ok", "CREATE cache-1 → ok", "CREATE cache-2 → ok"]);
  // Pass 3 read a cache without cache-2 yet: CREATE cache-2 again, 409 AlreadyExists, requeued.
  await expect(passes(page).nth(2).locator(".pass-action")).toHaveText([/^CREATE cache-2 → failed \(409\)/]);
  await expect(verdict(page)).toContainText("Converged after 5 passes");
});

const verdicts = [
  ["Stuck finalizer", "✗ Not converging: team-a is stuck terminating; finalizer kubernetes is never removed"],
  ["Fighting controllers", "✗ Not converging: oscillation: this controller and autoscaler keep overwriting $.replicas of web"],
  ["Flaky API", /^✓ Converged after \d+ passes/],
  ["Crash mid-pass", /^✓ Converged after 5 passes/],
  ["Missed events", "✓ Converged after 3 passes (t = 518 ms)"],
  ["Defaults drift", "✗ Not converging: still planning actions after the pass limit of 12"],
  ["Ten changes, one reconcile", "✓ Converged after 5 passes (t = 124 ms)"],
  ["Deleting the owner", "✓ Converged after 5 passes (t = 339 ms)"],
  ["Deleted while down", "✓ Converged after 3 passes (t = 518 ms)"],
  ["Two reasons, one pass", "✓ Converged after 5 passes (t = 44 ms)"],
  ["A stale cache creates twice", "✓ Converged after 4 passes (t = 37 ms)"],
  ["A stale update gets 409", "✓ Converged after 5 passes (t = 37 ms)"],
  [
    "A timestamp in status",
    "✗ Not converging: hot loop: nothing is out of sync, but every pass writes a new status.lastReconcileTime to the custom resource, and the watch event of that write starts the next pass (3 passes in a row did only that; it never stops)",
  ],
];

for (const [preset, expected] of verdicts) {
  test(`preset "${preset}" runs to its verdict`, async ({ page }) => {
    await choosePreset(page, preset);
    await runToEnd(page);
    await expect(verdict(page)).toHaveText(expected);
  });
}

test("the flaky API requeues with exponential backoff", async ({ page }) => {
  await choosePreset(page, "Flaky API");
  await runToEnd(page);
  await expect(page.locator(".pass-action.failed").first()).toContainText(/failed \(503\); requeued at t = \d+ ms/);
  await expect(page.locator(".pass").filter({ hasText: "why: requeue after failure #1" }).first()).toBeVisible();
  await expect(page.locator(".backoff-curve figcaption")).toContainText("Delays: 5 ms, 10 ms, 20 ms, 40 ms");
});

test("level vs edge: the edge-triggered handler never hears what changed while the controller was down", async ({ page }) => {
  await choosePreset(page, "Missed events");
  await page.locator("details.level-edge > summary").click();
  await expect(page.locator(".divergence")).toHaveText("They first diverge at step 2: the controller restarted and listed what exists.");
  await expect(page.locator(".edge-table tbody tr").nth(1)).toContainText("missed: the controller was down");
  await expect(page.locator(".final-difference")).toContainText("edge-triggered: web-1 is extra");
  await expect(page.locator(".final-difference")).toContainText("Level-triggered: 0 out of sync");
});

test("play advances on its own and pauses", async ({ page }) => {
  await page.getByLabel("Play speed").selectOption("8");
  await page.getByRole("button", { name: "Play" }).click();
  await expect(verdict(page)).toContainText("Converged after 3 passes", { timeout: 5_000 });
  await expect(page.getByRole("button", { name: "Play" })).toBeVisible();
});

test("editing the scenario re-runs the simulation from the new documents", async ({ page }) => {
  await typeInto(page, "Observed state", "{}");
  await runToEnd(page);
  await expect(passes(page).nth(0).locator(".pass-action")).toHaveText(["CREATE a → ok", "CREATE b → ok"]);
});

test("a selected pass lists every step until the next pass, from the event log", async ({ page }) => {
  await runToEnd(page);
  await passes(page).nth(0).locator(".pass-head").click();
  const steps = passes(page).nth(0).locator("details.pass-events");
  await steps.locator("summary").click();
  await expect(steps.locator("li")).toContainText([
    "the worker takes the key: pass 1 (custom resource added) plans 3 action(s) from its cache",
    "CREATE a → 201",
    "watch event a added: the cache takes it",
    "key added (owned object a added): deferred: the key is being processed",
  ]);
  // Pass 2 read a cache without c's delete: its request is a 404.
  await passes(page).nth(1).locator(".pass-head").click();
  const second = passes(page).nth(1).locator("details.pass-events");
  await second.locator("summary").click();
  await expect(second.locator("li")).toContainText(["DELETE c → 404"]);
});

test("a finalizer owner's speed is a setting: a slow owner keeps the object terminating longer", async ({ page }) => {
  await choosePreset(page, "LoadBalancer finalizer");
  await openSettings(page);
  const owner = page.getByLabel("The owner of cloud/lb-cleanup takes, per object:");
  await expect(owner).toHaveValue("default");
  await expect(owner.locator("option:checked")).toHaveText("default (50 ms)");
  await runToEnd(page);
  await expect(page.getByRole("list", { name: "Passes", exact: true })).toContainText("t = 61 ms: the owner of cloud/lb-cleanup removed it from svc, the last finalizer");
  // The run is re-simulated at once, and stays revealed to its end.
  await owner.selectOption("2 s");
  await expect(page.getByRole("list", { name: "Passes", exact: true })).toContainText("t = 2.0 s: the owner of cloud/lb-cleanup removed it from svc, the last finalizer");
  await expect(verdict(page)).toContainText("Converged");
});

test("the status grid shows where the controller's cache still differs from the store", async ({ page }) => {
  await page.getByRole("button", { name: "Step" }).click();
  // Pass 1 deleted c, but its watch event has not reached the cache yet: pass 2 will DELETE c again.
  const rows = page.getByRole("table", { name: "Resource status" }).locator("tbody tr");
  const c = rows.filter({ has: page.getByRole("rowheader", { name: "c", exact: true }) });
  await expect(c).toContainText("in sync");
  await expect(c).toContainText("deleted, but the controller's cache still has it");
  await page.getByRole("button", { name: "Step" }).click();
  await expect(page.getByRole("table", { name: "Resource status" })).not.toContainText("cache");
});

test("step by event walks every step of a pass, and crossing into the next pass selects it", async ({ page }) => {
  const next = page.getByRole("button", { name: "Next event" });
  const previous = page.getByRole("button", { name: "Previous event" });
  await expect(previous).toBeDisabled();
  await next.click();
  const pass1 = passes(page).nth(0);
  await expect(pass1).toHaveAttribute("aria-current", "step");
  const events1 = page.getByRole("list", { name: "Events from pass 1" });
  await expect(pass1.locator("summary")).toContainText("Step by event: event 1 of");
  await expect(events1.locator("li")).toHaveCount(1);
  await expect(events1.locator("li[aria-current=step]")).toContainText("the worker takes the key: pass 1 (custom resource added) plans 3 action(s) from its cache");
  await next.click();
  await expect(events1.locator("li[aria-current=step]")).toContainText("CREATE a → 201");
  // a's watch event reaches the cache (t = 16) before the next request (t = 21).
  await next.click();
  await expect(events1.locator("li[aria-current=step]")).toContainText("t = 16 ms: watch event a added: the cache takes it");
  await previous.click();
  await expect(events1.locator("li[aria-current=step]")).toContainText("CREATE a → 201");
  // On until pass 2 starts: it is revealed and selected, and its first event is the worker taking the key.
  for (let i = 0; i < 40 && (await passes(page).count()) < 2; i++) await next.click();
  await expect(passes(page)).toHaveCount(2);
  await expect(passes(page).nth(1)).toHaveAttribute("aria-current", "step");
  await expect(page.getByRole("list", { name: "Events from pass 2" }).locator("li[aria-current=step]")).toContainText("the worker takes the key: pass 2");
  // Step goes back to stepping by pass.
  await page.getByRole("button", { name: "Step" }).click();
  await expect(passes(page)).toHaveCount(3);
  await expect(page.locator("li[aria-current=step].current-event")).toHaveCount(0);
});

test("the kube-rs work queue comes with its error_policy's fixed delay, and client-go's backoff takes it back", async ({ page }) => {
  await openSettings(page, { advanced: true });
  const queue = page.getByLabel("Work queue");
  const backoff = page.getByLabel("Backoff policy");
  await expect(backoff).toHaveValue("client-go");
  await queue.selectOption("kube-rs");
  await expect(backoff).toHaveValue("fixed-1s");
  await expect(page.locator(".fault-panel")).toContainText("One slot per object, the earlier time wins");
  await expect(page.locator(".fault-panel")).toContainText("Follows kube-runtime 4.2.0 (kube-rs).");
  await runToEnd(page);
  await expect(verdict(page)).toContainText("Converged");
  await backoff.selectOption("client-go");
  await expect(queue).toHaveValue("client-go");
});

// The timeline keeps its newest moment in view as passes are revealed (scrolled
// in the frame after the step's render, not during it, which forced a layout).
test("the timeline scrolls to its newest pass as Run reveals them", async ({ page }) => {
  await page.goto("/?preset=defaults-drift");
  await page.getByRole("button", { name: "Run to convergence" }).click();
  await expect(passes(page)).toHaveCount(12);
  const list = page.getByRole("list", { name: "Passes", exact: true });
  const overflow = await list.evaluate((l) => l.scrollHeight - l.clientHeight);
  expect(overflow, "the list is taller than its box").toBeGreaterThan(0);
  await expect.poll(() => list.evaluate((l) => l.scrollHeight - l.clientHeight - l.scrollTop)).toBeLessThanOrEqual(1);
});

test("a row that moves up in the status grid is moved, not every row rebuilt (the rows stay the same elements)", async ({ page }) => {
  const pods = (image) => JSON.stringify(Object.fromEntries(["p0", "p1", "p2", "p3", "p4"].map((name) => [name, { image }])));
  await typeInto(page, "Desired state", pods("app:2"));
  await typeInto(page, "Observed state", pods("app:1"));
  await expect(page.getByText("5 to update")).toBeVisible();
  const rows = page.getByRole("table", { name: "Resource status" }).locator("tbody tr");
  await expect(rows).toHaveCount(5);
  await rows.evaluateAll((all) => (window.gridRows = all));
  await page.getByRole("button", { name: "Step" }).click();
  // After pass 1 the last object's cached copy is stale: problems come first, so it moves to the top.
  await expect(rows.first()).toContainText(/p4\s*✓ in sync/);
  const kept = await rows.evaluateAll((all) => all.filter((row) => window.gridRows.includes(row)).length);
  expect(kept).toBe(5);
});

// Issue 29, watches: an API server restart while a delete is in flight. The
// objects' reflector asks its new watch for history the new watch cache lacks:
// 410 Gone, a list after its backoff, and a tombstone for the missed delete.
test("restarting the API server with a delete in flight ends in 410, a list and a tombstone", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("button", { name: "Run to convergence" }).click();
  await openSettings(page);
  await page.getByLabel("Target object").selectOption("b");
  await page.getByRole("button", { name: "Delete it" }).click();
  await page.getByRole("button", { name: "Restart the API server" }).click();
  await page.getByRole("button", { name: "Run to convergence" }).click();
  const timeline = page.locator(".pass-list");
  await expect(timeline).toContainText("the API server restarts");
  await expect(timeline).toContainText("410 Gone for the objects' informer: too old resource version");
  await expect(timeline).toContainText("the objects' informer listed again: its cache now matches the API server, and the deletes it missed are synthesized for the handlers: b");
  await expect(verdict(page)).toContainText("Converged after");
});

// Issue 29, step 4: a pod on a node stays Terminating until the kubelet has
// stopped it; an unscheduled one goes at once, and comes back first.
test("a deleted pod on a node terminates until the kubelet stops it", async ({ page }) => {
  await choosePreset(page, "A pod's grace period");
  await runToEnd(page);
  await expect(verdict(page)).toContainText("Converged after 5 passes");
  const timeline = page.locator(".pass-list");
  await expect(timeline).toContainText(
    "the kubelet stopped Pod/default/web-0's containers and deleted it with grace period 0: the API server removed it",
  );
  await expect(passes(page).nth(1)).toContainText("CREATE Pod/default/web-1 → ok");
  await expect(passes(page).nth(3)).toContainText("CREATE Pod/default/web-0 → ok");
});

// Issue 29, step 7: the controller's own finalizer keeps its deleted custom
// resource terminating until the load balancer is gone; failures retry.
test("a custom resource with the controller's finalizer waits for its cleanup", async ({ page }) => {
  await choosePreset(page, "A controller's own finalizer");
  await runToEnd(page);
  await expect(verdict(page)).toContainText("Converged after 7 passes");
  const timeline = page.locator(".pass-list");
  await expect(timeline).toContainText(
    "terminating: its finalizer reconcile.example.com/load-balancer waits for the controller's cleanup",
  );
  const stepsOf = async (index) => {
    await passes(page).nth(index).locator(".pass-head").click();
    const steps = passes(page).nth(index).locator("details.pass-events");
    await steps.locator("summary").click();
    return steps.locator("li");
  };
  await expect(await stepsOf(0)).toContainText([
    "PATCH the custom resource: add its finalizer reconcile.example.com/load-balancer → 200",
    "the cloud: ensure load balancer lb-custom-resource → ok",
  ]);
  await expect(await stepsOf(2)).toContainText([
    "the cloud: delete load balancer lb-custom-resource → 503, nothing changed",
  ]);
  await expect(await stepsOf(4)).toContainText([
    "the cloud: delete load balancer lb-custom-resource → ok",
    "PATCH the custom resource: remove its finalizer reconcile.example.com/load-balancer → 200",
  ]);
});
