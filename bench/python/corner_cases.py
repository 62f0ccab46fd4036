"""Checks the Python reference against the Rust core on scenarios full of the
contract's corner cases, which the generated benchmark files do not have:
booleans next to numbers, 1 / 1.0 / 1e0, integers beyond 2^53 and 2^64,
doubles of every magnitude, member order, names that sort differently by
code point and by UTF-16, escapes, empty finalizer lists.

    python3 bench/python/corner_cases.py PATH/TO/reconcile [COUNT]

runs COUNT random scenarios (default 300; fixed seed) through the `reconcile`
command line and through reference.py, and fails on the first difference.
"""

import json
import random
import re
import subprocess
import sys

import reference

NAMES = ["a", "b", "c", "é", "z", "\U0001f680", "\ue000", "A", "tab\there", 'q"uote', "a/b", "10", "9"]
KEYS = ["replicas", "image", "on", "x", "y", "é", "k\u0001"]
NUMBER_TEXTS = [
    "0", "1", "1.0", "1e0", "1E2", "100", "-5", "-5.0", "0.5", "5e-1", "1.5", "2.5e-8",
    "1e-5", "0.0001", "123456.789", "1e15", "1e16", "1.7976931348623157e308", "5e-324",
    "9007199254740993", "9007199254740992", "9007199254740992.0", "18446744073709551615",
    "18446744073709551616", "18446744073709551617", "-9223372036854775808",
    "-9223372036854775809", "123456789012345678901234567890", "-0.0", "0.1", "3.0e21",
    "1.8446744073709552e19", "9.007199254740992e15", "10e-1",
]


def random_value(rng, depth=0):
    roll = rng.random()
    if depth > 2 or roll < 0.45:
        return rng.choice(
            [rng.choice(NUMBER_TEXTS), "true", "false", "null", json.dumps(rng.choice(KEYS + NAMES)), '"1"']
        )
    if roll < 0.7:
        return "[" + ",".join(random_value(rng, depth + 1) for _ in range(rng.randrange(3))) + "]"
    keys = rng.sample(KEYS, rng.randrange(4))
    return "{" + ",".join(f"{json.dumps(k)}:{random_value(rng, depth + 1)}" for k in keys) + "}"


# Spellings of one value for the contract (the last group: integers that round to one double).
SAME_NUMBER = [
    ["1", "1.0", "1e0", "10e-1"],
    ["100", "1E2", "100.0"],
    ["0.5", "5e-1"],
    ["-5", "-5.0"],
    ["-0.0", "0", "0.0"],
    ["9007199254740992", "9007199254740992.0", "9.007199254740992e15"],
    ["18446744073709551616", "18446744073709551617", "1.8446744073709552e19"],
]
NUMBER_TOKEN = re.compile(r"(?<=[\[:,])-?[0-9][0-9.eE+-]*")


def respell(rng, text):
    """`text` with some numbers written another way (same value, or the nearest other)."""

    def swap(match):
        for group in SAME_NUMBER:
            if match.group() in group:
                return rng.choice(group)
        return match.group()

    return NUMBER_TOKEN.sub(swap, text)


def variant(rng, text):
    """The same value spelled differently, or a different value, or the same text."""
    value = json.loads(text)
    roll = rng.random()
    if roll < 0.3:
        return text
    if roll < 0.45:
        return respell(rng, text)
    if roll < 0.6 and isinstance(value, dict):
        items = list(value.items())
        rng.shuffle(items)
        return json.dumps(dict(items))
    return random_value(rng)


def random_scenario(rng):
    desired, observed, finalizers = {}, {}, {}
    for name in rng.sample(NAMES, rng.randrange(len(NAMES))):
        desired[name] = random_value(rng)
    for name in NAMES:
        if name in desired and rng.random() < 0.8:
            observed[name] = variant(rng, desired[name])
        elif name not in desired and rng.random() < 0.4:
            observed[name] = random_value(rng)
        if rng.random() < 0.3:
            finalizers[name] = rng.choice([[], ["f"], ["f", "g"]])

    def document(specs):
        return "{" + ",".join(f"{json.dumps(name)}:{spec}" for name, spec in specs.items()) + "}"

    final = rng.choice([json.dumps(finalizers), "null", None])
    members = [f'"desired":{document(desired)}', f'"observed":{document(observed)}']
    if final is not None:
        members.append(f'"finalizers":{final}')
    return "{" + ",".join(members) + "}"


def main():
    cli = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 300
    rng = random.Random(20261129)
    for index in range(count):
        text = random_scenario(rng)
        rust = subprocess.run([cli], input=text, capture_output=True, text=True, check=True).stdout.strip()
        python = reference.end_to_end(text)
        if rust != python:
            print(f"scenario {index} differs\n  input:  {text}\n  rust:   {rust}\n  python: {python}")
            sys.exit(1)
    print(f"{count} corner-case scenarios: the Python reference and the Rust core agree")


if __name__ == "__main__":
    main()
