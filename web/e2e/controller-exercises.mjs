// The controller exercises' references and known bugs, in JavaScript and Python, for the
// specs that check them (controller.spec.mjs, controller-python.spec.mjs). The learner's
// content (starters, references, hints) lives in crates/reconcile-content/exercises/controllers/.
// Each known bug is its exercise's reference with one flaw, from a real bug class; each
// names the property it breaks and its shrunk schedule's faults ([] when fault-free).
import { readFileSync } from "node:fs";
import { withBug } from "./controller-sources.mjs";

const folder = new URL("../../crates/reconcile-content/exercises/controllers/", import.meta.url);

/** An exercise's file, as text. */
export const exerciseFile = (exercise, file) => readFileSync(new URL(`${exercise}/${file}`, folder), "utf8");

/** An exercise's `kind` ("reference" or "starter") in both languages. */
const sourcesOf = (exercise, kind) => ({ js: exerciseFile(exercise, `${kind}.mjs`), py: exerciseFile(exercise, `${kind}.py`) });

/** `source` from `marker` on replaced by `replacement`. */
function replaceFrom(source, marker, replacement) {
  const at = source.indexOf(marker);
  if (at < 0) throw new Error(`the reference has no ${JSON.stringify(marker)}`);
  return source.slice(0, at) + replacement;
}

/** Each exercise's known bugs: `id`, the bug class in plain words, its two sources, and what catches it. */
function ownedConfigmap({ js, py }) {
  return [
    {
      id: "no-owner",
      bug: "no ownerReference on the ConfigMap",
      js: withBug(js, "metadata: { name, ownerReferences: [owner] }", "metadata: { name }"),
      py: withBug(py, '"metadata": {"name": name, "ownerReferences": [owner]},', '"metadata": {"name": name},'),
      property: "eventually stable",
      faults: [],
    },
    {
      id: "blind-update",
      bug: "an update on every reconcile, changed or not",
      js: withBug(js, "if (JSON.stringify(found.data) !== JSON.stringify(custom.spec.data)) {", "{"),
      py: withBug(py, 'if found.get("data") != custom["spec"]["data"]:', "if True:"),
      property: "idempotent once converged",
      faults: [],
    },
    {
      id: "create-only",
      bug: "creates, but never fixes another writer's change",
      js: withBug(js, "found.data = custom.spec.data;\n    client.update(found);", ""),
      py: withBug(py, 'found["data"] = custom["spec"]["data"]\n        client.update(found)', "pass"),
      property: "eventually stable",
      faults: ["cache-lag", "other-writer"],
    },
    {
      id: "memory",
      bug: "in-memory state: remembers a create before it succeeded",
      js: withBug(js, "export function reconcile(request, client) {", "const made = new Set();\nexport function reconcile(request, client) {\n  if (made.has(request.name)) return;").replace(
        "    client.create({",
        "    made.add(request.name);\n    client.create({",
      ),
      py: withBug(py, "def reconcile(request, client):\n", 'made = set()\n\n\ndef reconcile(request, client):\n    if request["name"] in made:\n        return\n').replace(
        "        client.create({",
        '        made.add(request["name"])\n        client.create({',
      ),
      property: "eventually stable",
      faults: ["unavailable"],
    },
  ];
}

function externalFinalizer({ js, py }) {
  return [
    {
      id: "removes-first",
      bug: "removes the finalizer before cleanup",
      js: withBug(js, "    cleanUp(lb);\n    setFinalizers(client, custom, finalizers.filter((f) => f !== FINALIZER));", "    setFinalizers(client, custom, finalizers.filter((f) => f !== FINALIZER));\n    cleanUp(lb);"),
      py: withBug(py, "        clean_up(lb)\n        set_finalizers(client, custom, [f for f in finalizers if f != FINALIZER])", "        set_finalizers(client, custom, [f for f in finalizers if f != FINALIZER])\n        clean_up(lb)"),
      property: "safe",
      faults: [],
    },
    {
      id: "never-adds",
      bug: "never adds the finalizer",
      js: withBug(js, "  if (!ours) setFinalizers(client, custom, [...finalizers, FINALIZER]);\n", ""),
      py: withBug(py, "    if not ours:\n        set_finalizers(client, custom, [*finalizers, FINALIZER])\n", ""),
      property: "eventually stable",
      faults: [],
    },
    {
      id: "fails-when-absent",
      bug: "cleanup fails on an absent load balancer after a crash",
      js: withBug(js, "  if (cloud.getLoadBalancer(name) === null) return;\n  try {\n    cloud.deleteLoadBalancer(name);\n  } catch (error) {\n    if (!notFound(error)) throw error; // gone already: what cleanup wants\n  }", "  cloud.deleteLoadBalancer(name);"),
      py: withBug(py, "    if cloud.get_load_balancer(name) is None:\n        return\n    try:\n        cloud.delete_load_balancer(name)\n    except ApiError as error:\n        if not not_found(error):  # gone already: what cleanup wants\n            raise", "    cloud.delete_load_balancer(name)"),
      property: "eventually stable",
      faults: ["crash-before"],
    },
  ];
}

function replicas({ js, py }) {
  const loop = {
    js: "  for (let index = 0; index < want; index++) {",
    py: "    for index in range(want):",
  };
  const generateName = {
    js: "  for (let count = running.length; count < want; count++) {\n    client.create(pod(custom, { generateName: `${request.name}-` }));\n  }\n}\n",
    py: '    for _ in range(len(running), want):\n        client.create(pod(custom, {"generateName": f"{request[\'name\']}-"}))\n',
  };
  const memory = {
    js: "  for (let count = created.get(request.name) ?? 0; count < want; count++) {\n    client.create(pod(custom, { generateName: `${request.name}-` }));\n    created.set(request.name, count + 1);\n  }\n}\n",
    py: '    for count in range(created.get(request["name"], 0), want):\n        client.create(pod(custom, {"generateName": f"{request[\'name\']}-"}))\n        created[request["name"]] = count + 1\n',
  };
  return [
    {
      id: "generate-name",
      bug: "generateName without expectations",
      js: replaceFrom(js, loop.js, generateName.js),
      py: replaceFrom(py, loop.py, generateName.py),
      property: "eventually stable",
      faults: ["unavailable"],
    },
    {
      id: "memory",
      bug: "in-memory state: counts its creates, which a restart forgets",
      js: replaceFrom(withBug(js, "export function reconcile(", "const created = new Map(); // pods created, by custom resource\n\nexport function reconcile("), loop.js, memory.js),
      py: replaceFrom(withBug(py, "def reconcile(", "created = {}  # pods created, by custom resource\n\n\ndef reconcile("), loop.py, memory.py),
      property: "eventually stable",
      faults: ["crash-before"],
    },
    {
      id: "trusts-cache",
      bug: "acts on a cache that has not seen its own last create",
      js: withBug(js, "if (alreadyExists(error)) continue; // already there: the cache is behind", "if (alreadyExists(error)) {\n        // Not in the cache, so not there: create it under another name.\n        client.create(pod(custom, { generateName: `${request.name}-` }));\n        continue;\n      }"),
      py: withBug(py, "            if already_exists(error):\n                continue  # already there: the cache is behind", '            if already_exists(error):\n                # Not in the cache, so not there: create it under another name.\n                client.create(pod(custom, {"generateName": f"{request[\'name\']}-"}))\n                continue'),
      property: "eventually stable",
      faults: ["unavailable"],
    },
  ];
}

function status({ js, py }) {
  return [
    {
      id: "time-in-status",
      bug: "the time of each reconcile in status",
      js: withBug(js, '    conditions: [{ type: "Ready", status: "True", reason: "Reconciled" }],\n', '    conditions: [{ type: "Ready", status: "True", reason: "Reconciled" }],\n    lastReconciled: new Date().toISOString(),\n'),
      py: withBug(py, "from reconcile import ApiError\n", "from datetime import datetime, timezone\n\nfrom reconcile import ApiError\n").replace(
        '        "conditions": [{"type": "Ready", "status": "True", "reason": "Reconciled"}],\n',
        '        "conditions": [{"type": "Ready", "status": "True", "reason": "Reconciled"}],\n        "lastReconciled": datetime.now(timezone.utc).isoformat(),\n',
      ),
      property: "eventually stable",
      faults: [],
    },
    {
      id: "every-pass",
      bug: "a status write on every reconcile, changed or not",
      js: withBug(js, "  if (same(custom.status, status)) return; // already reported: write nothing\n", ""),
      py: withBug(py, '    if custom.get("status") == status:\n        return  # already reported: write nothing\n', ""),
      property: "idempotent once converged",
      faults: [],
    },
    {
      id: "remembers-too-early",
      bug: "in-memory state: remembers the report before the write succeeded",
      js: withBug(
        withBug(js, "export function reconcile(", "const reported = new Map(); // generations reported, by custom resource\n\nexport function reconcile("),
        "  if (custom.metadata.deletionTimestamp) return;\n",
        "  if (custom.metadata.deletionTimestamp) return;\n  if (reported.get(request.name) === custom.metadata.generation) return;\n  reported.set(request.name, custom.metadata.generation);\n",
      ).replace("  client.updateStatus(custom); // a 409 throws: the retry reads the cache again", "  try {\n    client.updateStatus(custom);\n  } catch {\n    // Swallowed: the memory says it is reported.\n  }"),
      py: withBug(
        withBug(py, "def reconcile(", "reported = {}  # generations reported, by custom resource\n\n\ndef reconcile("),
        '    if custom["metadata"].get("deletionTimestamp"):\n        return\n',
        '    if custom["metadata"].get("deletionTimestamp"):\n        return\n    if reported.get(request["name"]) == custom["metadata"]["generation"]:\n        return\n    reported[request["name"]] = custom["metadata"]["generation"]\n',
      ).replace("    client.update_status(custom)  # a 409 raises: the retry reads the cache again", "    try:\n        client.update_status(custom)\n    except ApiError:\n        pass  # swallowed: the memory says it is reported"),
      property: "eventually stable",
      faults: ["unavailable"],
    },
  ];
}

function conflicts({ js, py }) {
  const update = {
    js: "  client.update(found);\n}\n",
    py: "    client.update(found)\n",
  };
  const onConflict = (js, py) => ({
    js: `  try {\n    client.update(found);\n  } catch (error) {\n    if (!(error instanceof ApiError && error.status === 409)) throw error;\n${js}\n  }\n}\n`,
    py: `    try:\n        client.update(found)\n    except ApiError as error:\n        if error.status != 409:\n            raise\n${py}\n`,
  });
  const blind = onConflict("    client.update(found); // the same object again", "        client.update(found)  # the same object again");
  const overwrite = onConflict(
    "    delete found.metadata.resourceVersion; // no precondition: the write wins\n    client.update(found);",
    '        del found["metadata"]["resourceVersion"]  # no precondition: the write wins\n        client.update(found)',
  );
  const apply = {
    js: '  let found = null;\n  try {\n    found = client.get("Deployment", request.name);\n  } catch (error) {\n    if (!notFound(error)) throw error;\n  }\n  if (found?.spec.template.spec.containers[0].image === custom.spec.image) return;\n  client.apply(deployment(custom), { fieldManager: "web-controller", force: true });\n}\n',
    py: '    try:\n        found = client.get("Deployment", request["name"])\n    except ApiError as error:\n        if not not_found(error):\n            raise\n        found = None\n    if found and found["spec"]["template"]["spec"]["containers"][0]["image"] == custom["spec"]["image"]:\n        return\n    client.apply(deployment(custom), field_manager="web-controller", force=True)\n',
  };
  return [
    {
      id: "blind-retry",
      bug: "a blind retry of an update with a stale resourceVersion",
      js: withBug(js, update.js, blind.js),
      py: withBug(py, update.py, blind.py),
      property: "safe",
      faults: ["api-server-restart"],
    },
    {
      id: "overwrites",
      bug: "on 409, drops the resourceVersion and updates anyway",
      js: withBug(js, update.js, overwrite.js),
      py: withBug(py, update.py, overwrite.py),
      property: "safe",
      faults: ["other-writer"],
    },
    {
      id: "force-apply",
      bug: "server-side apply with force, replicas included",
      js: replaceFrom(js, "  let found;\n", apply.js),
      py: replaceFrom(py, "    try:\n        found = client.get(", apply.py),
      property: "safe",
      faults: [],
    },
  ];
}

const BUGS = {
  "owned-configmap": ownedConfigmap,
  "external-finalizer": externalFinalizer,
  replicas,
  status,
  conflicts,
};

/** Every controller exercise: its name, its starter and reference in both languages, and its known bugs. */
export const EXERCISES = Object.entries(BUGS).map(([name, bugs]) => {
  const reference = sourcesOf(name, "reference");
  return { name, starter: sourcesOf(name, "starter"), reference, bugs: bugs(reference) };
});

/** Exercise `name`'s entry. */
export const exercise = (name) => EXERCISES.find((entry) => entry.name === name);

/** Known bug `id` of exercise `name`: `{ js, py, property, faults }`. */
export function knownBug(name, id) {
  const found = exercise(name)?.bugs.find((bug) => bug.id === id);
  if (!found) throw new Error(`no known bug ${id} in ${name}`);
  return found;
}
