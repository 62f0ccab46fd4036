// The playground's service worker (docs/offline.md): the page's first view is
// precached at install, every other file of the build is cached the first time
// it is used (Pyodide too), one cache per version, so a second visit works offline
// and a page is only ever served files of its own version.
//
// `cargo xtask sw` writes the built copy (dist/sw.js) from this file, with BUILD
// listing every file of the build and its revision (crates/xtask/src/sw.rs).
// Unfilled (a debug build), BUILD is null and the worker retires: it deletes its
// caches and unregisters, so `cargo xtask serve` never shows a cached release.
const BUILD = /* BUILD */ null;

// Relative to the registration's scope, so the site may live under any path.
const SCOPE = self.registration.scope;
const SCOPE_PATH = new URL(SCOPE).pathname;
// Several playgrounds may share an origin (one per course path): each keeps to its own caches.
const PREFIX = `reconcile-playground ${SCOPE} `;
const CACHE = PREFIX + (BUILD?.version ?? "retired");
// The revision a cached copy was downloaded for, kept on the copy so that an
// update can carry unchanged files over instead of downloading them again.
const REVISION_HEADER = "x-playground-revision";
// What the page posts to the waiting worker when the user chooses to reload.
const ACTIVATE_UPDATE = "activate-update";

/** path (relative to the scope) → { path, url, revision, precache } */
const FILES = new Map(
  (BUILD?.files ?? []).map((file) => [
    file.path,
    // The page is cached under its folder's address, which every host serves
    // without a redirect (a redirected response cannot answer a navigation).
    { ...file, url: new URL(file.path === "index.html" ? "./" : file.path, SCOPE).href },
  ]),
);

/** This version's cache, opened once (every request of a visit looks in it). */
let opened = null;
const cache = () => (opened ??= caches.open(CACHE));

/** A file of this version came back from the server with other contents: a newer deploy. */
class Outdated extends Error {}

self.addEventListener("install", (event) => {
  event.waitUntil(BUILD ? install() : self.skipWaiting());
});

self.addEventListener("activate", (event) => {
  event.waitUntil(BUILD ? activate() : retire());
});

self.addEventListener("message", (event) => {
  if (event.data === ACTIVATE_UPDATE) self.skipWaiting();
});

self.addEventListener("fetch", (event) => {
  const file = BUILD && fileOf(event.request);
  if (file) event.respondWith(respond(file));
});

/** Precaches the first view, taking unchanged files from the versions before. */
async function install() {
  const current = await cache();
  const carried = await carryOver(current);
  const missing = [...FILES.values()].filter((file) => file.precache && !carried.has(file.path));
  await Promise.all(missing.map(async (file) => current.put(file.url, await download(file))));
}

/** Copies into `current` each file an older version holds at the same revision; their paths. */
async function carryOver(current) {
  const carried = new Set();
  for (const name of await caches.keys()) {
    if (!name.startsWith(PREFIX) || name === CACHE) continue;
    const old = await caches.open(name);
    for (const file of FILES.values()) {
      if (carried.has(file.path)) continue;
      const copy = await old.match(file.url);
      if (copy?.headers.get(REVISION_HEADER) === file.revision) {
        await current.put(file.url, copy);
        carried.add(file.path);
      }
    }
  }
  return carried;
}

/** The new version serves the pages that are open now (the page reloads when the user asked for it). */
async function activate() {
  await deleteCaches((name) => name !== CACHE);
  await self.clients.claim();
}

async function retire() {
  await deleteCaches(() => true);
  await self.registration.unregister();
}

async function deleteCaches(which) {
  for (const name of await caches.keys()) {
    if (name.startsWith(PREFIX) && which(name)) await caches.delete(name);
  }
}

/** The build's file a request asks for, or null for anything else (left to the network). */
function fileOf(request) {
  if (request.method !== "GET" || !request.url.startsWith(SCOPE)) return null;
  // The query is not part of the file: `?embed`, `?lesson=…`, a retry's `?retry=1`.
  const path = new URL(request.url).pathname.slice(SCOPE_PATH.length);
  if (request.mode === "navigate" && path === "") return FILES.get("index.html") ?? null;
  return FILES.get(path) ?? null;
}

/** This version's copy; else the network's, kept for next time if it is this version's. */
async function respond(file) {
  const current = await cache();
  const cached = await current.match(file.url);
  if (cached) return cached;
  try {
    const response = await download(file);
    await current.put(file.url, response.clone());
    return response;
  } catch (error) {
    if (!(error instanceof Outdated)) return Response.error();
    // Never hand an older page a newer file: the page says the download failed,
    // and the new version installs and offers to reload.
    self.registration.update();
    return new Response("", { status: 503, statusText: "A newer version of the playground is deployed" });
  }
}

/** Downloads `file`, checks that it is this version's and marks it with its revision. */
async function download(file) {
  // Revalidated, so the browser's HTTP cache cannot hand back another version's copy.
  const response = await fetch(file.url, { cache: "no-cache" });
  if (!response.ok) throw new Error(`${file.path}: ${response.status} ${response.statusText}`);
  const body = await response.arrayBuffer();
  // Hosts may rewrite HTML pages (injected analytics, minifying), so only the other files are checked.
  if (!file.path.endsWith(".html") && (await revisionOf(body)) !== file.revision) {
    throw new Outdated(file.path);
  }
  const headers = new Headers(response.headers);
  // The body is already decoded; the stored copy says so, with its own length
  // (the sandbox's download progress reads it).
  headers.delete("content-encoding");
  headers.set("content-length", String(body.byteLength));
  headers.set(REVISION_HEADER, file.revision);
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}

/** The revision `cargo xtask sw` gives a file: the first 16 hex digits of its SHA-256. */
async function revisionOf(body) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", body));
  return Array.from(digest.subarray(0, 8), (byte) => byte.toString(16).padStart(2, "0")).join("");
}
