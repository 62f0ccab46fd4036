// conflicts: the reference controller, written as a learner would.
// controller.spec.mjs checks it and variants of it with one flaw each.
import { ApiError } from "reconcile";

const notFound = (error) => error instanceof ApiError && error.status === 404;

/** The Deployment of custom resource `custom`; its first replicas is ours, then the autoscaler's. */
function deployment(custom) {
  const name = custom.metadata.name;
  const owner = {
    apiVersion: custom.apiVersion,
    kind: custom.kind,
    name,
    uid: custom.metadata.uid,
    controller: true,
    blockOwnerDeletion: true,
  };
  return {
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name, ownerReferences: [owner] },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: "app", image: custom.spec.image }] },
      },
    },
  };
}

export function reconcile(request, client) {
  let custom;
  try {
    custom = client.get("Desired", request.name);
  } catch (error) {
    if (notFound(error)) return;
    throw error;
  }
  if (custom.metadata.deletionTimestamp) return;
  let found;
  try {
    found = client.get("Deployment", request.name);
  } catch (error) {
    if (!notFound(error)) throw error;
    client.create(deployment(custom));
    return;
  }
  const container = found.spec.template.spec.containers[0];
  if (container.image === custom.spec.image) return;
  container.image = custom.spec.image;
  // The object as read, with its resourceVersion: a 409 throws, and the retry reads again.
  client.update(found);
}
