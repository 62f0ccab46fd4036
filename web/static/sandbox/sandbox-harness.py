# The Python harness that runs the learner's reconcile, inside the sandbox's Python
# worker (sandbox-worker.js, asked to `init`), which runs this file once after Pyodide starts.
# See README.md beside this file.
#
# The worker calls three functions, all with and returning plain text:
#   start(emit)            routes print() and sys.stderr to emit(level, line)
#   load(source)           runs the learner's code in a fresh namespace; "" or an error
#   call(d, o, f)          one case from JSON text (f is None when left out); an outcome
# An error or an outcome is JSON text: {"ok": true, "json": ...} or
# {"ok": false, "error": {name, message, line, column, stack}}.
# It needs nothing of Pyodide's: it runs under plain CPython as well.

import builtins
import io
import json
import linecache
import math
import sys
import traceback

# Bound now, so that a run that rebinds json.loads or json.dumps changes no later report.
_loads = json.loads
_dumps = json.dumps

FILENAME = "your code"
EXPECTED = "reconcile must return a list of (kind, name, spec) tuples"

_reconcile = None


class _Lines(io.TextIOBase):
    """A text stream that hands each complete line to emit(level, line)."""

    def __init__(self, emit, level):
        self._emit = emit
        self._level = level
        self._pending = ""

    def writable(self):
        return True

    def write(self, text):
        text = str(text)
        *lines, self._pending = (self._pending + text).split("\n")
        for line in lines:
            self._emit(self._level, line)
        return len(text)

    def flush(self):
        if self._pending:
            line, self._pending = self._pending, ""
            self._emit(self._level, line)


def start(emit):
    """print() goes to the "log" level, sys.stderr to "error"."""
    sys.stdout = _Lines(emit, "log")
    sys.stderr = _Lines(emit, "error")


def _flush():
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:
            pass


def _error(name, message, line=None, column=None, stack=""):
    error = {"name": name, "message": message, "line": line, "column": column, "stack": stack}
    return _dumps({"ok": False, "error": error}, ensure_ascii=False)


def _describe(exc):
    """An exception as data, its traceback cut to the learner's frames."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == FILENAME]
    line = frames[-1].lineno if frames else None
    column = None
    if isinstance(exc, SyntaxError) and exc.filename == FILENAME:
        line, column = exc.lineno, exc.offset
    stack = ""
    if frames:
        stack = "Traceback (most recent call last):\n" + "".join(traceback.format_list(frames))
    stack += "".join(traceback.format_exception_only(type(exc), exc))
    message = exc.msg if isinstance(exc, SyntaxError) else str(exc)
    return _error(type(exc).__name__, message, line, column, stack.rstrip("\n"))


def load(source):
    """Runs the learner's code as a fresh module; "" when it defines reconcile."""
    global _reconcile
    _reconcile = None
    linecache.cache[FILENAME] = (len(source), None, source.splitlines(True), FILENAME)
    namespace = {"__name__": "__main__", "__builtins__": builtins}
    try:
        exec(compile(source, FILENAME, "exec"), namespace)
    except BaseException as exc:  # noqa: BLE001 - everything the learner's code raises is reported
        return _describe(exc)
    finally:
        _flush()
    found = namespace.get("reconcile")
    if not callable(found):
        return _error(
            "Error",
            "your code does not define a function named reconcile "
            "(write `def reconcile(desired, observed, finalizers=None):`)",
        )
    _reconcile = found
    return ""


def _kind(value):
    names = {set: "a set", frozenset: "a frozenset", bytes: "bytes", complex: "a complex number"}
    return names.get(type(value), f"a value of type {type(value).__name__}")


def _no_json(value, path=""):
    """What in `value` JSON has no text for, and where: "what at path", or None."""
    where = f" at {path}" if path else ""
    if value is None or isinstance(value, (str, bool, int)):
        return None
    if isinstance(value, float):
        return None if math.isfinite(value) else f"{value!r}{where} (JSON has no NaN or infinity)"
    if isinstance(value, (list, tuple)):
        items = enumerate(value)
    elif isinstance(value, dict):
        bad_key = next((k for k in value if not isinstance(k, (str, int, float, bool, type(None)))), None)
        if bad_key is not None:
            return f"a dict key {bad_key!r}{where} (JSON keys are strings)"
        items = ((repr(key), item) for key, item in value.items())
    else:
        return f"{_kind(value)}{where}"
    for key, item in items:
        found = _no_json(item, f"{path}[{key}]")
        if found:
            return found
    return None


def _answer(value):
    try:
        text = _dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError, RecursionError) as exc:
        try:
            found = _no_json(value)
        except RecursionError:
            found = "a list or dict that contains itself"
        name = "TypeError" if isinstance(exc, TypeError) else "ValueError"
        return _error(name, f"{EXPECTED}; found {found or exc}")
    return _dumps({"ok": True, "json": text}, ensure_ascii=False)


def call(desired, observed, finalizers):
    """One case: the arguments are JSON text, finalizers None when it is left out."""
    arguments = [_loads(desired), _loads(observed)]
    if finalizers is not None:
        arguments.append(_loads(finalizers))
    try:
        value = _reconcile(*arguments)
    except BaseException as exc:  # noqa: BLE001 - SystemExit and KeyboardInterrupt too
        return _describe(exc)
    finally:
        _flush()
    return _answer(value)
