// Helpers of the specs that check a learner's controller given as source
// (controller.spec.mjs for JavaScript, controller-python.spec.mjs for Python).

/** `reference` with one part changed: a known bug. */
export function withBug(reference, find, replace) {
  if (!reference.includes(find)) throw new Error(`the reference has no ${JSON.stringify(find)}`);
  return reference.replace(find, replace);
}

/**
 * Checks controllers given as source with `checkController(source, options)`:
 * each runs in the sandbox's worker next to the simulation. Resolves to each
 * check's result, the progress it told and the milliseconds it took
 * (`ms`), or `{ rejected }`.
 */
export async function checkSources(page, checks) {
  await page.goto("/");
  return page.evaluate(async (checks) => {
    const { checkController } = await import("/pkg/reconcile.js");
    // Main-thread tasks over 50 ms while the checks run (not while the page started).
    const longTasks = [];
    new PerformanceObserver((list) => list.getEntries().forEach((entry) => longTasks.push(entry.duration))).observe({ type: "longtask" });
    const results = [];
    for (const { source, options } of checks) {
      const progress = [];
      const onProgress = (told) => progress.push(told);
      const started = performance.now();
      const result = await checkController(source, { ...options, onProgress }).catch((error) => ({
        rejected: { name: error.name, message: error.message, method: error.method, line: error.line, stopped: error.stopped, logs: error.logs },
      }));
      const ms = Math.round(performance.now() - started);
      results.push({ ...result, progress, longTasks: longTasks.splice(0), ms });
    }
    return results;
  }, checks);
}


/** The faults of a check's shrunk schedule; `undefined` when it passed. */
export const faults = (check) => check.counterexample?.schedule.map((placed) => placed.fault);

/**
 * Expects `check` of known bug `bug` (from controller-exercises.mjs) to fail: the bug's
 * property broken, its shrunk schedule the bug's faults (at most 3), told one sentence each.
 */
export function expectCaught(expect, check, bug) {
  const which = `${bug.id}: ${check.rejected?.message ?? ""}`;
  expect(check.rejected, which).toBeUndefined();
  expect(check.passed, which).toBe(false);
  expect(check.counterexample.property, which).toBe(bug.property);
  expect(faults(check), which).toEqual(bug.faults);
  expect(bug.faults.length).toBeLessThanOrEqual(3);
  expect(check.counterexample.story.length, which).toBe(bug.faults.length);
}

/**
 * A clock probe's readings beside the reconciles they were made in: each reconcile of
 * the fault-free run printed one JSON line. Pairs `[reading, reconcile]`, at least two.
 */
export function probeReadings(expect, probed) {
  expect(probed.rejected).toBeUndefined();
  const record = probed.counterexample.record;
  expect(record.length).toBeGreaterThan(1);
  return probed.logs.slice(0, record.length).map((line, index) => [JSON.parse(line.text), record[index]]);
}

/** Records each check's time on the test: `name: ms`, for the report. */
export function recordTimes(testInfo, checks, names) {
  const times = checks.map((check, index) => `${names[index]} ${check.ms} ms`).join(", ");
  testInfo.annotations.push({ type: "check times", description: times });
  console.log(`${testInfo.title}: ${times}`);
}
