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
 * check's result and the progress it told, or `{ rejected }`.
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
      const result = await checkController(source, { ...options, onProgress }).catch((error) => ({
        rejected: { name: error.name, message: error.message, method: error.method, line: error.line, stopped: error.stopped, logs: error.logs },
      }));
      results.push({ ...result, progress, longTasks: longTasks.splice(0) });
    }
    return results;
  }, checks);
}

