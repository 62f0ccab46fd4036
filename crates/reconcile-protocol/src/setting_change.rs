//! A change made in Faults and settings, and how it changes the settings:
//! the one place its rules are kept (the simulation section's module applies
//! it, then gives the page the whole settings, `section::SimulationEvent::Settings`).

use reconcile_sim::{
    BackoffPolicy, CloudSettings, CrashPlan, FinalizerOwner, FinalizerRef, Millis, ObjectNaming,
    ObjectWrites, QueueModel, ScriptedEvent, SimConfig, SpecComparison, StatusWrites, WorldEvent,
};

/// One change of the simulated controller's settings or of what happens to it.
#[derive(Debug, Clone, PartialEq)]
pub enum SettingChange {
    FailureRate(f64),
    WatchBreakRate(f64),
    Resync(Option<Millis>),
    Backoff(BackoffPolicy),
    Queue(QueueModel),
    /// What the simulated controller compares to decide an UPDATE.
    Compare(SpecComparison),
    /// How the simulated controller writes objects: PUT or server-side apply.
    Writes(ObjectWrites),
    /// How the simulated controller names what it creates.
    Naming(ObjectNaming),
    /// What the simulated controller writes to its custom resource's status.
    StatusWrites(StatusWrites),
    /// Whether its watch on the custom resource drops same-generation updates.
    GenerationChangedPredicate(bool),
    /// Whether it defers a reconcile until its cache has its own writes (KEP-5647).
    ConsistencyStore(bool),
    /// The external system, if the controller keeps a load balancer in it.
    Cloud(Option<CloudSettings>),
    Seed(u64),
    /// How many reconciles run at once (`MaxConcurrentReconciles`), 1 to 64.
    Workers(usize),
    ToggleStuck(FinalizerRef),
    /// How long the owner of `finalizer` takes per object; `None` is the default.
    OwnerDelay {
        finalizer: String,
        delay_ms: Option<Millis>,
    },
    /// Crash the controller in the pass after the cursor, after this many actions.
    CrashNextPass {
        after_actions: usize,
    },
    /// Another actor does something right after the pass at the cursor.
    Inject(WorldEvent),
}

impl SettingChange {
    /// Applies the change to `config`, with `shown_pass` the passes finished
    /// at the cursor. Returns the script entry of an injected event.
    pub fn apply(self, config: &mut SimConfig, shown_pass: usize) -> Option<usize> {
        match self {
            SettingChange::FailureRate(rate) => config.failure_rate = rate.clamp(0.0, 1.0),
            SettingChange::WatchBreakRate(rate) => config.watch_break_rate = rate.clamp(0.0, 1.0),
            SettingChange::Resync(period) => config.resync_period_ms = period,
            // kube-rs has no rate limiter, only an error_policy's fixed
            // delay: choosing one of the two brings the other along.
            SettingChange::Backoff(policy) => {
                config.backoff = policy;
                if config.queue == QueueModel::KubeRs
                    && config.backoff.kube_error_policy().is_none()
                {
                    config.queue = QueueModel::ClientGo;
                }
            }
            SettingChange::Queue(model) => {
                config.queue = model;
                if model == QueueModel::KubeRs && config.backoff.kube_error_policy().is_none() {
                    config.backoff = BackoffPolicy::FixedDelay { delay_ms: 1_000 };
                }
            }
            SettingChange::Compare(compare) => config.compare = compare,
            SettingChange::Writes(writes) => config.writes = writes,
            SettingChange::Naming(naming) => config.naming = naming,
            SettingChange::StatusWrites(mode) => config.status_writes = mode,
            SettingChange::GenerationChangedPredicate(on) => {
                config.generation_changed_predicate = on
            }
            SettingChange::ConsistencyStore(on) => config.consistency_store = on,
            SettingChange::Cloud(cloud) => config.cloud = cloud,
            SettingChange::Seed(seed) => config.seed = seed,
            SettingChange::Workers(workers) => config.workers = workers.clamp(1, 64),
            SettingChange::ToggleStuck(entry) => {
                if let Some(i) = config.stuck_finalizers.iter().position(|s| *s == entry) {
                    config.stuck_finalizers.remove(i);
                } else {
                    config.stuck_finalizers.push(entry);
                }
            }
            SettingChange::OwnerDelay {
                finalizer,
                delay_ms,
            } => {
                config
                    .finalizer_owners
                    .retain(|owner| owner.finalizer != finalizer);
                if let Some(delay_ms) = delay_ms {
                    config.finalizer_owners.push(FinalizerOwner {
                        finalizer,
                        delay_ms,
                    });
                }
            }
            SettingChange::CrashNextPass { after_actions } => {
                config.crash = Some(CrashPlan {
                    at_pass: shown_pass + 1,
                    after_actions,
                })
            }
            SettingChange::Inject(event) => {
                config.script.push(ScriptedEvent {
                    after_pass: shown_pass,
                    event,
                });
                return Some(config.script.len() - 1);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_kube_rs_queue_and_a_fixed_delay_come_together() {
        let mut config = SimConfig::default();
        SettingChange::Queue(QueueModel::KubeRs).apply(&mut config, 0);
        assert_eq!(
            config.backoff,
            BackoffPolicy::FixedDelay { delay_ms: 1_000 }
        );
        SettingChange::Backoff(BackoffPolicy::default()).apply(&mut config, 0);
        assert_eq!(config.queue, QueueModel::ClientGo);
    }

    #[test]
    fn cursor_dependent_changes_follow_the_pass_shown() {
        let mut config = SimConfig::default();
        SettingChange::CrashNextPass { after_actions: 1 }.apply(&mut config, 2);
        assert_eq!(
            config.crash,
            Some(CrashPlan {
                at_pass: 3,
                after_actions: 1
            })
        );
        let delete = WorldEvent::Delete { name: "a".into() };
        assert_eq!(
            SettingChange::Inject(delete.clone()).apply(&mut config, 2),
            Some(0)
        );
        assert_eq!(SettingChange::Inject(delete).apply(&mut config, 4), Some(1));
        assert_eq!(config.script[1].after_pass, 4);
    }

    #[test]
    fn a_stuck_finalizer_toggles_and_an_owner_delay_replaces() {
        let mut config = SimConfig::default();
        let entry = FinalizerRef {
            object: "a".into(),
            finalizer: "f".into(),
        };
        SettingChange::ToggleStuck(entry.clone()).apply(&mut config, 0);
        assert_eq!(config.stuck_finalizers, vec![entry.clone()]);
        SettingChange::ToggleStuck(entry).apply(&mut config, 0);
        assert!(config.stuck_finalizers.is_empty());
        for delay in [Some(5), Some(7), None] {
            SettingChange::OwnerDelay {
                finalizer: "f".into(),
                delay_ms: delay,
            }
            .apply(&mut config, 0);
            assert_eq!(config.finalizer_owners.len(), usize::from(delay.is_some()));
        }
        SettingChange::FailureRate(3.0).apply(&mut config, 0);
        assert_eq!(config.failure_rate, 1.0);
    }
}
