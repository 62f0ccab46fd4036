// Shared by the browser benchmarks: serve a built site and launch Debian Chromium
// with the flags this offline machine needs (never a downloaded browser).
import { chromium } from "@playwright/test";
import { spawn } from "node:child_process";
import { createServer } from "node:net";

export const CHROMIUM_ARGS = [
  "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
];

/** A port nothing listens on right now (the system picks it). */
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** Starts the static server on `port`; resolves once it listens, rejects if it exits first. */
function serve(root, port, { gzip, brotli }) {
  const args = ["e2e/serve.mjs", root, String(port), ...(gzip ? ["--gzip"] : []), ...(brotli ? ["--brotli"] : [])];
  const server = spawn("node", args, { stdio: "pipe" });
  return new Promise((resolve, reject) => {
    server.stdout.once("data", () => resolve(server));
    server.once("exit", (code) => reject(new Error(`static server exited with ${code} (port ${port} busy?)`)));
  });
}

/** Serves `root` (default ../dist, or $DIST) on `port` (or, when that one is taken, on a free
 *  one: other work on this machine may be serving too) and starts Chromium; returns both.
 *  With `gzip`, the server compresses as a production host does; with `brotli`, it prefers brotli. */
export async function serveAndLaunch(port, root = process.env.DIST ?? "../dist", { gzip = false, brotli = false } = {}) {
  let server;
  try {
    server = await serve(root, port, { gzip, brotli });
  } catch {
    port = await freePort();
    server = await serve(root, port, { gzip, brotli });
  }
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

/** Median, min and max of timing samples, in ms to one decimal. */
export function summarize(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const ms = (x) => Math.round(x * 10) / 10;
  return { median: ms(sorted[Math.floor(sorted.length / 2)]), min: ms(sorted[0]), max: ms(sorted[sorted.length - 1]) };
}

/** Chromium's network emulation of the slow links the budgets name (CDP `Network.emulateNetworkConditions`). */
export const PROFILES = {
  "4g": { offline: false, latency: 170, downloadThroughput: 9e6 / 8, uploadThroughput: 9e6 / 8 },
  "3g": { offline: false, latency: 300, downloadThroughput: 1.6e6 / 8, uploadThroughput: 1.6e6 / 8 },
};
