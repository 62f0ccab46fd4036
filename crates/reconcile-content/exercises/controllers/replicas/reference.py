# replicas: the reference controller, written as a learner would, in Python.
# controller-python.spec.mjs checks it and variants of it with one flaw each, as reference.mjs.
from reconcile import ApiError


def not_found(error):
    return isinstance(error, ApiError) and error.status == 404


def already_exists(error):
    return isinstance(error, ApiError) and error.status == 409


def pod(custom, metadata):
    """A pod of custom resource `custom`, with its controller reference."""
    owner = {
        "apiVersion": custom["apiVersion"],
        "kind": custom["kind"],
        "name": custom["metadata"]["name"],
        "uid": custom["metadata"]["uid"],
        "controller": True,
        "blockOwnerDeletion": True,
    }
    return {
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {**metadata, "labels": {"app": custom["metadata"]["name"]}, "ownerReferences": [owner]},
        "spec": {"containers": [{"name": "app", "image": "nginx"}]},
    }


def reconcile(request, client):
    try:
        custom = client.get("Desired", request["name"])
    except ApiError as error:
        if not_found(error):
            return  # gone: the garbage collector removes its pods
        raise
    if custom["metadata"].get("deletionTimestamp"):
        return
    want = custom["spec"].get("replicas", 0)
    running = [
        p for p in client.list("Pod", labels={"app": request["name"]})
        if not p["metadata"].get("deletionTimestamp")
    ]
    # Names of our own: a create the cache has not seen yet gets 409, never a second pod.
    for index in range(want):
        name = f"{request['name']}-{index}"
        if any(p["metadata"]["name"] == name for p in running):
            continue
        try:
            client.create(pod(custom, {"name": name}))
        except ApiError as error:
            if already_exists(error):
                continue  # already there: the cache is behind
            raise
