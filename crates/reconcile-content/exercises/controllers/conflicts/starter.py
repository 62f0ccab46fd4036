# conflicts: your controller. Check tries to break it with crashes, errors and a stale cache.
from reconcile import ApiError


def not_found(error):
    return isinstance(error, ApiError) and error.status == 404


def reconcile(request, client):
    try:
        custom = client.get("Desired", request["name"])
    except ApiError as error:
        if not_found(error):
            return  # gone
        raise
    # TODO: make sure Deployment request["name"] exists, controlled by `custom`,
    # and that its one container runs custom["spec"]["image"]. Leave spec.replicas to the autoscaler.
