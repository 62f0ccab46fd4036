# conflicts: the reference controller, written as a learner would, in Python.
# controller-python.spec.mjs checks it and variants of it with one flaw each, as reference.mjs.
from reconcile import ApiError


def not_found(error):
    return isinstance(error, ApiError) and error.status == 404


def deployment(custom):
    """The Deployment of custom resource `custom`; its first replicas is ours, then the autoscaler's."""
    name = custom["metadata"]["name"]
    owner = {
        "apiVersion": custom["apiVersion"],
        "kind": custom["kind"],
        "name": name,
        "uid": custom["metadata"]["uid"],
        "controller": True,
        "blockOwnerDeletion": True,
    }
    return {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": name, "ownerReferences": [owner]},
        "spec": {
            "replicas": 1,
            "selector": {"matchLabels": {"app": name}},
            "template": {
                "metadata": {"labels": {"app": name}},
                "spec": {"containers": [{"name": "app", "image": custom["spec"]["image"]}]},
            },
        },
    }


def reconcile(request, client):
    try:
        custom = client.get("Desired", request["name"])
    except ApiError as error:
        if not_found(error):
            return
        raise
    if custom["metadata"].get("deletionTimestamp"):
        return
    try:
        found = client.get("Deployment", request["name"])
    except ApiError as error:
        if not not_found(error):
            raise
        client.create(deployment(custom))
        return
    container = found["spec"]["template"]["spec"]["containers"][0]
    if container["image"] == custom["spec"]["image"]:
        return
    container["image"] = custom["spec"]["image"]
    # The object as read, with its resourceVersion: a 409 raises, and the retry reads again.
    client.update(found)
