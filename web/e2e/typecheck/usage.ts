// A course page's use of the JS API, type-checked against the built
// dist/pkg/reconcile.d.ts by types.spec.mjs. Each `@ts-expect-error` line must
// stay an error: if a declaration grew too loose, tsc reports the unused directive.
import init, {
  ApiError,
  TerminalError,
  check,
  checkLoop,
  loadSimulation,
  plan,
  reconcile,
  checkController,
  runController,
  simulate,
  simulateVerdict,
  type AbortedCheckError,
  type Action,
  type CheckResult,
  type ControllerCheckResult,
  type ControllerCheckedMessage,
  type ControllerSourceCheckResult,
  type ControllerClient,
  type ControllerRun,
  type CustomResourcesScenario,
  type Finalizers,
  type LoopResult,
  type Plan,
  type ReconcileRequest,
  type Resources,
  type Scenario,
  type SimOptions,
  type SimVerdict,
  type Timeline,
} from "reconcile-playground";
import * as api from "reconcile-playground";

export async function grade(): Promise<string> {
  await init();
  const desired: Resources = { web: { replicas: 3 } };
  const finalizers: Finalizers = { web: ["example.com/cleanup"] };
  const actions: Action[] = reconcile(desired, "{}", finalizers);
  const [kind, name, spec] = actions[0];
  const kinds: ("CREATE" | "UPDATE" | "FINALIZE" | "DELETE")[] = [kind];
  const explained: Plan = plan(desired, {}, null);
  const created: number = explained.summary.create;

  await loadSimulation();
  const scenario: Scenario = { desired, observed: {} };
  const options: SimOptions = {
    seed: 7,
    maxPasses: 20,
    failureRate: 0.25,
    backoff: { policy: "fixed-delay", delayMs: 100 },
    crash: { atPass: 1, afterActions: 0 },
    script: [{ afterPass: 1, event: { kind: "delete", name: "web" } }],
    stuckFinalizers: [{ object: "web", finalizer: "example.com/cleanup" }],
  };
  const timeline: Timeline = await simulate(scenario, options);
  const verdict: SimVerdict = await simulateVerdict(JSON.stringify(scenario));
  const firstPass = timeline.passes[0];
  const trigger: string = firstPass.trigger.kind;
  const restarted: boolean = firstPass.trigger.kind === "custom-resource" && firstPass.trigger.afterRestart;
  const converged = verdict.verdict.verdict === "converged" ? verdict.verdict.passes : -1;
  const several: CustomResourcesScenario = {
    customResources: [
      { name: "cache-a", desired, observed: {} },
      { name: "cache-b", desired: { other: {} }, observed: {}, finalizers: null },
    ],
  };
  const key: string | undefined = (await simulate(several)).passes[0].customResource;
  // @ts-expect-error each custom resource needs a name.
  simulate({ customResources: [{ desired, observed: {} }] });

  const source = "export function reconcile() { return []; }";
  const graded: CheckResult = await check(source, { language: "javascript", cases: 500, onProgress: (progress) => (progress.phase === "checking" ? progress.done : progress.percent) });
  const rule: string = graded.counterexample?.rule ?? "passed";
  const inLoop: LoopResult = await checkLoop(source, { scenario, options: { maxPasses: 10 } });
  const idempotent: boolean = inLoop.texts?.idempotence.holds ?? false;

  // @ts-expect-error checkLoop needs a scenario to run the loop on.
  checkLoop(source, {});
  // @ts-expect-error reconcile needs the observed state too.
  reconcile(desired);
  // @ts-expect-error simulate returns a promise, not a timeline.
  const notAwaited: Timeline = simulate(scenario);
  // @ts-expect-error an unknown backoff policy.
  const badOptions: SimOptions = { backoff: { policy: "linear" } };
  // @ts-expect-error a spec's JSON cannot hold a function.
  const badResources: Resources = { web: () => 1 };
  // @ts-expect-error reconcile.js does not export its wasm module's initSync.
  api.initSync;

  const python = "def reconcile(desired, observed, finalizers=None):\n    return []\n";
  const checked: CheckResult = await check(python, { language: "python", seed: 3, cases: 500 });
  const printed: string[] = checked.logs.map((log) => log.text);
  // @ts-expect-error only JavaScript and Python can be checked.
  await check(python, { language: "ruby" });

  const controller = (request: ReconcileRequest, client: ControllerClient) => {
    try {
      const found = client.get("ConfigMap", `${request.name}-config`, { live: true });
      client.update({ ...found, data: { color: "blue" } });
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return { requeueAfter: 100 };
      throw new TerminalError(`cannot: ${String(error)}`);
    }
  };
  const ran: ControllerRun = await runController(controller, { exercise: "owned-configmap", options: { seed: 2 } });
  const held: boolean = ran.passed && ran.properties.every((property) => property.held);
  const methods: string[] = ran.record.flatMap((pass) => pass.calls.map((call) => call.call.method));
  const quietAt: number = ran.end?.kind === "quiet" ? ran.end.at : -1;
  // @ts-expect-error the client is synchronous: an async reconcile is refused.
  runController(async () => {});
  // @ts-expect-error only the exercises there are.
  runController(controller, { exercise: "deployments" });
  // @ts-expect-error apply needs a field manager.
  runController((_request, client) => void client.apply({ kind: "ConfigMap" }));
  const broken: ControllerCheckResult = await checkController(async () => controller, { seed: 1, budget: 50, onProgress: ({ explored }) => void explored });
  const story: string = broken.counterexample?.story.join(" ") ?? "";
  const faults: string[] = broken.counterexample?.schedule.map((placed) => placed.fault) ?? [];
  const replay: string = broken.counterexample?.link ?? "";
  const fromSource: ControllerSourceCheckResult = await checkController("export function reconcile() {}", { language: "javascript", budget: 5, onProgress: (told) => void (told.phase === "checking" ? told.explored : told.percent) });
  const printed2: string = fromSource.logs.map((line) => `${line.schedule} ${line.text}`).join();
  const fromPython: ControllerSourceCheckResult = await checkController("def reconcile(request, client): pass", { language: "python", exercise: "external-finalizer" });
  // @ts-expect-error A controller is JavaScript or Python.
  checkController("def reconcile(request, client): pass", { language: "ruby" });
  // A Stop button: the signal, as fetch takes it, and its rejection.
  const stopping = new AbortController();
  const stoppable = checkController("export function reconcile() {}", { signal: stopping.signal });
  stopping.abort();
  const stoppedLines: string[] = await stoppable.then(
    () => [],
    (error: unknown) => ((error as AbortedCheckError).name === "AbortError" ? (error as AbortedCheckError).logs.map((line) => line.text) : []),
  );
  await check(source, { signal: stopping.signal }).catch(() => undefined);
  // @ts-expect-error a signal is an AbortSignal, not its controller.
  check(source, { signal: stopping });

  // What an embedded pane posts to the course page after a controller's Check.
  const heard = (message: ControllerCheckedMessage): string =>
    message.passed ? `${message.exercise}: ${message.schedulesExplored} schedules` : `${message.counterexample?.property}: ${message.counterexample?.story.join(" ")}`;
  // @ts-expect-error the message does not carry the record: the link replays it.
  const noRecord = (message: ControllerCheckedMessage) => message.counterexample?.record;

  return [kinds, name, spec, created, trigger, restarted, converged, key, notAwaited, badOptions, badResources, rule, idempotent, printed, held, methods, quietAt, story, faults, replay, printed2, fromPython.passed, heard, noRecord].join();
}
