# status: your controller. Check tries to break it with crashes, errors and a stale cache.
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
    # TODO: report in custom["status"] the generation you saw (custom["metadata"]["generation"])
    # and a condition of type "Ready", with client.update_status(custom).
