// owned-configmap: the reference controller, written as a learner would.
// controller.spec.mjs runs it and variants of it with one flaw each.
import { ApiError } from "reconcile";

const notFound = (error) => error instanceof ApiError && error.status === 404;

export function reconcile(request, client) {
  let custom;
  try {
    custom = client.get("Desired", request.name);
  } catch (error) {
    if (notFound(error)) return; // gone: the garbage collector removes its ConfigMap
    throw error;
  }
  if (custom.metadata.deletionTimestamp) return;
  const name = `${request.name}-config`;
  const owner = {
    apiVersion: custom.apiVersion,
    kind: custom.kind,
    name: custom.metadata.name,
    uid: custom.metadata.uid,
    controller: true,
    blockOwnerDeletion: true,
  };
  let found;
  try {
    found = client.get("ConfigMap", name);
  } catch (error) {
    if (!notFound(error)) throw error;
    client.create({
      apiVersion: "v1",
      kind: "ConfigMap",
      metadata: { name, ownerReferences: [owner] },
      data: custom.spec.data,
    });
    return;
  }
  if (JSON.stringify(found.data) !== JSON.stringify(custom.spec.data)) {
    found.data = custom.spec.data;
    client.update(found);
  }
}
