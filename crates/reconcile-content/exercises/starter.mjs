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
export function reconcile(desired, observed, finalizers) {
  const actions = [];
  for (const name of Object.keys(desired).sort()) {
    if (!(name in observed)) actions.push(["CREATE", name, desired[name]]);
  }
  // Your turn: UPDATE, FINALIZE and DELETE.
  return actions;
}
