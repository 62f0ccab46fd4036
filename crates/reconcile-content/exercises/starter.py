def reconcile(desired, observed, finalizers=None):
    """The actions that make `observed` match `desired`.

    desired, observed: dicts of name -> spec (any JSON value).
    finalizers: a dict of name -> list of pending finalizers, or None.

    Return a list of (kind, name, spec) tuples:
      ("CREATE", name, spec)   in desired, not in observed
      ("UPDATE", name, spec)   in both, specs differ (spec: the desired one)
      ("FINALIZE", name, None) only in observed, finalizers still pending
      ("DELETE", name, None)   only in observed, no finalizers pending
    Order: CREATE/UPDATE sorted by name, then FINALIZE/DELETE sorted by name.
    """
    actions = []
    for name in sorted(desired):
        if name not in observed:
            actions.append(("CREATE", name, desired[name]))
    # Your turn: UPDATE, FINALIZE and DELETE.
    return actions
