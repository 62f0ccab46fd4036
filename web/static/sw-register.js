// Registers the playground's service worker (sw.js; docs/offline.md) and offers
// a newer version. The page adds this module once its first view is on screen
// (web/src/hooks/use_service_worker.rs), hears UPDATE_READY on `window` and then
// shows a notice (web/src/components/update_notice.rs) whose Reload button this
// module handles: the waiting version takes over, then the page reloads. The
// page's state is in its address and the browser's storage, so nothing typed is lost.
const UPDATE_READY = "playground-update-ready";
/** What sw.js takes as "take over now". */
const ACTIVATE_UPDATE = "activate-update";
/** What sw.js takes as "cache these files, which I loaded before you served me". */
const CACHE_USED = "cache-used";
/** A mark whose `detail` lists the files a loader used that the page's resource timing
 *  does not show (a worker's own imports; WebKit lists no frames). */
const USED_MARK = "playground:used";
const RELOAD_BUTTON = ".update-notice button";

if ("serviceWorker" in navigator) {
  if (document.readyState === "complete") start();
  else addEventListener("load", start, { once: true });
}

async function start() {
  const container = navigator.serviceWorker;
  // The first worker claims the first visit's page: nothing to offer then.
  let controlled = container.controller !== null;
  let asked = false;
  const offer = () => dispatchEvent(new Event(UPDATE_READY));
  if (controlled) reportUsed(container);
  container.addEventListener("controllerchange", () => {
    const replaced = controlled;
    if (!replaced) reportUsed(container);
    controlled = true;
    if (asked) reload();
    // Another tab let a newer version take over: this page is older than its worker.
    else if (replaced) offer();
  });
  // Refused (a private window, blocked storage, a browser that blocks workers
  // and answers nothing): the page works as before.
  const registration = await container.register(new URL("sw.js", import.meta.url)).catch(() => null);
  if (!registration) return;
  const follow = (worker) =>
    worker.addEventListener("statechange", () => {
      if (worker.state === "installed" && controlled) offer();
    });
  if (registration.waiting && controlled) offer();
  // One may have started installing before the page asked.
  if (registration.installing) follow(registration.installing);
  registration.addEventListener("updatefound", () => registration.installing && follow(registration.installing));
  document.addEventListener("click", (event) => {
    if (!event.target.closest?.(RELOAD_BUTTON)) return;
    asked = true;
    if (registration.waiting) registration.waiting.postMessage(ACTIVATE_UPDATE);
    else reload(); // already taken over (from another tab)
  });
}

/**
 * Tells the worker that serves this page every file the page has used, and each one it
 * uses from now on. What was fetched before the worker took control (a first visit's
 * "Your reconcile" pane, the YAML reader, the sandbox's page) never went through it,
 * so it would be missing offline. The worker caches only its own version's files and
 * skips those it has; the rest of what it hears costs a lookup.
 */
function reportUsed(container) {
  const urls = (entries) =>
    entries.flatMap((entry) => (entry.entryType === "mark" ? (entry.name === USED_MARK && Array.isArray(entry.detail) ? entry.detail : []) : [entry.name]));
  const observer = new PerformanceObserver((list) => {
    const used = urls(list.getEntries());
    if (used.length) container.controller?.postMessage({ type: CACHE_USED, urls: used });
  });
  // `buffered` delivers what the page loaded before, then each new entry.
  observer.observe({ type: "resource", buffered: true });
  observer.observe({ type: "mark", buffered: true });
}

/** Reloads with the latest edits in the address: the page saves them on `pagehide`
 *  (web/src/hooks/use_persistence.rs), which a reload fires only after it has taken
 *  the address it reloads, so the page is told first. */
function reload() {
  dispatchEvent(new PageTransitionEvent("pagehide", { persisted: false }));
  location.reload();
}
