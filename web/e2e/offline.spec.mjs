// The service worker (issue 17; docs/offline.md): a second visit works offline,
// an on-demand module used once works offline too, and a new deploy waits, is
// offered as "Reload", and takes over cleanly without losing what was typed.
// The update test serves its own copy of the build, which it then "deploys" anew.
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { test, expect, actionItems, editor, paste, typeInto } from "./fixtures.mjs";
import { startServer } from "./serve.mjs";

// The rest of the suite blocks service workers (playwright.config.mjs); here they are the subject.
test.use({ serviceWorkers: "allow" });

const dist = resolve(process.env.DIST ?? "../dist");
const DEFAULT_ACTIONS = 3;
const updateNotice = (page) => page.locator(".update-notice");

/** Opens `url` and waits until the service worker serves the page (it claims the first visit's page). */
async function visitUntilControlled(page, url) {
  await page.goto(url);
  await expect(actionItems(page)).toHaveCount(DEFAULT_ACTIONS);
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 20_000 });
}

test("the worker is registered only after the first action list is on screen", async ({ page }) => {
  await visitUntilControlled(page, "/");
  const [mark, register] = await page.evaluate(() => [
    performance.getEntriesByName("first-action-list")[0].startTime,
    performance.getEntriesByType("resource").find((entry) => entry.name.endsWith("/sw-register.js")).startTime,
  ]);
  expect(register).toBeGreaterThan(mark);
});

test("an embed registers no worker, and a browser without service workers runs the page as before", async ({ page, context }) => {
  await page.goto("/?embed");
  await expect(actionItems(page)).toHaveCount(DEFAULT_ACTIONS);
  // The page would add sw-register.js in the same effects as the first action list's mark.
  await expect.poll(() => page.evaluate(() => performance.getEntriesByName("first-action-list").length)).toBe(1);
  await expect(page.locator('script[src$="sw-register.js"]')).toHaveCount(0);
  expect(await page.evaluate(() => navigator.serviceWorker.getRegistrations())).toHaveLength(0);
  const without = await context.newPage();
  const errors = [];
  without.on("pageerror", (error) => errors.push(error.message));
  await without.addInitScript(() => delete Navigator.prototype.serviceWorker);
  await without.goto("/");
  await expect(actionItems(without)).toHaveCount(DEFAULT_ACTIONS);
  // The page adds sw-register.js; importing it again resolves once it has run.
  const script = without.locator('script[src$="sw-register.js"]');
  await expect(script).toHaveCount(1);
  await without.evaluate((src) => import(src), await script.evaluate((element) => element.src));
  expect(await page.evaluate(() => navigator.serviceWorker.getRegistrations())).toHaveLength(0);
  expect(errors).toEqual([]);
  await without.close();
});

test("a second visit works offline: the plan shows and Step runs", async ({ page, context }) => {
  await visitUntilControlled(page, "/");
  await context.setOffline(true);
  await page.reload();
  await expect(actionItems(page)).toHaveCount(DEFAULT_ACTIONS);
  await page.getByRole("button", { name: "Step" }).click();
  await expect(page.getByRole("table", { name: "Resource status" }).locator("caption")).toHaveText(
    "Resource status after pass 1",
  );
  // A new tab, with a query: the same page, from the cache.
  const other = await context.newPage();
  await other.goto("/?preset=cache-2-replicas");
  await expect(actionItems(other).first()).toBeVisible();
  await other.close();
});

test("lessons open offline on a second visit: their files are precached with the first view", async ({ page, context }) => {
  await visitUntilControlled(page, "/");
  await context.setOffline(true);
  await page.goto("/?lesson=finalizers&step=2");
  await expect(page.locator(".lesson-panel")).toContainText("Who removes cloud/lb-cleanup from the list?");
  await expect(page.getByRole("textbox", { name: "Finalizers", exact: true })).toHaveValue(/cloud\/lb-cleanup/);
  // Never opened online: the last lesson, from the menu.
  await page.getByLabel("Lesson", { exact: true }).selectOption({ label: "18. Optimistic concurrency: 409 Conflict and re-reading" });
  await expect(page.locator(".lesson-panel")).toContainText("Step 1 of");
  await expect(page.locator(".lesson-panel .lesson-text")).toBeVisible();
  await expect(page.locator(".lesson-panel [role=alert]")).toHaveCount(0);
});

test("the control-plane view opens offline on a second visit, never opened online: its module is precached", async ({ page, context }) => {
  await visitUntilControlled(page, "/");
  await context.setOffline(true);
  await page.reload();
  await expect(actionItems(page)).toHaveCount(DEFAULT_ACTIONS);
  await page.getByRole("button", { name: "Step" }).click();
  await page.locator("details.control-plane summary").click();
  await expect(page.locator(".cp-text")).toContainText("API server store");
  await expect(page.locator("details.control-plane [role=alert]")).toHaveCount(0);
});

test("an on-demand module used once online (YAML) works offline after that", async ({ page, context }) => {
  await visitUntilControlled(page, "/");
  await paste(page, "Desired state", "web:\n  replicas: 2\n");
  await expect(page.locator("#desired-format")).toHaveText("YAML");
  await expect(actionItems(page).first()).toHaveText(/CREATE\s*web/);
  await context.setOffline(true);
  await page.reload();
  await paste(page, "Desired state", "api:\n  replicas: 1\n");
  await expect(actionItems(page).first()).toHaveText(/CREATE\s*api/);
  await expect(page.locator(".yaml-status")).toHaveCount(0);
});

// A learner's first visit (issue 28): open a link, use it, go offline, reload, use it again.
// What the page loaded before the worker took control must be cached all the same.

/** This version's files (sw.js's list) whose paths start with one of `prefixes`. */
async function buildFiles(page, prefixes) {
  const text = await (await page.request.get(new URL("sw.js", page.url()).href)).text();
  const paths = JSON.parse(text.match(/const BUILD = (\{.*\});/)[1]).files.map((file) => file.path);
  const listed = paths.filter((path) => prefixes.some((prefix) => path.startsWith(prefix))).sort();
  expect(listed.length, `files starting with ${prefixes}`).toBeGreaterThan(0);
  return listed;
}

/** The paths the worker's cache holds, relative to its scope. */
function cachedPaths(page) {
  return page.evaluate(async () => {
    const scope = (await navigator.serviceWorker.ready).scope;
    const paths = [];
    for (const name of await caches.keys()) {
      for (const request of await (await caches.open(name)).keys()) paths.push(request.url.slice(scope.length));
    }
    return paths.sort();
  });
}

/** Waits until every one of this version's files starting with `prefixes` is cached: a
 *  learner may go offline any time after, and the reload must find them. */
async function expectCached(page, prefixes) {
  const wanted = await buildFiles(page, prefixes);
  const missing = async () => {
    const cached = await cachedPaths(page);
    return wanted.filter((path) => !cached.includes(path));
  };
  await expect.poll(missing, { message: "this version's files the first visit used, not cached", timeout: 20_000 }).toEqual([]);
}

/**
 * The build on a port of its own: a new origin, so a first visit. `offline()` sets the
 * browser offline and stops the server. Playwright's offline mode alone does not always
 * reach a service worker's own requests (microsoft/playwright#2311); a stopped server does.
 */
async function firstVisitSite(context) {
  const server = await startServer(dist, 0);
  return {
    url: `http://127.0.0.1:${server.port}/`,
    async offline() {
      await context.setOffline(true);
      await server.close();
    },
    close: () => server.close(),
  };
}

/** Opens `path` of `site` and waits until the worker serves the page. */
async function openUntilControlled(page, site, path, shown) {
  await page.goto(new URL(path, site.url).href);
  await expect(shown(page)).toBeVisible();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 20_000 });
}

/** The pane's Check, and its result (the starter returns nothing, so it fails at its first case). */
async function checkOnce(page, timeout) {
  await page.getByRole("button", { name: "Check", exact: true }).click();
  await expect(page.locator(".exercise-pane .check-status")).toHaveText(/^Failed/, { timeout });
}

for (const [language, timeout] of [["javascript", 30_000], ["python", 90_000]]) {
  test(`"Your reconcile" in ${language}, opened from a link on a first visit, checks offline after one Check`, async ({ page, context }) => {
    test.setTimeout(3 * timeout);
    const site = await firstVisitSite(context);
    try {
      await openUntilControlled(page, site, `?exercise=reconcile&lang=${language}`, (p) => actionItems(p).first());
      await checkOnce(page, timeout);
      const used = ["pkg/reconcile_exercise_ui", "sandbox.html", "sandbox-host.js", "sandbox-worker.js", "pkg/reconcile.js", "pkg/reconcile_check"];
      await expectCached(page, language === "python" ? [...used, "pyodide/", "sandbox-harness.py"] : used);
      await site.offline();
      await page.reload();
      await checkOnce(page, timeout);
      // Offline the sandbox's page comes from the worker, which gives it its opaque origin
      // by a CSP header (no engine lets a worker answer a frame with the sandbox attribute).
      const frame = page.locator('iframe[title="Sandbox for your code"]');
      await expect(frame).toHaveAttribute("src", /\/sandbox-sw\.html$/);
      expect(await frame.evaluate((element) => element.contentDocument)).toBeNull();
    } finally {
      await site.close();
    }
  });
}

test("YAML documents opened from a share link on a first visit work offline after that", async ({ page, context, browser }) => {
  // The link, made in a browser of its own (no worker there).
  const author = await browser.newContext({ serviceWorkers: "block" });
  const authoring = await author.newPage();
  await authoring.goto("/");
  await paste(authoring, "Desired state", "web:\n  replicas: 2\n");
  await expect(actionItems(authoring).first()).toHaveText(/CREATE\s*web/);
  await authoring.getByRole("button", { name: "Share" }).click();
  const link = await authoring.getByLabel("Share link").inputValue();
  await author.close();

  const site = await firstVisitSite(context);
  try {
    await openUntilControlled(page, site, new URL(link).hash, (p) => actionItems(p).getByText(/CREATE\s*web/));
    await expectCached(page, ["pkg/reconcile_yaml"]);
    await site.offline();
    await page.reload();
    await expect(actionItems(page).first()).toHaveText(/CREATE\s*web/);
    await paste(page, "Desired state", "api:\n  replicas: 1\n");
    await expect(actionItems(page).first()).toHaveText(/CREATE\s*api/);
    await expect(page.locator(".yaml-status")).toHaveCount(0);
  } finally {
    await site.close();
  }
});

// Regression guards: these are precached with the first view, so they passed before too.
test("a lesson opened from a link on a first visit opens offline after that", async ({ page, context }) => {
  const site = await firstVisitSite(context);
  const question = (p) => p.locator(".lesson-panel").getByText("Who removes cloud/lb-cleanup from the list?").first();
  try {
    await openUntilControlled(page, site, "?lesson=finalizers&step=2", question);
    await site.offline();
    await page.reload();
    await expect(question(page)).toBeVisible();
    await expect(page.locator(".lesson-panel [role=alert]")).toHaveCount(0);
  } finally {
    await site.close();
  }
});

test("the simulation section used on a first visit steps offline after that", async ({ page, context }) => {
  const site = await firstVisitSite(context);
  try {
    await openUntilControlled(page, site, "?preset=cache-2-replicas", (p) => actionItems(p).first());
    await page.getByRole("button", { name: "Step" }).click();
    const caption = page.getByRole("table", { name: "Resource status" }).locator("caption");
    await expect(caption).toHaveText("Resource status after pass 1");
    await site.offline();
    await page.reload();
    await page.getByRole("button", { name: "Step" }).click();
    await expect(caption).toHaveText(/Resource status after pass \d+/);
    await expect(page.locator(".sim-pane [role=alert]")).toHaveCount(0);
  } finally {
    await site.close();
  }
});

test("a first visit downloads the pane's files once: the worker caches them from the browser's copy", async ({ page }) => {
  test.setTimeout(60_000);
  const requests = [];
  const site = await siteCopy((path) => requests.push(path));
  try {
    await visitUntilControlled(page, `${site.url}?exercise=reconcile&lang=javascript`);
    await expect(page.locator(".exercise-pane")).toBeVisible();
    await expectCached(page, ["pkg/reconcile_exercise_ui"]);
    const pane = await buildFiles(page, ["pkg/reconcile_exercise_ui"]);
    for (const path of pane) expect(requests.filter((asked) => asked === `/${path}`), path).toHaveLength(1);
  } finally {
    await site.close();
  }
});

test("the sandbox's page under the worker's path is no page at all on the network", async ({ page }) => {
  // Only the worker answers it (with the CSP `sandbox` header): served unsandboxed it would
  // run with the site's origin, so the host never has it.
  expect((await page.request.get("/sandbox-sw.html")).status()).toBe(404);
  expect((await page.request.get("/sandbox.html")).status()).toBe(200);
});

/** A copy of the build (without Pyodide, which these tests never load), served on a port
 *  of its own; `onRequest` hears each request's path. */
async function siteCopy(onRequest) {
  const root = await mkdtemp(join(tmpdir(), "playground-site-"));
  await cp(dist, root, { recursive: true, filter: (path) => !path.startsWith(join(dist, "pyodide")) });
  const server = await startServer(root, 0, { onRequest });
  return {
    root,
    url: `http://127.0.0.1:${server.port}/`,
    async close() {
      await server.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** Deploys a "new version" into `root`: a changed page (its title) and the worker's list updated for it. */
async function deployNewVersion(root) {
  const index = join(root, "index.html");
  await writeFile(index, (await readFile(index, "utf8")).replace("<title>Reconcile Playground", "<title>Reconcile Playground v2"));
  const worker = join(root, "sw.js");
  const text = await readFile(worker, "utf8");
  const build = JSON.parse(text.match(/const BUILD = (\{.*\});/)[1]);
  build.version = `${build.version}-v2`;
  // The worker checks no HTML page's contents (hosts may rewrite them), so any new revision will do.
  build.files.find((file) => file.path === "index.html").revision = "0000000000000002";
  await writeFile(worker, text.replace(/const BUILD = \{.*\};/, `const BUILD = ${JSON.stringify(build)};`));
  return build.version;
}

test("a new version waits, is offered, and takes over on Reload with the typed text kept", async ({ page }) => {
  test.setTimeout(60_000);
  const site = await siteCopy();
  try {
    await visitUntilControlled(page, site.url);
    const version = await deployNewVersion(site.root);
    // The old worker still serves the old page; the browser finds the new one meanwhile.
    await page.reload();
    await expect(page).toHaveTitle("Reconcile Playground");
    await expect(updateNotice(page)).toContainText("A new version of the playground is available", { timeout: 20_000 });
    await typeInto(page, "Desired state", '{"typed": {"replicas": 7}}');
    await expect(actionItems(page).first()).toHaveText(/CREATE\s*typed/);
    await updateNotice(page).getByRole("button", { name: "Reload" }).click();
    await expect(page).toHaveTitle("Reconcile Playground v2");
    await expect(editor(page, "Desired state")).toHaveValue('{"typed": {"replicas": 7}}');
    await expect(updateNotice(page)).toHaveCount(0);
    // One cache left, the new version's: nothing of the old one can be served again.
    const caches = await page.evaluate(() => caches.keys());
    expect(caches).toHaveLength(1);
    expect(caches[0].endsWith(` ${version}`)).toBe(true);
  } finally {
    await site.close();
  }
});

test("an older page never gets a newer deploy's module: the download fails and the update is offered", async ({ page }) => {
  test.setTimeout(60_000);
  const site = await siteCopy();
  try {
    await visitUntilControlled(page, site.url);
    // A deploy changes the YAML module the old page has not used yet.
    const module = join(site.root, "pkg", "reconcile_yaml.js");
    await writeFile(module, `${await readFile(module, "utf8")}\n// v2\n`);
    await deployNewVersion(site.root);
    await paste(page, "Desired state", "web:\n  replicas: 2\n");
    await expect(page.locator(".yaml-status")).toContainText(/could not|failed/i, { timeout: 20_000 });
    await expect(updateNotice(page)).toContainText("A new version of the playground is available", { timeout: 20_000 });
  } finally {
    await site.close();
  }
});

test("a worker with no list (a debug build's sw.js) retires: its caches go and it unregisters", async ({ page }) => {
  test.setTimeout(60_000);
  const site = await siteCopy();
  try {
    await visitUntilControlled(page, site.url);
    await writeFile(join(site.root, "sw.js"), await readFile(new URL("../static/sw.js", import.meta.url), "utf8"));
    // The reload is only what makes the browser look for a new sw.js; the retiring worker
    // may delete the caches while the old one still serves this load, so no wait for "load".
    await page.reload({ waitUntil: "commit", timeout: 20_000 });
    await expect.poll(() => page.evaluate(() => navigator.serviceWorker.getRegistrations().then((all) => all.length)), { timeout: 20_000 }).toBe(0);
    await expect.poll(() => page.evaluate(() => caches.keys())).toEqual([]);
  } finally {
    await site.close();
  }
});
