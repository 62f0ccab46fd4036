# A learner's correct reconcile in Python, following the contract in DESIGN.md:
# what `check(source, {language: "python"})` runs in the sandbox, for the check
# benchmark and the e2e tests (web/e2e/js-api.spec.mjs).


def same(a, b):
    """JSON equality: key order does not matter, 1 == 1.0, but True is not 1."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b


def reconcile(desired, observed, finalizers=None):
    finalizers = finalizers or {}
    actions = []
    # Python compares str by code point, which is the contract's order.
    for name in sorted(desired):
        if name not in observed:
            actions.append(("CREATE", name, desired[name]))
        elif not same(desired[name], observed[name]):
            actions.append(("UPDATE", name, desired[name]))
    for name in sorted(observed):
        if name in desired:
            continue
        pending = finalizers.get(name) or []
        actions.append(("FINALIZE" if pending else "DELETE", name, None))
    return actions
