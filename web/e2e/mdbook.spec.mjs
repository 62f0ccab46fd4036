// The example mdBook (e2e/mdbook-example), built by `cargo xtask book` with the pinned mdBook and
// crates/mdbook-reconcile, served as a course host serves it, on another origin than the playground.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { test, expect, editor, actionItems, paste } from "./fixtures.mjs";
import { startServer } from "./serve.mjs";

const port = Number(process.env.PORT ?? 4173);
const playground = `http://127.0.0.1:${port}`;
const built = fileURLToPath(new URL("./mdbook-example/book/", import.meta.url));

let book;
let host;

test.beforeAll(async () => {
  // Never a skip: without the built book this file fails, and says how to build it.
  if (!existsSync(`${built}scenarios.html`)) {
    throw new Error(`the example book is not built in ${built}: run \`cargo xtask book\` (\`cargo xtask test\` does)`);
  }
  book = await startServer(built, 0);
  host = `http://localhost:${book.port}`;
});

test.afterAll(async () => {
  await book?.close();
});

const frames = (page) => page.locator("reconcile-playground iframe");
const script = (page) => page.locator('script[type="module"][src$="/pkg/reconcile-playground.js"]');

test("a JSON scenario fence opens the playground on its documents, and the learner can edit it", async ({ page }) => {
  await page.goto(`${host}/scenarios.html`);
  await expect(script(page)).toHaveCount(1);
  await expect(script(page)).toHaveAttribute("src", `${playground}/pkg/reconcile-playground.js`);
  await expect(frames(page)).toHaveCount(2);
  const src = new URL(await frames(page).first().getAttribute("src"));
  expect(src.origin).toBe(playground);
  expect(src.searchParams.get("panes")).toBe("editors,plan");
  expect(src.searchParams.get("allow")).toBe(host);
  expect(src.hash).toMatch(/^#v2\//);

  const frame = page.frameLocator("reconcile-playground iframe").first();
  await expect(actionItems(frame)).toHaveText([/CREATE\s*db/, /UPDATE\s*web/, /DELETE\s*cache/]);
  await expect(editor(frame, "Desired state")).toHaveJSProperty("readOnly", false);
  // The learner drops db and matches web's replicas: only the stray cache is left to delete.
  await paste(frame, "Desired state", '{"web": {"replicas": 2}}');
  await expect(actionItems(frame)).toHaveText([/DELETE\s*cache/]);
});

test("a YAML scenario fence opens read only, with its finalizer", async ({ page }) => {
  await page.goto(`${host}/scenarios.html`);
  const frame = page.frameLocator("reconcile-playground iframe").last();
  await expect(actionItems(frame)).toHaveText([/UPDATE\s*api/, /FINALIZE\s*old-job/]);
  expect(new URL(await frames(page).last().getAttribute("src")).searchParams.has("readonly")).toBe(true);
});

test("a preset fence opens the preset; other fences stay code", async ({ page }) => {
  await page.goto(`${host}/preset.html`);
  await expect(script(page)).toHaveCount(1);
  const frame = page.frameLocator("reconcile-playground iframe");
  await expect(actionItems(frame)).toHaveText([/FINALIZE\s*svc/]);
  await expect(page.locator("pre code.language-json")).toContainText('"desired"');
  // The frame fits its content: the component heard the playground's height.
  await expect.poll(() => frames(page).evaluate((f) => f.getBoundingClientRect().height)).not.toBe(480);
});
