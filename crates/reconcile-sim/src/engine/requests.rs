//! Requests any actor makes on either key space of the store (the custom
//! resource's or the objects'), and the watch events they raise.

use super::Engine;
use crate::apiserver::{ApiError, DeleteOptions, DeleteOutcome, DeleteStrategy};
use crate::ownership::ObjectKey;
use crate::workqueue::Millis;
use crate::world::Change;

impl Engine {
    /// A DELETE request on `key`; when it starts a termination, every
    /// finalizer's owner hears of it. The change it makes, if any.
    pub(super) fn delete_key(
        &mut self,
        key: &ObjectKey,
        options: &DeleteOptions,
        at: Millis,
    ) -> Result<Option<Change>, ApiError> {
        let strategy = DeleteStrategy::default();
        let outcome = self.world.in_key_space(key, |world, name| {
            world.delete(name, options, &strategy, at)
        })?;
        Ok(match outcome {
            DeleteOutcome::Deleted => Some(Change::Deleted),
            DeleteOutcome::Terminating { written: true } => {
                if let ObjectKey::Object(name) = key {
                    self.schedule_owners_of(name, at);
                    self.schedule_pod_stop(name, at);
                }
                Some(Change::Updated)
            }
            DeleteOutcome::Terminating { written: false } => None,
        })
    }

    /// The watch events of a write to `key` (the controller's and the collector's).
    pub(super) fn key_event(&mut self, at: Millis, key: &ObjectKey, change: Change) {
        match key {
            ObjectKey::Object(name) => self.watch_event(at, name, change),
            ObjectKey::CustomResource(name) => {
                let breaks = self.drops_rng.chance(self.config.watch_break_rate);
                self.custom_resource_event(at, name, change, breaks);
            }
        }
    }
}
