// owned-configmap: your controller. Check tries to break it with crashes, errors and a stale cache.
import { ApiError } from "reconcile";

const notFound = (error) => error instanceof ApiError && error.status === 404;

export function reconcile(request, client) {
  let custom;
  try {
    custom = client.get("Desired", request.name);
  } catch (error) {
    if (notFound(error)) return; // gone
    throw error;
  }
  // TODO: make sure ConfigMap `${request.name}-config` exists, owned by `custom`,
  // with `data` equal to custom.spec.data.
}
