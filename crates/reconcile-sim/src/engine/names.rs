//! The controller's naming option in the loop ([`crate::naming`]) and its
//! expectations ([`crate::expectations`]), as `replica_set.go` uses them:
//! - a pass first asks whether its expectations are satisfied
//!   (`syncReplicaSet`: `rsNeedsSync`); if not, it plans nothing and never
//!   calls `reconcile`;
//! - otherwise `reconcile` reads the named view of the cache, and a plan
//!   with k CREATEs sets `ExpectCreations(k)` before the first request
//!   (`manageReplicas`);
//! - a CREATE that fails, or is never sent (an earlier action failed, the
//!   process crashed), is observed at once (`manageReplicas`: "Decrement
//!   the expected number of creates because the informer won't observe
//!   this pod");
//! - the informer's handler observes each object it sees added that this
//!   controller owns and that is not terminating (`addPod`), from a watch
//!   event or a re-list;
//! - a restart starts with no expectations (they live in memory).

use std::sync::Arc;

use super::{Engine, KEY};
use crate::expectations::PassSkip;
use crate::naming::{generate_name, generate_name_prefix, named_view};
use crate::world::ObjectState;
use crate::{ActionOutcome, ActionResult};
use reconcile_core::reconcile::{Action, ActionKind};

impl Engine {
    /// Why the pass starting now plans nothing: its expectations are not
    /// satisfied. `None` for a controller that keeps none.
    pub(super) fn expectations_skip(&self) -> Option<PassSkip> {
        if !self.config.naming.keeps_expectations() || self.expectations.satisfied(KEY, self.now) {
            return None;
        }
        let (add, _) = self.expectations.get(KEY)?;
        Some(PassSkip::ExpectingCreations {
            pending: u64::try_from(add).unwrap_or(0),
        })
    }

    /// What the next `reconcile` reads, for a controller that generates names.
    pub(super) fn refresh_named_view(&mut self) {
        self.named_view = named_view(
            self.config.naming,
            &self.informer.desired,
            &self.informer.cache,
        );
    }

    /// The objects the actions of `plan` go to, where they differ from the
    /// action's name (a CREATE's generated name is drawn when it is sent).
    pub(super) fn plan_targets(&self, plan: &[Action]) -> Vec<Option<Arc<str>>> {
        let Some(view) = &self.named_view else {
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

    /// `ExpectCreations` for the plan about to be sent.
    pub(super) fn expect_creations(&mut self, plan: &[Action]) {
        let creates = plan.iter().filter(|a| a.kind == ActionKind::Create).count();
        if self.config.naming.keeps_expectations() && creates > 0 {
            let adds = i64::try_from(creates).unwrap_or(i64::MAX);
            self.expectations.expect_creations(KEY, adds, self.now);
        }
    }

    /// The POST of a CREATE of desired name `name` that generates: the name
    /// the API server gives it.
    pub(super) fn generated_name(&mut self, name: &str) -> Option<Arc<str>> {
        self.config.naming.generates_names().then(|| {
            Arc::from(generate_name(
                &generate_name_prefix(name),
                &mut self.names_rng,
            ))
        })
    }

    /// The CREATEs of a pass that did not create anything will never be
    /// seen by the informer: observed now.
    pub(super) fn creations_never_seen(&mut self, outcomes: &[ActionOutcome]) {
        for outcome in outcomes {
            let unsent = matches!(
                outcome.result,
                ActionResult::Failed { .. }
                    | ActionResult::NotAttempted
                    | ActionResult::LostInCrash
            );
            if outcome.action.kind == ActionKind::Create && unsent {
                self.expectations.creation_observed(KEY);
            }
        }
    }

    /// The informer's handler sees `state` added (`addPod`).
    pub(super) fn observe_added(&mut self, state: &ObjectState) {
        let ours = state.meta.owner_references.controller_uid() == self.owner_refs.controller_uid()
            && self.owner_refs.controller_uid().is_some();
        if ours && state.deletion_timestamp.is_none() {
            self.expectations.creation_observed(KEY);
        }
    }

    /// A crashed process loses its expectations with its memory.
    pub(super) fn forget_expectations(&mut self) {
        self.expectations = crate::expectations::ControllerExpectations::default();
        self.named_view = None;
    }
}
