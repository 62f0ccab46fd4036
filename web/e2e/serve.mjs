// Serves the release build (dist/) for the end-to-end tests: static files only, as a course host would.
// Run as a script: `node e2e/serve.mjs [DIR] [PORT] [--gzip] [--brotli]`; or import `startServer` (a test's own copy of a site).
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { extname, join, normalize, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

// Test-only pages (a course page that embeds the playground) live beside the tests.
const testPages = resolve(new URL("./pages", import.meta.url).pathname);
// reveal.js for the test deck (pages/deck.html), from the npm package.
const reveal = resolve(new URL("../node_modules/reveal.js/dist", import.meta.url).pathname);
// ... and the controller exercises' learner content (starters, references, hints; one folder
// each), which in-page scenarios fetch as source.
const testControllers = resolve(new URL("../../crates/reconcile-content/exercises/controllers", import.meta.url).pathname);
const types = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".wasm": "application/wasm",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".ts": "text/plain; charset=utf-8",
};

/** How a response is compressed for a request's `Accept-Encoding`, best first: brotli (when
 *  `brotli` is on), else gzip. As a host serving precompressed files does, the body is the
 *  build's copy beside the file when there is one (`FILE.br`: brotli quality 11, `FILE.gz`:
 *  gzip by zopfli; `cargo xtask precompress`), else the file compressed here once (brotli at
 *  its highest quality, gzip level 9) and kept in memory, so compressing never counts in a
 *  benchmark's timings; null for neither. */
function encoder(accepted, { gzip, brotli }) {
  if (brotli && /\bbr\b/.test(accepted)) {
    const params = { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY };
    return { name: "br", suffix: ".br", compress: (body) => brotliCompressSync(body, { params }) };
  }
  if ((gzip || brotli) && /\bgzip\b/.test(accepted)) {
    return { name: "gzip", suffix: ".gz", compress: (body) => gzipSync(body, { level: 9 }) };
  }
  return null;
}

/** The build's precompressed copy of `file` for `encoding`, if it has one. */
async function precompressed(file, encoding) {
  try {
    return await readFile(file + encoding.suffix);
  } catch {
    return null;
  }
}

/** Serves `root` on `port` (0: any free one); with `gzip` (or `brotli`, which prefers brotli and
 *  falls back to gzip), compresses for clients that accept it, as a production host does.
 *  Resolves to the port and a `close()`. */
export function startServer(root, port, { gzip = false, brotli = false, onRequest } = {}) {
  root = resolve(root);
  const compressed = new Map();
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, "http://localhost");
    onRequest?.(url.pathname);
    let path = normalize(decodeURIComponent(url.pathname)).replace(/^(\.\.[/\\])+/, "");
    if (path.endsWith("/")) path += "index.html";
    const [base, prefix] = path.startsWith("/__e2e/reveal.js/")
      ? [reveal, /^\/__e2e\/reveal\.js\//]
      : path.startsWith("/__e2e/controllers/")
        ? [testControllers, /^\/__e2e\/controllers\//]
        : path.startsWith("/__e2e/")
        ? [testPages, /^\/__e2e\//]
        : [root, /^\//];
    const file = join(base, path.replace(prefix, "/"));
    if (!file.startsWith(base)) {
      res.writeHead(403).end();
      return;
    }
    let body;
    try {
      body = await readFile(file);
    } catch {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    const headers = { "content-type": types[extname(file)] ?? "application/octet-stream" };
    // Course pages on other sites import the JS API and the component from pkg/, as
    // modules, which needs CORS (GitHub Pages sends this header for every file).
    if (url.pathname.startsWith("/pkg/")) headers["access-control-allow-origin"] = "*";
    const encoding = encoder(req.headers["accept-encoding"] ?? "", { gzip, brotli });
    if (encoding) {
      const key = `${encoding.name} ${file}`;
      const cached = compressed.get(key);
      if (cached?.raw.equals(body)) body = cached.body;
      else {
        const raw = body;
        body = (await precompressed(file, encoding)) ?? encoding.compress(raw);
        compressed.set(key, { raw, body });
      }
      headers["content-encoding"] = encoding.name;
    }
    res.writeHead(200, headers);
    res.end(body);
  });
  return new Promise((done, fail) => {
    server.once("error", fail);
    server.listen(port, "127.0.0.1", () =>
      done({
        port: server.address().port,
        // A browser keeps its connections open (a service worker may be mid-request):
        // close them, or `close` waits for them.
        close: () =>
          new Promise((closed) => {
            server.close(closed);
            server.closeAllConnections();
          }),
      }),
    );
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [dir, port] = process.argv.slice(2).filter((arg) => !arg.startsWith("--"));
  const root = resolve(dir ?? "../dist");
  const { port: listening } = await startServer(root, Number(port ?? 4173), {
    gzip: process.argv.includes("--gzip"),
    brotli: process.argv.includes("--brotli"),
  });
  console.log(`serving ${root} at http://127.0.0.1:${listening}`);
}
