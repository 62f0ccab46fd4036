//! A moment inside a pass: the run right after one event of its event log,
//! for the views that follow "event ▶" (World now, the verdict line, the
//! status grid). It is read from the control-plane picture there
//! ([`crate::picture::PictureReplay`]), so it is the engine's own state.
//!
//! # Guarantees
//! - At a pass's end (its `ReconcileEnded`) there is no event moment: that
//!   is [`crate::Moment::AfterPass`] itself, which every view shows already.
//! - The store is the picture's; the desired state is the one in force
//!   then: the last actor's event whose writes the store holds.
//! - [`EventMoment::out_of_sync`] counts as the engine counts for the
//!   verdict, so at an actor's event it equals that event's count.
//!
//! # Caveats
//! - Only events with a picture have a moment: the first
//!   [`crate::events::MAX_EVENTS`] of a run.

use std::rc::Rc;
use std::sync::Arc;

use reconcile_core::model::Resources;

use crate::comparison::controller_out_of_sync;
use crate::events::SimEvent;
use crate::naming::controller_observed;
use crate::ownership::{ObjectKey, CUSTOM_RESOURCE};
use crate::picture::{Picture, Position};
use crate::workqueue::Millis;
use crate::world::World;
use crate::{format_millis, CacheLag, CacheLagEntry, Timeline};

/// Where an event stands against its pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PassPhase {
    /// Before pass 1 started.
    BeforeFirst,
    /// Pass `n` is running: it has started and not yet returned.
    During(usize),
    /// Pass `n` has returned; the next has not started.
    After(usize),
}

/// The run right after one event of its event log, inside or between passes.
#[derive(Debug, Clone, PartialEq)]
pub struct EventMoment {
    /// The event's index in the event log.
    pub event: usize,
    pub at: Millis,
    pub phase: PassPhase,
    /// The API server's store.
    pub store: Rc<World>,
    /// The controller's informer cache.
    pub cache: Rc<World>,
    /// The desired state in force.
    pub desired: Resources,
}

/// Where event `event` of `timeline`'s log stands against its pass: the
/// last pass it started, running or returned. A pass's `ReconcileEnded`
/// is after it.
pub fn pass_phase(timeline: &Timeline, event: usize) -> PassPhase {
    let entries = &timeline.events.entries;
    let pass = timeline.events.passes_started_by(event);
    let end = event.saturating_add(1).min(entries.len());
    let ended = entries[..end]
        .iter()
        .rev()
        .take_while(|e| !matches!(e.what, SimEvent::ReconcileStarted { .. }))
        .any(|e| matches!(e.what, SimEvent::ReconcileEnded { pass: p, .. } if p == pass));
    match (pass, ended) {
        (0, _) => PassPhase::BeforeFirst,
        (n, false) => PassPhase::During(n),
        (n, true) => PassPhase::After(n),
    }
}

impl EventMoment {
    /// The moment of `picture`, a picture of `timeline`'s run. `None` for a
    /// picture that is not at an event, or at a pass's end (a moment of the
    /// timeline already).
    pub fn of(timeline: &Timeline, picture: &Picture) -> Option<Self> {
        let Position::Event(event) = picture.position else {
            return None;
        };
        if matches!(
            timeline.events.entries.get(event)?.what,
            SimEvent::ReconcileEnded { .. }
        ) {
            return None;
        }
        let phase = pass_phase(timeline, event);
        Some(Self {
            event,
            at: picture.at,
            phase,
            desired: desired_in(timeline, &picture.store),
            store: Rc::clone(&picture.store),
            cache: Rc::clone(&picture.cache),
        })
    }

    /// "t = 16 ms, during pass 1", "t = 40 ms, after pass 2".
    pub fn describe(&self) -> String {
        let at = format_millis(self.at);
        match self.phase {
            PassPhase::BeforeFirst => format!("t = {at}, before pass 1"),
            PassPhase::During(n) => format!("t = {at}, during pass {n}"),
            PassPhase::After(n) => format!("t = {at}, after pass {n}"),
        }
    }

    /// How many actions `reconcile` would return on the store now, as the
    /// engine counts for the verdict.
    pub fn out_of_sync(&self, timeline: &Timeline) -> usize {
        let store = &*self.store;
        // The views show a scenario's first custom resource (step 6 of
        // issue 29 brings the others).
        let name = timeline.initial.custom_resource_names().next().cloned();
        let name = name.unwrap_or_else(|| Arc::from(CUSTOM_RESOURCE));
        if store.custom_resource_live(&name) {
            let (observed, finalizers) = controller_observed(timeline.naming, &self.desired, store);
            return controller_out_of_sync(timeline.compare, &self.desired, &observed, &finalizers);
        }
        // Being deleted or gone: what still refers to it is left to do.
        let uid = timeline
            .initial
            .controller_owner_refs(&name)
            .controller_uid();
        let dependents = uid.map_or(0, |uid| store.names_owned_by(uid).count());
        dependents + usize::from(store.get(&ObjectKey::CustomResource(name)).is_some())
    }

    /// Where the cache differs from the store now, sorted by name.
    pub fn cache_lag(&self) -> Vec<CacheLagEntry> {
        let names = crate::views::status::union_of_sorted(
            self.store.observed.names(),
            self.cache.observed.names(),
        );
        names
            .into_iter()
            .filter_map(|name| {
                let lag = CacheLag::of(name, &self.cache, &self.store)?;
                Some(CacheLagEntry {
                    name: name.to_owned(),
                    lag,
                })
            })
            .collect()
    }
}

/// The desired state in force when the store was `store`: that of the last
/// actor's event the store has seen. resourceVersions only grow, so the
/// store has seen an event when its last version is at least the event's.
/// (An event that wrote nothing changed no desired state either.)
fn desired_in(timeline: &Timeline, store: &World) -> Resources {
    timeline
        .actor_events
        .iter()
        .rev()
        .find(|e| e.world_after.last_resource_version <= store.last_resource_version)
        .map_or_else(
            || timeline.desired_initial.clone(),
            |e| e.desired_after.clone(),
        )
}

#[cfg(test)]
mod tests {
    use reconcile_core::{parse_resources, Document};

    use super::*;
    use crate::picture::PictureReplay;
    use crate::views::moments::tests::seed;
    use crate::{simulate, Moment, ScriptedEvent, SimConfig, SimScenario, WorldEvent};

    /// Every event's moment of the run, in order (`None` at a pass's end).
    fn moments(scenario: &SimScenario, config: &SimConfig) -> (Timeline, Vec<Option<EventMoment>>) {
        let timeline = simulate(scenario, config);
        let mut replay = PictureReplay::new(scenario, config);
        let moments = (0..timeline.events.entries.len())
            .map(|i| {
                let picture = replay.at(Position::Event(i)).expect("a picture");
                EventMoment::of(&timeline, &picture)
            })
            .collect();
        (timeline, moments)
    }

    #[test]
    fn the_seed_examples_pass_1_writes_one_request_at_a_time() {
        let (timeline, moments) = moments(&seed(), &SimConfig::default());
        let start = timeline.events.start_of(1).expect("pass 1");
        let first = moments[start].as_ref().expect("pass 1 started");
        assert_eq!(first.phase, PassPhase::During(1));
        // Nothing written yet: the store is the start's, and 3 are out of sync.
        assert_eq!(*first.store, timeline.initial);
        assert_eq!(first.out_of_sync(&timeline), 3);
        let counts: Vec<usize> = moments[start..]
            .iter()
            .map_while(|m| m.as_ref())
            .map(|m| m.out_of_sync(&timeline))
            .collect();
        // Each request mends one resource: CREATE a, UPDATE b, DELETE c.
        assert_eq!(counts.first(), Some(&3));
        assert_eq!(counts.last(), Some(&0));
        assert!(counts.windows(2).all(|w| w[1] <= w[0]), "{counts:?}");
        assert!(counts.contains(&2) && counts.contains(&1), "{counts:?}");
        // The pass's end is the moment itself: no event moment.
        let end = start + counts.len();
        assert!(matches!(
            timeline.events.entries[end].what,
            SimEvent::ReconcileEnded { pass: 1, .. }
        ));
        // After it, until pass 2 starts: after pass 1.
        let next = timeline.events.start_of(2).expect("pass 2");
        for moment in moments[end + 1..next].iter().flatten() {
            assert_eq!(moment.phase, PassPhase::After(1));
            assert!(moment.describe().ends_with(", after pass 1"));
        }
        let second = moments[next].as_ref().expect("pass 2 started");
        assert_eq!(
            second.describe(),
            format!("t = {} ms, during pass 2", second.at)
        );
    }

    #[test]
    fn at_a_pass_end_and_at_an_actors_event_it_agrees_with_the_timeline() {
        let configs = [
            SimConfig::default(),
            SimConfig {
                failure_rate: 0.5,
                ..SimConfig::default()
            },
            SimConfig {
                script: vec![
                    ScriptedEvent {
                        after_pass: 1,
                        event: WorldEvent::SetDesired {
                            desired: parse_resources(Document::Desired, r#"{"a":{"replicas":2}}"#)
                                .expect("valid"),
                        },
                    },
                    ScriptedEvent {
                        after_pass: 2,
                        event: WorldEvent::Delete { name: "a".into() },
                    },
                    ScriptedEvent {
                        after_pass: 3,
                        event: WorldEvent::DeleteCustomResource {
                            propagation: crate::PropagationPolicy::Foreground,
                        },
                    },
                ],
                ..SimConfig::default()
            },
        ];
        for config in configs {
            let scenario = seed();
            let (timeline, moments) = moments(&scenario, &config);
            let mut replay = PictureReplay::new(&scenario, &config);
            // Only a pass's end has no event moment, and there the picture's
            // store is the timeline's world after the pass.
            for (i, moment) in moments.iter().enumerate() {
                if moment.is_some() {
                    continue;
                }
                let SimEvent::ReconcileEnded { pass, .. } = timeline.events.entries[i].what else {
                    panic!("event {i} has no moment and is no pass's end");
                };
                let picture = replay.at(Position::Event(i)).expect("a picture");
                assert_eq!(*picture.store, *timeline.world_after(pass), "pass {pass}");
            }
            // An actor's event: the count and the desired state are the timeline's.
            for (k, record) in timeline.actor_events.iter().enumerate() {
                let picture = replay.at(Position::ActorEvent(k)).expect("a picture");
                let store: &World = &picture.store;
                assert_eq!(desired_in(&timeline, store), record.desired_after, "{k}");
                let moment = EventMoment {
                    event: 0,
                    at: picture.at,
                    phase: PassPhase::After(record.after_pass),
                    store: Rc::clone(&picture.store),
                    cache: Rc::clone(&picture.cache),
                    desired: desired_in(&timeline, store),
                };
                assert_eq!(moment.out_of_sync(&timeline), record.out_of_sync, "{k}");
            }
            // A pass's end, counted the same way on its picture, is the pass's count.
            for (n, record) in timeline.passes.iter().enumerate() {
                let moment = Moment::AfterPass(n + 1);
                let end = crate::picture::position_of_moment(&timeline, moment).expect("an end");
                let picture = replay.at(end).expect("a picture");
                let moment = EventMoment {
                    event: 0,
                    at: picture.at,
                    phase: PassPhase::After(n + 1),
                    desired: desired_in(&timeline, &picture.store),
                    store: Rc::clone(&picture.store),
                    cache: Rc::clone(&picture.cache),
                };
                assert_eq!(
                    moment.out_of_sync(&timeline),
                    record.out_of_sync,
                    "pass {}",
                    n + 1
                );
                assert_eq!(
                    moment.cache_lag(),
                    timeline.cache_lag_after(n + 1),
                    "pass {}",
                    n + 1
                );
            }
        }
    }
}
