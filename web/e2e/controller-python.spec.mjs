// A learner's controller in Python (issue 30): checkController(source, { language: "python" })
// runs it with Pyodide in the sandbox's worker, next to the simulation, with the same client
// as JavaScript in snake_case. Each known bug must get the verdict its JavaScript twin gets.
import { test, expect } from "./fixtures.mjs";
import { checkSources, expectCaught, faults, probeReadings, recordTimes, withBug } from "./controller-sources.mjs";
import { EXERCISES, exercise } from "./controller-exercises.mjs";

const REFERENCE = exercise("owned-configmap").reference;
const python = { language: "python" };
// Each Python check starts Pyodide afresh (2–3.5 s here), and Python runs the learner's code slower.
test.describe.configure({ timeout: 240_000 });

const held = (check) => check.properties.map((property) => [property.name, property.held]);

/** Expects the Python check to reach its JavaScript twin's verdict: passed, properties, counterexample. */
function expectSameVerdict(py, js) {
  expect(py.rejected).toBeUndefined();
  expect(js.rejected).toBeUndefined();
  expect(py.passed).toBe(js.passed);
  expect(py.schedulesExplored).toBe(js.schedulesExplored);
  expect(held(py)).toEqual(held(js));
  expect(py.counterexample?.property).toBe(js.counterexample?.property);
  expect(faults(py)).toEqual(faults(js));
  expect(py.counterexample?.story).toEqual(js.counterexample?.story);
}

test("checkController(python): print reaches logs; the page's thread stays free", async ({ page }) => {
  const logged = withBug(REFERENCE.py, "def reconcile(request, client):\n", 'def reconcile(request, client):\n    print("reconcile", request["name"])\n');
  const [logs] = await checkSources(page, [{ source: logged, options: { ...python, budget: 5 } }]);
  expect(logs.passed).toBe(true);
  expect(logs.progress[0].phase).toBe("loading");
  expect(logs.progress.at(-1)).toEqual({ phase: "checking", explored: 5 });
  expect(logs.logs[0]).toEqual({ schedule: 0, level: "log", text: "reconcile blog" });
  expect(new Set(logs.logs.map((line) => line.schedule))).toEqual(new Set([0, 1, 2, 3, 4]));
  // Python runs in the sandbox's worker: the page's thread stays free.
  expect(Math.max(0, ...logs.longTasks)).toBeLessThan(200);
});

// Python reads the time through the worker's Date and performance: the simulated clock too.
test("checkController(python): time and datetime read the simulated clock", async ({ page }) => {
  const probe = `import json
import time
from datetime import datetime, timezone

loaded = time.time()


def reconcile(request, client):
    start = [time.time(), datetime.now(timezone.utc).timestamp(), time.monotonic()]
    client.get("Desired", request["name"], live=True)
    ms = lambda seconds: round(seconds * 1000)
    print(json.dumps({"loaded": ms(loaded), "start": [ms(s) for s in start], "after": ms(time.time()), "utc": datetime.now(timezone.utc).isoformat(timespec="milliseconds")}))
`;
  const [probed] = await checkSources(page, [{ source: probe, options: { exercise: "status", budget: 1, ...python } }]);
  for (const [reading, { startedAt, calls }] of probeReadings(expect, probed)) {
    expect(reading.loaded).toBe(0);
    expect(reading.start).toEqual([startedAt, startedAt, startedAt]);
    expect(reading.after).toBe(calls[0].answeredAt);
    expect(reading.utc).toBe(new Date(calls[0].answeredAt).toISOString().replace(/Z$/, "+00:00"));
  }
});

// Every exercise's Python reference passes the default budget (1,000 schedules); each known
// bug fails with its property and shrunk schedule, as its JavaScript twin does.
// The starter loads and runs without misuse; it is not the answer, so it fails.
for (const { name, starter, reference, bugs } of EXERCISES) {
  test(`checkController(python): ${name}: the starter runs, the reference passes, each known bug fails as in JavaScript`, async ({ page }, testInfo) => {
    const options = { exercise: name };
    const checks = await checkSources(page, [
      { source: starter.py, options: { ...options, ...python, budget: 5 } },
      { source: reference.py, options: { ...options, ...python } },
      ...bugs.map((bug) => ({ source: bug.py, options: { ...options, ...python } })),
      ...bugs.map((bug) => ({ source: bug.js, options })),
    ]);
    recordTimes(testInfo, checks, ["starter.py", "reference.py", ...bugs.map((bug) => `${bug.id}.py`), ...bugs.map((bug) => `${bug.id}.mjs`)]);
    const [started, passed, ...rest] = checks;
    expect(started.rejected).toBeUndefined();
    expect(started).toMatchObject({ exercise: name, passed: false });
    expect(passed.rejected).toBeUndefined();
    expect(passed).toMatchObject({ exercise: name, passed: true, schedulesExplored: 1000, counterexample: null, logs: [] });
    bugs.forEach((bug, index) => {
      expectCaught(expect, rest[index], bug);
      expectSameVerdict(rest[index], rest[bugs.length + index]);
    });
  });
}

test("checkController(python): bad modules and misuse get clear errors with the learner's line", async ({ page }) => {
  const module = (body, head = "from reconcile import ApiError, TerminalError") => `${head}\ndef reconcile(request, client):\n${body}\n`;
  const [noReconcile, syntax, oneArgument, raising, badKind, keyword, badType, camel, caught, badResult, unknown, instance, terminal, loop] = await checkSources(
    page,
    [
      { source: "from reconcile import ApiError\ndef reconcil(request, client):\n    pass\n" },
      { source: module("    if (") },
      { source: "def reconcile(request):\n    pass\n" },
      { source: "import reconcile\nraise KeyError('setting')\n" },
      { source: module('    client.get("Deployment", "web")') },
      { source: module('    client.list("ConfigMap", label={"app": "web"})') },
      { source: module('    client.get("Desired", 5)') },
      { source: module('    client.updateStatus({"kind": "Desired"})') },
      // Misuse ends the check even when the reconcile catches it: retrying cannot mend it.
      { source: module('    try:\n        client.create({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {}})\n    except Exception:\n        pass') },
      { source: module("    return 5") },
      { source: module("    pass"), options: { language: "ruby" } },
      {
        // The classes the learner imports are the ones the client raises.
        source: module('    try:\n        client.get("ConfigMap", "nowhere")\n    except ApiError as error:\n        if error.status != 404 or error.reason != "NotFound":\n            raise TerminalError("not a 404")\n        return {"requeue_after": 500}'),
        options: { budget: 3 },
      },
      { source: module('    raise TerminalError("cannot ever work")'), options: { budget: 1 } },
      { source: module('    client.get("Desired", request["name"])\n    if request["name"] == "shop":\n        while True:\n            pass') },
    ].map(({ source, options }) => ({ source, options: { ...python, ...options } })),
  );
  expect(noReconcile.rejected.message).toBe("your code does not define a function named reconcile (write `def reconcile(request, client):`)");
  expect(syntax.rejected.message).toMatch(/never closed \(line 3, column 8\)$/);
  expect(oneArgument.rejected.message).toBe("reconcile takes two arguments: write `def reconcile(request, client):` (line 1)");
  expect(raising.rejected.message).toBe("'setting' (line 2)");
  expect(badKind.rejected).toMatchObject({ method: "get", line: 3, message: 'client.get: this exercise has no kind "Deployment"; it has Desired, ConfigMap (line 3)' });
  expect(keyword.rejected).toMatchObject({ method: "list", line: 3, message: "client.list: unknown keyword label=; it takes labels=, namespace= (line 3)" });
  expect(badType.rejected.message).toBe('client.get: name is an int; expected a str, such as "web" (line 3)');
  expect(camel.rejected.message).toMatch(/^client\.updateStatus: there is no such method \(in Python, update_status\); it has get, list, .* \(line 3\)$/);
  expect(caught.rejected).toMatchObject({ method: "create", line: 4, message: "client.create: the ConfigMap has no metadata.name (line 4)" });
  expect(badResult.rejected.message).toBe('reconcile: it returned 5; return None, or {"requeue_after": ms} with ms a whole number of milliseconds, 0 or more (line 2)');
  expect(unknown.rejected.message).toBe('checkController: unknown language "ruby"; expected "javascript" or "python"');
  expect(instance.rejected).toBeUndefined();
  const outcomes = (check) => check.counterexample?.record.map((reconcile) => reconcile.outcome.kind) ?? [];
  expect(outcomes(instance)).not.toContain("terminal");
  expect(terminal.rejected).toBeUndefined();
  expect(terminal.passed).toBe(false);
  expect(JSON.stringify(terminal.counterexample.record)).toContain("TerminalError: cannot ever work");
  expect(loop.rejected.stopped).toMatchObject({ reason: "schedule", schedule: 0, step: { request: "shop", call: { method: "get", kind: "Desired", name: "shop" } } });
  expect(loop.rejected.message).toContain('in the reconcile of "shop" (its last client call was client.get("Desired", "shop"))');
});

// Every client call, with each keyword, in both languages: each prints its label and answer
// (or its ApiError's status and reason), and both must print the same lines.
const EVERY_CALL = {
  js: `import { ApiError } from "reconcile";
const sorted = (value) => Array.isArray(value) ? value.map(sorted) : value && typeof value === "object" ? Object.fromEntries(Object.keys(value).sort().map((key) => [key, sorted(value[key])])) : value;
function show(label, call) {
  try {
    console.log(label, "ok", JSON.stringify(sorted(call()) ?? null));
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    console.log(label, error.status, error.reason);
  }
}
export function reconcile(request, client) {
  if (request.name !== "blog") return;
  const name = "blog-config";
  const configMap = (data) => ({ apiVersion: "v1", kind: "ConfigMap", metadata: { name, labels: { app: "blog" } }, data });
  show("get", () => client.get("Desired", "blog").spec);
  show("get live", () => client.get("Desired", "blog", { live: true }).metadata.name);
  show("get namespace", () => client.get("Desired", "blog", { namespace: "default" }).metadata.namespace);
  show("list", () => client.list("Desired").map((o) => o.metadata.name).sort());
  show("create", () => client.create(configMap({ a: "1" })).data);
  show("list labels", () => client.list("ConfigMap", { labels: { app: "blog" }, namespace: "default" }).length);
  const live = client.get("ConfigMap", name, { live: true });
  live.data.b = "2";
  show("update", () => client.update(live).data);
  show("update stale", () => client.update(live).data);
  show("patch merge", () => client.patch("ConfigMap", name, { data: { c: "3" } }).data);
  show("patch json", () => client.patch("ConfigMap", name, [{ op: "add", path: "/data/d", value: "4" }], { type: "json" }).data);
  show("patch stale", () => client.patch("ConfigMap", name, { data: { e: "5" } }, { type: "merge", resourceVersion: live.metadata.resourceVersion }).data);
  show("apply", () => client.apply(configMap({ a: "9" }), { fieldManager: "learner", force: true }).data);
  const custom = client.get("Desired", "blog", { live: true });
  custom.status = { seen: "yes" };
  show("update status", () => client.updateStatus(custom).status);
  show("patch status", () => client.patchStatus("Desired", "blog", { status: { also: "this" } }).status);
  show("delete", () => client.delete("ConfigMap", name, { propagationPolicy: "Background" }));
  show("get deleted", () => client.get("ConfigMap", name, { live: true }));
  show("delete again", () => client.delete("ConfigMap", name));
}
`,
  py: `import json
from reconcile import ApiError


def show(label, call):
    try:
        print(label, "ok", json.dumps(call(), sort_keys=True, separators=(",", ":")))
    except ApiError as error:
        print(label, error.status, error.reason)


def reconcile(request, client):
    if request["name"] != "blog":
        return
    name = "blog-config"

    def config_map(data):
        return {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": name, "labels": {"app": "blog"}}, "data": data}

    show("get", lambda: client.get("Desired", "blog")["spec"])
    show("get live", lambda: client.get("Desired", "blog", live=True)["metadata"]["name"])
    show("get namespace", lambda: client.get("Desired", "blog", namespace="default")["metadata"]["namespace"])
    show("list", lambda: sorted(o["metadata"]["name"] for o in client.list("Desired")))
    show("create", lambda: client.create(config_map({"a": "1"}))["data"])
    show("list labels", lambda: len(client.list("ConfigMap", labels={"app": "blog"}, namespace="default")))
    live = client.get("ConfigMap", name, live=True)
    live["data"]["b"] = "2"
    show("update", lambda: client.update(live)["data"])
    show("update stale", lambda: client.update(live)["data"])
    show("patch merge", lambda: client.patch("ConfigMap", name, {"data": {"c": "3"}})["data"])
    show("patch json", lambda: client.patch("ConfigMap", name, [{"op": "add", "path": "/data/d", "value": "4"}], type="json")["data"])
    show("patch stale", lambda: client.patch("ConfigMap", name, {"data": {"e": "5"}}, type="merge", resource_version=live["metadata"]["resourceVersion"])["data"])
    show("apply", lambda: client.apply(config_map({"a": "9"}), field_manager="learner", force=True)["data"])
    custom = client.get("Desired", "blog", live=True)
    custom["status"] = {"seen": "yes"}
    show("update status", lambda: client.update_status(custom)["status"])
    show("patch status", lambda: client.patch_status("Desired", "blog", {"status": {"also": "this"}})["status"])
    show("delete", lambda: client.delete("ConfigMap", name, propagation_policy="Background"))
    show("get deleted", lambda: client.get("ConfigMap", name, live=True))
    show("delete again", lambda: client.delete("ConfigMap", name))
`,
};

test("checkController(python): every client call and keyword answers as in JavaScript", async ({ page }) => {
  const [py, js] = await checkSources(page, [
    { source: EVERY_CALL.py, options: { ...python, budget: 1, options: { maxPasses: 3 } } },
    { source: EVERY_CALL.js, options: { budget: 1, options: { maxPasses: 3 } } },
  ]);
  expect(py.rejected).toBeUndefined();
  expect(js.rejected).toBeUndefined();
  const lines = (check) => check.logs.filter((line) => line.schedule === 0).map((line) => line.text);
  const labels = lines(js).map((line) => line.split(/ (ok|\d{3}) /)[0]);
  expect(new Set(labels).size).toBe(17);
  expect(lines(py)).toEqual(lines(js));
});
