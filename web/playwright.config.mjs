// End-to-end tests drive Debian's Chromium (never a downloaded browser) against the release build in ../dist (or $DIST).
import { defineConfig } from "@playwright/test";

// DIST and PORT let several builds be tested side by side (one dist per checkout or helper).
const port = Number(process.env.PORT ?? 4173);
const dist = process.env.DIST ?? "../dist";

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
  timeout: 30_000,
  // One retry: a browser test that fails once on a loaded machine and then passes is
  // reported as "flaky" (and counted so by `cargo xtask test`); one that fails twice fails.
  retries: 1,
  workers: 2,
  forbidOnly: true,
  reporter: [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    // The offline cache's worker is tested in e2e/offline.spec.mjs (which allows it) and by
    // the Firefox and WebKit flows; elsewhere it would precache ~1 MB per test and serve
    // files Playwright's routes cannot see.
    serviceWorkers: "block",
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  webServer: {
    command: `node e2e/serve.mjs ${dist} ${port}`,
    url: `http://127.0.0.1:${port}/`,
    reuseExistingServer: false,
    timeout: 20_000,
  },
});
