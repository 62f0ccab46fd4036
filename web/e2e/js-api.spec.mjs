// The JS API for course pages, as a course page imports it from the built site: /pkg/reconcile.js.
import { test, expect, typeInto } from "./fixtures.mjs";
import { readFileSync } from "node:fs";
import { RIGHT_RECONCILE } from "../bench/learner-reconcile.mjs";

const RIGHT_PYTHON = readFileSync(new URL("../bench/learner-reconcile.py", import.meta.url), "utf8");

/** The right Python reconcile with one line changed: a classic wrong solution. */
function wrongPython(find, replace) {
  if (!RIGHT_PYTHON.includes(find)) throw new Error(`learner-reconcile.py has no ${JSON.stringify(find)}`);
  return RIGHT_PYTHON.replace(find, replace);
}

test("the JS API at /pkg/reconcile.js reconciles, plans, simulates and throws the playground's errors", async ({
  page,
}) => {
  const fetched = [];
  page.on("request", (request) => fetched.push(new URL(request.url()).pathname));
  await page.goto("/");
  const bad = '{"b": {"replicas": 1},\n"c": [1,]}';
  const result = await page.evaluate(async (bad) => {
    const api = await import("/pkg/reconcile.js");
    await api.default();
    const thrown = (call) => {
      try {
        call();
        return null;
      } catch (error) {
        return { isError: error instanceof Error, message: error.message };
      }
    };
    const rejected = (promise) =>
      promise.then(
        () => null,
        (error) => ({ isError: error instanceof Error, message: error.message }),
      );
    const planned = {
      seed: api.reconcile({ a: { replicas: 1 }, b: { replicas: 3 } }, { b: { replicas: 1 }, c: { replicas: 1 } }),
      finalize: api.reconcile({}, { svc: { type: "LoadBalancer" } }, { svc: ["cloud/lb-cleanup"] }),
      fromText: api.reconcile('{"a": {"replicas": 1}}', '{"a": {"replicas": 1.0}}', null),
      order: api.reconcile({ "\u{1F680}": 1, "\uE000": 2 }, {}).map((action) => action[1]),
      jsOrder: ["\u{1F680}", "\uE000"].sort(),
      summaryText: api.plan({ a: 1 }, { a: 1, b: 2 }, { b: [] }).summaryText,
      badText: thrown(() => api.reconcile({}, bad)),
      badShape: thrown(() => api.reconcile([], {})),
    };
    // The simulation module is fetched on the first simulate call, not by init().
    const simulationFetchedEarly = performance
      .getEntriesByType("resource")
      .some((entry) => /\/reconcile_sim(_bg\.wasm|\.js)$/.test(entry.name));
    const simulated = await api.simulate(
      { desired: {}, observed: { ns: {} }, finalizers: { ns: ["kubernetes"] } },
      { stuckFinalizers: [{ object: "ns", finalizer: "kubernetes" }] },
    );
    return {
      ...planned,
      simulationFetchedEarly,
      verdictText: simulated.verdictText,
      verdictPasses: (await api.simulateVerdict({ desired: { a: 1 }, observed: {} })).passes,
      badOption: await rejected(api.simulate({ desired: {}, observed: {} }, { maxPases: 3 })),
    };
  }, bad);

  expect(result.simulationFetchedEarly).toBe(false);
  expect(fetched).toContain("/pkg/reconcile_sim_bg.wasm");

  expect(result.seed).toEqual([
    ["CREATE", "a", { replicas: 1 }],
    ["UPDATE", "b", { replicas: 3 }],
    ["DELETE", "c", null],
  ]);
  expect(result.finalize).toEqual([["FINALIZE", "svc", null]]);
  expect(result.fromText).toEqual([]);
  // Code-point order, which is not JavaScript's default sort.
  expect(result.order).toEqual(["\uE000", "\u{1F680}"]);
  expect(result.jsOrder).toEqual(["\u{1F680}", "\uE000"]);
  expect(result.summaryText).toBe("0 to create, 0 to update, 0 to finalize, 1 to delete");
  // One pass creates `a`; the next finds nothing to do.
  expect(result.verdictPasses).toBe(2);
  expect(result.verdictText).toBe("Not converging: ns is stuck terminating; finalizer kubernetes is never removed");
  expect(result.badText).toEqual({
    isError: true,
    message: "Observed state: line 2, column 9 at $.c[1]: trailing comma; expected another member or value after `,`",
  });
  expect(result.badShape?.isError).toBe(true);
  expect(result.badShape?.message).toMatch(
    /^Desired state: line 1, column \d+ at \$: expected an object of \{"name": spec\}, found an array$/,
  );
  expect(result.badOption?.isError).toBe(true);
  expect(result.badOption?.message).toMatch(/^Simulation options at \$: unknown option "maxPases"/);

  // The editor shows the same error for the same text.
  await typeInto(page, "Observed state", bad);
  await expect(page.locator("#observed-error")).toHaveText("Line 2, column 9 at $.c[1]: trailing comma; expected another member or value after `,`");
});

test("simulate() takes several custom resources: each key reconciled alone, errors located in the whole text", async ({ page }) => {
  await page.goto("/");
  const result = await page.evaluate(async () => {
    const api = await import("/pkg/reconcile.js");
    await api.default();
    const timeline = await api.simulate({
      customResources: [
        { name: "cache-a", desired: { "cache-a-0": { image: "redis:7" } }, observed: {} },
        { name: "cache-b", desired: { "cache-b-0": { image: "redis:7" } }, observed: { "cache-b-9": {} } },
      ],
    });
    const bad = '{"customResources": [\n  {"name": "a", "desired": {}, "observed": {"x": [1,]}}\n]}';
    const error = await api.simulate(bad).then(
      () => null,
      (e) => e.message,
    );
    return {
      verdict: timeline.verdict.verdict,
      keys: timeline.passes.map((pass) => pass.customResource),
      objects: Object.keys(timeline.passes.at(-1).worldAfter.observed),
      error,
    };
  });
  expect(result.verdict).toBe("converged");
  expect(result.keys.slice(0, 2)).toEqual(["cache-a", "cache-b"]);
  expect(result.objects).toEqual(["cache-a-0", "cache-b-0"]);
  expect(result.error).toBe(
    "Scenario: line 2, column 53 at $.customResources[0].observed.x[1]: trailing comma; expected another member or value after `,`",
  );
});

test("check() runs a learner's JavaScript reconcile in the sandbox: a right one passes, a wrong one gets its minimal counterexample", async ({ page }) => {
  await page.goto("/");
  const result = await page.evaluate(async (right) => {
    const api = await import("/pkg/reconcile.js");
    // The default sort(): UTF-16 code units.
    const wrong = right.replaceAll(".sort(byCodePoint)", ".sort()");
    const passed = await api.check(right);
    const failed = await api.check(wrong);
    const loops = await api.check("export function reconcile() { while (true) {} }").then(
      () => null,
      (error) => error.message,
    );
    return { passed, failed, loops };
  }, RIGHT_RECONCILE);
  expect(result.passed.passed).toBe(true);
  expect(result.passed.total).toBe(500);
  const found = result.failed.counterexample;
  expect(result.failed.passed).toBe(false);
  expect(found.rule).toMatch(/^the order is wrong/);
  expect(found.notes.map((n) => n.note)).toEqual(["utf16-order"]);
  expect(found.expected).toHaveLength(2);
  expect(found.expectedMarks).toEqual(["moved", "moved"]);
  expect(result.loops).toMatch(/2 s/);
});

test("check() and checkController(source) take a signal: aborted before or during, they reject with an AbortError; the next call works", async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto("/");
  const controller = readFileSync(new URL("../../crates/reconcile-content/exercises/controllers/owned-configmap/reference.mjs", import.meta.url), "utf8");
  const result = await page.evaluate(
    async ({ right, controller }) => {
      const api = await import("/pkg/reconcile.js");
      const rejection = (promise) =>
        promise.then(
          () => null,
          (error) => ({ dom: error instanceof DOMException, name: error.name, logs: error.logs, at: performance.now() }),
        );
      // Aborted before: it rejects at once, and nothing runs.
      const checkBefore = await rejection(api.check(right, { signal: AbortSignal.abort() }));
      const controllerBefore = await rejection(api.checkController(controller, { signal: AbortSignal.abort() }));

      // check() aborted while its worker runs a top level that spins 15 s (the
      // sandbox already started): the worker is ended, not waited for.
      await api.check(right);
      const spinning = `console.log("loading");\nconst until = Date.now() + 15000;\nwhile (Date.now() < until) {}\n${right}`;
      const seed = new AbortController();
      let seedAbortedAt = 0;
      setTimeout(() => ((seedAbortedAt = performance.now()), seed.abort()), 800);
      const checkDuring = await rejection(api.check(spinning, { signal: seed.signal }));
      const checkAfter = await api.check(right);

      // checkController(source) aborted once it has explored some schedules.
      const stop = new AbortController();
      let explored = 0;
      let abortedAt = 0;
      const onProgress = (progress) => {
        if (progress.phase !== "checking" || progress.explored === 0 || stop.signal.aborted) return;
        explored = progress.explored;
        abortedAt = performance.now();
        stop.abort();
      };
      const logged = `console.log("imported");\n${controller}`;
      const controllerDuring = await rejection(api.checkController(logged, { signal: stop.signal, onProgress }));
      const controllerAfter = await api.checkController(controller, { budget: 20 });
      return { checkBefore, controllerBefore, checkDuring, seedAbortedAt, checkAfter, controllerDuring, explored, abortedAt, controllerAfter };
    },
    { right: RIGHT_RECONCILE, controller },
  );
  const aborted = { dom: true, name: "AbortError" };
  expect(result.checkBefore).toMatchObject({ ...aborted, logs: [] });
  expect(result.controllerBefore).toMatchObject({ ...aborted, logs: [] });

  expect(result.checkDuring).toMatchObject(aborted);
  expect(result.checkDuring.logs.map((line) => line.text)).toContain("loading");
  // Long before the spin would end: a bound for a loaded machine, not a benchmark.
  expect(result.checkDuring.at - result.seedAbortedAt).toBeLessThan(8000);
  expect(result.checkAfter).toMatchObject({ passed: true, total: 500 });

  expect(result.controllerDuring).toMatchObject(aborted);
  expect(result.explored).toBeGreaterThan(0);
  expect(result.explored).toBeLessThan(1000);
  expect(result.controllerDuring.logs).toContainEqual({ schedule: expect.any(Number), level: "log", text: "imported" });
  // The relay asks its watcher where the check was (up to 500 ms), then ends it.
  expect(result.controllerDuring.at - result.abortedAt).toBeLessThan(8000);
  expect(result.controllerAfter).toMatchObject({ passed: true, schedulesExplored: 20 });
});

/** The right JavaScript reconcile with `find` replaced: a wrong one. */
function wrongJs(find, replace) {
  if (!RIGHT_RECONCILE.includes(find)) throw new Error(`learner-reconcile.mjs has no ${JSON.stringify(find)}`);
  return RIGHT_RECONCILE.replaceAll(find, replace);
}

test("check() finds JavaScript's traps and names them: inherited names, null specs, integer-like keys", async ({ page }) => {
  await page.goto("/");
  const sources = {
    // True for constructor, toString, __proto__... on every object.
    inOperator: wrongJs("!Object.hasOwn(observed, name)", "!(name in observed)").replace("Object.hasOwn(desired, name)", "name in desired"),
    // Not undefined for an inherited name either.
    undefinedCheck: wrongJs("!Object.hasOwn(observed, name)", "observed[name] === undefined"),
    // A null spec looks missing.
    looseNull: wrongJs("!Object.hasOwn(observed, name)", "(Object.hasOwn(observed, name) ? observed[name] : null) == null"),
    // The actions kept in an object by name: "9" comes before "10" and "".
    objectOrder: wrongJs("  return out;\n}", "  const byName = Object.create(null);\n  for (const action of out) byName[action[1]] = action;\n  return Object.values(byName);\n}"),
  };
  const result = await page.evaluate(async (sources) => {
    const api = await import("/pkg/reconcile.js");
    const out = {};
    for (const [name, source] of Object.entries(sources)) out[name] = await api.check(source);
    return out;
  }, sources);
  const notes = (name) => {
    expect(result[name].passed, name).toBe(false);
    return result[name].counterexample.notes;
  };
  const names = (name) => {
    const { desired, observed, finalizers } = result[name].counterexample;
    return [...Object.keys(desired), ...Object.keys(observed), ...Object.keys(finalizers ?? {})];
  };
  for (const name of ["inOperator", "undefinedCheck"]) {
    expect(notes(name).map((n) => n.note), name).toEqual(["js-inherited-name"]);
    expect(notes(name)[0].text).toContain("Object.hasOwn(observed, name)");
    expect(names(name).some((n) => ["constructor", "toString", "hasOwnProperty", "valueOf", "__proto__"].includes(n)), name).toBe(true);
  }
  expect(notes("looseNull").map((n) => n.note)).toEqual(["js-null-spec"]);
  expect(notes("looseNull")[0].text).toContain("null");
  expect(notes("objectOrder").map((n) => n.note)).toEqual(["js-integer-keys"]);
  expect(result.objectOrder.counterexample.rule).toMatch(/^the order is wrong/);
  expect(names("objectOrder").some((n) => /^(0|[1-9][0-9]*)$/.test(n))).toBe(true);
});

const STARTER_JS = readFileSync(new URL("../../crates/reconcile-content/exercises/starter.mjs", import.meta.url), "utf8");

test("the JavaScript starter holds no trap: it fails only for the work it leaves, UPDATE, FINALIZE and DELETE", async ({ page }) => {
  await page.goto("/");
  const result = await page.evaluate(async (source) => (await import("/pkg/reconcile.js")).check(source), STARTER_JS);
  const found = result.counterexample;
  expect(result.passed).toBe(false);
  expect(found.notes).toEqual([]);
  expect(found.rule).not.toMatch(/order/);
  // Its CREATEs are all right: what is missing is the rest.
  expect(found.expectedMarks).not.toContain("moved");
  expect(found.expected.filter(([kind]) => kind === "CREATE")).toEqual(found.actual.filter(([kind]) => kind === "CREATE"));
  expect(found.expected.some(([kind]) => kind !== "CREATE")).toBe(true);
});

test("check() runs a learner's Python reconcile with Pyodide in the sandbox: a right one passes, classic wrong ones get their counterexamples", async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto("/");
  const sources = {
    right: RIGHT_PYTHON,
    // Python's == takes True for 1.
    boolIsInt: wrongPython("elif not same(desired[name], observed[name]):", "elif desired[name] != observed[name]:"),
    // Comparing json.dumps text: member order and 1.0 against 1 count.
    textCompare: "import json\n" + wrongPython("elif not same(desired[name], observed[name]):", "elif json.dumps(desired[name]) != json.dumps(observed[name]):"),
    ignoresFinalizers: wrongPython("pending = finalizers.get(name) or []", "pending = []"),
    sortsAll: wrongPython("    return actions", "    return sorted(actions, key=lambda action: action[1])"),
    starter: readFileSync(new URL("../../crates/reconcile-content/exercises/starter.py", import.meta.url), "utf8"),
    // None both for a missing name and for a null spec.
    getNone: wrongPython("if name not in observed:", "if observed.get(name) is None:"),
    // False for 0, "", [], {} and False as well.
    truthiness: wrongPython("if name not in observed:", "if not observed.get(name):"),
    loops: "def reconcile(desired, observed, finalizers=None):\n    while True:\n        pass\n",
    syntax: "def reconcile(desired, observed, finalizers=None):\n    return [\n\n",
    raises: "def reconcile(desired, observed, finalizers=None):\n    return desired['a']\n",
  };
  const result = await page.evaluate(async (sources) => {
    const api = await import("/pkg/reconcile.js");
    const settle = (promise) => promise.then((value) => ({ value }), (error) => ({ error: error.message }));
    const out = {};
    for (const [name, source] of Object.entries(sources)) out[name] = await settle(api.check(source, { language: "python" }));
    return out;
  }, sources);
  const found = (name) => {
    expect(result[name].error, name).toBeUndefined();
    expect(result[name].value.passed, name).toBe(false);
    return result[name].value.counterexample;
  };
  expect(result.right.value).toMatchObject({ passed: true, total: 500 });

  const boolIsInt = found("boolIsInt");
  expect(boolIsInt.rule).toMatch(/^UPDATE ".*" is missing/);
  expect(boolIsInt.notes.map((n) => n.note)).toEqual(["python-bool-is-int"]);
  expect(boolIsInt.expected).toHaveLength(1);

  const textCompare = found("textCompare");
  expect(textCompare.rule).toMatch(/^UPDATE ".*" is not expected: identical specs produce no action/);
  expect(textCompare.notes.map((n) => n.note)).toEqual(["text-differs"]);
  expect(textCompare.actualMarks).toEqual(["unexpected"]);

  const ignoresFinalizers = found("ignoresFinalizers");
  expect(ignoresFinalizers.rule).toMatch(/FINALIZE, not DELETE$/);
  expect(ignoresFinalizers.expected).toEqual([["FINALIZE", expect.any(String), null]]);

  const sortsAll = found("sortsAll");
  expect(sortsAll.rule).toMatch(/^the order is wrong/);
  expect(sortsAll.notes).toEqual([]);
  expect(sortsAll.expectedMarks).toEqual(["moved", "moved"]);

  // The starter holds no trap: it fails only for the work it leaves.
  const starter = found("starter");
  expect(starter.notes).toEqual([]);
  expect(starter.rule).not.toMatch(/order/);
  expect(starter.expected.some(([kind]) => kind !== "CREATE")).toBe(true);

  const getNone = found("getNone");
  expect(getNone.notes.map((n) => n.note)).toEqual(["python-none-spec"]);
  expect(getNone.notes[0].text).toContain("name in observed");
  expect([...Object.values(getNone.desired), ...Object.values(getNone.observed)]).toContain(null);

  const truthiness = found("truthiness");
  expect(truthiness.notes.map((n) => n.note)).toEqual(["python-falsy-spec"]);
  // Shown with 0, not null, so that it reads as truthiness.
  expect([...Object.values(truthiness.desired), ...Object.values(truthiness.observed)]).toContain(0);

  const raises = found("raises");
  expect(raises.rule).toBe("reconcile raised an error: KeyError: 'a' (line 2)");

  expect(result.loops.error).toMatch(/^Your reconcile ran for more than 2 seconds on case 1 of \d+/);
  expect(result.syntax.error).toMatch(/ \(line 2\)$/);
});

const manifest = (name) => readFileSync(new URL(`../../crates/reconcile-yaml/tests/fixtures/${name}`, import.meta.url), "utf8");

test("the JS API reads YAML and real manifests, on demand: a Deployment, a LoadBalancer Service with its finalizer, a kubectl List", async ({ page }) => {
  await page.goto("/");
  const result = await page.evaluate(
    async ({ deployment, service, list, jsonList }) => {
      const api = await import("/pkg/reconcile.js");
      await api.default();
      const fetchedEarly = performance.getEntriesByType("resource").some((entry) => entry.name.includes("reconcile_yaml"));
      const rejected = (promise) => promise.then(() => null, (error) => error.message);
      return {
        fetchedEarly,
        apply: await api.reconcileYaml(deployment, service),
        read: await api.readDocuments("{}", service),
        listed: await api.readDocuments("{}", list),
        // `kubectl get -o json`: given as a string (JSON text) or as the value itself.
        jsonList: await api.planYaml(deployment, jsonList),
        jsonValue: await api.readDocuments("{}", JSON.parse(jsonList)),
        duplicate: await rejected(api.reconcileYaml("web:\n  replicas: 1\nweb:\n  replicas: 2\n", "{}")),
        trailingComma: await rejected(api.reconcileYaml('{"a": 1,}', "{}")),
        quoted: await api.toYaml({ enabled: "on", mode: "0777" }),
      };
    },
    {
      deployment: manifest("nginx-deployment.yaml"),
      service: manifest("service-loadbalancer.yaml"),
      list: manifest("kubectl-get-list.yaml"),
      jsonList: manifest("kubectl-get-deployments.json"),
    },
  );
  // The YAML module is not part of init()'s set.
  expect(result.fetchedEarly).toBe(false);
  expect(result.apply.map(([kind, name]) => `${kind} ${name}`)).toEqual([
    "CREATE Deployment/default/nginx-deployment",
    "FINALIZE Service/default/my-service",
  ]);
  // The Service's finalizer fills the finalizers document; server fields are set aside.
  expect(result.read.observedFormat).toBe("yaml");
  expect(result.read.scenario.finalizers).toEqual({ "Service/default/my-service": ["service.kubernetes.io/load-balancer-cleanup"] });
  const [svc] = result.read.observedManifests;
  expect(svc.setAside.metadata).toHaveProperty("uid");
  expect(svc.setAside.metadata).toHaveProperty("resourceVersion");
  expect(result.read.scenario.observed["Service/default/my-service"].metadata).not.toHaveProperty("uid");
  // A List: a cluster-scoped Namespace is Kind/name.
  expect(Object.keys(result.listed.scenario.observed)).toContain("Namespace/shop");
  // A JSON List reads as manifests, keyed the same, its finalizers moved out.
  expect(result.jsonList.summaryText).toBe("0 to create, 1 to update, 1 to finalize, 0 to delete");
  expect(result.jsonValue.observedFormat).toBe("json");
  expect(Object.keys(result.jsonValue.scenario.observed)).toEqual(["Deployment/default/nginx-deployment", "Deployment/default/redis"]);
  expect(result.jsonValue.scenario.finalizers).toEqual({ "Deployment/default/redis": ["example.com/backup"] });
  expect(result.jsonValue.observedManifests[1].setAside).toHaveProperty("status");
  expect(result.duplicate).toMatch(/line 3, column 1/i);
  // Text that starts with { is JSON, with JSON's errors.
  expect(result.trailingComma).toMatch(/Desired state: line 1/);
  // Strings YAML 1.1 would misread stay strings.
  expect(result.quoted).toContain('"on"');
  expect(result.quoted).toContain('"0777"');
});
