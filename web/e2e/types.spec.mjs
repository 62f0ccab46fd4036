// The JS API's TypeScript declarations, as a course author's TypeScript sees
// them: tsc --strict on typecheck/usage.ts against the built pkg/reconcile.d.ts.
import { execFile } from "node:child_process";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { test, expect } from "@playwright/test";

const dist = resolve(process.env.DIST ?? "../dist");

test("reconcile.d.ts types a course page's use of every export, and rejects misuse", async () => {
  const dir = await mkdtemp(join(tmpdir(), "reconcile-types-"));
  const config = join(dir, "tsconfig.json");
  await writeFile(
    config,
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        target: "es2022",
        module: "es2022",
        moduleResolution: "bundler",
        lib: ["es2022", "dom"],
        types: [],
        paths: { "reconcile-playground": [join(dist, "pkg/reconcile.d.ts")] },
      },
      files: [resolve("e2e/typecheck/usage.ts")],
    }),
  );
  const tsc = resolve("node_modules/typescript/bin/tsc");
  const result = await promisify(execFile)(process.execPath, [tsc, "-p", config]).then(
    ({ stdout }) => ({ ok: true, output: stdout }),
    (error) => ({ ok: false, output: `${error.stdout}${error.stderr}` }),
  );
  expect(result.output).toBe("");
  expect(result.ok).toBe(true);
});
