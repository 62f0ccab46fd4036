//! How a run ends: convergence, a stuck finalizer, an oscillation (naming the
//! field the writers fight over), no trigger, the pass limit.

use std::borrow::Cow;
use std::sync::Arc;

use super::{Engine, Key, Scheduled, OSCILLATION_REPEATS};
use crate::apiserver::ApiError;
use crate::client::{Answer, Request};
use crate::cloud::{load_balancer_of, FINALIZER};
use crate::comparison::{controller_out_of_sync, controller_plan};
use crate::naming::controller_observed;
use crate::ownership::ObjectKey;
use crate::sorted::SortedMap;
use crate::status_writes::HotLoopWatch;
use crate::world::World;
use crate::{NotConvergingReason, Verdict};
use reconcile_core::explain::diff;
use reconcile_core::model::Resources;
use reconcile_core::reconcile::{Action, ActionKind};

/// What the verdict watches as the run goes.
#[derive(Debug, Default)]
pub(super) struct Watch {
    pub(super) controller_writes: usize,
    /// Writes by `other_writers`: only they can undo this controller's work forever.
    pub(super) other_writes: usize,
    /// Start-of-pass states with work to do: how often seen, and both write counts then.
    pub(super) start_states: SortedMap<u64, (u32, usize, usize)>,
    pub(super) oscillation: Option<NotConvergingReason>,
    /// Passes that only answered their own status write, and the verdict once certain.
    pub(super) hot_loop_watch: HotLoopWatch,
    pub(super) hot_loop: Option<NotConvergingReason>,
    /// The controller's last apply, when the server refused it for a
    /// conflict: the object and the server's message. A later apply of
    /// the same object that succeeds clears it.
    pub(super) apply_conflict: Option<(Arc<str>, String)>,
}

impl Watch {
    /// Notes the answer to one of this controller's requests.
    pub(super) fn answered(&mut self, request: &Request, answer: &Answer) {
        let Request::Apply { name, .. } = request else {
            return;
        };
        match answer {
            Err(ApiError::ApplyConflict { message, .. }) => {
                self.apply_conflict = Some((Arc::clone(name), message.clone()));
            }
            Ok(_) if self.apply_conflict.as_ref().is_some_and(|(o, _)| o == name) => {
                self.apply_conflict = None;
            }
            _ => {}
        }
    }

    /// Why a run that reached its pass limit does not converge.
    pub(super) fn at_pass_limit(&self, limit: usize) -> NotConvergingReason {
        match &self.apply_conflict {
            Some((object, message)) => NotConvergingReason::ApplyConflict {
                object: object.to_string(),
                message: message.clone(),
            },
            None => NotConvergingReason::PassLimit { limit },
        }
    }
}

impl Engine {
    /// Notes a start-of-pass state; the same state with work to do coming back
    /// after this controller's writes took effect, and another writer wrote
    /// meanwhile, means that writer undoes them. Scripted events alone never
    /// count: there are finitely many, so they cannot keep the loop busy.
    pub(super) fn watch_for_oscillation(&mut self, actions: &[Action]) {
        let state = self.world.fingerprint() ^ self.desired_hash.rotate_left(17);
        let (writes, others) = (self.watch.controller_writes, self.watch.other_writes);
        let entry = self
            .watch
            .start_states
            .entry(state)
            .or_insert((0, writes, others));
        if entry.0 > 0 && writes > entry.1 && others > entry.2 {
            entry.0 += 1;
        } else if entry.0 == 0 {
            entry.0 = 1;
        }
        entry.1 = writes;
        entry.2 = others;
        if entry.0 < OSCILLATION_REPEATS || self.watch.oscillation.is_some() {
            return;
        }
        let contested = actions
            .iter()
            .find(|a| a.kind == ActionKind::Update)
            .or(actions.first());
        if let Some(action) = contested {
            let field = match (self.world.observed.get(&action.name), &action.spec) {
                (Some(observed), Some(desired)) => diff(observed, desired)
                    .first()
                    .map_or_else(|| "$".to_owned(), |d| d.path.to_string()),
                _ => "the whole object".to_owned(),
            };
            self.watch.oscillation = Some(NotConvergingReason::Oscillation {
                object: action.name.to_string(),
                field,
                other_writer: self.actors.last_other_writer.get(&*action.name).cloned(),
            });
        }
    }

    /// Nothing will happen unless a resync comes: the queue is empty and no other event is pending.
    pub(super) fn is_idle(&self) -> bool {
        self.queue.is_empty()
            && self.events.values().all(|e| {
                matches!(
                    e,
                    Scheduled::Resync { .. } | Scheduled::QueueWake { periodic: true, .. }
                )
            })
    }

    /// How the run ends after pass `index` (from 1), if it ends there.
    pub(super) fn verdict_after_pass(&self, index: usize) -> Option<Verdict> {
        if let Some(reason) = self
            .watch
            .oscillation
            .as_ref()
            .or(self.watch.hot_loop.as_ref())
        {
            return Some(Verdict::NotConverging {
                reason: reason.clone(),
            });
        }
        let pass = self.passes.get(index.checked_sub(1)?)?;
        if !self.is_idle() || self.next_unscheduled_script().is_some() {
            return None;
        }
        // Something may have changed the world since the pass read it (a
        // scripted event whose watch event was dropped, right as it ended).
        if pass.actions.is_empty() && self.out_of_sync() == 0 {
            return Some(Verdict::Converged {
                passes: self.passes.len(),
                time: pass.finished_at,
            });
        }
        self.stuck_finalizer()
            .map(|reason| Verdict::NotConverging { reason })
    }

    /// What `reconcile` would do now for custom resource `key`.
    fn remaining(&self, key: &Key, desired: &Resources) -> Vec<Action> {
        let listed = self.listed_by(key);
        let (observed, finalizers) = controller_observed(self.config.naming, desired, &listed);
        controller_plan(self.config.comparison(), desired, &observed, &finalizers)
    }

    /// What the controller of custom resource `key` lists of the store.
    fn listed_by(&self, key: &str) -> Cow<'_, World> {
        self.world
            .owned_by_custom_resource(key)
            .map_or(Cow::Borrowed(&self.world), Cow::Owned)
    }

    pub(super) fn idle_verdict(&self) -> Option<Verdict> {
        if self.out_of_sync() == 0 {
            let time = self.passes.last().map_or(0, |p| p.finished_at);
            return Some(Verdict::Converged {
                passes: self.passes.len(),
                time,
            });
        }
        if let Some(reason) = self.stuck_finalizer() {
            return Some(Verdict::NotConverging { reason });
        }
        // A resync that queues nothing (the predicate drops it) never helps.
        let resync_on =
            self.config.resync_period_ms.is_some_and(|p| p > 0) && !self.resync_keys().is_empty();
        let periodic = self
            .events
            .values()
            .any(|e| matches!(e, Scheduled::QueueWake { periodic: true, .. }));
        (!resync_on && !periodic).then(|| self.no_trigger())
    }

    /// How many actions `reconcile` would return now, over every custom
    /// resource, counted without building them. Once a custom resource is
    /// being deleted or gone, the state to reach is the garbage collector's:
    /// nothing refers to it any more (background and foreground delete its
    /// dependents, orphan keeps them without the reference) and it is
    /// gone; what is left counts.
    pub(super) fn out_of_sync(&self) -> usize {
        let mut memo = self.out_of_sync_memo.borrow_mut();
        let mut sum = 0;
        for (key, desired) in self.desired.iter() {
            // A key's count changes only with what its controller lists,
            // its load balancer, or its spec (which clears its entry).
            let load_balancer = self.cloud.state.has(&load_balancer_of(key));
            let stamp = self.world.owned_stamp(key) ^ u64::from(load_balancer);
            let count = match memo.get(key) {
                Some(&(seen, count)) if seen == stamp => count,
                _ => {
                    let count = self.out_of_sync_of(key, desired);
                    memo.insert(Key::clone(key), (stamp, count));
                    count
                }
            };
            sum += count;
        }
        sum
    }

    fn out_of_sync_of(&self, key: &Key, desired: &Resources) -> usize {
        let external = self.cloud_out_of_sync(key);
        if self.world.custom_resource_live(key) {
            let listed = self.listed_by(key);
            let (observed, finalizers) = controller_observed(self.config.naming, desired, &listed);
            let compare = self.config.comparison();
            return external + controller_out_of_sync(compare, desired, &observed, &finalizers);
        }
        let custom_resource = self.world.get(&ObjectKey::CustomResource(Key::clone(key)));
        external + self.dependents_left(key).len() + usize::from(custom_resource.is_some())
    }

    /// With the cloud: a live custom resource wants its finalizer and its
    /// load balancer; one being deleted or gone wants no load balancer left.
    fn cloud_out_of_sync(&self, key: &Key) -> usize {
        if self.config.cloud.is_none() {
            return 0;
        }
        let load_balancer = self.cloud.state.has(&load_balancer_of(key));
        match self.world.get(&ObjectKey::CustomResource(Key::clone(key))) {
            Some(cr) if cr.deletion_timestamp.is_none() => {
                let finalizer = cr.finalizers.iter().any(|f| f == FINALIZER);
                usize::from(!finalizer) + usize::from(!load_balancer)
            }
            _ => usize::from(load_balancer),
        }
    }

    /// The objects that still refer to custom resource `key` (the one the
    /// run started with, by its uid).
    pub(super) fn dependents_left(&self, key: &str) -> Vec<Arc<str>> {
        let Some(uid) = self.initial.controller_owner_refs(key).controller_uid() else {
            return Vec::new();
        };
        self.world.names_owned_by(uid).cloned().collect()
    }

    pub(super) fn no_trigger(&self) -> Verdict {
        let out_of_sync = self.out_of_sync();
        Verdict::NotConverging {
            reason: NotConvergingReason::NoTrigger { out_of_sync },
        }
    }

    /// All remaining work is waiting on finalizers that are never removed:
    /// FINALIZEs, or once the custom resource is being deleted, the
    /// dependents the garbage collector waits for.
    pub(super) fn stuck_finalizer(&self) -> Option<NotConvergingReason> {
        let mut waiting: Vec<Arc<str>> = Vec::new();
        for (key, desired) in self.desired.iter() {
            if self.world.custom_resource_live(key) {
                let remaining = self.remaining(key, desired);
                if remaining.iter().any(|a| a.kind != ActionKind::Finalize) {
                    return None;
                }
                waiting.extend(remaining.into_iter().map(|a| a.name));
            } else {
                waiting.extend(self.dependents_left(key));
            }
        }
        let mut first = None;
        for name in &waiting {
            let stuck_only = self.world.is_terminating(name)
                && self
                    .world
                    .pending(name)
                    .iter()
                    .all(|f| self.is_stuck(name, f));
            if !stuck_only {
                return None;
            }
            if first.is_none() {
                first = self
                    .world
                    .pending(name)
                    .first()
                    .map(|f| (name.to_string(), f.clone()));
            }
        }
        first.map(|(object, finalizer)| NotConvergingReason::StuckFinalizer { object, finalizer })
    }
}
