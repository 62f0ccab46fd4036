# owned-configmap: the reference controller, written as a learner would, in Python.
# controller.spec.mjs checks it and variants of it with one flaw each, as owned-configmap.js.
from reconcile import ApiError


def not_found(error):
    return isinstance(error, ApiError) and error.status == 404


def reconcile(request, client):
    try:
        custom = client.get("Desired", request["name"])
    except ApiError as error:
        if not_found(error):
            return  # gone: the garbage collector removes its ConfigMap
        raise
    if custom["metadata"].get("deletionTimestamp"):
        return
    name = f"{request['name']}-config"
    owner = {
        "apiVersion": custom["apiVersion"],
        "kind": custom["kind"],
        "name": custom["metadata"]["name"],
        "uid": custom["metadata"]["uid"],
        "controller": True,
        "blockOwnerDeletion": True,
    }
    try:
        found = client.get("ConfigMap", name)
    except ApiError as error:
        if not not_found(error):
            raise
        client.create({
            "apiVersion": "v1",
            "kind": "ConfigMap",
            "metadata": {"name": name, "ownerReferences": [owner]},
            "data": custom["spec"]["data"],
        })
        return
    if found.get("data") != custom["spec"]["data"]:
        found["data"] = custom["spec"]["data"]
        client.update(found)
