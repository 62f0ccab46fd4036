// YAML in the editors (issue 15, the page part): each editor takes JSON or
// YAML, shows which, reads YAML through the YAML module (a worker started on
// the first YAML document, never with the page), converts and formats with a
// warning before comments are lost and an Undo, keeps formats in links and
// autosaves, exports the desired state as a manifest stream and imports
// .yaml files. Real manifests come from crates/reconcile-yaml/tests/fixtures.
import { readFileSync } from "node:fs";
import { test, expect, editor, actionList, paste, actionSummaries, flushAutosave } from "./fixtures.mjs";

const fixture = (name) =>
  readFileSync(new URL(`../../crates/reconcile-yaml/tests/fixtures/${name}`, import.meta.url), "utf8");
const DEFAULT_ACTIONS = ["CREATE a", "UPDATE b", "DELETE c"];
const summary = (page) => page.locator("#plan-summary");
const badge = (page, id) => page.locator(`#${id}-format`);
const notice = (page) => page.locator(".notice p");
const errorOf = (page, id) => page.locator(`#${id}-error`);

async function openDefault(page) {
  // Records each worker the page starts, as it starts it (a request may be reported later).
  await page.addInitScript(() => {
    window.workersMade = [];
    window.Worker = class extends Worker {
      constructor(url, options) {
        window.workersMade.push(String(url));
        super(url, options);
      }
    };
  });
  await page.goto("/");
  await expect(actionList(page).locator(":scope > li")).toHaveCount(3);
}

/** Chooses an item of an editor's format menu. */
async function formatMenu(page, label, item) {
  const pane = page.locator(".editor-pane", { has: editor(page, label) });
  await pane.locator(".format-menu summary").click();
  await pane.getByRole("menuitem", { name: item }).click();
}

test("the first view requests no YAML module, and the first YAML document loads it", async ({ page }) => {
  const requested = [];
  page.on("request", (request) => requested.push(request.url()));
  await openDefault(page);
  // The plan on screen was read in the same check that would have started the YAML worker.
  expect(await page.evaluate(() => window.workersMade)).toEqual([]);
  expect(requested.filter((url) => /yaml/i.test(url))).toEqual([]);
  await paste(page, "Desired state", "web:\n  replicas: 2\n");
  await expect(badge(page, "desired")).toHaveText("YAML");
  await expect.poll(() => actionSummaries(page)).toEqual(["CREATE web", "DELETE b", "DELETE c"]);
  expect(requested.some((url) => url.endsWith("/yaml-worker.js"))).toBe(true);
  expect(requested.some((url) => url.endsWith("/reconcile_yaml_bg.wasm"))).toBe(true);
  await expect(actionList(page)).toHaveAttribute("data-stale", "false");
  await expect(page.locator(".yaml-status")).toHaveCount(0);
});

test("the format is detected and shown; text starting with { stays JSON with its JSON error", async ({ page }) => {
  await openDefault(page);
  await expect(badge(page, "desired")).toHaveText("JSON");
  await paste(page, "Desired state", '{"a":1,}');
  await expect(badge(page, "desired")).toHaveText("JSON");
  await expect(errorOf(page, "desired")).toHaveText(
    "Line 1, column 8 at $: trailing comma; expected another member or value after `,`",
  );
  await expect(actionList(page)).toHaveAttribute("data-stale", "true");
});

test("a YAML error is located: document, line:column, path, what was expected", async ({ page }) => {
  await openDefault(page);
  await paste(page, "Observed state", "b:\n  replicas: 1\n  replicas: 2\n");
  await expect(errorOf(page, "observed")).toHaveText(/^Line 3, column 3 at \$\.b\.replicas: duplicate member name "replicas"; each name may appear only once$/);
  await expect(editor(page, "Observed state")).toHaveAttribute("aria-invalid", "true");
  await expect(editor(page, "Observed state")).toHaveValue("b:\n  replicas: 1\n  replicas: 2\n");
  expect(await actionSummaries(page)).toEqual(DEFAULT_ACTIONS);
  await paste(page, "Observed state", "b:\n  replicas: 1\n");
  await expect.poll(() => actionSummaries(page)).toEqual(["CREATE a", "UPDATE b"]);
});

test("convert YAML with comments to JSON: asks first, converts, and Undo brings the text back exactly", async ({ page }) => {
  await openDefault(page);
  const yaml = "# the web tier\nweb:\n  replicas: 2   # two for now\n";
  await paste(page, "Desired state", yaml);
  await expect.poll(() => actionSummaries(page)).toEqual(["CREATE web", "DELETE b", "DELETE c"]);
  await formatMenu(page, "Desired state", "Convert to JSON");
  await expect(notice(page)).toContainText("Comments will be lost");
  await expect(editor(page, "Desired state")).toHaveValue(yaml);
  await page.getByRole("button", { name: "Convert anyway" }).click();
  await expect(editor(page, "Desired state")).toHaveValue('{\n  "web": {\n    "replicas": 2\n  }\n}\n');
  await expect(badge(page, "desired")).toHaveText("JSON");
  await expect(notice(page)).toContainText("Desired state is now JSON.");
  await expect.poll(() => actionSummaries(page)).toEqual(["CREATE web", "DELETE b", "DELETE c"]);
  await page.getByRole("button", { name: "Undo" }).click();
  await expect(editor(page, "Desired state")).toHaveValue(yaml);
  await expect(badge(page, "desired")).toHaveText("YAML");
});

test("convert JSON to YAML (no warning), then format YAML", async ({ page }) => {
  await openDefault(page);
  await formatMenu(page, "Desired state", "Convert to YAML");
  await expect(editor(page, "Desired state")).toHaveValue("a:\n  replicas: 1\nb:\n  replicas: 3\n");
  await expect(badge(page, "desired")).toHaveText("YAML");
  await expect(notice(page)).toHaveText("Desired state is now YAML. Undo");
  await expect.poll(() => actionSummaries(page)).toEqual(DEFAULT_ACTIONS);
  await paste(page, "Observed state", "b:   {replicas:   1}\nc: {replicas: 1}\n");
  await page.getByRole("button", { name: "Format Observed state" }).click();
  await expect(editor(page, "Observed state")).toHaveValue("b:\n  replicas: 1\nc:\n  replicas: 1\n");
  await expect.poll(() => actionSummaries(page)).toEqual(DEFAULT_ACTIONS);
});

test("Read as YAML switches a document's format; reload and links keep each format", async ({ page }) => {
  await openDefault(page);
  // Flow YAML starts with `{`, so it is read as JSON until switched.
  await paste(page, "Desired state", "{web: {replicas: 2}}");
  await expect(errorOf(page, "desired")).toContainText("Line 1, column 2 at $");
  await formatMenu(page, "Desired state", "Read as YAML");
  await expect(badge(page, "desired")).toHaveText("YAML");
  await expect.poll(() => actionSummaries(page)).toEqual(["CREATE web", "DELETE b", "DELETE c"]);
  await paste(page, "Observed state", "b:\n  replicas: 1 # kept\n");
  await expect.poll(() => actionSummaries(page)).toEqual(["CREATE web", "DELETE b"]);
  // The autosave and the address bar follow a pause; leaving the page saves at once.
  const link = await flushAutosave(page);
  expect(link).toContain("#v2/");
  await page.reload();
  await expect(badge(page, "desired")).toHaveText("YAML");
  await expect(editor(page, "Observed state")).toHaveValue("b:\n  replicas: 1 # kept\n");
  await expect(badge(page, "observed")).toHaveText("YAML");
  await expect.poll(() => actionSummaries(page)).toEqual(["CREATE web", "DELETE b"]);
  const other = await page.context().newPage();
  await other.goto(link);
  await expect(editor(other, "Desired state")).toHaveValue("{web: {replicas: 2}}");
  await expect(badge(other, "desired")).toHaveText("YAML");
  await expect.poll(() => actionSummaries(other)).toEqual(["CREATE web", "DELETE b"]);
});

test("Download desired as YAML gives a manifest stream with each manifest's finalizers", async ({ page }) => {
  await openDefault(page);
  await paste(page, "Desired state", fixture("nginx-deployment.yaml") + "---\n" + fixture("service-loadbalancer.yaml"));
  await expect(summary(page)).toContainText("2 to create");
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Download desired as YAML" }).click(),
  ]);
  expect(download.suggestedFilename()).toBe("desired.yaml");
  const text = readFileSync(await download.path(), "utf8");
  const documents = text.split(/^---\n/m);
  expect(documents).toHaveLength(2);
  expect(documents[0]).toMatch(/^apiVersion: apps\/v1\nkind: Deployment\nmetadata:\n  name: nginx-deployment\n  namespace: default\n/);
  expect(documents[1]).toMatch(/^apiVersion: v1\nkind: Service\n/);
  // Ready for kubectl apply -f: the manifest's finalizers are back in its metadata, the server's fields are not.
  expect(documents[1]).toMatch(/\n  finalizers:\n    - service\.kubernetes\.io\/load-balancer-cleanup\nspec:/);
  expect(documents[1]).not.toContain("uid:");
  // It reads back as the same desired state.
  await paste(page, "Desired state", text);
  await expect(summary(page)).toContainText("2 to create");
});

test("import a .yaml file: it becomes the desired state, exactly as written", async ({ page }) => {
  await openDefault(page);
  const text = fixture("nginx-deployment.yaml");
  await page.getByLabel("Import a scenario file").setInputFiles({
    name: "nginx.yaml",
    mimeType: "application/yaml",
    buffer: Buffer.from(text),
  });
  await expect(editor(page, "Desired state")).toHaveValue(text);
  await expect(badge(page, "desired")).toHaveText("YAML");
  await expect.poll(() => actionSummaries(page)).toEqual([
    "CREATE Deployment/default/nginx-deployment", "DELETE b", "DELETE c",
  ]);
});

test("import a YAML scenario file: it splits into the three editors, as a JSON one does; a broken one says where", async ({ page }) => {
  await openDefault(page);
  const importFile = (name, text) => page.getByLabel("Import a scenario file").setInputFiles({
    name, mimeType: "application/yaml", buffer: Buffer.from(text),
  });
  await importFile("scenario.yaml", "# a scenario\ndesired:\n  web:\n    replicas: 2\nobserved:\n  web:\n    replicas: 1\n  old: {}\nfinalizers:\n  old: [example.com/x]\n");
  await expect(editor(page, "Desired state")).toHaveValue("web:\n  replicas: 2\n");
  await expect(editor(page, "Observed state")).toHaveValue("web:\n  replicas: 1\nold: {}\n");
  await expect(editor(page, "Finalizers")).toHaveValue("old:\n  - example.com/x\n");
  await expect.poll(() => actionSummaries(page)).toEqual(["UPDATE web", "FINALIZE old"]);
  await expect(notice(page)).toContainText("Loaded scenario.yaml.");
  await importFile("broken.yaml", "desired: {}\nobserved: [1]\n");
  await expect(notice(page)).toContainText("broken.yaml: Scenario: line 2, column 11 at $.observed");
  await expect(editor(page, "Desired state")).toHaveValue("web:\n  replicas: 2\n");
});

test("the upstream manifests give their plan", async ({ page }) => {
  await openDefault(page);
  await paste(page, "Finalizers", "");
  await paste(page, "Desired state", fixture("nginx-deployment.yaml"));
  await paste(page, "Observed state", fixture("kubectl-get-list.yaml"));
  await expect.poll(() => actionSummaries(page)).toEqual([
    "UPDATE Deployment/default/nginx-deployment",
    "DELETE Namespace/shop",
    "FINALIZE Service/default/my-service",
  ]);
  await expect(summary(page)).toHaveText("0 to create, 1 to update, 1 to finalize, 1 to delete");
  await paste(page, "Desired state", fixture("nginx-deployment.yaml") + "---\n" + fixture("service-loadbalancer.yaml"));
  await expect(summary(page)).toContainText("1 to delete");
  await expect.poll(() => actionSummaries(page)).not.toContain("FINALIZE Service/default/my-service");
});

test("typing in YAML sends the reader only the change, and every plan is the whole text's", async ({ page }) => {
  await openDefault(page);
  await paste(page, "Finalizers", "");
  await paste(page, "Desired state", "a:\n  replicas: 1\nb:\n  replicas: 3\nc:\n  replicas: 5\n");
  await paste(page, "Observed state", "a:\n  replicas: 1\nb:\n  replicas: 3\nd: {}\n");
  await expect.poll(() => actionSummaries(page)).toEqual(["CREATE c", "DELETE d"]);
  /** Puts the caret after the first `after` in an editor and types `keys`. */
  const typeAfter = async (name, after, keys) => {
    const box = editor(page, name);
    await box.evaluate((area, after) => {
      const at = area.value.indexOf(after) + after.length;
      area.focus();
      area.setSelectionRange(at, at);
    }, after);
    await page.keyboard.type(keys);
  };
  await typeAfter("Desired state", "replicas: 3", "7");
  await expect.poll(() => actionSummaries(page)).toEqual(["UPDATE b", "CREATE c", "DELETE d"]);
  // An error in the middle of the document, then its fix: read whole, then in part again.
  await typeAfter("Desired state", "replicas: 37", "\n  replicas: 2");
  await expect(errorOf(page, "desired")).toContainText('duplicate member name "replicas"');
  for (let i = 0; i < "\n  replicas: 2".length; i++) await page.keyboard.press("Backspace");
  await expect(errorOf(page, "desired")).toHaveText("");
  await expect.poll(() => actionSummaries(page)).toEqual(["UPDATE b", "CREATE c", "DELETE d"]);
  // The other document, with characters of two and four bytes.
  await typeAfter("Observed state", "d: {", "é: 🚀");
  await expect.poll(() => actionSummaries(page)).toEqual(["UPDATE b", "CREATE c", "DELETE d"]);
  await expect(page.locator("#plan-summary")).toHaveText("1 to create, 1 to update, 0 to finalize, 1 to delete");
  await typeAfter("Desired state", "c:\n  replicas: 5\n", "d:\n  é: 🚀\n");
  await expect.poll(() => actionSummaries(page)).toEqual(["UPDATE b", "CREATE c"]);
  // A key repeated across entries is the whole read's duplicate error.
  await typeAfter("Desired state", "  é: 🚀\n", "a: {}\n");
  await expect(errorOf(page, "desired")).toHaveText('Line 9, column 1 at $.a: duplicate resource name "a"; each name may appear only once');
});

test("a manifest's deletionTimestamp makes its object terminating from the start, until its finalizer's owner is done", async ({ page }) => {
  const lb = (deleted) => [
    "apiVersion: v1",
    "kind: Service",
    "metadata:",
    "  name: lb",
    ...(deleted ? ['  deletionTimestamp: "2024-05-01T10:00:00Z"'] : []),
    "  finalizers:",
    "    - service.kubernetes.io/load-balancer-cleanup",
    "spec:",
    "  type: LoadBalancer",
    "",
  ].join("\n");
  const row = page.getByRole("table", { name: "Resource status" }).locator("tbody tr")
    .filter({ has: page.getByRole("rowheader", { name: "Service/default/lb", exact: true }) });
  await openDefault(page);
  await paste(page, "Finalizers", "");
  await paste(page, "Desired state", "{}");
  await paste(page, "Observed state", lb(false));
  await expect.poll(() => actionSummaries(page)).toEqual(["FINALIZE Service/default/lb"]);
  await expect(row).toContainText("extra");
  await paste(page, "Observed state", lb(true));
  await expect(row).toContainText("terminating");
  await expect.poll(() => actionSummaries(page)).toEqual(["FINALIZE Service/default/lb"]);
  await page.getByRole("button", { name: "Run to convergence" }).click();
  await expect(page.getByRole("list", { name: "Passes", exact: true })).toContainText(
    "t = 50 ms: the owner of service.kubernetes.io/load-balancer-cleanup removed it from Service/default/lb, the last finalizer",
  );
  await expect(page.locator(".verdict")).toContainText("Converged");
  await expect(row).toHaveCount(0);
});

test("kubectl get -o json: a JSON List is read as manifests; plain JSON documents load no YAML module", async ({ page }) => {
  const requested = [];
  page.on("request", (request) => requested.push(request.url()));
  await openDefault(page);
  await paste(page, "Finalizers", "");
  // Specs that are Kubernetes objects, in a {name: spec} document: plain JSON.
  await paste(page, "Desired state", '{"web": {"apiVersion": "apps/v1", "kind": "Deployment"}}');
  await expect.poll(() => actionSummaries(page)).toEqual(["CREATE web", "DELETE b", "DELETE c"]);
  // The plan on screen was read in the same check that would have started the YAML worker.
  expect(await page.evaluate(() => window.workersMade)).toEqual([]);
  expect(requested.filter((url) => /yaml/i.test(url))).toEqual([]);
  await paste(page, "Desired state", "{}");
  await paste(page, "Observed state", fixture("kubectl-get-deployments.json"));
  await expect.poll(() => actionSummaries(page)).toEqual([
    "DELETE Deployment/default/nginx-deployment",
    "FINALIZE Deployment/default/redis",
  ]);
  await expect(badge(page, "observed")).toHaveText("JSON");
  expect(requested.some((url) => url.endsWith("/reconcile_yaml_bg.wasm"))).toBe(true);
  // A manifest's error is located in the JSON text.
  await paste(page, "Observed state", fixture("kubectl-get-deployments.json").replace('"name": "redis"', '"name": ""'));
  await expect(errorOf(page, "observed")).toHaveText(/^Line 99, column 25 at \$\.items\[1\]\.metadata\.name: expected metadata\.name, a non-empty string/);
});

test.describe("a failed download", () => {
  // Playwright's routes miss what a service worker fetches for the YAML worker;
  // the service worker's own failures are offline.spec.mjs's.
  test.use({ serviceWorkers: "block" });
  test("a YAML module that fails to download says so, and Try again loads it", async ({ page }) => {
    await page.route("**/reconcile_yaml_bg.wasm", (route) => route.abort());
    await openDefault(page);
    await paste(page, "Desired state", "web: {}\n");
    await expect(page.locator("#desired-input").locator("xpath=ancestor::section").locator(".yaml-status.failed"))
      .toContainText("YAML support could not be loaded");
    await page.unroute("**/reconcile_yaml_bg.wasm");
    await page.getByRole("button", { name: "Try again" }).click();
    await expect.poll(() => actionSummaries(page)).toEqual(["CREATE web", "DELETE b", "DELETE c"]);
    await expect(page.locator(".yaml-status")).toHaveCount(0);
  });
});

test("a link or an autosave of YAML documents reopens at the same simulation position", async ({ page, browser }) => {
  const passes = (p) => p.getByRole("list", { name: "Passes", exact: true }).locator(":scope > li");
  await openDefault(page);
  await paste(page, "Desired state", "a:\n  replicas: 2\nz: {}\n");
  await expect.poll(() => actionSummaries(page)).toEqual(["CREATE a", "CREATE z", "DELETE b", "DELETE c"]);
  await page.getByRole("button", { name: "Step" }).click();
  await page.getByRole("button", { name: "Step" }).click();
  await expect(passes(page)).toHaveCount(2);
  await page.getByRole("button", { name: "Share" }).click();
  const link = await page.getByLabel("Share link").inputValue();

  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  await other.goto(link);
  await expect(badge(other, "desired")).toHaveText("YAML");
  await expect(passes(other)).toHaveCount(2);
  // The autosave, written while the YAML module was still reading, kept the position too.
  await other.reload();
  await expect(passes(other)).toHaveCount(2);
  await fresh.close();
});
