# external-finalizer: your controller. Check tries to break it with crashes, errors and a stale cache.
from reconcile import ApiError, cloud

FINALIZER = "reconcile.example.com/load-balancer"


def not_found(error):
    return isinstance(error, ApiError) and error.status == 404


def reconcile(request, client):
    try:
        custom = client.get("Desired", request["name"])
    except ApiError as error:
        if not_found(error):
            return  # gone
        raise
    lb = f"lb-{request['name']}"
    # TODO: while `custom` lives, keep FINALIZER on it and load balancer `lb` in the cloud.
    # TODO: once it is being deleted (custom["metadata"]["deletionTimestamp"]), clean up, then let it go.
