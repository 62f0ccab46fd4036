//! One pass of the loop: reconcile on the informer's cache, then each action
//! as its own API request, one at a time, interleaved on the clock with
//! everything else that happens meanwhile.

use std::rc::Rc;
use std::sync::Arc;

use super::requeue::PassResult;
use super::ReconcileCall;
use super::{update_change, Engine, Scheduled};
use crate::apiserver::{ApiError, DeleteOptions, Update};
use crate::comparison::{update_spec, SpecComparison};
use crate::events::{success_code, SimEvent};
use crate::expectations::PassSkip;
use crate::ownership::ObjectKey;
use crate::status_writes::{PassKind, StatusInput, StatusWrites};
use crate::workqueue::Millis;
use crate::world::Change;
use crate::{ActionOutcome, ActionResult, PassRecord, Trigger};
use reconcile_core::json::Json;
use reconcile_core::reconcile::{Action, ActionKind};

/// The pass the worker is processing.
#[derive(Debug)]
pub(super) struct RunningPass {
    key: &'static str,
    /// The plan reconcile returned, sent in order.
    plan: Vec<Action>,
    /// The resourceVersion of each action's object in the cache reconcile
    /// read: an UPDATE is a PUT of the object as it was read, so a write
    /// since then makes it a 409 Conflict, even when the cache has caught
    /// up by the time the request goes out.
    read_versions: Vec<Option<u64>>,
    /// What each UPDATE sends, where it is not the action's spec: the
    /// object as read with the fields it sets written over it, when the
    /// controller compares only those (`comparison::update_spec`).
    update_specs: Vec<Option<Json>>,
    /// The object each action goes to, where it is not the action's name
    /// (the named view's stand-ins; `names.rs`).
    targets: Vec<Option<Arc<str>>>,
    /// Crash before sending this action (the crash plan of this pass).
    crash_before: Option<usize>,
    failed_at: Option<usize>,
    /// What the status write after the last action needs (`statusWrites`).
    status: Option<StatusInput>,
}

/// A pass whose reconcile call is out: the worker holds the key while the
/// reconcile runs, wherever it runs.
#[derive(Debug)]
pub(super) struct AwaitedPass {
    key: &'static str,
    trigger: Trigger,
}

impl Engine {
    /// The worker takes the key. Reconcile reads the cache (never the
    /// server): the pass waits for its plan, unless there is nothing to
    /// reconcile. Returns whether the pass now waits.
    pub(super) fn start_pass(&mut self) -> bool {
        let Some(key) = self.queue.get() else {
            return false;
        };
        let trigger = self.triggers.queued.take().unwrap_or(Trigger::Resync);
        let pass = AwaitedPass { key, trigger };
        // A custom resource gone (NotFound) or being deleted: the reconciler
        // returns at once, as controller-runtime's do; the garbage collector
        // takes care of what it owned.
        if !self.informer.cache.custom_resource_live() {
            self.send_plan(pass, Vec::new(), None);
            return false;
        }
        // A ReplicaSet whose expectations are not satisfied skips
        // `manageReplicas` (`syncReplicaSet`).
        if let Some(skip) = self.expectations_skip() {
            self.send_plan(pass, Vec::new(), Some(skip));
            return false;
        }
        self.refresh_named_view();
        self.awaited = Some(pass);
        true
    }

    /// What the next pass's reconcile reads: the informer's cache.
    pub(super) fn reconcile_call(&self) -> ReconcileCall<'_> {
        let cache = &self.informer.cache;
        let (observed, finalizers) = self
            .named_view
            .as_ref()
            .map_or((&cache.observed, &cache.finalizers), |view| {
                (&view.observed, &view.finalizers)
            });
        ReconcileCall {
            pass: self.passes.len() + 1,
            at: self.now,
            desired: &self.informer.desired,
            observed,
            finalizers,
            incarnation: self.incarnation,
        }
    }

    pub(super) fn awaits_plan(&self) -> bool {
        self.awaited.is_some()
    }

    /// The waiting pass's reconcile returned `plan`: its first request goes out.
    pub(super) fn resume_pass(&mut self, plan: Vec<Action>) -> bool {
        match self.awaited.take() {
            Some(pass) => {
                self.send_plan(pass, plan, None);
                true
            }
            None => false,
        }
    }

    fn send_plan(&mut self, pass: AwaitedPass, plan: Vec<Action>, skipped: Option<PassSkip>) {
        let AwaitedPass { key, trigger } = pass;
        // The reconciler got as far as its reconcile (the custom resource lives).
        let key_live = self.informer.cache.custom_resource_live();
        let index = self.passes.len() + 1;
        let start = self.now;
        if !plan.is_empty() {
            self.watch_for_oscillation(&plan);
        }
        let crash_before = self
            .config
            .crash
            .filter(|c| c.at_pass == index)
            .map(|c| c.after_actions);
        // What the status write after the actions reports: read now, before them.
        let status = self.status_input(key_live, plan.is_empty());
        // A bound on when the worker is free, for the resync's tick skipping:
        // every request, the status write included.
        let requests = plan.len() + usize::from(status.is_some());
        let planned = Millis::try_from(requests).unwrap_or(Millis::MAX);
        self.worker_free_at = start.saturating_add(self.config.action_ms.saturating_mul(planned));
        let actions = plan
            .iter()
            .map(|action| ActionOutcome {
                action: action.clone(),
                object: None,
                result: ActionResult::NotAttempted,
            })
            .collect();
        let started = SimEvent::ReconcileStarted {
            pass: index,
            trigger: trigger.clone(),
            actions: plan.len(),
            skipped: skipped.clone(),
        };
        self.passes.push(PassRecord {
            index,
            started_at: start,
            finished_at: start,
            trigger,
            skipped,
            actions,
            crashed: false,
            world_after: self.snapshot(),
            out_of_sync: 0,
            terminating: 0,
            cache_lag: Vec::new(),
            status_write: None,
        });
        self.pass_in_progress = true;
        // Only an UPDATE sends a version; looking up the others would cost
        // a long plan one cache lookup per action for nothing.
        let targets = self.plan_targets(&plan);
        let read_versions = plan
            .iter()
            .zip(&targets)
            .map(|(action, target)| {
                let name = target.as_ref().unwrap_or(&action.name);
                (action.kind == ActionKind::Update)
                    .then(|| self.informer.cache.meta(name))
                    .flatten()
                    .map(|m| m.resource_version)
            })
            .collect();
        let update_specs = self.update_specs(&plan, &targets);
        self.expect_creations(&plan);
        self.running = Some(RunningPass {
            key,
            plan,
            read_versions,
            update_specs,
            targets,
            crash_before,
            failed_at: None,
            status,
        });
        // Recorded once the pass holds its plan, for a picture taken here.
        self.push_event(start, started);
        self.next_request(start, 0);
    }

    /// What each UPDATE of `plan` sends where that is not its spec: only
    /// when the controller compares the fields it sets (else none is looked up).
    fn update_specs(&self, plan: &[Action], targets: &[Option<Arc<str>>]) -> Vec<Option<Json>> {
        if self.config.compare == SpecComparison::WholeSpec {
            return Vec::new();
        }
        plan.iter()
            .zip(targets)
            .map(|(action, target)| {
                let name = target.as_ref().unwrap_or(&action.name);
                let desired = action.spec.as_ref()?;
                let read = self.informer.cache.observed.get(name);
                (action.kind == ActionKind::Update)
                    .then(|| update_spec(self.config.compare, desired, read))
            })
            .collect()
    }

    /// After `sent` requests (the last answered at `at`): the next one goes
    /// out, or the pass ends.
    fn next_request(&mut self, at: Millis, sent: usize) {
        let Some(running) = &self.running else { return };
        let last = running.plan.len() + usize::from(running.status.is_some());
        if running.crash_before == Some(sent) {
            self.mark_rest(sent, &ActionResult::LostInCrash);
            self.finish_pass(at);
        } else if sent >= last {
            self.finish_pass(at);
        } else {
            // A pass still running at the end of simulated time ends there.
            let due = at.saturating_add(self.config.action_ms);
            self.schedule(due, Scheduled::Request { sent });
        }
    }

    /// The response to request number `sent` arrives now.
    pub(super) fn answer_request(&mut self, sent: usize) {
        if self.running.as_ref().is_some_and(|r| sent == r.plan.len()) {
            self.answer_status_write(sent);
            return;
        }
        let Some((action, read_version, mut target)) = self.running.as_ref().and_then(|r| {
            let mut action = r.plan.get(sent)?.clone();
            if let Some(spec) = r.update_specs.get(sent).cloned().flatten() {
                action.spec = Some(spec);
            }
            let target = r.targets.get(sent).cloned().flatten();
            Some((action, r.read_versions.get(sent).copied().flatten(), target))
        }) else {
            return;
        };
        let result = self.respond(|engine| {
            if action.kind == ActionKind::Create {
                // The API server names it (`BeforeCreate`), when asked to.
                target = engine.generated_name(&action.name);
            }
            let name = target.clone().unwrap_or_else(|| Arc::clone(&action.name));
            engine.apply(&action, &name, read_version, engine.now)
        });
        let failed = matches!(result, ActionResult::Failed { .. });
        let code = match &result {
            ActionResult::Failed { code, .. } => *code,
            ActionResult::AlreadyGone => 404,
            _ => success_code(action.kind),
        };
        let request = SimEvent::Request {
            pass: self.passes.len(),
            action: action.kind,
            name: target.as_deref().unwrap_or(&action.name).to_owned(),
            code,
        };
        if let Some(pass) = self.passes.last_mut() {
            pass.actions[sent].result = result;
            pass.actions[sent].object = target;
        }
        self.push_event(self.now, request);
        self.after_response(sent, failed);
    }

    /// The server's answer to a request, unless it fails transiently first
    /// (the failure rate, drawn per request).
    fn respond(
        &mut self,
        send: impl FnOnce(&mut Self) -> Result<ActionResult, ApiError>,
    ) -> ActionResult {
        let response = if self.failures_rng.chance(self.config.failure_rate) {
            Err(ApiError::Unavailable)
        } else {
            send(self)
        };
        response.unwrap_or_else(|error| ActionResult::Failed {
            requeued_at: 0,
            code: error.code(),
            error: error.to_string(),
        })
    }

    /// After the response to request `sent`: the next goes out, or a failure
    /// ends the pass (the idiomatic `return err`: the rest are not sent).
    fn after_response(&mut self, sent: usize, failed: bool) {
        if failed {
            if let Some(running) = &mut self.running {
                running.failed_at = Some(sent);
            }
            self.finish_pass(self.now);
        } else {
            self.next_request(self.now, sent + 1);
        }
    }

    /// The status write after the last action: its response arrives now.
    fn answer_status_write(&mut self, sent: usize) {
        let Some(input) = self.running.as_ref().and_then(|r| r.status.clone()) else {
            return;
        };
        let status =
            crate::status_writes::status_after_pass(self.config.status_writes, &input, self.now);
        let sent_status = status.clone();
        let result =
            self.respond(|engine| engine.write_status(sent_status, input.resource_version));
        let (failed, code) = match &result {
            ActionResult::Failed { code, .. } => (true, *code),
            _ => (false, 200),
        };
        let event = SimEvent::StatusWrite {
            pass: self.passes.len(),
            code,
            changed: result == ActionResult::Applied,
        };
        if let Some(pass) = self.passes.last_mut() {
            pass.status_write = Some(crate::StatusWrite { status, result });
        }
        self.push_event(self.now, event);
        self.after_response(sent, failed);
    }

    /// Notes the pass that just ended: one more that only answered its own
    /// status write, with a new one, makes the hot loop certain.
    fn watch_for_hot_loop(&mut self) {
        let Some(pass) = self.passes.last() else {
            return;
        };
        let wrote = pass
            .status_write
            .as_ref()
            .is_some_and(|w| w.result == ActionResult::Applied);
        let kind = match (&pass.trigger, pass.actions.is_empty(), wrote) {
            (_, false, _) => PassKind::Other,
            (Trigger::CustomResourceStatus, true, true) => PassKind::AnsweredItsStatus,
            (Trigger::CustomResourceStatus | Trigger::Requeue { .. }, true, _) => PassKind::Neutral,
            _ => PassKind::Other,
        };
        let certain = self.watch.hot_loop_watch.note(kind);
        if certain && self.watch.hot_loop.is_none() {
            let field = match self.config.status_writes {
                StatusWrites::WithTimestamp => "status.lastReconcileTime",
                _ => "status",
            };
            self.watch.hot_loop = Some(crate::NotConvergingReason::StatusHotLoop {
                field: field.to_owned(),
                passes: self.watch.hot_loop_watch.passes(),
            });
        }
    }

    /// What a status write after this pass will need, when the controller writes status.
    fn status_input(&self, key_live: bool, in_sync: bool) -> Option<StatusInput> {
        if self.config.status_writes == StatusWrites::None || !key_live {
            return None;
        }
        let read = self.informer.cache.get(&ObjectKey::CustomResource)?;
        Some(StatusInput {
            read_status: read.spec.get("status").cloned(),
            generation: read.meta.generation,
            resource_version: read.meta.resource_version,
            in_sync,
        })
    }

    /// An update of `/status` with the version the pass read; a write raises the custom resource's watch event.
    fn write_status(
        &mut self,
        status: Json,
        resource_version: u64,
    ) -> Result<ActionResult, ApiError> {
        let version = Some(resource_version);
        let outcome = crate::status_writes::write_status(&mut self.world, status, version)?;
        if update_change(outcome).is_none() {
            return Ok(ActionResult::Unchanged);
        }
        self.watch.controller_writes += 1;
        let breaks = self.drops_rng.chance(self.config.watch_break_rate);
        self.custom_resource_event(self.now, Change::Updated, breaks);
        Ok(ActionResult::Applied)
    }

    fn mark_rest(&mut self, from: usize, result: &ActionResult) {
        if let Some(pass) = self.passes.last_mut() {
            // Past the last action (a crash after the status write): none.
            for outcome in pass.actions.iter_mut().skip(from) {
                outcome.result = result.clone();
            }
        }
    }

    /// The pass returns: a crash planned for it happens now (a pass that
    /// ends before its crash point crashes as it ends); otherwise the key
    /// stays processing until `PassDone`, which maps the result to the queue.
    fn finish_pass(&mut self, at: Millis) {
        let Some(running) = self.running.take() else {
            return;
        };
        let Some(start) = self.passes.last().map(|p| p.started_at) else {
            return;
        };
        let end = at.max(start.saturating_add(1));
        self.worker_free_at = end;
        let crashed = running.crash_before.is_some();
        let index = self.passes.len();
        let ended = SimEvent::ReconcileEnded {
            pass: index,
            error: running.failed_at.is_some(),
            crashed,
        };
        self.push_event(end, ended);
        let result = self.passes.last().map_or_else(
            || PassResult::of(&[], None, end),
            |pass| PassResult::of(&pass.actions, running.failed_at, end),
        );
        if let Some(pass) = self.passes.last() {
            let outcomes = pass.actions.clone();
            self.creations_never_seen(&outcomes);
        }
        if crashed {
            // The process is gone before it could requeue: shown as the
            // requeue it would have made, which the crash then voids.
            let requeued_at = self.handle_result(running.key, result);
            if let Some(pass) = self.passes.last_mut() {
                result.show_requeue(pass, requeued_at);
            }
            self.pass_in_progress = false;
            self.crash(index, end);
        } else {
            self.schedule(end, Scheduled::PassDone { result });
        }
        self.schedule_script_after(index, end.saturating_add(1));
        self.schedule_other_writers(end);
        if !crashed {
            self.watch_for_hot_loop();
        }
        let out_of_sync = self.out_of_sync();
        let world_after = self.snapshot();
        let cache_lag = self.cache_lag();
        if let Some(pass) = self.passes.last_mut() {
            pass.finished_at = end;
            pass.crashed = crashed;
            pass.out_of_sync = out_of_sync;
            pass.terminating = world_after.terminating.len();
            pass.world_after = world_after;
            pass.cache_lag = cache_lag;
        }
    }

    /// The store now, shared with the last pass's record when unchanged.
    fn snapshot(&self) -> Rc<crate::world::World> {
        match self.passes.last() {
            Some(last) if *last.world_after == self.world => Rc::clone(&last.world_after),
            _ => Rc::new(self.world.clone()),
        }
    }

    /// Sends one action as its API request; a write raises a watch event.
    /// CREATE is a POST, UPDATE a PUT of the version the pass read, FINALIZE
    /// and DELETE are both a DELETE request: the server decides from the
    /// finalizers whether the object goes or starts terminating.
    fn apply(
        &mut self,
        action: &Action,
        name: &Arc<str>,
        read_version: Option<u64>,
        at: Millis,
    ) -> Result<ActionResult, ApiError> {
        let spec = || action.spec.clone().unwrap_or(Json::Null);
        let change = match action.kind {
            ActionKind::Create => {
                let owners = self.owner_refs.clone();
                self.world.create_owned(name, spec(), Vec::new(), owners)?;
                Some(Change::Added)
            }
            ActionKind::Update => {
                // A PUT of the object the controller read: the version its
                // cache held then, which a write since makes a 409 Conflict.
                let update = Update {
                    spec: Some(spec()),
                    resource_version: read_version,
                    ..Update::default()
                };
                match update_change(self.world.update(name, update)?) {
                    Some(change) => Some(change),
                    None => return Ok(ActionResult::Unchanged),
                }
            }
            ActionKind::Finalize | ActionKind::Delete => {
                match self.delete(name, at) {
                    Ok(change) => change,
                    // Already gone: what the controller wanted.
                    Err(ApiError::NotFound { .. }) => return Ok(ActionResult::AlreadyGone),
                    Err(error) => return Err(error),
                }
            }
        };
        let Some(change) = change else {
            return Ok(ActionResult::AlreadyTerminating);
        };
        self.watch.controller_writes += 1;
        self.watch_event(at, name, change);
        Ok(ActionResult::Applied)
    }

    /// A DELETE request of an object with the default propagation.
    pub(super) fn delete(&mut self, name: &str, at: Millis) -> Result<Option<Change>, ApiError> {
        let key = ObjectKey::Object(Arc::from(name));
        self.delete_key(&key, &DeleteOptions::default(), at)
    }
}
