// "Your reconcile": the learner writes reconcile, Check runs it in the sandbox
// on the editors' scenario and generated cases, and shows a minimal counterexample.
import { readFileSync } from "node:fs";
import { RIGHT_RECONCILE } from "../bench/learner-reconcile.mjs";

const RIGHT_PYTHON = readFileSync(new URL("../bench/learner-reconcile.py", import.meta.url), "utf8");
import { test, expect, editor, actionItems, autosaved, MARKER, listenForMarker, heardMarker, frameOf } from "./fixtures.mjs";

const port = Number(process.env.PORT ?? 4173);
const code = (page) => page.getByRole("textbox", { name: /^Your reconcile, in / });
const status = (page) => page.locator(".exercise-pane .check-status");

/** Replaces the learner's code (fill, as a paste would). */
async function write(page, source) {
  await code(page).fill(source);
}

/** The classic wrong solutions: each a change to the right one, and what the check must say. */
const WRONG = [
  {
    what: "JavaScript's default sort(), by UTF-16",
    source: RIGHT_RECONCILE.replaceAll(".sort(byCodePoint)", ".sort()"),
    rule: /^the order is wrong/,
    notes: ["utf16-order"],
    // U+E000 shows as an empty box or nothing: the counterexample shows it escaped.
    escaped: "\\uE000",
  },
  {
    what: "=== on specs, so every spec looks drifted",
    source: RIGHT_RECONCILE.replace("!equal(desired[name], observed[name])", "desired[name] !== observed[name]"),
    rule: /is not expected: identical specs produce no action/,
    notes: ["js-identity"],
  },
  {
    what: "comparing with JSON.stringify, which minds member order",
    source: RIGHT_RECONCILE.replace("!equal(desired[name], observed[name])", "JSON.stringify(desired[name]) !== JSON.stringify(observed[name])"),
    rule: /is not expected: identical specs produce no action/,
    notes: ["text-differs"],
  },
  {
    what: "ignoring finalizers",
    source: RIGHT_RECONCILE.replace("pending.length ? \"FINALIZE\" : \"DELETE\"", "\"DELETE\""),
    rule: /still has pending finalizers: FINALIZE, not DELETE/,
    notes: [],
  },
  {
    what: "an empty finalizer list treated as pending",
    source: RIGHT_RECONCILE.replace("out.push([pending.length", "if (finalizers && Object.hasOwn(finalizers, name)) { out.push([\"FINALIZE\", name, null]); continue; }\n    out.push([pending.length"),
    rule: /finalizer list is empty, so nothing is pending: DELETE, not FINALIZE/,
    notes: [],
  },
  {
    what: "FINALIZE for a name still desired that has finalizers",
    source: RIGHT_RECONCILE.replace(
      "  for (const name of Object.keys(observed).sort(byCodePoint)) {",
      "  for (const name of Object.keys(desired).sort(byCodePoint)) if (Object.hasOwn(observed, name) && finalizers && Object.hasOwn(finalizers, name) && finalizers[name].length) out.push([\"FINALIZE\", name, null]);\n  for (const name of Object.keys(observed).sort(byCodePoint)) {",
    ),
    rule: /is still desired, and finalizers only affect deletion candidates/,
    notes: [],
  },
  {
    what: "all actions sorted together",
    source: RIGHT_RECONCILE.replace("  return out;\n}", "  return out.sort((a, b) => byCodePoint(a[1], b[1]));\n}"),
    rule: /^the order is wrong/,
    notes: [],
  },
  {
    what: "`name in observed`, true for constructor on every object",
    source: RIGHT_RECONCILE.replace("!Object.hasOwn(observed, name)", "!(name in observed)").replace("Object.hasOwn(desired, name)", "name in desired"),
    rule: /./,
    notes: ["js-inherited-name"],
  },
];

test("a right JavaScript reconcile passes in the pane; the page's first view loaded none of the pane and none of the checker", async ({ page }) => {
  const requests = [];
  page.on("request", (request) => requests.push(new URL(request.url()).pathname));
  await page.goto("/");
  await expect(actionItems(page).first()).toBeVisible();
  expect(requests.filter((path) => /reconcile_exercise_ui/.test(path))).toEqual([]);
  await page.getByRole("button", { name: "Your reconcile" }).click();
  await expect(code(page)).toBeVisible();
  expect(requests.filter((path) => /reconcile_exercise_ui/.test(path)).sort()).toEqual([
    "/pkg/reconcile_exercise_ui.css",
    "/pkg/reconcile_exercise_ui.js",
    "/pkg/reconcile_exercise_ui_bg.wasm",
  ]);
  // Its stylesheet came with it.
  await expect(page.locator(".code-editor")).toHaveCSS("display", "flex");
  expect(requests.filter((path) => /reconcile_check|sandbox|reconcile\.js/.test(path))).toEqual([]);
  await page.getByLabel("Language").selectOption("javascript");
  await write(page, RIGHT_RECONCILE);
  await page.getByRole("button", { name: "Check", exact: true }).click();
  await expect(status(page)).toHaveText(/^Passed: all 501 cases give the contract's actions/, { timeout: 20_000 });
  await expect(page.locator(".counterexample")).toHaveCount(0);
});

test.describe("a failed download", () => {
  // Playwright's routes miss what a service worker fetches for the page; the
  // worker's own failures are offline.spec.mjs's.
  test.use({ expectedProblems: /^console error: Failed to load resource: net::ERR_FAILED$/, serviceWorkers: "block" });
  for (const file of ["reconcile_exercise_ui.js", "reconcile_exercise_ui_bg.wasm", "reconcile_exercise_ui.css"]) {
    test(`of the pane (${file}) says so, and Try again loads it`, async ({ page }) => {
      let fail = true;
      await page.route(`**/pkg/${file}`, (route) => (fail ? route.abort() : route.continue()));
      await page.goto("/");
      await expect(actionItems(page).first()).toBeVisible();
      await page.getByRole("button", { name: "Your reconcile" }).click();
      await expect(page.locator(".exercise-loading[role=alert]")).toContainText("Your reconcile could not be loaded");
      fail = false;
      await page.getByRole("button", { name: "Try again" }).click();
      await expect(code(page)).toHaveValue(/^def reconcile\(desired, observed, finalizers=None\):/);
      await expect(page.locator(".exercise-loading")).toHaveCount(0);
    });
  }
});

test("the pane's yew app numbers its DOM tree apart from the page's, so neither runs the other's listeners", async ({ page }) => {
  // Both apps mark elements with a tree number under one JS property, each
  // counting from 1; the page's handler on <body> sees the pane's events too.
  await page.goto("/?exercise=reconcile&lang=javascript");
  await expect(code(page)).toBeVisible();
  const [body, pane] = await page.evaluate(() => [document.body.__yew_subtree_id, document.querySelector(".exercise-host").__yew_subtree_id]);
  expect(body).toBeGreaterThan(0);
  expect(pane).toBeGreaterThan(body);
  // A click in the pane does what the pane says and nothing of the page's.
  await write(page, RIGHT_RECONCILE);
  await page.getByRole("button", { name: "Start over" }).click();
  await expect(code(page)).toHaveValue(/Your turn/);
  await expect(page.locator(".notice")).toHaveCount(0);
  await expect(actionItems(page)).toHaveCount(3);
});

test("closed and opened again, the pane still shows its result; the page keeps the code meanwhile", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("button", { name: "Your reconcile" }).click();
  await page.getByLabel("Language").selectOption("javascript");
  await write(page, RIGHT_RECONCILE);
  await page.getByRole("button", { name: "Check", exact: true }).click();
  await expect(status(page)).toHaveText(/^Passed/, { timeout: 20_000 });
  await page.getByRole("button", { name: "Close Your reconcile" }).click();
  await expect(page.getByRole("region", { name: "Your reconcile" })).toHaveCount(0);
  await expect.poll(() => autosaved(page)).toContain("byCodePoint");
  await page.getByRole("button", { name: "Your reconcile" }).click();
  await expect(status(page)).toHaveText(/^Passed/);
  await expect(code(page)).toHaveValue(RIGHT_RECONCILE);
});

test("code the page puts back while the pane is open (Restore your last session) shows in the pane", async ({ page }) => {
  await page.goto("/?exercise=reconcile&lang=javascript");
  await write(page, "// the link's\n");
  await page.keyboard.press("Control+s");
  const link = await page.evaluate(() => location.href.replace(/\?[^#]*/, ""));
  await write(page, "// mine\n");
  await expect.poll(() => autosaved(page)).toContain("// mine");
  await page.goto("about:blank");
  await page.goto(link);
  await expect(code(page)).toHaveValue("// the link's\n");
  await page.getByRole("button", { name: "Restore your last session" }).click();
  await expect(code(page)).toHaveValue("// mine\n");
  // And the pane's edits go on reaching the page: a reload keeps them.
  await write(page, "// mine, then more\n");
  await expect.poll(() => autosaved(page)).toContain("// mine, then more");
  await page.reload();
  await expect(code(page)).toHaveValue("// mine, then more\n");
});

for (const wrong of WRONG) {
  test(`a wrong reconcile, ${wrong.what}: the check names the rule and the minimal counterexample`, async ({ page }) => {
    await page.goto("/?exercise=reconcile&lang=javascript");
    await write(page, wrong.source);
    await page.getByRole("button", { name: "Check", exact: true }).click();
    await expect(status(page)).toHaveText(/^Failed:/, { timeout: 20_000 });
    const found = page.locator(".counterexample");
    await expect(found.locator(".rule")).toHaveText(wrong.rule);
    // The notes include the one about this trap (a spec equal as JSON but not as
    // text is also not ===, so one case can bear two notes).
    const notes = await found.locator(".equality-note").evaluateAll((asides) => asides.map((a) => a.dataset.note));
    if (wrong.notes.length === 0) expect(notes).toEqual([]);
    else expect(notes).toEqual(expect.arrayContaining(wrong.notes));
    // Something is marked on one side or the other.
    await expect(found.locator(".mark-missing, .mark-unexpected, .mark-moved").first()).toBeVisible();
    if (wrong.escaped) {
      await expect(found.locator(".counterexample-input")).toContainText(wrong.escaped);
      await expect(found.locator(".action-lists")).toContainText(wrong.escaped);
      expect((await found.locator(".counterexample-input, .action-lists").allTextContents()).join("")).not.toContain("\uE000");
      await expect(found.locator(".escapes-note")).toContainText(`${wrong.escaped} is a private-use character`);
    }
  });
}

test("a counterexample loads into the editors in one click, and the plan there is the expected list", async ({ page }) => {
  await page.goto("/?exercise=reconcile&lang=javascript");
  await write(page, WRONG[3].source);
  await page.getByRole("button", { name: "Check", exact: true }).click();
  const found = page.locator(".counterexample");
  await expect(found).toBeVisible({ timeout: 20_000 });
  const expected = await found.getByRole("list", { name: "Expected (the contract)" }).locator("li code").allTextContents();
  await found.getByRole("button", { name: "Load into the editors" }).click();
  const plan = await actionItems(page).evaluateAll((items) =>
    items.map((li) => `${li.querySelector(".kind").textContent} ${li.querySelector(".name").textContent}`),
  );
  // The pane shows what is hard to see escaped (\uE000); the editors' plan shows the names as they are.
  const unescaped = (text) => text.replace(/\\u([0-9A-F]{4})/g, (_, hex) => String.fromCharCode(parseInt(hex, 16)));
  expect(plan).toEqual(expected.map((text) => unescaped(text).split(" ").slice(0, 2).join(" ")));
  // The documents it replaced (the seed example, unedited) needed no keeping; the code stays.
  await expect(code(page)).toHaveValue(WRONG[3].source);
});

test("the code survives a reload and travels in a share link; another language keeps its own draft", async ({ page, browser }) => {
  await page.goto("/?exercise=reconcile&lang=javascript");
  await write(page, RIGHT_RECONCILE);
  await page.getByLabel("Language").selectOption("python");
  await expect(code(page)).toHaveValue(/^def reconcile\(desired, observed, finalizers=None\):/);
  await page.getByLabel("Language").selectOption("javascript");
  await expect(code(page)).toHaveValue(RIGHT_RECONCILE);
  await expect.poll(() => autosaved(page)).toContain('"language":"javascript"');
  // The language is saved before the code: wait for the code too.
  await expect.poll(() => autosaved(page)).toContain(JSON.stringify(RIGHT_RECONCILE).slice(1, -1));
  await page.reload();
  await expect(code(page)).toHaveValue(RIGHT_RECONCILE);
  await page.keyboard.press("Control+s");
  const link = await page.evaluate(() => location.href);
  expect(link).toMatch(/#v2\//);
  const fresh = await (await browser.newContext()).newPage();
  await fresh.goto(link.replace(/\?[^#]*/, ""));
  await expect(code(fresh)).toHaveValue(RIGHT_RECONCILE);
  // Nothing ran: code from a link waits for Check.
  await expect(fresh.locator(".exercise-pane .check-status")).toHaveText("");
});

test("Start over keeps the code it replaced, one click away", async ({ page }) => {
  await page.goto("/?exercise=reconcile&lang=javascript");
  await write(page, RIGHT_RECONCILE);
  await page.getByRole("button", { name: "Start over" }).click();
  await expect(code(page)).toHaveValue(/Your turn/);
  await page.getByRole("button", { name: "Bring back my code" }).click();
  await expect(code(page)).toHaveValue(RIGHT_RECONCILE);
});

test("an endless loop is stopped with a message, and the page stays responsive", async ({ page }) => {
  await page.goto("/?exercise=reconcile&lang=javascript");
  await write(page, "export function reconcile() { while (true) {} }");
  await page.getByRole("button", { name: "Check", exact: true }).click();
  await expect(page.getByRole("button", { name: "Checking…" })).toHaveAttribute("aria-disabled", "true");
  // While it spins in the sandbox, the page still answers typing.
  await editor(page, "Desired state").fill('{"typed-meanwhile": 1}');
  await expect(actionItems(page).first()).toContainText("typed-meanwhile");
  await expect(status(page)).toHaveText(/could not be run: .*more than 2 seconds/, { timeout: 20_000 });
});

test("Stop ends a Check and a run in the loop: each says the learner stopped it, and the next Check works", async ({ page }) => {
  await page.goto("/?exercise=reconcile&lang=javascript");
  // A top level that prints, then spins 1.9 s (under the 2 s limit): Stop comes first.
  const slow = `console.log("loading");\nconst until = Date.now() + 1900;\nwhile (Date.now() < until) {}\n${RIGHT_RECONCILE}`;
  await write(page, slow);
  const check = page.locator(".exercise-pane .check-button");
  const stop = page.getByRole("button", { name: "Stop", exact: true });
  await check.click();
  await stop.click();
  await expect(status(page)).toHaveText("Stopped: you stopped the check before it ended. Your code is as you left it.");
  await expect(check).toBeFocused();
  await expect(code(page)).toHaveValue(slow);
  await page.getByRole("button", { name: "Run in the loop" }).click();
  await stop.click();
  await expect(page.locator(".exercise-pane .loop-status")).toHaveText(/^Stopped: you stopped the run before it ended\./);
  await expect(stop).toHaveCount(0);
  // A fresh worker: the next Check runs to its end.
  await write(page, RIGHT_RECONCILE);
  await check.click();
  await expect(status(page)).toHaveText(/^Passed/, { timeout: 20_000 });
});

test("an exception shows the learner's line", async ({ page }) => {
  await page.goto("/?exercise=reconcile&lang=javascript");
  await write(page, "export function reconcile(desired) {\n  const x = null;\n  return x.length;\n}\n");
  await page.getByRole("button", { name: "Check", exact: true }).click();
  const found = page.locator(".counterexample");
  await expect(found.locator(".rule")).toHaveText(/^reconcile raised an error: TypeError: .*\(line 3\)/, { timeout: 20_000 });
});

test("console output is shown with the case it came from", async ({ page }) => {
  await page.goto("/?exercise=reconcile&lang=javascript");
  await write(page, RIGHT_RECONCILE.replace("const out = [];", "const out = []; console.log('names', Object.keys(desired).length);"));
  await page.getByRole("button", { name: "Check", exact: true }).click();
  await expect(status(page)).toHaveText(/^Passed/, { timeout: 20_000 });
  await page.getByText(/^Output of your code \(\d+ lines\)/).click();
  await expect(page.locator(".learner-output pre")).toContainText("[case 1] names");
});

test("in a course page's frame, the result goes to the page on the origin allow= names, and to no other", async ({ page }) => {
  const run = async (allow) => {
    const src = `http://127.0.0.1:${port}/?embed&exercise=reconcile&lang=javascript${allow ? `&allow=${encodeURIComponent(allow)}` : ""}`;
    await page.goto(`http://localhost:${port}/__e2e/host.html?src=${encodeURIComponent(src)}&height=900`);
    const frame = page.frameLocator("#pg");
    await frame.getByRole("textbox", { name: /^Your reconcile, in / }).fill(WRONG[0].source);
    await frame.getByRole("button", { name: "Check", exact: true }).click();
    await expect(frame.locator(".check-status")).toHaveText(/^Failed/, { timeout: 20_000 });
    // The result, if sent, was posted before "Failed" showed; a marker the frame posts now arrives after it.
    await listenForMarker(page);
    await (await frameOf(page)).evaluate((marker) => parent.postMessage(marker, "*"), MARKER);
    await heardMarker(page);
    return page.evaluate(() => window.checked);
  };
  const delivered = await run(`http://localhost:${port}`);
  expect(delivered).toHaveLength(1);
  // In the envelope (version 1), with the fields listeners read before it.
  expect(delivered[0]).toMatchObject({ type: "reconcile-playground:checked", version: 1, passed: false });
  expect(delivered[0].total).toBeGreaterThan(1);
  expect(delivered[0].counterexample.notes.map((n) => n.note)).toEqual(["utf16-order"]);
  expect(await run("http://evil.example")).toEqual([]);
  expect(await run(null)).toEqual([]);
});

test("in the loop: a right reconcile converges, is idempotent and survives a restart", async ({ page }) => {
  await page.goto("/?exercise=reconcile&lang=javascript");
  await write(page, RIGHT_RECONCILE);
  await page.getByRole("button", { name: "Run in the loop" }).click();
  const verdicts = page.getByRole("list", { name: "Your reconcile in the loop" }).locator("li");
  await expect(verdicts).toHaveText([/^Converged after \d+ pass/, /^Idempotent: /, /^Survives a restart: /], { timeout: 30_000 });
  await expect(verdicts.locator(".failed, :scope.failed")).toHaveCount(0);
});

test("in the loop: a reconcile that always creates is neither converging nor idempotent, in the simulation's words", async ({ page }) => {
  await page.goto("/?exercise=reconcile&lang=javascript");
  await write(page, "export function reconcile(desired) {\n  return Object.keys(desired).sort().map((name) => [\"CREATE\", name, desired[name]]);\n}\n");
  await page.getByRole("button", { name: "Run in the loop" }).click();
  const verdicts = page.getByRole("list", { name: "Your reconcile in the loop" }).locator("li");
  await expect(verdicts).toHaveCount(3, { timeout: 30_000 });
  await expect(verdicts.nth(0)).toHaveText(/^Not converging/);
  await expect(verdicts.nth(0)).toHaveClass(/failed/);
  await expect(verdicts.nth(1)).toHaveText(/^Not idempotent: run again on the state its own actions produce, reconcile returns CREATE a/);
});

test("in the loop: a malformed answer ends the run with core's message", async ({ page }) => {
  await page.goto("/?exercise=reconcile&lang=javascript");
  await write(page, "export function reconcile() {\n  return [[\"REMOVE\", \"a\", null]];\n}\n");
  await page.getByRole("button", { name: "Run in the loop" }).click();
  await expect(page.locator(".loop-status")).toHaveText(/^In the loop: Returned actions: line 1, column \d+ at \$\[0\]\[0\]: .*REMOVE/, { timeout: 30_000 });
});

test.describe("in Python (real CPython, through Pyodide)", () => {
  // Pyodide starts in a few seconds on a busy machine; each test starts it once.
  test.setTimeout(90_000);

  test("the starter is the exercise's signature; a right reconcile passes, after Pyodide's download shows its progress", async ({ page }) => {
    await page.goto("/?exercise=reconcile&lang=python");
    await expect(code(page)).toHaveValue(/^def reconcile\(desired, observed, finalizers=None\):/);
    await write(page, RIGHT_PYTHON);
    await page.getByRole("button", { name: "Check", exact: true }).click();
    await expect(page.locator("#runtime-progress")).toBeVisible();
    await expect(status(page)).toHaveText(/^Passed: all 501 cases/, { timeout: 60_000 });
  });

  test("Python's True == 1 misses an UPDATE: the counterexample says so, as a lesson", async ({ page }) => {
    await page.goto("/?exercise=reconcile&lang=python");
    await write(page, RIGHT_PYTHON.replace("elif not same(desired[name], observed[name]):", "elif desired[name] != observed[name]:"));
    await page.getByRole("button", { name: "Check", exact: true }).click();
    const found = page.locator(".counterexample");
    await expect(found).toBeVisible({ timeout: 60_000 });
    await expect(found.locator(".rule")).toHaveText(/missing/);
    await expect(found.locator(".equality-note")).toHaveAttribute("data-note", "python-bool-is-int");
    await expect(found.locator(".equality-note")).toContainText("True == 1");
  });

  test("an exception shows the Python traceback with the learner's line, and print() is shown", async ({ page }) => {
    await page.goto("/?exercise=reconcile&lang=python");
    await write(page, "def reconcile(desired, observed, finalizers=None):\n    print('seen', len(desired))\n    return [('CREATE', n, desired[n]) for n in sorted(desired)] + [observed['missing']]\n");
    await page.getByRole("button", { name: "Check", exact: true }).click();
    const found = page.locator(".counterexample");
    await expect(found.locator(".rule")).toHaveText(/^reconcile raised an error: KeyError: .*line 3/, { timeout: 60_000 });
    await page.getByText(/^Output of your code/).click();
    await expect(page.locator(".learner-output pre")).toContainText("seen");
  });

  test("in the loop, a right Python reconcile gets the three good verdicts", async ({ page }) => {
    await page.goto("/?exercise=reconcile&lang=python");
    await write(page, RIGHT_PYTHON);
    await page.getByRole("button", { name: "Run in the loop" }).click();
    const verdicts = page.getByRole("list", { name: "Your reconcile in the loop" }).locator("li");
    await expect(verdicts).toHaveText([/^Converged after/, /^Idempotent: /, /^Survives a restart: /], { timeout: 60_000 });
  });

  test("code that reaches for the page's storage or DOM gets nothing", async ({ page }) => {
    await page.goto("/?exercise=reconcile&lang=python");
    await page.evaluate(() => localStorage.setItem("secret", "s3cret"));
    await write(page, [
      "import js",
      "def reconcile(desired, observed, finalizers=None):",
      "    for probe in ('localStorage', 'document', 'parent'):",
      "        try:",
      "            print(probe, getattr(js, probe).getItem('secret') if probe == 'localStorage' else getattr(js, probe))",
      "        except Exception as e:",
      "            print(probe, 'refused', type(e).__name__)",
      "    return []",
      "",
    ].join("\n"));
    await page.getByRole("button", { name: "Check", exact: true }).click();
    await expect(status(page)).toHaveText(/^Failed/, { timeout: 60_000 });
    await page.getByText(/^Output of your code/).click();
    const output = await page.locator(".learner-output pre").textContent();
    expect(output).not.toContain("s3cret");
    expect(output).toMatch(/localStorage refused/);
    expect(output).toMatch(/document refused/);
  });
});
