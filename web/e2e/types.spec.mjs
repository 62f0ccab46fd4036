// The JS API's TypeScript declarations, as a course author's TypeScript sees
// them: tsc --strict against the built pkg/reconcile.d.ts, on a hand-written
// use of every export (typecheck/usage.ts) and on what the built module really
// returned in Chromium.
import { execFile } from "node:child_process";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { test, expect } from "./fixtures.mjs";

const dist = resolve(process.env.DIST ?? "../dist");

/** `tsc --strict --noEmit` on `files`, with the built declarations as the module "reconcile-playground". */
async function typecheck(dir, files) {
  const config = join(dir, "tsconfig.json");
  await writeFile(
    config,
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        target: "es2022",
        module: "es2022",
        moduleResolution: "bundler",
        lib: ["es2022", "dom"],
        types: [],
        paths: { "reconcile-playground": [join(dist, "pkg/reconcile.d.ts")] },
      },
      files,
    }),
  );
  const tsc = resolve("node_modules/typescript/bin/tsc");
  return promisify(execFile)(process.execPath, [tsc, "-p", config]).then(
    ({ stdout }) => ({ ok: true, output: stdout }),
    (error) => ({ ok: false, output: `${error.stdout}${error.stderr}` }),
  );
}

test("reconcile.d.ts types a course page's use of every export, and rejects misuse", async () => {
  const dir = await mkdtemp(join(tmpdir(), "reconcile-types-"));
  const result = await typecheck(dir, [resolve("e2e/typecheck/usage.ts")]);
  expect(result.output).toBe("");
  expect(result.ok).toBe(true);
});

test("reconcile.d.ts declares exactly what the built module returns", async ({ page }) => {
  await page.goto("/");
  // Every export, called in Chromium on inputs that between them return every
  // kind of action, reason, trigger, action result, log entry and verdict.
  const returned = await page.evaluate(async () => {
    const api = await import("/pkg/reconcile.js");
    await api.default();
    const simulations = [
      // A crash: the lost action, the restart and the pass after it (afterRestart).
      [{ desired: { a: 1, b: 2 }, observed: {} }, { crash: { atPass: 1, afterActions: 1 } }],
      // A stuck finalizer, one its owner removes, and a finalizer refused on a terminating object.
      [
        { desired: {}, observed: { ns: {}, pv: {} }, finalizers: { ns: ["kubernetes"], pv: ["pv-protection"] } },
        {
          stuckFinalizers: [{ object: "ns", finalizer: "kubernetes" }],
          script: [{ afterPass: 1, event: { kind: "add-finalizer", name: "ns", finalizer: "late" } }],
        },
      ],
      // Another writer: owned-object events and an oscillation.
      [
        { desired: { web: { replicas: 3 } }, observed: { web: { replicas: 3 } } },
        { otherWriters: [{ name: "hpa", object: "web", path: ["replicas"], value: 5, reactionMs: 20 }] },
      ],
      // Every action fails: requeues, actions not attempted, the pass limit.
      [{ desired: { a: 1, b: 2 }, observed: {} }, { failureRate: 1, maxPasses: 4 }],
      // No watch on owned objects and no resync: no trigger.
      [
        { desired: { a: 1 }, observed: {} },
        {
          watchOwned: false,
          script: [
            { afterPass: 1, event: { kind: "delete", name: "a" } },
            { afterPass: 1, event: { kind: "drift", name: "a", path: ["x"], value: null } },
            { afterPass: 1, event: { kind: "stray-create", name: "z", spec: null } },
          ],
        },
      ],
      // Every event closes the watch: each new watch replays what it missed; a periodic resync too.
      [
        { desired: { a: 1 }, observed: {} },
        { watchBreakRate: 1, resyncPeriodMs: 30, script: [{ afterPass: 1, event: { kind: "delete", name: "a" } }] },
      ],
      // An API server restart with a delete in flight: 410 Gone, then a list.
      [
        { desired: { a: 1, b: 2 }, observed: {} },
        {
          watchLatencyMs: 10,
          script: [
            { afterPass: 1, event: { kind: "delete", name: "a" } },
            { afterPass: 1, event: { kind: "restart-api-server" } },
          ],
        },
      ],
      // An API server restart once the reflector has seen everything: the watch resumes.
      [{ desired: { a: 1, b: 2 }, observed: {} }, { script: [{ afterPass: 2, event: { kind: "restart-api-server" } }] }],
      // The seed example: a stale cache repeats DELETE c (404); RequeueAfter while terminating.
      [
        { desired: { a: 1, b: 3 }, observed: { b: 1, c: 1, svc: 1 }, finalizers: { svc: ["cloud/lb"] } },
        { requeueWhileTerminatingMs: 20 },
      ],
      // A new desired state while the loop runs.
      [
        { desired: { a: 1 }, observed: {} },
        {
          backoff: { policy: "fixed-delay", delayMs: 100 },
          script: [{ afterPass: 1, event: { kind: "set-desired", desired: { a: 2, b: 1 } } }],
        },
      ],
    ];
    const json = (value) => (value === undefined ? "undefined" : JSON.stringify(value));
    return {
      exports: Object.keys(api),
      reconcile: json([
        api.reconcile({ a: { replicas: 1 }, b: { replicas: 3 } }, { b: { replicas: 1 }, c: { replicas: 1 } }),
        api.reconcile({}, { svc: { type: "LoadBalancer" } }, { svc: ["cloud/lb-cleanup"] }),
      ]),
      // Every reason, and drift with a field absent on either side.
      plan: json(
        api.plan(
          { a: { replicas: 1 }, b: { replicas: 3, image: "web:2" }, d: {} },
          { b: { replicas: 1, port: 80 }, c: {}, e: {}, f: {} },
          { c: ["example.com/cleanup"], e: [] },
        ),
      ),
      loadSimulation: json(await api.loadSimulation()),
      simulate: json(await Promise.all(simulations.map((args) => api.simulate(...args)))),
      simulateVerdict: json(await Promise.all(simulations.map((args) => api.simulateVerdict(...args)))),
      // A controller whose record holds a 404, a create's object and a requeueAfter; then a
      // run stopped at the pass limit, with a terminal error and a thrown one.
      runController: json([
        await api.runController((request, client) => {
          const custom = client.get("Desired", request.name);
          try {
            client.get("ConfigMap", request.name, { live: true });
          } catch (error) {
            if (!(error instanceof api.ApiError)) throw error;
            const owner = { ...custom.metadata, apiVersion: custom.apiVersion, kind: custom.kind, controller: true };
            client.create({ apiVersion: "v1", kind: "ConfigMap", metadata: { name: request.name, ownerReferences: [owner] }, data: {} });
            return { requeueAfter: 10 };
          }
        }),
        await api.runController(
          (request) => {
            throw request.name === "blog" ? new api.TerminalError("no") : new Error("again");
          },
          { options: { maxPasses: 4 } },
        ),
      ]),
    };
  });

  // The inputs do cover every kind.
  const plan = JSON.parse(returned.plan);
  const timelines = JSON.parse(returned.simulate);
  const kinds = (values) => [...new Set(values)].sort();
  const passes = timelines.flatMap((timeline) => timeline.passes);
  const log = timelines.flatMap((timeline) => timeline.log);
  expect(kinds(plan.actions.map((action) => action.reason.rule))).toEqual([
    "drifted",
    "finalizers-pending",
    "no-finalizers-pending",
    "not-observed",
  ]);
  expect(kinds(plan.actions.flatMap((action) => action.drift.map((drift) => [drift.observed, drift.desired].indexOf(null))))).toEqual([-1, 0, 1]);
  expect(kinds(passes.map((pass) => pass.trigger.kind))).toEqual(["custom-resource", "owned-object", "relisted", "requeue", "requeue-after", "resync"]);
  expect(passes.some((pass) => pass.trigger.afterRestart === true)).toBe(true);
  expect(kinds(passes.flatMap((pass) => pass.actions.map((action) => action.result)))).toEqual([
    "already-gone",
    "already-terminating",
    "applied",
    "failed",
    "lost-in-crash",
    "not-attempted",
  ]);
  expect(kinds(log.map((entry) => entry.kind))).toEqual([
    "crashed",
    "deferred",
    "external-event",
    "finalizer-removed",
    "other-writer-wrote",
    "rejected",
    "relisted",
    "requeue-merged",
    "restarted",
    "watch-broken",
    "watch-expired",
    "watch-resumed",
  ]);
  expect(kinds(timelines.map((timeline) => timeline.verdict.reason?.kind ?? timeline.verdict.verdict))).toEqual([
    "converged",
    "no-trigger",
    "oscillation",
    "pass-limit",
    "stuck-finalizer",
  ]);

  // What came back, as typed constants: an undeclared or misspelt field is an
  // excess property, a declared one that never comes back is a missing one.
  const source = `// What the built module returned in Chromium (types.spec.mjs).
import * as api from "reconcile-playground";

type Returned<F extends (...args: any) => any> = Awaited<ReturnType<F>>;

// Every export of the module is declared as a value.
export const exported = [${returned.exports.sort().map((name) => `api.${name}`).join(", ")}];

export const reconciled: Returned<typeof api.reconcile>[] = ${returned.reconcile};
export const planned: Returned<typeof api.plan> = ${returned.plan};
export const loaded: Returned<typeof api.loadSimulation> = ${returned.loadSimulation};
export const simulated: Returned<typeof api.simulate>[] = ${returned.simulate};
export const verdicts: Returned<typeof api.simulateVerdict>[] = ${returned.simulateVerdict};
export const controllers: Returned<typeof api.runController>[] = ${returned.runController};
`;
  const dir = await mkdtemp(join(tmpdir(), "reconcile-returned-"));
  const file = join(dir, "returned.ts");
  await writeFile(file, source);
  const result = await typecheck(dir, [file]);
  expect(result.output).toBe("");
  expect(result.ok).toBe(true);
});
