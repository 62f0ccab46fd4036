import { test, expect, actionItems, editor, holdRequests, openSettings, typeInto, answer } from "./fixtures.mjs";

const panel = (page) => page.getByRole("complementary", { name: /./ });
const feedback = (page) => page.locator(".feedback");

async function pickActions(page, actions) {
  for (const action of actions) await page.getByRole("button", { name: action, exact: true }).click();
  await page.getByRole("button", { name: "Check", exact: true }).click();
}

async function choose(page, text) {
  await page.getByRole("radio", { name: text }).check();
  await page.getByRole("button", { name: "Check", exact: true }).click();
}

async function predictPasses(page, passes) {
  await page.getByLabel("Your prediction: number of passes").fill(String(passes));
  await page.getByRole("button", { name: "Check", exact: true }).click();
}

/** A first wrong answer gets a hint and keeps the answer hidden. */
async function expectHint(page) {
  await expect(feedback(page)).toContainText("Try once more.");
  await expect(feedback(page)).not.toContainText("The answer:");
}
/** After the hint, the learner asks for the whole answer. */
async function showAnswer(page) {
  await expectHint(page);
  await page.getByRole("button", { name: "Show the answer" }).click();
}
const startOver = (page) => page.getByRole("button", { name: "Start over" }).click();
const next = (page) => page.getByRole("button", { name: "Next →" }).click();
const passes = (page) => page.getByRole("list", { name: "Passes", exact: true }).locator(":scope > li");
const verdict = (page) => page.locator(".verdict");
const runToEnd = (page) => page.getByRole("button", { name: "Run to convergence" }).click();

/** The last step: the lesson is walked to its end. */
async function atTheEnd(page, steps) {
  await expect(panel(page)).toContainText(`Step ${steps} of ${steps}`);
  await expect(page.getByRole("button", { name: "Next →" })).toBeDisabled();
}

test("lesson 1, the four actions: a hint after the first wrong answer, the answer after the second or on request", async ({ page }) => {
  await page.goto("/");
  await page.getByLabel("Lesson", { exact: true }).selectOption({ label: "1. Desired vs observed: the four actions" });
  await expect(panel(page)).toContainText("Step 1 of 4");
  await next(page);
  // Predict, then reveal: the plan stays hidden until the prediction is checked.
  await expect(page.locator(".plan-pane")).toContainText("Hidden until you make your prediction");
  await expect(actionItems(page)).toHaveCount(0);
  await pickActions(page, ["CREATE a", "DELETE c"]);
  // The first wrong answer: a hint, and the answer stays hidden.
  await expect(feedback(page)).toContainText("✗ Not quite: everything you picked is right, but 1 action is missing.");
  await expectHint(page);
  await expect(feedback(page)).not.toContainText("UPDATE b");
  await expect(actionItems(page)).toHaveCount(0);
  await expect(page.locator(".sim-pane")).toContainText("Hidden until you make your prediction");
  // The second wrong answer reveals it.
  await startOver(page);
  await pickActions(page, ["DELETE c", "CREATE a", "UPDATE b"]);
  await expect(feedback(page)).toContainText("✗ Not quite. Reconcile returns CREATE a, UPDATE b, DELETE c.");
  await expect(feedback(page)).toContainText("Right actions, wrong order.");
  await expect(actionItems(page)).toHaveCount(3);

  await next(page);
  await choose(page, "DELETE c");
  await showAnswer(page);
  await expect(feedback(page)).toContainText("DELETE is only for names with no pending finalizers");
  await expect(feedback(page)).toContainText("The answer: FINALIZE c");

  await next(page);
  await expect(page.locator(".sim-pane")).toContainText("Hidden until you make your prediction");
  await predictPasses(page, 1);
  await showAnswer(page);
  await expect(feedback(page)).toContainText("Not quite: it converges after 3 passes, not 1.");
  await expect(feedback(page)).toContainText("1 of them found nothing to do");
  await expect(feedback(page)).toContainText("Pass 2 sent DELETE c again: its informer's cache had not yet received the watch event of the delete");
  await page.getByRole("button", { name: "Run to convergence" }).click();
  await expect(page.locator(".verdict")).toContainText("Converged after 3 passes");
  await atTheEnd(page, 4);
});

test("lesson 2, drift: the answer is field-level", async ({ page }) => {
  await page.goto("/?lesson=drift");
  await expect(panel(page)).toContainText("Step 1 of 3");
  await next(page);
  await choose(page, "Because the members are in a different order.");
  await showAnswer(page);
  await expect(feedback(page)).toContainText("Member order is ignored");
  await next(page);
  await pickActions(page, ["CREATE web"]);
  await showAnswer(page);
  await expect(feedback(page)).toContainText(
    "CREATE web is not in the plan: web gets UPDATE instead (observed spec differs from desired in 1 field).",
  );
  await expect(page.getByRole("list", { name: "Drift of web" })).toContainText("$.replicas: 2");
  await atTheEnd(page, 3);
});

test("lesson 3, finalizers: terminating but not gone", async ({ page }) => {
  await page.goto("/?lesson=finalizers");
  await expect(panel(page)).toContainText("Step 1 of 4");
  await pickActions(page, ["DELETE svc"]);
  await showAnswer(page);
  // How the playground's FINALIZE maps to the real API call.
  await expect(feedback(page)).toContainText("FINALIZE is this playground's word for the delete request sent to an object whose finalizers are still pending");
  await expect(feedback(page)).toContainText(
    "DELETE svc is not in the plan: svc gets FINALIZE instead (no longer desired, but finalizers are pending: cloud/lb-cleanup).",
  );
  await next(page);
  await choose(page, "The API server, after a timeout.");
  await showAnswer(page);
  await expect(feedback(page)).toContainText("Kubernetes never removes a finalizer by itself");
  await next(page);
  // FINALIZE, FINALIZE again (writes nothing), then the pass the delete
  // event brings: the owner's removal of the last finalizer deletes svc.
  await predictPasses(page, 4);
  await showAnswer(page);
  await expect(feedback(page)).toContainText("it converges after 3 passes, not 4");
  await openSettings(page);
  await page.getByRole("checkbox", { name: "cloud/lb-cleanup on svc is stuck" }).check();
  await runToEnd(page);
  await expect(page.locator(".verdict")).toContainText("svc is stuck terminating; finalizer cloud/lb-cleanup is never removed");

  // Why deletion cannot always happen at once.
  await next(page);
  await choose(page, "Remove the finalizer by hand.");
  await showAnswer(page);
  await expect(feedback(page)).toContainText("the cloud load balancer is left behind with nobody to release it");
  await atTheEnd(page, 4);
});

test("a lesson step opens by URL, embedded", async ({ page }) => {
  await page.goto("/?embed&lesson=finalizers&step=2");
  await expect(panel(page)).toContainText("Step 2 of 4");
  await expect(panel(page)).toContainText("Who removes cloud/lb-cleanup from the list?");
  await expect(page.getByRole("textbox", { name: "Finalizers", exact: true })).toHaveValue(/cloud\/lb-cleanup/);
  await expect(page.getByRole("heading", { name: "Finalizers: terminating but not gone" })).toBeVisible();
});

test("?lesson= wins over an autosaved lesson; the same lesson without a step resumes where it was", async ({ page }) => {
  await page.goto("/?lesson=finalizers&step=2");
  await expect(panel(page)).toContainText("Step 2 of 4");
  // Let the autosave store this lesson, then ask for another by address.
  const autosaved = (step) =>
    page.waitForFunction(
      (step) => Object.values(localStorage).some((text) => text.includes(`"lesson":"finalizers","step":${step}`)),
      step,
    );
  await autosaved(1);
  await page.goto("/?lesson=drift");
  await expect(page.getByRole("heading", { name: /drift/i }).first()).toBeVisible();
  await expect(panel(page)).toContainText("Step 1 of");
  await page.goto("/?lesson=finalizers&step=3");
  await expect(panel(page)).toContainText("Step 3 of 4");
  await autosaved(2);
  await page.goto("/?lesson=finalizers");
  await expect(panel(page)).toContainText("Step 3 of 4");
});

test("lesson 4, idempotency: a crash and a restart do no extra work", async ({ page }) => {
  await page.goto("/");
  await page.getByLabel("Lesson", { exact: true }).selectOption({ label: "4. Idempotency: crash and restart" });
  await expect(panel(page)).toContainText("Step 1 of 5");
  await pickActions(page, ["CREATE cache-0"]);
  await showAnswer(page);
  await expect(feedback(page)).toContainText("✗ Not quite. Reconcile returns CREATE cache-1.");
  await expect(feedback(page)).toContainText("CREATE cache-0 is not in the plan: cache-0 needs no action");

  // Follow-up: what makes reconcile idempotent? Predict the pass after the restart.
  await next(page);
  await expect(page.locator(".sim-pane")).toContainText("Hidden until you make your prediction");
  await pickActions(page, ["CREATE cache-1"]);
  await showAnswer(page);
  await expect(feedback(page)).toContainText(
    "✗ Not quite. Pass 2 (why: custom resource listed after the controller restarted) returned nothing.",
  );
  await expect(feedback(page)).toContainText("CREATE cache-1 is not in pass 2: cache-1 needed no action when the pass started");
  await runToEnd(page);
  await expect(passes(page).nth(0).locator(".pass-action")).toHaveText(["CREATE cache-1 → ok"]);
  await expect(passes(page).nth(1)).toContainText("reconcile returned nothing: in sync");

  // Wrong answer: create without checking. The edge-triggered handler gets AlreadyExists.
  await next(page);
  await choose(page, "A second pod named cache-0 is created.");
  await showAnswer(page);
  await expect(feedback(page)).toContainText("Two objects of one kind cannot share a name in a namespace.");
  await expect(feedback(page)).toContainText("The answer: The API server rejects it: cache-0 already exists.");
  await page.locator("details.level-edge > summary").click();
  await expect(page.getByRole("table", { name: "Level versus edge" })).toContainText("CREATE cache-0: rejected: AlreadyExists");

  await next(page);
  await pickActions(page, ["CREATE cache-1"]);
  await showAnswer(page);
  await expect(feedback(page)).toContainText("✗ Not quite. Pass 3 (why: owned object cache-0 deleted) returned CREATE cache-0.");
  await expect(feedback(page)).toContainText("Missing CREATE cache-0: when the pass started, it was desired but not observed.");

  await next(page);
  await predictPasses(page, 2);
  await showAnswer(page);
  await expect(feedback(page)).toContainText("Not quite: it converges after 4 passes, not 2.");
  await expect(feedback(page)).toContainText(
    "Pass 2 (custom resource listed after the controller restarted) found nothing to do: the world was already in sync.",
  );
  await atTheEnd(page, 5);
});

test("lesson 5, level vs edge: a change missed while the controller was down", async ({ page }) => {
  await page.goto("/?lesson=level-vs-edge");
  await expect(panel(page)).toContainText("Step 1 of 4");
  await next(page);
  // Wrong answer: the restart's list does not say what was removed.
  await choose(page, "It deletes web-1 when it restarts.");
  await showAnswer(page);
  await expect(feedback(page)).toContainText("The restart's list carries only the Cache's current spec");
  await expect(feedback(page)).toContainText("The answer: Nothing, ever: web-1 stays, an extra pod.");
  await page.locator("details.level-edge > summary").click();
  await expect(page.locator(".divergence")).toHaveText("They first diverge at step 2: the controller restarted and listed what exists.");
  await expect(page.locator(".final-difference")).toContainText("In the end, edge-triggered: web-1 is extra.");

  // Follow-up: why level-triggered? The first pass after the restart deletes web-1.
  await next(page);
  await pickActions(page, ["CREATE web-1"]);
  await showAnswer(page);
  await expect(feedback(page)).toContainText(
    "✗ Not quite. Pass 2 (why: custom resource listed after the controller restarted) returned DELETE web-1.",
  );
  await runToEnd(page);
  await expect(verdict(page)).toContainText("Converged after 3 passes (t = 518 ms)");

  await next(page);
  await predictPasses(page, 2);
  await showAnswer(page);
  await expect(feedback(page)).toContainText("Not quite: it converges after 3 passes, not 2.");
  await expect(feedback(page)).toContainText("Pass 1 (custom resource added) found nothing to do");
  await atTheEnd(page, 4);
});

test("lesson 6, triggers: no owned watch and no resync leave a pod missing", async ({ page }) => {
  await page.goto("/?lesson=triggers");
  await expect(panel(page)).toContainText("Step 1 of 5");
  await pickActions(page, ["CREATE cache-0"]);
  await expectHint(page);
  await startOver(page);
  await pickActions(page, ["CREATE cache-2"]);
  await expect(feedback(page)).toContainText("✓ Correct: pass 2 (why: custom resource spec changed) returned CREATE cache-2.");

  // Wrong answer: no owned-object watch, no resync.
  await next(page);
  await choose(page, "The next pass recreates it.");
  await expectHint(page);
  await choose(page, answer("triggers", 2));
  await expect(feedback(page)).toContainText("✓ Correct.");
  await runToEnd(page);
  await expect(verdict(page)).toContainText("1 out of sync, but no event or resync will trigger another pass");

  // The safety net: a periodic resync.
  await next(page);
  await choose(page, "Within milliseconds, like with a watch.");
  await expectHint(page);
  await choose(page, answer("triggers", 3));
  await expect(feedback(page)).toContainText("✓ Correct.");
  await openSettings(page);
  await page.getByLabel("Resync period").selectOption("10 s");
  await runToEnd(page);
  // 10 s times the informer's jitter factor, drawn in [0.9, 1.1).
  await expect(verdict(page)).toContainText("Converged after 3 passes (t = 9.3 s)");
  await expect(passes(page).nth(2)).toContainText("why: periodic resync");

  // Follow-up: how do ownerReferences propagate events?
  await next(page);
  await choose(page, "The API server notifies the owner object.");
  await expectHint(page);
  await choose(page, answer("triggers", 4));
  await expect(feedback(page)).toContainText("✓ Correct.");
  await page.getByLabel("Preset", { exact: true }).selectOption({ label: "Cache with 2 replicas" });
  await expect(panel(page)).toContainText("Step 4 of 5");
  await runToEnd(page);
  await expect(passes(page).nth(2)).toContainText("why: owned object cache-0 deleted");
  await expect(passes(page).nth(2).locator(".pass-action")).toHaveText(["CREATE cache-0 → ok"]);

  await next(page);
  await choose(page, "An error, so that it is retried.");
  await expectHint(page);
  await choose(page, answer("triggers", 5));
  await expect(feedback(page)).toContainText("✓ Correct.");
  await expect(feedback(page)).toContainText("Ok(Action::requeue(Duration::from_secs(30)))");
  await atTheEnd(page, 5);
});

test("lesson 7, backoff: 5 ms doubling, capped, and a fixed kube-rs delay", async ({ page }) => {
  await page.goto("/?lesson=backoff");
  await expect(panel(page)).toContainText("Step 1 of 4");
  await choose(page, "20 ms");
  await expectHint(page);
  await choose(page, answer("backoff", 1));
  await expect(feedback(page)).toContainText("✓ Correct.");
  await runToEnd(page);
  await expect(passes(page).nth(3).locator(".pass-action")).toHaveText(["CREATE pod-a → failed (503); requeued at t = 116 ms"]);
  await expect(passes(page).nth(4)).toContainText("why: requeue after failure #4");

  await next(page);
  await predictPasses(page, 5);
  await expectHint(page);
  await predictPasses(page, 6);
  await expect(feedback(page)).toContainText("✓ Correct: it converges after 6 passes.");

  await next(page);
  await choose(page, "Never: it doubles forever.");
  await expectHint(page);
  await choose(page, answer("backoff", 3));
  await expect(feedback(page)).toContainText("✓ Correct.");

  await next(page);
  await choose(page, "A limit of 10 retries per second for each key.");
  await expectHint(page);
  await choose(page, answer("backoff", 4));
  await expect(feedback(page)).toContainText("✓ Correct.");
  // The timeline is recomputed at once, with the cursor where it was (at the end).
  await openSettings(page, { advanced: true });
  await page.getByLabel("Backoff policy").selectOption({ label: "kube-rs: fixed 1 s" });
  await expect(passes(page).nth(0).locator(".pass-action")).toHaveText(["CREATE pod-a → failed (503); requeued at t = 1.0 s"]);
  await atTheEnd(page, 4);
});

test("lesson 8, fighting controllers: never converges; apply names the conflict; one owner ends it", async ({ page }) => {
  await page.goto("/?lesson=fighting-controllers");
  await expect(panel(page)).toContainText("Step 1 of 5");
  await pickActions(page, ["UPDATE web"]);
  await expectHint(page);
  await startOver(page);
  await pickActions(page, []);
  await expect(feedback(page)).toContainText("✓ Correct: reconcile returns nothing, because the observed state already matches");

  await next(page);
  await pickActions(page, ["CREATE web"]);
  await expectHint(page);
  await startOver(page);
  await pickActions(page, ["UPDATE web"]);
  await expect(feedback(page)).toContainText("✓ Correct: pass 2 (why: owned object web updated) returned UPDATE web.");

  await next(page);
  await choose(page, "It converges after pass 2's UPDATE.");
  await expectHint(page);
  await choose(page, answer("fighting-controllers", 3));
  await expect(feedback(page)).toContainText("✓ Correct.");
  await runToEnd(page);
  await expect(verdict(page)).toContainText("oscillation: this controller and autoscaler keep overwriting $.replicas of web");

  await next(page);
  await choose(page, "200 OK: replicas goes back to 3.");
  await expectHint(page);
  await choose(page, answer("fighting-controllers", 4));
  await expect(feedback(page)).toContainText("✓ Correct.");
  // The controller applies; the autoscaler owns replicas: 409, the field named.
  await openSettings(page);
  const writes = page.getByLabel("How the controller writes objects");
  await writes.selectOption("apply");
  await runToEnd(page);
  await expect(passes(page).nth(1)).toContainText("409");
  await expect(passes(page).nth(1)).toContainText('conflict with "autoscaler": .spec.replicas');

  await next(page);
  await choose(page, "Make this controller faster, so that it wins.");
  await expectHint(page);
  await choose(page, answer("fighting-controllers", 5));
  await expect(feedback(page)).toContainText("✓ Correct.");
  // Both force: the fight is back. The cursor stays at the end of the new
  // run, so Run is there only if the run has not been revealed yet.
  await writes.selectOption("force-apply");
  const run = page.getByRole("button", { name: "Run to convergence" });
  if (await run.isEnabled()) await run.click();
  await expect(verdict(page)).toContainText("oscillation: this controller and autoscaler keep overwriting $.replicas of web");
  // The controller gives replicas up: it converges, and the autoscaler's 5 stays.
  await writes.selectOption("apply");
  await editor(page, "Desired state").fill('{"web": {"image": "web:1.4"}}');
  await expect(verdict(page)).toContainText("Converged after 2 passes");
  await atTheEnd(page, 5);
});

test("lesson 9, status: derived from what is observed, not from the plan", async ({ page }) => {
  await page.goto("/?lesson=status");
  await expect(panel(page)).toContainText("Step 1 of 4");
  await pickActions(page, ["CREATE pod-a"]);
  await expectHint(page);
  await startOver(page);
  await pickActions(page, ["CREATE pod-a", "CREATE pod-b", "CREATE pod-c"]);
  await expect(feedback(page)).toContainText("✓ Correct: 3 to create, 0 to update, 0 to finalize, 0 to delete.");

  await next(page);
  await choose(page, "3 of 3 pods: pass 1 created them.");
  await expectHint(page);
  await choose(page, answer("status", 2));
  await expect(feedback(page)).toContainText("✓ Correct.");
  await page.getByRole("button", { name: "Step" }).click();
  await expect(page.getByRole("table", { name: "Resource status" }).locator("tbody tr")).toHaveText([
    /pod-b.*missing/, /pod-c.*missing/, /pod-a\s*✓ in sync/,
  ]);

  await next(page);
  await pickActions(page, ["CREATE pod-a", "CREATE pod-b", "CREATE pod-c"]);
  await expectHint(page);
  await startOver(page);
  await pickActions(page, ["CREATE pod-b", "CREATE pod-c"]);
  await expect(feedback(page)).toContainText("✓ Correct: pass 2 (why: owned object pod-a added) returned CREATE pod-b, CREATE pod-c.");
  await expect(feedback(page)).toContainText(
    "CREATE pod-b failed (503: the server is currently unable to handle the request), so the pass returned the error and the key was requeued for t = 41 ms.",
  );

  await next(page);
  await predictPasses(page, 3);
  await expectHint(page);
  await predictPasses(page, 6);
  await expect(feedback(page)).toContainText("✓ Correct: it converges after 6 passes.");
  await atTheEnd(page, 4);
});

test("lesson 11, defaults: a whole-spec comparison updates for nothing, for ever; comparing the fields it sets converges", async ({ page }) => {
  const name = "Deployment/default/nginx-deployment";
  await page.goto("/?lesson=defaults-drift");
  await expect(panel(page)).toContainText("Step 1 of 5");
  await pickActions(page, [`UPDATE ${name}`]);
  await expectHint(page);
  await startOver(page);
  await pickActions(page, [`CREATE ${name}`]);
  await expect(feedback(page)).toContainText("✓ Correct");

  await next(page);
  await pickActions(page, []);
  await expectHint(page);
  await startOver(page);
  await pickActions(page, [`UPDATE ${name}`]);
  await expect(feedback(page)).toContainText(`✓ Correct: pass 2 (why: owned object ${name} added) returned UPDATE ${name}.`);
  // After pass 1, the plan is pass 2's: each defaulted field is explained, with its upstream source.
  await page.getByRole("button", { name: "Step", exact: true }).click();
  await expect(actionItems(page).first().locator(".defaults-note")).toContainText("All of them are defaults the API server fills in on every write.");
  const drift = page.getByRole("list", { name: `Drift of ${name}` });
  await expect(drift.locator(".drift-row", { hasText: "$.spec.strategy" })).toContainText("server default (apps/v1 SetDefaults_Deployment)");
  await expect(drift.locator(".drift-row", { hasText: "$.spec.template.spec.dnsPolicy" })).toContainText("core/v1 SetDefaults_PodSpec");
  await expect(drift.locator(".drift-row", { hasText: "imagePullPolicy" })).toContainText("core/v1 SetDefaults_Container");

  await next(page);
  await choose(page, "It answers 409 Conflict.");
  await expectHint(page);
  await choose(page, answer("defaults-drift", 3));
  await expect(feedback(page)).toContainText("✓ Correct.");

  await next(page);
  await choose(page, "It converges after pass 2.");
  await expectHint(page);
  await choose(page, answer("defaults-drift", 4));
  await expect(feedback(page)).toContainText("✓ Correct.");
  await runToEnd(page);
  await expect(verdict(page)).toContainText("still planning actions after the pass limit of 12");
  // Every pass after the create is an UPDATE the server turned into nothing.
  await expect(passes(page)).toHaveCount(12);
  await expect(passes(page).nth(1)).toContainText("unchanged: with the server's defaults it is what is stored (no write)");
  await expect(passes(page).nth(11)).toContainText("unchanged");

  await next(page);
  await choose(page, "Copy the defaults into the desired manifest.");
  await expectHint(page);
  await choose(page, answer("defaults-drift", 5));
  await expect(feedback(page)).toContainText("✓ Correct.");
  // The fix, in the controller's settings: the run is simulated again and converges.
  await openSettings(page, { advanced: true });
  await page.getByLabel("What the controller compares").selectOption("fields-it-sets");
  await expect(verdict(page)).toContainText("Converged after 2 passes");
  await atTheEnd(page, 5);
});

test("lesson 12, keys not events: ten events, one pass; its own writes, one more, which reads a stale cache and gets 409", async ({ page }) => {
  await page.goto("/?lesson=keys-not-events");
  await expect(panel(page)).toContainText("Step 1 of 4");
  await choose(page, "Ten, one per event, in the order they arrived.");
  await expectHint(page);
  await choose(page, answer("keys-not-events", 1));
  await expect(feedback(page)).toContainText("✓ Correct.");

  await next(page);
  await choose(page, "It sends one UPDATE, for web-0");
  await expectHint(page);
  await choose(page, answer("keys-not-events", 2));
  await expect(feedback(page)).toContainText("✓ Correct.");
  // Pass 1, the ten changes (a moment each), then pass 2.
  for (let step = 0; step < 12; step++) await page.getByRole("button", { name: "Step", exact: true }).click();
  await expect(passes(page).nth(1)).toContainText("why: owned object web-0 updated");
  await expect(passes(page).nth(1).locator(".pass-action")).toHaveCount(10);

  await next(page);
  await choose(page, "Nothing: a controller does not hear its own writes.");
  await expectHint(page);
  await choose(page, answer("keys-not-events", 3));
  await expect(feedback(page)).toContainText("✓ Correct.");

  await next(page);
  await choose(page, "Nothing: it reads the API server");
  await expectHint(page);
  await choose(page, answer("keys-not-events", 4));
  await expect(feedback(page)).toContainText("✓ Correct.");
  await runToEnd(page);
  await expect(verdict(page)).toContainText("Converged after 5 passes");
  await expect(passes(page).nth(2)).toContainText("UPDATE web-9");
  await expect(passes(page).nth(2)).toContainText("failed (409)");
  await atTheEnd(page, 4);
});

test("lesson 13, deleting an owner: foreground waits for every dependent, web-2's own finalizer included", async ({ page }) => {
  await page.goto("/?lesson=owner-deletion");
  await expect(panel(page)).toContainText("Step 1 of 4");
  await choose(page, "This controller deletes the pods");
  await expectHint(page);
  await choose(page, answer("owner-deletion", 1));
  await expect(feedback(page)).toContainText("✓ Correct.");

  await next(page);
  await choose(page, "Right after web-0 and web-1 are gone");
  await expectHint(page);
  await choose(page, answer("owner-deletion", 2));
  await expect(feedback(page)).toContainText("✓ Correct.");
  await runToEnd(page);
  await expect(verdict(page)).toContainText("Converged after 5 passes");
  await expect(passes(page).nth(1)).toContainText("why: custom resource is being deleted");
  await expect(passes(page).nth(4)).toContainText("why: custom resource deleted");
  // With its owner gone, nothing is reconciled: no plan against the desired state of a deleted owner.
  await expect(page.locator(".plan-pane")).toContainText("the custom resource is being deleted or is gone: its reconciler returns at once");
  await expect(actionItems(page)).toHaveCount(0);

  await next(page);
  await choose(page, "The pods are kept.");
  await expectHint(page);
  await choose(page, answer("owner-deletion", 3));
  await expect(feedback(page)).toContainText("✓ Correct.");

  await next(page);
  await choose(page, "They are deleted with the owner.");
  await expectHint(page);
  await choose(page, answer("owner-deletion", 4));
  await expect(feedback(page)).toContainText("✓ Correct.");
  await atTheEnd(page, 4);
});

test("lesson 14, a stale cache: AlreadyExists is harmless, generateName makes a duplicate, expectations skip the stale pass", async ({ page }) => {
  await page.goto("/?lesson=stale-cache");
  await expect(panel(page)).toContainText("Step 1 of 6");
  await choose(page, "Nothing: the API server already has web-1.");
  await expectHint(page);
  await choose(page, answer("stale-cache", 1));
  await expect(feedback(page)).toContainText("✓ Correct.");
  await runToEnd(page);
  await expect(verdict(page)).toContainText("Converged after 4 passes");
  await expect(passes(page).nth(1)).toContainText("CREATE web-1");
  await expect(passes(page).nth(1)).toContainText("failed (409)");

  await next(page);
  await choose(page, "A second web-1 that a later pass must delete.");
  await expectHint(page);
  await choose(page, answer("stale-cache", 2));
  await expect(feedback(page)).toContainText("✓ Correct.");

  // The common wrong answer: generateName avoids the conflict, so it is safer.
  await next(page);
  await choose(page, "generateName avoids the conflict, so it is safer");
  await expectHint(page);
  await choose(page, answer("stale-cache", 3));
  await expect(feedback(page)).toContainText("✓ Correct.");
  await openSettings(page, { advanced: true });
  const naming = page.getByLabel("How the controller names what it creates");
  await naming.selectOption("generate-name");
  await runToEnd(page);
  await expect(verdict(page)).toContainText("Converged after 5 passes");
  await expect(passes(page).nth(1)).toContainText(/CREATE web-1 as web-1-[b-z2-9]{5} → ok/);
  await expect(passes(page).nth(3)).toContainText(/DELETE web-1-[b-z2-9]{5} → ok/);

  await next(page);
  await choose(page, "It reads web-1 from the API server before creating.");
  await expectHint(page);
  await choose(page, answer("stale-cache", 4));
  await expect(feedback(page)).toContainText("✓ Correct.");
  await naming.selectOption("generate-name-with-expectations");
  // The cursor stays where it was, past this shorter run's end, unless it is earlier.
  const run = page.getByRole("button", { name: "Run to convergence" });
  if (await run.isEnabled()) await run.click();
  await expect(verdict(page)).toContainText("Converged after 3 passes");
  await expect(passes(page).nth(1)).toContainText("skipped: expecting 1 creation not yet seen in the cache");
  await expect(passes(page)).toHaveCount(3);
  // At pass 1 the plan shown is pass 2's, which skips its reconcile: the note says so.
  await passes(page).nth(0).locator(".pass-head").click();
  await expect(page.locator("#plan-heading")).toHaveText("Plan for pass 2");
  await expect(page.locator(".plan-moment-note")).toContainText(
    "does not reconcile (skipped: expecting 1 creation not yet seen in the cache), so it sends nothing. Had it run,",
  );
  await page.getByRole("button", { name: "Back to the latest" }).click();
  // The status grid goes by desired name: web-1-xxxxx stands for web-1.
  await expect(page.getByRole("row", { name: /^web-1 .*in sync/ })).toBeVisible();

  await next(page);
  await choose(page, "The controller waits forever.");
  await expectHint(page);
  await choose(page, answer("stale-cache", 5));
  await expect(feedback(page)).toContainText("✓ Correct.");

  // KEP-5647: the consistency store defers pass 2, against step 3's duplicate.
  await next(page);
  await choose(page, "It creates the duplicate, as in step 3, and pass 4 deletes it.");
  await expectHint(page);
  await choose(page, answer("stale-cache", 6));
  await expect(feedback(page)).toContainText("✓ Correct.");
  await naming.selectOption("generate-name");
  await page.getByRole("checkbox", { name: /Wait until the cache has the controller's own writes/ }).check();
  if (await run.isEnabled()) await run.click();
  await expect(verdict(page)).toContainText("Converged after 4 passes");
  await expect(passes(page).nth(1)).toContainText(
    "skipped: the cache has synced resourceVersion 3, older than its own write at 4",
  );
  await expect(passes(page)).toHaveCount(4);
  await atTheEnd(page, 6);
});

test("lesson 15, status writes: the controller hears its own status write; a timestamp makes a hot loop; the two fixes converge", async ({ page }) => {
  await page.goto("/?lesson=status-loop");
  await expect(panel(page)).toContainText("Step 1 of 5");
  await choose(page, "No: status writes do not trigger my controller.");
  await expectHint(page);
  await choose(page, answer("status-loop", 1));
  await expect(feedback(page)).toContainText("✓ Correct.");
  for (let step = 0; step < 3; step++) await page.getByRole("button", { name: "Step", exact: true }).click();
  await expect(passes(page).nth(0).locator(".status-write")).toContainText("then PUT /status: observedGeneration 1, Ready=False (Progressing), lastReconcileTime");
  await expect(passes(page).nth(0).locator(".status-write")).toContainText("written: a new resourceVersion, same generation");
  await expect(passes(page).nth(2)).toContainText("why: custom resource status written (generation unchanged)");

  await next(page);
  await choose(page, "It converges after pass 2");
  await expectHint(page);
  await choose(page, answer("status-loop", 2));
  await expect(feedback(page)).toContainText("✓ Correct.");
  await runToEnd(page);
  await expect(verdict(page)).toContainText("✗ Not converging: hot loop: nothing is out of sync");
  await expect(passes(page).nth(1).locator(".status-write")).toContainText("failed (409)");

  await next(page);
  await choose(page, "11: every write bumps the generation.");
  await expectHint(page);
  await choose(page, answer("status-loop", 3));
  await expect(feedback(page)).toContainText("✓ Correct.");

  await next(page);
  await choose(page, "Set the Ready condition's lastTransitionTime to now on every pass instead.");
  await expectHint(page);
  await choose(page, answer("status-loop", 4));
  await expect(feedback(page)).toContainText("✓ Correct.");
  await openSettings(page, { advanced: true });
  // The run is simulated again, revealed as far as before: to its end.
  await page.getByLabel("What the controller writes to its status").selectOption("observed-generation");
  await expect(verdict(page)).toContainText("✓ Converged after 6 passes");
  await expect(passes(page).nth(4).locator(".status-write")).toContainText("unchanged: the status stored already (no write, no event)");

  await next(page);
  await choose(page, "Nothing: it only filters out its own writes.");
  await expectHint(page);
  await choose(page, answer("status-loop", 5));
  await expect(feedback(page)).toContainText("✓ Correct.");
  await page.getByLabel("What the controller writes to its status").selectOption("with-timestamp");
  await page.getByLabel("GenerationChangedPredicate on the custom resource's watch").check();
  await expect(verdict(page)).toContainText("✓ Converged after 3 passes");
  await expect(passes(page).filter({ hasText: "why: custom resource status written" })).toHaveCount(0);
  await atTheEnd(page, 5);
});

test("lesson deleted-while-down: the restart's list brings no delete, and the loop's first pass recreates web-1", async ({ page }) => {
  await page.goto("/?lesson=deleted-while-down");
  await expect(panel(page)).toContainText("Step 1 of 5");
  await next(page);
  await choose(page, "A delete event, synthesized when the informer lists again.");
  await expectHint(page);
  await choose(page, answer("deleted-while-down", 2));
  await expect(feedback(page)).toContainText("✓ Correct.");

  await next(page);
  await choose(page, "Pod deleted");
  await expectHint(page);
  await choose(page, answer("deleted-while-down", 3));
  await expect(feedback(page)).toContainText("✓ Correct.");

  await next(page);
  await pickActions(page, ["DELETE web-1"]);
  await expectHint(page);
  await startOver(page);
  await pickActions(page, ["CREATE web-1"]);
  await expect(feedback(page)).toContainText("✓ Correct");
  await runToEnd(page);
  await expect(passes(page).nth(1)).toContainText("why: custom resource listed after the controller restarted");
  await expect(passes(page).nth(1)).toContainText("CREATE web-1");

  await next(page);
  await predictPasses(page, 2);
  await expectHint(page);
  await predictPasses(page, 3);
  await expect(feedback(page)).toContainText("✓ Correct: it converges after 3 passes.");
  await atTheEnd(page, 5);
});

test("lesson hidden-reason: two changes, one pass that shows only the first reason and repairs both", async ({ page }) => {
  await page.goto("/?lesson=hidden-reason");
  await expect(panel(page)).toContainText("Step 1 of 4");
  await choose(page, "Two, one per event.");
  await expectHint(page);
  await choose(page, answer("hidden-reason", 1));
  await expect(feedback(page)).toContainText("✓ Correct.");

  await next(page);
  await choose(page, "Nothing: the spec change means every pod is rewritten anyway.");
  await expectHint(page);
  await choose(page, answer("hidden-reason", 2));
  await expect(feedback(page)).toContainText("✓ Correct.");

  await next(page);
  await pickActions(page, ["UPDATE web-0"]);
  await expectHint(page);
  await startOver(page);
  await pickActions(page, ["UPDATE web-0", "CREATE web-1"]);
  await expect(feedback(page)).toContainText("✓ Correct");
  await runToEnd(page);
  await expect(passes(page).nth(1)).toContainText("why: custom resource spec changed");
  await expect(passes(page).nth(1).locator(".pass-action")).toHaveCount(2);

  await next(page);
  await predictPasses(page, 5);
  await expect(feedback(page)).toContainText("✓ Correct: it converges after 5 passes.");
  await atTheEnd(page, 4);
});

test("lesson optimistic-concurrency: a stale UPDATE gets 409; resending it fails, and the pass that reads again keeps the other write", async ({ page }) => {
  await page.goto("/?lesson=optimistic-concurrency");
  await expect(panel(page)).toContainText("Step 1 of 5");
  await choose(page, "200 OK, and web-0 has image web:2 with 3 replicas again.");
  await expectHint(page);
  await expect(feedback(page)).toContainText("the last write wins");
  await choose(page, answer("optimistic-concurrency", 1));
  await expect(feedback(page)).toContainText("✓ Correct.");
  // The autoscaler's write (a moment of its own), then pass 1.
  for (let step = 0; step < 2; step++) await page.getByRole("button", { name: "Step", exact: true }).click();
  await expect(passes(page).nth(0)).toContainText("UPDATE web-0");
  await expect(passes(page).nth(0)).toContainText("failed (409)");

  await next(page);
  await choose(page, "Send the same UPDATE again at once, until it goes through.");
  await expectHint(page);
  await expect(feedback(page)).toContainText("refused the same way every time");
  await choose(page, answer("optimistic-concurrency", 2));
  await expect(feedback(page)).toContainText("✓ Correct.");

  await next(page);
  await choose(page, "Image web:2 and 3 replicas");
  await expectHint(page);
  await choose(page, answer("optimistic-concurrency", 3));
  await expect(feedback(page)).toContainText("✓ Correct.");
  await page.getByRole("button", { name: "Step", exact: true }).click();
  await expect(passes(page).nth(1)).toContainText("why: owned object web-0 updated");
  await expect(passes(page).nth(1)).not.toContainText("failed");
  const world = page.getByRole("table", { name: "World now" });
  await expect(world.locator("tbody tr").filter({ has: page.getByRole("rowheader", { name: "web-0", exact: true }) })).toContainText('{"image":"web:2","replicas":5}');

  await next(page);
  await choose(page, "Nothing: pass 2 already updated web-0.");
  await expectHint(page);
  await choose(page, answer("optimistic-concurrency", 4));
  await expect(feedback(page)).toContainText("✓ Correct.");
  await runToEnd(page);
  await expect(verdict(page)).toContainText("Converged after 5 passes");
  await expect(passes(page).nth(2)).toContainText("why: requeue");
  await expect(passes(page).nth(2)).toContainText("failed (409)");

  await next(page);
  await predictPasses(page, 2);
  await expectHint(page);
  await predictPasses(page, 5);
  await expect(feedback(page)).toContainText("✓ Correct: it converges after 5 passes.");
  await atTheEnd(page, 5);
});

test("the lesson menu lists every lesson in order", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByLabel("Lesson", { exact: true }).locator("option")).toHaveText([
    "None (free play)",
    "1. Desired vs observed: the four actions",
    "2. Drift and UPDATE",
    "3. Finalizers: terminating but not gone",
    "4. Idempotency: crash and restart",
    "5. Level vs edge: missed events",
    "6. Triggers: what makes reconcile run",
    "7. Requeue with exponential backoff",
    "8. Fighting controllers never converge",
    "9. Reporting status after acting",
    "10. Equal as JSON, not as your language says",
    "11. Defaults the API server fills in",
    "12. The queue holds keys, not events",
    "13. Deleting an owner: background, foreground, orphan",
    "14. A stale cache: AlreadyExists, generateName and expectations",
    "15. Status writes, generation and observedGeneration",
    "16. Restart: a delete that happened while the controller was down",
    "17. Why reconcile is not told why it runs",
    "18. Optimistic concurrency: 409 Conflict and re-reading",
  ]);
});

test("lesson 10: true is not 1, code points are not UTF-16, and === is identity", async ({ page }) => {
  await page.goto("/?lesson=json-equality");
  await expect(panel(page)).toContainText("Step 1 of 3");
  await choose(page, "No: true == 1.");
  await expectHint(page);
  await choose(page, answer("json-equality", 1));
  await expect(feedback(page)).toContainText("✓ Correct.");
  await next(page);
  // JavaScript's default sort() would put the rocket first.
  await pickActions(page, ["UPDATE flags", "CREATE 🚀", "CREATE Ｚ"]);
  await expectHint(page);
  await startOver(page);
  await pickActions(page, ["UPDATE flags", "CREATE Ｚ", "CREATE 🚀"]);
  await expect(feedback(page)).toContainText("✓ Correct");
  await next(page);
  await choose(page, answer("json-equality", 3));
  await expect(feedback(page)).toContainText("✓ Correct.");
  await atTheEnd(page, 3);
});

test("lesson progress is saved locally and a lesson resumes where it was left", async ({ page }) => {
  await page.goto("/?lesson=four-actions&step=3");
  await expect(panel(page)).toContainText("Step 3 of 4");
  // A step counts as reached once its text is shown, not while its file loads.
  await expect(panel(page).locator(".lesson-text")).toBeVisible();
  const menu = page.getByLabel("Lesson", { exact: true });
  await menu.selectOption({ index: 2 });
  await expect(panel(page)).toContainText("Step 1 of");
  await page.goto("/");
  await expect(menu.locator("option").nth(1)).toHaveText(/\(step 3 of 4\)$/);
  await menu.selectOption({ index: 1 });
  await expect(panel(page)).toContainText("Step 3 of 4");
});

test("a lesson's ✓ takes every exercise answered, not its last step reached; its end links to the next lesson", async ({ page }) => {
  await page.goto("/?lesson=drift&step=3");
  const option = page.getByLabel("Lesson", { exact: true }).locator("option", { hasText: "2. Drift and UPDATE" });
  await expect(option).toHaveText("2. Drift and UPDATE (step 3 of 3)");
  await expect(panel(page)).toContainText("Not done yet: the exercise of step 2, 3 is unanswered.");
  await pickActions(page, ["UPDATE web"]);
  await expect(feedback(page)).toContainText("✓ Correct");
  await expect(panel(page)).toContainText("Not done yet: the exercise of step 2 is unanswered.");
  await expect(option).toHaveText("2. Drift and UPDATE (step 3 of 3)");
  await page.getByRole("button", { name: "← Previous" }).click();
  await choose(page, answer("drift", 2));
  await expect(feedback(page)).toContainText("✓ Correct.");
  await next(page);
  await expect(panel(page)).toContainText("✓ Lesson done: every exercise answered.");
  await expect(option).toHaveText("2. Drift and UPDATE ✓");
  await page.getByRole("button", { name: "Next lesson: 3. Finalizers: terminating but not gone →" }).click();
  await expect(page.getByRole("heading", { name: "Finalizers: terminating but not gone" })).toBeVisible();
  await expect(panel(page)).toContainText("Step 1 of 4");
  // Kept across a reload: the ✓ is saved with the answers.
  await page.reload();
  await expect(option).toHaveText("2. Drift and UPDATE ✓");
});

test("the last lesson says so; a newcomer is invited to lesson 1 until a lesson is opened", async ({ page }) => {
  await page.goto("/");
  const invite = page.getByRole("button", { name: "New here? Start with lesson 1" });
  await invite.click();
  await expect(page.getByRole("heading", { name: "Desired vs observed: the four actions" })).toBeVisible();
  await expect(panel(page)).toContainText("Step 1 of 4");
  await expect(invite).toHaveCount(0);
  // Free play: the lesson closes, and the invitation stays gone.
  await page.getByRole("button", { name: "Close the lesson" }).click();
  await expect(invite).toHaveCount(0);
  await page.goto("/?lesson=optimistic-concurrency&step=5");
  await expect(panel(page)).toContainText("That was the last lesson.");
});

test("while a prediction is open, the loop does not move, not even by shortcut", async ({ page }) => {
  await page.goto("/?lesson=four-actions&step=4");
  await expect(page.locator(".sim-pane")).toContainText("Hidden until you make your prediction");
  await expect(page.getByRole("button", { name: "Step", exact: true })).toHaveCount(0);
  await page.keyboard.press("ControlOrMeta+Enter");
  await predictPasses(page, 3);
  await expect(feedback(page)).toContainText("✓ Correct: it converges after 3 passes.");
  await expect(page.locator(".sim-progress")).toHaveText(/^Pass 0 of 3/);
});

test("an explanation that gives the answer away shows only with the answer", async ({ page }) => {
  await page.goto("/?lesson=finalizers&step=3");
  await expect(panel(page)).toContainText("FINALIZE is not a call of its own");
  await expect(panel(page)).not.toContainText("this controller never sends DELETE");
  await predictPasses(page, 4);
  await expect(feedback(page)).toContainText("Not quite: it takes fewer than 4 passes.");
  await expect(panel(page)).not.toContainText("this controller never sends DELETE");
  await predictPasses(page, 3);
  await expect(feedback(page)).toContainText("✓ Correct: it converges after 3 passes.");
  await expect(feedback(page)).toContainText("this controller never sends DELETE");
});

test("a lesson's own documents are the lesson's, not edits of yours", async ({ page }) => {
  await page.goto("/?lesson=backoff");
  const preset = page.getByLabel("Preset", { exact: true });
  await expect(preset.locator("option:checked")).toHaveText("From the lesson");
  await expect(page.locator("#preset-summary")).toHaveText("The lesson “Requeue with exponential backoff” set these documents.");
  await editor(page, "Desired state").fill('{"pod-a": {}}');
  await expect(preset.locator("option:checked")).toHaveText("Custom (edited)");
  await expect(page.locator("#preset-summary")).toHaveText("Edited by you.");
});

// The page compiles in only the lessons' index (menu, titles, steps); a
// lesson's text is its own file, fetched when it opens (docs/lessons.md).
test("a lesson's text is fetched when it opens, not with the page", async ({ page }) => {
  const fetched = [];
  page.on("request", (request) => {
    if (request.url().includes("/lessons/")) fetched.push(new URL(request.url()).pathname);
  });
  await page.goto("/");
  await expect(actionItems(page)).toHaveCount(3);
  expect(fetched).toEqual([]);
  await page.getByLabel("Lesson", { exact: true }).selectOption({ label: "3. Finalizers: terminating but not gone" });
  await expect(panel(page)).toContainText("FINALIZE");
  expect(fetched).toEqual(["/lessons/03-finalizers.json"]);
});

test("a slow lesson file: the panel has the lesson's title and says Loading lesson…, then the lesson", async ({ page }) => {
  const release = await holdRequests(page, "**/lessons/03-finalizers.json");
  await page.goto("/?lesson=finalizers&step=2");
  await expect(page.getByRole("heading", { name: "Finalizers: terminating but not gone" })).toBeVisible();
  await expect(panel(page)).toContainText("Step 2 of 4");
  await expect(panel(page).getByRole("status")).toHaveText("Loading lesson…");
  await expect(panel(page).getByRole("status")).toBeVisible();
  await expect(page.getByLabel("Lesson", { exact: true }).locator("option:checked")).toHaveText(/^3\. Finalizers/);
  // The panel is in its place from the start: the lesson's text does not move it or the editors.
  const place = async () => {
    const [panelBox, editorBox] = [await panel(page).boundingBox(), await editor(page, "Desired state").boundingBox()];
    return { panel: [panelBox.x, panelBox.y, panelBox.width], editor: [editorBox.x, editorBox.y, editorBox.width] };
  };
  const loading = await place();
  release();
  await expect(panel(page)).toContainText("Who removes cloud/lb-cleanup from the list?");
  expect(await place()).toEqual(loading);
  await expect(page.getByRole("textbox", { name: "Finalizers", exact: true })).toHaveValue(/cloud\/lb-cleanup/);
});

test("what the learner types while a ?lesson= file loads is kept: Bring back your edits", async ({ page }) => {
  const release = await holdRequests(page, "**/lessons/03-finalizers.json");
  await page.goto("/?lesson=finalizers");
  await expect(panel(page).getByRole("status")).toHaveText("Loading lesson…");
  await typeInto(page, "Desired state", '{"typed-meanwhile": {}}');
  release();
  await expect(panel(page)).toContainText("Step 1 of 4");
  await expect(page.getByRole("textbox", { name: "Finalizers", exact: true })).toHaveValue(/cloud\/lb-cleanup/);
  await expect(page.locator(".notice")).toContainText("Opened the lesson “Finalizers: terminating but not gone”. It replaced your edited documents.");
  await page.getByRole("button", { name: "Bring back your edits" }).click();
  await expect(editor(page, "Desired state")).toHaveValue('{"typed-meanwhile": {}}');
});

test.describe("a lesson file that fails to download", () => {
  // The aborted download is the browser's console error; any other still fails the test.
  test.use({ expectedProblems: /^console error: Failed to load resource: net::ERR_FAILED$/ });
  test("shows why, and Try again opens the lesson", async ({ page }) => {
    let failures = 1;
    await page.route("**/lessons/03-finalizers.json", (route) => (failures-- > 0 ? route.abort() : route.continue()));
    await page.goto("/");
    await page.getByLabel("Lesson", { exact: true }).selectOption({ label: "3. Finalizers: terminating but not gone" });
    const alert = panel(page).getByRole("alert");
    await expect(alert).toContainText("The lesson could not be loaded: Failed to fetch");
    // Nothing was replaced: the editors keep the documents they had.
    await expect(page.getByRole("textbox", { name: "Finalizers", exact: true })).not.toHaveValue(/cloud\/lb-cleanup/);
    await alert.getByRole("button", { name: "Try again" }).click();
    await expect(alert).toHaveCount(0);
    await expect(panel(page)).toContainText("Step 1 of 4");
    await expect(page.getByRole("textbox", { name: "Finalizers", exact: true })).toHaveValue(/cloud\/lb-cleanup/);
  });
});

test("a lesson file that does not read shows the reader's located error", async ({ page }) => {
  await page.route("**/lessons/02-drift.json", (route) =>
    route.fulfill({ contentType: "application/json", body: '{"id": "drift",\n  "steps": [}' }),
  );
  await page.goto("/?lesson=drift");
  await expect(panel(page).getByRole("alert")).toContainText(
    "The lesson could not be loaded: lessons/02-drift.json: line 2, column",
  );
  await page.getByRole("button", { name: "Close the lesson" }).click();
  await expect(panel(page)).toHaveCount(0);
});
