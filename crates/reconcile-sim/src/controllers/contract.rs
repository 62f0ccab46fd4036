//! The contract controller: the seed's `reconcile` as a controller over the
//! [`client`](super::client). Start at [`ContractController`].
//!
//! Each reconcile reads its custom resource and objects from the cache,
//! asks for a plan (the contract's `reconcile`, or a learner's), and sends
//! each action as one request: CREATE a POST, UPDATE a PUT of the version it
//! read, FINALIZE and DELETE both a DELETE (the server decides from the
//! finalizers whether the object goes or starts terminating). After the
//! last action it may write status. Its options are the settings
//! `compare`, `writes`, `naming`, `statusWrites` and
//! `requeueWhileTerminatingMs`. With `writes` set to apply, CREATE and
//! UPDATE are each a server-side apply of the desired spec.
//!
//! As `replica_set.go` uses expectations (with `naming` keeping them):
//! - a reconcile whose expectations are not satisfied plans nothing
//!   (`syncReplicaSet`: `rsNeedsSync`);
//! - a plan with k CREATEs sets `ExpectCreations(k)` before the first request
//!   (`manageReplicas`);
//! - a CREATE that fails, or is never sent, is observed at once
//!   (`manageReplicas`: "the informer won't observe this pod");
//! - the event handler observes each object it sees added that this
//!   controller owns and that is not terminating (`addPod`);
//! - a restart starts with none (they live in memory).
//!
//! Invariant: it imports only the client and its own options (the
//! `layering` test checks).

use std::sync::Arc;

use reconcile_core::json::Json;
use reconcile_core::model::Resources;
use reconcile_core::reconcile::{Action, ActionKind};

use super::client::{
    load_balancer_of, Answer, ApiError, Apply, Cache, Client, CloudCall, ConsistencyStore, Millis,
    ObjectKey, ObjectState, OwnerRefs, Patch, ReconcileError, Replaces, Request, SortedMap,
    WatchedKind, CLOUD_FINALIZER,
};
use super::comparison::{update_spec, SpecComparison};
use super::controller::{Controller, PlanInput, Planned, Recorded, Returned, Sent, Start, Worker};
use super::expectations::{ControllerExpectations, PassSkip};
use super::naming::{generate_name_prefix, named_view, NamedView, ObjectNaming};
use super::outcome::ActionResult;
use super::status_writes::{status_after_pass, StatusInput, StatusWrites};
use super::writes::{ObjectWrites, FIELD_MANAGER};

/// The contract controller's options.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ContractOptions {
    pub compare: SpecComparison,
    /// POST and PUT, or server-side apply under [`FIELD_MANAGER`].
    pub writes: ObjectWrites,
    pub naming: ObjectNaming,
    pub status_writes: StatusWrites,
    /// `RequeueAfter` while an object it finalized is still terminating.
    pub requeue_while_terminating_ms: Option<Millis>,
    /// KEP-5647: defer a reconcile until the informers have seen this
    /// controller's own last writes, as kube-controller-manager's
    /// ReplicaSet controller does since Kubernetes v1.36.
    pub consistency_store: bool,
    /// Keep a cloud load balancer for the custom resource, behind the
    /// controller's own finalizer (`crate::cloud`).
    pub cloud: bool,
}

/// The seed's `reconcile` as a controller.
///
/// One instance serves every worker, as one `Reconciler` serves
/// controller-runtime's `MaxConcurrentReconciles` goroutines: what it
/// keeps across reconciles (expectations, owner references, KEP-5647's
/// store) is shared; each worker's reconcile in progress is its own
/// ([`Reconcile`]), switched in when the engine calls for that worker.
#[derive(Debug)]
pub struct ContractController {
    options: ContractOptions,
    expectations: ControllerExpectations,
    /// The controller reference it puts on what it creates for each custom
    /// resource, read from that custom resource in the cache.
    owner_refs: SortedMap<Arc<str>, OwnerRefs>,
    /// What a reconcile reads for a custom resource the cache has no spec
    /// of (none: the engine hands out only keys of the run's custom resources).
    no_spec: Resources,
    /// What it wrote and its informers may not have seen (KEP-5647).
    consistency: ConsistencyStore,
    /// The worker whose reconcile is in `now`.
    worker: Worker,
    now: Reconcile,
    /// The other workers' reconciles, by worker (`now`'s slot is empty).
    parked: Vec<Reconcile>,
}

/// One worker's reconcile: its request and what it has read and sent.
#[derive(Debug, Default)]
struct Reconcile {
    /// The custom resource it is for: its request.
    key: Arc<str>,
    /// What it lists, when the cache holds other custom resources
    /// (`None`: the whole cache).
    owned: Option<Cache>,
    /// The view of the cache it read, when the controller generates names.
    named_view: Option<NamedView>,
    /// The requests it sends before its plan's: its finalizer and its
    /// load balancer, with the `cloud` option.
    setup: Vec<Request>,
    pass: Option<ContractPass>,
}

/// The reconcile in progress.
#[derive(Debug, Default)]
struct ContractPass {
    /// What it sends before the plan (`ContractController::set_up`), or
    /// instead of one (`ContractController::clean_up`).
    before: Vec<Request>,
    /// The plan reconcile returned, sent in order.
    plan: Vec<Action>,
    /// The resourceVersion each UPDATE read: a PUT of the object as it was
    /// read, so a write since then makes it a 409 Conflict, even when the
    /// cache has caught up by the time the request goes out.
    read_versions: Vec<Option<u64>>,
    /// What each UPDATE sends, where it is not the action's spec: the
    /// object as read with the fields it sets written over it, when the
    /// controller compares only those (`comparison::update_spec`).
    update_specs: Vec<Option<Json>>,
    /// The object each action goes to, where it is not the action's name
    /// (the named view's stand-ins).
    targets: Vec<Option<Arc<str>>>,
    /// What each answer was.
    results: Vec<ActionResult>,
    /// Requests sent so far.
    sent: usize,
    failed: bool,
    /// What the status write after the last action needs.
    status: Option<StatusInput>,
}

impl ContractController {
    pub fn new(options: ContractOptions) -> Self {
        Self {
            options,
            expectations: ControllerExpectations::default(),
            owner_refs: SortedMap::new(),
            no_spec: Resources::new(),
            consistency: ConsistencyStore::default(),
            worker: 0,
            now: Reconcile::default(),
            parked: Vec::new(),
        }
    }

    /// Switches `worker`'s reconcile in.
    fn on(&mut self, worker: Worker) {
        if worker == self.worker {
            return;
        }
        let slots = worker.max(self.worker) + 1;
        if self.parked.len() < slots {
            self.parked.resize_with(slots, Reconcile::default);
        }
        std::mem::swap(&mut self.now, &mut self.parked[self.worker]);
        std::mem::swap(&mut self.now, &mut self.parked[worker]);
        self.worker = worker;
    }

    /// `worker`'s reconcile, read without switching.
    fn of(&self, worker: Worker) -> &Reconcile {
        if worker == self.worker {
            return &self.now;
        }
        self.parked.get(worker).unwrap_or(&self.now)
    }

    /// Before the plan, as kubebuilder's "Using Finalizers" does: add its
    /// finalizer if missing, then ensure the external resource.
    fn set_up(&self, cr: &ObjectState) -> Vec<Request> {
        let mut requests = Vec::new();
        if !cr.finalizers.iter().any(|f| f == CLOUD_FINALIZER) {
            let mut list = cr.finalizers.clone();
            list.push(CLOUD_FINALIZER.to_owned());
            let patch = finalizers_patch(list, cr.meta.resource_version);
            let name = Arc::clone(&self.now.key);
            requests.push(Request::PatchCustomResource { name, patch });
        }
        let name = load_balancer_of(&self.now.key);
        requests.push(Request::Cloud {
            call: CloudCall::Ensure { name },
        });
        requests
    }

    /// Its custom resource is being deleted and holds its finalizer: delete
    /// the external resource, then remove the finalizer. A failure returns
    /// the error, so the resource stays terminating until a retry succeeds.
    fn clean_up(&mut self, cr: &ObjectState) -> Planned {
        let rest: Vec<String> = cr
            .finalizers
            .iter()
            .filter(|f| *f != CLOUD_FINALIZER)
            .cloned()
            .collect();
        let name = load_balancer_of(&self.now.key);
        let before = vec![
            Request::Cloud {
                call: CloudCall::Delete { name },
            },
            Request::PatchCustomResource {
                name: Arc::clone(&self.now.key),
                patch: finalizers_patch(rest, cr.meta.resource_version),
            },
        ];
        let requests = before.len();
        self.now.pass = Some(ContractPass {
            before,
            ..ContractPass::default()
        });
        Planned {
            requests,
            before: requests,
            ..Planned::default()
        }
    }

    /// `EnsureReady` before a reconcile (`syncReplicaSet`): a stale
    /// informer makes the reconcile return the error, planning nothing.
    fn stale_cache(&mut self, client: &Client<'_>) -> Option<PassSkip> {
        if !self.options.consistency_store {
            return None;
        }
        let error = self
            .consistency
            .ensure_ready(&self.now.key, |kind| Some(client.synced(kind)))
            .err()?;
        Some(PassSkip::StaleCache {
            informer: error.kind,
            read: error.read,
            wrote: error.wrote,
        })
    }

    /// `WroteAt` after a write that returned an object.
    fn wrote(&mut self, kind: WatchedKind, resource_version: Option<u64>, client: &Client<'_>) {
        let owner = client.get(&ObjectKey::CustomResource(Arc::clone(&self.now.key)));
        if let (true, Some(version), Some(owner)) =
            (self.options.consistency_store, resource_version, owner)
        {
            self.consistency
                .wrote_at(&self.now.key, owner.meta.uid, kind, version);
        }
    }

    /// The controller reference to custom resource `key`.
    fn owner_refs(&mut self, key: &Arc<str>, client: &Client<'_>) -> OwnerRefs {
        if let Some(refs) = self.owner_refs.get(key) {
            return refs.clone();
        }
        let refs = client.cache().controller_owner_refs(key);
        self.owner_refs.insert(Arc::clone(key), refs.clone());
        refs
    }

    /// What the reconcile in progress lists: the cache, or its part the
    /// custom resource owns.
    fn listed<'c>(&'c self, client: &Client<'c>) -> &'c Cache {
        self.now.owned.as_ref().unwrap_or(client.cache())
    }

    /// Why the reconcile starting now plans nothing: its expectations are
    /// not satisfied. `None` for a controller that keeps none.
    fn expectations_skip(&self, now: Millis) -> Option<PassSkip> {
        let key = &*self.now.key;
        if !self.options.naming.keeps_expectations() || self.expectations.satisfied(key, now) {
            return None;
        }
        let (add, _) = self.expectations.get(key)?;
        Some(PassSkip::ExpectingCreations {
            pending: u64::try_from(add).unwrap_or(0),
        })
    }

    /// What the status write after the actions will need, when it writes status.
    fn status_input(&self, client: &Client<'_>, in_sync: bool) -> Option<StatusInput> {
        let key_live = client.cache().custom_resource_live(&self.now.key);
        if self.options.status_writes == StatusWrites::None || !key_live {
            return None;
        }
        let read = client.get(&ObjectKey::CustomResource(Arc::clone(&self.now.key)))?;
        Some(StatusInput {
            read_status: read.spec.get("status").cloned(),
            generation: read.meta.generation,
            resource_version: read.meta.resource_version,
            in_sync,
        })
    }

    /// Starts a reconcile of `plan`: what it sends and the record shows.
    fn begin(
        &mut self,
        plan: Vec<Action>,
        skipped: Option<PassSkip>,
        client: &Client<'_>,
    ) -> Planned {
        let status = self.status_input(client, plan.is_empty());
        let before = std::mem::take(&mut self.now.setup);
        let before_count = before.len();
        let requests = before.len() + plan.len() + usize::from(status.is_some());
        let targets = self.targets(&plan);
        // Only an UPDATE sends a version; looking up the others would cost
        // a long plan one cache lookup per action for nothing.
        let read_versions = plan
            .iter()
            .zip(&targets)
            .map(|(action, target)| {
                let name = target.as_ref().unwrap_or(&action.name);
                (action.kind == ActionKind::Update)
                    .then(|| self.listed(client).meta(name))
                    .flatten()
                    .map(|m| m.resource_version)
            })
            .collect();
        let update_specs = self.update_specs(&plan, &targets, client);
        self.expect_creations(&plan, client.now());
        self.now.pass = Some(ContractPass {
            before,
            results: vec![ActionResult::NotAttempted; plan.len()],
            plan: plan.clone(),
            read_versions,
            update_specs,
            targets,
            status,
            ..ContractPass::default()
        });
        Planned {
            actions: plan,
            skipped,
            requests,
            before: before_count,
        }
    }

    /// The objects the actions of `plan` go to, where they differ from the
    /// action's name (a CREATE's generated name is drawn when it is sent).
    fn targets(&self, plan: &[Action]) -> Vec<Option<Arc<str>>> {
        let Some(view) = &self.now.named_view else {
            return vec![None; plan.len()];
        };
        plan.iter()
            .map(|action| {
                let target = view.target(&action.name);
                (action.kind != ActionKind::Create && *target != action.name)
                    .then(|| Arc::clone(target))
            })
            .collect()
    }

    /// What each UPDATE of `plan` sends where that is not its spec: only
    /// when the controller compares the fields it sets (else none is looked up).
    fn update_specs(
        &self,
        plan: &[Action],
        targets: &[Option<Arc<str>>],
        client: &Client<'_>,
    ) -> Vec<Option<Json>> {
        if self.options.compare == SpecComparison::WholeSpec {
            return Vec::new();
        }
        plan.iter()
            .zip(targets)
            .map(|(action, target)| {
                let name = target.as_ref().unwrap_or(&action.name);
                let desired = action.spec.as_ref()?;
                let read = self.listed(client).observed.get(name);
                (action.kind == ActionKind::Update)
                    .then(|| update_spec(self.options.compare, desired, read))
            })
            .collect()
    }

    /// `ExpectCreations` for the plan about to be sent.
    fn expect_creations(&mut self, plan: &[Action], now: Millis) {
        let creates = plan.iter().filter(|a| a.kind == ActionKind::Create).count();
        if self.options.naming.keeps_expectations() && creates > 0 {
            let adds = i64::try_from(creates).unwrap_or(i64::MAX);
            self.expectations.expect_creations(&self.now.key, adds, now);
        }
    }

    /// The request that carries out action `index` of the running pass.
    fn action_request(&mut self, index: usize, client: &Client<'_>) -> Option<Request> {
        let owners = self.owner_refs(&Arc::clone(&self.now.key), client);
        let pass = self.now.pass.as_ref()?;
        let action = pass.plan.get(index)?;
        let target = pass.targets.get(index).cloned().flatten();
        let name = target.unwrap_or_else(|| Arc::clone(&action.name));
        let spec = pass
            .update_specs
            .get(index)
            .cloned()
            .flatten()
            .or_else(|| action.spec.clone())
            .unwrap_or(Json::Null);
        let generates = self.options.naming.generates_names();
        let apply = |name, force| Request::Apply {
            name,
            apply: Apply {
                config: action.spec.clone().unwrap_or(Json::Null),
                field_manager: FIELD_MANAGER.into(),
                force,
            },
            owner_references: owners.clone(),
        };
        Some(match (action.kind, self.options.writes.applies()) {
            (ActionKind::Create, Some(force)) if !generates => apply(name, force),
            (ActionKind::Update, Some(force)) => apply(name, force),
            (ActionKind::Create, _) => Request::Create {
                generate_name: generates.then(|| generate_name_prefix(&name)),
                name,
                spec,
                owner_references: owners,
                finalizers: Vec::new(),
            },
            (ActionKind::Update, None) => Request::Update {
                name,
                spec,
                resource_version: pass.read_versions.get(index).copied().flatten(),
                replaces: Replaces::Spec,
            },
            (ActionKind::Finalize | ActionKind::Delete, _) => Request::Delete {
                name,
                propagation: None,
            },
        })
    }

    /// The status write after the last action.
    fn status_request(&self, client: &Client<'_>) -> Option<Request> {
        let input = self.now.pass.as_ref()?.status.as_ref()?;
        Some(Request::UpdateStatus {
            name: Arc::clone(&self.now.key),
            status: status_after_pass(self.options.status_writes, input, client.now()),
            resource_version: input.resource_version,
        })
    }
}

impl Controller for ContractController {
    fn start(&mut self, worker: Worker, request: &Arc<str>, client: &Client<'_>) -> Start {
        self.on(worker);
        self.now.pass = None;
        self.now.setup.clear();
        self.now.owned = None;
        self.now.key = Arc::clone(request);
        // A custom resource gone (NotFound) or being deleted: the reconciler
        // returns at once, as controller-runtime's do; the garbage collector
        // takes care of what it owned. Only its own finalizer is its work.
        let Some(cr) = client.get(&ObjectKey::CustomResource(Arc::clone(request))) else {
            self.consistency.clear(request, None);
            return Start::Planned(Planned::default());
        };
        if cr.deletion_timestamp.is_some() {
            let ours = cr.finalizers.iter().any(|f| f == CLOUD_FINALIZER);
            if self.options.cloud && ours {
                return Start::Planned(self.clean_up(&cr));
            }
            return Start::Planned(Planned::default());
        }
        if let Some(skip) = self.stale_cache(client) {
            // The error requeues the key with the rate limiter.
            self.now.pass = Some(ContractPass {
                failed: true,
                ..ContractPass::default()
            });
            return Start::Planned(Planned {
                skipped: Some(skip),
                ..Planned::default()
            });
        }
        let _ = self.owner_refs(request, client);
        if self.options.cloud {
            self.now.setup = self.set_up(&cr);
        }
        if let Some(skip) = self.expectations_skip(client.now()) {
            return Start::Planned(self.begin(Vec::new(), Some(skip), client));
        }
        self.now.owned = client.owned_by(request);
        let desired = client.desired(request).unwrap_or(&self.no_spec);
        self.now.named_view = named_view(self.options.naming, desired, self.listed(client));
        Start::Plan
    }

    fn plan_input<'s>(&'s self, worker: Worker, client: &Client<'s>) -> PlanInput<'s> {
        let reconcile = self.of(worker);
        let cache = reconcile.owned.as_ref().unwrap_or(client.cache());
        let (observed, finalizers) = reconcile
            .named_view
            .as_ref()
            .map_or((&cache.observed, &cache.finalizers), |view| {
                (&view.observed, &view.finalizers)
            });
        PlanInput {
            desired: client.desired(&reconcile.key).unwrap_or(&self.no_spec),
            observed,
            finalizers,
        }
    }

    fn planned(&mut self, worker: Worker, plan: Vec<Action>, client: &Client<'_>) -> Planned {
        self.on(worker);
        self.begin(plan, None, client)
    }

    fn sends_more(&self, worker: Worker) -> bool {
        self.of(worker).pass.as_ref().is_some_and(|pass| {
            let total = pass.before.len() + pass.plan.len() + usize::from(pass.status.is_some());
            !pass.failed && pass.sent < total
        })
    }

    fn request(&mut self, worker: Worker, client: &Client<'_>) -> Option<Sent> {
        self.on(worker);
        let index = self.now.pass.as_ref().map_or(0, |pass| pass.sent);
        let before = self.now.pass.as_ref().map_or(0, |pass| pass.before.len());
        let planned = self.now.pass.as_ref().map_or(0, |pass| pass.plan.len());
        let (request, serves) = if index < before {
            let request = self
                .now
                .pass
                .as_ref()
                .and_then(|p| p.before.get(index).cloned());
            (request, None)
        } else if index - before < planned {
            let action = index - before;
            (self.action_request(action, client), Some(action))
        } else {
            (self.status_request(client), None)
        };
        if let Some(pass) = &mut self.now.pass {
            pass.sent += 1;
        }
        Some(Sent {
            request: request?,
            serves,
        })
    }

    fn answered(&mut self, worker: Worker, answer: &Answer, client: &Client<'_>) -> Recorded {
        self.on(worker);
        let (sent, before, planned) = self.now.pass.as_ref().map_or((0, 0, 0), |pass| {
            (pass.sent, pass.before.len(), pass.plan.len())
        });
        if let Ok(response) = answer {
            // The plan's actions write objects; the rest, the custom resource.
            let kind = if sent > before && sent <= before + planned {
                WatchedKind::Object
            } else {
                WatchedKind::CustomResource
            };
            self.wrote(kind, response.resource_version, client);
        }
        let Some(pass) = &mut self.now.pass else {
            return Recorded {
                result: ActionResult::NotAttempted,
                object: None,
            };
        };
        if let Some(request) = sent.checked_sub(1).and_then(|i| pass.before.get(i)) {
            let result = setup_result(request, answer);
            pass.failed |= matches!(result, ActionResult::Failed { .. });
            return Recorded {
                result,
                object: None,
            };
        }
        let index = sent.saturating_sub(1) - before;
        let action = pass.plan.get(index);
        let kind = action.map(|a| a.kind);
        let result = match answer {
            Ok(response) if !response.written => match kind {
                Some(ActionKind::Finalize | ActionKind::Delete) => ActionResult::AlreadyTerminating,
                _ => ActionResult::Unchanged,
            },
            Ok(_) => ActionResult::Applied,
            // Already gone: what the controller wanted.
            Err(ApiError::NotFound { .. })
                if matches!(kind, Some(ActionKind::Finalize | ActionKind::Delete)) =>
            {
                ActionResult::AlreadyGone
            }
            Err(error) => {
                pass.failed = true;
                ActionResult::Failed {
                    requeued_at: 0,
                    code: error.code(),
                    error: error.to_string(),
                }
            }
        };
        let object = match (kind, answer) {
            (Some(ActionKind::Create), Ok(response)) if self.options.naming.generates_names() => {
                Some(Arc::clone(&response.name))
            }
            (Some(ActionKind::Create), _) => None,
            _ => pass.targets.get(index).cloned().flatten(),
        };
        if let Some(slot) = pass.results.get_mut(index) {
            *slot = result.clone();
        }
        Recorded { result, object }
    }

    fn result(&mut self, worker: Worker) -> Returned {
        self.on(worker);
        let Some(pass) = self.now.pass.take() else {
            return Returned::default();
        };
        // The CREATEs that did not create anything will never be seen by the
        // informer: observed now.
        for (action, result) in pass.plan.iter().zip(&pass.results) {
            let unsent = matches!(
                result,
                ActionResult::Failed { .. }
                    | ActionResult::NotAttempted
                    | ActionResult::LostInCrash
            );
            if action.kind == ActionKind::Create && unsent {
                self.expectations.creation_observed(&self.now.key);
            }
        }
        let finalizing = pass.plan.iter().zip(&pass.results).any(|(action, result)| {
            action.kind == ActionKind::Finalize
                && matches!(
                    result,
                    ActionResult::Applied | ActionResult::AlreadyTerminating
                )
        });
        Returned {
            error: pass.failed.then_some(ReconcileError::Transient),
            requeue_after: self
                .options
                .requeue_while_terminating_ms
                .filter(|_| finalizing),
        }
    }

    /// `addPod`: an object added with a controller reference to one of
    /// its custom resources lowers that key's expectations.
    fn on_added(&mut self, state: &ObjectState, client: &Client<'_>) {
        let refs = &state.meta.owner_references;
        let Some(key) = refs.controlling_custom_resource() else {
            return;
        };
        let ours = self.owner_refs(key, client).controller_uid();
        if ours.is_some() && refs.controller_uid() == ours && state.deletion_timestamp.is_none() {
            self.expectations.creation_observed(key);
        }
    }
}

/// A merge patch that sets the custom resource's finalizers, locked on the
/// resourceVersion read (`MergeFromWithOptimisticLock`).
fn finalizers_patch(finalizers: Vec<String>, resource_version: u64) -> Patch {
    let list = Json::array(finalizers.iter().map(|f| Json::string(f)).collect());
    let metadata = Json::object(vec![("finalizers".into(), list)]);
    Patch::merge(Json::object(vec![("metadata".into(), metadata)]))
        .with_resource_version(resource_version)
}

/// What became of a request sent before the plan. A delete of a load
/// balancer that is already gone is what cleanup wants.
fn setup_result(request: &Request, answer: &Answer) -> ActionResult {
    match answer {
        Ok(response) if !response.written => ActionResult::Unchanged,
        Ok(_) => ActionResult::Applied,
        Err(ApiError::NotFound { .. })
            if matches!(
                request,
                Request::Cloud {
                    call: CloudCall::Delete { .. }
                }
            ) =>
        {
            ActionResult::AlreadyGone
        }
        Err(error) => ActionResult::Failed {
            requeued_at: 0,
            code: error.code(),
            error: error.to_string(),
        },
    }
}
