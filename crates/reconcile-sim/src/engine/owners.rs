//! Finalizer owners: other controllers, each removing its own entry from a
//! terminating object on its own schedule, whatever this controller does.
//! Each owner has its own work queue, one entry per object, and one worker
//! (controller-runtime's default `MaxConcurrentReconciles` of 1): it cleans
//! up after one object at a time, in the order they started terminating.

use super::{update_change, Engine, Scheduled};
use crate::apiserver::{
    Update, UpdateOutcome, FINALIZER_DELETE_DEPENDENTS, FINALIZER_ORPHAN_DEPENDENTS,
};
use crate::sorted::SortedSet;
use crate::workqueue::Millis;
use crate::Happening;

/// The finalizer owners' own state.
#[derive(Debug, Default)]
pub(super) struct FinalizerOwners {
    /// Owners whose turn is scheduled, by (object, finalizer): one each.
    pub(super) pending: SortedSet<(String, String)>,
    /// When each owner's worker is free, by finalizer name (a few owners: a
    /// list, searched).
    pub(super) free_at: Vec<(String, Millis)>,
}

impl Engine {
    pub(super) fn is_stuck(&self, object: &str, finalizer: &str) -> bool {
        self.config
            .stuck_finalizers
            .iter()
            .any(|s| s.object == object && s.finalizer == finalizer)
    }

    /// How long the owner of `finalizer` takes to clean up after one object.
    fn owner_delay(&self, finalizer: &str) -> Millis {
        self.config
            .finalizer_owners
            .iter()
            .find(|owner| owner.finalizer == finalizer)
            .map_or(self.config.finalizer_owner_delay_ms, |owner| owner.delay_ms)
    }

    /// The owners of `name`'s finalizers learn that it is terminating and
    /// queue it, each on its own, whatever this controller does: they are
    /// other controllers. Each removes its entry its delay after its worker
    /// is free; stuck ones never do.
    pub(super) fn schedule_owners_of(&mut self, name: &str, from: Millis) {
        // `orphan` and `foregroundDeletion` belong to the garbage collector.
        let gc = |f: &str| f == FINALIZER_ORPHAN_DEPENDENTS || f == FINALIZER_DELETE_DEPENDENTS;
        let owners: Vec<String> = self
            .world
            .pending(name)
            .iter()
            .filter(|f| !self.is_stuck(name, f) && !gc(f))
            .cloned()
            .collect();
        for finalizer in owners {
            // An owner's queue holds one entry per object.
            if self
                .owners
                .pending
                .insert((name.to_owned(), finalizer.clone()))
            {
                let start = self.owner_free_at(&finalizer).max(from);
                let Some(done) = start.checked_add(self.owner_delay(&finalizer)) else {
                    continue;
                };
                self.set_owner_free_at(&finalizer, done);
                let object = name.to_owned();
                self.schedule(done, Scheduled::OwnerActs { object, finalizer });
            }
        }
    }

    fn owner_free_at(&self, finalizer: &str) -> Millis {
        self.owners
            .free_at
            .iter()
            .find(|(owner, _)| owner == finalizer)
            .map_or(0, |(_, at)| *at)
    }

    fn set_owner_free_at(&mut self, finalizer: &str, at: Millis) {
        match self
            .owners
            .free_at
            .iter_mut()
            .find(|(owner, _)| owner == finalizer)
        {
            Some((_, free_at)) => *free_at = at,
            None => self.owners.free_at.push((finalizer.to_owned(), at)),
        }
    }

    /// One owner's turn: it removes its finalizer with an update. The
    /// update that removes the last one deletes the object (the API
    /// server's `ShouldDeleteDuringUpdate`), and the watch says so.
    pub(super) fn owner_acts(&mut self, object: String, finalizer: String) {
        self.owners
            .pending
            .remove(&(object.clone(), finalizer.clone()));
        if !self.world.is_terminating(&object) || !self.world.pending(&object).contains(&finalizer)
        {
            return;
        }
        let rest: Vec<String> = self
            .world
            .pending(&object)
            .iter()
            .filter(|f| **f != finalizer)
            .cloned()
            .collect();
        let update = Update {
            finalizers: Some(rest),
            resource_version: self.world.meta(&object).map(|m| m.resource_version),
            ..Update::default()
        };
        let Ok(outcome) = self.world.update(&object, update) else {
            // The owner read the object just now, so nothing can refuse it.
            return;
        };
        let what = Happening::FinalizerRemoved {
            object: object.clone(),
            finalizer,
            object_deleted: outcome == UpdateOutcome::Deleted,
        };
        self.note(self.now, what);
        if let Some(change) = update_change(outcome) {
            self.watch_event(self.now, &object, change);
        }
    }
}
