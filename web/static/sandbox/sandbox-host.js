// The playground's side of the sandbox for the learner's own reconcile (issue 14).
// Loaded on demand (never by the page's first view). See README.md beside this file.
//
//   const { Sandbox } = await import("./sandbox-host.js");
//   const sandbox = new Sandbox();
//   const run = await sandbox.run(source, [{ desired, observed, finalizers }]);
//   // run.results[i]: { ok: true, json } | { ok: false, error: { name, message, line, column, stack } }
//   // run.logs: [{ index, level, text }]; run.stopped / run.loadError: why the run ended early
//   const py = await sandbox.run(pythonSource, cases, { language: "python" });
//   // { signal }: an AbortSignal; aborting ends the worker, and the run resolves with stopped.reason "learner"
//   // py.python: { warm, startMs }: whether Python was already running, and how long it took to start
//
// `desired`, `observed` and `finalizers` are JSON text (finalizers may be left out).
// JavaScript is an ES module that exports `reconcile`; Python defines `def reconcile(...)`.

/** One call of the learner's reconcile may run this long. */
export const CALL_LIMIT_MS = 2000;
/** A whole run (a Check) may run this long. */
export const RUN_LIMIT_MS = 30000;
/** One schedule of a controller check (issue 30) may run this long, the loading of its processes' modules included. */
export const SCHEDULE_LIMIT_MS = 2000;
/** Starting Python (Pyodide) may take this long; it counts against neither limit above. */
export const PYTHON_START_LIMIT_MS = 20000;
/** Starting the worker for a JavaScript run may take this long (a busy machine); it counts against neither limit above. */
export const WORKER_START_LIMIT_MS = 10000;
/** How long the sandbox page may take to start. */
const START_LIMIT_MS = 10000;
/** Pyodide's files the Python worker needs, under `pyodide/` beside the sandbox. */
const PYODIDE_FILES = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"];
const LANGUAGES = ["javascript", "python"];
/** What a controller check's worker imports, by the name the worker knows it (README.md). */
const CONTROLLER_FILES = {
  glue: "pkg/reconcile_loop.js",
  wasm: "pkg/reconcile_loop_bg.wasm",
  controller: "pkg/controller.js",
  lexer: "sandbox-lexer.js",
  check: "sandbox-controller.js",
};
/** The sandbox's page, framed with the `sandbox` attribute. */
const SANDBOX_PAGE = "sandbox.html";
/** The same page as the playground's service worker answers it, with a CSP `sandbox`
 *  header instead of the attribute: no engine lets a worker answer a frame that has the
 *  attribute, so only this one opens offline (sw.js, SANDBOXED_FRAME; README.md). */
const SANDBOXED_BY_WORKER = "sandbox-sw.html";
/** What sw-register.js reads for files the page's resource timing does not show. */
const USED_MARK = "playground:used";
/** Past the sandbox's own deadlines: silence this long means the sandbox itself is gone. */
const GRACE_MS = 1500;

const seconds = (ms) => `${ms / 1000} ${ms === 1000 ? "second" : "seconds"}`;

/** What the learner is told when a run is stopped. */
export function stoppedMessage(reason, index, total, limits = {}) {
  const call = limits.callLimitMs ?? CALL_LIMIT_MS;
  const run = limits.runLimitMs ?? RUN_LIMIT_MS;
  switch (reason) {
    case "load":
      return `Your code ran for more than ${seconds(call)} while it was loading (its top level, before reconcile was called), so it was stopped. Look for a loop that never ends.`;
    case "call":
      return `Your reconcile ran for more than ${seconds(call)} on case ${index + 1} of ${total}, so it was stopped. Look for a loop that never ends.`;
    case "start":
      if (limits.language !== "python") {
        return `The sandbox could not start a worker for your code within ${seconds(limits.workerStartLimitMs ?? WORKER_START_LIMIT_MS)}, so the run was stopped. Try again; a busy machine may need a page with fewer tabs.`;
      }
      return `Python did not start within ${seconds(limits.pythonStartLimitMs ?? PYTHON_START_LIMIT_MS)}, so the run was stopped. Try again; a busy or low-memory machine may need a page with fewer tabs.`;
    case "schedule":
      return `Your controller ran for more than ${seconds(limits.scheduleLimitMs ?? SCHEDULE_LIMIT_MS)} on ${scheduleText(index, limits.faults)}${stepText(limits.step)}, so the check was stopped. Look for a loop that never ends.`;
    case "learner":
      return "You stopped the check before it ended.";
    case "total":
      return `The check took more than ${seconds(run)} in all, so it was stopped after ${Math.max(0, index)} of ${total} cases. Your reconcile may be too slow on large inputs.`;
    default:
      return "The sandbox that runs your code stopped answering (it may have run out of memory), so the run was stopped.";
  }
}

/** "schedule 4 (crash-before, other-writer)", or "the fault-free run". */
function scheduleText(index, faults = []) {
  if (index <= 0 && !faults.length) return "the fault-free run";
  return `schedule ${index + 1} (${faults.join(", ")})`;
}

/** Which reconcile and client call ran last, as the watcher heard them. */
function stepText(step) {
  if (!step?.request) return ", before any reconcile";
  const call = step.call ? `its last client call was client.${step.call.method}(${[step.call.kind, step.call.name].filter(Boolean).map((part) => JSON.stringify(part)).join(", ")})` : "before any client call";
  return `, in the reconcile of ${JSON.stringify(step.request)} (${call})`;
}

/** Whether the playground's own service worker (beside the sandbox) serves this page.
 *  A course page's own worker, or none, gets the attribute. */
function servedByPlayground(base) {
  return globalThis.navigator?.serviceWorker?.controller?.scriptURL === new URL("sw.js", base).href;
}

export class Sandbox {
  /**
   * @param {{ base?: string | URL, callLimitMs?: number, runLimitMs?: number, pythonStartLimitMs?: number, scheduleLimitMs?: number }} [options]
   *   base: where sandbox.html, sandbox-worker.js and pyodide/ are (default: beside this module).
   */
  constructor(options = {}) {
    this.base = new URL(options.base ?? "./", import.meta.url);
    this.callLimitMs = options.callLimitMs ?? CALL_LIMIT_MS;
    this.runLimitMs = options.runLimitMs ?? RUN_LIMIT_MS;
    this.pythonStartLimitMs = options.pythonStartLimitMs ?? PYTHON_START_LIMIT_MS;
    this.scheduleLimitMs = options.scheduleLimitMs ?? SCHEDULE_LIMIT_MS;
    this.pythonHandedOver = false;
    this.controllerHandedOver = false;
    this.frame = null;
    this.port = null;
    this.starting = null;
    this.workerSource = null;
    this.busy = false;
    this.nextId = 1;
  }

  /** Starts the sandbox page now (it otherwise starts on the first run). */
  start() {
    this.starting ??= this.#connect().catch((error) => {
      this.dispose();
      throw error;
    });
    return this.starting;
  }

  async #connect() {
    // The page fetches the worker's code itself and hands it over: the sandbox has an
    // opaque origin, so its own requests would say `Origin: null`, which a plain static
    // host refuses for module scripts and workers.
    if (this.workerSource === null) {
      const response = await fetch(new URL("sandbox-worker.js", this.base));
      if (!response.ok) throw new Error(`could not load the sandbox's worker (${response.status})`);
      this.workerSource = await response.text();
    }
    if (servedByPlayground(this.base)) {
      try {
        return await this.#open(SANDBOXED_BY_WORKER);
      } catch {
        // The worker did not answer the sandbox's page (an older version's worker, say):
        // the network has no page at that path, so nothing ran. The attribute still works online.
        this.frame?.remove();
      }
    }
    await this.#open(SANDBOX_PAGE);
    // The service worker caches what it never saw (sw-register.js): WebKit's resource
    // timing lists no frames, so the frame's page is named here.
    performance.mark(USED_MARK, { detail: [new URL(SANDBOX_PAGE, this.base).href] });
  }

  /** Frames `page` hidden, hands it the worker's code and waits until it is ready. */
  async #open(page) {
    const frame = document.createElement("iframe");
    // allow-scripts without allow-same-origin: the frame's origin is opaque. The page
    // the service worker answers gets the same flags from its CSP `sandbox` header.
    if (page === SANDBOX_PAGE) frame.setAttribute("sandbox", "allow-scripts");
    frame.setAttribute("title", "Sandbox for your code");
    frame.setAttribute("aria-hidden", "true");
    frame.setAttribute("tabindex", "-1");
    frame.setAttribute("referrerpolicy", "no-referrer");
    frame.hidden = true;
    frame.src = new URL(page, this.base).href;
    this.frame = frame;
    const channel = new MessageChannel();
    const ready = new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("the sandbox did not start")), START_LIMIT_MS);
      channel.port1.onmessage = (event) => {
        if (event.data?.type !== "ready") return;
        clearTimeout(timer);
        resolve();
      };
      frame.addEventListener(
        "load",
        () => {
          // An opaque origin cannot be named as a target, hence "*"; the port is the
          // only way back, and only the frame we just made (whose page runs none of
          // the learner's code) receives it.
          frame.contentWindow?.postMessage({ type: "reconcile-sandbox:connect", worker: this.workerSource }, "*", [channel.port2]);
        },
        { once: true },
      );
    });
    document.body.append(frame);
    await ready;
    this.port = channel.port1;
  }

  /**
   * Runs `source` on each case: JavaScript (an ES module exporting `reconcile`) in a
   * fresh worker; Python (`language: "python"`, defining `reconcile`) in a fresh namespace
   * of a Python worker kept between runs. Never rejects for anything the learner's code
   * does; rejects if the sandbox cannot start or another run is under way.
   * `onLoad(percent)` hears how much of Pyodide has been downloaded, on the first Python run.
   * Aborting `signal` ends the run's worker (as a time limit does) and resolves with
   * `stopped.reason` "learner" and what was done until then.
   */
  async run(source, calls, { language = "javascript", onLoad, signal } = {}) {
    if (!LANGUAGES.includes(language)) throw new Error(`unknown language ${JSON.stringify(language)}; expected "javascript" or "python"`);
    if (this.busy) throw new Error("a run is already under way");
    const stopped = () => ({ results: [], logs: [], stopped: { reason: "learner", index: -1, message: stoppedMessage("learner") } });
    return this.#whileBusy(signal, stopped, async () => {
      if (language === "python") await this.#handOverPython(onLoad, signal);
      return this.#run(String(source), calls.map(normalizeCall), language, signal);
    });
  }

  /**
   * Runs `work` once the sandbox has started, as the one run under way. Aborted
   * before `work` sends anything to the sandbox (say, while Pyodide downloads), it
   * resolves to `stopped()`: nothing of the learner's ran.
   */
  async #whileBusy(signal, stopped, work) {
    this.busy = true;
    try {
      if (signal?.aborted) return stopped();
      await this.start();
      if (signal?.aborted) return stopped();
      return await work();
    } catch (error) {
      if (signal?.aborted) return stopped();
      throw error;
    } finally {
      this.busy = false;
    }
  }

  /**
   * Checks a learner's controller, `source` an ES module that imports from "reconcile"
   * and exports `reconcile(request, client)` (or, `language: "python"`, a Python module
   * that defines `reconcile(request, client)`), in one worker of the sandbox with the
   * simulation (the loop module), each schedule stopped after `SCHEDULE_LIMIT_MS`.
   * Python starts in that worker from the files handed over once (`onLoad(percent)`
   * hears their download), within `PYTHON_START_LIMIT_MS`.
   * Resolves to `{ goal, report, logs }`, or `{ loadError | checkError | stopped, logs }`;
   * rejects if the sandbox cannot start or another run is under way.
   * `onProgress({ explored })` hears the schedules explored so far. Aborting `signal`
   * ends the check's workers (as a time limit does) and resolves with `stopped.reason` "learner".
   */
  async checkController(source, { language = "javascript", exercise, seed, budget, options = null, onProgress, onLoad, signal } = {}) {
    if (!LANGUAGES.includes(language)) throw new Error(`unknown language ${JSON.stringify(language)}; expected one of ${LANGUAGES.join(", ")}`);
    if (this.busy) throw new Error("a run is already under way");
    const stopped = () => ({ logs: [], stopped: { reason: "learner", schedule: -1, faults: [], step: null, message: stoppedMessage("learner") } });
    return this.#whileBusy(signal, stopped, async () => {
      if (language === "python") await this.#handOverPython(onLoad, signal);
      await this.#handOverController();
      return this.#check({ source: String(source), language, exercise, seed, budget, options }, onProgress, signal);
    });
  }

  /** Fetches the loop module, its client and the lexer (same origin) and transfers them to the frame, once per frame. */
  async #handOverController() {
    if (this.controllerHandedOver) return;
    const names = Object.keys(CONTROLLER_FILES);
    const buffers = await Promise.all(
      names.map(async (name) => {
        const response = await fetch(new URL(CONTROLLER_FILES[name], this.base));
        if (!response.ok) throw new Error(`could not load ${CONTROLLER_FILES[name]} for the check (${response.status})`);
        return response.arrayBuffer();
      }),
    );
    this.port.postMessage({ type: "controller", files: Object.fromEntries(names.map((name, i) => [name, buffers[i]])) }, buffers);
    this.controllerHandedOver = true;
  }

  #check(request, onProgress, signal) {
    // Python starts in the check's worker, within Python's start limit.
    const startLimitMs = request.language === "python" ? this.pythonStartLimitMs : WORKER_START_LIMIT_MS;
    const sent = { type: "check", ...request, scheduleLimitMs: this.scheduleLimitMs, startLimitMs };
    // The sandbox stops a schedule itself and reports within its limit (and the
    // watcher's half second); silence past that means the sandbox is gone.
    const gone = { logs: [], stopped: { reason: "gone", message: stoppedMessage("gone") } };
    return this.#exchange(sent, this.scheduleLimitMs + 500, gone, (m) => {
      if (m.type === "progress") return void onProgress?.({ explored: m.explored });
      const outcome = { logs: m.logs ?? [] };
      if (m.type === "checked") Object.assign(outcome, { goal: m.goal, report: m.report });
      else if (m.type === "load-error") outcome.loadError = m.error;
      else if (m.type === "check-error") outcome.checkError = m.error;
      else if (m.type === "stopped") {
        const limits = { scheduleLimitMs: this.scheduleLimitMs, pythonStartLimitMs: this.pythonStartLimitMs, faults: m.faults, step: m.step, language: request.language };
        const message = stoppedMessage(m.reason, m.schedule, 0, { ...limits, callLimitMs: this.scheduleLimitMs });
        outcome.stopped = { reason: m.reason, schedule: m.schedule, faults: m.faults, step: m.step, message };
      }
      return outcome;
    }, signal);
  }

  /**
   * Posts `sent` to the sandbox under a fresh id, and resolves to the first outcome
   * `outcomeOf(report)` gives for a report of that id (`undefined`: not yet). A watchdog
   * runs meanwhile: silence past `limitMs` (or a `starting` report's own limit), plus
   * `GRACE_MS`, means the sandbox is gone; it is removed, and the outcome is `gone`.
   * Aborting `signal` asks the sandbox to stop the run, which it reports as `stopped`.
   */
  #exchange(sent, limitMs, gone, outcomeOf, signal) {
    const id = this.nextId++;
    const port = this.port;
    return new Promise((resolve) => {
      let watchdog = 0;
      const stop = () => port.postMessage({ type: "stop", id });
      const end = (outcome) => {
        clearTimeout(watchdog);
        signal?.removeEventListener("abort", stop);
        port.onmessage = null;
        resolve(outcome);
      };
      const watch = (ms = limitMs) => {
        clearTimeout(watchdog);
        watchdog = setTimeout(() => {
          this.dispose();
          end(gone);
        }, ms + GRACE_MS);
      };
      port.onmessage = (event) => {
        const m = event.data;
        if (!m || m.id !== id) return;
        watch(m.type === "starting" ? m.limitMs : undefined);
        if (m.type === "starting") return;
        const outcome = outcomeOf(m);
        if (outcome !== undefined) end(outcome);
      };
      watch();
      port.postMessage({ ...sent, id });
      if (signal?.aborted) stop();
      else signal?.addEventListener("abort", stop, { once: true });
    });
  }

  /**
   * Fetches Pyodide's files and the Python harness (same origin) and transfers them to the
   * frame, once per frame: the frame's opaque origin may fetch nothing itself.
   */
  async #handOverPython(onLoad, signal) {
    if (this.pythonHandedOver) return;
    const progress = downloadProgress(onLoad);
    const fetchFrom = async (path, read) => {
      const response = await fetch(new URL(path, this.base), { signal });
      if (!response.ok) throw new Error(`could not load ${path} for Python (${response.status})`);
      return read === "text" ? response.text() : progress.read(response);
    };
    const [harness, controllerHarness, ...buffers] = await Promise.all([
      fetchFrom("sandbox-harness.py", "text"),
      fetchFrom("sandbox-controller.py", "text"),
      ...PYODIDE_FILES.map((name) => fetchFrom(`pyodide/${name}`, "arrayBuffer")),
    ]);
    const files = Object.fromEntries(PYODIDE_FILES.map((name, i) => [name, buffers[i]]));
    this.port.postMessage({ type: "python", harness, controllerHarness, files }, buffers);
    this.pythonHandedOver = true;
  }

  #run(source, calls, language, signal) {
    const limits = { language, callLimitMs: this.callLimitMs, runLimitMs: this.runLimitMs, pythonStartLimitMs: this.pythonStartLimitMs };
    const startLimitMs = language === "python" ? this.pythonStartLimitMs : WORKER_START_LIMIT_MS;
    const sent = { type: "run", language, source, calls, callLimitMs: this.callLimitMs, totalLimitMs: this.runLimitMs, startLimitMs };
    // The sandbox stops the worker itself at each deadline and reports within
    // callLimitMs of its last message; silence past that means the sandbox is gone.
    // While its worker (and Python) starts, the sandbox's own deadline is the start limit.
    const gone = { results: [], logs: [], stopped: { reason: "gone", index: -1, message: stoppedMessage("gone", -1, calls.length, limits) } };
    return this.#exchange(sent, this.callLimitMs, gone, (m) => {
      if (m.type === "progress") return undefined;
      const outcome = { results: m.results ?? [], logs: m.logs ?? [], elapsedMs: m.elapsedMs };
      if (m.python) outcome.python = m.python;
      if (m.type === "stopped") {
        // For the run's limit, what counts is how many cases were done.
        const index = m.reason === "total" ? outcome.results.length : m.index;
        outcome.stopped = { reason: m.reason, index: m.index, message: stoppedMessage(m.reason, index, calls.length, limits) };
      } else if (m.type === "load-error") {
        outcome.loadError = m.error;
      } else if (m.type === "done" && outcome.results.length !== calls.length) {
        outcome.stopped = { reason: "gone", index: outcome.results.length, message: stoppedMessage("gone", -1, calls.length, limits) };
      }
      return outcome;
    }, signal);
  }

  /** Removes the sandbox page, and with it every worker it started. */
  dispose() {
    this.port?.close();
    this.frame?.remove();
    this.port = null;
    this.frame = null;
    this.starting = null;
    this.pythonHandedOver = false;
    this.controllerHandedOver = false;
  }
}

/**
 * Reads responses to ArrayBuffers while telling `onLoad` the share of all their
 * bytes read so far (by Content-Length; a response without one counts when done).
 */
function downloadProgress(onLoad) {
  let total = 0;
  let received = 0;
  let last = -1;
  const tell = () => {
    const percent = total ? Math.min(100, Math.floor((received / total) * 100)) : 0;
    if (percent !== last) onLoad?.((last = percent));
  };
  return {
    async read(response) {
      const length = Number(response.headers.get("content-length")) || 0;
      total += length;
      if (!response.body || !length) {
        const buffer = await response.arrayBuffer();
        received += length;
        tell();
        return buffer;
      }
      const bytes = new Uint8Array(length);
      const reader = response.body.getReader();
      let at = 0;
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
        // A server may send more than it announced (or compress): grow if so.
        if (at + chunk.value.length > bytes.length) return concatRest(bytes.subarray(0, at), chunk.value, reader);
        bytes.set(chunk.value, at);
        at += chunk.value.length;
        received += chunk.value.length;
        tell();
      }
      return at === bytes.length ? bytes.buffer : bytes.buffer.slice(0, at);
    },
  };
}

async function concatRest(head, chunk, reader) {
  const parts = [head, chunk];
  for (let next = await reader.read(); !next.done; next = await reader.read()) parts.push(next.value);
  return new Blob(parts).arrayBuffer();
}

function normalizeCall(call) {
  const text = (value, name) => {
    if (typeof value !== "string") throw new TypeError(`${name} must be JSON text`);
    return value;
  };
  const normalized = { desired: text(call.desired, "desired"), observed: text(call.observed, "observed") };
  if (call.finalizers !== undefined && call.finalizers !== null) normalized.finalizers = text(call.finalizers, "finalizers");
  else if (call.finalizers === null) normalized.finalizers = "null";
  return normalized;
}
