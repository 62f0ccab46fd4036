// Wasm against plain JavaScript, end to end, in the same page of headless Debian Chromium:
// three JSON texts in (desired, observed, finalizers), the action list out as JS values.
// - wasm: the release JS API's `reconcile` (dist/pkg, opt-level z, wasm-opt -Oz);
// - plain JS: bench/plain-reconcile.js (JSON.parse, the contract's deep equality, code-point sort).
// The inputs are the generated scenario files (cargo xtask bench writes them), split into the
// three documents in Node; both sides get the same strings. Runs alternate between the two so
// they share the page's state (heap, JIT, GC). The outputs must be equal, or the run fails.
// Usage: node bench/reconcile-vs-js.mjs N [N...]   (serves ../dist, or $DIST; inputs from
// ../target/bench-inputs, or $BENCH_INPUTS; prints one JSON line per N)
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { serveAndLaunch } from "./lib.mjs";

const sizes = process.argv.slice(2).map(Number);
const inputs = process.env.BENCH_INPUTS ?? "../target/bench-inputs";
const port = 4179;
/** Timed runs per implementation; fewer for the big inputs, which take longer. */
const runsFor = (n) => (n <= 10_000 ? 15 : 7);
const warmUp = 2;

const site = await serveAndLaunch(port);
try {
  const page = await site.browser.newPage();
  // A plain document on the site's origin, so the page's own app does not run beside the benchmark.
  await page.goto(`${site.url}/pkg/reconcile.d.ts`);
  await page.addScriptTag({ path: new URL("./plain-reconcile.js", import.meta.url).pathname });
  await page.evaluate(async () => {
    const api = await import("/pkg/reconcile.js");
    await api.default();
    window.wasmReconcile = api.reconcile;
  });
  for (const n of sizes) {
    const scenario = JSON.parse(readFileSync(join(inputs, `scenario-${n}.json`), "utf8"));
    const texts = [scenario.desired, scenario.observed, scenario.finalizers ?? null].map((doc) => JSON.stringify(doc));
    const result = await page.evaluate(
      ([texts, runs, warmUp]) => {
        const implementations = {
          wasm: () => window.wasmReconcile(...texts),
          js: () => window.plainReconcile(...texts),
        };
        const samples = { wasm: [], js: [] };
        const outputs = {};
        for (let i = 0; i < warmUp + runs; i++) {
          for (const [name, run] of Object.entries(implementations)) {
            const start = performance.now();
            outputs[name] = run();
            const elapsed = performance.now() - start;
            if (i >= warmUp) samples[name].push(elapsed);
          }
        }
        const same = JSON.stringify(outputs.wasm) === JSON.stringify(outputs.js);
        return { samples, same, actions: outputs.wasm.length, bytes: texts.reduce((sum, t) => sum + (t?.length ?? 0), 0) };
      },
      [texts, runsFor(n), warmUp],
    );
    const stats = (values) => {
      const sorted = [...values].sort((a, b) => a - b);
      const ms = (x) => Math.round(x * 100) / 100;
      return { median: ms(sorted[Math.floor(sorted.length / 2)]), min: ms(sorted[0]), max: ms(sorted[sorted.length - 1]) };
    };
    const wasm = stats(result.samples.wasm);
    const js = stats(result.samples.js);
    console.log(JSON.stringify({
      resources: n,
      inputChars: result.bytes,
      actions: result.actions,
      runs: runsFor(n),
      wasmMs: wasm,
      plainJsMs: js,
      // Above 1 means wasm is faster.
      speedup: Math.round((js.median / wasm.median) * 100) / 100,
      sameOutput: result.same,
    }));
    if (!result.same) process.exitCode = 1;
  }
} finally {
  await site.close();
}
