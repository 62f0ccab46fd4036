//! The control-plane picture against the timeline, on every preset.

mod picture_checks;

use reconcile_core::{parse_finalizers, parse_resources, Document};
use reconcile_sim::events::SimEvent;
use reconcile_sim::picture::{Freshness, PictureReplay, Position};
use reconcile_sim::{SimConfig, SimScenario};

fn preset(id: &str) -> (SimScenario, SimConfig) {
    let preset = reconcile_content::presets::find(id).expect("preset exists");
    let res = |text: &str| parse_resources(Document::Desired, text).expect("valid");
    let scenario = SimScenario {
        desired: res(&preset.desired),
        observed: res(&preset.observed),
        finalizers: parse_finalizers(&preset.finalizers).expect("valid"),
    };
    (scenario, preset.sim.read().expect("settings"))
}

#[test]
fn every_preset_pictures_agree_with_the_timeline_at_every_event() {
    for preset in reconcile_content::presets::presets() {
        let (scenario, config) = self::preset(&preset.id);
        let timeline = picture_checks::check_run(&scenario, &config);
        assert!(!timeline.events.entries.is_empty(), "{}", preset.id);
    }
}

#[test]
fn ten_changes_pass_3_reads_web_9_stale() {
    let (scenario, config) = preset("ten-changes");
    let timeline = reconcile_sim::simulate(&scenario, &config);
    let start = timeline.events.start_of(3).expect("a third pass");
    let mut replay = PictureReplay::new(&scenario, &config);
    let picture = replay.at(Position::Event(start)).expect("its picture");
    let cards = picture.cards(usize::MAX);
    let web_9 = cards
        .pairs
        .iter()
        .find(|p| p.store.as_ref().is_some_and(|c| c.name == "web-9"))
        .expect("web-9 shown");
    assert!(
        matches!(web_9.freshness, Freshness::Stale { .. }),
        "{web_9:?}"
    );
    // With a limit, the stale card is still among those shown.
    assert!(picture
        .cards(2)
        .pairs
        .iter()
        .any(|p| p.store.as_ref().is_some_and(|c| c.name == "web-9")));
}

#[test]
fn an_add_while_the_key_waits_is_pictured_as_merged() {
    let (scenario, config) = preset("ten-changes");
    let timeline = reconcile_sim::simulate(&scenario, &config);
    let merged = timeline
        .events
        .entries
        .iter()
        .position(|e| {
            matches!(
                e.what,
                SimEvent::Enqueued {
                    outcome: reconcile_sim::workqueue::AddOutcome::AlreadyQueued,
                    ..
                }
            )
        })
        .expect("ten events, one key: adds merge");
    let mut replay = PictureReplay::new(&scenario, &config);
    let picture = replay.at(Position::Event(merged)).expect("its picture");
    assert!(picture.queue.queued);
    assert_eq!(
        picture.queue.added,
        Some(reconcile_sim::workqueue::AddOutcome::AlreadyQueued)
    );
}

/// A status write is a step of its own, pictured as the store's new version
/// on its way to the cache; an equal status is a 200 that writes nothing.
#[test]
fn status_writes_are_events_of_their_own() {
    let (scenario, config) = preset("status-timestamp");
    let timeline = picture_checks::check_run(&scenario, &config);
    let writes: Vec<(usize, u16, bool)> = timeline
        .events
        .entries
        .iter()
        .filter_map(|e| match e.what {
            SimEvent::StatusWrite {
                pass,
                code,
                changed,
            } => Some((pass, code, changed)),
            _ => None,
        })
        .collect();
    let recorded: Vec<(usize, u16, bool)> = timeline
        .passes
        .iter()
        .filter_map(|p| {
            let write = p.status_write.as_ref()?;
            let code = match &write.result {
                reconcile_sim::ActionResult::Failed { code, .. } => *code,
                _ => 200,
            };
            Some((
                p.index,
                code,
                write.result == reconcile_sim::ActionResult::Applied,
            ))
        })
        .collect();
    assert_eq!(writes, recorded);
    assert!(writes
        .iter()
        .any(|&(_, code, changed)| code == 200 && changed));
}

/// A pass that skips its reconcile says so where it starts, with why.
#[test]
fn a_skipped_pass_starts_with_its_reason() {
    let (scenario, mut config) = preset("stale-cache");
    config.naming = reconcile_sim::ObjectNaming::GenerateNameWithExpectations;
    let timeline = picture_checks::check_run(&scenario, &config);
    let started: Vec<_> = timeline
        .events
        .entries
        .iter()
        .filter_map(|e| match &e.what {
            SimEvent::ReconcileStarted { pass, skipped, .. } => Some((*pass, skipped.clone())),
            _ => None,
        })
        .collect();
    let recorded: Vec<_> = timeline
        .passes
        .iter()
        .map(|p| (p.index, p.skipped.clone()))
        .collect();
    assert_eq!(started, recorded);
    assert!(started.iter().any(|(_, skipped)| skipped.is_some()));
}
