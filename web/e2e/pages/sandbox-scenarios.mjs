// In-page scenarios for the sandbox (issue 14), shared by the Chromium spec
// (e2e/sandbox.spec.mjs) and the Firefox and WebKit runner (e2e/engines/run.mjs).
// Each runs inside the playground page itself (its origin, its storage, its CSP),
// imported from /__e2e/ as a module, and returns plain data for the runner to assert on.

const host = () => import("/sandbox-host.js");

export const SEED = {
  desired: '{"a":{"replicas":1},"b":{"replicas":2}}',
  observed: '{"b":{"replicas":1},"c":{"replicas":1}}',
};

/** A correct reconcile, as a learner might write it. */
export const CORRECT = `// A correct reconcile.
const same = (a, b) => {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => Object.prototype.hasOwnProperty.call(b, k) && same(a[k], b[k]));
};
const byCodePoint = (a, b) => {
  const x = [...a], y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i].codePointAt(0) - y[i].codePointAt(0);
    if (d) return d;
  }
  return x.length - y.length;
};
export function reconcile(desired, observed, finalizers) {
  const actions = [];
  for (const name of Object.keys(desired).sort(byCodePoint)) {
    if (!(name in observed)) actions.push(["CREATE", name, desired[name]]);
    else if (!same(desired[name], observed[name])) actions.push(["UPDATE", name, desired[name]]);
  }
  for (const name of Object.keys(observed).sort(byCodePoint)) {
    if (name in desired) continue;
    const pending = finalizers && finalizers[name] && finalizers[name].length > 0;
    actions.push([pending ? "FINALIZE" : "DELETE", name, null]);
  }
  return actions;
}
`;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A 50 ms timer on the page: how often it ticked, and its longest wait, until stop(). */
function tickMeter() {
  let ticks = 0;
  let last = performance.now();
  let maxGap = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    maxGap = Math.max(maxGap, now - last);
    last = now;
    ticks++;
  }, 50);
  return {
    stop() {
      clearInterval(timer);
      return { ticks, maxGapMs: Math.round(maxGap) };
    },
  };
}

/** How the frame is sandboxed: by its attribute, or by the CSP header of the playground's
 *  worker (the path only the worker answers; web/static/sandbox/README.md). */
function sandboxingOf(frame) {
  const attribute = frame?.getAttribute("sandbox") ?? null;
  const path = frame ? new URL(frame.src).pathname : "";
  if (attribute === "allow-scripts" && path.endsWith("/sandbox.html")) return "attribute";
  if (attribute === null && path.endsWith("/sandbox-sw.html")) return "worker";
  return `unexpected: sandbox=${attribute} at ${path}`;
}

/** 1. The seed example: the right actions, and the sandbox is an opaque-origin frame. */
export async function seed() {
  const { Sandbox } = await host();
  const before = document.querySelectorAll("iframe").length;
  // Known before the frame is made: the worker may take control of a first visit meanwhile.
  const servedByPlayground = navigator.serviceWorker?.controller?.scriptURL.endsWith("/sw.js") ?? false;
  const sandbox = new Sandbox();
  const run = await sandbox.run(CORRECT, [SEED, { ...SEED, finalizers: '{"c":["x"]}' }]);
  const frame = document.querySelector('iframe[title="Sandbox for your code"]');
  const report = {
    framesBefore: before,
    sandboxing: sandboxingOf(frame),
    servedByPlayground,
    frameReachable: frame ? frame.contentDocument !== null : null,
    results: run.results.map((r) => (r.ok ? JSON.parse(r.json) : r)),
    stopped: run.stopped ?? null,
    loadError: run.loadError ?? null,
  };
  sandbox.dispose();
  report.framesAfterDispose = document.querySelectorAll("iframe").length;
  return report;
}

/**
 * 2. A runaway loop is stopped after the call limit; meanwhile a timer on the page
 * keeps ticking (the longest gap between its ticks is reported), and the sandbox
 * works again afterwards.
 */
export async function runaway() {
  const { Sandbox, CALL_LIMIT_MS } = await host();
  const sandbox = new Sandbox();
  await sandbox.start();
  const longTasks = [];
  let observer = null;
  if (globalThis.PerformanceObserver?.supportedEntryTypes?.includes("longtask")) {
    observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) longTasks.push(Math.round(entry.duration));
    });
    observer.observe({ type: "longtask" });
  }
  const meter = tickMeter();
  const started = performance.now();
  const run = await sandbox.run(
    `export function reconcile() {\n  console.log("about to loop");\n  while (true) {}\n}\n`,
    [SEED, SEED],
  );
  const elapsedMs = performance.now() - started;
  const { ticks, maxGapMs } = meter.stop();
  await sleep(100);
  observer?.disconnect();
  const again = await sandbox.run(CORRECT, [SEED]);
  const load = await sandbox.run(`while (true) {}\nexport function reconcile() { return []; }\n`, [SEED]);
  sandbox.dispose();
  return {
    callLimitMs: CALL_LIMIT_MS,
    elapsedMs: Math.round(elapsedMs),
    stopped: run.stopped ?? null,
    results: run.results,
    logs: run.logs,
    ticks,
    maxGapMs,
    longTasks: observer ? longTasks : null,
    again: again.results.map((r) => (r.ok ? JSON.parse(r.json) : r)),
    loadStopped: load.stopped ?? null,
  };
}

/**
 * A reconcile that prints without end: its output is capped, and the page (whose
 * thread the sandbox page shares in Firefox and WebKit) keeps ticking.
 */
export async function flood() {
  const { Sandbox } = await host();
  const sandbox = new Sandbox();
  await sandbox.start();
  const meter = tickMeter();
  const run = await sandbox.run(`export function reconcile() {\n  for (let i = 0; ; i++) console.log("line", i);\n}\n`, [SEED]);
  const { ticks, maxGapMs } = meter.stop();
  sandbox.dispose();
  return { stopped: run.stopped ?? null, lines: run.logs.length, last: run.logs.at(-1) ?? null, ticks, maxGapMs };
}

/** A correct reconcile on 1,000 cases: how long the run takes once the sandbox has started. */
export async function throughput() {
  const { Sandbox } = await host();
  const sandbox = new Sandbox();
  await sandbox.start();
  const started = performance.now();
  const run = await sandbox.run(CORRECT, Array.from({ length: 1000 }, () => SEED));
  const elapsedMs = Math.round(performance.now() - started);
  sandbox.dispose();
  const distinct = [...new Set(run.results.map((r) => (r.ok ? r.json : JSON.stringify(r))))];
  return { elapsedMs, count: run.results.length, distinct: distinct.map((json) => JSON.parse(json)), stopped: run.stopped ?? null };
}

/** The run-wide limit, with small limits so the test stays short. */
export async function runLimit() {
  const { Sandbox } = await host();
  const sandbox = new Sandbox({ callLimitMs: 400, runLimitMs: 1000 });
  const started = performance.now();
  const run = await sandbox.run(
    `export function reconcile() { const end = Date.now() + 300; while (Date.now() < end) {} return []; }\n`,
    Array.from({ length: 10 }, () => SEED),
  );
  const elapsedMs = performance.now() - started;
  sandbox.dispose();
  return { elapsedMs: Math.round(elapsedMs), stopped: run.stopped ?? null, done: run.results.length };
}

const SECRET_KEY = "reconcile-sandbox-secret";

/**
 * What a reconcile sees when it reaches for the site's storage, cookies and the
 * page. Its source text goes into the learner's module, so it uses nothing from here.
 */
export async function probe(secretKey, site) {
  const withTimeout = (promise) => Promise.race([promise, new Promise((_, reject) => setTimeout(() => reject(new Error("no answer in 2 s")), 2000))]);
  const attempt = async (what) => {
    try {
      const value = await withTimeout(Promise.resolve().then(what));
      return value === undefined ? "undefined" : `value: ${typeof value === "string" ? value : JSON.stringify(value)}`;
    } catch (error) {
      return `threw: ${error && error.name}: ${error && error.message}`;
    }
  };
  const readIndexedDb = () =>
    new Promise((resolve, reject) => {
      const request = indexedDB.open(secretKey);
      request.onupgradeneeded = () => {
        request.transaction.abort();
        resolve("the page's database is not there");
      };
      request.onerror = () => reject(request.error);
      request.onsuccess = () => {
        const db = request.result;
        const get = db.transaction("kv").objectStore("kv").get("secret");
        get.onsuccess = () => {
          db.close();
          resolve(get.result);
        };
        get.onerror = () => reject(get.error);
      };
    });
  return {
    origin: await attempt(() => self.origin),
    localStorage: await attempt(() => localStorage.getItem(secretKey)),
    sessionStorage: await attempt(() => sessionStorage.getItem(secretKey)),
    // Names first: opening a database or a cache by name makes an empty one where
    // the probe runs, which a later look at the names would find.
    indexedDBNames: await attempt(async () => (await indexedDB.databases()).map((d) => d.name).filter((n) => n === secretKey)[0]),
    cacheNames: await attempt(async () => (await caches.keys()).filter((n) => n === secretKey)[0]),
    indexedDB: await attempt(readIndexedDb),
    caches: await attempt(async () => {
      const hit = await caches.match("/__e2e/secret");
      return hit ? hit.text() : undefined;
    }),
    cookie: await attempt(() => document.cookie),
    parentDocument: await attempt(() => parent.document.title),
    topLocation: await attempt(() => top.location.href),
    fetchSite: await attempt(async () => (await fetch(site)).status),
  };
}

/** Stores a secret in every kind of storage the page has. */
async function storeSecret(token) {
  localStorage.setItem(SECRET_KEY, token);
  sessionStorage.setItem(SECRET_KEY, token);
  document.cookie = `${SECRET_KEY}=${token}; SameSite=Strict; path=/`;
  await new Promise((resolve, reject) => {
    const request = indexedDB.open(SECRET_KEY);
    request.onupgradeneeded = () => request.result.createObjectStore("kv");
    request.onerror = () => reject(request.error);
    request.onsuccess = () => {
      const db = request.result;
      const tx = db.transaction("kv", "readwrite");
      tx.objectStore("kv").put(token, "secret");
      tx.oncomplete = () => {
        db.close();
        resolve();
      };
      tx.onerror = () => reject(tx.error);
    };
  });
  const cache = await caches.open(SECRET_KEY);
  await cache.put("/__e2e/secret", new Response(token));
}

async function clearSecret() {
  localStorage.removeItem(SECRET_KEY);
  sessionStorage.removeItem(SECRET_KEY);
  document.cookie = `${SECRET_KEY}=; max-age=0; path=/`;
  await caches.delete(SECRET_KEY);
  await new Promise((resolve) => {
    const request = indexedDB.deleteDatabase(SECRET_KEY);
    request.onsuccess = request.onerror = request.onblocked = () => resolve();
  });
}

/**
 * 3. The page stores a secret; the same probe, run on the page itself, finds it
 * (so the probe can tell), and run in the sandbox finds nothing.
 */
export async function storage() {
  const token = `secret-${Math.random().toString(36).slice(2)}`;
  await storeSecret(token);
  try {
    const site = `${location.origin}/`;
    const onPage = await probe(SECRET_KEY, site);
    const { Sandbox } = await host();
    const sandbox = new Sandbox();
    const source = `const probe = ${probe.toString()};\nconst seen = await probe(${JSON.stringify(SECRET_KEY)}, ${JSON.stringify(site)});\nexport function reconcile() { return seen; }\n`;
    const run = await sandbox.run(source, [SEED]);
    sandbox.dispose();
    return { token, onPage, inSandbox: run.results[0]?.ok ? JSON.parse(run.results[0].json) : run };
  } finally {
    await clearSecret();
  }
}

/**
 * 4. The reconcile posts playground commands to parent, top and its own scope; a
 * frame with an opaque origin (as the sandbox page is) posts them to the page too.
 * The page is opened with `?allow=null`: the embed bridge must still ignore them.
 */
export async function messages() {
  const desired = () => document.querySelector('textarea[aria-label="Desired state"]')?.value ?? null;
  const before = desired();
  const load = { type: "reconcile-playground:load", desired: '{"from-the-sandbox": {}}', observed: "{}" };
  const seen = [];
  const listener = (event) => seen.push(event.origin);
  addEventListener("message", listener);
  const { Sandbox } = await host();
  const sandbox = new Sandbox();
  const source = `const load = ${JSON.stringify(load)};
const tried = {};
for (const [name, send] of Object.entries({
  parent: () => parent.postMessage(load, "*"),
  top: () => top.postMessage(load, "*"),
  self: () => self.postMessage({ type: "result", index: 0, ok: true, json: "[]" }),
  opener: () => opener.postMessage(load, "*"),
})) {
  try { send(); tried[name] = "sent"; } catch (error) { tried[name] = "threw: " + error.name; }
}
export function reconcile() { return tried; }
`;
  const run = await sandbox.run(source, [SEED]);
  // A frame with an opaque origin that posts the commands to its parent (this page).
  const poster = document.createElement("iframe");
  poster.setAttribute("sandbox", "allow-scripts");
  poster.hidden = true;
  const posted = new Promise((resolve) => {
    const done = (event) => {
      if (event.source === poster.contentWindow && event.data === "reconcile-sandbox-test:posted") {
        removeEventListener("message", done);
        resolve(event.origin);
      }
    };
    addEventListener("message", done);
  });
  poster.src = `/__e2e/null-poster.html?message=${encodeURIComponent(JSON.stringify([load, { type: "reconcile-playground:run" }]))}`;
  document.body.append(poster);
  const posterOrigin = await Promise.race([posted, sleep(5000).then(() => "no answer")]);
  await sleep(500);
  removeEventListener("message", listener);
  poster.remove();
  sandbox.dispose();
  return {
    before,
    after: desired(),
    tried: run.results[0]?.ok ? JSON.parse(run.results[0].json) : run,
    resultCount: run.results.length,
    posterOrigin,
    originsSeen: [...new Set(seen)],
    progress: document.querySelector(".sim-progress")?.textContent ?? null,
  };
}

/** 5. An exception reports the learner's line; console output comes back. */
export async function errors() {
  const { Sandbox } = await host();
  const sandbox = new Sandbox();
  const thrown = await sandbox.run(
    `export function reconcile(desired, observed) {\n  console.log("desired has", Object.keys(desired).length, "names", { first: Object.keys(desired)[0] });\n  const missing = null;\n  return missing.length;\n}\n`,
    [SEED],
  );
  const logged = await sandbox.run(
    `console.info("loading");\nexport function reconcile(desired) {\n  console.log("called with", desired);\n  console.warn("careful");\n  return [];\n}\n`,
    [SEED],
  );
  const syntax = await sandbox.run(`export function reconcile() {\n  return [;\n}\n`, [SEED]);
  const missing = await sandbox.run(`export const reconcile = 5;\n`, [SEED]);
  sandbox.dispose();
  return {
    thrown: thrown.results[0] ?? thrown,
    thrownLogs: thrown.logs,
    logged: logged.logs,
    loggedResult: logged.results[0] ?? logged,
    syntax: syntax.loadError ?? syntax,
    missing: missing.loadError ?? missing,
  };
}

/** 6. The playground's own policy: no unsafe-eval, and string eval is still blocked after a run. */
export async function policy() {
  const meta = document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute("content") ?? "";
  const violations = [];
  const note = (event) => violations.push(`${event.effectiveDirective} ${event.blockedURI}`);
  document.addEventListener("securitypolicyviolation", note);
  const { Sandbox } = await host();
  const sandbox = new Sandbox();
  await sandbox.run(CORRECT, [SEED]);
  sandbox.dispose();
  let evalBlocked;
  try {
    // eslint-disable-next-line no-new-func
    new Function("return 1")();
    evalBlocked = false;
  } catch (error) {
    evalBlocked = error.name;
  }
  await sleep(100);
  document.removeEventListener("securitypolicyviolation", note);
  const sandboxPage = await (await fetch("/sandbox.html")).text();
  const sandboxMeta = /<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"/i.exec(sandboxPage)?.[1] ?? "";
  return { meta, sandboxMeta, evalBlocked, violations };
}

/** The sandbox page opened as a page of its own (a real origin) runs nothing. */
export async function direct() {
  const frame = document.createElement("iframe");
  frame.hidden = true;
  frame.src = "/sandbox.html";
  const loaded = new Promise((resolve) => frame.addEventListener("load", resolve, { once: true }));
  document.body.append(frame);
  await loaded;
  const channel = new MessageChannel();
  let answered = false;
  channel.port1.onmessage = () => (answered = true);
  frame.contentWindow.postMessage({ type: "reconcile-sandbox:connect", worker: "postMessage('x')" }, "*", [channel.port2]);
  await sleep(500);
  frame.remove();
  return { answered };
}

// ---- Python (Pyodide in the same sandbox) ----

const PYTHON = { language: "python" };

/**
 * A reconcile in Python, as a learner might write it (tuples), right on the cases here;
 * its \`!=\` would take True for 1, which web/bench/learner-reconcile.py gets right.
 */
export const CORRECT_PY = `# Right on the seed example.
def reconcile(desired, observed, finalizers=None):
    pending = finalizers or {}
    upserts = [("CREATE", n, desired[n]) for n in sorted(desired) if n not in observed]
    upserts += [("UPDATE", n, desired[n]) for n in sorted(desired) if n in observed and desired[n] != observed[n]]
    upserts.sort(key=lambda action: action[1])
    gone = [("FINALIZE" if pending.get(n) else "DELETE", n, None) for n in sorted(observed) if n not in desired]
    return upserts + gone
`;

/** What Python code sees when it reaches for the site through Pyodide's \`js\` module. */
const PROBE_PY = (key) => `import js
seen = {}
def attempt(name, what):
    try:
        seen[name] = "value: " + str(what())
    except BaseException as error:
        seen[name] = "threw: " + type(error).__name__ + ": " + str(error)

def local_storage():
    from js import localStorage
    return localStorage.getItem(${JSON.stringify(key)})

attempt("origin", lambda: js.self.origin)
attempt("localStorage", local_storage)
attempt("sessionStorage", lambda: js.sessionStorage.getItem(${JSON.stringify(key)}))
attempt("cookie", lambda: js.document.cookie)
attempt("parent", lambda: js.parent.document.title)
attempt("postMessage", lambda: js.postMessage(js.JSON.parse('{"type":"result","index":0,"ok":true,"json":"[]"}')))

def reconcile(desired, observed, finalizers=None):
    return seen
`;

const parsed = (run) => run.results.map((r) => (r.ok ? JSON.parse(r.json) : r));

/**
 * Python in the sandbox, one Sandbox for all (Python starts once, then stays warm):
 * right answers from tuples and lists, print, errors with the learner's line, and
 * what the \`js\` module reaches.
 */
export async function python() {
  const { Sandbox } = await host();
  localStorage.setItem(SECRET_KEY, "python-must-not-see-this");
  const sandbox = new Sandbox();
  try {
    const first = await sandbox.run(CORRECT_PY, [SEED, { ...SEED, finalizers: '{"c":["x"]}' }], PYTHON);
    const lists = await sandbox.run(
      `def reconcile(desired, observed):\n    return [["CREATE", "a", desired["a"]], ("UPDATE", "b", desired["b"]), ["DELETE", "c", None]]\n`,
      [SEED],
      PYTHON,
    );
    const printed = await sandbox.run(
      `print("loading")\ndef reconcile(desired, observed):\n    print("called with", sorted(desired))\n    import sys\n    print("careful", file=sys.stderr)\n    return []\n`,
      [SEED],
      PYTHON,
    );
    const thrown = await sandbox.run(`def reconcile(desired, observed):\n    print("about to fail")\n    missing = None\n    return missing["a"]\n`, [SEED], PYTHON);
    const syntax = await sandbox.run(`def reconcile(desired, observed):\n    return [;\n`, [SEED], PYTHON);
    const missing = await sandbox.run(`reconcile = 5\n`, [SEED], PYTHON);
    const noJson = await sandbox.run(`def reconcile(desired, observed):\n    return [("CREATE", "a", {1, 2})]\n`, [SEED], PYTHON);
    const probe = await sandbox.run(PROBE_PY(SECRET_KEY), [SEED], PYTHON);
    // A fresh namespace per run: the earlier runs' names are gone.
    const fresh = await sandbox.run(`def reconcile(desired, observed):\n    return [("CREATE", "same", "same" in globals())]\n`, [SEED], PYTHON);
    return {
      first: { results: parsed(first), python: first.python ?? null, stopped: first.stopped ?? null, loadError: first.loadError ?? null },
      lists: parsed(lists),
      printed: { logs: printed.logs, results: parsed(printed) },
      thrown: { result: thrown.results[0] ?? thrown, logs: thrown.logs },
      syntax: syntax.loadError ?? syntax,
      missing: missing.loadError ?? missing,
      noJson: noJson.results[0] ?? noJson,
      probe: { seen: parsed(probe)[0] ?? probe, count: probe.results.length },
      fresh: parsed(fresh)[0] ?? fresh,
      warm: [lists, printed, thrown, syntax, missing, noJson, probe, fresh].map((run) => run.python?.warm ?? null),
    };
  } finally {
    sandbox.dispose();
    localStorage.removeItem(SECRET_KEY);
  }
}

/** \`while True: pass\` is stopped after the call limit; the next run starts Python again and works. */
export async function pythonRunaway() {
  const { Sandbox } = await host();
  // A long start limit: this check is about the stops. In WebKitGTK a stopped
  // wasm worker's thread keeps spinning (web/static/sandbox/README.md), which
  // on two cores makes the next start there slower than the usual 20 s limit.
  const sandbox = new Sandbox({ pythonStartLimitMs: 60000 });
  try {
    const warmup = await sandbox.run(CORRECT_PY, [SEED], PYTHON);
    const run = await sandbox.run(`def reconcile(desired, observed):\n    print("about to loop")\n    while True:\n        pass\n`, [SEED, SEED], PYTHON);
    const again = await sandbox.run(CORRECT_PY, [SEED], PYTHON);
    const load = await sandbox.run(`while True:\n    pass\n`, [SEED], PYTHON);
    return {
      warmup: { results: parsed(warmup), warm: warmup.python?.warm ?? null },
      stopped: run.stopped ?? null,
      results: run.results,
      logs: run.logs,
      again: { results: parsed(again), warm: again.python?.warm ?? null },
      loadStopped: load.stopped ?? null,
      timings: [warmup, run, again, load].map((r) => ({ startMs: r.python?.startMs ?? null, elapsedMs: Math.round(r.elapsedMs ?? -1) })),
    };
  } finally {
    sandbox.dispose();
  }
}

/** Starting Python has its own limit (here 100 ms, so that it is reached), with its own message. */
export function pythonStartLimit() {
  return withSandbox({ pythonStartLimitMs: 100 }, async (sandbox) => {
    const tooSlow = await sandbox.run(CORRECT_PY, [SEED], PYTHON);
    sandbox.pythonStartLimitMs = 20000;
    const next = await sandbox.run(CORRECT_PY, [SEED], PYTHON);
    return { stopped: tooSlow.stopped ?? null, results: tooSlow.results, next: { results: parsed(next), warm: next.python?.warm ?? null, stopped: next.stopped ?? null } };
  });
}

/** Runs `use(sandbox)` with a new Sandbox of `options`, and disposes of it. */
async function withSandbox(options, use) {
  const { Sandbox } = await host();
  const sandbox = new Sandbox(options);
  try {
    return await use(sandbox);
  } finally {
    sandbox.dispose();
  }
}

/**
 * Python's memory is WebAssembly memory, which cannot grow past 4 GiB: a reconcile that
 * asks for more gets a MemoryError (the call limit is raised here so that the allocation,
 * not the clock, ends it). A worker left holding that much memory is let go: the next
 * run starts Python again.
 */
export function pythonMemory() {
  return withSandbox({ callLimitMs: 20000 }, async (sandbox) => {
    const greedy = await sandbox.run(`def reconcile(desired, observed):\n    hoard = []\n    while True:\n        hoard.append(bytearray(1024 ** 3))\n`, [SEED], PYTHON);
    const next = await sandbox.run(CORRECT_PY, [SEED], PYTHON);
    const again = await sandbox.run(CORRECT_PY, [SEED], PYTHON);
    return {
      greedy: greedy.results[0] ?? greedy,
      next: { results: parsed(next), warm: next.python?.warm ?? null },
      again: { results: parsed(again), warm: again.python?.warm ?? null },
    };
  });
}

/**
 * A learner's controller as source (issue 30): the reference owned-configmap passes,
 * one without the ownerReference fails, each checked in the sandbox's worker beside
 * the simulation. A 50 ms timer on the page keeps ticking meanwhile.
 */
export async function controller() {
  const { checkController } = await import("/pkg/reconcile.js");
  const reference = await (await fetch("/__e2e/controllers/owned-configmap/reference.mjs")).text();
  const noOwner = reference.replace("metadata: { name, ownerReferences: [owner] }", "metadata: { name }");
  const meter = tickMeter();
  const outcome = (check) =>
    check.then(
      ({ passed, schedulesExplored, counterexample, logs }) => ({ passed, schedulesExplored, property: counterexample?.property ?? null, logs }),
      (error) => ({ rejected: error.message }),
    );
  const correct = await outcome(checkController(reference, { budget: 200 }));
  const buggy = await outcome(checkController(noOwner, { budget: 200 }));
  return { correct, buggy, changed: noOwner !== reference, ...meter.stop() };
}

/**
 * The same in Python (`owned-configmap/reference.py`): Pyodide starts in the check's
 * worker, and the client is JavaScript's in snake_case. A misuse names its line.
 */
export async function pythonController() {
  const { checkController } = await import("/pkg/reconcile.js");
  const reference = await (await fetch("/__e2e/controllers/owned-configmap/reference.py")).text();
  const noOwner = reference.replace('"metadata": {"name": name, "ownerReferences": [owner]},', '"metadata": {"name": name},');
  const meter = tickMeter();
  const language = "python";
  const outcome = (check) =>
    check.then(
      ({ passed, schedulesExplored, counterexample, logs }) => ({ passed, schedulesExplored, property: counterexample?.property ?? null, logs }),
      (error) => ({ rejected: error.message, line: error.line ?? null }),
    );
  const correct = await outcome(checkController(reference, { language, budget: 200 }));
  const buggy = await outcome(checkController(noOwner, { language, budget: 200 }));
  const misuse = await outcome(checkController('def reconcile(request, client):\n    client.get("Desired", request["name"], fresh=True)\n', { language, budget: 1 }));
  return { correct, buggy, misuse, changed: noOwner !== reference, ...meter.stop() };
}
