//! The kubelet: it stops a deleted pod's containers on its node, then
//! deletes the pod with grace period 0, as the kubelet's status manager does
//! once the pod has terminated (`pkg/kubelet/status/status_manager.go`:
//! `canBeDeleted`, then `Delete` with `NewDeleteOptions(0)` and the pod's
//! UID as a precondition). Only a pod with a grace period running gets here
//! ([`crate::pods`]); every other object is gone at once or waits for its
//! finalizers.
//!
//! Caveat: one kubelet for every node, whose containers always stop
//! `pod_stop_ms` after the delete, or when the grace period ends if that is
//! sooner (the kubelet kills what is still running then).

use super::{Engine, Scheduled};
use crate::apiserver::DeleteOptions;
use crate::ownership::ObjectKey;
use crate::pods::seconds_ms;
use crate::workqueue::Millis;
use crate::world::Change;
use crate::Happening;

impl Engine {
    /// After a delete at `at` of `name`: when a grace period runs, the
    /// kubelet's stop is scheduled.
    pub(super) fn schedule_pod_stop(&mut self, name: &str, at: Millis) {
        let Some(meta) = self.world.meta(name) else {
            return;
        };
        let Some(seconds) = meta.deletion_grace_period_seconds.filter(|s| *s > 0) else {
            return;
        };
        let stop = at.saturating_add(self.config.pod_stop_ms.min(seconds_ms(seconds)));
        let object = name.to_owned();
        self.schedule(
            stop,
            Scheduled::PodStopped {
                object,
                uid: meta.uid,
            },
        );
    }

    /// The pod's containers have stopped: the kubelet deletes it with grace
    /// period 0. A pod deleted meanwhile, or created again under its name
    /// (another uid), is not this one.
    pub(super) fn pod_stopped(&mut self, object: String, uid: u64) {
        if self.world.meta(&object).is_none_or(|m| m.uid != uid) {
            return;
        }
        let options = DeleteOptions {
            grace_period_seconds: Some(0),
            ..DeleteOptions::default()
        };
        let key = ObjectKey::Object(object.as_str().into());
        let Ok(Some(change)) = self.delete_key(&key, &options, self.now) else {
            return;
        };
        let what = Happening::PodStopped {
            object: object.clone(),
            object_deleted: change == Change::Deleted,
        };
        self.note(self.now, what);
        self.watch_event(self.now, &object, change);
    }
}
