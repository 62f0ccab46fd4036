// The check of a learner's controller (issue 30), inside the sandbox's worker:
// the loop module's ControllerCheck runs here, next to the learner's code, so
// each client call is a plain synchronous call into the simulation.
// sandbox-worker.js imports this module from a blob: URL. Everything it needs
// comes as a Blob the page handed over (README.md, "A learner's controller"):
// the loop module's glue and wasm, pkg/controller.js, and es-module-lexer. It
// fetches nothing.

/** The one module a learner's controller may import. */
const API = "reconcile";

/** A module the learner's code cannot load, with the place in their code. */
export class LinkError extends Error {
  constructor(message, line) {
    super(message);
    this.name = "LinkError";
    this.line = line;
  }
}

/** The line (from 1) of offset `at` in `text`. */
function lineAt(text, at) {
  let line = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < at; i = text.indexOf("\n", i + 1)) line++;
  return line;
}

/**
 * Starts the simulation and the lexer from the handed-over Blobs. `urlOf(blob)`
 * makes a blob: URL. Resolves to `{ link, withoutImports, check, useClock, cloud, ApiError }`.
 */
export async function start(files, urlOf) {
  const controllerUrl = urlOf(files.controller);
  const [loop, controller, lexer] = await Promise.all([import(urlOf(files.glue)), import(controllerUrl), import(urlOf(files.lexer))]);
  // wasm-bindgen's init takes the bytes, so it never fetches the wasm by URL.
  await loop.default({ module_or_path: await files.wasm.arrayBuffer() });
  await lexer.init();
  // The learner's "reconcile": the very classes the client throws (so instanceof holds), and cloud.
  const api = urlOf(new Blob([`export { ApiError, TerminalError, cloud } from ${JSON.stringify(controllerUrl)};`], { type: "text/javascript" }));

  /**
   * The learner's source with `from "reconcile"` pointing at the API's module;
   * throws a LinkError naming any other import. The lexer gives each import's
   * exact place; the text is changed there only, so lines stay as written.
   */
  const link = (source) => {
    let imports;
    try {
      [imports] = lexer.parse(source, "your code");
    } catch {
      // Not JavaScript the lexer reads: the engine's own import says where.
      return source;
    }
    let linked = "";
    let at = 0;
    for (const found of imports) {
      if (found.type === "import-meta") continue;
      const line = lineAt(source, found.start);
      if (found.type === "dynamic") {
        const named = typeof found.specifier !== "string" ? "" : ` of ${JSON.stringify(found.specifier)}`;
        throw new LinkError(`your code uses import()${named} (line ${line}); a controller imports only from "${API}", at its top: import { ApiError, TerminalError } from "${API}"`, line);
      }
      if (found.specifier !== API) {
        throw new LinkError(`your code imports ${JSON.stringify(found.specifier)} (line ${line}); a controller may import only from "${API}": import { ApiError, TerminalError } from "${API}"`, line);
      }
      linked += source.slice(at, found.start) + api;
      at = found.end;
    }
    return linked + source.slice(at);
  };

  /**
   * The source with each static import blanked out (same length, newlines kept),
   * for the classic parse that finds a syntax error's place (sandbox-worker.js).
   */
  const withoutImports = (source) => {
    const blank = (text) => text.replace(/[^\n]/g, " ");
    let imports;
    try {
      [imports] = lexer.parse(source, "your code");
    } catch {
      // The lexer stops at the syntax error too: blank the import statements at the
      // top by their shape. Only a place is at stake; a wrong guess gives none.
      return source.replace(/^(?:\s*(?:\/\/[^\n]*|import\s[^;]*;))*/, blank);
    }
    let text = "";
    let at = 0;
    for (const found of imports) {
      if (found.type === "dynamic" || found.type === "import-meta") continue;
      text += source.slice(at, found.importStart) + blank(source.slice(found.importStart, found.importEnd));
      at = found.importEnd;
    }
    return text + source.slice(at);
  };

  /**
   * Checks the controller that `load()` gives a fresh `reconcile` of, as
   * `checkController` does on the page; `watch` hears each schedule,
   * reconcile and call. Resolves to `{ goal, report }`; rejects on misuse.
   */
  const check = async (load, { exercise, seed, budget, options }, onProgress, watch) => {
    const run = new loop.ControllerCheck(exercise, budget, seed, options);
    try {
      const goal = run.goal;
      const report = await controller.checkWith(run, load, onProgress, watch);
      return { goal, report };
    } finally {
      run.free();
    }
  };
  /** Gives this worker's globals the simulated clock (see `useSimulatedClock`). */
  const useClock = () => useSimulatedClock(() => controller.simulatedNow() ?? 0);
  // The Python side (sandbox-controller.py) calls the cloud, and tells ApiError, through these.
  return { link, withoutImports, check, useClock, cloud: controller.cloud, ApiError: controller.ApiError };
}

/**
 * Makes `Date.now()`, `new Date()`, `Date()` and `performance.now()` read
 * `now()`, the simulated time: so the same code and seed give the same run,
 * and a replay (which runs no code) equals it. A date made from a value is
 * as before. Pyodide reads the time through these globals, so Python's
 * `time.time()` and `datetime.now()` read it too. For the check's worker
 * only: the worker ends with the check, so nothing puts the real clock back.
 */
function useSimulatedClock(now) {
  const RealDate = Date;
  function SimulatedDate(...args) {
    if (new.target === undefined) return new RealDate(now()).toString();
    return Reflect.construct(RealDate, args.length === 0 ? [now()] : args, new.target);
  }
  Object.setPrototypeOf(SimulatedDate, RealDate);
  SimulatedDate.prototype = RealDate.prototype;
  const fixed = (value) => ({ value, writable: true, configurable: true });
  Object.defineProperties(SimulatedDate, { name: { value: "Date", configurable: true }, length: { value: 7, configurable: true }, now: fixed(now) });
  Object.defineProperty(RealDate.prototype, "constructor", fixed(SimulatedDate));
  Object.defineProperty(globalThis, "Date", fixed(SimulatedDate));
  Object.defineProperty(performance, "now", fixed(now));
}
