// The LMS package (docs/lms.md) against a real SCORM 1.2 run-time, npm scorm-again, in a stand-in
// LMS (pages/lms.html): it reads the zip's imsmanifest.xml, launches the file it names, and the
// launch page reports completion and score, and resumes from cmi.suspend_data.
// `cargo xtask test` zips the package first (`cargo xtask package --scorm finalizers`).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { inflateRawSync } from "node:zlib";
import { unzipSync } from "fflate";
import { test, expect } from "./fixtures.mjs";

const require = createRequire(import.meta.url);
const runtime = require.resolve("scorm-again/scorm12");
const built = process.env.SCORM_PACKAGE ?? new URL("../../packages/reconcile-playground-lesson-finalizers.zip", import.meta.url).pathname;

function readPackage(path) {
  let bytes;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    throw new Error(`${path}: ${error.message}; make it with \`cargo xtask package --scorm finalizers\``);
  }
  return unzipSync(new Uint8Array(bytes));
}

const types = { html: "text/html", js: "text/javascript", mjs: "text/javascript", wasm: "application/wasm", css: "text/css", json: "application/json", xml: "application/xml" };

/** Opens the stand-in LMS with the package's files at /__lms/ (the LMS's origin, as an LMS serves a package). */
async function openLms(page, files) {
  await page.route("**/__lms/**", (route) => {
    const path = decodeURIComponent(new URL(route.request().url()).pathname.replace(/^\/__lms\//, ""));
    const body = files[path];
    if (!body) return route.fulfill({ status: 404, body: "not in the package" });
    return route.fulfill({ body: Buffer.from(body), contentType: types[path.split(".").pop()] ?? "application/octet-stream" });
  });
  await page.goto("/__e2e/lms.html");
  await page.addScriptTag({ path: runtime });
}

const lessonFrame = (page) => page.frameLocator("#course iframe").frameLocator("reconcile-playground iframe");
const state = (page) => page.evaluate(() => window.lms.state());
const suspended = async (page) => JSON.parse((await state(page)).suspend || "{}");
/** The lesson step (0-based) a `#v2/…` link holds: its state is deflated JSON in base64url. */
const linkStep = (link) => JSON.parse(inflateRawSync(Buffer.from(link.slice("#v2/".length), "base64url"))).step;

test("a lesson's package reports its score and completion to the run-time, and resumes where the learner stopped", async ({ page }) => {
  const files = readPackage(built);
  const manifest = new TextDecoder().decode(files["imsmanifest.xml"]);
  expect(manifest).toContain("<schemaversion>1.2</schemaversion>");
  // Pyodide is only for an exercise in Python.
  expect(Object.keys(files).some((path) => path.startsWith("pyodide/"))).toBe(false);
  await openLms(page, files);
  await page.evaluate(() => window.lms.launch());

  const frame = lessonFrame(page);
  await expect.poll(() => state(page)).toMatchObject({ status: "incomplete", score: { raw: "0", min: "0", max: "100" } });
  // Right the first time: one prediction of four.
  await frame.getByRole("button", { name: "FINALIZE svc", exact: true }).click();
  await frame.getByRole("button", { name: "Check", exact: true }).click();
  await expect.poll(() => state(page)).toMatchObject({ score: { raw: "25" } });
  await expect.poll(() => suspended(page)).toMatchObject({ step: 1, first: { 1: true }, link: expect.stringMatching(/^#v2\//) });
  await frame.getByRole("button", { name: "Next →" }).click();
  await expect(frame.getByRole("radio", { name: "The API server, after a timeout." })).toBeVisible();
  // The playground sends the state's link once the learner pauses, as its autosave does.
  await expect.poll(() => suspended(page).then((saved) => [saved.step, linkStep(saved.link)])).toEqual([2, 1]);

  // The learner leaves: the launch page finishes, asking to resume.
  const kept = await page.evaluate(() => window.lms.close());
  expect(kept).toMatchObject({ finished: true, status: "incomplete", location: "2", exit: "suspend", score: { raw: "25" } });
  expect(kept.suspend.length).toBeLessThanOrEqual(4096);

  // The next attempt starts from what the run-time kept: back at step 2, its score kept.
  await page.evaluate((kept) => window.lms.launch({ suspend_data: kept.suspend, core: { lesson_status: kept.status, lesson_location: kept.location, score: kept.score } }), kept);
  await expect(frame.getByRole("radio", { name: "The API server, after a timeout." })).toBeVisible();
  // Right the first time again; then two wrong, shown, to reach the end.
  await frame.getByRole("radio", { name: "The controller that owns that finalizer, once its cleanup is done." }).check();
  await frame.getByRole("button", { name: "Check", exact: true }).click();
  await expect.poll(() => state(page)).toMatchObject({ score: { raw: "50" } });
  await frame.getByRole("button", { name: "Next →" }).click();
  await frame.getByLabel("Your prediction: number of passes").fill("40");
  await frame.getByRole("button", { name: "Check", exact: true }).click();
  await frame.getByRole("button", { name: "Show the answer" }).click();
  await frame.getByRole("button", { name: "Next →" }).click();
  await frame.getByRole("radio", { name: "Remove the finalizer by hand." }).check();
  await frame.getByRole("button", { name: "Check", exact: true }).click();
  await frame.getByRole("button", { name: "Show the answer" }).click();
  await expect.poll(() => state(page)).toMatchObject({ status: "completed", location: "4", score: { raw: "50" } });
  expect(await suspended(page)).toMatchObject({ step: 4, first: { 1: true, 2: true, 3: false, 4: false } });
  expect(await page.evaluate(() => window.lms.calls.filter((call) => call === "LMSInitialize").length)).toBe(2);
});

test("Download as an LMS package packs the same files in the browser, and the package plays", async ({ page }) => {
  await page.goto("/?lesson=finalizers");
  await expect(page.getByRole("button", { name: "FINALIZE svc", exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Share" }).click();
  await page.getByText("Embed this state in a course page").click();
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Download as an LMS package" }).click(),
  ]);
  expect(download.suggestedFilename()).toBe("reconcile-playground-lesson-finalizers.zip");
  await expect(page.getByText("Downloaded reconcile-playground-lesson-finalizers.zip")).toBeVisible();
  const files = readPackage(await download.path());
  expect(Object.keys(files).sort()).toEqual(Object.keys(readPackage(built)).sort());

  await openLms(page, files);
  await page.evaluate(() => window.lms.launch());
  const frame = lessonFrame(page);
  await frame.getByRole("button", { name: "FINALIZE svc", exact: true }).click();
  await frame.getByRole("button", { name: "Check", exact: true }).click();
  await expect.poll(() => state(page)).toMatchObject({ status: "incomplete", location: "1", score: { raw: "25" } });
});
