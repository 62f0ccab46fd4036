//! One pass of the loop: reconcile on the informer's cache, then each action
//! as its own API request, one at a time, interleaved on the clock with
//! everything else that happens meanwhile.

use std::rc::Rc;
use std::sync::Arc;

use super::requeue::PassResult;
use super::workers::Doing;
use super::ReconcileCall;
use super::{Engine, Key, Scheduled};
use crate::apiserver::ApiError;
use crate::controllers::client::{Client, Request};
use crate::controllers::controller::Worker;
use crate::controllers::controller::{Planned, Sent, Start};
use crate::events::SimEvent;
use crate::status_writes::{PassKind, StatusWrites};
use crate::workqueue::Millis;
use crate::{ActionOutcome, ActionResult, PassRecord, Trigger};
use reconcile_core::json::Json;
use reconcile_core::reconcile::{Action, ActionKind};

/// The pass a worker is processing.
#[derive(Debug)]
pub(super) struct RunningPass {
    pub(super) key: Key,
    /// Its index in the record, from 1.
    pub(super) pass: usize,
    /// Crash before sending this request (the crash plan of this pass).
    crash_before: Option<usize>,
    /// The last action whose request failed (counted among the plan's
    /// actions; the status write follows them). The pass fails only if
    /// the reconcile then returns an error.
    failed_at: Option<usize>,
    /// Requests sent before the first action.
    before: usize,
}

/// A pass whose reconcile call is out: the worker holds the key while the
/// reconcile runs, wherever it runs.
#[derive(Debug)]
pub(super) struct AwaitedPass {
    pub(super) key: Key,
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
    /// `worker` takes a key and the controller starts its reconcile: the
    /// pass waits for a plan, or starts sending. Returns whether a key was
    /// there to take: one added while processing waits for its `Done`.
    pub(super) fn start_pass(&mut self, worker: Worker) -> bool {
        let Some(key) = self.queue.get() else {
            return false;
        };
        let trigger = self.triggers.of(&key).queued.take();
        let trigger = trigger.unwrap_or(Trigger::Resync);
        let start = self.controller.start(worker, &key, &client!(self));
        let pass = AwaitedPass { key, trigger };
        match start {
            Start::Planned(planned) => self.send_plan(worker, pass, planned),
            Start::Plan => {
                if let Some(slot) = self.workers.slot_mut(worker) {
                    slot.doing = Doing::Awaiting(pass);
                }
            }
        }
        true
    }

    /// What the waiting pass's plan function reads: the informer's cache, as
    /// the controller shows it.
    pub(super) fn reconcile_call(&self) -> ReconcileCall<'_> {
        let client = client!(self);
        let worker = self.workers.awaiting().map_or(0, |(worker, _)| worker);
        let input = self.controller.plan_input(worker, &client);
        ReconcileCall {
            pass: self.passes.len() + 1,
            at: self.now,
            desired: input.desired,
            observed: input.observed,
            finalizers: input.finalizers,
            incarnation: self.incarnation,
        }
    }

    /// The key of a pass waiting for its plan or sending its requests.
    pub(super) fn current_key(&self) -> Option<&Key> {
        let sending = self.workers.sending().next().map(|(_, pass)| &pass.key);
        sending.or(self.workers.awaiting().map(|(_, pass)| &pass.key))
    }

    pub(super) fn awaits_plan(&self) -> bool {
        self.workers.awaiting().is_some()
    }

    /// The waiting pass's reconcile returned `plan`: its first request goes out.
    pub(super) fn resume_pass(&mut self, plan: Vec<Action>) -> bool {
        let Some((worker, _)) = self.workers.awaiting() else {
            return false;
        };
        let Some(slot) = self.workers.slot_mut(worker) else {
            return false;
        };
        let Doing::Awaiting(pass) = std::mem::replace(&mut slot.doing, Doing::Nothing) else {
            return false;
        };
        let planned = self.controller.planned(worker, plan, &client!(self));
        self.send_plan(worker, pass, planned);
        true
    }

    fn send_plan(&mut self, worker: Worker, pass: AwaitedPass, planned: Planned) {
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
        let bound = start.saturating_add(self.config.action_ms.saturating_mul(planned));
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
            custom_resource: Key::clone(&key),
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
        if let Some(slot) = self.workers.slot_mut(worker) {
            slot.free_at = bound;
            slot.doing = Doing::Sending(RunningPass {
                key,
                pass: index,
                crash_before,
                failed_at: None,
                before,
            });
        }
        // Recorded once the pass holds its plan, for a picture taken here.
        self.push_event(start, started);
        self.next_request(worker, start, 0);
    }

    /// `worker`'s pass, while it sends requests.
    fn running(&self, worker: Worker) -> Option<&RunningPass> {
        match &self.workers.slot(worker)?.doing {
            Doing::Sending(pass) => Some(pass),
            _ => None,
        }
    }

    fn running_mut(&mut self, worker: Worker) -> Option<&mut RunningPass> {
        match &mut self.workers.slot_mut(worker)?.doing {
            Doing::Sending(pass) => Some(pass),
            _ => None,
        }
    }

    /// The record of pass `index` (from 1).
    fn record_mut(&mut self, index: usize) -> Option<&mut PassRecord> {
        self.passes.get_mut(index.checked_sub(1)?)
    }

    /// After `sent` requests (the last answered at `at`): the next one goes
    /// out, or the pass ends.
    pub(super) fn next_request(&mut self, worker: Worker, at: Millis, sent: usize) {
        let Some(running) = self.running(worker) else {
            return;
        };
        let pass = running.pass;
        if self.crash_armed() {
            if let Some(running) = self.running_mut(worker) {
                running.crash_before = Some(sent);
            }
        }
        let Some(running) = self.running(worker) else {
            return;
        };
        if running.crash_before == Some(sent) {
            let actions_sent = sent.saturating_sub(running.before);
            self.mark_rest(pass, actions_sent, &ActionResult::LostInCrash);
            self.finish_pass(worker, at);
        } else if !self.controller.sends_more(worker) {
            self.finish_pass(worker, at);
        } else {
            // A pass still running at the end of simulated time ends there.
            let due = at.saturating_add(self.config.action_ms);
            self.schedule(due, Scheduled::Request { worker, pass, sent });
        }
    }

    /// Request number `sent` of `worker`'s pass `pass` goes out now, and
    /// its response arrives. A request of a pass a crash ended goes nowhere.
    pub(super) fn answer_request(&mut self, worker: Worker, pass: usize, sent: usize) {
        if self
            .running(worker)
            .is_none_or(|running| running.pass != pass)
        {
            return;
        }
        let Some(Sent { request, serves }) = self.controller.request(worker, &client!(self)) else {
            self.finish_pass(worker, self.now);
            return;
        };
        let answer = self.respond(&request);
        self.watch.answered(&request, &answer);
        let recorded = self.controller.answered(worker, &answer, &client!(self));
        let failed = matches!(recorded.result, ActionResult::Failed { .. });
        let code = answer
            .as_ref()
            .map_or_else(ApiError::code, |response| response.code);
        // The cloud answers after its own latency; the API server at once.
        let answered_at = match (&request, self.config.cloud) {
            (Request::Cloud { .. }, Some(cloud)) => {
                // The worker is busy that much longer: resync ticks meanwhile change nothing.
                if let Some(slot) = self.workers.slot_mut(worker) {
                    slot.free_at = slot.free_at.saturating_add(cloud.latency_ms);
                }
                self.now.saturating_add(cloud.latency_ms)
            }
            _ => self.now,
        };
        let event = match request {
            // A live read changes nothing: the caller's record shows it.
            Request::Get { .. } => None,
            Request::Cloud { call } => Some(SimEvent::Cloud { pass, call, code }),
            Request::PatchCustomResource { patch, .. } => Some(SimEvent::FinalizerWrite {
                pass,
                added: adds_finalizer(&patch),
                code,
            }),
            Request::UpdateStatus { status, .. } => {
                let changed = recorded.result == ActionResult::Applied;
                if let Some(record) = self.record_mut(pass) {
                    record.status_write = Some(crate::StatusWrite {
                        status,
                        result: recorded.result,
                    });
                }
                Some(SimEvent::StatusWrite {
                    pass,
                    code,
                    changed,
                })
            }
            request => {
                let record = pass.checked_sub(1).and_then(|i| self.passes.get(i));
                let planned = serves.and_then(|i| record?.actions.get(i));
                let (action, name) = planned
                    .map(|outcome| (outcome.action.kind, Arc::clone(&outcome.action.name)))
                    .or_else(|| {
                        request
                            .as_action()
                            .map(|(kind, name)| (kind, Arc::clone(name)))
                    })
                    .unwrap_or((ActionKind::Update, Arc::from("")));
                let name = recorded.object.as_deref().unwrap_or(&name).to_owned();
                if let (Some(index), Some(record)) = (serves, self.record_mut(pass)) {
                    if let Some(outcome) = record.actions.get_mut(index) {
                        outcome.result = recorded.result;
                        outcome.object = recorded.object;
                    }
                }
                Some(SimEvent::Request {
                    pass,
                    action,
                    name,
                    code,
                })
            }
        };
        if let Some(event) = event {
            self.push_event(self.now, event);
        }
        if failed {
            if let Some(running) = self.running_mut(worker) {
                running.failed_at = sent.checked_sub(running.before);
            }
        }
        if self.crash_after_applied() {
            self.next_request(worker, answered_at, sent + 1);
        } else if self.controller.awaits_caller(worker) {
            self.hold_for_caller(worker, answered_at, sent + 1);
        } else if self.controller.sends_more(worker) {
            self.next_request(worker, answered_at, sent + 1);
        } else {
            self.finish_pass(worker, answered_at);
        }
    }

    /// Notes the pass that just ended: one more that only answered its own
    /// status write, with a new one, makes the hot loop certain.
    fn watch_for_hot_loop(&mut self, index: usize) {
        let Some(pass) = index.checked_sub(1).and_then(|i| self.passes.get(i)) else {
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

    fn mark_rest(&mut self, index: usize, from: usize, result: &ActionResult) {
        if let Some(pass) = self.record_mut(index) {
            // Past the last action (a crash after the status write): none.
            for outcome in pass.actions.iter_mut().skip(from) {
                outcome.result = result.clone();
            }
        }
    }

    /// The pass returns: a crash planned for it happens now (a pass that
    /// ends before its crash point crashes as it ends); otherwise the key
    /// stays processing until `PassDone`, which maps the result to the queue.
    fn finish_pass(&mut self, worker: Worker, at: Millis) {
        let Some(slot) = self.workers.slot_mut(worker) else {
            return;
        };
        let Doing::Sending(running) = std::mem::replace(&mut slot.doing, Doing::Nothing) else {
            return;
        };
        let index = running.pass;
        let Some(start) = self.record_mut(index).map(|p| p.started_at) else {
            return;
        };
        let end = at.max(start.saturating_add(1));
        let crashed = running.crash_before.is_some();
        if let Some(slot) = self.workers.slot_mut(worker) {
            slot.free_at = end;
            slot.doing = Doing::Returned(running.key.clone());
        }
        // The pass's result is what the reconcile returned, as for
        // `reconcileHandler`: an error without a failed action (a skip, a
        // request before its actions) fails it, and a failed request the
        // controller recovered from (a learner's code that caught a 409)
        // does not.
        let returned = self.controller.result(worker);
        let failed_at = running.failed_at.filter(|_| returned.error.is_some());
        let ended = SimEvent::ReconcileEnded {
            pass: index,
            error: returned.error.is_some(),
            crashed,
        };
        self.push_event(end, ended);
        let result = PassResult::of(returned, failed_at, end);
        if crashed {
            // The process is gone before it could requeue: shown as the
            // requeue it would have made, which the crash then voids.
            let requeued_at = self.handle_result(&running.key, result);
            if let Some(pass) = self.record_mut(index) {
                result.show_requeue(pass, requeued_at);
            }
            self.crash(index, end);
        } else {
            let (key, incarnation) = (running.key, self.incarnation);
            let done = Scheduled::PassDone {
                worker,
                pass: index,
                key,
                result,
                incarnation,
            };
            self.schedule(end, done);
        }
        self.schedule_script_after(index, end.saturating_add(1));
        self.schedule_other_writers(end);
        if !crashed {
            self.watch_for_hot_loop(index);
        }
        self.record_end(index, end, crashed);
    }

    /// A crash ends every other worker's reconcile where it stands: what
    /// it had not sent is lost with the process.
    pub(super) fn abort_passes(&mut self, at: Millis) {
        let sending: Vec<(Worker, usize)> = self
            .workers
            .sending()
            .map(|(worker, pass)| (worker, pass.pass))
            .collect();
        for (worker, index) in sending {
            if let Some(slot) = self.workers.slot_mut(worker) {
                slot.doing = Doing::Nothing;
            }
            if let Some(pass) = self.record_mut(index) {
                for outcome in &mut pass.actions {
                    if outcome.result == ActionResult::NotAttempted {
                        outcome.result = ActionResult::LostInCrash;
                    }
                }
            }
            let ended = SimEvent::ReconcileEnded {
                pass: index,
                error: false,
                crashed: true,
            };
            self.push_event(at, ended);
            self.record_end(index, at, true);
        }
    }

    /// Writes the end of pass `index` into its record.
    fn record_end(&mut self, index: usize, end: Millis, crashed: bool) {
        let out_of_sync = self.out_of_sync();
        let world_after = self.snapshot();
        let cache_lag = self.cache_lag();
        if let Some(pass) = self.record_mut(index) {
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
