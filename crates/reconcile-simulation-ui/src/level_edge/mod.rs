//! Level vs edge, one of the section's views: start at [`LevelEdgeState`].
//!
//! The same event trace goes through an edge-triggered handler and the
//! level-triggered loop (`reconcile_sim::compare_level_edge`). It shows two
//! lanes per object up to what Step, Play and Run have revealed, then the
//! conclusion, which a class link hides until revealed. The section draws it
//! in its `<details>` (`section/components/run_views.rs`). The page keeps
//! whether it is open, the cursor and whether the conclusion is hidden
//! (`reconcile_protocol::control_plane::LevelEdgeInput`).

pub(crate) mod view;

use reconcile_protocol::control_plane::{LevelEdgeInput, ViewCursor};
use reconcile_sim::{compare_level_edge, Lanes, LevelEdge};
use reconcile_ui_shared::Shared;

/// What the app renders.
#[derive(Clone, PartialEq, Default)]
pub struct LevelEdgeShown {
    pub level_edge: Option<Shared<LevelEdge>>,
    /// The lanes up to the revealed moment.
    pub lanes: Option<Shared<Lanes>>,
    /// The moment on show: a position in the run's moments.
    pub cursor: usize,
    pub conclusion_hidden: bool,
}

/// Level vs edge of the run the page gave, computed once per run, and its
/// lanes, computed again only when the revealed moment moves.
#[derive(Default)]
pub struct LevelEdgeState {
    level_edge: Option<Shared<LevelEdge>>,
    lanes: Option<Shared<Lanes>>,
    cursor: ViewCursor,
    conclusion_hidden: bool,
}

impl LevelEdgeState {
    /// Takes what the page sent: a new run (compared at once), the cursor,
    /// whether the conclusion is hidden. A run that does not read is an
    /// error, and the last one stays.
    pub fn take(&mut self, input: LevelEdgeInput) -> Result<(), String> {
        if let Some(run) = input.run {
            let (scenario, config) = run.read()?;
            self.level_edge = Some(Shared::new(compare_level_edge(scenario.first(), &config)));
            self.lanes = None;
        }
        if self.lanes.is_none() || input.cursor.revealed != self.cursor.revealed {
            self.lanes = self
                .level_edge
                .as_ref()
                .map(|level_edge| Shared::new(level_edge.lanes(input.cursor.revealed)));
        }
        self.cursor = input.cursor;
        self.conclusion_hidden = input.conclusion_hidden;
        Ok(())
    }

    pub fn shown(&self) -> LevelEdgeShown {
        LevelEdgeShown {
            level_edge: self.level_edge.clone(),
            lanes: self.lanes.clone(),
            cursor: self.cursor.position,
            conclusion_hidden: self.conclusion_hidden,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use reconcile_core::{check_scenario, export_scenario};
    use reconcile_protocol::control_plane::ViewRun;
    use reconcile_sim::{SimConfig, WorldEvent};

    fn missed_delete_run() -> (ViewRun, LevelEdge) {
        let scenario = check_scenario(r#"{"a":1,"b":2}"#, "{}", "").expect("valid");
        let mut config = SimConfig::default();
        config.script.push(reconcile_sim::ScriptedEvent {
            after_pass: 1,
            event: WorldEvent::Delete { name: "a".into() },
        });
        let run = ViewRun {
            scenario: export_scenario(&scenario),
            options: serde_json::to_string(&config).expect("settings as JSON"),
            custom_resources: Vec::new(),
        };
        (run, compare_level_edge(&scenario, &config))
    }

    fn at(revealed: usize, conclusion_hidden: bool) -> LevelEdgeInput {
        LevelEdgeInput {
            run: None,
            cursor: ViewCursor {
                position: revealed,
                revealed,
                event: None,
            },
            conclusion_hidden,
        }
    }

    #[test]
    fn the_run_is_compared_and_the_lanes_follow_what_is_revealed() {
        let (run, expected) = missed_delete_run();
        let mut state = LevelEdgeState::default();
        state
            .take(LevelEdgeInput {
                run: Some(run),
                ..at(0, true)
            })
            .expect("a valid run");
        let shown = state.shown();
        let level_edge = shown.level_edge.expect("compared");
        assert_eq!(*level_edge, expected);
        assert!(shown.conclusion_hidden);
        let start = shown.lanes.expect("lanes");
        assert_eq!(*start, expected.lanes(0));
        let last = expected.level.moments.len() - 1;
        state.take(at(last, false)).expect("a move");
        let shown = state.shown();
        assert_eq!(shown.cursor, last);
        assert!(!shown.conclusion_hidden);
        let end = shown.lanes.expect("lanes");
        assert_eq!(*end, expected.lanes(last));
        assert!(end.columns.len() > start.columns.len());
        // A move behind what is revealed keeps the same lanes.
        state.take(at(last, false)).expect("a move");
        assert!(state.shown().lanes.expect("lanes") == end);
    }

    #[test]
    fn a_run_that_does_not_read_is_an_error_and_keeps_the_last_one() {
        let (run, _) = missed_delete_run();
        let mut state = LevelEdgeState::default();
        state
            .take(LevelEdgeInput {
                run: Some(run),
                ..at(0, false)
            })
            .expect("valid");
        let before = state.shown().level_edge.expect("compared");
        let bad = ViewRun {
            scenario: "{".into(),
            options: "{}".into(),
            custom_resources: Vec::new(),
        };
        assert!(state
            .take(LevelEdgeInput {
                run: Some(bad),
                ..at(0, false)
            })
            .is_err());
        assert!(state.shown().level_edge.expect("still compared") == before);
    }
}
