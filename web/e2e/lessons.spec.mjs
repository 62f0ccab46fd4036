import { test, expect, actionItems } from "./fixtures.mjs";

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

const tryAgain = (page) => page.getByRole("button", { name: "Try again" }).click();
const next = (page) => page.getByRole("button", { name: "Next →" }).click();

test("lesson 1, the four actions: every exercise answered wrong, then right", async ({ page }) => {
  await page.goto("/");
  await page.getByLabel("Lesson", { exact: true }).selectOption({ label: "1. Desired vs observed: the four actions" });
  await expect(panel(page)).toContainText("Step 1 of 4");
  await next(page);
  // Predict, then reveal: the plan stays hidden until the prediction is checked.
  await expect(page.locator(".plan-pane")).toContainText("Hidden until you make your prediction");
  await expect(actionItems(page)).toHaveCount(0);
  await pickActions(page, ["CREATE a", "DELETE c"]);
  await expect(feedback(page)).toContainText("✗ Not quite. Reconcile returns CREATE a, UPDATE b, DELETE c.");
  await expect(feedback(page)).toContainText("Missing UPDATE b: observed spec differs from desired in 1 field.");
  await expect(actionItems(page)).toHaveCount(3);
  await tryAgain(page);
  await pickActions(page, ["DELETE c", "CREATE a", "UPDATE b"]);
  await expect(feedback(page)).toContainText("Right actions, wrong order.");
  await tryAgain(page);
  await pickActions(page, ["CREATE a", "UPDATE b", "DELETE c"]);
  await expect(feedback(page)).toContainText("✓ Correct: 1 to create, 1 to update, 0 to finalize, 1 to delete.");

  await next(page);
  await choose(page, "DELETE c");
  await expect(feedback(page)).toContainText("DELETE is only for names with no pending finalizers");
  await expect(feedback(page)).toContainText("The answer: FINALIZE c");
  await tryAgain(page);
  await choose(page, "FINALIZE c");
  await expect(feedback(page)).toContainText("✓ Correct.");

  await next(page);
  await expect(page.locator(".sim-pane")).toContainText("Hidden until you make your prediction");
  await predictPasses(page, 1);
  await expect(feedback(page)).toContainText("Not quite: it converges after 3 passes, not 1.");
  await expect(feedback(page)).toContainText("2 of them found nothing to do");
  await tryAgain(page);
  await predictPasses(page, 3);
  await expect(feedback(page)).toContainText("✓ Correct: it converges after 3 passes.");
  await page.getByRole("button", { name: "Run to convergence" }).click();
  await expect(page.locator(".verdict")).toContainText("Converged after 3 passes");
});

test("lesson 2, drift: the answer is field-level", async ({ page }) => {
  await page.goto("/?lesson=drift&step=2");
  await choose(page, "Because the members are in a different order.");
  await expect(feedback(page)).toContainText("Member order is ignored");
  await tryAgain(page);
  await choose(page, "Because $.replicas is 2 but should be 3.");
  await expect(feedback(page)).toContainText("✓ Correct.");
  await next(page);
  await pickActions(page, ["CREATE web"]);
  await expect(feedback(page)).toContainText(
    "CREATE web is not in the plan: web gets UPDATE instead (observed spec differs from desired in 1 field).",
  );
  await tryAgain(page);
  await pickActions(page, ["UPDATE web"]);
  await expect(feedback(page)).toContainText("✓ Correct");
  await expect(page.getByRole("list", { name: "Drift of web" })).toContainText("$.replicas: 2");
});

test("lesson 3, finalizers: terminating but not gone", async ({ page }) => {
  await page.goto("/?lesson=finalizers");
  await pickActions(page, ["DELETE svc"]);
  await expect(feedback(page)).toContainText(
    "DELETE svc is not in the plan: svc gets FINALIZE instead (no longer desired, but finalizers are pending: cloud/lb-cleanup).",
  );
  await tryAgain(page);
  await pickActions(page, ["FINALIZE svc"]);
  await expect(feedback(page)).toContainText("✓ Correct");
  await next(page);
  await choose(page, "The API server, after a timeout.");
  await expect(feedback(page)).toContainText("Kubernetes never removes a finalizer by itself");
  await tryAgain(page);
  await choose(page, "The controller that owns that finalizer, once its cleanup is done.");
  await expect(feedback(page)).toContainText("✓ Correct.");
  await next(page);
  await predictPasses(page, 2);
  await expect(feedback(page)).toContainText("it converges after 4 passes, not 2");
  await tryAgain(page);
  await predictPasses(page, 4);
  await expect(feedback(page)).toContainText("✓ Correct: it converges after 4 passes.");
});

test("a lesson step opens by URL, embedded", async ({ page }) => {
  await page.goto("/?embed&lesson=finalizers&step=2");
  await expect(panel(page)).toContainText("Step 2 of 3");
  await expect(panel(page)).toContainText("Who removes cloud/lb-cleanup from the list?");
  await expect(page.getByRole("textbox", { name: "Finalizers", exact: true })).toHaveValue(/cloud\/lb-cleanup/);
  await expect(page.getByRole("heading", { name: "Finalizers: terminating but not gone" })).toBeVisible();
});
