// A learner's correct reconcile in JavaScript, as source text: what `check()`
// runs in the sandbox, for the check benchmark and the e2e tests.
export const RIGHT_RECONCILE = `
const equal = (a, b) => {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== "object") return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a), kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && equal(a[k], b[k]));
};
const byCodePoint = (x, y) => {
  const a = [...x], b = [...y];
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const d = a[i].codePointAt(0) - b[i].codePointAt(0);
    if (d) return d;
  }
  return a.length - b.length;
};
export function reconcile(desired, observed, finalizers) {
  const out = [];
  for (const name of Object.keys(desired).sort(byCodePoint)) {
    if (!Object.hasOwn(observed, name)) out.push(["CREATE", name, desired[name]]);
    else if (!equal(desired[name], observed[name])) out.push(["UPDATE", name, desired[name]]);
  }
  for (const name of Object.keys(observed).sort(byCodePoint)) {
    if (Object.hasOwn(desired, name)) continue;
    const pending = finalizers && Object.hasOwn(finalizers, name) ? finalizers[name] : [];
    out.push([pending.length ? "FINALIZE" : "DELETE", name, null]);
  }
  return out;
}`;
