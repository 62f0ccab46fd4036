// external-finalizer: your controller. Check tries to break it with crashes, errors and a stale cache.
import { ApiError, cloud } from "reconcile";

const FINALIZER = "reconcile.example.com/load-balancer";
const notFound = (error) => error instanceof ApiError && error.status === 404;

export function reconcile(request, client) {
  let custom;
  try {
    custom = client.get("Desired", request.name);
  } catch (error) {
    if (notFound(error)) return; // gone
    throw error;
  }
  const lb = `lb-${request.name}`;
  // TODO: while `custom` lives, keep FINALIZER on it and load balancer `lb` in the cloud.
  // TODO: once it is being deleted (custom.metadata.deletionTimestamp), clean up, then let it go.
}
