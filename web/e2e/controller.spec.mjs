// A learner's controller through the JS API: runController() drives
// `reconcile(request, client)` over the loop module's DrivenRun, with
// synchronous client calls (issue 30, step 1).
import { test, expect } from "./fixtures.mjs";
import { checkSources, expectCaught, probeReadings, recordTimes, withBug } from "./controller-sources.mjs";
import { EXERCISES, exercise, knownBug } from "./controller-exercises.mjs";

const REFERENCE = exercise("owned-configmap").reference.js;
const FINALIZING = exercise("external-finalizer").reference.js;
/** Known bug `id` of `name`, in JavaScript. */
const bugJs = (name, id) => knownBug(name, id).js;

/** The owned-configmap reference with one line changed, or `reference` so: a known bug. */
const buggy = (find, replace, reference = REFERENCE) => withBug(reference, find, replace);

/**
 * Opens a same-origin page without the site's Content-Security-Policy, so a
 * test may import a module from a Blob, as the sandbox's worker will.
 */
async function blankPage(page) {
  await page.route("**/controller-test.html", (route) =>
    route.fulfill({ contentType: "text/html", body: '<!doctype html><title>test</title><link rel="icon" href="data:,">' }),
  );
  await page.goto("/controller-test.html");
}

/**
 * Runs controllers, each the source of an ES module that imports from
 * "reconcile" and exports `reconcile`, with `runController`; resolves to each
 * run's result, or to `{ rejected: { name, message } }`.
 */
async function runAll(page, runs) {
  await blankPage(page);
  return page.evaluate(async (runs) => {
    const api = new URL("/pkg/reconcile.js", location.href).href;
    const { runController } = await import(api);
    const results = [];
    for (const { source, options } of runs) {
      const text = source.replace(/from "reconcile"/g, `from ${JSON.stringify(api)}`);
      const url = URL.createObjectURL(new Blob([text], { type: "text/javascript" }));
      const { reconcile } = await import(url);
      results.push(
        await runController(reconcile, options).catch((error) => ({
          rejected: { name: error.name, message: error.message, kind: error.kind, method: error.method },
        })),
      );
    }
    return results;
  }, runs);
}

const broken = (run) => run.properties.filter((property) => !property.held).map((property) => property.name);

test("runController: the reference owned-configmap controller converges and keeps every property", async ({ page }) => {
  const [run] = await runAll(page, [{ source: REFERENCE }]);
  expect(run.rejected).toBeUndefined();
  expect(broken(run)).toEqual([]);
  expect(run.passed).toBe(true);
  expect(run.exercise).toBe("owned-configmap");
  expect(run.end.kind).toBe("quiet");
  expect(run.properties.map((property) => property.name)).toEqual(["eventually stable", "safe", "idempotent once converged"]);
  // Its first reconcile: two cache reads (the ConfigMap is not there: 404), then a create.
  const [first] = run.record;
  expect(first.calls.map((call) => call.call.method)).toEqual(["get", "get", "create"]);
  expect(first.calls[1].answer.Err).toMatchObject({ kind: "api", status: 404, reason: "NotFound" });
  expect(first.calls[2].answer.Ok.metadata.ownerReferences[0]).toMatchObject({ kind: "Desired", name: first.name, controller: true });
  expect(first.outcome).toEqual({ kind: "done" });
  // One create per custom resource, and nothing more: resyncs of the converged world write nothing.
  const writes = run.record.flatMap((reconcile) => reconcile.calls).filter((call) => !["get", "list"].includes(call.call.method));
  expect(writes.map((call) => call.call.method)).toEqual(["create", "create"]);
  expect(run.record.filter((reconcile) => reconcile.convergedAtStart).length).toBeGreaterThanOrEqual(4);
});

test("runController: known bugs break their property; a drift finds the controller that only creates", async ({ page }) => {
  const [noOwner, blindUpdate, createOnly, createOnlyDrifted] = await runAll(page, [
    { source: bugJs("owned-configmap", "no-owner") },
    { source: bugJs("owned-configmap", "blind-update") },
    { source: bugJs("owned-configmap", "create-only") },
    {
      source: bugJs("owned-configmap", "create-only"),
      options: {
        options: {
          script: [{ afterPass: 4, event: { kind: "drift", name: "ConfigMap/default/shop-config", path: ["data", "color"], value: "red" } }],
        },
      },
    },
  ]);
  expect(broken(noOwner)).toEqual(["eventually stable", "safe"]);
  expect(noOwner.properties[1].detail).toBe("ConfigMap blog-config has no controller ownerReference to a custom resource");
  expect(noOwner.passed).toBe(false);
  expect(broken(blindUpdate)).toEqual(["idempotent once converged"]);
  expect(broken(createOnly)).toEqual([]);
  expect(broken(createOnlyDrifted)).toEqual(["eventually stable"]);
});

test("runController: errors, terminal errors and requeueAfter reach the queue; misuse names the call", async ({ page }) => {
  const module = (body) => `import { ApiError, TerminalError } from "reconcile";\nexport function reconcile(request, client) {\n${body}\n}`;
  const [terminal, requeue, thrown, nameless, caught, badKind, badResult, async] = await runAll(page, [
    { source: module(`throw new TerminalError("cannot ever work");`), options: { options: { maxPasses: 10 } } },
    { source: module(`return { requeueAfter: 500 };`), options: { options: { maxPasses: 6 } } },
    { source: module(`throw new Error("try again");`), options: { options: { maxPasses: 6 } } },
    { source: module(`client.create({ apiVersion: "v1", kind: "ConfigMap", metadata: {} });`) },
    {
      // Misuse ends the run even when the reconcile catches it: retrying cannot mend it.
      source: module(`try { client.get("ConfigMap", ""); } catch (error) { if (error instanceof ApiError) throw error; }`),
    },
    { source: module(`client.get("Deployment", "web");`) },
    { source: module(`return 5;`) },
    { source: module(`return Promise.resolve();`) },
  ]);
  const outcomes = (run) => [...new Set(run.record.map((reconcile) => reconcile.outcome.kind))];
  expect(outcomes(terminal)).toEqual(["terminal"]);
  expect(terminal.record[0].outcome.message).toBe("TerminalError: cannot ever work");
  // The gap between blog's first two reconciles: the next resync (the period is 1 s), a requeueAfter, or a backoff.
  const gap = (run) => {
    const [first, second] = run.record.filter((reconcile) => reconcile.name === "blog");
    return second.startedAt - first.startedAt;
  };
  expect(gap(terminal)).toBeGreaterThanOrEqual(900);
  expect(outcomes(requeue)).toEqual(["requeueAfter"]);
  expect(gap(requeue)).toBeGreaterThanOrEqual(500);
  expect(gap(requeue)).toBeLessThan(900);
  expect(outcomes(thrown)).toEqual(["error"]);
  expect(thrown.record[0].outcome.message).toBe("Error: try again");
  expect(gap(thrown)).toBeLessThan(100);
  expect(thrown.end.kind).toBe("limit");

  expect(nameless.rejected).toMatchObject({ kind: "misuse", method: "create" });
  expect(nameless.rejected.message).toBe("client.create: the ConfigMap has no metadata.name");
  expect(caught.rejected.message).toBe("client.get: the name is empty");
  expect(badKind.rejected.message).toBe('client.get: this exercise has no kind "Deployment"; it has Desired, ConfigMap');
  expect(badResult.rejected.message).toMatch(/^finish: expected nothing, .*; got 5$/);
  expect(async.rejected.message).toMatch(/reconcile returned a promise/);
});

test("the driven run takes bad input from JS with a clear error, never a panic", async ({ page }) => {
  await blankPage(page);
  const errors = await page.evaluate(async () => {
    const api = await import("/pkg/reconcile.js");
    const loop = await import("/pkg/reconcile_loop.js");
    await loop.default();
    const { DrivenRun } = loop;
    const message = (call) => {
      try {
        call();
        return null;
      } catch (error) {
        return error.message;
      }
    };
    const run = new DrivenRun("owned-configmap");
    const outside = message(() => run.call({ method: "get", kind: "Desired", name: "blog" }));
    const request = run.nextReconcile();
    const errors = {
      request,
      outside,
      unknownExercise: await api.runController(() => {}, { exercise: "replica" }).catch((error) => error.message),
      exerciseNotText: message(() => new DrivenRun(5)),
      badOption: await api.runController(() => {}, { options: { sed: 1 } }).catch((error) => error.message),
      notFunction: await api.runController("export function reconcile() {}").catch((error) => error.message),
      notObject: message(() => run.call(5)),
      noMethod: message(() => run.call({ kind: "ConfigMap" })),
      unknownMethod: message(() => run.call({ method: "watch" })),
      missingField: message(() => run.call({ method: "get", kind: "ConfigMap" })),
      wrongType: message(() => run.call({ method: "get", kind: "ConfigMap", name: 7 })),
      badFinish: message(() => run.finish({ requeueAfter: -5 })),
    };
    run.free();
    return errors;
  });
  expect(errors.request).toEqual({ name: "blog", namespace: "default" });
  expect(errors.outside).toBe("client.get: no reconcile is running");
  const exercises = "owned-configmap, external-finalizer, replicas, status, conflicts";
  expect(errors.unknownExercise).toBe(`no exercise "replica"; there are ${exercises}`);
  expect(errors.exerciseNotText).toBe(`no exercise named; there are ${exercises}`);
  expect(errors.badOption).toMatch(/^Simulation options at \$: unknown option "sed"; expected one of seed, /);
  expect(errors.notFunction).toMatch(/^runController: reconcile is not a function/);
  expect(errors.notObject).toBe("client.call: a client call is an object with a method, such as {\"method\": \"get\", ...}");
  expect(errors.noMethod).toBe(errors.notObject);
  expect(errors.unknownMethod).toMatch(/^client\.call: no method "watch"; the client has get, list, create/);
  expect(errors.missingField).toBe("client.get: missing field `name`");
  expect(errors.wrongType).toMatch(/^client\.get: invalid type: integer `7`, expected a string/);
  expect(errors.badFinish).toMatch(/^finish: requeueAfter is -5; expected a whole number/);
});

/**
 * Checks controllers with `checkController`, each process importing its
 * module afresh (a crash loses the process's memory); resolves to each
 * check's result and how many modules it loaded, or `{ rejected }`.
 */
async function checkAll(page, checks) {
  await blankPage(page);
  return page.evaluate(async (checks) => {
    const api = new URL("/pkg/reconcile.js", location.href).href;
    const { checkController } = await import(api);
    const results = [];
    for (const { source, options } of checks) {
      const text = source.replace(/from "reconcile"/g, `from ${JSON.stringify(api)}`);
      const url = URL.createObjectURL(new Blob([text], { type: "text/javascript" }));
      let loads = 0;
      const progress = [];
      const load = async () => (await import(`${url}#${++loads}`)).reconcile;
      const onProgress = ({ explored }) => progress.push(explored);
      const result = await checkController(load, { ...options, onProgress }).catch((error) => ({
        rejected: { name: error.name, message: error.message, method: error.method },
      }));
      results.push({ ...result, loads, progress });
    }
    return results;
  }, checks);
}

test("checkController: the reference survives every schedule; known bugs get a short, told counterexample", async ({ page }) => {
  const [reference, createOnly, memory, misuse] = await checkAll(page, [
    { source: REFERENCE },
    { source: bugJs("owned-configmap", "create-only") },
    // Remembers what it created, in the process's memory, before the create succeeded.
    { source: bugJs("owned-configmap", "memory"), options: { seed: 3 } },
    { source: buggy('client.get("Desired", request.name)', 'client.get("Desired")') },
  ]);
  expect(reference.rejected).toBeUndefined();
  expect(reference).toMatchObject({ exercise: "owned-configmap", passed: true, schedulesExplored: 1000, counterexample: null });
  expect(reference.properties.every((property) => property.held)).toBe(true);
  expect(reference.goal.length).toBeGreaterThan(10);
  // One fresh module a run, and one more for each crash.
  expect(reference.loads).toBeGreaterThan(1000);
  expect(reference.progress.at(-1)).toBe(1000);

  expect(createOnly.passed).toBe(false);
  expect(createOnly.counterexample.property).toBe("eventually stable");
  expect(createOnly.counterexample.schedule.map((placed) => placed.fault)).toContain("other-writer");
  expect(createOnly.counterexample.story.join(" ")).toContain("another writer");
  expect(createOnly.counterexample.record.length).toBeGreaterThan(0);

  expect(memory.passed).toBe(false);
  expect(memory.counterexample.schedule.length).toBeLessThanOrEqual(3);
  expect(memory.counterexample.story.length).toBe(memory.counterexample.schedule.length);

  expect(misuse.rejected.message).toContain("client.get");
});

test("checkController: a counterexample's link holds its replay (exercise, schedule, each reconcile's calls), never the code", async ({ page }) => {
  // No ownerReference: caught fault-free, so both checks are short.
  const noOwner = buggy("metadata: { name, ownerReferences: [owner] },", "metadata: { name },");
  const [checked] = await checkAll(page, [{ source: noOwner }]);
  const [fromSource] = await checkSources(page, [{ source: noOwner }]);
  for (const result of [checked, fromSource]) {
    expect(result.passed).toBe(false);
    expect(result.counterexample.link).toMatch(/^#v4\/[A-Za-z0-9_-]+$/);
    expect(result).not.toHaveProperty("replay");
  }
  expect(fromSource.counterexample.link).toBe(checked.counterexample.link);
  const opened = await page.evaluate(async (link) => {
    const base64 = link.slice("#v4/".length).replace(/-/g, "+").replace(/_/g, "/");
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
    return new Response(stream).text();
  }, checked.counterexample.link);
  expect(opened).not.toContain("function");
  const { replay, ...others } = JSON.parse(opened);
  expect(others).toEqual({});
  expect(replay.exercise).toBe("owned-configmap");
  expect(replay.script.schedule).toEqual(checked.counterexample.schedule);
  const calls = (record) => record.map(({ name, incarnation, calls, outcome }) => ({ name, incarnation, calls: calls.map((c) => c.call), outcome }));
  expect(replay.script.reconciles).toEqual(calls(checked.counterexample.record));

  // The page opens it in the simulation section (replay.spec.mjs has the views).
  // (From another page: a change of hash alone does not open a link.)
  await page.goto("about:blank");
  await page.goto(`/${checked.counterexample.link}`);
  await expect(page.locator(".replay-banner")).toContainText("A replay of a learner's controller on exercise owned-configmap");
});

// The learner's code reads the simulation's clock, not the machine's: a run is the same
// each time, and its replay (which runs no code) equals it.
test("checkController(source): Date and performance read the simulated clock; the same code gives the same record", async ({ page }) => {
  // Reads the clock at the top level, at the reconcile's start, and after a live read (a request, which takes time).
  const probe = `export const loaded = [Date.now(), performance.now(), new Date().getTime()];
export function reconcile(request, client) {
  const start = [Date.now(), new Date().getTime(), performance.now(), Date.parse(Date())];
  client.get("Desired", request.name, { live: true });
  console.log(JSON.stringify({ loaded, start, after: Date.now(), given: new Date(5).getTime(), isDate: new Date() instanceof Date && Date.name === "Date" }));
}
`;
  const timed = bugJs("status", "time-in-status");
  const [probed, first, second] = await checkSources(page, [
    { source: probe, options: { exercise: "status", budget: 1 } },
    { source: timed, options: { exercise: "status", seed: 3 } },
    { source: timed, options: { exercise: "status", seed: 3 } },
  ]);
  for (const [reading, { startedAt, calls }] of probeReadings(expect, probed)) {
    expect(reading.loaded).toEqual([0, 0, 0]);
    expect(reading.start).toEqual([startedAt, startedAt, startedAt, Math.floor(startedAt / 1000) * 1000]);
    expect(calls[0].answeredAt).toBeGreaterThan(calls[0].at);
    expect(reading.after).toBe(calls[0].answeredAt);
    expect([reading.given, reading.isDate]).toEqual([5, true]);
  }

  expectCaught(expect, first, knownBug("status", "time-in-status"));
  // Each status write carries the simulated time it was made at.
  const written = first.counterexample.record.flatMap((reconcile) => reconcile.calls).filter((call) => call.call.method === "updateStatus");
  expect(written.length).toBeGreaterThan(3);
  for (const call of written) expect(call.call.object.status.lastReconciled).toBe(new Date(call.at).toISOString());
  expect(new Set(written.map((call) => call.call.object.status.lastReconciled)).size).toBe(written.length);
  // Deterministic: the same code and seed give the same record, and so the same replay link.
  expect(second.counterexample.record).toEqual(first.counterexample.record);
  expect(second.counterexample.link).toBe(first.counterexample.link);
});

test("checkController(source): the learner's module runs in the sandbox, beside the simulation", async ({ page }) => {
  const logged = buggy("export function reconcile(request, client) {", 'export function reconcile(request, client) {\n  console.log("reconcile", request.name);');
  const [reference, createOnly, logs] = await checkSources(page, [
    { source: REFERENCE },
    { source: bugJs("owned-configmap", "create-only") },
    { source: logged, options: { budget: 5 } },
  ]);
  expect(reference.rejected).toBeUndefined();
  expect(reference).toMatchObject({ exercise: "owned-configmap", passed: true, schedulesExplored: 1000, counterexample: null, logs: [] });
  expect(reference.goal.length).toBeGreaterThan(10);
  expect(reference.progress.at(-1)).toEqual({ phase: "checking", explored: 1000 });

  expect(createOnly.passed).toBe(false);
  expect(createOnly.counterexample.property).toBe("eventually stable");
  expect(createOnly.counterexample.story.join(" ")).toContain("another writer");

  expect(logs.passed).toBe(true);
  expect(logs.logs[0]).toEqual({ schedule: 0, level: "log", text: "reconcile blog" });
  expect(new Set(logs.logs.map((line) => line.schedule))).toEqual(new Set([0, 1, 2, 3, 4]));
  // The check runs in the sandbox's worker: the page's thread stays free.
  expect(Math.max(0, ...reference.longTasks)).toBeLessThan(200);
});

test("checkController(source): bad modules, misuse and a loop that never ends get clear errors", async ({ page }) => {
  const module = (body, head = 'import { ApiError, TerminalError } from "reconcile";') => `${head}\nexport function reconcile(request, client) {\n${body}\n}`;
  const [other, noReconcile, dynamic, syntax, misuse, loop, looping, instance] = await checkSources(page, [
    { source: module("", 'import { ApiError } from "reconcile";\nimport helper from "./other.js";') },
    { source: 'import { ApiError } from "reconcile";\nexport function reconcil(request, client) {}' },
    { source: module('await import("./later.js");') },
    { source: module("if (") },
    { source: module('client.get("Deployment", "web");') },
    { source: module("while (true) {}") },
    { source: module('client.get("Desired", request.name);\nif (request.name === "shop") while (true) {}') },
    {
      // The classes the learner imports are the ones the client throws.
      source: module('try { client.get("ConfigMap", "nowhere"); } catch (error) { if (!(error instanceof ApiError) || error.status !== 404) throw new TerminalError("not an ApiError"); }\nreturn;'),
      options: { budget: 3 },
    },
  ]);
  expect(other.rejected.message).toBe('your code imports "./other.js" (line 2); a controller may import only from "reconcile": import { ApiError, TerminalError } from "reconcile"');
  expect(noReconcile.rejected.message).toBe("your code does not export a function named reconcile (write `export function reconcile(request, client) { … }`)");
  expect(dynamic.rejected.message).toContain('your code uses import() of "./later.js" (line 3)');
  expect(syntax.rejected.message).toMatch(/\(line 4\)$/);
  expect(misuse.rejected).toMatchObject({ method: "get", message: 'client.get: this exercise has no kind "Deployment"; it has Desired, ConfigMap' });
  expect(loop.rejected.stopped).toMatchObject({ reason: "schedule", schedule: 0, step: { request: "blog", call: null } });
  expect(loop.rejected.message).toBe('Your controller ran for more than 2 seconds on the fault-free run, in the reconcile of "blog" (before any client call), so the check was stopped. Look for a loop that never ends.');
  expect(looping.rejected.stopped.step).toEqual({ explored: 0, request: "shop", call: { method: "get", kind: "Desired", name: "shop" } });
  expect(looping.rejected.message).toContain('in the reconcile of "shop" (its last client call was client.get("Desired", "shop"))');
  expect(instance.rejected).toBeUndefined();
  expect(instance.properties.map((property) => property.name)).toContain("eventually stable");
  expect(JSON.stringify(instance.counterexample?.record ?? [])).not.toContain("not an ApiError");
});

test("runController: external-finalizer's reference keeps its load balancers; known bugs leak one", async ({ page }) => {
  const options = { exercise: "external-finalizer" };
  const [reference, removesFirst, neverAdds, failsWhenAbsent] = await runAll(page, [
    { source: FINALIZING, options },
    // Removes the finalizer before cleanup: blog is gone while lb-blog is still there.
    { source: bugJs("external-finalizer", "removes-first"), options },
    { source: bugJs("external-finalizer", "never-adds"), options },
    // Deletes without looking and fails on 404: only a crash finds it (the check's schedules).
    { source: bugJs("external-finalizer", "fails-when-absent"), options },
  ]);
  expect(reference.rejected).toBeUndefined();
  expect(broken(reference)).toEqual([]);
  expect(reference.end.kind).toBe("quiet");
  const methods = reference.record.flatMap((reconcile) => reconcile.calls.map((call) => call.call.method));
  expect(methods).toContain("ensureLoadBalancer");
  expect(methods).toContain("deleteLoadBalancer");
  expect(broken(removesFirst)).toEqual(["safe"]);
  expect(removesFirst.properties[1].detail).toMatch(/^load balancer lb-blog leaked/);
  expect(broken(neverAdds)).toEqual(["eventually stable", "safe"]);
  expect(broken(failsWhenAbsent)).toEqual([]);
});

test("checkController: external-finalizer's reference survives the faults; only a crash finds the cleanup that fails on 404", async ({ page }) => {
  const options = { exercise: "external-finalizer", budget: 300 };
  const failsWhenAbsent = bugJs("external-finalizer", "fails-when-absent");
  const [reference, absent] = await checkAll(page, [
    { source: FINALIZING, options },
    { source: failsWhenAbsent, options },
  ]);
  expect(reference.rejected).toBeUndefined();
  expect(reference).toMatchObject({ exercise: "external-finalizer", passed: true, schedulesExplored: 300 });
  expect(absent.passed).toBe(false);
  expect(absent.counterexample.schedule.map((placed) => placed.fault).some((fault) => fault.startsWith("crash"))).toBe(true);
  expect(absent.counterexample.schedule.length).toBeLessThanOrEqual(3);
});

// Every exercise's reference passes the default budget (1,000 schedules); each known bug
// fails with its property and its shrunk schedule (controller-exercises.mjs).
// The starter loads and runs without misuse; it is not the answer, so it fails.
for (const { name, starter, reference, bugs } of EXERCISES) {
  test(`checkController(source): ${name}: the starter runs, the reference passes, each known bug is caught`, async ({ page }, testInfo) => {
    const options = { exercise: name };
    const checks = await checkSources(page, [
      { source: starter.js, options: { ...options, budget: 5 } },
      ...[reference, ...bugs].map((controller) => ({ source: controller.js, options })),
    ]);
    recordTimes(testInfo, checks, ["starter", "reference", ...bugs.map((bug) => bug.id)]);
    const [started, passed, ...caught] = checks;
    expect(started.rejected).toBeUndefined();
    expect(started).toMatchObject({ exercise: name, passed: false });
    expect(passed.rejected).toBeUndefined();
    expect(passed).toMatchObject({ exercise: name, passed: true, schedulesExplored: 1000, counterexample: null });
    expect(bugs.length).toBeGreaterThanOrEqual(3);
    bugs.forEach((bug, index) => expectCaught(expect, caught[index], bug));
    // At least one bug passes the fault-free run: only a fault schedule finds it.
    expect(bugs.some((bug) => bug.faults.length > 0)).toBe(true);
  });
}
