//! What the page and the simulation section tell each other once the
//! section is a module of its own (issue 17's split,
//! docs/design/simulation-module.md §2): the page keeps the settings, the
//! one cursor and the section's frame; the module simulates the run and
//! shows it.
//!
//! The page sends a [`SimulationInput`] (serde JSON; the module reads it
//! with serde) at mount and on every change: the run only when its revision
//! changed since the module last had it. The module answers with
//! [`SimulationEvent`]s, which the page reads with core's JSON reader
//! ([`SimulationEvent::from_json`]), never a serde deserializer (one more in
//! the first view, docs/SIZE.md).
//!
//! Invariant: these only carry data. The page's reducer is the only owner
//! of the cursor, of the settings links hold, and of whether each view is
//! open: the module asks ([`SimulationEvent::MoveTo`],
//! [`SimulationEvent::Settings`], …) and shows what the page says.

use reconcile_core::path::JsonPath;
use reconcile_sim::SimSettings;
use serde::{Deserialize, Serialize};

use crate::control_plane::{ViewCursor, ViewRun};
use crate::simulation::{NextPassView, RunFacts};
use reconcile_content::data::{read_json, ContentError, Object, Reader};
use reconcile_content::lesson::Feedback;

/// How the page shows the section: a lesson's prediction hides it, and an
/// embed's options choose its parts (docs/embedding.md).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SectionFrame {
    /// A lesson asks for a prediction about the loop first.
    pub concealed: bool,
    /// A read-only embed: nothing changes the run.
    pub readonly: bool,
    /// The passes with the chart, the status grid and the run's views.
    pub timeline: bool,
    /// Faults and settings.
    pub faults: bool,
    /// An embed: Faults and settings start closed.
    pub embed: bool,
}

/// A run to simulate: the page's scenario and settings, and the revision
/// the page counts them by; or a replay a `v4` link opened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunInput {
    pub revision: usize,
    pub run: ViewRun,
    /// A replay of a learner's controller's failing run: the JSON text of
    /// a `reconcile_sim::learner::ReplayLink`, unread by the page. When
    /// present, the module shows it instead of `run`, which it ignores.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replay: Option<String>,
}

/// A lesson's question about the run, which only the run can answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum LessonQuestion {
    /// After how many passes does it converge?
    Passes { answer: usize },
    /// What does pass `pass` send? The actions picked, in order.
    PassActions { pass: usize, picked: Vec<String> },
}

/// A lesson's check, numbered by the page so that its answer is matched.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LessonCheck {
    pub id: usize,
    pub question: LessonQuestion,
}

/// The page to the module: at mount and on every change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SimulationInput {
    /// Only when the revision changed since the module last had a run.
    pub run: Option<RunInput>,
    pub cursor: ViewCursor,
    pub frame: SectionFrame,
    /// The control-plane view's `<details>` is open.
    pub picture_open: bool,
    /// Level vs edge's `<details>` is open. Its wire name is the old one.
    #[serde(rename = "show_comparison")]
    pub show_level_edge: bool,
    /// A class link opened level vs edge: its conclusion waits.
    pub conclusion_hidden: bool,
    /// World now is shown beside the editors (past the start, nothing
    /// concealed, the editors on the page).
    pub world_now: bool,
    /// A lesson's check waiting for its answer.
    pub check: Option<LessonCheck>,
    /// How many times "Download results" was pressed: the module downloads
    /// the results once for each new count.
    pub results_asked: usize,
}

impl SimulationInput {
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    pub fn from_json(text: &str) -> Result<Self, String> {
        serde_json::from_str(text).map_err(|e| format!("the simulation's input: {e}"))
    }
}

/// The module to the page.
// A message, made once per change and written as JSON at once: `Settings`'
// size costs nothing, and boxing it would only make the page's match wordier.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "kebab-case")]
pub enum SimulationEvent {
    /// A run was simulated: what the page keeps of it.
    Run { facts: RunFacts },
    /// What the pass after the cursor reads (past the start).
    NextPass { next: NextPassView },
    /// Move the cursor (a pass, a chart point, a lane's column, a backoff
    /// row was chosen); the page clamps it to what is revealed.
    MoveTo { position: usize },
    /// The control-plane view's `<details>` was opened or closed.
    ShowPicture { open: bool },
    /// Level vs edge's `<details>` was opened or closed. Its wire name is
    /// the old one.
    #[serde(rename = "show-comparison")]
    ShowLevelEdge { show: bool },
    /// "Show the conclusion" was pressed in level vs edge.
    RevealConclusion,
    /// A setting was changed in Faults and settings: the whole settings as
    /// they are now, of the run `revision`; `show_script` is the script
    /// entry of an injected event, which the cursor goes to once simulated.
    /// The page keeps them as JSON: only the module reads settings.
    Settings {
        revision: usize,
        sim: SimSettings,
        show_script: Option<usize>,
    },
    /// The run `revision`'s settings as the simulation read them (every
    /// setting, under its current name), sent when they are written
    /// otherwise: the page keeps these, so links and autosaves hold what ran.
    SettingsRead { revision: usize, sim: SimSettings },
    /// The run `revision`'s settings do not read: the simulation's options
    /// parser's error, which says where and what (`Simulation options at
    /// $.maxPasses: …`).
    SettingsRefused { revision: usize, message: String },
    /// The answer to [`SimulationInput::check`].
    Checked { id: usize, feedback: Feedback },
    /// The run `revision`'s custom resources cannot run together (a
    /// repeated name): `entry` (from 0) is the one that repeats it.
    Refused {
        revision: usize,
        entry: usize,
        message: String,
    },
}

impl SimulationEvent {
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Reads what [`SimulationEvent::to_json`] wrote, with core's JSON reader.
    pub fn from_json(text: &str) -> Result<Self, ContentError> {
        const FILE: &str = "the simulation's message";
        let value = read_json(FILE, text)?;
        let reader = Reader::new(FILE);
        let message = reader.object(&value, JsonPath::root(), EVENT_MEMBERS);
        let member = |name: &str| {
            let found = message.get(name);
            if found.is_none() {
                reader.missing(&message, name);
            }
            found.map(|value| (message.path_of(name), value))
        };
        let event = match reader.string(&message, "event").as_str() {
            "run" => SimulationEvent::Run {
                facts: member("facts")
                    .map(|(path, value)| RunFacts::read(&reader, value, path))
                    .unwrap_or_default(),
            },
            "next-pass" => SimulationEvent::NextPass {
                next: member("next")
                    .map(|(path, value)| NextPassView::read(&reader, value, path))
                    .unwrap_or_default(),
            },
            "move-to" => SimulationEvent::MoveTo {
                position: reader.count(&message, "position"),
            },
            "show-picture" => SimulationEvent::ShowPicture {
                open: reader.flag(&message, "open"),
            },
            "show-comparison" => SimulationEvent::ShowLevelEdge {
                show: reader.flag(&message, "show"),
            },
            "reveal-conclusion" => SimulationEvent::RevealConclusion,
            "settings" => SimulationEvent::Settings {
                revision: reader.count(&message, "revision"),
                sim: reader.sim(&message).unwrap_or_default(),
                show_script: reader.optional_count(&message, "show_script"),
            },
            "checked" => SimulationEvent::Checked {
                id: reader.count(&message, "id"),
                feedback: member("feedback")
                    .map(|(path, value)| {
                        read_feedback(&reader, &reader.object(value, path, FEEDBACK))
                    })
                    .unwrap_or_else(|| Feedback {
                        correct: false,
                        hint: String::new(),
                        headline: String::new(),
                        details: Vec::new(),
                    }),
            },
            "settings-read" => SimulationEvent::SettingsRead {
                revision: reader.count(&message, "revision"),
                sim: reader.sim(&message).unwrap_or_default(),
            },
            "settings-refused" => SimulationEvent::SettingsRefused {
                revision: reader.count(&message, "revision"),
                message: reader.string(&message, "message"),
            },
            "refused" => SimulationEvent::Refused {
                revision: reader.count(&message, "revision"),
                entry: reader.count(&message, "entry"),
                message: reader.string(&message, "message"),
            },
            other => {
                reader.fail(message.path_of("event"), format!("unknown event {other:?}"));
                SimulationEvent::RevealConclusion
            }
        };
        reader.finish(event)
    }
}

/// The members [`SimulationEvent::from_json`] reads, of every event.
pub(crate) const EVENT_MEMBERS: &[&str] = &[
    "event",
    "facts",
    "next",
    "position",
    "open",
    "show",
    "revision",
    "sim",
    "show_script",
    "id",
    "feedback",
    "entry",
    "message",
];

/// A [`Feedback`]'s members.
pub(crate) const FEEDBACK: &[&str] = &["correct", "hint", "headline", "details"];

fn read_feedback(reader: &Reader<'_>, feedback: &Object<'_>) -> Feedback {
    Feedback {
        correct: reader.flag(feedback, "correct"),
        hint: reader.string(feedback, "hint"),
        headline: reader.string(feedback, "headline"),
        details: reader.strings(feedback, "details"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::simulation::MomentFact;
    use reconcile_sim::{ScriptedEvent, SimConfig, WorldEvent};

    fn round_trip(event: SimulationEvent) {
        let text = event.to_json();
        assert_eq!(SimulationEvent::from_json(&text), Ok(event), "{text}");
    }

    #[test]
    fn every_event_reads_back_as_written() {
        round_trip(SimulationEvent::Run {
            facts: RunFacts {
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
                passes: 1,
                events: 9,
                pass_starts: vec![2],
            },
        });
        round_trip(SimulationEvent::NextPass {
            next: NextPassView {
                revision: 3,
                position: 1,
                event: None,
                pass: 2,
                view: Some("{}".into()),
                note: "What pass 2 does".into(),
            },
        });
        round_trip(SimulationEvent::MoveTo { position: 4 });
        round_trip(SimulationEvent::ShowPicture { open: true });
        round_trip(SimulationEvent::ShowLevelEdge { show: false });
        round_trip(SimulationEvent::RevealConclusion);
        let mut config = SimConfig {
            failure_rate: 0.25,
            seed: 9,
            ..SimConfig::default()
        };
        config.script.push(ScriptedEvent {
            after_pass: 1,
            event: WorldEvent::Delete { name: "a".into() },
        });
        let sim = SimSettings::of(&config);
        round_trip(SimulationEvent::Settings {
            revision: 2,
            sim: sim.clone(),
            show_script: Some(0),
        });
        round_trip(SimulationEvent::Settings {
            revision: 2,
            sim,
            show_script: None,
        });
        round_trip(SimulationEvent::Checked {
            id: 5,
            feedback: Feedback {
                correct: true,
                hint: "h".into(),
                headline: "Correct".into(),
                details: vec!["one".into(), "two".into()],
            },
        });
        round_trip(SimulationEvent::Refused {
            revision: 4,
            entry: 1,
            message: "the object name \"web-0\" is in two custom resources".into(),
        });
        round_trip(SimulationEvent::SettingsRead {
            revision: 4,
            sim: SimSettings::of(&SimConfig::default()),
        });
        round_trip(SimulationEvent::SettingsRefused {
            revision: 4,
            message: "Simulation options at $.seed: invalid type: string \"x\", expected u64"
                .into(),
        });
    }

    #[test]
    fn malformed_events_are_errors_with_their_path() {
        for (text, path) in [
            (r#"{"event":"move-to"}"#, "$"),
            (r#"{"event":"move-to","position":-1}"#, "$.position"),
            (r#"{"event":"run"}"#, "$"),
            (r#"{"event":"run","facts":{"revision":1}}"#, "$.facts"),
            (r#"{"event":"hop"}"#, "$.event"),
            (r#"{"event":"move-to","position":1,"extra":1}"#, "$.extra"),
        ] {
            let error = SimulationEvent::from_json(text).expect_err(text);
            let shown = error.to_string();
            assert!(shown.contains(path), "{text}: {shown}");
        }
    }

    #[test]
    fn the_input_reads_back_as_written() {
        let input = SimulationInput {
            run: Some(RunInput {
                revision: 4,
                run: ViewRun {
                    scenario: "{}".into(),
                    options: "{}".into(),
                    custom_resources: Vec::new(),
                },
                replay: Some(r#"{"exercise":"status"}"#.into()),
            }),
            cursor: ViewCursor {
                position: 2,
                revealed: 3,
                event: Some(7),
            },
            frame: SectionFrame {
                concealed: false,
                readonly: true,
                timeline: true,
                faults: false,
                embed: true,
            },
            picture_open: true,
            show_level_edge: false,
            conclusion_hidden: true,
            world_now: true,
            check: Some(LessonCheck {
                id: 1,
                question: LessonQuestion::PassActions {
                    pass: 2,
                    picked: vec!["CREATE a".into()],
                },
            }),
            results_asked: 2,
        };
        assert_eq!(SimulationInput::from_json(&input.to_json()), Ok(input));
    }
}
