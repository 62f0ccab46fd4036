//! The page reads the modules' answers with hand-written readers (core's
//! JSON reader, for size), while the modules write them with serde. These
//! tests keep the two in step: every variant of each message, written by
//! serde, reads back as itself, and each reader's list of members is exactly
//! the members serde writes, over every variant.

use std::collections::BTreeSet;

use reconcile_check::Language;
use reconcile_content::exercise::LearnerCode;
use reconcile_content::lesson::Feedback;
use reconcile_sim::SimSettings;
use serde_json::Value;

use crate::pane::{self, PaneEvent};
use crate::section::{self, SimulationEvent};
use crate::simulation::{self, MomentFact, NextPassView, RunFacts};

/// The member names of the object at `pointer` in each of `values`; for a
/// pointer ending in `/*`, of every item of that array.
fn members_at(values: &[Value], pointer: &str) -> BTreeSet<String> {
    let objects: Vec<&Value> = match pointer.strip_suffix("/*") {
        Some(array) => values
            .iter()
            .filter_map(|value| value.pointer(array)?.as_array())
            .flatten()
            .collect(),
        None => values.iter().filter_map(|v| v.pointer(pointer)).collect(),
    };
    objects
        .into_iter()
        .filter_map(Value::as_object)
        .flat_map(|object| object.keys().cloned())
        .collect()
}

fn names(members: &[&str]) -> BTreeSet<String> {
    members.iter().map(|name| (*name).to_owned()).collect()
}

fn written<T: serde::Serialize>(samples: &[T]) -> Vec<Value> {
    samples
        .iter()
        .map(|sample| serde_json::to_value(sample).expect("serializable"))
        .collect()
}

fn feedback() -> Feedback {
    Feedback {
        correct: false,
        hint: "Try once more.".into(),
        headline: "✗ Not quite".into(),
        details: vec!["UPDATE b is missing".into()],
    }
}

fn facts() -> RunFacts {
    RunFacts {
        revision: 3,
        moments: vec![
            MomentFact::Start,
            MomentFact::AfterPass { pass: 1 },
            MomentFact::AfterActorEvent {
                index: 0,
                after_pass: 1,
                script: 0,
            },
        ],
        passes: 2,
        events: 9,
        pass_starts: vec![0, 4],
    }
}

fn next_pass() -> NextPassView {
    NextPassView {
        revision: 3,
        position: 1,
        event: Some(7),
        pass: 2,
        view: Some(r#"{"desired":{},"observed":{}}"#.into()),
        note: "What pass 2 does".into(),
    }
}

/// One of each event; the match makes a new variant fail to compile here.
fn simulation_events() -> Vec<SimulationEvent> {
    let events = vec![
        SimulationEvent::Run { facts: facts() },
        SimulationEvent::NextPass { next: next_pass() },
        SimulationEvent::MoveTo { position: 4 },
        SimulationEvent::ShowPicture { open: true },
        SimulationEvent::ShowLevelEdge { show: true },
        SimulationEvent::RevealConclusion,
        SimulationEvent::Settings {
            revision: 3,
            sim: SimSettings::default(),
            show_script: Some(0),
        },
        SimulationEvent::Checked {
            id: 1,
            feedback: feedback(),
        },
        SimulationEvent::Refused {
            revision: 2,
            entry: 1,
            message: "the custom resource name \"a\" is used twice".into(),
        },
        SimulationEvent::SettingsRead {
            revision: 2,
            sim: SimSettings::of(&reconcile_sim::SimConfig::default()),
        },
        SimulationEvent::SettingsRefused {
            revision: 2,
            message: "Simulation options at $: unknown option \"sed\"".into(),
        },
    ];
    let kinds: BTreeSet<usize> = events
        .iter()
        .map(|event| match event {
            SimulationEvent::Run { .. } => 0,
            SimulationEvent::NextPass { .. } => 1,
            SimulationEvent::MoveTo { .. } => 2,
            SimulationEvent::ShowPicture { .. } => 3,
            SimulationEvent::ShowLevelEdge { .. } => 4,
            SimulationEvent::RevealConclusion => 5,
            SimulationEvent::Settings { .. } => 6,
            SimulationEvent::Checked { .. } => 7,
            SimulationEvent::Refused { .. } => 8,
            SimulationEvent::SettingsRefused { .. } => 9,
            SimulationEvent::SettingsRead { .. } => 10,
        })
        .collect();
    assert_eq!(kinds.len(), 11, "one sample of each event");
    events
}

/// One of each event; the match makes a new variant fail to compile here.
fn pane_events() -> Vec<PaneEvent> {
    let events = vec![
        PaneEvent::Edited {
            code: LearnerCode {
                language: Language::Python,
                source: "def reconcile(desired, observed): return []".into(),
                other: Some("export function reconcile() { return []; }".into()),
                exercise: "status".into(),
                kept: vec![LearnerCode {
                    language: Language::JavaScript,
                    source: "export function reconcile() {}".into(),
                    other: Some("def reconcile(request, client): pass".into()),
                    exercise: "replicas".into(),
                    kept: Vec::new(),
                }],
            },
        },
        PaneEvent::LoadDocuments {
            documents: ["{}".into(), r#"{"a":1}"#.into(), "{}".into()],
        },
        PaneEvent::Close,
        PaneEvent::Checked {
            report: r#"{"passed":true,"total":500,"counterexample":null}"#.into(),
        },
        PaneEvent::ControllerChecked {
            report: r#"{"passed":false,"exercise":"status"}"#.into(),
        },
    ];
    let kinds: BTreeSet<usize> = events
        .iter()
        .map(|event| match event {
            PaneEvent::Edited { .. } => 0,
            PaneEvent::LoadDocuments { .. } => 1,
            PaneEvent::Close => 2,
            PaneEvent::Checked { .. } => 3,
            PaneEvent::ControllerChecked { .. } => 4,
        })
        .collect();
    assert_eq!(kinds.len(), 5, "one sample of each event");
    events
}

#[test]
fn every_simulation_event_reads_back_as_serde_wrote_it() {
    for event in simulation_events() {
        let text = event.to_json();
        assert_eq!(SimulationEvent::from_json(&text), Ok(event), "{text}");
    }
}

#[test]
fn the_simulation_readers_take_exactly_the_members_serde_writes() {
    let values = written(&simulation_events());
    assert_eq!(members_at(&values, ""), names(section::EVENT_MEMBERS));
    assert_eq!(members_at(&values, "/feedback"), names(section::FEEDBACK));
    assert_eq!(
        members_at(&values, "/facts"),
        names(simulation::FACTS_MEMBERS)
    );
    assert_eq!(
        members_at(&values, "/facts/moments/*"),
        names(simulation::MOMENT_MEMBERS)
    );
    assert_eq!(
        members_at(&values, "/next"),
        names(simulation::NEXT_PASS_MEMBERS)
    );
}

#[test]
fn run_facts_and_the_next_pass_read_back_on_their_own() {
    let facts = facts();
    assert_eq!(RunFacts::from_json(&facts.to_json()), Ok(facts));
    let next = next_pass();
    assert_eq!(NextPassView::from_json(&next.to_json()), Ok(next));
}

#[test]
fn every_pane_event_reads_back_as_serde_wrote_it() {
    for event in pane_events() {
        let text = event.to_json();
        assert_eq!(PaneEvent::from_json(&text), Ok(event), "{text}");
    }
}

#[test]
fn the_pane_reader_takes_exactly_the_members_serde_writes() {
    let values = written(&pane_events());
    assert_eq!(members_at(&values, ""), names(pane::EVENT_MEMBERS));
    assert_eq!(members_at(&values, "/code"), names(pane::CODE_MEMBERS));
    // A kept entry is a code of its own, whose `kept` is empty and left out.
    let mut kept = members_at(&values, "/code/kept/*");
    kept.insert("kept".to_owned());
    assert_eq!(kept, names(pane::CODE_MEMBERS));
}
