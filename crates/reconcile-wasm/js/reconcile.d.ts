// Declarations of /pkg/reconcile.js. The types (Resources, Action, Plan,
// Timeline, ...) and `reconcile`/`plan` come from the generated module; only
// the functions reconcile.js exports are re-exported as values (not `initSync`).
import type {
  Action,
  CustomResourcesScenario,
  Finalizers,
  Json,
  Plan,
  ReadDocuments,
  Resources,
  Scenario,
  SimOptions,
  SimVerdict,
  Timeline,
  YamlOptions,
} from "./reconcile_core.js";

export type * from "./reconcile_core.js";
export { default, plan, reconcile } from "./reconcile_core.js";

/** Fetches and starts the simulation module; `simulate` calls it on first use. */
export function loadSimulation(): Promise<void>;

/**
 * Runs the deterministic "apply, then reconcile again" simulation on a
 * scenario `{desired, observed, finalizers?}`, or on several custom
 * resources `{customResources: [{name, desired, observed, finalizers?}]}`,
 * each reconciled alone through one work queue. `options` overrides any of the
 * simulation settings; the rest keep their defaults. The same scenario and
 * options always give the same timeline. Rejects with the playground's
 * message when an input is not valid.
 */
export function simulate(
  scenario: Scenario | CustomResourcesScenario | string,
  options?: SimOptions | string | null,
): Promise<Timeline>;

/** How the same simulation ends, `{ passes, verdict, verdictText }`, without per-pass records. */
export function simulateVerdict(
  scenario: Scenario | CustomResourcesScenario | string,
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

/** Fetches and starts the YAML module; the YAML functions call it on first use. */
export function loadYaml(): Promise<void>;

/**
 * `reconcile` with each document in JSON or YAML (text that does not start
 * with `{` or `[` is YAML); desired and observed may be Kubernetes manifests
 * (a multi-document stream or a `kind: List`), whose objects are named
 * `Kind/namespace/name` (`Kind/name` when cluster-scoped) and whose
 * `metadata.finalizers` fill the finalizers. Rejects with the playground's
 * message (document, line, column, path) when a document is not valid.
 */
export function reconcileYaml(
  desired: Resources | string,
  observed: Resources | string,
  finalizers?: Finalizers | string | null,
  options?: YamlOptions | null,
): Promise<Action[]>;

/** `plan`, with the documents read as `reconcileYaml` reads them. */
export function planYaml(
  desired: Resources | string,
  observed: Resources | string,
  finalizers?: Finalizers | string | null,
  options?: YamlOptions | null,
): Promise<Plan>;

/** The documents as `reconcileYaml` reads them, with each manifest's set-aside fields. */
export function readDocuments(
  desired: Resources | string,
  observed: Resources | string,
  finalizers?: Finalizers | string | null,
  options?: YamlOptions | null,
): Promise<ReadDocuments>;

/** A value (or JSON or YAML text) as YAML text that reads back as the same value, here and in kubectl. */
export function toYaml(value: Json | string): Promise<string>;

/** Values as a YAML stream, `---` between documents, for `kubectl apply -f`. */
export function toYamlStream(values: Json[]): Promise<string>;
