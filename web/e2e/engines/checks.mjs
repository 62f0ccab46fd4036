// What each sandbox scenario (e2e/pages/sandbox-scenarios.mjs) must report, in every
// engine. Shared by e2e/sandbox.spec.mjs (Chromium, Playwright) and e2e/engines/run.mjs
// (Firefox over WebDriver BiDi, WebKitGTK over WebDriver). Each check throws an
// AssertionError that says what was wrong.
import assert from "node:assert/strict";

export const SEED_ACTIONS = [["CREATE", "a", { replicas: 1 }], ["UPDATE", "b", { replicas: 2 }], ["DELETE", "c", null]];

const STOPPED_CALL = /^Your reconcile ran for more than 2 seconds on case 1 of 2, so it was stopped\. Look for a loop that never ends\.$/;

/** Nothing reached: the attempt threw, or found nothing. */
const gotNothing = (outcome, secret) =>
  typeof outcome === "string" &&
  !outcome.includes(secret) &&
  (outcome.startsWith("threw: ") || outcome === "undefined" || outcome === "value: the page's database is not there");

/**
 * A 50 ms timer on the page over the ~2 s a loop runs: it keeps ticking. Were the loop
 * on the page's thread (or on a frame's that shares it), one gap would be the whole 2 s.
 * The bound leaves room for a busy machine (2 cores, one spent by the loop). Where the
 * engine reports long tasks (Chromium), none may last the loop's whole call either. The
 * 200 ms budget on main-thread tasks is a timing, so it belongs to a benchmark, not to
 * this test: a full test run on 2 busy cores once saw a 216 ms task here.
 */
function pageKeptTicking(report) {
  assert.ok(report.ticks >= 15, `the page's timer ticked ${report.ticks} times`);
  assert.ok(report.maxGapMs < 1000, `the page's timer waited ${report.maxGapMs} ms at most`);
}

export const checks = {
  /** 1. A correct reconcile on the seed example gives the contract's actions, from an opaque-origin frame made on demand. */
  seed(report) {
    assert.equal(report.framesBefore, 0, "no frame before the first run");
    // The attribute without allow-same-origin; under the playground's worker, its CSP `sandbox` header.
    if (report.servedByPlayground) assert.equal(report.sandboxing, "worker", "how the frame is sandboxed");
    else assert.ok(["attribute", "worker"].includes(report.sandboxing), `how the frame is sandboxed: ${report.sandboxing}`);
    assert.equal(report.frameReachable, false, "the page cannot reach the frame's document");
    assert.equal(report.loadError, null);
    assert.equal(report.stopped, null);
    assert.deepEqual(report.results[0], SEED_ACTIONS);
    assert.deepEqual(report.results[1], [SEED_ACTIONS[0], SEED_ACTIONS[1], ["FINALIZE", "c", null]]);
    assert.equal(report.framesAfterDispose, 0, "dispose removes the frame");
  },

  /** 2. while (true) {} is stopped after about 2 s with the message; the page keeps ticking; the sandbox works again. */
  runaway(report) {
    assert.equal(report.stopped?.reason, "call", JSON.stringify(report.stopped));
    assert.match(report.stopped.message, STOPPED_CALL);
    assert.ok(report.elapsedMs >= 1900 && report.elapsedMs <= 3500, `stopped after ${report.elapsedMs} ms`);
    assert.deepEqual(report.results, [], "no result for the stopped call");
    assert.deepEqual(report.logs, [{ index: 0, level: "log", text: "about to loop" }], "output before the loop is kept");
    pageKeptTicking(report);
    if (report.longTasks !== null) {
      assert.deepEqual(report.longTasks.filter((ms) => ms >= 1000), [], "no main-thread task as long as the loop");
    }
    assert.deepEqual(report.again, [SEED_ACTIONS], "the next run works");
    assert.equal(report.loadStopped?.reason, "load");
    assert.match(report.loadStopped.message, /^Your code ran for more than 2 seconds while it was loading/);
  },

  /** Endless console output is capped at 1,000 lines; the call is stopped; the page keeps ticking. */
  flood(report) {
    assert.equal(report.stopped?.reason, "call", JSON.stringify(report.stopped));
    assert.equal(report.lines, 1000);
    assert.deepEqual(report.last, { index: 0, level: "log", text: "line 999" });
    pageKeptTicking(report);
  },

  /**
   * 1,000 calls in one run, all right. The budget is 300 ms for 1,000 cases
   * with the checking (a later step); here the bound only catches a run that pays a
   * round trip to the page per call (ENGINE_REPORTS=1 prints the time).
   */
  throughput(report) {
    assert.equal(report.stopped, null);
    assert.equal(report.count, 1000);
    assert.deepEqual(report.distinct, [SEED_ACTIONS]);
    assert.ok(report.elapsedMs < 3000, `1,000 calls took ${report.elapsedMs} ms`);
  },

  /** The run-wide limit (here 1 s, with 300 ms calls) stops the run with its own message. */
  runLimit(report) {
    assert.equal(report.stopped?.reason, "total", JSON.stringify(report.stopped));
    assert.ok(report.elapsedMs >= 950 && report.elapsedMs <= 2500, `stopped after ${report.elapsedMs} ms`);
    assert.ok(report.done >= 1 && report.done <= 3, `${report.done} cases done`);
    assert.equal(report.stopped.message, `The check took more than 1 second in all, so it was stopped after ${report.done} of 10 cases. Your reconcile may be too slow on large inputs.`);
  },

  /** 3. The page's secret is in reach of the probe on the page, and of nothing in the sandbox. */
  storage(report) {
    const { token, onPage, inSandbox } = report;
    // The probe can tell: on the page it finds the secret everywhere it was stored.
    for (const where of ["localStorage", "sessionStorage", "indexedDB", "caches"]) {
      assert.equal(onPage[where], `value: ${token}`, `the probe reads ${where} on the page`);
    }
    assert.ok(onPage.cookie.includes(token), "the probe reads the cookie on the page");
    for (const where of ["localStorage", "sessionStorage", "indexedDB", "indexedDBNames", "caches", "cacheNames", "cookie", "parentDocument", "topLocation"]) {
      assert.ok(gotNothing(inSandbox[where], token), `${where} in the sandbox: ${inSandbox[where]}`);
    }
    assert.ok(!JSON.stringify(inSandbox).includes(token), "the secret appears nowhere");
    assert.equal(inSandbox.origin, "value: null", "the sandbox's origin is opaque");
    assert.equal(onPage.fetchSite, "value: 200", "the probe can fetch the site from the page");
    assert.match(inSandbox.fetchSite, /^threw: /, "no request to the site from the sandbox");
  },

  /** 4. Commands the reconcile (or any opaque-origin frame) posts are not obeyed, even with ?allow=null. */
  messages(report) {
    assert.equal(report.resultCount, 1, "a message the reconcile posts is not taken for a result");
    assert.match(report.tried.self, /^threw: /, "the reconcile has no postMessage to reach the sandbox page");
    assert.match(report.tried.parent, /^threw: /);
    assert.match(report.tried.top, /^threw: /);
    assert.equal(report.posterOrigin, "null", "the opaque-origin frame's messages reach the page");
    assert.ok(report.before !== null && report.before.length > 0);
    assert.equal(report.after, report.before, "the Desired editor is unchanged");
    assert.match(report.progress ?? "", /^Pass 0 of/, "no run command was obeyed");
  },

  /** 5. The learner's line number, console output. */
  errors(report, engine = "chromium") {
    assert.equal(report.thrown.ok, false);
    assert.equal(report.thrown.error.name, "TypeError");
    // Firefox ESR 140.10 (Debian, December 2026) gives an error thrown by code
    // loaded from a blob: URL in the sandbox's opaque-origin worker neither a
    // stack nor a line, where earlier 140 ESR builds gave both: the error then
    // comes without a line, and never with the worker's own frames.
    const lineless = engine === "firefox" && report.thrown.error.line === null;
    if (lineless) {
      assert.equal(report.thrown.error.stack, "", JSON.stringify(report.thrown.error));
    } else {
      assert.equal(report.thrown.error.line, 4, JSON.stringify(report.thrown.error));
      assert.match(report.thrown.error.stack, /your code:4:\d+/);
    }
    assert.doesNotMatch(report.thrown.error.stack, /blob:|sandbox-worker/);
    assert.deepEqual(report.thrownLogs, [{ index: 0, level: "log", text: 'desired has 2 names {"first":"a"}' }]);
    assert.deepEqual(report.logged, [
      { index: -1, level: "info", text: "loading" },
      { index: 0, level: "log", text: 'called with {"a":{"replicas":1},"b":{"replicas":2}}' },
      { index: 0, level: "warn", text: "careful" },
    ]);
    assert.deepEqual(report.loggedResult, { ok: true, json: "[]" });
    assert.equal(report.syntax.name, "SyntaxError");
    if (!(lineless && report.syntax.line === null)) {
      assert.equal(report.syntax.line, 2, `the syntax error's line: ${JSON.stringify(report.syntax)}`);
    }
    assert.match(report.missing.message, /does not export a function named reconcile/);
  },

  /** 6. The playground keeps its policy: no unsafe-eval, string eval blocked; the sandbox has its own. */
  policy(report) {
    assert.match(report.meta, /^default-src 'self'; script-src 'self' 'wasm-unsafe-eval' /);
    assert.doesNotMatch(report.meta, /'unsafe-eval'|'unsafe-inline'|blob:/);
    assert.equal(report.evalBlocked, "EvalError", "new Function is refused on the page");
    assert.match(report.sandboxMeta, /^default-src 'none'; script-src 'sha256-[^']+' 'wasm-unsafe-eval' blob:; worker-src blob:; base-uri 'none'; form-action 'none'$/);
  },

  /** A learner's controller as source: the reference passes 200 schedules, a known bug fails; the page keeps ticking.
   *  Before the Python checks: a WebKitGTK worker stopped in wasm spins on (README.md). */
  controller(report) {
    assert.ok(report.changed, "the buggy controller differs from the reference");
    assert.deepEqual(report.correct, { passed: true, schedulesExplored: 200, property: null, logs: [] });
    assert.equal(report.buggy.passed, false, JSON.stringify(report.buggy));
    assert.ok(["eventually stable", "safe"].includes(report.buggy.property), `broke ${report.buggy.property}`);
    assert.ok(report.maxGapMs < 1000, `the page's timer waited ${report.maxGapMs} ms at most`);
  },

  /** The same controller in Python, with Pyodide in the check's worker; a misuse names the call and the line. */
  pythonController(report) {
    assert.ok(report.changed, "the buggy controller differs from the reference");
    assert.deepEqual(report.correct, { passed: true, schedulesExplored: 200, property: null, logs: [] });
    assert.equal(report.buggy.passed, false, JSON.stringify(report.buggy));
    assert.ok(["eventually stable", "safe"].includes(report.buggy.property), `broke ${report.buggy.property}`);
    assert.deepEqual(report.misuse, { rejected: "client.get: unknown keyword fresh=; it takes live=, namespace= (line 2)", line: 2 });
    assert.ok(report.maxGapMs < 1000, `the page's timer waited ${report.maxGapMs} ms at most`);
  },

  /** Python: right answers from tuples or lists, print, errors with the learner's line, the js module reaching nothing, Python kept warm. */
  python(report) {
    assert.equal(report.first.loadError, null, JSON.stringify(report.first.loadError));
    assert.equal(report.first.stopped, null);
    assert.deepEqual(report.first.results, [SEED_ACTIONS, [SEED_ACTIONS[0], SEED_ACTIONS[1], ["FINALIZE", "c", null]]]);
    assert.equal(report.first.python?.warm, false, "the first run starts Python");
    assert.deepEqual(report.warm, [true, true, true, true, true, true, true, true], "every later run finds Python running");
    assert.deepEqual(report.lists, [SEED_ACTIONS], "lists and tuples both give JSON arrays");
    assert.deepEqual(report.printed.results, [[]]);
    assert.deepEqual(report.printed.logs, [
      { index: -1, level: "log", text: "loading" },
      { index: 0, level: "log", text: "called with ['a', 'b']" },
      { index: 0, level: "error", text: "careful" },
    ]);
    const thrown = report.thrown.result;
    assert.equal(thrown.ok, false);
    assert.equal(thrown.error.name, "TypeError");
    assert.equal(thrown.error.line, 4, JSON.stringify(thrown.error));
    assert.match(thrown.error.stack, /^Traceback \(most recent call last\):\n  File "your code", line 4, in reconcile\n/);
    assert.doesNotMatch(thrown.error.stack, /sandbox-harness|<exec>|blob:|pyodide/);
    assert.deepEqual(report.thrown.logs, [{ index: 0, level: "log", text: "about to fail" }]);
    assert.equal(report.syntax.name, "SyntaxError");
    assert.equal(report.syntax.line, 2, JSON.stringify(report.syntax));
    assert.match(report.syntax.stack, /File "your code", line 2/);
    assert.match(report.missing.message, /does not define a function named reconcile/);
    assert.equal(report.noJson.ok, false);
    assert.equal(report.noJson.error.message, "reconcile must return a list of (kind, name, spec) tuples; found a set at [0][2]");
    const seen = report.probe.seen;
    assert.equal(report.probe.count, 1, "what Python posts is not taken for a result");
    assert.equal(seen.origin, "value: null", "Python runs in the opaque origin");
    for (const where of ["localStorage", "sessionStorage", "cookie", "parent", "postMessage"]) {
      assert.match(seen[where], /^threw: /, `${where} from Python: ${seen[where]}`);
    }
    assert.ok(!JSON.stringify(seen).includes("python-must-not-see-this"), "the secret appears nowhere");
    assert.deepEqual(report.fresh, [["CREATE", "same", false]], "each run gets a fresh namespace");
  },

  /** Python's start has a limit of its own, reported as such; the next run starts Python again. */
  pythonStartLimit(report) {
    assert.equal(report.stopped?.reason, "start", JSON.stringify(report.stopped));
    assert.match(report.stopped.message, /^Python did not start within 0\.1 seconds, so the run was stopped\./);
    assert.deepEqual(report.results, []);
    assert.deepEqual(report.next, { results: [SEED_ACTIONS], warm: false, stopped: null });
  },

  /** Python's memory is bounded (WebAssembly's 4 GiB): a MemoryError at the learner's line; a worker that grew that large is replaced. */
  pythonMemory(report) {
    assert.equal(report.greedy.ok, false, JSON.stringify(report.greedy));
    assert.equal(report.greedy.error.name, "MemoryError");
    assert.equal(report.greedy.error.line, 4);
    assert.deepEqual(report.next, { results: [SEED_ACTIONS], warm: false }, "the large worker was let go");
    assert.deepEqual(report.again, { results: [SEED_ACTIONS], warm: true }, "a small one is kept");
  },

  /** Python: while True: pass is stopped after the call limit; Python starts again and works. */
  // Last of the Python checks: WebKitGTK's worker.terminate() does not stop a worker
  // spinning in WebAssembly (see the sandbox README), so later starts there would starve.
  pythonRunaway(report) {
    assert.deepEqual(report.warmup.results, [SEED_ACTIONS]);
    assert.equal(report.stopped?.reason, "call", JSON.stringify(report.stopped));
    assert.match(report.stopped.message, STOPPED_CALL);
    assert.deepEqual(report.results, [], "no result for the stopped call");
    assert.deepEqual(report.logs, [{ index: 0, level: "log", text: "about to loop" }], "output before the loop is kept");
    assert.deepEqual(report.again, { results: [SEED_ACTIONS], warm: false }, "the next run starts Python again, and works");
    assert.equal(report.loadStopped?.reason, "load");
    assert.match(report.loadStopped.message, /^Your code ran for more than 2 seconds while it was loading/);
  },

  /** The sandbox page opened with a real origin does nothing. */
  direct(report) {
    assert.equal(report.answered, false);
  },
};

/** The playground address the scenarios run on: `?allow=null` for the messages check. */
export const PLAYGROUND_PATH = "/?allow=null";
