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
// What a page posts once this worker controls it: the files it, its workers and its
// frames loaded before (sw-register.js). They never came through here, so they are
// cached now, as if they had.
const CACHE_USED = "cache-used";
// The sandbox's page, framed without the `sandbox` attribute and given its opaque origin
// by the CSP `sandbox` header this worker adds: no engine lets a worker answer a frame
// that has the attribute, so this is how the sandbox opens offline. The path exists only
// here, never on the server, so nothing outside this worker serves it unsandboxed.
const SANDBOXED_FRAME = "sandbox-sw.html";
const SANDBOX_PAGE = "sandbox.html";
const SANDBOX_POLICY = "sandbox allow-scripts";

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
  else if (BUILD && event.data?.type === CACHE_USED) event.waitUntil(cacheUsed(event.data.urls));
});

self.addEventListener("fetch", (event) => {
  if (!BUILD) return;
  if (isSandboxedFrame(event.request)) {
    const page = FILES.get(SANDBOX_PAGE);
    if (page) event.respondWith(respond(page).then(sandboxed));
    return;
  }
  const file = fileOf(event.request);
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
  return request.method === "GET" ? fileAt(request.url, request.mode === "navigate") : null;
}

/** The build's file at `url` (a navigation to the scope's folder is the page), or null. */
function fileAt(url, navigation) {
  if (typeof url !== "string" || !url.startsWith(SCOPE)) return null;
  // The query is not part of the file: `?embed`, `?lesson=…`, a retry's `?retry=1`.
  const path = new URL(url).pathname.slice(SCOPE_PATH.length);
  if (navigation && path === "") return FILES.get("index.html") ?? null;
  return FILES.get(path) ?? null;
}

/** Whether `request` asks for the sandbox's page under the path only this worker answers. */
function isSandboxedFrame(request) {
  return request.method === "GET" && request.url.startsWith(SCOPE) && new URL(request.url).pathname === SCOPE_PATH + SANDBOXED_FRAME;
}

/** `response` with the CSP `sandbox` header: its document gets an opaque origin. */
function sandboxed(response) {
  if (!response.ok) return response;
  const headers = new Headers(response.headers);
  headers.append("content-security-policy", SANDBOX_POLICY);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/**
 * Caches each of `urls` that is a file of this version and not cached yet. A page
 * just loaded them, so the browser's HTTP cache has them: `force-cache` takes that
 * copy, and a first visit downloads nothing twice. Each is still checked against
 * its revision; a file that fails is left for its next use (workbox-window's
 * CACHE_URLS does the same for what a page loaded before its worker).
 */
async function cacheUsed(urls) {
  if (!Array.isArray(urls)) return;
  const current = await cache();
  const files = new Set(urls.map((url) => fileAt(url, false)).filter(Boolean));
  await Promise.all(
    [...files].map(async (file) => {
      if (await current.match(file.url)) return;
      try {
        await current.put(file.url, await download(file, "force-cache"));
      } catch {
        // Offline again, or another version's copy: it is cached the next time it is used.
      }
    }),
  );
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

/**
 * Downloads `file`, checks that it is this version's and marks it with its revision.
 * Revalidated by default, so the browser's HTTP cache cannot hand back another
 * version's copy unchecked; `force-cache` takes that copy, and the check refuses it.
 */
async function download(file, mode = "no-cache") {
  const response = await fetch(file.url, { cache: mode });
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
