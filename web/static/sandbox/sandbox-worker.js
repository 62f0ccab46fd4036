// The harness that runs the learner's reconcile, inside a dedicated worker of the
// sandbox page (sandbox.html), which starts it from a blob: URL made of this file's
// text as the playground sent it. See README.md beside this file.
//
// JavaScript: one worker runs one request (`run`): it imports the learner's module
// from a blob: URL (so stack traces carry the learner's own line numbers), then calls
// `reconcile` on each case and reports over the private port the relay sent, never
// over self.postMessage, which the learner's code can use as well.
//
// Python: a worker asked to `init` starts Python (Pyodide) from the files the page
// handed over, then takes runs over its private port. It outlives a run: starting
// Python takes seconds, so the relay keeps the worker and only starts a new one after
// it had to stop it at a time limit. Each run's code runs in a fresh namespace
// (sandbox-harness.py). It fetches nothing: the few requests Pyodide makes while it
// starts are answered from the Blobs the page handed over (see `serveFrom`).
"use strict";
(() => {
  // Never run with a real origin: only an opaque one keeps the site's storage out of reach.
  if (self.origin !== "null") {
    self.close();
    return;
  }
  // Taken before the learner's code runs, so that patching globals or prototypes
  // cannot change what the harness reports. Python code reaches this worker's globals
  // through Pyodide's `js` module, but not these, nor the port: they stay in this closure.
  const apply = Reflect.apply;
  const portPost = MessagePort.prototype.postMessage;
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const createUrl = URL.createObjectURL;
  const now = () => performance.now();
  const BlobType = Blob;
  const StringOf = String;
  const errorName = (error) => {
    try {
      return StringOf(error.name);
    } catch {
      return "Error";
    }
  };

  let port = null;
  let current = -1;
  const send = (message) => apply(portPost, port, [message]);
  // The learner's code gets no way to message the sandbox page: each message would be a
  // task on that page's thread, which in Firefox and WebKit is the playground's too.
  for (const scope of [self, Object.getPrototypeOf(self)]) {
    try {
      delete scope.postMessage;
    } catch {}
  }
  // Console output is capped here as well as in the relay, for the same reason.
  const LOG_LINES = 1000;
  const LOG_CHARS = 100000;
  let logLines = 0;
  let logChars = 0;
  const emit = (level, text) => {
    if (logLines >= LOG_LINES || logChars >= LOG_CHARS) return;
    logLines++;
    logChars += text.length;
    send({ type: "log", level, index: current, text });
  };

  /** Console output as text, the way a terminal would print it. */
  const show = (value) => {
    if (typeof value === "string") return value;
    if (value instanceof Error) return `${errorName(value)}: ${value.message}`;
    try {
      const text = stringify(value);
      if (text !== undefined) return text;
    } catch {}
    try {
      return StringOf(value);
    } catch {
      return "[value]";
    }
  };
  for (const level of ["log", "info", "warn", "error", "debug"]) {
    console[level] = (...args) => {
      if (logLines >= LOG_LINES || logChars >= LOG_CHARS) return;
      let text = "";
      for (let i = 0; i < args.length; i++) text += (i ? " " : "") + show(args[i]);
      emit(level, text);
    };
  }

  /**
   * An error as data: name, message, the line and column in the learner's code,
   * and the stack cut to the learner's frames, with their file shown as `your code`.
   */
  const describe = (error, url) => {
    const described = { name: "Error", message: "", stack: "", line: null, column: null };
    if (error === null || (typeof error !== "object" && typeof error !== "function")) {
      described.message = `a value that is not an Error was thrown: ${show(error)}`;
      return described;
    }
    described.name = errorName(error);
    try {
      described.message = StringOf(error.message);
    } catch {}
    let stack = "";
    try {
      stack = StringOf(error.stack || "");
    } catch {}
    const frames = [];
    for (const frame of stack.split("\n")) {
      if (!frame.includes(url)) continue;
      const at = frame.lastIndexOf(url);
      const place = /^:(\d+):(\d+)/.exec(frame.slice(at + url.length));
      if (place && described.line === null) {
        described.line = Number(place[1]);
        described.column = Number(place[2]);
      }
      frames.push(frame.split(url).join("your code").trim());
    }
    // Firefox and WebKit give a syntax error's place as properties of the error.
    if (described.line === null) {
      const file = error.fileName ?? error.sourceURL;
      const line = error.lineNumber ?? error.line;
      if (file === url && typeof line === "number") {
        described.line = line;
        const column = error.columnNumber ?? error.column;
        described.column = typeof column === "number" ? column : null;
      }
    }
    described.stack = frames.join("\n");
    return described;
  };

  /**
   * Where a syntax error is, when the engine does not say (Chromium gives a module's
   * syntax error no place). A nested classic worker parses the same text, with each
   * `export` keyword blanked out (same length, so places stay) and `throw 0;` in
   * front (so nothing runs if it parses); a classic worker's parse error is reported
   * with its line and column. Used only when both parsers give the same message.
   */
  const locateSyntaxError = (source, message) =>
    new Promise((resolve) => {
      const prefix = "throw 0;";
      const classic = prefix + source.replace(/((?:^|[\n;{}])\s*)export(\s+default)?(?=\s)/g, (_, before, isDefault) => before + " ".repeat(6 + (isDefault ? isDefault.length : 0)));
      let checker;
      try {
        checker = new Worker(apply(createUrl, URL, [new BlobType([classic], { type: "text/javascript" })]));
      } catch {
        resolve(null);
        return;
      }
      const timer = setTimeout(() => finish(null), 1000);
      const finish = (place) => {
        clearTimeout(timer);
        checker.terminate();
        resolve(place);
      };
      checker.onerror = (event) => {
        event.preventDefault();
        const same = typeof event.message === "string" && event.message.includes("SyntaxError") && event.message.endsWith(message);
        if (!same || !(event.lineno > 0)) return finish(null);
        finish({ line: event.lineno, column: event.lineno === 1 ? event.colno - prefix.length : event.colno });
      };
    });

  /**
   * The learner's code loaded: each case in order, said before it is called (the relay
   * times each call from there), then its result `{ ok, json }` or `{ ok: false, error }`.
   */
  const runCases = async (calls, answer, doneReport = () => ({})) => {
    send({ type: "loaded" });
    for (let index = 0; index < calls.length; index++) {
      current = index;
      send({ type: "call", index });
      const result = await answer(calls[index]);
      send(result.ok ? { type: "result", index, ok: true, json: result.json } : { type: "result", index, ok: false, error: result.error });
    }
    current = -1;
    send({ type: "done", ...doneReport() });
  };

  /** Where Pyodide thinks its files are; every request for them is answered from memory. */
  const INDEX_URL = "https://pyodide.sandbox.invalid/";

  /**
   * A stand-in for fetch while Pyodide starts: it asks for pyodide.asm.wasm and
   * python_stdlib.zip by URL, and gets them from the Blobs the page handed over.
   * Anything else is refused (the sandbox's CSP would refuse it anyway).
   */
  const serveFrom = (files) => async (resource) => {
    const url = StringOf(resource instanceof Request ? resource.url : resource);
    const served = { [`${INDEX_URL}pyodide.asm.wasm`]: files.wasm, [`${INDEX_URL}python_stdlib.zip`]: files.stdlib };
    const blob = served[url];
    if (!blob) throw new TypeError(`the sandbox fetches nothing (${url})`);
    return new Response(blob, { headers: { "content-type": blob.type } });
  };

  /** Starts Pyodide from the handed-over files, then the harness; resolves to the harness's functions. */
  const startPython = async (files, harnessSource, extraSource = null) => {
    const moduleUrl = (blob) => apply(createUrl, URL, [blob]);
    const realFetch = self.fetch;
    self.fetch = serveFrom(files);
    let pyodide;
    try {
      const { loadPyodide } = await import(moduleUrl(files.pyodide));
      const { default: createPyodideModule } = await import(moduleUrl(files.asm));
      pyodide = await loadPyodide({
        indexURL: INDEX_URL,
        lockFileContents: await files.lock.text(),
        createPyodideModule,
        stdout: () => {},
        stderr: () => {},
      });
    } finally {
      self.fetch = realFetch;
    }
    const namespace = pyodide.globals.get("dict")();
    pyodide.runPython(harnessSource, { globals: namespace, filename: "sandbox-harness.py" });
    // A controller check's Python side uses the harness's functions, so it shares its namespace.
    if (extraSource !== null) pyodide.runPython(extraSource, { globals: namespace, filename: "sandbox-controller.py" });
    namespace.get("start")((level, text) => emit(StringOf(level), StringOf(text)));
    // WebAssembly memory grows and never shrinks: the relay lets a worker that grew large go.
    const memoryBytes = () => pyodide._module.HEAPU8.byteLength;
    return { load: namespace.get("load"), call: namespace.get("call"), memoryBytes, get: (name) => namespace.get(name) };
  };

  /** What the harness returned (JSON text), or a harness failure, as a report's fields. */
  const outcome = (run) => {
    try {
      return parse(run());
    } catch (error) {
      return { ok: false, error: { name: "Error", message: `the sandbox's Python harness failed: ${error}`, stack: "", line: null, column: null } };
    }
  };

  let runs = 0;
  /** One Python run: the learner's code in a fresh namespace, then each case. */
  const runPython = (harness, request, startMs) => {
    current = -1;
    logLines = 0;
    logChars = 0;
    send({ type: "begin", warm: runs > 0, startMs });
    runs++;
    const loaded = outcome(() => harness.load(request.source) || '{"ok":true}');
    if (!loaded.ok) {
      send({ type: "load-error", error: loaded.error, memoryBytes: harness.memoryBytes() });
      return;
    }
    // undefined becomes Python's None (JavaScript's null would become jsnull).
    runCases(
      request.calls,
      (call) => outcome(() => harness.call(call.desired, call.observed, call.finalizers ?? undefined)),
      () => ({ memoryBytes: harness.memoryBytes() }),
    );
  };

  /** A Python worker: starts Python, then takes runs over the private port. */
  const servePython = (request) => {
    const began = now();
    const ready = startPython(request.files, request.harness).then(
      (harness) => {
        const startMs = Math.round(now() - began);
        send({ type: "started", startMs });
        return { harness, startMs };
      },
      (error) => {
        send({ type: "start-error", error: { name: "Error", message: `Python could not start in the sandbox: ${error}`, stack: "", line: null, column: null } });
        return null;
      },
    );
    // Runs come over the private port, which the learner's code cannot reach.
    port.onmessage = async (message) => {
      const started = await ready;
      if (started && message.data?.type === "run") runPython(started.harness, message.data, started.startMs);
    };
  };

  self.onmessage = (event) => {
    self.onmessage = null;
    const request = event.data;
    port = event.ports[0];
    if (!port || !request) return;
    if (request.type === "run") runJavaScript(request);
    else if (request.type === "init") servePython(request);
    else if (request.type === "check") checkController(request, event.ports[1]);
    else if (request.type === "watch") watchSteps(event.ports[1]);
  };

  const plainError = (message, line = null) => ({ name: "Error", message, stack: "", line, column: null });

  /**
   * Imports the learner's module from `url` (made of `source`), or reports why it
   * did not load and resolves to null. The relay's load limit starts here: a busy
   * machine may take seconds to start this worker, which is not the learner's code.
   */
  const importLearner = async (url, source, signature, parsable = source) => {
    let module;
    try {
      send({ type: "importing" });
      module = await import(url);
    } catch (error) {
      const described = describe(error, url);
      if (described.name === "SyntaxError" && described.line === null && typeof Worker === "function") {
        const place = await locateSyntaxError(parsable, described.message);
        if (place) {
          described.line = place.line;
          described.column = place.column;
        }
      }
      send({ type: "load-error", error: described });
      return null;
    }
    if (typeof module.reconcile !== "function") {
      send({ type: "load-error", error: plainError(`your code does not export a function named reconcile (write \`export function reconcile(${signature}) { … }\`)`) });
      return null;
    }
    return module;
  };

  /** One JavaScript run: imports the learner's module, then calls reconcile on each case. */
  const runJavaScript = async (request) => {
    const url = apply(createUrl, URL, [new BlobType([request.source], { type: "text/javascript" })]);
    const module = await importLearner(url, request.source, "desired, observed, finalizers");
    if (!module) return;
    const reconcile = module.reconcile;
    await runCases(request.calls, async (call) => {
      try {
        // Each call gets its own copies: what one call changes, the next never sees.
        const finalizers = call.finalizers === undefined ? undefined : parse(call.finalizers);
        let value = reconcile(parse(call.desired), parse(call.observed), finalizers);
        if (value !== null && typeof value === "object" && typeof value.then === "function") {
          value = await value;
        }
        const json = stringify(value);
        return { ok: true, json: json === undefined ? null : json };
      } catch (error) {
        return { ok: false, error: describe(error, url) };
      }
    });
  };

  /**
   * A learner's controller under check (issue 30): starts the simulation from the
   * handed-over Blobs (sandbox-controller.js), links and imports the learner's
   * module, then runs the check here. Before each schedule it tells the relay,
   * which gives each schedule its time limit; each reconcile and client call goes
   * to `steps`, the watcher's port, so a stopped check can say what ran.
   */
  const checkController = async (request, steps) => {
    const urlOf = (blob) => apply(createUrl, URL, [blob]);
    let engine;
    try {
      engine = await (await import(urlOf(request.files.check))).start(request.files, urlOf);
    } catch (error) {
      send({ type: "load-error", error: plainError(`the sandbox could not start the simulation: ${error}`) });
      return;
    }
    if (request.language === "python") {
      checkPython(request, engine, steps);
      return;
    }
    let linked;
    try {
      linked = engine.link(request.source);
    } catch (error) {
      send({ type: "load-error", error: plainError(StringOf(error.message), error.line ?? null) });
      return;
    }
    const url = urlOf(new BlobType([linked], { type: "text/javascript" }));
    // From the first line of the learner's code on, the clock is the simulation's.
    engine.useClock();
    if (!(await importLearner(url, request.source, "request, client", engine.withoutImports(request.source)))) return;
    // Each process imports the module afresh, so a crash loses what it kept in memory.
    let loads = 0;
    const load = async () => (await import(`${url}#${++loads}`)).reconcile;
    runCheck(request, engine, steps, load, (error) => ({ ...describe(error, url), method: typeof error?.method === "string" ? error.method : undefined }));
  };

  /**
   * A Python controller under check: starts Python from the handed-over files, with the
   * harness and its controller side (sandbox-controller.py), loads the learner's module
   * once, then gives each process a fresh module namespace. A client or cloud call from
   * Python comes back here as JSON text (`bridge`) and goes to the JavaScript client of
   * the reconcile in progress, so both languages share one client.
   */
  const checkPython = async (request, engine, steps) => {
    let harness;
    try {
      harness = await startPython(request.python, request.harness, request.controllerHarness);
    } catch (error) {
      send({ type: "load-error", error: plainError(`Python could not start in the sandbox: ${error}`) });
      return;
    }
    // Python reads the time through this worker's Date and performance: from here on, the simulation's.
    engine.useClock();
    send({ type: "importing" });
    const loaded = outcome(() => harness.get("load_controller")(request.source) || '{"ok":true}');
    if (!loaded.ok) {
      send({ type: "load-error", error: loaded.error });
      return;
    }
    let client = null;
    let misuse = null;
    const failed = (error) => ({ failed: { kind: error?.kind ?? null, message: StringOf(error?.message ?? error) } });
    harness.get("connect")((target, method, args) => {
      let answer;
      try {
        const made = parse(args);
        if (target !== "cloud" && !client) throw Object.assign(new Error("no reconcile is running"), { kind: "notReconciling" });
        const value = target === "cloud" ? engine.cloud[method](...made) : client[method](...made);
        answer = { ok: value ?? null };
      } catch (error) {
        answer = error instanceof engine.ApiError ? { api: { status: error.status, reason: error.reason, message: error.message } } : failed(error);
      }
      return stringify(answer);
    });
    const reconcileIn = harness.get("reconcile");
    const newProcess = harness.get("process");
    const load = () => {
      const made = parse(newProcess());
      if (made.ok === false) throw Object.assign(new Error(made.error.message), { described: made.error });
      const id = made.ok;
      return (reconcileRequest, given) => {
        client = given;
        let answer;
        try {
          answer = parse(reconcileIn(id, stringify(reconcileRequest)));
        } finally {
          client = null;
        }
        if (answer.misuse) {
          misuse ??= answer.misuse;
          throw Object.assign(new Error(answer.misuse.message), { kind: "misuse", method: answer.misuse.method });
        }
        return answer.finish;
      };
    };
    const forget = harness.get("forget");
    runCheck(request, engine, steps, load, (error) => misuse ?? error?.described ?? { ...plainError(StringOf(error?.message ?? error)), method: error?.method }, forget);
  };

  /**
   * Runs the check of a loaded controller; `load()` gives a fresh reconcile per process,
   * `described(error)` a check error as data, and `onSchedule()` hears each schedule.
   */
  const runCheck = async (request, engine, steps, load, described, onSchedule = () => {}) => {
    send({ type: "loaded" });
    const step = (message) => apply(portPost, steps, [message]);
    const watch = {
      schedule(next, explored) {
        onSchedule();
        current = explored;
        send({ type: "schedule", explored, faults: next.schedule.map((placed) => placed.fault) });
        step({ explored, request: null, call: null });
      },
      reconcile(request) {
        step({ explored: current, request: request.name, call: null });
      },
      call(call) {
        step({ explored: current, request: null, call: { method: call.method, kind: call.kind ?? call.object?.kind, name: call.name ?? call.object?.metadata?.name } });
      },
    };
    const onProgress = ({ explored }) => send({ type: "progress", explored });
    try {
      const { goal, report } = await engine.check(load, request, onProgress, watch);
      current = -1;
      send({ type: "checked", goal, report });
    } catch (error) {
      // Misuse of the client, or a result that is not a reconcile's: the check cannot go on.
      send({ type: "check-error", error: described(error) });
    }
  };

  /**
   * The watcher: a worker of its own that keeps the last step the checking worker
   * told (off the sandbox page's thread, which in Firefox and WebKit is the
   * playground's), and answers the relay's question when a time limit stopped it.
   */
  const watchSteps = (steps) => {
    let last = null;
    steps.onmessage = (event) => {
      const m = event.data;
      if (m.call === null && m.request === null) last = { explored: m.explored, request: null, call: null };
      else if (m.call === null) last = { explored: m.explored, request: m.request, call: null };
      else if (last) last = { ...last, call: m.call };
    };
    port.onmessage = () => send({ type: "step", step: last });
  };
})();
