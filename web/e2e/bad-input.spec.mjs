// The bad-input matrix (issue 6): one test per case, in the order of docs/bad-input.md.
// Every error case checks that the message names the document (the editor it
// describes), the line, the column, the JSON path and what was expected; that
// the text is exactly what was entered; and that the page still answers and a
// following valid edit re-plans within seconds. The fixtures fail every test
// on a console error or an uncaught exception (a wasm panic is one).
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { deflateRawSync } from "node:zlib";
import { test, expect, editor, actionList, typeInto, paste, actionSummaries, documentText } from "./fixtures.mjs";

const DEFAULT_DESIRED = '{\n  "a": {"replicas": 1},\n  "b": {"replicas": 3}\n}\n';
const DEFAULT_ACTIONS = ["CREATE a", "UPDATE b", "DELETE c"];
const EDITOR_IDS = { "Desired state": "desired", "Observed state": "observed", Finalizers: "finalizers" };
/** For each editor, a valid text and an action it adds to the default scenario's plan. */
const FIXES = {
  "Desired state": ['{"fixed": {}}', "CREATE fixed"],
  "Observed state": ['{"fixed": {}}', "DELETE fixed"],
  Finalizers: ['{"c": ["example.com/cleanup"]}', "FINALIZE c"],
};
const EXPECTED_VALUE = "expected a JSON value (object, array, string, number, true, false or null)";
const EMPTY = 'the document is empty; expected an object of {"name": spec}';
const AUTOSAVE_KEY = "reconcile-playground/v1/autosave";

const notice = (page) => page.locator(".notice p");
const summary = (page) => page.locator("#plan-summary");

/** About 10.7 MB: 100,000 resources, one per line; `trailingComma` breaks its last line. */
function tenMegabytes({ trailingComma = false } = {}) {
  const image = `registry.example/app:${"x".repeat(40)}`;
  const lines = Array.from(
    { length: 100_000 },
    (_, i) => `  "pod-${String(i).padStart(6, "0")}": {"replicas": ${i % 5}, "image": "${image}"}`,
  );
  return `{\n${lines.join(",\n")}${trailingComma ? "," : ""}\n}\n`;
}

/** Six levels of ten aliases: a million values, past the 100,000 the reader allows. */
const YAML_BOMB = [
  'a: &a ["x","x","x","x","x","x","x","x","x","x"]',
  ..."bcdef".split("").map((level, i) => `${level}: &${level} [${Array(10).fill(`*${"abcde"[i]}`).join(",")}]`),
].join("\n") + "\n";
const UNTAGGED = "expected an untagged value (a string, number, boolean, null, sequence or mapping), since only those have a JSON value";

/** `count` resources as pretty YAML, two lines each. */
function yamlMegabytes(count) {
  const image = `registry.example/app:${"x".repeat(40)}`;
  return Array.from({ length: count }, (_, i) => `pod-${String(i).padStart(6, "0")}:\n  image: ${image}\n`).join("");
}

const sha256 = (text) => createHash("sha256").update(text, "utf8").digest("hex");

async function openDefault(page) {
  await page.goto("/");
  await expect(actionList(page).locator(":scope > li")).toHaveCount(3);
}

/** Types short inputs as a person would; pastes long ones and ones with tabs (Tab indents). */
async function enter(page, document, input, via) {
  if (via === "paste" || input.length > 200 || input.includes("\t")) {
    await paste(page, document, input);
  } else {
    await typeInto(page, document, input);
  }
}

/** The editor holds exactly `input`, byte for byte (large texts are compared by hash). */
async function expectTextIntact(page, document, input) {
  const box = editor(page, document);
  if (input.length < 100_000) {
    await expect(box).toHaveValue(input);
    return;
  }
  // A large document's textarea holds a window of it: the part shown is the text's own,
  // and Select All + Copy gives the whole document back.
  expect(input.includes(await box.inputValue()), "the editor shows a part of the pasted text").toBe(true);
  expect(sha256(await documentText(page, document)), "the editor holds the pasted text").toBe(sha256(input));
}

async function expectLocatedError(page, { document, line, column, path, message }, timeout) {
  const text = `Line ${line}, column ${column} at ${path}: ${message}`;
  const box = editor(page, document);
  // The message is the description of the editor named after the document
  // (after the warning sign the style sheet puts in front).
  const escaped = text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  await expect(box).toHaveAccessibleDescription(new RegExp(`^\\W*${escaped}$`, "u"), { timeout });
  await expect(page.locator(`#${EDITOR_IDS[document]}-error`)).toHaveText(text);
  await expect(box).toHaveAttribute("aria-invalid", "true");
  await expect(actionList(page)).toHaveAttribute("data-stale", "true");
}

/** A frame renders within a second, and a valid edit re-plans within a few seconds. */
async function expectResponsive(page, document = "Desired state") {
  const started = Date.now();
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
  expect(Date.now() - started, "milliseconds to the next frame").toBeLessThan(1_000);
  const [fix, action] = FIXES[document];
  await paste(page, document, fix);
  await expect.poll(() => actionSummaries(page), { timeout: 5_000 }).toContain(action);
  await expect(actionList(page)).toHaveAttribute("data-stale", "false");
}

/** An input that must be rejected with exactly this location and message. */
function errorCase(name, document, input, [line, column, path, message], { via, timeout = 5_000, slow = false } = {}) {
  return {
    name,
    slow,
    run: async (page) => {
      await openDefault(page);
      const text = typeof input === "function" ? input() : input;
      await enter(page, document, text, via);
      await expectLocatedError(page, { document, line, column, path, message }, timeout);
      // The last valid plan stays.
      expect(await actionSummaries(page)).toEqual(DEFAULT_ACTIONS);
      await expectTextIntact(page, document, text);
      await expectResponsive(page, document);
    },
  };
}

/** A link that cannot be opened: its message, the default scenario, and a working page. */
function linkCase(name, hash, message) {
  return {
    name,
    run: async (page) => {
      await page.goto(`/${hash}`);
      await expect(notice(page)).toHaveText(message);
      await expect(editor(page, "Desired state")).toHaveValue(DEFAULT_DESIRED);
      expect(await actionSummaries(page)).toEqual(DEFAULT_ACTIONS);
      await page.getByRole("button", { name: "Dismiss message" }).click();
      await expect(page.locator(".notice")).toHaveCount(0);
      await expectResponsive(page);
    },
  };
}

/** What is in local storage before the page loads. */
function withAutosave(page, text) {
  return page.addInitScript(([key, value]) => localStorage.setItem(key, value), [AUTOSAVE_KEY, text]);
}

const importPicker = (page) => page.getByLabel("Import a scenario file");
const KUBECTL_JSON = readFileSync(new URL("../../crates/reconcile-yaml/tests/fixtures/kubectl-get-deployments.json", import.meta.url), "utf8");

const cases = [
  errorCase("truncated JSON", "Desired state", '{\n  "a": {"replicas": 1},\n  "b": {"replicas": ', [
    3, 20, "$.b.replicas", "the text ends where a value was expected",
  ]),
  errorCase("a trailing comma in an object", "Observed state", '{\n  "b": {"replicas": 1},\n}', [
    3, 1, "$", "trailing comma; expected another member or value after `,`",
  ]),
  errorCase("a trailing comma in an array", "Observed state", '{"b": {"ports": [80, 443,]}}', [
    1, 26, "$.b.ports[2]", "trailing comma; expected another member or value after `,`",
  ]),
  errorCase("a line comment", "Desired state", '{\n  // the web tier\n  "web": {}\n}', [
    2, 3, "$", "comments are not allowed in JSON; expected a member name in double quotes",
  ]),
  errorCase("a block comment", "Desired state", '{"web": {} /* was {"replicas": 2} */}', [
    1, 12, "$", "comments are not allowed in JSON; expected `,` or `}`",
  ]),
  errorCase("NaN", "Desired state", '{"web": {"ratio": NaN}}', [
    1, 19, "$.web.ratio", `NaN and Infinity are not JSON numbers; ${EXPECTED_VALUE}`,
  ]),
  errorCase("-Infinity", "Desired state", '{"web": {"limit": -Infinity}}', [
    1, 20, "$.web.limit", "NaN and Infinity are not JSON numbers; invalid number; a JSON number looks like -1, 0.5 or 2e3",
  ]),
  errorCase("single quotes", "Desired state", "{'web': {}}", [
    1, 2, "$", "JSON uses double quotes, not single quotes; expected a member name in double quotes",
  ]),
  errorCase("a byte order mark", "Desired state", '\uFEFF{"web": {}}', [
    1, 1, "$", "unexpected byte order mark (U+FEFF); save the text as UTF-8 without a BOM",
  ], { via: "paste" }),
  errorCase("100,000-deep nesting", "Desired state", () => `{"deep": ${"[".repeat(100_000)}${"]".repeat(100_000)}}`, [
    1, 136, `$.deep${"[0]".repeat(126)}`, "values are nested more than 127 levels deep",
  ]),
  {
    name: "a 10 MB document",
    slow: true,
    run: async (page, testInfo) => {
      await openDefault(page);
      const text = tenMegabytes();
      const started = Date.now();
      await paste(page, "Desired state", text);
      await expect(summary(page)).toHaveText("100000 to create, 0 to update, 0 to finalize, 2 to delete", { timeout: 20_000 });
      testInfo.annotations.push({ type: "10 MB paste to plan", description: `${Date.now() - started} ms` });
      // The editor holds a window of a few hundred lines, coloured, not 100,000.
      const pane = page.locator(".editor-pane", { has: editor(page, "Desired state") });
      expect((await editor(page, "Desired state").inputValue()).split("\n").length).toBeLessThan(1_000);
      expect(await pane.locator(".highlight .line").count()).toBeLessThan(1_000);
      await expect(notice(page)).toHaveText(
        "These documents are over 1 MB, so they are not autosaved. Use Download scenario to keep them.",
      );
      await expectTextIntact(page, "Desired state", text);
      const frame = Date.now();
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
      expect(Date.now() - frame, "milliseconds to the next frame").toBeLessThan(2_000);
      // The 200 listed actions are all CREATEs here; the summary shows the edit.
      const edited = Date.now();
      await paste(page, "Observed state", '{"fixed": {}}');
      await expect(summary(page)).toHaveText("100000 to create, 0 to update, 0 to finalize, 1 to delete", { timeout: 5_000 });
      testInfo.annotations.push({ type: "following edit to plan", description: `${Date.now() - edited} ms` });
    },
  },
  errorCase("a 10 MB document with an error on its last line", "Observed state", () => tenMegabytes({ trailingComma: true }), [
    100_002, 1, "$", "trailing comma; expected another member or value after `,`",
  ], { timeout: 20_000, slow: true }),
  errorCase("a top-level array where an object is expected", "Desired state", '[{"web": {}}]', [
    1, 1, "$", 'expected an object of {"name": spec}, found an array',
  ]),
  errorCase("a top-level array of finalizers", "Finalizers", '["cloud/lb-cleanup"]', [
    1, 1, "$", 'expected an object of {"name": ["finalizer", ...]}, or null, found an array',
  ]),
  errorCase("a null document", "Desired state", "null", [
    1, 4, "$", 'expected an object of {"name": spec}, found null',
  ]),
  {
    name: "a null spec",
    run: async (page) => {
      await openDefault(page);
      await typeInto(page, "Observed state", '{"web": {}, "old": null}');
      await typeInto(page, "Desired state", '{"web": null}');
      // A spec may be any JSON value: null is one, and it differs from {}.
      await expect.poll(() => actionSummaries(page)).toEqual(["UPDATE web", "DELETE old"]);
      await expect(actionList(page).locator(":scope > li").first().locator(".spec")).toHaveText("null");
      await typeInto(page, "Observed state", '{"web": null}');
      await expect(summary(page)).toHaveText("Converged: nothing to do");
    },
  },
  errorCase("a finalizers value that is a string", "Finalizers", '{"c": "cloud/lb-cleanup"}', [
    1, 24, "$.c", "expected an array of finalizer names (strings), found a string",
  ]),
  errorCase("a finalizer list containing non-strings", "Finalizers", '{"c": ["cloud/lb-cleanup", 7, null]}', [
    1, 28, "$.c[1]", "expected a finalizer name (a string), found a number",
  ]),
  errorCase("duplicate resource names", "Desired state", '{"web": {}, "web": {"replicas": 2}}', [
    1, 17, "$.web", 'duplicate resource name "web"; each name may appear only once',
  ]),
  errorCase("duplicate member names in a spec", "Observed state", '{"web": {\n  "replicas": 1,\n  "replicas": 2\n}}', [
    3, 12, "$.web.replicas", 'duplicate member name "replicas"; each name may appear only once',
  ]),
  {
    name: "an imported file that is not UTF-8",
    run: async (page) => {
      await openDefault(page);
      await typeInto(page, "Desired state", '{"mine": {}}');
      await expect.poll(() => actionSummaries(page)).toContain("CREATE mine");
      await importPicker(page).setInputFiles({
        name: "latin1.json",
        mimeType: "application/json",
        buffer: Buffer.from('{"desired": {"caf\xe9": {}}, "observed": {}}', "latin1"),
      });
      await expect(notice(page)).toHaveText(
        "Import failed: latin1.json: the file is not UTF-8 text (invalid byte at offset 17); save it as UTF-8",
      );
      await expectTextIntact(page, "Desired state", '{"mine": {}}');
      await expectResponsive(page);
    },
  },
  {
    name: "an imported scenario with an unknown member",
    run: async (page) => {
      await openDefault(page);
      await typeInto(page, "Desired state", '{"mine": {}}');
      await importPicker(page).setInputFiles({
        name: "extra.json",
        mimeType: "application/json",
        buffer: Buffer.from('{"desired": {}, "observed": {}, "extra": 1}'),
      });
      await expect(notice(page)).toHaveText(
        'Import failed: extra.json: Scenario: line 1, column 39 at $.extra: unknown member "extra"; expected "desired", "observed" or "finalizers"',
      );
      await expectTextIntact(page, "Desired state", '{"mine": {}}');
      await expectResponsive(page);
    },
  },
  {
    name: "names that contain HTML or script",
    run: async (page) => {
      const dialogs = [];
      page.on("dialog", (dialog) => {
        dialogs.push(dialog.message());
        dialog.dismiss();
      });
      await openDefault(page);
      const names = ["</li><li>injected", "<img src=x onerror=alert(1)>", "<script>alert(2)</script>"];
      const input = JSON.stringify(Object.fromEntries(names.map((name) => [name, {}])));
      await typeInto(page, "Desired state", input);
      // Shown as text, in code point order ("/" < "i" < "s").
      await expect.poll(() => actionSummaries(page)).toEqual([...names.map((name) => `CREATE ${name}`), "DELETE b", "DELETE c"]);
      await expectTextIntact(page, "Desired state", input);
      // The same names in an error message stay text too.
      await typeInto(page, "Desired state", '{"<b>x</b>": 1, "<b>x</b>": 2}');
      await expectLocatedError(page, {
        document: "Desired state", line: 1, column: 26, path: '$["<b>x</b>"]',
        message: 'duplicate resource name "<b>x</b>"; each name may appear only once',
      });
      // No element came from a name: not in the plan, the editors' colouring or the message.
      await expect(page.locator("main img, main script, main b")).toHaveCount(0);
      await expect(actionList(page).locator(":scope > li .name *")).toHaveCount(0);
      await expect(page.locator(".editor-error *")).toHaveCount(0);
      expect(dialogs).toEqual([]);
      await expectResponsive(page);
    },
  },
  {
    name: "names in right-to-left text",
    run: async (page) => {
      await openDefault(page);
      await typeInto(page, "Observed state", "{}");
      const input = '{"مرحبا": {"replicas": 2}, "שלום": {"replicas": 1}, "abc": {}}';
      await typeInto(page, "Desired state", input);
      // Hebrew (U+05D0…) sorts before Arabic (U+0600…), by code point.
      await expect.poll(() => actionSummaries(page)).toEqual(["CREATE abc", "CREATE שלום", "CREATE مرحبا"]);
      await expectTextIntact(page, "Desired state", input);
      // Columns count characters, whatever the direction.
      await typeInto(page, "Desired state", '{"مرحبا": x}');
      await expectLocatedError(page, { document: "Desired state", line: 1, column: 11, path: '$["مرحبا"]', message: EXPECTED_VALUE });
      await expectResponsive(page);
    },
  },
  {
    name: "names in emoji",
    run: async (page) => {
      await openDefault(page);
      await typeInto(page, "Observed state", "{}");
      const input = '{"🚀": 1, "\uE000": 2, "👩‍👩‍👧": 3, "🇺🇦": 4, "z": 5}';
      await typeInto(page, "Desired state", input);
      // Code point order; JavaScript's default (UTF-16) sort would put "\uE000" last.
      await expect.poll(() => actionSummaries(page)).toEqual(["CREATE z", "CREATE \uE000", "CREATE 🇺🇦", "CREATE 👩‍👩‍👧", "CREATE 🚀"]);
      await expectTextIntact(page, "Desired state", input);
      // The family is five code points (three people, two joiners): columns count code points.
      await typeInto(page, "Desired state", '{"👩‍👩‍👧": x}');
      await expectLocatedError(page, { document: "Desired state", line: 1, column: 11, path: '$["👩‍👩‍👧"]', message: EXPECTED_VALUE });
      await expectResponsive(page);
    },
  },
  errorCase("1e400", "Desired state", '{"web": {"replicas": 1e400}}', [
    1, 26, "$.web.replicas", "number out of range; JSON numbers here must fit a 64-bit float",
  ]),
  {
    name: "-0",
    run: async (page) => {
      await openDefault(page);
      await typeInto(page, "Observed state", '{"web": {"replicas": 0, "weight": 0, "ratio": -0}}');
      await typeInto(page, "Desired state", '{"web": {"replicas": -0, "weight": -0.0, "ratio": 0e0}}');
      // Numbers compare by value, and -0 == 0.
      await expect(summary(page)).toHaveText("Converged: nothing to do");
      await expect(actionList(page).locator(":scope > li")).toHaveCount(0);
    },
  },
  errorCase("an empty document", "Desired state", "", [1, 1, "$", EMPTY]),
  errorCase("a whitespace-only document", "Observed state", "  \n\t  \n", [1, 1, "$", EMPTY]),
  {
    name: "a whitespace-only finalizers document",
    run: async (page) => {
      await openDefault(page);
      await typeInto(page, "Finalizers", '{"c": ["example.com/cleanup"]}');
      await expect.poll(() => actionSummaries(page)).toContain("FINALIZE c");
      await paste(page, "Finalizers", "  \n\t  \n");
      // Blank finalizers mean "none", like null: c is deleted, and nothing is an error.
      await expect.poll(() => actionSummaries(page)).toEqual(DEFAULT_ACTIONS);
      await expect(page.locator("#finalizers-error")).toHaveText("");
      await expectTextIntact(page, "Finalizers", "  \n\t  \n");
    },
  },
  errorCase("text after the document", "Desired state", '{"a": 1}\n{"b": 2}', [
    2, 1, "$", "unexpected text after the end of the JSON value",
  ]),
  errorCase("a line break inside a string", "Desired state", '{"web": {"image": "app:\n1.0"}}', [
    2, 1, "$.web.image",
    "a line break, tab or other control character inside a string; write it as an escape such as \\n or \\t",
  ]),
  errorCase("an escaped lone surrogate", "Desired state", '{"web": {"name": "\\ud83d"}}', [
    1, 25, "$.web.name", "a \\u escape of half a surrogate pair; \\uD800-\\uDBFF must be followed by \\uDC00-\\uDFFF",
  ]),
  linkCase("a garbled share link", "#v1/@@not-base64@@",
    "This link is damaged (it is not valid base64url text); the default scenario is loaded."),
  linkCase("a truncated share link",
    `#v1/${deflateRawSync(JSON.stringify({ desired: "{}".repeat(50) })).subarray(0, 12).toString("base64url")}`,
    "This link is damaged or cut short (its compressed data is incomplete); the default scenario is loaded."),
  linkCase("an oversized share link", `#v1/${deflateRawSync(Buffer.alloc(4 << 20, 32)).toString("base64url")}`,
    "This link holds more than 1024 KB of state, more than the playground opens; the default scenario is loaded."),
  linkCase("a share link of an old version", "#v0/abc",
    'This link was made by a different version of the playground ("v0"); it can\'t be opened here, so the default scenario is loaded.'),
  {
    name: "a share link holding an array",
    run: async (page) => {
      await page.goto(`/#v1/${deflateRawSync("[1, 2]").toString("base64url")}`);
      await expect(notice(page)).toHaveText(
        "This link's content is not a playground state (expected a JSON object); the default scenario is loaded.",
      );
      await expect(editor(page, "Desired state")).toHaveValue(DEFAULT_DESIRED);
      await expectResponsive(page);
    },
  },
  {
    name: "corrupt autosave in local storage",
    run: async (page) => {
      await withAutosave(page, "{corrupt");
      await page.goto("/");
      await expect(notice(page)).toHaveText("Your saved session in this browser could not be read, so it was ignored.");
      await expect(editor(page, "Desired state")).toHaveValue(DEFAULT_DESIRED);
      expect(await actionSummaries(page)).toEqual(DEFAULT_ACTIONS);
      await expectResponsive(page);
    },
  },
  {
    name: "an autosave of the wrong shape",
    run: async (page) => {
      await withAutosave(page, '{"desired": 5, "observed": ["x"]}');
      await page.goto("/");
      await expect(notice(page)).toHaveText("Your saved session in this browser could not be read, so it was ignored.");
      await expect(editor(page, "Desired state")).toHaveValue(DEFAULT_DESIRED);
      await expectResponsive(page);
    },
  },
  {
    name: "an autosave whose documents have errors",
    run: async (page) => {
      const saved = { desired: '{"a": ', observed: "{}", finalizers: "" };
      await withAutosave(page, JSON.stringify(saved));
      await page.goto("/");
      // Restored exactly as saved, with the error located; there was never a valid plan.
      await expect(editor(page, "Desired state")).toHaveValue(saved.desired);
      await expectLocatedError(page, {
        document: "Desired state", line: 1, column: 6, path: "$.a", message: "the text ends where a value was expected",
      });
      await expect(summary(page)).toHaveText("No valid input yet");
      await paste(page, "Desired state", '{"a": {}}');
      await expect.poll(() => actionSummaries(page), { timeout: 5_000 }).toEqual(["CREATE a"]);
    },
  },
  {
    name: "local storage that refuses reads and writes",
    run: async (page) => {
      await page.addInitScript(() => {
        window.storageRefusals = 0;
        const refuse = () => {
          window.storageRefusals += 1;
          throw new DOMException("The storage is disabled.", "SecurityError");
        };
        Storage.prototype.getItem = refuse;
        Storage.prototype.setItem = refuse;
      });
      await openDefault(page);
      await expect(page.locator(".notice")).toHaveCount(0);
      const refused = await page.evaluate(() => window.storageRefusals);
      await typeInto(page, "Desired state", '{"web": {}}');
      await expect.poll(() => actionSummaries(page)).toEqual(["CREATE web", "DELETE b", "DELETE c"]);
      // The autosave is attempted (and refused) after a pause; the page goes on.
      await expect.poll(() => page.evaluate(() => window.storageRefusals)).toBeGreaterThan(refused);
      await expectResponsive(page);
    },
  },
  // YAML (issue 15): read by the YAML module, in a worker, on the first YAML document.
  errorCase("a YAML alias bomb", "Desired state", YAML_BOMB, [
    5, 29, "$.e[7]", "aliases expand to more than 100000 values (an alias bomb?); expected fewer or smaller aliases",
  ], { via: "paste" }),
  errorCase("100,000-deep YAML nesting", "Desired state", () => `deep: ${"[".repeat(100_000)}${"]".repeat(100_000)}\n`, [
    1, 262, "$.deep[0]", "values are nested more than 127 levels deep",
  ]),
  errorCase("a YAML !!binary tag", "Desired state", "web:\n  data: !!binary aGVsbG8=\n", [
    2, 9, "$.web.data", `the tag !!binary is not supported; ${UNTAGGED}`,
  ], { via: "paste" }),
  errorCase("a custom YAML tag", "Desired state", "web:\n  replicas: !Ref count\n", [
    2, 13, "$.web.replicas", `the tag !Ref is not supported; ${UNTAGGED}`,
  ], { via: "paste" }),
  errorCase("tab indentation in YAML", "Desired state", "web:\n\treplicas: 2\n", [
    2, 2, "$.web", "a tab in the indentation; expected spaces (YAML indents with spaces only)",
  ]),
  errorCase("mixed YAML and JSON", "Desired state", 'web:\n  replicas: 2\n{"db": {"replicas": 1}}\n', [
    4, 1, "$", "a line without `:` after its key; expected `key: value` (JSON lines among YAML ones are read as YAML)",
  ], { via: "paste" }),
  {
    name: "a multi-megabyte YAML document",
    slow: true,
    run: async (page, testInfo) => {
      await openDefault(page);
      const text = yamlMegabytes(40_000);
      expect(text.length).toBeGreaterThan(3_000_000);
      const started = Date.now();
      await paste(page, "Desired state", text);
      await expect(summary(page)).toHaveText("40000 to create, 0 to update, 0 to finalize, 2 to delete", { timeout: 30_000 });
      testInfo.annotations.push({ type: "YAML paste to plan", description: `${Date.now() - started} ms` });
      await expectTextIntact(page, "Desired state", text);
      // With an error on its last line: that line, at its path.
      const broken = `${text}pod-x: [1,\n`;
      await paste(page, "Desired state", broken);
      await expectLocatedError(page, {
        document: "Desired state", line: 80_002, column: 1, path: "$[\"pod-x\"][1]", message: "expected a value here",
      }, 30_000);
      await expectResponsive(page);
    },
  },
  {
    name: "a non-UTF-8 YAML file",
    run: async (page) => {
      await openDefault(page);
      await importPicker(page).setInputFiles({
        name: "latin1.yaml",
        mimeType: "application/yaml",
        buffer: Buffer.from("web:\n  image: caf\xe9\n", "latin1"),
      });
      await expect(notice(page)).toHaveText(
        "Import failed: latin1.yaml: the file is not UTF-8 text (invalid byte at offset 17); save it as UTF-8",
      );
      await expect(editor(page, "Desired state")).toHaveValue(DEFAULT_DESIRED);
      await expectResponsive(page);
    },
  },
  {
    name: "a YAML key repeated while typing",
    run: async (page) => {
      await openDefault(page);
      await paste(page, "Desired state", "a:\n  replicas: 1\nb:\n  replicas: 3\n");
      await expect.poll(() => actionSummaries(page)).toEqual(["CREATE a", "UPDATE b", "DELETE c"]);
      // Typed at the end, after reads in part: the repeat is the whole read's error.
      await editor(page, "Desired state").evaluate((area) => {
        area.focus();
        area.setSelectionRange(area.value.length, area.value.length);
      });
      await page.keyboard.type("a: {}\n");
      await expectLocatedError(page, {
        document: "Desired state", line: 5, column: 1, path: "$.a", message: 'duplicate resource name "a"; each name may appear only once',
      });
      await expectTextIntact(page, "Desired state", "a:\n  replicas: 1\nb:\n  replicas: 3\na: {}\n");
      await expectResponsive(page);
    },
  },
  errorCase("a kubectl get -o json List without a name", "Observed state", () => KUBECTL_JSON.replace('"name": "redis"', '"name": ""'), [
    99, 25, "$.items[1].metadata.name",
    "expected metadata.name, a non-empty string (an object with only generateName has no name until the server gives it one)",
  ], { via: "paste" }),
  {
    name: "a broken YAML scenario file",
    run: async (page) => {
      await openDefault(page);
      await importPicker(page).setInputFiles({
        name: "broken.yaml",
        mimeType: "application/yaml",
        buffer: Buffer.from("desired: {}\nobserved: [1]\n"),
      });
      await expect(notice(page)).toContainText("Import failed: broken.yaml: Scenario: line 2, column 11 at $.observed: ");
      await expect(editor(page, "Desired state")).toHaveValue(DEFAULT_DESIRED);
      await expectResponsive(page);
    },
  },
];

test.describe("bad-input matrix", () => {
  for (const matrixCase of cases) {
    test(matrixCase.name, async ({ page }, testInfo) => {
      if (matrixCase.slow) test.setTimeout(120_000);
      await matrixCase.run(page, testInfo);
    });
  }
});

test("docs/bad-input.md lists exactly the cases of this matrix, in order", () => {
  const doc = readFileSync(new URL("../../docs/bad-input.md", import.meta.url), "utf8");
  // Table rows: "| 1 | case name | input | expected |".
  const documented = [...doc.matchAll(/^\| *\d+ *\| *([^|]+?) *\|/gm)].map((match) => match[1].replaceAll("`", ""));
  expect(documented).toEqual(cases.map((matrixCase) => matrixCase.name));
});
