//! The run and the cursor as the section's views take them: start at
//! [`ViewRun`].
//!
//! The simulation section's module (`reconcile-simulation-ui`) holds the
//! control-plane view and level vs edge. The page mounts only the section
//! (`mount_simulation`); its messages are in [`crate::section`].
//! [`ViewRun`] (the scenario and the settings as JSON text) and
//! [`ViewCursor`] (the one cursor) travel inside those messages.
//! Inside the module, `SectionState` hands each view a [`ViewInput`] or a
//! [`LevelEdgeInput`] while its `<details>` is open.
//!
//! A view simulates the run itself with `reconcile_sim`, which is
//! deterministic, so its run is the page's: the same scenario and the same
//! `SimConfig` give the same timeline. A test below checks it on every preset
//! after the round trip through these types.
//!
//! Invariant: these only carry data. The page's reducer stays the only owner
//! of the cursor and of whether the conclusion is hidden.

use reconcile_core::InputError;
use reconcile_sim::{
    parse_options, parse_sim_scenario, write_list_form, CustomResources, SimConfig,
};
use serde::{Deserialize, Serialize};

/// The run the view shows: the page's scenario and settings as JSON text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ViewRun {
    /// One custom resource of the default name: the scenario as
    /// `reconcile_core::export_scenario` writes it. Unused when
    /// `custom_resources` holds the run.
    pub scenario: String,
    /// The `SimConfig` as serde writes it, read back by the simulation's own
    /// options parser.
    pub options: String,
    /// Several custom resources (or one renamed), in the tabs' order. The
    /// simulation writes their list form and checks it
    /// ([`ViewRun::read_scenario`]): the page does neither.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub custom_resources: Vec<NamedScenario>,
}

/// One custom resource of a run: its name, and its scenario as
/// `reconcile_core::export_scenario` writes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NamedScenario {
    pub name: String,
    pub scenario: String,
}

/// The one cursor, as the page's reducer holds it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ViewCursor {
    /// The moment on show: a position in the timeline's moments.
    pub position: usize,
    /// How far Step, Play and Run have revealed the run.
    pub revealed: usize,
    /// Stepping by event: the event shown (an index into the event log).
    pub event: Option<usize>,
}

/// The page to the view: at mount (with the run) and on every move of the
/// cursor (with the run only when it changed since the view last had it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ViewInput {
    pub run: Option<ViewRun>,
    pub cursor: ViewCursor,
}

/// The page to the level-vs-edge view: at mount (with the run) and on every
/// move of the cursor or reveal of the conclusion (with the run only when it
/// changed since the view last had it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LevelEdgeInput {
    pub run: Option<ViewRun>,
    pub cursor: ViewCursor,
    /// A class link opened the view: the conclusion waits until revealed.
    pub conclusion_hidden: bool,
}

impl ViewRun {
    /// The scenario and the settings, read with the simulation's own
    /// readers (core's for each custom resource).
    pub fn read(&self) -> Result<(CustomResources, SimConfig), String> {
        let scenario =
            (self.read_scenario()).map_err(|e| format!("the view's scenario: {}", e.message))?;
        let config = parse_options(&self.options)
            .map_err(|e| format!("the view's settings: {}", e.message))?;
        Ok((scenario, config))
    }

    /// The custom resources: core's form alone, or the list form of
    /// `custom_resources`, written and read by the simulation
    /// (`reconcile_sim::write_list_form`, `parse_sim_scenario`). Its errors
    /// name the entry (`reconcile_sim::list_entry_of`): a repeated name.
    pub fn read_scenario(&self) -> Result<CustomResources, InputError> {
        if self.custom_resources.is_empty() {
            return parse_sim_scenario(&self.scenario);
        }
        let entries = self.custom_resources.iter();
        let text = write_list_form(entries.map(|cr| (cr.name.as_str(), cr.scenario.as_str())));
        parse_sim_scenario(&text)
    }
}

impl ViewInput {
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    pub fn from_json(text: &str) -> Result<Self, String> {
        serde_json::from_str(text).map_err(|e| format!("the view's input: {e}"))
    }
}

impl LevelEdgeInput {
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    pub fn from_json(text: &str) -> Result<Self, String> {
        serde_json::from_str(text).map_err(|e| format!("the level-vs-edge view's input: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use reconcile_core::{check_scenario, export_scenario};
    use reconcile_sim::{compare_level_edge, simulate};

    #[test]
    fn inputs_read_back_as_written() {
        let input = ViewInput {
            run: Some(ViewRun {
                scenario: r#"{"desired":{"a":1},"observed":{}}"#.into(),
                options: "{}".into(),
                custom_resources: Vec::new(),
            }),
            cursor: ViewCursor {
                position: 4,
                revealed: 7,
                event: Some(12),
            },
        };
        assert_eq!(ViewInput::from_json(&input.to_json()), Ok(input));
        let level_edge = LevelEdgeInput {
            run: None,
            cursor: ViewCursor {
                position: 2,
                revealed: 3,
                event: None,
            },
            conclusion_hidden: true,
        };
        assert_eq!(
            LevelEdgeInput::from_json(&level_edge.to_json()),
            Ok(level_edge)
        );
    }

    #[test]
    fn a_malformed_message_is_an_error_not_a_default() {
        assert!(ViewInput::from_json("{}").is_err());
        assert!(LevelEdgeInput::from_json(
            r#"{"run":null,"cursor":{"position":0,"revealed":0,"event":null}}"#
        )
        .is_err());
        let bad_options = ViewRun {
            scenario: r#"{"desired":{},"observed":{}}"#.into(),
            options: r#"{"failureRat":0.5}"#.into(),
            custom_resources: Vec::new(),
        };
        assert!(bad_options.read().is_err());
    }

    /// The view simulates the run itself: after the round trip through a
    /// [`ViewRun`], every preset's run is the page's, moment for moment.
    #[test]
    fn the_view_runs_what_the_page_runs_for_every_preset() {
        let mut checked = 0;
        for preset in reconcile_content::presets::presets() {
            // YAML presets reach the page through the YAML module; their
            // scenario is core's all the same, as the JSON ones test here.
            let Ok(scenario) =
                check_scenario(&preset.desired, &preset.observed, &preset.finalizers)
            else {
                continue;
            };
            // As the page sends them: the preset's settings as given.
            let run = ViewRun {
                scenario: export_scenario(&scenario),
                options: preset.sim.to_text(),
                custom_resources: Vec::new(),
            };
            let (read, config) = run.read().expect(&preset.id);
            let preset_config = preset.sim.read().expect(&preset.id);
            assert_eq!(config, preset_config, "{}", preset.id);
            assert_eq!(
                simulate(read.first(), &config),
                simulate(&scenario, &preset_config),
                "{}",
                preset.id
            );
            // Level vs edge, which the same module computes from the same run.
            assert_eq!(
                compare_level_edge(read.first(), &config),
                compare_level_edge(&scenario, &preset_config),
                "{}",
                preset.id
            );
            checked += 1;
        }
        assert!(checked >= 10, "only {checked} presets checked");
    }
}
