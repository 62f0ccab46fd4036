//! The playground's content and formats: the built-in presets, the guided
//! lessons, the exercise's starters and what its on-demand pane and the page tell each other, share links and the autosave, the index of recent sessions, and the results download.
//!
//! Invariant: content is data (`presets/` and `lessons/` are JSON files,
//! compiled in, but for the page, which compiles in the lessons' index and
//! fetches a lesson's text when it opens), and this crate is the one reader that validates it, with
//! located errors: a lesson or preset that misspells a setting fails to load
//! (and fails `cargo test`), it is never silently read as a default. No web
//! dependencies, no clock, no global randomness.

pub mod control_plane;
mod data;
pub mod exercise;
pub mod lesson;
pub mod lesson_index;
pub mod pane;
pub mod presets;
pub mod progress;
pub mod section;
pub mod sessions;
pub mod setting_change;
pub mod share;
pub mod simulation;

pub use data::ContentError;
use reconcile_core::{Action, Plan};
use reconcile_sim::Timeline;

/// The plan and, when there is one, the simulation timeline, as one JSON document for download.
pub fn export_results(plan: &Plan, timeline: Option<&Timeline>) -> String {
    #[derive(serde::Serialize)]
    struct Results<'a> {
        actions: Vec<Action>,
        plan: &'a Plan,
        timeline: Option<&'a Timeline>,
    }
    let results = Results {
        actions: plan.bare_actions(),
        plan,
        timeline,
    };
    let mut text = serde_json::to_string_pretty(&results).unwrap_or_default();
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_results_download_names_fields_as_the_js_api_does() {
        let scenario = reconcile_core::parse_scenario(
            r#"{"desired":{"a":1},"observed":{"b":1},"finalizers":null}"#,
        )
        .expect("scenario");
        let options = r#"{"failureRate":1,"maxPasses":3,"script":[{"afterPass":1,"event":{"kind":"delete","name":"b"}}],"backoff":{"policy":"fixed-delay","delay_ms":20}}"#;
        let config = reconcile_sim::parse_options(options).expect("options");
        let timeline = reconcile_sim::simulate(&scenario, &config);
        let plan = reconcile_core::plan(&scenario.desired, &scenario.observed, None);
        let results = export_results(&plan, Some(&timeline));
        for name in ["requeuedAt", "afterPass", "outOfSync"] {
            assert!(
                results.contains(&format!("\"{name}\"")),
                "{name}: {results}"
            );
        }
        for name in ["requeued_at", "after_pass", "out_of_sync"] {
            assert!(!results.contains(name), "{name}: {results}");
        }
    }
}
