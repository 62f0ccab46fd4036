//! Checks that a run's pictures agree with its timeline, shared by the
//! preset tests (`tests/picture.rs`) and the property test (`tests/simulation.rs`).

use reconcile_sim::comparison::{controller_plan, SpecComparison};
use reconcile_sim::events::SimEvent;
use reconcile_sim::naming::controller_observed;
use reconcile_sim::picture::{
    position_of_moment, ControllerPicture, Picture, PictureReplay, Position,
};
use reconcile_sim::workqueue::AddOutcome;
use reconcile_sim::{
    pass_view, simulate, ActionOutcome, ActionResult, SimConfig, SimScenario, Timeline, World,
};

/// The same objects with the same metadata (resourceVersion, generation).
pub fn same_store(picture: &World, timeline: &World) -> bool {
    picture == timeline
        && timeline
            .observed
            .names()
            .all(|name| picture.meta(name) == timeline.meta(name))
}

/// Every event's picture, walked forward as "event ▶" does, against the timeline.
pub fn check_run(scenario: &SimScenario, config: &SimConfig) -> Timeline {
    let timeline = simulate(scenario, config);
    let mut replay = PictureReplay::new(scenario, config);
    let start = replay.at(Position::Start).expect("a start");
    assert!(same_store(&start.store, &timeline.initial));
    assert_eq!(start.controller, ControllerPicture::Idle);
    // Without a broken watch or a crash every write's event arrives, in order.
    let nothing_lost = config.watch_break_rate == 0.0 && config.crash.is_none();
    let entries = &timeline.events.entries;
    let mut pictures: Vec<std::rc::Rc<Picture>> = Vec::with_capacity(entries.len());
    for (i, entry) in entries.iter().enumerate() {
        let picture = replay
            .at(Position::Event(i))
            .expect("every event has a picture");
        assert_eq!(picture.event.as_ref(), Some(entry), "event {i}");
        assert_eq!(picture.at, entry.at);
        check_event(scenario, config, &timeline, &picture);
        if nothing_lost {
            let delivered_next: Vec<(String, reconcile_sim::Change)> = entries[i + 1..]
                .iter()
                .filter_map(|e| match &e.what {
                    SimEvent::WatchDelivered { name, change } => Some((name.clone(), *change)),
                    _ => None,
                })
                .collect();
            let in_flight: Vec<(String, reconcile_sim::Change)> = picture
                .in_flight
                .iter()
                .filter_map(|f| Some((f.object.clone()?, f.change)))
                .collect();
            // The run may end with events still on their way.
            let arrive = in_flight.len().min(delivered_next.len());
            assert!(
                delivered_next.starts_with(&in_flight[..arrive]),
                "event {i}: in flight {in_flight:?} are the next deliveries {delivered_next:?}"
            );
        }
        pictures.push(picture);
    }
    for (j, event) in timeline.actor_events.iter().enumerate() {
        let picture = replay
            .at(Position::ActorEvent(j))
            .expect("an actor's event");
        assert!(
            same_store(&picture.store, &event.world_after),
            "actor event {j}"
        );
        assert_eq!(picture.at, event.at);
    }
    for moment in &timeline.moments {
        let Some(position) = position_of_moment(&timeline, *moment) else {
            assert!(timeline.events.truncated);
            continue;
        };
        let picture = replay.at(position).expect("a moment's picture");
        assert_eq!(&*picture.store, timeline.world_at(*moment), "{moment:?}");
    }
    // Walking back gives the pictures walking forward gave.
    for i in (0..entries.len()).rev().step_by(7) {
        assert_eq!(
            replay.at(Position::Event(i)).as_deref(),
            Some(&*pictures[i])
        );
    }
    timeline
}

fn check_event(scenario: &SimScenario, config: &SimConfig, timeline: &Timeline, picture: &Picture) {
    let Some(entry) = &picture.event else { return };
    match &entry.what {
        SimEvent::ReconcileEnded { pass, .. } => {
            let after = &timeline.passes[pass - 1].world_after;
            assert_eq!(&*picture.store, &**after, "the store after pass {pass}");
            // A pass's record shares the previous one's snapshot when the
            // objects are equal, versions aside (a name deleted and created
            // again); a snapshot of its own has this moment's versions.
            let shared = pass
                .checked_sub(2)
                .is_some_and(|i| std::rc::Rc::ptr_eq(&timeline.passes[i].world_after, after));
            assert!(
                shared || same_store(&picture.store, after),
                "versions after pass {pass}"
            );
        }
        SimEvent::ReconcileStarted { pass, actions, .. } => {
            let (p, plan, sent) = reconciling(picture, "a pass starts reconciling");
            assert_eq!((p, plan.len(), sent), (*pass, *actions, 0));
            // A custom resource being deleted or gone: the reconciler returns
            // at once, without a plan and without a reconcile call to view.
            let Some(view) = pass_view(scenario, config, *pass) else {
                assert!(plan.is_empty(), "pass {pass} reconciled no live owner");
                return;
            };
            // The cache as the controller shows it to reconcile (its names).
            let (observed, finalizers) =
                controller_observed(config.naming, &view.desired, &picture.cache);
            let planned: Vec<_> = plan.iter().map(|o| o.action.clone()).collect();
            assert_eq!(
                controller_plan(config.comparison(), &view.desired, &observed, &finalizers),
                planned,
                "pass {pass}'s plan comes from the cache pictured"
            );
            if config.comparison() == SpecComparison::WholeSpec {
                assert_eq!(*observed, view.observed, "pass {pass} read the cache");
                assert_eq!(Some(&*finalizers), view.finalizers.as_ref());
            }
        }
        // Not in the plan: the cloud's calls and the finalizer's patches.
        SimEvent::Cloud { .. } | SimEvent::FinalizerWrite { .. } => {}
        SimEvent::Request { name, .. } => {
            let ControllerPicture::Reconciling { plan, sent, .. } = &picture.controller else {
                panic!("a request comes from a running pass");
            };
            let answered = &plan[sent - 1];
            // The object written: a generated name, or the one a desired name stood for.
            let written = answered.object.as_deref().unwrap_or(&answered.action.name);
            assert_eq!(written, name);
            if answered.result == ActionResult::Applied && config.watch_break_rate == 0.0 {
                assert!(
                    picture
                        .in_flight
                        .iter()
                        .any(|f| f.object.as_deref() == Some(name)),
                    "{name}'s write is in flight"
                );
            }
        }
        SimEvent::StatusWrite {
            pass,
            code,
            changed,
        } => {
            let (p, plan, sent) =
                reconciling(picture, "a status write comes from its running pass");
            // After the pass's last request, which all went through.
            assert_eq!(
                (p, sent),
                (*pass, plan.len()),
                "pass {pass} wrote its status last"
            );
            assert_eq!(
                *changed,
                *code == 200
                    && timeline.passes[pass - 1]
                        .status_write
                        .as_ref()
                        .is_some_and(|w| w.result == ActionResult::Applied)
            );
            let store = picture.custom_resource();
            if *changed && config.watch_break_rate == 0.0 {
                assert!(
                    picture.in_flight.iter().any(|f| f.object.is_none()),
                    "pass {pass}'s status write is on its way to the cache"
                );
                assert!(
                    matches!(
                        store.freshness,
                        reconcile_sim::picture::Freshness::Stale { .. }
                    ),
                    "the cache is behind the store's new resourceVersion: {store:?}"
                );
            }
        }
        SimEvent::WatchDelivered { name, change } => {
            let cached = picture.cache.observed.contains(name);
            assert_eq!(
                cached,
                *change != reconcile_sim::Change::Deleted,
                "{name} {change:?}"
            );
        }
        SimEvent::Enqueued { outcome, .. } => {
            let queue = &picture.queue;
            assert_eq!(queue.added, Some(*outcome));
            match outcome {
                AddOutcome::Queued => assert!(queue.queued, "queued: {queue:?}"),
                // Merged into the entry that waits: ready, or due after the pass.
                AddOutcome::AlreadyQueued => {
                    assert!(queue.queued || queue.dirty, "merged: {queue:?}")
                }
                AddOutcome::Deferred => {
                    assert!(queue.processing && queue.dirty, "deferred: {queue:?}")
                }
            }
        }
        SimEvent::RequeueDelayed { ready_at } => {
            assert!(picture.queue.waiting_until.is_some_and(|w| w <= *ready_at));
        }
    }
}

/// The running pass the picture shows: its number, plan and requests sent.
fn reconciling<'a>(picture: &'a Picture, what: &str) -> (usize, &'a [ActionOutcome], usize) {
    match &picture.controller {
        ControllerPicture::Reconciling {
            pass, plan, sent, ..
        } => (*pass, plan, *sent),
        other => panic!("{what}: {other:?}"),
    }
}
