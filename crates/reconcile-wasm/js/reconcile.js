// The JS API for course pages: /pkg/reconcile.js.
//
// `reconcile` and `plan` live in a small wasm module that `init()` loads. The
// simulation is a second module, fetched the first time a page calls
// `simulate`, `simulateVerdict` or `loadSimulation`, so a page that only grades
// plans never downloads it. Both modules are thin adapters over the same core.
import initPlan, { plan, reconcile } from "./reconcile_core.js";

export { plan, reconcile };

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

const checkModule = once(async () => {
  const module = await import("./reconcile_check.js");
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
 */
export async function check(source, { language = "javascript", scenario = null, seed = 1, cases } = {}) {
  if (language !== "javascript" && language !== "python") {
    throw new Error(`checking ${language} is not available; expected "javascript" or "python"`);
  }
  const [{ Check }, { Sandbox }] = await Promise.all([checkModule(), sandboxHost()]);
  sandbox ??= new Sandbox();
  const checker = new Check(language, seed, scenario, cases);
  const logs = [];
  try {
    // Runs the cases the checker will ask for next in one batch, answering
    // in order for as long as its next case is the batch's next one.
    while (checker.case() !== undefined) {
      const batch = checker.upcoming();
      const course = checker.course();
      const run = await sandbox.run(source, batch, { language });
      logs.push(...run.logs);
      if (run.loadError) {
        const { message, line } = run.loadError;
        throw new Error(line ? `${message} (line ${line})` : message);
      }
      let answered = 0;
      for (const result of run.results) {
        if (result.ok) checker.answer(result.json);
        else checker.raised(describe(result.error));
        answered += 1;
        if (checker.case() === undefined || checker.course() !== course) break;
      }
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

/** An error the learner's code raised, with its line in their source. */
function describe(error) {
  const where = error.line ? ` (line ${error.line})` : "";
  return `${error.name ?? "Error"}: ${error.message}${where}`;
}
