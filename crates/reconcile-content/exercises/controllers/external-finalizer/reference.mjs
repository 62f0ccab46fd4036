// external-finalizer: the reference controller, written as a learner would.
// controller.spec.mjs runs it and variants of it with one flaw each.
import { ApiError, cloud } from "reconcile";

const FINALIZER = "reconcile.example.com/load-balancer";
const notFound = (error) => error instanceof ApiError && error.status === 404;

/** A merge patch of the finalizers, locked to the resourceVersion read. */
function setFinalizers(client, custom, finalizers) {
  client.patch("Desired", custom.metadata.name, { metadata: { finalizers } }, { resourceVersion: custom.metadata.resourceVersion });
}

function cleanUp(name) {
  if (cloud.getLoadBalancer(name) === null) return;
  try {
    cloud.deleteLoadBalancer(name);
  } catch (error) {
    if (!notFound(error)) throw error; // gone already: what cleanup wants
  }
}

export function reconcile(request, client) {
  let custom;
  try {
    custom = client.get("Desired", request.name);
  } catch (error) {
    if (notFound(error)) return;
    throw error;
  }
  const lb = `lb-${request.name}`;
  const finalizers = custom.metadata.finalizers ?? [];
  const ours = finalizers.includes(FINALIZER);
  if (custom.metadata.deletionTimestamp) {
    if (!ours) return;
    cleanUp(lb);
    setFinalizers(client, custom, finalizers.filter((f) => f !== FINALIZER));
    return;
  }
  if (!ours) setFinalizers(client, custom, [...finalizers, FINALIZER]);
  if (cloud.getLoadBalancer(lb) === null) cloud.ensureLoadBalancer(lb);
}
