"""The reconcile contract in Python, with the json module and dicts: the
reference the performance report compares the Rust core with.

    python3 bench/python/reference.py --print SCENARIO.json
    python3 bench/python/reference.py [--runs N] SCENARIO.json

With --print it is the reference as a whole process, what `cargo xtask bench`
times against the `reconcile` command line (`reconcile SCENARIO.json`): it
reads the file, computes the action list (json.loads -> reconcile ->
json.dumps) and prints it with a newline, as the command line does, and
nothing else; the two outputs must be the same bytes. The cyclic garbage
collector is off, as in the timings below (see `timed`).

Otherwise it times, inside one process,
- end to end: scenario text -> json.loads -> reconcile -> json.dumps -> action-list text;
- reconcile alone, on the dicts json.loads made;
and prints one JSON line of timings (milliseconds; median and best of N runs).

The contract (crates/reconcile-core/src/reconcile.rs, /work/shared/DESIGN.md):
CREATE/UPDATE for desired names, then FINALIZE/DELETE for names only observed,
each sorted by code point (Python's str order); specs compare as JSON values:
member order ignored, numbers by value, booleans never equal to numbers.

Python's own == is that equality except in two corners, handled here so the
output is exactly the Rust core's:
- True == 1 and False == 0: when the text has a boolean at all, specs that ==
  calls equal are checked again with `contract_equal`;
- integers beyond 64 bits: the contract reads them as the nearest double, Python
  keeps them exact, so specs that == calls different are checked again too
  (rare: only drifted specs pay for it).
Action lists are printed as serde_json prints them (`dump_actions`).
The reference assumes valid input: it does not reject duplicate member names,
NaN or numbers out of range as the Rust core does, and the integer literal -0,
which json.loads reads as 0, would print as 0 where Rust prints -0.0.
"""

import argparse
import json
import math
import sys

U64_MAX = 2**64 - 1
I64_MIN = -(2**63)


class Scenario:
    """A parsed scenario, and whether its text has booleans (see `specs_equal`)."""

    __slots__ = ("desired", "observed", "finalizers", "has_booleans")

    def __init__(self, text):
        document = json.loads(text)
        self.desired = document["desired"]
        self.observed = document["observed"]
        self.finalizers = document.get("finalizers") or {}
        self.has_booleans = "true" in text or "false" in text


def contract_number(value):
    """An integer beyond 64 bits reads as the nearest double, as in the Rust core."""
    if type(value) is int and not I64_MIN <= value <= U64_MAX:
        return float(value)
    return value


def contract_equal(a, b):
    """The contract's equality, spelled out (slow; only for the corners of ==)."""
    if type(a) is bool or type(b) is bool:
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float)):
        return isinstance(b, (int, float)) and contract_number(a) == contract_number(b)
    if isinstance(a, dict):
        return (
            isinstance(b, dict)
            and len(a) == len(b)
            and all(key in b and contract_equal(value, b[key]) for key, value in a.items())
        )
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(map(contract_equal, a, b))
    return type(a) is type(b) and a == b


def specs_equal(a, b, has_booleans):
    if a == b:
        return not has_booleans or contract_equal(a, b)
    return contract_equal(a, b)


def reconcile(scenario):
    desired, observed, finalizers = scenario.desired, scenario.observed, scenario.finalizers
    actions = []
    for name in sorted(desired):
        spec = desired[name]
        if name not in observed:
            actions.append(["CREATE", name, spec])
        elif not specs_equal(spec, observed[name], scenario.has_booleans):
            actions.append(["UPDATE", name, spec])
    for name in sorted(name for name in observed if name not in desired):
        actions.append(["FINALIZE" if finalizers.get(name) else "DELETE", name, None])
    return actions


def format_float(value):
    """A double as serde_json prints it: shortest digits; fixed notation when the
    first digit's decimal exponent is in -5..=15, else `1.5e+300` / `1e-7`."""
    if value == 0:
        return "-0.0" if math.copysign(1.0, value) < 0 else "0.0"
    sign = "-" if value < 0 else ""
    mantissa, _, exponent = repr(abs(value)).partition("e")
    whole, _, fraction = mantissa.partition(".")
    digits = (whole + fraction).lstrip("0")
    # The decimal exponent of the first significant digit.
    if whole != "0":
        first = len(whole) - 1
    else:
        first = -(len(fraction) - len(fraction.lstrip("0")) + 1)
    first += int(exponent or 0)
    digits = digits.rstrip("0") or "0"
    if -5 <= first <= 15:
        if len(digits) - 1 <= first:
            return f"{sign}{digits}{'0' * (first + 1 - len(digits))}.0"
        if first >= 0:
            return f"{sign}{digits[: first + 1]}.{digits[first + 1 :]}"
        return f"{sign}0.{'0' * (-first - 1)}{digits}"
    rest = f".{digits[1:]}" if len(digits) > 1 else ""
    return f"{sign}{digits[0]}{rest}e{'+' if first > 0 else '-'}{abs(first)}"


def needs_exact_printing(value):
    """Whether json.dumps would print a number of `value` differently from serde_json."""
    if isinstance(value, dict):
        return any(map(needs_exact_printing, value.values()))
    if isinstance(value, list):
        return any(map(needs_exact_printing, value))
    return type(value) is float or contract_number(value) is not value


def dump_exact(value):
    if type(value) is float:
        return format_float(value)
    if type(value) is int:
        number = contract_number(value)
        return format_float(number) if type(number) is float else str(number)
    if isinstance(value, dict):
        members = ",".join(f"{dump_exact(key)}:{dump_exact(item)}" for key, item in value.items())
        return "{" + members + "}"
    if isinstance(value, list):
        return "[" + ",".join(map(dump_exact, value)) + "]"
    return json.dumps(value, ensure_ascii=False)


def dump_actions(actions):
    """Compact JSON, as serde_json::to_string prints the Rust core's actions."""
    if any(needs_exact_printing(spec) for _, _, spec in actions):
        return dump_exact(actions)
    return json.dumps(actions, ensure_ascii=False, separators=(",", ":"))


def end_to_end(text):
    return dump_actions(reconcile(Scenario(text)))


def timed(function, runs):
    """Milliseconds of each run, with the cyclic garbage collector off (json.loads
    makes millions of objects and no cycles; the collector would only add pauses)."""
    import gc
    import time

    samples = []
    result = None
    gc.disable()
    try:
        for _ in range(runs):
            start = time.perf_counter()
            result = function()
            samples.append((time.perf_counter() - start) * 1000)
    finally:
        gc.enable()
    return samples, result


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("scenario")
    parser.add_argument("--print", action="store_true", dest="print_actions")
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    with open(args.scenario, encoding="utf-8") as file:
        text = file.read()
    if args.print_actions:
        import gc

        gc.disable()
        sys.stdout.buffer.write((end_to_end(text) + "\n").encode("utf-8"))
        return
    import statistics

    end_to_end_ms, _ = timed(lambda: end_to_end(text), args.runs)
    scenario = Scenario(text)
    reconcile_ms, actions = timed(lambda: reconcile(scenario), args.runs)
    json.dump(
        {
            "python": sys.version.split()[0],
            "resources": len(scenario.desired),
            "actions": len(actions),
            "runs": args.runs,
            "endToEndMedianMs": round(statistics.median(end_to_end_ms), 3),
            "endToEndBestMs": round(min(end_to_end_ms), 3),
            "reconcileMedianMs": round(statistics.median(reconcile_ms), 3),
            "reconcileBestMs": round(min(reconcile_ms), 3),
        },
        sys.stdout,
        separators=(",", ":"),
    )
    print()


if __name__ == "__main__":
    main()
