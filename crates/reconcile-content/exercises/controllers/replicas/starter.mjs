// replicas: your controller. Check tries to break it with crashes, errors and a stale cache.
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
  const want = custom.spec.replicas;
  const pods = client.list("Pod", { labels: { app: request.name } });
  // TODO: create pods until `custom` controls exactly `want` running ones.
}
