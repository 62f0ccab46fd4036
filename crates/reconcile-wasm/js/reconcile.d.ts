// Declarations of /pkg/reconcile.js. The types (Resources, Action, Plan,
// Timeline, ...) and `reconcile`/`plan` come from the generated module; only
// the functions reconcile.js exports are re-exported as values (not `initSync`).
import type {
  Action,
  ControllerCheckReport,
  ControllerCounterexample,
  ControllerRunEnd,
  CustomResourcesScenario,
  Fault,
  Finalizers,
  Json,
  Plan,
  Property,
  ReadDocuments,
  ReconcileRecord,
  ReconcileRequest,
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

/**
 * What `check`, `checkLoop` and `checkController(source)` reject with when
 * their `signal` is aborted: a `DOMException` named "AbortError", as `fetch`
 * rejects, with what the code printed until then (`check` and `checkLoop`
 * by case `index`, `checkController` by `schedule`).
 */
export type AbortedCheckError = DOMException & {
  name: "AbortError";
  logs: { index?: number; schedule?: number; level: string; text: string }[];
};

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
 * first Python check). Aborting `signal` ends the sandbox's worker and
 * rejects with an `AbortedCheckError`, as `fetch` rejects.
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
    /** Stops the check: its promise rejects with an `AbortedCheckError`. */
    signal?: AbortSignal;
  },
): Promise<CheckResult>;

export type LoopResult = import("./reconcile_core.js").LoopOutcome & {
  logs: { index: number; level: string; text: string }[];
};

/**
 * Runs a learner's `reconcile` (the source of an ES module that exports it)
 * in the simulated loop in place of the contract's: whether it converges, is
 * idempotent, and survives a restart. Aborting `signal` rejects as for `check`.
 */
export function checkLoop(
  source: string,
  options: {
    language?: "javascript" | "python";
    scenario: Scenario | string;
    options?: SimOptions | string | null;
    /** Hears how far the run is: Python's start, then the calls answered. */
    onProgress?: (progress: { phase: "loading"; percent: number } | { phase: "running"; done: number }) => void;
    /** Stops the run: its promise rejects with an `AbortedCheckError`. */
    signal?: AbortSignal;
  },
): Promise<LoopResult>;

/** A refused request: apimachinery's `StatusError`. */
export class ApiError extends Error {
  constructor(status: number, reason: string, message: string);
  /** 400, 404, 409, 422 or 503. */
  status: number;
  /** `BadRequest`, `NotFound`, `Conflict`, `AlreadyExists`, `Invalid`, `ServiceUnavailable`. */
  reason: string;
}

/** An error a reconcile throws that is not retried: controller-runtime's `reconcile.TerminalError`. */
export class TerminalError extends Error {
  constructor(message: string);
}

/** A Kubernetes-shaped object: `apiVersion`, `kind`, `metadata.name`, and the rest. */
export type KubeObject = { [key: string]: Json };

/**
 * A learner's client: synchronous calls. Names are in the request's
 * namespace unless `namespace` says otherwise. Objects are deep copies. A
 * refused request throws `ApiError`; misuse throws an `Error` naming the call.
 */
export interface ControllerClient {
  /** Reads the cache (`live: true`: the API server); throws `ApiError` 404 when absent. */
  get(kind: string, name: string, options?: { live?: boolean; namespace?: string }): KubeObject;
  /** The cached objects of `kind` whose labels equal `labels`. */
  list(kind: string, options?: { labels?: { [label: string]: string }; namespace?: string }): KubeObject[];
  create(object: KubeObject): KubeObject;
  /** A PUT of the whole object; 409 Conflict when its resourceVersion is stale. */
  update(object: KubeObject): KubeObject;
  patch(
    kind: string,
    name: string,
    patch: Json,
    options?: { type?: "merge" | "json"; resourceVersion?: string; namespace?: string },
  ): KubeObject;
  /** Server-side apply. */
  apply(object: KubeObject, options: { fieldManager: string; force?: boolean }): KubeObject;
  /** A DELETE; `propagationPolicy` as upstream spells it, the kind's default when left out. */
  delete(
    kind: string,
    name: string,
    options?: { namespace?: string; propagationPolicy?: "Orphan" | "Background" | "Foreground" },
  ): Json;
  updateStatus(object: KubeObject): KubeObject;
  patchStatus(kind: string, name: string, patch: Json, options?: { namespace?: string }): KubeObject;
}

/**
 * The cloud of exercises that have one (`external-finalizer`): each call is
 * one request to it, which takes time and can fail (`ApiError` 503). Only
 * during a reconcile; else it throws.
 */
export const cloud: {
  /** Creates load balancer `name` unless it exists; returns it. */
  ensureLoadBalancer(name: string): { name: string };
  /** Load balancer `name`, or `null` when there is none. */
  getLoadBalancer(name: string): { name: string } | null;
  /** Deletes load balancer `name`; throws `ApiError` 404 when there is none. */
  deleteLoadBalancer(name: string): null;
};

/** What a controller's reconcile returns: nothing (done) or `{ requeueAfter: ms }`. It throws for an error. */
export type ReconcileResult = void | null | undefined | { requeueAfter: number };

/** What `runController` resolves to. */
export type ControllerRun = {
  exercise: string;
  /** The exercise's goal, in plain words. */
  goal: string;
  /** Every property held. */
  passed: boolean;
  end: ControllerRunEnd | null;
  /** Eventually stable, safe, idempotent once converged. */
  properties: Property[];
  /** Each reconcile's request, calls, answers and result. */
  record: ReconcileRecord[];
};

/**
 * Runs a controller, `reconcile(request, client)`, a function of this page,
 * on a controller exercise until the run ends, with synchronous client
 * calls into the simulated cluster. Rejects on misuse of the client, naming the call.
 */
export function runController(
  reconcile: (request: ReconcileRequest, client: ControllerClient) => ReconcileResult,
  options?: {
    exercise?: "owned-configmap" | "external-finalizer" | "replicas" | "status" | "conflicts";
    options?: SimOptions | string | null;
  },
): Promise<ControllerRun>;

/** What `checkController` resolves to. */
export type ControllerCheckResult = Omit<ControllerCheckReport, "counterexample"> & {
  exercise: string;
  /** The exercise's goal, in plain words. */
  goal: string;
  /** `null` when it passed. */
  counterexample: ControllerCheckCounterexample | null;
};

/** The shrunk failing run of a `checkController`, and the link that replays it. */
export type ControllerCheckCounterexample = ControllerCounterexample & {
  /**
   * The playground page's hash (`#v4/…`) that replays the run from its
   * record, without the learner's code: add it to the playground page's
   * address. `null` where `CompressionStream("deflate-raw")` is missing.
   */
  link: string | null;
};

/** What `checkController(source)` resolves to: the report, and what the code printed. */
export type ControllerSourceCheckResult = ControllerCheckResult & {
  /** Console output by schedule (0 is the fault-free run, -1 the module's first import); at most 1,000 lines and 100,000 characters. */
  logs: { schedule: number; level: string; text: string }[];
};

/**
 * The message an embedded playground (`?embed&allow=ORIGIN`) posts to the
 * course page after a controller exercise's Check in "Your reconcile":
 * `checkController`'s result without the learner's output and the run's
 * record. Sent only to the origins `allow=` names. Not `CounterexampleView`,
 * which is the seed's `check()`: `reconcile-playground:checked` carries that.
 */
export type ControllerCheckedMessage = {
  type: "reconcile-playground:controller-checked";
  version: 1;
  passed: boolean;
  exercise: string;
  /** The exercise's goal, in plain words. */
  goal: string;
  schedulesExplored: number;
  properties: Property[];
  /** `null` when it passed; the link is the playground page's `#v4/…` hash that replays the run. */
  counterexample: Pick<ControllerCheckCounterexample, "property" | "detail" | "schedule" | "story" | "link"> | null;
};

/** Where a check of a learner's source was stopped: `error.stopped` of its rejection. */
export type ControllerCheckStopped = {
  /** "schedule": a schedule ran past 2 s; "load": the module's first import did; "start" or "gone": the sandbox. */
  reason: "schedule" | "load" | "start" | "gone";
  /** The schedule (0 is the fault-free run), and its faults. */
  schedule?: number;
  faults?: Fault[];
  /** The reconcile that ran, and its last client call, when known. */
  step?: { explored: number; request: string | null; call: { method: string; kind?: string; name?: string } | null } | null;
  message: string;
};

/**
 * Tries to break a learner's controller, given as the source of an ES module
 * that imports from "reconcile" and exports `reconcile(request, client)`: it
 * runs in the sandbox's worker next to the simulation, each process a fresh
 * import, each schedule stopped after 2 s. Rejects when the code does not
 * load, misuses the client (naming the call) or is stopped (`error.stopped`).
 * `language: "python"`: a Python module that defines `reconcile(request,
 * client)` and imports from `reconcile` (`ApiError`, `TerminalError`,
 * `cloud`); the same client in snake_case (`client.get(kind, name,
 * live=True)`, `update_status`, `cloud.ensure_load_balancer`), objects as
 * dicts, `{"requeue_after": ms}`; each process a fresh module namespace.
 * Its misuse errors carry the learner's `line`. Aborting `signal` ends the
 * sandbox's workers and rejects with an `AbortedCheckError`, as `fetch` rejects.
 */
export function checkController(
  source: string,
  options?: {
    language?: "javascript" | "python";
    exercise?: "owned-configmap" | "external-finalizer" | "replicas" | "status" | "conflicts";
    seed?: number;
    budget?: number;
    options?: SimOptions | string | null;
    /** `{ phase: "loading", percent }` while Pyodide downloads (Python's first check), then `{ phase: "checking", explored }`. */
    onProgress?: (progress: { phase: "loading"; percent: number } | { phase: "checking"; explored: number }) => void;
    /** Stops the check: its promise rejects with an `AbortedCheckError`. */
    signal?: AbortSignal;
  },
): Promise<ControllerSourceCheckResult>;

/**
 * Tries to break a controller: the fault-free run, then fault schedules up
 * to `budget` (1,000), the random ones drawn from `seed`; a failure is
 * shrunk and told. `load()` gives a fresh `reconcile` for each process (a
 * crash loses its memory); it runs on the page's thread. Rejects on misuse
 * of the client, naming the call.
 */
export function checkController(
  load: () =>
    | ((request: ReconcileRequest, client: ControllerClient) => ReconcileResult)
    | Promise<(request: ReconcileRequest, client: ControllerClient) => ReconcileResult>,
  options?: {
    exercise?: "owned-configmap" | "external-finalizer" | "replicas" | "status" | "conflicts";
    seed?: number;
    budget?: number;
    options?: SimOptions | string | null;
    onProgress?: (progress: { explored: number }) => void;
  },
): Promise<ControllerCheckResult>;

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
