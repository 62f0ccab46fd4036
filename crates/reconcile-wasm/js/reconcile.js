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
