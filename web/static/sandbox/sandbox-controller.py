# The Python side of a learner's controller check (issue 30), in the sandbox's
# worker. The worker runs it after sandbox-harness.py, in the same namespace: it
# uses that file's FILENAME, _describe, _error, _flush and _no_json. See README.md.
#
# The worker calls, all with and returning plain text or numbers:
#   connect(bridge)          bridge(target, method, args) makes one client or cloud call in
#                            JavaScript: args is JSON text, and so is its answer
#   load_controller(source)  compiles the learner's module and runs it once; "" or an error
#   process()                a fresh module namespace for one controller process:
#                            {"ok": id} or {"ok": false, "error": ...}
#   reconcile(id, request)   one reconcile in that process: {"finish": ...} or {"misuse": ...}
#   forget()                 drops the processes that have reconciled (their run is over)

import builtins
import inspect
import json
import linecache
import re
import sys
import traceback
import types

_loads = json.loads
_dumps = json.dumps

_code = None
_bridge = None
_processes = {}
_ran = set()
_next_process = 0
# The first misuse in the reconcile in progress: it ends the check, even if caught.
_misuse = None


class ApiError(Exception):
    """A refused request, with the API server's status (404, 409, ...) and reason (NotFound, ...)."""

    def __init__(self, status, reason, message):
        super().__init__(message)
        self.status = status
        self.reason = reason
        self.message = message


class TerminalError(Exception):
    """An error that is not retried: controller-runtime's reconcile.TerminalError."""


class _Crashed(BaseException):
    """The process crashed while a call was out: its reconcile is over."""


def _misuse_of(target, method, message, name="TypeError"):
    """Records a misuse at the learner's line (the first one counts); the exception to raise."""
    global _misuse
    text = f"{target}.{method}: {message}"
    frames = [f for f in traceback.extract_stack() if f.filename == FILENAME]  # noqa: F821
    line = frames[-1].lineno if frames else None
    stack = ""
    if frames:
        stack = "Traceback (most recent call last):\n" + "".join(traceback.format_list(frames))
    if _misuse is None:
        _misuse = {
            "name": name,
            "message": text,
            "line": line,
            "column": None,
            "stack": stack + f"{name}: {text}",
            "method": method,
        }
    return TypeError(text) if name == "TypeError" else ValueError(text)


# What each call takes: its positional parameters, and its keywords with the
# JavaScript client's option names (crates/reconcile-wasm/js/controller.js).
_CALLS = {
    "get": (("kind", "name"), {"live": "live", "namespace": "namespace"}),
    "list": (("kind",), {"labels": "labels", "namespace": "namespace"}),
    "create": (("obj",), {}),
    "update": (("obj",), {}),
    "patch": (
        ("kind", "name", "patch"),
        {"type": "type", "resource_version": "resourceVersion", "namespace": "namespace"},
    ),
    "apply": (("obj",), {"field_manager": "fieldManager", "force": "force"}),
    "delete": (("kind", "name"), {"propagation_policy": "propagationPolicy", "namespace": "namespace"}),
    "update_status": (("obj",), {}),
    "patch_status": (("kind", "name", "patch"), {"namespace": "namespace"}),
}
_CLOUD = {
    "ensure_load_balancer": "ensureLoadBalancer",
    "get_load_balancer": "getLoadBalancer",
    "delete_load_balancer": "deleteLoadBalancer",
}
_JS_METHODS = {"update_status": "updateStatus", "patch_status": "patchStatus", **_CLOUD}

_A_STR = "a str"
_EXPECTED = {
    "kind": (str, 'a str, such as "ConfigMap"'),
    "name": (str, 'a str, such as "web"'),
    "obj": (dict, 'a dict, such as {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "web"}}'),
    "patch": ((dict, list), "a dict (a merge patch) or a list (a JSON patch)"),
    "live": (bool, "True or False"),
    "force": (bool, "True or False"),
    "namespace": (str, _A_STR),
    "resource_version": (str, _A_STR),
    "field_manager": (str, _A_STR),
    "propagation_policy": (str, '"Foreground", "Background" or "Orphan"'),
    "labels": (dict, 'a dict of str to str, such as {"app": "web"}'),
}


def _type_name(value):
    if value is None:
        return "None"
    name = type(value).__name__
    return f"{'an' if name[0] in 'aeiou' else 'a'} {name}"


def _wrong(parameter, value):
    """What is wrong with one argument, or None."""
    if parameter == "type":
        return None if value in ("merge", "json") else f'type is {value!r}; expected "merge" or "json"'
    expected_type, expected = _EXPECTED[parameter]
    bad = not isinstance(value, expected_type) or (expected_type is not bool and isinstance(value, bool))
    if parameter == "labels" and not bad:
        bad = not all(isinstance(k, str) and isinstance(v, str) for k, v in value.items())
    return f"{parameter} is {_type_name(value)}; expected {expected}" if bad else None


def _arguments(method, args, keywords):
    """The JavaScript client's arguments for one call, or a misuse naming what was wrong."""
    positional, options = _CALLS[method]
    shown = f"client.{method}({', '.join(positional)}{', ...' if options else ''})"
    if len(args) != len(positional):
        hint = f"; its options are keywords: {', '.join(k + '=' for k in options)}" if options else ""
        return None, f"takes {len(positional)} positional argument{'s' if len(positional) > 1 else ''}, as {shown}; it was given {len(args)}{hint}"
    for key in keywords:
        if key not in options:
            takes = ", ".join(k + "=" for k in options) if options else "no keywords"
            return None, f"unknown keyword {key}=; it takes {takes}"
    given = dict(zip(positional, args))
    given.update((k, v) for k, v in keywords.items() if v is not None)
    for parameter, value in given.items():
        problem = _wrong(parameter, value)
        if problem:
            return None, problem
    js_options = {options[k]: v for k, v in keywords.items() if v is not None}
    return [given[p] for p in positional] + ([js_options] if options else []), None


def _no_json_in(js_args):
    """Which argument JSON has no text for, and where in it."""
    for index, value in enumerate(js_args):
        try:
            found = _no_json(value)  # noqa: F821
        except RecursionError:
            found = "a list or dict that contains itself"
        if found:
            return f"argument {index + 1} holds {found} (JSON has no text for it)"
    return "its arguments are not JSON"


def _answer(target, method, js_args):
    """Makes the call in JavaScript; its value, or the error it raised, as Python's."""
    try:
        text = _dumps(js_args, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError, RecursionError):
        raise _misuse_of(target, method, _no_json_in(js_args)) from None
    answer = _loads(_bridge(target, _JS_METHODS.get(method, method), text))
    if "ok" in answer:
        return answer["ok"]
    if "api" in answer:
        failure = answer["api"]
        raise ApiError(failure["status"], failure["reason"], failure["message"])
    failed = answer["failed"]
    # The simulation names the call as JavaScript does: name it as Python does.
    message = re.sub(r"^(client|cloud)\.\w+: ", "", failed["message"])
    if failed["kind"] == "misuse":
        raise _misuse_of(target, method, message, "ValueError")
    if failed["kind"] == "crashed":
        raise _Crashed(f"{target}.{method}: {message}")
    raise RuntimeError(f"{target}.{method}: {message}")


def _client_call(method):
    def call(self, *args, **keywords):
        js_args, problem = _arguments(method, args, keywords)
        if problem:
            raise _misuse_of("client", method, problem)
        return _answer("client", method, js_args)

    call.__name__ = method
    return call


def _cloud_call(method):
    def call(self, *args, **keywords):
        if keywords or len(args) != 1 or not isinstance(args[0], str):
            given = f"{len(args)} argument{'s' if len(args) != 1 else ''}" if len(args) != 1 else _type_name(args[0])
            if keywords:
                given = f"keyword {next(iter(keywords))}="
            raise _misuse_of("cloud", method, f'takes a name, a str, as cloud.{method}("lb-web"); it was given {given}')
        return _answer("cloud", method, args)

    call.__name__ = method
    return call


class _Methods:
    """Refuses a method the client does not have, naming those it has."""

    _target = ""
    _methods = ()

    def __getattr__(self, name):
        if name.startswith("__"):
            # copy, pickle and hasattr ask for these: not a call the learner wrote.
            raise AttributeError(name)
        snake = re.sub(r"(?<=[a-z])([A-Z])", lambda m: "_" + m.group(1).lower(), name)
        hint = f" (in Python, {snake})" if snake in self._methods else ""
        raise _misuse_of(self._target, name, f"there is no such method{hint}; it has {', '.join(self._methods)}")

    def __repr__(self):
        return f"<{self._target}: {', '.join(self._methods)}>"


class Client(_Methods):
    """The client a reconcile gets; names are in the request's namespace unless namespace= says otherwise."""

    __slots__ = ()
    _target = "client"
    _methods = tuple(_CALLS)


class Cloud(_Methods):
    """The external system of exercises that have one (external-finalizer)."""

    __slots__ = ()
    _target = "cloud"
    _methods = tuple(_CLOUD)


for _method in _CALLS:
    setattr(Client, _method, _client_call(_method))
for _method in _CLOUD:
    setattr(Cloud, _method, _cloud_call(_method))

cloud = Cloud()

# `from reconcile import ApiError, TerminalError, cloud`
_module = types.ModuleType("reconcile", "A learner's controller's API: ApiError, TerminalError and cloud.")
_module.ApiError = ApiError
_module.TerminalError = TerminalError
_module.cloud = cloud
sys.modules["reconcile"] = _module


def connect(bridge):
    global _bridge
    _bridge = bridge


def _loaded_error(exc):
    """A load error; a syntax error's message names its line and column."""
    error = _loads(_describe(exc))  # noqa: F821
    if isinstance(exc, SyntaxError) and exc.filename == FILENAME:  # noqa: F821
        error["error"]["message"] = f"{exc.msg} (line {exc.lineno}, column {exc.offset})"
    return _dumps(error, ensure_ascii=False)


def _fresh():
    """Runs the module's code in a fresh namespace: (namespace, None) or (None, error text)."""
    namespace = {"__name__": "__main__", "__builtins__": builtins}
    try:
        exec(_code, namespace)
    except BaseException as exc:  # noqa: BLE001 - everything the learner's code raises is reported
        return None, _loaded_error(exc)
    finally:
        _flush()  # noqa: F821
    return namespace, None


def load_controller(source):
    """Compiles the learner's module and runs it once; "" when it defines a fitting reconcile."""
    global _code
    _code = None
    _processes.clear()
    _ran.clear()
    linecache.cache[FILENAME] = (len(source), None, source.splitlines(True), FILENAME)  # noqa: F821
    try:
        _code = compile(source, FILENAME, "exec")  # noqa: F821
    except SyntaxError as exc:
        return _loaded_error(exc)
    namespace, error = _fresh()
    if error:
        _code = None
        return error
    found = namespace.get("reconcile")
    problem = None
    if not callable(found):
        problem = "your code does not define a function named reconcile (write `def reconcile(request, client):`)"
    elif inspect.iscoroutinefunction(found):
        problem = "reconcile is async; the client is synchronous, so write `def reconcile(request, client):`"
    else:
        try:
            inspect.signature(found).bind(None, None)
        except TypeError:
            problem = "reconcile takes two arguments: write `def reconcile(request, client):`"
        except ValueError:
            pass
    if problem:
        _code = None
        return _error("Error", problem, _line_of(found))  # noqa: F821
    return ""


def _line_of(function):
    code = getattr(function, "__code__", None)
    return code.co_firstlineno if code is not None and code.co_filename == FILENAME else None  # noqa: F821


def process():
    """A fresh module namespace for one controller process, as a crash-restarted controller has."""
    global _next_process
    namespace, error = _fresh()
    if error:
        return error
    _next_process += 1
    _processes[_next_process] = namespace
    return _dumps({"ok": _next_process})


def forget():
    """Drops the processes that have reconciled: a process serves one run only."""
    for done in _ran:
        _processes.pop(done, None)
    _ran.clear()


def _finish(value, function):
    """A reconcile's result as the simulation reads it: None, or {"requeue_after": ms}."""
    if value is None:
        return None
    if inspect.iscoroutine(value):
        value.close()
        problem = "it returned a coroutine; the client is synchronous, so write def, not async def"
    else:
        ms = value.get("requeue_after") if isinstance(value, dict) and len(value) == 1 else None
        if isinstance(ms, int) and not isinstance(ms, bool) and ms >= 0:
            return {"requeueAfter": ms}
        problem = f'it returned {value!r}; return None, or {{"requeue_after": ms}} with ms a whole number of milliseconds, 0 or more'
    global _misuse
    if _misuse is None:
        text = f"reconcile: {problem}"
        _misuse = {"name": "TypeError", "message": text, "line": _line_of(function), "column": None, "stack": f"TypeError: {text}", "method": "reconcile"}
    return None


def reconcile(process_id, request):
    """One reconcile in process `process_id`; `request` is JSON text of {name, namespace}."""
    global _misuse
    _misuse = None
    _ran.add(process_id)
    function = _processes[process_id].get("reconcile")
    if not callable(function):
        text = "reconcile: your code's top level did not define reconcile in this process"
        return _dumps({"misuse": {"name": "Error", "message": text, "line": None, "column": None, "stack": text, "method": "reconcile"}})
    try:
        finish = _finish(function(_loads(request), Client()), function)
    except _Crashed as exc:
        finish = {"error": f"Error: {exc}"}
    except BaseException as exc:  # noqa: BLE001 - an error is the reconcile's result, retried
        key = "terminalError" if isinstance(exc, TerminalError) else "error"
        finish = {key: f"{type(exc).__name__}: {exc}"}
    finally:
        _flush()  # noqa: F821
    if _misuse is not None:
        return _dumps({"misuse": _misuse}, ensure_ascii=False)
    return _dumps({"finish": finish}, ensure_ascii=False)
