// The JS API for course pages: /pkg/reconcile.js.
//
// `reconcile` and `plan` live in a small wasm module that `init()` loads. The
// simulation is a second module, fetched the first time a page calls
// `simulate`, `simulateVerdict` or `loadSimulation`, so a page that only grades
// plans never downloads it. `check` and `checkLoop` fetch modules of their
// own; `runController` shares the loop's. All are thin adapters over the
// same core; `controller.js` shapes a learner's client over a driven run.
import initPlan, { plan, reconcile } from "./reconcile_core.js";
import { checkWith, drive } from "./controller.js";

export { plan, reconcile };
export { ApiError, TerminalError, cloud } from "./controller.js";

/** Loads the reconcile/plan module. Call once, before `reconcile` or `plan`. */
export default function init(options) {
  return initPlan(options);
}

let simulation = null;

/** Fetches and starts the simulation module once; later calls share it. */
function simulationModule() {
  simulation ??= import("./reconcile_sim.js")
    .then(async (module) => {
      await module.default();
      return module;
    })
    .catch((error) => {
      // A failed download (say, offline) may be retried by the next call.
      simulation = null;
      throw error;
    });
  return simulation;
}

/** Starts fetching the simulation now, for a page that will simulate soon. */
export async function loadSimulation() {
  await simulationModule();
}

/** The simulated timeline of `scenario` under `options` (see reconcile.d.ts). */
export async function simulate(scenario, options) {
  return (await simulationModule()).simulate(scenario, options);
}

/** How the same simulation ends, without its per-pass records. */
export async function simulateVerdict(scenario, options) {
  return (await simulationModule()).simulateVerdict(scenario, options);
}

/** Loads a module once; a failed download may be retried by the next call. */
function once(load) {
  let loading = null;
  return () => {
    loading ??= load().catch((error) => {
      loading = null;
      throw error;
    });
    return loading;
  };
}

const yamlModule = once(async () => {
  const module = await import("./reconcile_yaml.js");
  await module.default();
  return module;
});

/** Starts fetching the YAML module now, for a page that will read YAML soon. */
export async function loadYaml() {
  await yamlModule();
}

/**
 * `reconcile` with each document in JSON or YAML (text that does not start
 * with `{` or `[` is YAML); desired and observed may be Kubernetes manifests
 * (a multi-document stream or a `kind: List`), whose objects are named
 * `Kind/namespace/name` and whose `metadata.finalizers` fill the finalizers.
 * Resolves once the YAML module is loaded (on the first call).
 */
export async function reconcileYaml(desired, observed, finalizers, options) {
  return (await yamlModule()).reconcileYaml(desired, observed, finalizers, options);
}

/** `plan`, with the documents read as `reconcileYaml` reads them. */
export async function planYaml(desired, observed, finalizers, options) {
  return (await yamlModule()).planYaml(desired, observed, finalizers, options);
}

/** The documents as `reconcileYaml` reads them, with each manifest's set-aside fields. */
export async function readDocuments(desired, observed, finalizers, options) {
  return (await yamlModule()).readDocuments(desired, observed, finalizers, options);
}

/** A value as YAML text that reads back as the same value (here and in kubectl). */
export async function toYaml(value) {
  return (await yamlModule()).toYaml(value);
}

/** Values as a YAML stream, `---` between documents, for `kubectl apply -f`. */
export async function toYamlStream(values) {
  return (await yamlModule()).toYamlStream(values);
}

const checkModule = once(async () => {
  const module = await import("./reconcile_check.js");
  await module.default();
  return module;
});

// A learner's reconcile in the loop: its own module, so that `simulate`'s
// stays what a course page needs.
const loopModule = once(async () => {
  const module = await import("./reconcile_loop.js");
  await module.default();
  return module;
});

// The sandbox for the learner's code sits at the site's root, beside index.html.
const sandboxHost = once(() => import(new URL("../sandbox-host.js", import.meta.url).href));
let sandbox = null;

/**
 * Checks a learner's `reconcile` against the contract on `cases` generated
 * cases (at least 500, the default; after `scenario`, when given), and
 * shrinks the first failure to a minimal counterexample. `source` is an ES
 * module that exports `reconcile` (language "javascript", the default) or
 * Python that defines it (language "python", run by Pyodide, which the first
 * Python check downloads and starts). The code runs in the sandbox: an
 * opaque-origin frame's worker, stopped after 2 s per call.
 * Resolves to `{ passed, total, counterexample, logs }`; rejects when the
 * code does not load (with its message and line) or a call is stopped.
 * `onProgress`, if given, hears `{ phase: "loading", percent }` while Pyodide
 * downloads (the first Python check), then `{ phase: "checking", done }` after each batch.
 * Aborting `signal` (an `AbortSignal`) ends the sandbox's worker and rejects
 * with a `DOMException` named "AbortError", as `fetch` does, whose `logs`
 * hold what the code printed until then.
 */
export async function check(source, { language = "javascript", scenario = null, seed = 1, cases, onProgress, signal } = {}) {
  expectLanguage(language);
  stopIfAborted(signal, []);
  const [{ Check }, { Sandbox }] = await Promise.all([checkModule(), sandboxHost()]);
  sandbox ??= new Sandbox();
  const checker = new Check(language, seed, scenario, cases);
  const logs = [];
  let done = 0;
  try {
    // Runs the cases the checker will ask for next in one batch, answering
    // in order for as long as its next case is the batch's next one.
    while (checker.case() !== undefined) {
      const batch = checker.upcoming();
      const course = checker.course();
      const run = await runLoaded(source, batch, language, logs, onProgress, signal);
      let answered = 0;
      for (const result of run.results) {
        if (result.ok) checker.answer(result.json);
        else checker.raised(describe(result.error));
        answered += 1;
        if (checker.case() === undefined || checker.course() !== course) break;
      }
      done += answered;
      onProgress?.({ phase: "checking", done });
      // Every result was taken and the check still needs the call that was stopped.
      const changed = checker.case() === undefined || checker.course() !== course;
      if (!changed && answered === run.results.length && answered < batch.length) {
        throw new Error(run.stopped?.message ?? "the sandbox stopped before the check ended");
      }
    }
    return { ...checker.outcome(), logs };
  } finally {
    checker.free();
  }
}

/**
 * Runs a learner's `reconcile` in the simulated loop in place of the
 * contract's, on `scenario` under `options` (as `simulate` takes them), and
 * resolves to `{ verdicts, texts, error, logs }`: whether it converges, whether
 * it is idempotent, and whether it survives a restart at any point of its
 * first pass. Each call loads the code afresh, in the sandbox, so nothing it
 * keeps in memory outlives a call (a real controller's memory outlives a
 * call but not a restart). Rejects when the code does not load or a call is
 * stopped. `onProgress`, if given, hears `{ phase: "running", done }`, the
 * calls so far. Aborting `signal` rejects as it does for `check`.
 */
export async function checkLoop(source, { language = "javascript", scenario, options = null, onProgress, signal } = {}) {
  expectLanguage(language);
  stopIfAborted(signal, []);
  const [looping, { Sandbox }] = await Promise.all([loopModule(), sandboxHost()]);
  sandbox ??= new Sandbox();
  const loop = new looping.LoopCheck(scenario, options);
  const logs = [];
  let done = 0;
  try {
    for (let call = loop.call(); call !== undefined; call = loop.call()) {
      const { process: _process, ...args } = call;
      const run = await runLoaded(source, [args], language, logs, onProgress, signal);
      const [result] = run.results;
      if (!result) throw new Error(run.stopped?.message ?? "the sandbox stopped before the call ended");
      if (result.ok) loop.answer(result.json ?? "null");
      else loop.raised(describe(result.error));
      done += 1;
      onProgress?.({ phase: "running", done });
    }
    return { ...loop.outcome(), logs };
  } finally {
    loop.free();
  }
}

/**
 * Runs a learner's controller, `reconcile(request, client)`, on a controller
 * exercise (`"owned-configmap"`) until the run ends, and resolves to
 * `{ exercise, goal, passed, end, properties, record }`. The client's calls
 * are synchronous: each runs the simulated cluster until its answer arrives.
 * `reconcile` is a function of this page, run on its thread; a learner's
 * source goes through the sandbox in a later step. `options` override the
 * exercise's settings (as `simulate` takes them). Rejects when the client is
 * misused (the error names the call) or `reconcile` returns something else
 * than nothing or `{ requeueAfter: ms }`.
 */
export async function runController(reconcile, { exercise = "owned-configmap", options = null } = {}) {
  const { DrivenRun } = await loopModule();
  const run = new DrivenRun(exercise, options);
  try {
    drive(reconcile, run);
    const properties = run.properties();
    const passed = properties.every((property) => property.held);
    return { exercise, goal: run.goal, passed, end: run.end(), properties, record: run.record() };
  } finally {
    run.free();
  }
}

/**
 * Tries to break a learner's controller: runs it on a controller exercise
 * fault-free, then under fault schedules (crashes, 503s, lost responses,
 * broken watches, an API server restart, a lagging cache, another writer,
 * the custom resource deleted), up to `budget` schedules (1,000), the
 * random ones drawn from `seed`. Resolves to `{ exercise, goal, ...report }`:
 * `passed`, `schedulesExplored`, the properties, and the shrunk
 * `counterexample` with its story and `link` (the playground page's hash
 * that replays its run without the code), or `null`.
 *
 * `controller` is the learner's source, an ES module that imports from
 * "reconcile" and exports `reconcile(request, client)` (language
 * "javascript"), or a Python module that defines `reconcile(request,
 * client)` (language "python", the same client in snake_case): it runs in
 * the sandbox's worker next to the simulation, each process a fresh import
 * (a fresh module namespace in Python), each schedule stopped after 2 s;
 * the result adds `logs`, what it printed. `onProgress` hears `{ phase:
 * "loading", percent }` while Pyodide downloads, then `{ phase:
 * "checking", explored }`. Rejects when the code does not load, misuses the
 * client (the error names the call, and Python's its line) or is stopped
 * (`error.stopped` says where). Aborting `signal` (an `AbortSignal`) ends
 * the sandbox's workers and rejects with a `DOMException` named
 * "AbortError", as `fetch` does, whose `logs` hold what the code printed.
 *
 * Or `controller` is `load()`, which gives a fresh `reconcile` function (or
 * a promise of one) for each process, run on this thread in slices;
 * `onProgress` hears `{ explored }`.
 */
export async function checkController(controller, options = {}) {
  if (typeof controller === "string") return checkSource(controller, options);
  if (typeof controller !== "function") {
    throw new TypeError("checkController: give the controller's source (a string) or a function that gives a fresh reconcile, such as () => reconcile");
  }
  const { exercise = "owned-configmap", seed = 0, budget = 1000, options: settings = null, onProgress } = options;
  const { ControllerCheck } = await loopModule();
  const check = new ControllerCheck(exercise, budget, seed, settings);
  try {
    const goal = check.goal;
    const report = await linked(await checkWith(check, controller, onProgress));
    return { exercise, goal, ...report };
  } finally {
    check.free();
  }
}

/** `checkController` of a learner's source, in the sandbox. */
async function checkSource(source, { language = "javascript", exercise = "owned-configmap", seed = 0, budget = 1000, options = null, onProgress, signal } = {}) {
  if (language !== "javascript" && language !== "python") {
    throw new Error(`checkController: unknown language ${JSON.stringify(language)}; expected "javascript" or "python"`);
  }
  stopIfAborted(signal, []);
  const { Sandbox } = await sandboxHost();
  sandbox ??= new Sandbox();
  const progress = ({ explored }) => onProgress?.({ phase: "checking", explored });
  const onLoad = (percent) => onProgress?.({ phase: "loading", percent });
  const run = await sandbox.checkController(source, { language, exercise, seed, budget, options, onProgress: progress, onLoad, signal });
  const logs = run.logs.map(({ index, level, text }) => ({ schedule: index, level, text }));
  if (run.stopped?.reason === "learner") throw abortError(logs);
  if (run.loadError) {
    const { message, line } = run.loadError;
    throw Object.assign(new Error(line && !message.includes(`line ${line}`) ? `${message} (line ${line})` : message), { logs });
  }
  if (run.checkError) {
    // Python gives the learner's line of a misuse.
    const { name, message, method, line = null } = run.checkError;
    throw Object.assign(new Error(line && !message.includes(`line ${line}`) ? `${message} (line ${line})` : message), { name, method, line, logs });
  }
  if (run.stopped) throw Object.assign(new Error(run.stopped.message), { stopped: run.stopped, logs });
  return { exercise, goal: run.goal, ...(await linked(run.report)), logs };
}

/**
 * The report with `counterexample.link`, made of its `replay` (what the
 * link replays: the exercise, its settings and each reconcile's calls, no
 * code): the playground page's hash, `#v4/` and the JSON `{ replay }`
 * deflated in base64url, as `reconcile-content`'s `share.rs` reads it.
 * `null` where `CompressionStream("deflate-raw")` is missing.
 */
async function linked({ replay, ...report }) {
  if (report.counterexample) {
    report.counterexample = { ...report.counterexample, link: await replayLink(replay) };
  }
  return report;
}

async function replayLink(replay) {
  if (!replay || typeof CompressionStream !== "function") return null;
  try {
    const text = JSON.stringify({ replay });
    const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("deflate-raw"));
    const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
    let binary = "";
    for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    const base64url = btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    return `#v4/${base64url}`;
  } catch {
    return null;
  }
}

function expectLanguage(language) {
  if (language !== "javascript" && language !== "python") {
    throw new Error(`unknown language ${JSON.stringify(language)}; expected "javascript" or "python"`);
  }
}

/**
 * What an aborted call rejects with: a `DOMException` named "AbortError", as
 * `fetch`'s, with `logs`, what the code printed until then.
 */
function abortError(logs) {
  return Object.assign(new DOMException("The check was stopped before it ended.", "AbortError"), { logs });
}

function stopIfAborted(signal, logs) {
  if (signal?.aborted) throw abortError(logs);
}

/**
 * Runs `calls` in the sandbox, keeping what the code printed; throws if the
 * code does not load, or `signal` was aborted (`abortError`). Pyodide's
 * download is told as `{ phase: "loading", percent }`.
 */
async function runLoaded(source, calls, language, logs, onProgress, signal) {
  stopIfAborted(signal, logs);
  const onLoad = (percent) => onProgress?.({ phase: "loading", percent });
  const run = await sandbox.run(source, calls, { language, onLoad, signal });
  logs.push(...run.logs);
  if (run.stopped?.reason === "learner") throw abortError(logs);
  if (run.loadError) {
    const { message, line } = run.loadError;
    throw new Error(line ? `${message} (line ${line})` : message);
  }
  return run;
}

/** An error the learner's code raised, with its line in their source. */
function describe(error) {
  const where = error.line ? ` (line ${error.line})` : "";
  return `${error.name ?? "Error"}: ${error.message}${where}`;
}
