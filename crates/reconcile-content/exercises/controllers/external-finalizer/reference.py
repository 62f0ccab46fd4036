# external-finalizer: the reference controller, written as a learner would, in Python.
# controller.spec.mjs checks it and variants of it with one flaw each, as external-finalizer.js.
from reconcile import ApiError, cloud

FINALIZER = "reconcile.example.com/load-balancer"


def not_found(error):
    return isinstance(error, ApiError) and error.status == 404


def set_finalizers(client, custom, finalizers):
    """A merge patch of the finalizers, locked to the resourceVersion read."""
    metadata = custom["metadata"]
    client.patch("Desired", metadata["name"], {"metadata": {"finalizers": finalizers}}, resource_version=metadata["resourceVersion"])


def clean_up(name):
    if cloud.get_load_balancer(name) is None:
        return
    try:
        cloud.delete_load_balancer(name)
    except ApiError as error:
        if not not_found(error):  # gone already: what cleanup wants
            raise


def reconcile(request, client):
    try:
        custom = client.get("Desired", request["name"])
    except ApiError as error:
        if not_found(error):
            return
        raise
    lb = f"lb-{request['name']}"
    finalizers = custom["metadata"].get("finalizers") or []
    ours = FINALIZER in finalizers
    if custom["metadata"].get("deletionTimestamp"):
        if not ours:
            return
        clean_up(lb)
        set_finalizers(client, custom, [f for f in finalizers if f != FINALIZER])
        return
    if not ours:
        set_finalizers(client, custom, [*finalizers, FINALIZER])
    if cloud.get_load_balancer(lb) is None:
        cloud.ensure_load_balancer(lb)
