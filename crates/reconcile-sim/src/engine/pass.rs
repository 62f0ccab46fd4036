//! One pass of the loop: reconcile on the informer's cache, then each action
//! as its own API request, one at a time, interleaved on the clock with
//! everything else that happens meanwhile.

use std::rc::Rc;
use std::sync::Arc;

use super::requeue::PassResult;
use super::ReconcileCall;
use super::{update_change, Engine, Scheduled};
use crate::apiserver::{ApiError, DeleteOptions, Update};
use crate::control_plane::apply::ApplyOutcome;
use crate::control_plane::cloud::CloudCall;
use crate::control_plane::patch::patch_custom_resource;
use crate::control_plane::status;
use crate::controllers::client::{Answer, Client, Request, Response};
use crate::controllers::controller::{Planned, Sent, Start};
use crate::events::SimEvent;
use crate::ownership::ObjectKey;
use crate::status_writes::{PassKind, StatusWrites};
use crate::workqueue::Millis;
use crate::world::Change;
use crate::writes::FIELD_MANAGER;
use crate::{ActionOutcome, ActionResult, PassRecord, Trigger};
use reconcile_core::json::Json;
use reconcile_core::reconcile::{Action, ActionKind};

/// The pass the worker is processing.
#[derive(Debug)]
pub(super) struct RunningPass {
    key: &'static str,
    /// Crash before sending this request (the crash plan of this pass).
    crash_before: Option<usize>,
    /// The action whose failure the reconcile returned (counted among
    /// the plan's actions; the status write follows them).
    failed_at: Option<usize>,
    /// Requests sent before the first action.
    before: usize,
}

/// A pass whose reconcile call is out: the worker holds the key while the
/// reconcile runs, wherever it runs.
#[derive(Debug)]
pub(super) struct AwaitedPass {
    key: &'static str,
    trigger: Trigger,
}

/// The client a controller gets for one step: the informer's cache, now.
macro_rules! client {
    ($engine:expr) => {
        Client::new(
            &$engine.informer.cache,
            &$engine.informer.desired,
            $engine.now,
            $engine.informer.synced(),
        )
    };
}
pub(super) use client;

impl Engine {
    /// The worker takes the key and the controller starts its reconcile: the
    /// pass waits for a plan, or starts sending. Returns whether it waits.
    pub(super) fn start_pass(&mut self) -> bool {
        let Some(key) = self.queue.get() else {
            return false;
        };
        let trigger = self.triggers.queued.take().unwrap_or(Trigger::Resync);
        let pass = AwaitedPass { key, trigger };
        match self.controller.start(&client!(self)) {
            Start::Planned(planned) => {
                self.send_plan(pass, planned);
                false
            }
            Start::Plan => {
                self.awaited = Some(pass);
                true
            }
        }
    }

    /// What the waiting pass's plan function reads: the informer's cache, as
    /// the controller shows it.
    pub(super) fn reconcile_call(&self) -> ReconcileCall<'_> {
        let client = client!(self);
        let input = self.controller.plan_input(&client);
        ReconcileCall {
            pass: self.passes.len() + 1,
            at: self.now,
            desired: input.desired,
            observed: input.observed,
            finalizers: input.finalizers,
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
                let planned = self.controller.planned(plan, &client!(self));
                self.send_plan(pass, planned);
                true
            }
            None => false,
        }
    }

    fn send_plan(&mut self, pass: AwaitedPass, planned: Planned) {
        let AwaitedPass { key, trigger } = pass;
        let Planned {
            actions: plan,
            skipped,
            requests,
            before,
        } = planned;
        let index = self.passes.len() + 1;
        let start = self.now;
        if !plan.is_empty() {
            self.watch_for_oscillation(&plan);
        }
        // The crash plan counts the plan's actions: the requests sent
        // before them (a finalizer, the cloud) come first.
        let crash_before = self
            .config
            .crash
            .filter(|c| c.at_pass == index)
            .map(|c| c.after_actions.saturating_add(before));
        // A bound on when the worker is free, for the resync's tick skipping:
        // every request, the status write included.
        let planned = Millis::try_from(requests).unwrap_or(Millis::MAX);
        self.worker_free_at = start.saturating_add(self.config.action_ms.saturating_mul(planned));
        let started = SimEvent::ReconcileStarted {
            pass: index,
            trigger: trigger.clone(),
            actions: plan.len(),
            skipped: skipped.clone(),
        };
        let actions = plan
            .into_iter()
            .map(|action| ActionOutcome {
                action,
                object: None,
                result: ActionResult::NotAttempted,
            })
            .collect();
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
        self.running = Some(RunningPass {
            key,
            crash_before,
            failed_at: None,
            before,
        });
        // Recorded once the pass holds its plan, for a picture taken here.
        self.push_event(start, started);
        self.next_request(start, 0);
    }

    /// After `sent` requests (the last answered at `at`): the next one goes
    /// out, or the pass ends.
    fn next_request(&mut self, at: Millis, sent: usize) {
        let Some(running) = &self.running else { return };
        if running.crash_before == Some(sent) {
            let actions_sent = sent.saturating_sub(running.before);
            self.mark_rest(actions_sent, &ActionResult::LostInCrash);
            self.finish_pass(at);
        } else if !self.controller.sends_more() {
            self.finish_pass(at);
        } else {
            // A pass still running at the end of simulated time ends there.
            let due = at.saturating_add(self.config.action_ms);
            self.schedule(due, Scheduled::Request { sent });
        }
    }

    /// Request number `sent` goes out now, and its response arrives.
    pub(super) fn answer_request(&mut self, sent: usize) {
        let Some(Sent { request, serves }) = self.controller.request(&client!(self)) else {
            self.finish_pass(self.now);
            return;
        };
        let answer = self.respond(&request);
        let recorded = self.controller.answered(&answer, &client!(self));
        let failed = matches!(recorded.result, ActionResult::Failed { .. });
        let code = answer
            .as_ref()
            .map_or_else(ApiError::code, |response| response.code);
        let pass = self.passes.len();
        // The cloud answers after its own latency; the API server at once.
        let answered_at = match (&request, self.config.cloud) {
            (Request::Cloud { .. }, Some(cloud)) => {
                // The worker is busy that much longer: resync ticks meanwhile change nothing.
                self.worker_free_at = self.worker_free_at.saturating_add(cloud.latency_ms);
                self.now.saturating_add(cloud.latency_ms)
            }
            _ => self.now,
        };
        let event = match request {
            Request::Cloud { call } => SimEvent::Cloud { pass, call, code },
            Request::PatchCustomResource { patch } => SimEvent::FinalizerWrite {
                pass,
                added: adds_finalizer(&patch),
                code,
            },
            Request::UpdateStatus { status, .. } => {
                let changed = recorded.result == ActionResult::Applied;
                if let Some(record) = self.passes.last_mut() {
                    record.status_write = Some(crate::StatusWrite {
                        status,
                        result: recorded.result,
                    });
                }
                SimEvent::StatusWrite {
                    pass,
                    code,
                    changed,
                }
            }
            request => {
                let planned = serves.and_then(|i| self.passes.last()?.actions.get(i));
                let (action, name) = planned
                    .map(|outcome| (outcome.action.kind, Arc::clone(&outcome.action.name)))
                    .or_else(|| {
                        request
                            .as_action()
                            .map(|(kind, name)| (kind, Arc::clone(name)))
                    })
                    .unwrap_or((ActionKind::Update, Arc::from("")));
                let name = recorded.object.as_deref().unwrap_or(&name).to_owned();
                if let (Some(index), Some(record)) = (serves, self.passes.last_mut()) {
                    if let Some(outcome) = record.actions.get_mut(index) {
                        outcome.result = recorded.result;
                        outcome.object = recorded.object;
                    }
                }
                SimEvent::Request {
                    pass,
                    action,
                    name,
                    code,
                }
            }
        };
        self.push_event(self.now, event);
        if failed {
            if let Some(running) = &mut self.running {
                running.failed_at = sent.checked_sub(running.before);
            }
        }
        if self.controller.sends_more() {
            self.next_request(answered_at, sent + 1);
        } else {
            self.finish_pass(answered_at);
        }
    }

    /// The server's answer to a request, unless it fails transiently first
    /// (the failure rate, drawn per request).
    fn respond(&mut self, request: &Request) -> Answer {
        if self.failures_rng.chance(self.config.failure_rate) {
            return Err(ApiError::Unavailable);
        }
        self.perform(request)
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
        // An error the reconcile returned without a failed action (a skip,
        // a request before its actions) is an error too.
        let returned = self.controller.result();
        let ended = SimEvent::ReconcileEnded {
            pass: index,
            error: returned.error || running.failed_at.is_some(),
            crashed,
        };
        self.push_event(end, ended);
        let result = PassResult::of(returned, running.failed_at, end);
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

    /// The API server answers `request`; a write raises a watch event.
    /// FINALIZE and DELETE are both a DELETE request: the server decides
    /// from the finalizers whether the object goes or starts terminating.
    fn perform(&mut self, request: &Request) -> Answer {
        let at = self.now;
        let (name, change) = match request {
            Request::Create {
                name,
                generate_name,
                spec,
                owner_references,
            } => {
                // The API server names it (`Store.create`), when asked to.
                let name = match generate_name {
                    Some(prefix) => self.generated_name(prefix),
                    None => Arc::clone(name),
                };
                let owners = owner_references.clone();
                self.world
                    .create_owned(&name, spec.clone(), Vec::new(), owners)?;
                self.world.record_update(&name, None, FIELD_MANAGER);
                (name, Some(Change::Added))
            }
            Request::Update {
                name,
                spec,
                resource_version,
            } => {
                let update = Update {
                    spec: Some(spec.clone()),
                    resource_version: *resource_version,
                    ..Update::default()
                };
                let before = self.world.observed.get(name).cloned();
                let change = update_change(self.world.update(name, update)?);
                self.world
                    .record_update(name, before.as_ref(), FIELD_MANAGER);
                (Arc::clone(name), change)
            }
            Request::Delete { name } => (Arc::clone(name), self.delete(name, at)?),
            Request::Patch { name, patch } => {
                let before = self.world.observed.get(name).cloned();
                let change = update_change(self.world.patch(name, patch)?);
                self.world
                    .record_update(name, before.as_ref(), FIELD_MANAGER);
                (Arc::clone(name), change)
            }
            Request::Apply {
                name,
                apply,
                owner_references,
            } => {
                let change = match self.world.apply(name, apply, owner_references)? {
                    ApplyOutcome::Created => Some(Change::Added),
                    ApplyOutcome::Updated => Some(Change::Updated),
                    ApplyOutcome::Unchanged => None,
                };
                (Arc::clone(name), change)
            }
            Request::UpdateStatus {
                status,
                resource_version,
            } => {
                let version = Some(*resource_version);
                let outcome = status::write_status(&mut self.world, status.clone(), version)?;
                return Ok(self.status_written(outcome));
            }
            Request::PatchStatus { patch } => {
                let desired = self.desired_json();
                let outcome = status::patch_status(&mut self.world, &desired, patch)?;
                return Ok(self.status_written(outcome));
            }
            Request::PatchCustomResource { patch } => {
                let desired = self.desired_json();
                let outcome = patch_custom_resource(&mut self.world, &desired, patch)?;
                return Ok(self.custom_resource_written(outcome));
            }
            Request::Cloud { call } => return self.call_cloud(call),
        };
        if let Some(change) = change {
            self.watch.controller_writes += 1;
            self.watch_event(at, &name, change);
        }
        let returns_object = !matches!(request, Request::Delete { .. });
        let resource_version = returns_object
            .then(|| self.world.meta(&name).map(|m| m.resource_version))
            .flatten();
        let created = change == Some(Change::Added);
        Ok(Response {
            code: if created { 201 } else { 200 },
            name,
            written: change.is_some(),
            resource_version,
        })
    }

    /// The desired document as the custom resource's spec.
    fn desired_json(&self) -> Json {
        Json::object(
            self.desired
                .iter()
                .map(|(name, spec)| (name.into(), spec.clone()))
                .collect(),
        )
    }

    /// A call to the cloud: a transient failure first (its own rate), then
    /// the cloud's answer. Not an API request: no watch event follows.
    fn call_cloud(&mut self, call: &CloudCall) -> Answer {
        let rate = self.config.cloud.map_or(0.0, |cloud| cloud.failure_rate);
        if self.cloud.failures.chance(rate) {
            return Err(ApiError::Unavailable);
        }
        let written = self.cloud.state.call(call)?;
        let (CloudCall::Ensure { name } | CloudCall::Delete { name }) = call;
        Ok(Response {
            code: 200,
            name: Arc::from(name.as_str()),
            written,
            resource_version: None,
        })
    }

    /// A write to `/status` raises the custom resource's watch event.
    fn status_written(&mut self, outcome: crate::apiserver::UpdateOutcome) -> Response {
        self.custom_resource_written(outcome)
    }

    /// A write to the custom resource raises its watch event: an update, or
    /// its delete when the write removed its last finalizer.
    fn custom_resource_written(&mut self, outcome: crate::apiserver::UpdateOutcome) -> Response {
        let change = update_change(outcome);
        let written = change.is_some();
        if let Some(change) = change {
            self.watch.controller_writes += 1;
            let breaks = self.drops_rng.chance(self.config.watch_break_rate);
            self.custom_resource_event(self.now, change, breaks);
        }
        let custom_resource = self.world.get(&ObjectKey::CustomResource);
        Response {
            code: 200,
            name: Arc::from(crate::ownership::CUSTOM_RESOURCE),
            written,
            resource_version: custom_resource.map(|cr| cr.meta.resource_version),
        }
    }

    /// A DELETE request of an object with the default propagation.
    pub(super) fn delete(&mut self, name: &str, at: Millis) -> Result<Option<Change>, ApiError> {
        let key = ObjectKey::Object(Arc::from(name));
        self.delete_key(&key, &DeleteOptions::default(), at)
    }
}

/// Whether a finalizer patch adds the cloud's finalizer (else it removes it).
fn adds_finalizer(patch: &crate::patch::Patch) -> bool {
    patch
        .body
        .get_path(&["metadata".to_owned(), "finalizers".to_owned()])
        .and_then(Json::as_array)
        .is_some_and(|list| {
            list.iter()
                .any(|f| f.as_str() == Some(crate::cloud::FINALIZER))
        })
}
