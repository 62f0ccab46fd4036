// Waiting for a server a test started (serve.mjs, python3 -m http.server, WebKitWebDriver).
import { createConnection } from "node:net";

/** Resolves once something listens on 127.0.0.1:`port`; rejects after `ms`. */
export async function listening(port, ms = 20000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const open = await new Promise((resolve) => {
      const socket = createConnection({ port, host: "127.0.0.1" }, () => {
        socket.end();
        resolve(true);
      });
      socket.on("error", () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`nothing listens on port ${port} after ${ms} ms`);
}
