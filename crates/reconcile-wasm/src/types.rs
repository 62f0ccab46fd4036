//! The shapes the API returns, and their TypeScript declarations.
//!
//! Every output is core's own serialization; `Timeline` only picks the parts
//! of a run a course page needs and adds the verdict's sentence.
//!
//! The declarations, `types.d.ts`, are generated from the Rust types (these
//! and the serialized types of reconcile-core and reconcile-sim) by ts-rs,
//! which reads their serde attributes; wasm-bindgen copies them into the
//! module's `.d.ts`. The test at the end of this file fails when the file is
//! stale, and `UPDATE_TS=1 cargo test -p reconcile-wasm --lib` rewrites it.
//! Do not edit it by hand.

#[cfg(feature = "check")]
pub use checking::CheckOutcome;
#[cfg(feature = "loop")]
pub use looping::LoopOutcome;
#[cfg(feature = "simulate")]
pub use simulation::{SimVerdict, Timeline};
use wasm_bindgen::prelude::wasm_bindgen;

/// A learner's reconcile in the loop: its own module, `reconcile_loop`,
/// so that the simulation module stays what a course page's `simulate`
/// needs.
#[cfg(feature = "loop")]
pub(crate) mod looping {
    use reconcile_sim::own_reconcile::{Idempotence, LoopVerdicts, RestartSurvival};
    use reconcile_sim::Verdict;
    use serde::Serialize;

    /// How a learner's reconcile did in the loop: the three verdicts, each
    /// also in words; or why the check ended early.
    #[derive(Serialize)]
    #[cfg_attr(all(test, not(target_arch = "wasm32")), derive(ts_rs::TS))]
    #[serde(rename_all = "camelCase")]
    pub struct LoopOutcome<'a> {
        pub verdicts: Option<LoopVerdicts>,
        /// The verdicts in words: converges, idempotence, restart.
        pub texts: Option<LoopTexts>,
        /// The reconcile raised, or returned something that is not an action list.
        pub error: Option<&'a str>,
    }

    /// The three verdicts, worded as the simulation words its own.
    #[derive(Serialize)]
    #[cfg_attr(all(test, not(target_arch = "wasm32")), derive(ts_rs::TS))]
    #[serde(rename_all = "camelCase")]
    pub struct LoopTexts {
        pub converges: VerdictText,
        pub idempotence: VerdictText,
        pub restart: VerdictText,
    }

    /// A verdict in words, and whether it is the good one.
    #[derive(Serialize)]
    #[cfg_attr(all(test, not(target_arch = "wasm32")), derive(ts_rs::TS))]
    pub struct VerdictText {
        pub holds: bool,
        pub text: String,
    }

    impl VerdictText {
        fn of(holds: bool, text: &impl ToString) -> Self {
            Self {
                holds,
                text: text.to_string(),
            }
        }
    }

    impl<'a> LoopOutcome<'a> {
        pub fn of(outcome: Result<LoopVerdicts, &'a str>) -> Self {
            match outcome {
                Ok(verdicts) => Self {
                    texts: Some(LoopTexts {
                        converges: VerdictText::of(
                            matches!(verdicts.converges, Verdict::Converged { .. }),
                            &verdicts.converges,
                        ),
                        idempotence: VerdictText::of(
                            verdicts.idempotence == Idempotence::Idempotent,
                            &verdicts.idempotence,
                        ),
                        restart: VerdictText::of(
                            matches!(verdicts.restart, RestartSurvival::Survives { .. }),
                            &verdicts.restart,
                        ),
                    }),
                    verdicts: Some(verdicts),
                    error: None,
                },
                Err(error) => Self {
                    verdicts: None,
                    texts: None,
                    error: Some(error),
                },
            }
        }
    }
}

#[cfg(feature = "simulate")]
pub(crate) mod simulation {
    use reconcile_sim::events::EventLog;
    use reconcile_sim::{LogEntry, PassRecord, Verdict};
    use serde::Serialize;

    /// What `simulate` returns.
    #[derive(Serialize)]
    #[cfg_attr(all(test, not(target_arch = "wasm32")), derive(ts_rs::TS))]
    #[serde(rename_all = "camelCase")]
    pub struct Timeline<'a> {
        pub passes: &'a [PassRecord],
        pub log: &'a [LogEntry],
        /// Every step the controller took part in (requests, watch events,
        /// queue adds, reconcile start and end), the first 10,000.
        pub events: &'a EventLog,
        pub verdict: &'a Verdict,
        /// "Converged after 2 passes (t = 25 ms)", "Not converging: ...".
        pub verdict_text: String,
    }

    impl<'a> Timeline<'a> {
        pub fn of(timeline: &'a reconcile_sim::Timeline) -> Self {
            Self {
                passes: &timeline.passes,
                log: &timeline.log,
                events: &timeline.events,
                verdict: &timeline.verdict,
                verdict_text: timeline.verdict.to_string(),
            }
        }
    }

    /// What `simulateVerdict` returns: the end of a run without its passes.
    #[derive(Serialize)]
    #[cfg_attr(all(test, not(target_arch = "wasm32")), derive(ts_rs::TS))]
    #[serde(rename_all = "camelCase")]
    pub struct SimVerdict<'a> {
        /// How many passes ran.
        pub passes: usize,
        pub verdict: &'a Verdict,
        pub verdict_text: String,
    }

    impl<'a> SimVerdict<'a> {
        pub fn of(timeline: &'a reconcile_sim::Timeline) -> Self {
            Self {
                passes: timeline.passes.len(),
                verdict: &timeline.verdict,
                verdict_text: timeline.verdict.to_string(),
            }
        }
    }
}

#[cfg(feature = "yaml")]
pub(crate) mod yaml {
    use reconcile_core::Scenario;
    use reconcile_yaml::{Format, ManifestObject, ReadScenario};
    use serde::{Deserialize, Serialize};

    /// What `readDocuments` returns: the scenario as `reconcileYaml` reads
    /// it (finalizers filled from the manifests), each document's format,
    /// and the manifests' objects, with the fields set aside from each.
    #[derive(Serialize)]
    #[cfg_attr(all(test, not(target_arch = "wasm32")), derive(ts_rs::TS))]
    #[serde(rename_all = "camelCase")]
    pub struct ReadDocuments<'a> {
        pub scenario: &'a Scenario,
        pub desired_format: Format,
        pub observed_format: Format,
        /// Empty unless desired was Kubernetes manifests; in name order.
        pub desired_manifests: &'a [ManifestObject],
        pub observed_manifests: &'a [ManifestObject],
    }

    impl<'a> ReadDocuments<'a> {
        pub fn of(read: &'a ReadScenario) -> Self {
            Self {
                scenario: &read.scenario,
                desired_format: read.desired.format,
                observed_format: read.observed.format,
                desired_manifests: &read.desired.manifests,
                observed_manifests: &read.observed.manifests,
            }
        }
    }

    /// The options of the YAML functions: kinds to read as cluster-scoped
    /// (named `Kind/name`), beyond the built-in ones.
    #[derive(Deserialize, Default)]
    #[cfg_attr(all(test, not(target_arch = "wasm32")), derive(ts_rs::TS))]
    #[serde(rename_all = "camelCase", deny_unknown_fields, default)]
    pub struct YamlOptions {
        #[cfg_attr(
            all(test, not(target_arch = "wasm32")),
            ts(as = "Option<Vec<String>>", optional)
        )]
        pub cluster_scoped: Vec<String>,
    }
}

#[cfg(feature = "check")]
pub(crate) mod checking {
    use reconcile_check::{Answer, EqualityNote, FinalizersArg, Mark, Outcome};
    use reconcile_core::model::{Finalizers, Resources};
    use reconcile_core::reconcile::Action;
    use serde::Serialize;

    /// How a check of a learner's reconcile ended.
    #[derive(Serialize)]
    #[cfg_attr(all(test, not(target_arch = "wasm32")), derive(ts_rs::TS))]
    #[serde(rename_all = "camelCase")]
    pub struct CheckOutcome<'a> {
        pub passed: bool,
        /// Cases run, shrink candidates included.
        pub total: usize,
        pub counterexample: Option<CounterexampleView<'a>>,
    }

    /// The minimal case the learner's reconcile gets wrong, and why.
    #[derive(Serialize)]
    #[cfg_attr(all(test, not(target_arch = "wasm32")), derive(ts_rs::TS))]
    #[serde(rename_all = "camelCase")]
    pub struct CounterexampleView<'a> {
        pub desired: &'a Resources,
        pub observed: &'a Resources,
        /// `null` both when the argument was `null` and when it was left out
        /// (`finalizersOmitted`).
        pub finalizers: Option<&'a Finalizers>,
        pub finalizers_omitted: bool,
        pub expected: &'a [Action],
        /// What it returned, when it returned an action list.
        pub actual: Option<&'a [Action]>,
        /// What it raised, or why its result is not an action list.
        pub error: Option<String>,
        pub expected_marks: &'a [Mark],
        pub actual_marks: &'a [Mark],
        /// The rule that was broken, in words.
        pub rule: &'a str,
        pub notes: Vec<NoteView>,
    }

    /// Where the learner's language compares differently from JSON, explained.
    #[derive(Serialize)]
    #[cfg_attr(all(test, not(target_arch = "wasm32")), derive(ts_rs::TS))]
    pub struct NoteView {
        pub note: EqualityNote,
        pub text: &'static str,
    }

    impl<'a> CheckOutcome<'a> {
        pub fn of(outcome: &'a Outcome) -> Self {
            match outcome {
                Outcome::Passed { cases } => Self {
                    passed: true,
                    total: *cases,
                    counterexample: None,
                },
                Outcome::Failed {
                    cases,
                    counterexample: found,
                } => {
                    let (actual, error) = match &found.answer {
                        Answer::Actions(actions) => (Some(actions.as_slice()), None),
                        Answer::Malformed(error) => (None, Some(error.to_string())),
                        Answer::Raised(message) => (None, Some(message.clone())),
                    };
                    Self {
                        passed: false,
                        total: *cases,
                        counterexample: Some(CounterexampleView {
                            desired: &found.case.desired,
                            observed: &found.case.observed,
                            finalizers: found.case.finalizers(),
                            finalizers_omitted: found.case.finalizers == FinalizersArg::Omitted,
                            expected: &found.expected,
                            actual,
                            error,
                            expected_marks: &found.expected_marks,
                            actual_marks: &found.actual_marks,
                            rule: &found.rule,
                            notes: found
                                .notes
                                .iter()
                                .map(|note| NoteView {
                                    note: *note,
                                    text: note.explain(),
                                })
                                .collect(),
                        }),
                    }
                }
            }
        }
    }
}

#[wasm_bindgen(typescript_custom_section)]
const TYPESCRIPT: &str = include_str!("types.d.ts");

/// Writes `types.d.ts` from the Rust types, or checks that it is up to date.
#[cfg(all(
    test,
    feature = "simulate",
    feature = "check",
    not(target_arch = "wasm32")
))]
mod generate {
    use reconcile_check::{EqualityNote, Mark};
    use reconcile_core::{
        parse_json, Action, ActionKind, Document, Drift, ExplainedAction, Finalizers, Json, Plan,
        Reason, Resources, Scenario, Summary,
    };
    use reconcile_sim::events::{EventEntry, EventLog, SimEvent};
    use reconcile_sim::workqueue::AddOutcome;
    use reconcile_sim::{
        ActionOutcome, ActionResult, BackoffPolicy, Change, CloudSettings, CrashPlan,
        FinalizerOwner, FinalizerRef, GcAction, Happening, LogEntry, NotConvergingReason,
        ObjectNaming, OtherWriter, PassRecord, PassSkip, PropagationPolicy, QueueModel,
        ScriptedEvent, SimConfig, SpecComparison, StatusWrite, StatusWrites, Trigger, Verdict,
        WatchedKind, World, WorldEvent,
    };
    use ts_rs::{Config, TS};

    use super::checking;
    use super::looping::{LoopTexts, VerdictText};
    use super::{CheckOutcome, LoopOutcome, SimVerdict, Timeline};
    use crate::driven::ControllerRunEnd;
    use reconcile_sim::learner;
    use reconcile_sim::own_reconcile::{Idempotence, LoopVerdicts, RestartSurvival};

    const HEADER: &str = "\
// Generated from the Rust types by ts-rs: `UPDATE_TS=1 cargo test -p reconcile-wasm --lib`
// writes it, and that test fails when it is stale. Do not edit (see src/types.rs).
";

    /// One declaration: its doc comment, then `export type Name = ...;`.
    struct Declaration {
        name: String,
        text: String,
        dependencies: Vec<String>,
    }

    fn declaration<T: TS + 'static + ?Sized>(cfg: &Config) -> Declaration {
        let docs = T::docs().map_or_else(String::new, |docs| first_paragraph(&docs));
        Declaration {
            name: T::ident(cfg),
            text: code_links(&format!("{docs}export {}", T::decl(cfg))),
            dependencies: T::dependencies(cfg)
                .into_iter()
                .map(|dependency| dependency.ts_name)
                .collect(),
        }
    }

    /// A type's doc comment cut to its first paragraph, the summary: the
    /// rest says how the Rust type works, which a course page never sees.
    fn first_paragraph(docs: &str) -> String {
        let mut lines: Vec<&str> = docs
            .lines()
            .take_while(|line| *line != " *" && *line != " */")
            .collect();
        lines.push(" */");
        lines.join("\n") + "\n"
    }

    /// Rustdoc's links, ``[`Resources`]``, as plain code: `` `Resources` ``.
    fn code_links(text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(start) = rest.find("[`") {
            let link = rest[start + 2..]
                .find('`')
                .filter(|end| rest[start + 2 + end + 1..].starts_with(']'));
            let Some(end) = link else {
                out.push_str(&rest[..start + 2]);
                rest = &rest[start + 2..];
                continue;
            };
            out.push_str(&rest[..start]);
            out.push_str(&rest[start + 1..start + 2 + end + 1]);
            rest = &rest[start + 2 + end + 2..];
        }
        out.push_str(rest);
        out
    }

    /// Every type the API takes or returns, in reading order.
    fn declarations(cfg: &Config) -> Vec<Declaration> {
        vec![
            // The documents.
            declaration::<Json>(cfg),
            declaration::<Resources>(cfg),
            declaration::<Finalizers>(cfg),
            declaration::<Scenario>(cfg),
            declaration::<reconcile_sim::CustomResourceEntry<'static>>(cfg),
            declaration::<reconcile_sim::CustomResourcesScenario<'static>>(cfg),
            // `reconcile` and `plan`.
            declaration::<ActionKind>(cfg),
            declaration::<Action>(cfg),
            declaration::<Reason>(cfg),
            declaration::<Drift>(cfg),
            declaration::<ExplainedAction>(cfg),
            declaration::<Summary>(cfg),
            declaration::<Plan>(cfg),
            // The simulation's settings.
            declaration::<BackoffPolicy>(cfg),
            declaration::<QueueModel>(cfg),
            declaration::<SpecComparison>(cfg),
            declaration::<ObjectNaming>(cfg),
            declaration::<reconcile_sim::ObjectWrites>(cfg),
            declaration::<StatusWrites>(cfg),
            declaration::<EventLog>(cfg),
            declaration::<EventEntry>(cfg),
            declaration::<SimEvent>(cfg),
            declaration::<AddOutcome>(cfg),
            declaration::<PropagationPolicy>(cfg),
            declaration::<WorldEvent>(cfg),
            declaration::<FinalizerRef>(cfg),
            declaration::<FinalizerOwner>(cfg),
            declaration::<CrashPlan>(cfg),
            declaration::<CloudSettings>(cfg),
            declaration::<reconcile_sim::cloud::CloudCall>(cfg),
            declaration::<ScriptedEvent>(cfg),
            declaration::<OtherWriter>(cfg),
            declaration::<SimConfig>(cfg),
            sim_options(),
            // What a run returns.
            declaration::<Change>(cfg),
            declaration::<Trigger>(cfg),
            declaration::<ActionResult>(cfg),
            declaration::<ActionOutcome>(cfg),
            declaration::<StatusWrite>(cfg),
            declaration::<World>(cfg),
            declaration::<PassSkip>(cfg),
            declaration::<PassRecord>(cfg),
            declaration::<GcAction>(cfg),
            declaration::<WatchedKind>(cfg),
            declaration::<Happening>(cfg),
            declaration::<LogEntry>(cfg),
            declaration::<NotConvergingReason>(cfg),
            declaration::<Verdict>(cfg),
            declaration::<Timeline<'static>>(cfg),
            declaration::<SimVerdict<'static>>(cfg),
            // A learner's reconcile in the loop.
            declaration::<Idempotence>(cfg),
            declaration::<RestartSurvival>(cfg),
            declaration::<LoopVerdicts>(cfg),
            declaration::<VerdictText>(cfg),
            declaration::<LoopTexts>(cfg),
            declaration::<LoopOutcome<'static>>(cfg),
            // A learner's controller, driven one call at a time.
            declaration::<learner::Request>(cfg),
            declaration::<learner::Read>(cfg),
            declaration::<learner::PatchKind>(cfg),
            declaration::<learner::ClientCall>(cfg),
            declaration::<learner::ApiFailure>(cfg),
            declaration::<learner::CallError>(cfg),
            declaration::<learner::ReconcileOutcome>(cfg),
            declaration::<learner::CallRecord>(cfg),
            declaration::<learner::ReconcileRecord>(cfg),
            declaration::<learner::Property>(cfg),
            declaration::<ControllerRunEnd<'static>>(cfg),
            // Checking a learner's reconcile.
            declaration::<Mark>(cfg),
            declaration::<EqualityNote>(cfg),
            declaration::<checking::NoteView>(cfg),
            declaration::<checking::CounterexampleView<'static>>(cfg),
            declaration::<CheckOutcome<'static>>(cfg),
            // YAML and Kubernetes manifests.
            declaration::<reconcile_yaml::Format>(cfg),
            declaration::<reconcile_yaml::ManifestObject>(cfg),
            declaration::<super::yaml::ReadDocuments<'static>>(cfg),
            declaration::<super::yaml::YamlOptions>(cfg),
        ]
    }

    /// `simulate`'s options: any part of a `SimConfig`, with the defaults
    /// taken from `SimConfig::default()` so the comment cannot drift.
    fn sim_options() -> Declaration {
        let defaults = serde_json::to_string(&SimConfig::default()).expect("serializes");
        // Core's parser keeps the members in the order `SimConfig` declares them.
        let Ok(Json::Object(defaults)) = parse_json(Document::Scenario, &defaults) else {
            panic!("SimConfig serializes as an object");
        };
        let mut text = String::from(
            "/**\n * `simulate`'s options: any of the settings of a `SimConfig`; the others keep\n * their defaults. An unknown option name is an error. Times are simulated\n * milliseconds. The defaults:\n",
        );
        for (name, value) in defaults.iter() {
            text.push_str(&format!(" * - `{name}`: `{}`\n", value.to_compact_string()));
        }
        text.push_str(" */\nexport type SimOptions = Partial<SimConfig>;");
        Declaration {
            name: "SimOptions".to_owned(),
            text,
            dependencies: vec!["SimConfig".to_owned()],
        }
    }

    fn generated() -> String {
        // JSON numbers: `JSON.parse` gives a `number` for every integer, u64 included.
        let cfg = Config::new().with_large_int("number");
        let declarations = declarations(&cfg);
        for declaration in &declarations {
            for dependency in &declaration.dependencies {
                assert!(
                    declarations.iter().any(|d| d.name == *dependency),
                    "{} uses {dependency}, which is not declared: add it to `declarations`",
                    declaration.name
                );
            }
        }
        let mut text = String::from(HEADER);
        for declaration in declarations {
            text.push('\n');
            text.push_str(&declaration.text);
            text.push('\n');
        }
        text
    }

    #[test]
    fn types_d_ts_is_generated_from_the_rust_types() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/types.d.ts");
        let generated = generated();
        if std::env::var_os("UPDATE_TS").is_some() {
            std::fs::write(path, &generated).expect("writes types.d.ts");
            return;
        }
        let current = std::fs::read_to_string(path).unwrap_or_default();
        assert!(
            current == generated,
            "src/types.d.ts is stale: run `UPDATE_TS=1 cargo test -p reconcile-wasm --lib` and commit it"
        );
    }
}
