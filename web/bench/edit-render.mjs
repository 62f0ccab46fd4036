// Edit → render latency in headless Debian Chromium on the release build: how long from one
// input event in the Desired state editor to the new action list on screen, at N resources.
//
// The documents are the generated scenario file's desired and observed, compact (one line each,
// as JSON.stringify writes them) or pretty-printed with --format pretty, pasted into their
// editors. Then K edits of each kind, each one input event that changes one spec, alternating
// so that the plan gains or loses one UPDATE:
// - paste: Select All, then a paste event with the whole new text (what Ctrl+A, Ctrl+V sends);
// - keystroke: only the changed number is replaced in place (setRangeText), as typing does.
// The time runs from just before the event to the first frame after the plan summary changed:
// the editor's debounce, parsing, planning, rendering, and the browser's layout of the text.
// For scale, the same pastes into a bare <textarea> of the same size on the same page give the
// browser's own cost of taking that much text (`bareTextareaPasteMs`), which no app code can avoid.
// Long tasks (over 50 ms) are recorded from the first paste on, including the pastes.
// With --format yaml the documents are pretty YAML (block style, two-space indent), which the page
// reads through its YAML module in a worker: the time then includes the worker's read.
// Usage: node bench/edit-render.mjs [--edits K] [--format compact|pretty|yaml] N [N...]
// (serves ../dist, or $DIST; inputs from ../target/bench-inputs, or $BENCH_INPUTS; one JSON line per N)
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { serveAndLaunch } from "./lib.mjs";

const args = process.argv.slice(2);
/** Takes `--name value` out of the arguments. */
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 ? args.splice(at, 2)[1] : fallback;
};
const edits = Number(option("--edits", 11));
const format = option("--format", "compact");
if (!["compact", "pretty", "yaml"].includes(format)) throw new Error("--format is compact, pretty or yaml");

/** Block-style YAML of plain JSON values; strings double-quoted (JSON's escapes are YAML's). */
function toYaml(value, indent = "") {
  const scalar = (v) => (typeof v === "string" ? JSON.stringify(v) : JSON.stringify(v));
  const empty = (v) => v !== null && typeof v === "object" && Object.keys(v).length === 0;
  const block = (v) => v !== null && typeof v === "object" && !empty(v);
  if (Array.isArray(value)) {
    return value.map((item) => `${indent}-${block(item) ? "\n" + toYaml(item, indent + "  ") : " " + scalar(item) + "\n"}`).join("");
  }
  return Object.entries(value)
    .map(([key, v]) => `${indent}${key}:${block(v) ? "\n" + toYaml(v, indent + "  ") : " " + scalar(v) + "\n"}`)
    .join("");
}
const write = (value) =>
  format === "yaml" ? toYaml(value) : JSON.stringify(value, null, format === "pretty" ? 2 : undefined);
const sizes = args.map(Number);
const inputs = process.env.BENCH_INPUTS ?? "../target/bench-inputs";
const port = Number(process.env.PORT ?? 4180);

const site = await serveAndLaunch(port);
try {
  for (const n of sizes) {
    const scenario = JSON.parse(readFileSync(join(inputs, `scenario-${n}.json`), "utf8"));
    const desired = write(scenario.desired);
    const observed = write(scenario.observed);
    const page = await site.browser.newPage();
    await page.goto(`${site.url}/`);
    await page.locator("#plan-summary").waitFor();
    const result = await page.evaluate(
      async ({ desired, observed, edits }) => {
        const longTasks = [];
        // From the first paste on: the task that brought the arguments into the page is not the app's.
        let since = Infinity;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) if (entry.startTime >= since) longTasks.push(entry.duration);
        }).observe({ type: "longtask" });
        const summary = document.getElementById("plan-summary");
        const desiredArea = document.getElementById("desired-input");
        const observedArea = document.getElementById("observed-input");
        // Edits come after a pause longer than the editor's 120 ms debounce: a burst of typing is
        // checked once, 120 ms after its last key, by design; an edit after a pause at once.
        const pause = () => new Promise((resolve) => setTimeout(resolve, 200)).then(() => nextFrame());
        const nextFrame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
        /** Runs `change` (which fires one input event) and resolves with the ms until the
         *  frame after the plan summary changed. */
        const timed = (change) =>
          new Promise((resolve, reject) => {
            const before = summary.textContent;
            const timeout = setTimeout(() => reject(new Error("the plan summary did not change")), 120_000);
            let start;
            const observer = new MutationObserver(async () => {
              if (summary.textContent === before) return;
              observer.disconnect();
              await nextFrame();
              clearTimeout(timeout);
              resolve(performance.now() - start);
            });
            observer.observe(summary, { childList: true, characterData: true, subtree: true });
            start = performance.now();
            change();
          });
        // Select All, then a paste event carrying the text, as Ctrl+A, Ctrl+V sends.
        const paste = (area, text) => () => {
          area.setSelectionRange(0, area.value.length);
          const clipboardData = new DataTransfer();
          clipboardData.setData("text/plain", text);
          area.dispatchEvent(new ClipboardEvent("paste", { clipboardData, bubbles: true, cancelable: true }));
        };
        await nextFrame();
        since = performance.now();
        const pastes = [await timed(paste(observedArea, observed)), await timed(paste(desiredArea, desired))];
        // The first resource's replicas: `"replicas":7` becomes `"replicas":107` and back.
        const digits = /"?replicas"?: ?(\d+)/.exec(desired);
        const at = digits.index + digits[0].length - digits[1].length;
        const edited = desired.slice(0, at) + "10" + desired.slice(at);
        const samples = { paste: [], keystroke: [] };
        for (let i = 0; i < edits; i++) {
          await pause();
          samples.paste.push(await timed(paste(desiredArea, i % 2 === 0 ? edited : desired)));
        }
        // After an even number of pastes the text is `desired` again; odd leaves `edited`.
        let insert = edits % 2 === 0;
        // Ctrl+Home: back to the document's start, where `at` is (a paste leaves the caret at the end).
        desiredArea.focus();
        desiredArea.dispatchEvent(new KeyboardEvent("keydown", { key: "Home", ctrlKey: true, bubbles: true, cancelable: true }));
        await nextFrame();
        await nextFrame();
        if (desiredArea.value.slice(0, 40) !== desired.slice(0, 40)) throw new Error("Ctrl+Home did not bring the start into the editor");
        for (let i = 0; i < edits; i++) {
          await pause();
          samples.keystroke.push(
            await timed(() => {
              if (insert) desiredArea.setRangeText("10", at, at, "end");
              else desiredArea.setRangeText("", at, at + 2, "end");
              insert = !insert;
              desiredArea.dispatchEvent(new Event("input", { bubbles: true }));
            }),
          );
        }
        const appLongTasks = [...longTasks];
        // The browser's own cost: the same texts into a bare textarea of the same size.
        const bare = document.createElement("textarea");
        bare.style.cssText = `position:fixed;left:0;top:0;width:${desiredArea.offsetWidth}px;height:${desiredArea.offsetHeight}px`;
        document.body.append(bare);
        const bareSamples = [];
        for (let i = 0; i < Math.min(edits, 5); i++) {
          await nextFrame();
          const start = performance.now();
          bare.value = i % 2 === 0 ? edited : desired;
          bare.dispatchEvent(new Event("input", { bubbles: true }));
          await nextFrame();
          bareSamples.push(performance.now() - start);
        }
        bare.remove();
        return { pastes, samples, bareSamples, summary: summary.textContent, longTasks: appLongTasks };
      },
      { desired, observed, edits },
    );
    await page.close();
    const stats = (values) => {
      const sorted = [...values].sort((a, b) => a - b);
      const ms = (x) => Math.round(x * 10) / 10;
      return { median: ms(sorted[Math.floor(sorted.length / 2)]), min: ms(sorted[0]), max: ms(sorted[sorted.length - 1]) };
    };
    console.log(JSON.stringify({
      resources: n,
      format,
      desiredChars: desired.length,
      edits,
      summary: result.summary,
      pasteEditToRenderMs: stats(result.samples.paste),
      keystrokeEditToRenderMs: stats(result.samples.keystroke),
      bareTextareaPasteMs: stats(result.bareSamples),
      firstPastesToRenderMs: result.pastes.map((ms) => Math.round(ms)),
      longTasks: result.longTasks.length,
      maxLongTaskMs: Math.round(Math.max(0, ...result.longTasks)),
    }));
  }
} catch (error) {
  // Keep failures short: Playwright errors can quote the whole pasted document.
  console.log(JSON.stringify({ error: String(error.message).split("\n")[0] }));
  process.exitCode = 1;
} finally {
  await site.close();
}
