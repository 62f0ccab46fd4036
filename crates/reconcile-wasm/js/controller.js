// A learner's controller client over a driven run: /pkg/controller.js.
//
// The client of issue 30, with synchronous calls: each call is a plain call
// into the `DrivenRun` of the loop module (reconcile_loop.js), which runs the
// simulated cluster until its answer arrives. This module only shapes calls
// and errors; the run validates every call and decides every answer. It
// imports nothing, so the sandbox's worker loads it beside the loop module
// (web/static/sandbox/sandbox-controller.js).

/** A refused request: apimachinery's `StatusError`, with `status` and `reason`. */
export class ApiError extends Error {
  constructor(status, reason, message) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.reason = reason;
  }
}

/** An error that is not retried: controller-runtime's `reconcile.TerminalError`. */
export class TerminalError extends Error {
  constructor(message) {
    super(message);
    this.name = "TerminalError";
  }
}

/** Leaves out the members that are `undefined`, as `JSON.stringify` would. */
function defined(call) {
  return Object.fromEntries(Object.entries(call).filter(([, value]) => value !== undefined));
}

/** An options argument: an object, or nothing; else a misuse error naming the call. */
function readOptions(method, options) {
  if (options === undefined || options === null) return {};
  if (typeof options !== "object" || Array.isArray(options)) {
    const message = `client.${method}: its options are an object, such as { namespace: "default" }`;
    throw Object.assign(new TypeError(message), { kind: "misuse", method });
  }
  return options;
}

/** Sends one call to `run`, turning its errors into the client's. */
function senderFor(run, onMisuse) {
  return (call) => {
    try {
      return run.call(defined(call));
    } catch (error) {
      if (error?.kind === "api") throw new ApiError(error.status, error.reason, error.message);
      if (error?.kind === "misuse") onMisuse?.(error);
      throw error;
    }
  };
}

/** The sender of the reconcile running now, for `cloud`; `null` between reconciles. */
let running = null;
/** The simulated clock of the reconcile running now; `null` between reconciles. */
let clock = null;

/**
 * The simulated time, in milliseconds from the Unix epoch (the clock of the
 * objects' timestamps), while a reconcile runs; `null` between reconciles.
 * The sandbox makes the learner's `Date.now()` read it.
 */
export function simulatedNow() {
  return clock === null ? null : clock();
}

function toCloud(method, name) {
  if (running === null) {
    throw Object.assign(new Error(`cloud.${method}: no reconcile is running`), { kind: "notReconciling", method });
  }
  return running({ method, name });
}

/**
 * The external system of exercises that have one (`external-finalizer`):
 * each call is one request to the cloud, which takes time and can fail.
 * `getLoadBalancer` returns `null` when there is none; `deleteLoadBalancer`
 * throws `ApiError` 404 when there is none.
 */
export const cloud = Object.freeze({
  ensureLoadBalancer: (name) => toCloud("ensureLoadBalancer", name),
  getLoadBalancer: (name) => toCloud("getLoadBalancer", name),
  deleteLoadBalancer: (name) => toCloud("deleteLoadBalancer", name),
});

/**
 * The client a reconcile gets: `get`, `list`, `create`, `update`, `patch`,
 * `apply`, `delete`, `updateStatus`, `patchStatus`. Names are in the
 * request's namespace unless a `namespace` option says otherwise. A refused
 * request throws `ApiError`; misuse throws an `Error` naming the call.
 * `onMisuse`, if given, hears each misuse error before it is thrown.
 */
export function clientFor(run, onMisuse, send = senderFor(run, onMisuse)) {
  const optionsOf = (method, options) => {
    try {
      return readOptions(method, options);
    } catch (error) {
      onMisuse?.(error);
      throw error;
    }
  };
  return Object.freeze({
    get(kind, name, options) {
      const { live, namespace } = optionsOf("get", options);
      return send({ method: "get", kind, name, namespace, read: live ? "live" : "cache" });
    },
    list(kind, options) {
      const { labels, namespace } = optionsOf("list", options);
      return send({ method: "list", kind, namespace, labels });
    },
    create(object) {
      return send({ method: "create", object });
    },
    update(object) {
      return send({ method: "update", object });
    },
    patch(kind, name, patch, options) {
      const { type, resourceVersion, namespace } = optionsOf("patch", options);
      return send({ method: "patch", kind, name, namespace, patch, type, resourceVersion });
    },
    apply(object, options) {
      const { fieldManager, force } = optionsOf("apply", options);
      return send({ method: "apply", object, fieldManager, force });
    },
    delete(kind, name, options) {
      const { namespace, propagationPolicy } = optionsOf("delete", options);
      return send({ method: "delete", kind, name, namespace, propagationPolicy });
    },
    updateStatus(object) {
      return send({ method: "updateStatus", object });
    },
    patchStatus(kind, name, patch, options) {
      const { namespace } = optionsOf("patchStatus", options);
      return send({ method: "patchStatus", kind, name, namespace, patch });
    },
  });
}

/** What a thrown value becomes: a `TerminalError` is not retried, anything else is. */
function failure(error) {
  const text = error instanceof Error ? `${error.name}: ${error.message}` : `Error: ${String(error)}`;
  return error instanceof TerminalError ? { terminalError: text } : { error: text };
}

/**
 * Drives `run` (a `DrivenRun`) with `reconcile(request, client)` until the
 * run ends: each reconcile's result, or what it threw, goes to `finish`.
 * Misuse of the client ends the run: its error, naming the call, is thrown
 * here even if the reconcile caught it, since retrying cannot mend it. So
 * is a result that is not nothing or `{ requeueAfter: ms }`.
 */
export function drive(reconcile, run) {
  if (typeof reconcile !== "function") {
    throw new TypeError("runController: reconcile is not a function, such as function reconcile(request, client) { … }");
  }
  let misuse = null;
  const onMisuse = (error) => (misuse ??= error);
  const send = senderFor(run, onMisuse);
  const client = clientFor(run, onMisuse, send);
  const now = () => run.now;
  for (let request = run.nextReconcile(); request !== null; request = run.nextReconcile()) {
    let result;
    running = send;
    clock = now;
    try {
      result = reconcile(Object.freeze({ ...request }), client);
    } catch (error) {
      if (misuse) throw misuse;
      run.finish(failure(error));
      continue;
    } finally {
      running = null;
      clock = null;
    }
    if (misuse) throw misuse;
    if (result !== null && typeof result === "object" && typeof result.then === "function") {
      throw new TypeError("runController: reconcile returned a promise; the client is synchronous, so reconcile must not be async");
    }
    run.finish(result);
  }
}

/**
 * One process of a controller under check: `reconcile(request, send, now)`
 * for `ControllerCheck.run`, where `send(call)` is the client's one door
 * and `now()` the simulated clock.
 * The learner's errors become results, as in `drive`; misuse is thrown,
 * which ends the check.
 */
function processOf(reconcile, watch) {
  if (typeof reconcile !== "function") {
    throw new TypeError("checkController: load() gave no reconcile function, such as function reconcile(request, client) { … }");
  }
  return (request, call, now) => {
    let misuse = null;
    watch?.reconcile(request);
    const onMisuse = (error) => (misuse ??= error);
    // The sandbox's watcher hears each call (cloud's too) before it is made.
    const run = { call: watch ? (made) => (watch.call(made), call(made)) : call };
    const send = senderFor(run, onMisuse);
    const client = clientFor(run, onMisuse, send);
    let result;
    running = send;
    clock = now;
    try {
      result = reconcile(Object.freeze({ ...request }), client);
    } catch (error) {
      if (misuse) throw misuse;
      // A binding's own misuse (the sandbox's Python client) ends the check too.
      if (error?.kind === "misuse") throw error;
      return failure(error);
    } finally {
      running = null;
      clock = null;
    }
    if (misuse) throw misuse;
    if (result !== null && typeof result === "object" && typeof result.then === "function") {
      throw new TypeError("checkController: reconcile returned a promise; the client is synchronous, so reconcile must not be async");
    }
    return result ?? null;
  };
}

/** Time on the thread between yields, so no task of a check runs long. */
const SLICE_MS = 40;
/** The real clock, taken before the sandbox gives the learner's code the simulated one. */
const realNow = performance.now.bind(performance);

/**
 * Runs `check` (a `ControllerCheck`) to its end and resolves to its report.
 * `load()` gives a fresh `reconcile` for a process, or a promise of one: a
 * crash loses the process's memory, so each process gets its own. The
 * check yields to the event loop every few dozen milliseconds and tells
 * `onProgress({ explored })` then. `watch`, if given, hears each schedule
 * before it runs (`schedule(next, explored)`), each reconcile as it starts
 * (`reconcile(request)`) and each client call as it is made (`call(call)`):
 * the sandbox tells its time limits from these.
 */
export async function checkWith(check, load, onProgress, watch) {
  const fresh = [];
  let slice = realNow();
  for (let next = check.next(); next !== null; next = check.next()) {
    watch?.schedule(next, check.explored);
    while (fresh.length < next.processes) fresh.push(processOf(await load(), watch));
    check.run(() => {
      const process = fresh.shift();
      if (!process) throw new Error("checkController: a run needed more processes than its crashes allow");
      return process;
    });
    // A process that never ran kept its memory untouched: it may serve the next run.
    if (realNow() - slice > SLICE_MS) {
      onProgress?.({ explored: check.explored });
      await new Promise((resolve) => setTimeout(resolve, 0));
      slice = realNow();
    }
  }
  onProgress?.({ explored: check.explored });
  return check.report();
}
