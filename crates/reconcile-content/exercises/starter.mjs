// The actions that make `observed` match `desired`.
//
// desired, observed: objects of name -> spec (any JSON value).
// finalizers: an object of name -> array of pending finalizers, or null/undefined.
//
// Return an array of [kind, name, spec] arrays:
//   ["CREATE", name, spec]   in desired, not in observed
//   ["UPDATE", name, spec]   in both, specs differ (spec: the desired one)
//   ["FINALIZE", name, null] only in observed, finalizers still pending
//   ["DELETE", name, null]   only in observed, no finalizers pending
// Order: CREATE/UPDATE sorted by name, then FINALIZE/DELETE sorted by name.

// Names sort by code point. The default sort() compares UTF-16 code units,
// which puts "🚀" before "\uE000".
const byCodePoint = (x, y) => {
  const a = [...x], b = [...y];
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const d = a[i].codePointAt(0) - b[i].codePointAt(0);
    if (d) return d;
  }
  return a.length - b.length;
};

export function reconcile(desired, observed, finalizers) {
  const actions = [];
  for (const name of Object.keys(desired).sort(byCodePoint)) {
    // Object.hasOwn, not `name in observed`: every object has "constructor".
    if (!Object.hasOwn(observed, name)) actions.push(["CREATE", name, desired[name]]);
  }
  // Your turn: UPDATE, FINALIZE and DELETE.
  return actions;
}
