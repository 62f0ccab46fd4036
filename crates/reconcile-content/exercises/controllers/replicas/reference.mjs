// replicas: the reference controller, written as a learner would.
// controller.spec.mjs checks it and variants of it with one flaw each.
import { ApiError } from "reconcile";

const notFound = (error) => error instanceof ApiError && error.status === 404;
const alreadyExists = (error) => error instanceof ApiError && error.status === 409;

/** A pod of custom resource `custom`, with its controller reference. */
function pod(custom, metadata) {
  const owner = {
    apiVersion: custom.apiVersion,
    kind: custom.kind,
    name: custom.metadata.name,
    uid: custom.metadata.uid,
    controller: true,
    blockOwnerDeletion: true,
  };
  return {
    apiVersion: "v1",
    kind: "Pod",
    metadata: { ...metadata, labels: { app: custom.metadata.name }, ownerReferences: [owner] },
    spec: { containers: [{ name: "app", image: "nginx" }] },
  };
}

export function reconcile(request, client) {
  let custom;
  try {
    custom = client.get("Desired", request.name);
  } catch (error) {
    if (notFound(error)) return; // gone: the garbage collector removes its pods
    throw error;
  }
  if (custom.metadata.deletionTimestamp) return;
  const want = custom.spec.replicas ?? 0;
  const running = client
    .list("Pod", { labels: { app: request.name } })
    .filter((p) => !p.metadata.deletionTimestamp);
  // Names of our own: a create the cache has not seen yet gets 409, never a second pod.
  for (let index = 0; index < want; index++) {
    const name = `${request.name}-${index}`;
    if (running.some((p) => p.metadata.name === name)) continue;
    try {
      client.create(pod(custom, { name }));
    } catch (error) {
      if (alreadyExists(error)) continue; // already there: the cache is behind
      throw error;
    }
  }
}
