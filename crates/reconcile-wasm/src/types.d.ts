// Generated from the Rust types by ts-rs: `UPDATE_TS=1 cargo test -p reconcile-wasm --lib`
// writes it, and that test fails when it is stale. Do not edit (see src/types.rs).

/**
 * A JSON value. Objects keep their members in the order they were written.
 */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * A set of named specs: the desired or the observed state.
 */
export type Resources = { [name: string]: Json };

/**
 * Pending finalizers per object name.
 */
export type Finalizers = { [name: string]: string[] };

/**
 * The three documents together, as the CLI and the JS API take them.
 */
export type Scenario = { desired: Resources, observed: Resources, 
/**
 * May be left out: no finalizers.
 */
finalizers?: Finalizers | null, };

/**
 * One custom resource of a `CustomResourcesScenario`: its name and its contract scenario.
 */
export type CustomResourceEntry = { name: string, desired: Resources, observed: Resources, finalizers?: Finalizers | null, };

/**
 * A scenario of several custom resources, each reconciled alone against
 * the objects it owns. Object names are unique across entries.
 */
export type CustomResourcesScenario = { customResources: Array<CustomResourceEntry>, };

/**
 * The four things a controller can decide to do to one named object.
 */
export type ActionKind = "CREATE" | "UPDATE" | "FINALIZE" | "DELETE";

/**
 * One action of a plan. Serializes as the contract's 3-element array:
 * `["CREATE","a",{"replicas":1}]`, `["DELETE","c",null]`.
 */
export type Action = [kind: "CREATE" | "UPDATE", name: string, spec: Json] | [kind: "FINALIZE" | "DELETE", name: string, spec: null];

/**
 * Why `reconcile` chose an action. Each variant maps to one rule of the contract.
 */
export type Reason = { "rule": "not-observed" } | { "rule": "drifted", fields: number, } | { "rule": "finalizers-pending", finalizers: Array<string>, } | { "rule": "no-finalizers-pending", hadEntry: boolean, };

/**
 * One field that differs between the observed and the desired spec.
 * `None` means the field is absent on that side.
 */
export type Drift = { path: string, observed: Json | null, desired: Json | null, };

/**
 * An action with its explanation.
 */
export type ExplainedAction = { action: Action, reason: Reason, 
/**
 * Field-level drift; non-empty exactly for UPDATE.
 */
drift: Array<Drift>, };

/**
 * Counts per action kind.
 */
export type Summary = { create: number, update: number, finalize: number, delete: number, };

/**
 * The explained plan: what the UI's action list and the CLI's `--plan` show.
 * Serializes with camelCase fields (`summaryText`), as the JS API returns it.
 */
export type Plan = { actions: Array<ExplainedAction>, summary: Summary, 
/**
 * The summary sentence, for consumers that don't format it themselves.
 */
summaryText: string, };

/**
 * How a failed key is requeued.
 */
export type BackoffPolicy = { "policy": "client-go", baseMs: number, maxMs: number, qps: number, burst: number, } | { "policy": "fixed-delay", delayMs: number, };

/**
 * Which queue model a controller runs on. Wire form: `"client-go"`,
 * `"controller-runtime-priority"` or `"kube-rs"`.
 */
export type QueueModel = "client-go" | "controller-runtime-priority" | "kube-rs";

/**
 * What the controller compares to decide an UPDATE.
 */
export type SpecComparison = "whole-spec" | "fields-it-sets";

/**
 * How the controller names the objects it creates.
 */
export type ObjectNaming = "deterministic" | "generate-name" | "generate-name-with-expectations";

/**
 * How the controller writes objects.
 */
export type ObjectWrites = "update" | "apply" | "force-apply";

/**
 * What the controller writes to its custom resource's status after each pass.
 */
export type StatusWrites = "none" | "observed-generation" | "with-timestamp";

/**
 * The events of a run, capped.
 */
export type EventLog = { entries: Array<EventEntry>, 
/**
 * More happened than `MAX_EVENTS`.
 */
truncated: boolean, };

/**
 * One step, and when.
 */
export type EventEntry = { at: number, } & ({ "kind": "reconcile-started", pass: number, trigger: Trigger, actions: number, skipped?: PassSkip, } | { "kind": "request", pass: number, action: ActionKind, name: string, code: number, } | { "kind": "reconcile-ended", pass: number, error: boolean, crashed: boolean, } | { "kind": "watch-delivered", name: string, change: Change, } | { "kind": "status-write", pass: number, code: number, changed: boolean, } | { "kind": "finalizer-write", pass: number, added: boolean, code: number, } | { "kind": "cloud", pass: number, call: CloudCall, code: number, } | { "kind": "enqueued", outcome: AddOutcome, trigger: Trigger, } | { "kind": "requeue-delayed", readyAt: number, });

/**
 * What happened.
 */
export type SimEvent = { "kind": "reconcile-started", pass: number, trigger: Trigger, actions: number, skipped?: PassSkip, } | { "kind": "request", pass: number, action: ActionKind, name: string, code: number, } | { "kind": "reconcile-ended", pass: number, error: boolean, crashed: boolean, } | { "kind": "watch-delivered", name: string, change: Change, } | { "kind": "status-write", pass: number, code: number, changed: boolean, } | { "kind": "finalizer-write", pass: number, added: boolean, code: number, } | { "kind": "cloud", pass: number, call: CloudCall, code: number, } | { "kind": "enqueued", outcome: AddOutcome, trigger: Trigger, } | { "kind": "requeue-delayed", readyAt: number, };

/**
 * What `add` did with a key (the engine's timeline shows it).
 */
export type AddOutcome = "queued" | "already-queued" | "deferred";

/**
 * `metav1.DeletionPropagation`; the default of custom resources is background.
 */
export type PropagationPolicy = "orphan" | "background" | "foreground";

/**
 * What another actor can do to the world.
 */
export type WorldEvent = { "kind": "delete", name: string, } | { "kind": "drift", name: string, path: Array<string>, value: Json, } | { "kind": "stray-create", name: string, spec: Json, } | { "kind": "add-finalizer", name: string, finalizer: string, } | { "kind": "set-desired", desired: Resources, } | { "kind": "delete-custom-resource", propagation: PropagationPolicy, } | { "kind": "restart-api-server" };

/**
 * One finalizer entry on one object.
 */
export type FinalizerRef = { object: string, finalizer: string, };

/**
 * The owner of one finalizer name: another controller, with its own work
 * queue and one worker, that takes `delay_ms` to clean up after each object.
 */
export type FinalizerOwner = { finalizer: string, delayMs: number, };

/**
 * Crash the controller in pass `at_pass` (1-based) after `after_actions` of its actions.
 * A pass that ends sooner (it has fewer actions, or one fails) crashes as it ends.
 */
export type CrashPlan = { atPass: number, afterActions: number, };

/**
 * The external system's timing and failures.
 */
export type CloudSettings = { 
/**
 * How long one call to the cloud takes to answer.
 */
latencyMs: number, 
/**
 * Probability that one call fails (503) and changes nothing.
 */
failureRate: number, };

/**
 * A call to the cloud's API.
 */
export type CloudCall = { "op": "ensure", name: string, } | { "op": "get", name: string, } | { "op": "delete", name: string, };

/**
 * An event by another actor, applied right after pass `afterPass` ends (0 = before the first pass).
 */
export type ScriptedEvent = { afterPass: number, event: WorldEvent, };

/**
 * A competing writer, such as an autoscaler that sets `replicas`.
 */
export type OtherWriter = { name: string, object: string, 
/**
 * At most `MAX_PATH_LEN` members when read from JSON.
 */
path: Array<string>, value: Json, reactionMs: number, 
/**
 * How it writes: a PUT (the default), recorded as an `Update` manager
 * under its name, or server-side apply of that one field under its
 * name (`force-apply` takes it from whoever owns it).
 */
writes?: ObjectWrites, };

/**
 * Everything that shapes a run besides the scenario. Missing fields take
 * their defaults when deserialized, so old share links keep working.
 */
export type SimConfig = { seed: number, 
/**
 * Stop with "pass limit" after this many passes.
 */
maxPasses: number, 
/**
 * Probability that one action fails transiently.
 */
failureRate: number, 
/**
 * Probability that the watch breaks at one event (it and the events in
 * flight are lost until the informer lists again). Links and options of
 * earlier builds called it `dropRate`, when it meant lost events.
 */
watchBreakRate: number, 
/**
 * Periodic resync; `None` turns it off.
 */
resyncPeriodMs: number | null, 
/**
 * Whether the controller watches the objects it owns (ownerReferences).
 */
watchOwned: boolean, backoff: BackoffPolicy, 
/**
 * How long one action (one API call) takes.
 */
actionMs: number, 
/**
 * Delay from a write to its watch event reaching the controller.
 */
watchLatencyMs: number, 
/**
 * Delay from a pass ending to finalizer owners removing an entry each.
 */
finalizerOwnerDelayMs: number, 
/**
 * Delay from a crash to the restarted controller listing the world again.
 */
restartDelayMs: number, 
/**
 * Finalizers whose owner never removes them.
 */
stuckFinalizers: Array<FinalizerRef>, 
/**
 * Owners with a speed of their own, by finalizer name; the others take
 * `finalizer_owner_delay_ms`.
 */
finalizerOwners: Array<FinalizerOwner>, crash: CrashPlan | null, 
/**
 * Things other actors do, each right after a given pass.
 */
script: Array<ScriptedEvent>, 
/**
 * Other controllers that write a field of an object whenever it differs from their value.
 */
otherWriters: Array<OtherWriter>, 
/**
 * After a pass whose FINALIZEd objects are still terminating, return
 * `RequeueAfter` this long (the polling style), instead of waiting for
 * the watch event of their deletion. `None`: never.
 */
requeueWhileTerminatingMs: number | null, 
/**
 * The controller's work queue: client-go's (the default) or
 * controller-runtime's priority queue, each with `backoff`'s rate limiter.
 */
queue: QueueModel, 
/**
 * What the controller compares to decide an UPDATE: the whole spec
 * (the contract), or only the fields it sets (beyond the contract;
 * see `comparison`).
 */
compare: SpecComparison, 
/**
 * How the controller writes objects: POST and PUT (the contract), or
 * server-side apply, with or without force (beyond the contract; see
 * `crate::writes`). An applier compares only the fields it sets.
 */
writes: ObjectWrites, 
/**
 * Observed objects that are terminating at the start: their manifests
 * have a `metadata.deletionTimestamp`. This goes beyond the seed
 * contract, whose documents cannot say so; an object here with no
 * finalizer pending is gone at the start, as the API server deletes
 * such an object at once.
 */
terminating: Array<string>, 
/**
 * How the controller names what it creates: the desired name (the
 * contract), or `generateName` with or without a ReplicaSet's
 * expectations (beyond the contract; see `naming`).
 */
naming: ObjectNaming, 
/**
 * What the controller writes to its custom resource's status after each
 * pass (beyond the seed's contract; see `status_writes`).
 */
statusWrites: StatusWrites, 
/**
 * Whether the watch on the custom resource drops update events that
 * leave its generation unchanged (controller-runtime's
 * `GenerationChangedPredicate`; beyond the seed's contract).
 */
generationChangedPredicate: boolean, 
/**
 * Delay from a write of the custom resource to its watch event
 * reaching the controller: its reflector's own. `None`: `watchLatencyMs`.
 */
customResourceWatchLatencyMs: number | null, 
/**
 * How long a node's kubelet takes to stop a deleted pod's containers.
 * It then deletes the pod with grace period 0; at the latest when the
 * pod's grace period ends (see `crate::pods`).
 */
podStopMs: number, 
/**
 * KEP-5647 (Kubernetes v1.36): the controller remembers the
 * resourceVersion of its own last writes and defers a reconcile until
 * its informers have synced them (`ConsistencyStore`; beyond the seed's
 * contract; see `crate::consistency`).
 */
consistencyStore: boolean, 
/**
 * The controller keeps a cloud load balancer for its custom resource,
 * behind its own finalizer (beyond the seed's contract; see
 * `crate::cloud`). `None`: no external system.
 */
cloud: CloudSettings | null, 
/**
 * How many reconciles run at once: controller-runtime's
 * `MaxConcurrentReconciles` (default 1). The queue never hands one
 * key to two workers. Left out of the JSON at 1.
 */
workers?: number, };

/**
 * `simulate`'s options: any of the settings of a `SimConfig`; the others keep
 * their defaults. An unknown option name is an error. Times are simulated
 * milliseconds. The defaults:
 * - `seed`: `1`
 * - `maxPasses`: `100`
 * - `failureRate`: `0.0`
 * - `watchBreakRate`: `0.0`
 * - `resyncPeriodMs`: `null`
 * - `watchOwned`: `true`
 * - `backoff`: `{"policy":"client-go","baseMs":5,"maxMs":1000000,"qps":10.0,"burst":100}`
 * - `actionMs`: `10`
 * - `watchLatencyMs`: `5`
 * - `finalizerOwnerDelayMs`: `50`
 * - `restartDelayMs`: `500`
 * - `stuckFinalizers`: `[]`
 * - `finalizerOwners`: `[]`
 * - `crash`: `null`
 * - `script`: `[]`
 * - `otherWriters`: `[]`
 * - `requeueWhileTerminatingMs`: `null`
 * - `queue`: `"client-go"`
 * - `compare`: `"whole-spec"`
 * - `writes`: `"update"`
 * - `terminating`: `[]`
 * - `naming`: `"deterministic"`
 * - `statusWrites`: `"none"`
 * - `generationChangedPredicate`: `false`
 * - `customResourceWatchLatencyMs`: `null`
 * - `podStopMs`: `1000`
 * - `consistencyStore`: `false`
 * - `cloud`: `null`
 */
export type SimOptions = Partial<SimConfig>;

/**
 * What happened to an object, as a watch event reports it.
 */
export type Change = "added" | "updated" | "deleted";

/**
 * Why a pass ran. `reconcile` never sees this.
 */
export type Trigger = { "kind": "custom-resource", change: Change, afterRestart: boolean, } | { "kind": "owned-object", name: string, change: Change, } | { "kind": "resync" } | { "kind": "requeue", failures: number, } | { "kind": "relisted" } | { "kind": "requeue-after", delayMs: number, } | { "kind": "custom-resource-deleting" } | { "kind": "custom-resource-status" };

/**
 * What became of one action of a pass.
 */
export type ActionResult = { "result": "applied" } | { "result": "already-terminating" } | { "result": "unchanged" } | { "result": "already-gone" } | { "result": "failed", requeuedAt: number, code: number, error: string, } | { "result": "not-attempted" } | { "result": "lost-in-crash" };

export type ActionOutcome = { action: Action, 
/**
 * The object the request went to, when it is not the action's name: the
 * name the API server generated for a CREATE, or the object a desired
 * name stood for (see `naming`).
 */
object?: string, } & ({ "result": "applied" } | { "result": "already-terminating" } | { "result": "unchanged" } | { "result": "already-gone" } | { "result": "failed", requeuedAt: number, code: number, error: string, } | { "result": "not-attempted" } | { "result": "lost-in-crash" });

/**
 * The status write of one pass, as the timeline shows it.
 */
export type StatusWrite = { 
/**
 * The status the controller sent.
 */
status: Json, } & ({ "result": "applied" } | { "result": "already-terminating" } | { "result": "unchanged" } | { "result": "already-gone" } | { "result": "failed", requeuedAt: number, code: number, error: string, } | { "result": "not-attempted" } | { "result": "lost-in-crash" });

/**
 * The objects of the world, as the API server holds them.
 */
export type World = { observed: Resources, finalizers: Finalizers, 
/**
 * Objects being deleted, with the simulated time their deletion began
 * (metadata.deletionTimestamp).
 */
terminating: { [key in string]: number }, 
/**
 * The custom resource's key space (see `crate::ownership`), absent
 * from a store built without one: its metadata, under its name.
 */
customResource?: World, };

/**
 * Why a pass planned nothing without calling `reconcile`.
 */
export type PassSkip = { "kind": "expecting-creations", pending: number, } | { "kind": "stale-cache", informer: WatchedKind, read: number, wrote: number, };

/**
 * One pass of the loop.
 */
export type PassRecord = { 
/**
 * 1-based.
 */
index: number, 
/**
 * The key the pass reconciled: its custom resource's name. Left out
 * of the JSON for a scenario's one custom resource.
 */
customResource?: string, startedAt: number, finishedAt: number, trigger: Trigger, 
/**
 * Set when the controller planned nothing without calling `reconcile`
 * (its expectations were not satisfied).
 */
skipped?: PassSkip, actions: Array<ActionOutcome>, crashed: boolean, 
/**
 * The world right after the pass (shared with the previous pass when unchanged).
 */
worldAfter: World, 
/**
 * How many actions `reconcile` would return right after the pass.
 */
outOfSync: number, terminating: number, 
/**
 * The status the pass wrote to its custom resource, after its actions
 * (only with `statusWrites`; see `status_writes`).
 */
statusWrite?: StatusWrite, };

/**
 * What the garbage collector did (see `engine::gc`). `object` is `None`
 * for the custom resource.
 */
export type GcAction = { "kind": "deleted", object: string | null, propagation: PropagationPolicy, objectDeleted: boolean, } | { "kind": "owner-references-removed", object: string | null, } | { "kind": "finalizer-removed", object: string | null, finalizer: string, objectDeleted: boolean, };

/**
 * A kind the controller watches: each has a reflector of its own.
 */
export type WatchedKind = "custom-resource" | "object";

/**
 * Something that happened between passes, for the timeline's log.
 */
export type Happening = { "kind": "watch-broken", name: string, change: Change, } | { "kind": "watch-resumed", 
/**
 * Whose reflector: the custom resource's informer or the objects'.
 */
informer: WatchedKind, resourceVersion: number, replayed: number, } | { "kind": "watch-expired", 
/**
 * Whose reflector: the custom resource's informer or the objects'.
 */
informer: WatchedKind, resourceVersion: number, oldest: number, } | { "kind": "relisted", 
/**
 * Whose reflector: the custom resource's informer or the objects'.
 */
informer: WatchedKind, deleted: Array<string>, } | { "kind": "deferred", trigger: Trigger, } | { "kind": "external-event", event: WorldEvent, effect: string, } | { "kind": "finalizer-removed", object: string, finalizer: string, 
/**
 * It was the last one: the API server deleted the object in that update.
 */
objectDeleted: boolean, } | { "kind": "pod-stopped", object: string, 
/**
 * Gone from the store; false while finalizers are pending.
 */
objectDeleted: boolean, } | { "kind": "rejected", object: string, reason: string, } | { "kind": "other-writer-wrote", writer: string, object: string, path: string, value: Json, } | { "kind": "crashed", pass: number, } | { "kind": "restarted" } | { "kind": "requeue-merged", requestedAt: number, readyAt: number, } | { "kind": "garbage-collector", action: GcAction, };

export type LogEntry = { at: number, 
/**
 * The number of passes finished when it happened.
 */
afterPass: number, } & ({ "kind": "watch-broken", name: string, change: Change, } | { "kind": "watch-resumed", 
/**
 * Whose reflector: the custom resource's informer or the objects'.
 */
informer: WatchedKind, resourceVersion: number, replayed: number, } | { "kind": "watch-expired", 
/**
 * Whose reflector: the custom resource's informer or the objects'.
 */
informer: WatchedKind, resourceVersion: number, oldest: number, } | { "kind": "relisted", 
/**
 * Whose reflector: the custom resource's informer or the objects'.
 */
informer: WatchedKind, deleted: Array<string>, } | { "kind": "deferred", trigger: Trigger, } | { "kind": "external-event", event: WorldEvent, effect: string, } | { "kind": "finalizer-removed", object: string, finalizer: string, 
/**
 * It was the last one: the API server deleted the object in that update.
 */
objectDeleted: boolean, } | { "kind": "pod-stopped", object: string, 
/**
 * Gone from the store; false while finalizers are pending.
 */
objectDeleted: boolean, } | { "kind": "rejected", object: string, reason: string, } | { "kind": "other-writer-wrote", writer: string, object: string, path: string, value: Json, } | { "kind": "crashed", pass: number, } | { "kind": "restarted" } | { "kind": "requeue-merged", requestedAt: number, readyAt: number, } | { "kind": "garbage-collector", action: GcAction, });

export type NotConvergingReason = { "kind": "stuck-finalizer", object: string, finalizer: string, } | { "kind": "oscillation", object: string, field: string, otherWriter: string | null, } | { "kind": "pass-limit", limit: number, } | { "kind": "apply-conflict", object: string, message: string, } | { "kind": "no-trigger", outOfSync: number, } | { "kind": "status-hot-loop", field: string, passes: number, };

/**
 * How the run ended.
 */
export type Verdict = { "verdict": "converged", passes: number, time: number, } | { "verdict": "not-converging", reason: NotConvergingReason, };

/**
 * What `simulate` returns.
 */
export type Timeline = { passes: Array<PassRecord>, log: Array<LogEntry>, 
/**
 * Every step the controller took part in (requests, watch events,
 * queue adds, reconcile start and end), the first 10,000.
 */
events: EventLog, verdict: Verdict, 
/**
 * "Converged after 2 passes (t = 25 ms)", "Not converging: ...".
 */
verdictText: string, };

/**
 * What `simulateVerdict` returns: the end of a run without its passes.
 */
export type SimVerdict = { 
/**
 * How many passes ran.
 */
passes: number, verdict: Verdict, verdictText: string, };

/**
 * Whether reconcile, run again on what its own actions produced, writes again.
 */
export type Idempotence = { "kind": "idempotent" } | { "kind": "not-idempotent", again: Array<Action>, };

/**
 * Whether the loop recovers from a crash at any point of its first pass.
 */
export type RestartSurvival = { "kind": "survives", points: number, } | { "kind": "fails", afterActions: number, verdict: Verdict, repeated: string | null, };

/**
 * The three verdicts.
 */
export type LoopVerdicts = { converges: Verdict, idempotence: Idempotence, restart: RestartSurvival, };

/**
 * A verdict in words, and whether it is the good one.
 */
export type VerdictText = { holds: boolean, text: string, };

/**
 * The three verdicts, worded as the simulation words its own.
 */
export type LoopTexts = { converges: VerdictText, idempotence: VerdictText, restart: VerdictText, };

/**
 * How a learner's reconcile did in the loop: the three verdicts, each
 * also in words; or why the check ended early.
 */
export type LoopOutcome = { verdicts: LoopVerdicts | null, 
/**
 * The verdicts in words: converges, idempotence, restart.
 */
texts: LoopTexts | null, 
/**
 * The reconcile raised, or returned something that is not an action list.
 */
error: string | null, };

/**
 * The key a reconcile is for: controller-runtime's `reconcile.Request`.
 */
export type ReconcileRequest = { name: string, namespace: string, };

/**
 * Where a `get` reads.
 */
export type Read = "cache" | "live";

/**
 * How a patch body reads.
 */
export type PatchKind = "merge" | "json";

/**
 * One call of the learner's client, as JSON names it:
 * `{"method": "get", "kind": "ConfigMap", "name": "shop-config"}`.
 * A missing `namespace` is the request's.
 */
export type ClientCall = { "method": "get", kind: string, name: string, namespace: string | null, read: Read, } | { "method": "list", kind: string, namespace: string | null, 
/**
 * Equality selectors on `metadata.labels`.
 */
labels: { [key in string]: Json }, } | { "method": "create", object: Json, } | { "method": "update", object: Json, } | { "method": "patch", kind: string, name: string, namespace: string | null, patch: Json, type: PatchKind, 
/**
 * A precondition: `MergeFromWithOptimisticLock`.
 */
resourceVersion: string | null, } | { "method": "apply", object: Json, fieldManager: string, force: boolean, } | { "method": "delete", kind: string, name: string, namespace: string | null, 
/**
 * `metav1.DeletionPropagation` (`Orphan`, `Background`,
 * `Foreground`, in any case); the kind's default when left out.
 */
propagationPolicy: PropagationPolicy | null, } | { "method": "updateStatus", object: Json, } | { "method": "patchStatus", kind: string, name: string, namespace: string | null, patch: Json, } | { "method": "ensureLoadBalancer", name: string, } | { "method": "getLoadBalancer", name: string, } | { "method": "deleteLoadBalancer", name: string, };

/**
 * A refused request: apimachinery's `StatusError`, as the learner sees it.
 */
export type ApiFailure = { 
/**
 * The HTTP status: 400, 404, 409, 422 or 503.
 */
status: number, 
/**
 * `metav1.StatusReason`: `NotFound`, `AlreadyExists`, `Conflict`,
 * `Invalid`, `BadRequest`, `ServiceUnavailable`.
 */
reason: string, message: string, };

/**
 * Why a call returned no object.
 */
export type CallError = { "kind": "api" } & ApiFailure | { "kind": "misuse", method: string, message: string, } | { "kind": "crashed", method: string, } | { "kind": "notReconciling", method: string, };

/**
 * What a reconcile returned: controller-runtime's `(Result, error)`.
 */
export type ReconcileOutcome = { "kind": "done" } | { "kind": "requeueAfter", ms: number, } | { "kind": "error", message: string, } | { "kind": "terminal", message: string, } | { "kind": "crashed" };

/**
 * One call and its answer.
 */
export type CallRecord = { 
/**
 * When the call was made, and when its answer came.
 */
at: number, answeredAt: number, call: ClientCall, answer: { Ok : Json } | { Err : CallError }, 
/**
 * Whether the store changed: a write that succeeded and was no no-op.
 */
changedStore: boolean, };

/**
 * One reconcile of a driven run.
 */
export type ReconcileRecord = { 
/**
 * The engine's pass, from 1: its entry in the run's timeline.
 */
pass: number, name: string, namespace: string, startedAt: number, 
/**
 * The controller process (0 at first, bumped by each crash).
 */
incarnation: number, 
/**
 * Whether the exercise's goal held in the cache and the store when it
 * started: a reconcile of a converged world must write nothing.
 */
convergedAtStart: boolean, calls: Array<CallRecord>, 
/**
 * `None` while it runs.
 */
outcome: ReconcileOutcome | null, 
/**
 * What the code returned when a crash came as it returned (`outcome`
 * is then `Crashed`). The engine may still have taken it: a replay
 * returns it again.
 */
returned?: ReconcileOutcome, };

/**
 * One property, and whether the run kept it.
 */
export type Property = { name: string, held: boolean, 
/**
 * Why it broke, in plain words; empty when it held.
 */
detail: string, };

/**
 * How a run of a controller exercise ended: quiet at the goal, idle
 * (nothing more could happen), or at a limit (the pass limit, a hot
 * loop), with the engine's verdict in words.
 */
export type ControllerRunEnd = { "kind": "quiet", at: number, } | { "kind": "idle", verdict: Verdict, verdictText: string, } | { "kind": "limit", verdict: Verdict, verdictText: string, };

/**
 * One kind of fault, as issue 30 lists them.
 */
export type Fault = "crash-before" | "crash-after-applied" | "crash-after-response" | "unavailable" | "lost-response" | "watch-broken" | "api-server-restart" | "cache-lag" | "other-writer" | "custom-resource-deleted";

/**
 * A fault at request `at` (from 0) of the controller.
 */
export type Placed = { at: number, fault: Fault, };

/**
 * A short list of placed faults, sorted by point.
 */
export type Schedule = Array<Placed>;

/**
 * The schedule to run next, and how many processes it may need: one,
 * and one more for each crash it places.
 */
export type NextSchedule = { schedule: Schedule, processes: number, };

/**
 * The schedule that broke a property, shrunk, and its run.
 */
export type ControllerCounterexample = { 
/**
 * The property that broke, and why, in plain words.
 */
property: string, detail: string, schedule: Schedule, 
/**
 * The schedule as a short story, one sentence a fault.
 */
story: Array<string>, 
/**
 * Each reconcile's calls and answers, to replay without the code.
 */
record: Array<ReconcileRecord>, 
/**
 * The runs shrinking took.
 */
shrinkRuns: number, };

/**
 * What the check found.
 */
export type ControllerCheckReport = { passed: boolean, schedulesExplored: number, 
/**
 * The properties: all held, or those of the failing run.
 */
properties: Array<Property>, counterexample: ControllerCounterexample | null, 
/**
 * The requests of the fault-free run: the points of single faults.
 */
faultFreeRequests: number, 
/**
 * The schedules run, in order.
 */
explored: Array<Schedule>, };

/**
 * How one action of either list stands against the other list.
 */
export type Mark = "same" | "missing" | "unexpected" | "moved";

/**
 * A place where the learner's language compares differently from JSON, or
 * a trap of the language that the counterexample holds.
 */
export type EqualityNote = "python-bool-is-int" | "js-identity" | "text-differs" | "utf16-order" | "js-inherited-name" | "js-integer-keys" | "js-null-spec" | "js-falsy-spec" | "python-none-spec" | "python-falsy-spec";

/**
 * Where the learner's language compares differently from JSON, explained.
 */
export type NoteView = { note: EqualityNote, text: string, };

/**
 * The minimal case the learner's reconcile gets wrong, and why.
 */
export type CounterexampleView = { desired: Resources, observed: Resources, 
/**
 * `null` both when the argument was `null` and when it was left out
 * (`finalizersOmitted`).
 */
finalizers: Finalizers | null, finalizersOmitted: boolean, expected: Array<Action>, 
/**
 * What it returned, when it returned an action list.
 */
actual: Array<Action> | null, 
/**
 * What it raised, or why its result is not an action list.
 */
error: string | null, expectedMarks: Array<Mark>, actualMarks: Array<Mark>, 
/**
 * The rule that was broken, in words.
 */
rule: string, notes: Array<NoteView>, };

/**
 * How a check of a learner's reconcile ended.
 */
export type CheckOutcome = { passed: boolean, 
/**
 * Cases run, shrink candidates included.
 */
total: number, counterexample: CounterexampleView | null, };

/**
 * The format of a document's text.
 */
export type Format = "json" | "yaml";

/**
 * One object of a manifest, beside the resource it became.
 */
export type ManifestObject = { 
/**
 * The resource name: `Kind/namespace/name` or `Kind/name`.
 */
name: string, kind: string, 
/**
 * `null` (`None`) for a cluster-scoped kind.
 */
namespace: string | null, 
/**
 * `metadata.finalizers`, taken out of the spec.
 */
finalizers: Array<string>, 
/**
 * The server-populated fields taken out of the spec, nested as they
 * were (`{"metadata": {"uid": …}, "status": {…}}`); `{}` when none.
 */
setAside: Json, 
/**
 * `metadata.deletionTimestamp`: the object is terminating.
 */
deletionTimestamp: string | null, 
/**
 * Where the object starts in the text (1-based): its document's first
 * line (its `---`, if it has one), or its item's in a List.
 */
line: number, };

/**
 * What `readDocuments` returns: the scenario as `reconcileYaml` reads
 * it (finalizers filled from the manifests), each document's format,
 * and the manifests' objects, with the fields set aside from each.
 */
export type ReadDocuments = { scenario: Scenario, desiredFormat: Format, observedFormat: Format, 
/**
 * Empty unless desired was Kubernetes manifests; in name order.
 */
desiredManifests: Array<ManifestObject>, observedManifests: Array<ManifestObject>, };

/**
 * The options of the YAML functions: kinds to read as cluster-scoped
 * (named `Kind/name`), beyond the built-in ones.
 */
export type YamlOptions = { clusterScoped?: Array<string>, };
