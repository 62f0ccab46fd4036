# status: the reference controller, written as a learner would, in Python.
# controller-python.spec.mjs checks it and variants of it with one flaw each, as reference.mjs.
from reconcile import ApiError


def not_found(error):
    return isinstance(error, ApiError) and error.status == 404


def reconcile(request, client):
    try:
        custom = client.get("Desired", request["name"])
    except ApiError as error:
        if not_found(error):
            return
        raise
    if custom["metadata"].get("deletionTimestamp"):
        return
    # No lastTransitionTime: it would change only on a transition.
    status = {
        "observedGeneration": custom["metadata"]["generation"],
        "conditions": [{"type": "Ready", "status": "True", "reason": "Reconciled"}],
    }
    if custom.get("status") == status:
        return  # already reported: write nothing
    custom["status"] = status
    client.update_status(custom)  # a 409 raises: the retry reads the cache again
