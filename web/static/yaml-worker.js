// The playground's YAML reader, off the main thread: the JS API's YAML
// module (pkg/reconcile_yaml.js), started the first time a document is YAML.
// A large YAML text is read here, so the page never waits on it; the page
// gets back JSON texts it reads with core's own parser (see
// crates/reconcile-wasm/src/yaml_page.rs for each call).
//
// Messages in: { id, op, args }. Out: { ready, used } or { failed } once, after
// the start; then { id, ok }, { id, errors } (a JSON array of located
// errors) or { id, failed } (the call itself failed) per request.
import init, * as yaml from "./pkg/reconcile_yaml.js";

const calls = {
  read: (formats, desired, observed, finalizers) => yaml.pageRead(formats, desired, observed, finalizers),
  convert: (document, text, from, to) => yaml.pageConvert(document, text, from, to),
  desiredStream: (format, text) => yaml.pageDesiredStream(format, text),
  scenario: (text) => yaml.pageScenarioDocuments(text),
};

init().then(
  () => {
    self.onmessage = ({ data: { id, op, args } }) => {
      try {
        self.postMessage({ id, ok: calls[op](...args) });
      } catch (error) {
        self.postMessage(typeof error === "string" ? { id, errors: error } : { id, failed: String(error?.message ?? error) });
      }
    };
    // What this worker loaded, for the page to pass on to its service worker
    // (sw-register.js): the page's own resource timing never shows a worker's imports.
    self.postMessage({ ready: true, used: performance.getEntriesByType("resource").map((entry) => entry.name) });
  },
  (error) => self.postMessage({ failed: String(error?.message ?? error) }),
);
