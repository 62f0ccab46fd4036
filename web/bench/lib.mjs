// Shared by the browser benchmarks: serve a built site and launch Debian Chromium
// with the flags this offline machine needs (never a downloaded browser).
import { chromium } from "@playwright/test";
import { spawn } from "node:child_process";

export const CHROMIUM_ARGS = [
  "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
];

/** Serves `root` (default ../dist, or $DIST) on `port` and starts Chromium; returns both. */
export async function serveAndLaunch(port, root = process.env.DIST ?? "../dist") {
  const server = spawn("node", ["e2e/serve.mjs", root, String(port)], { stdio: "pipe" });
  await new Promise((resolve, reject) => {
    server.stdout.once("data", resolve);
    server.once("exit", (code) => reject(new Error(`static server exited with ${code} (port ${port} busy?)`)));
  });
  const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
  return {
    browser,
    url: `http://127.0.0.1:${port}`,
    async close() {
      await browser.close();
      server.kill();
    },
  };
}
