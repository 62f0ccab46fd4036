// Declarations of /pkg/reconcile.js. The types (Resources, Action, Plan,
// Timeline, ...) and `reconcile`/`plan` come from the generated module; only
// the functions reconcile.js exports are re-exported as values (not `initSync`).
import type { Scenario, SimOptions, SimVerdict, Timeline } from "./reconcile_core.js";

export type * from "./reconcile_core.js";
export { default, plan, reconcile } from "./reconcile_core.js";

/** Fetches and starts the simulation module; `simulate` calls it on first use. */
export function loadSimulation(): Promise<void>;

/**
 * Runs the deterministic "apply, then reconcile again" simulation on a
 * scenario `{desired, observed, finalizers?}`. `options` overrides any of the
 * simulation settings; the rest keep their defaults. The same scenario and
 * options always give the same timeline. Rejects with the playground's
 * message when an input is not valid.
 */
export function simulate(scenario: Scenario | string, options?: SimOptions | string | null): Promise<Timeline>;

/** How the same simulation ends, `{ passes, verdict, verdictText }`, without per-pass records. */
export function simulateVerdict(
  scenario: Scenario | string,
  options?: SimOptions | string | null,
): Promise<SimVerdict>;

/** What `check` resolves to: the outcome, and what the code printed. */
export type CheckResult = import("./reconcile_core.js").CheckOutcome & {
  logs: { index: number; level: string; text: string }[];
};

/**
 * Checks a learner's `reconcile` against the contract on at least 500 cases,
 * in the sandbox, and shrinks the first failure to a minimal counterexample.
 * `source` is an ES module that exports `reconcile` ("javascript", the
 * default) or Python that defines `def reconcile(desired, observed,
 * finalizers=None)` ("python", run by Pyodide, downloaded and started on the
 * first Python check).
 */
export function check(
  source: string,
  options?: {
    language?: "javascript" | "python";
    scenario?: Scenario | string | null;
    seed?: number;
    cases?: number;
    /** Hears how far the check is: Python's start, then the cases answered after each batch. */
    onProgress?: (progress: { phase: "loading"; percent: number } | { phase: "checking"; done: number }) => void;
  },
): Promise<CheckResult>;

export type LoopResult = import("./reconcile_core.js").LoopOutcome & {
  logs: { index: number; level: string; text: string }[];
};

/**
 * Runs a learner's `reconcile` (the source of an ES module that exports it)
 * in the simulated loop in place of the contract's: whether it converges, is
 * idempotent, and survives a restart.
 */
export function checkLoop(
  source: string,
  options: {
    language?: "javascript" | "python";
    scenario: Scenario | string;
    options?: SimOptions | string | null;
    /** Hears how far the run is: Python's start, then the calls answered. */
    onProgress?: (progress: { phase: "loading"; percent: number } | { phase: "running"; done: number }) => void;
  },
): Promise<LoopResult>;
