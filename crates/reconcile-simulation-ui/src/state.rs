//! What the view shows: the run the page gave it, simulated and replayed
//! here, and the picture at the page's cursor.

use std::cell::RefCell;

use reconcile_protocol::control_plane::{ViewCursor, ViewInput, ViewRun};
use reconcile_sim::picture::{position_of_moment, Picture, PictureReplay, Position};
use reconcile_sim::{
    simulate_custom_resources, BackoffSeries, CustomResources, Moment, SimConfig, Swimlanes,
    Timeline,
};
use reconcile_ui_shared::Shared;

/// Lanes drawn at most; the rest are counted ("…and N more objects").
pub const LANES_SHOWN: usize = 16;

/// One run: its timeline, its replay for pictures and its plots, computed
/// once when the run arrives.
pub struct Run {
    pub timeline: Shared<Timeline>,
    /// The run replayed for its pictures; it stays where it stopped, so a
    /// step forward costs one step (a memo of a deterministic run).
    replay: RefCell<PictureReplay>,
    pub lanes: Swimlanes,
    pub backoff: BackoffSeries,
}

impl Run {
    pub fn of(scenario: &CustomResources, config: &SimConfig) -> Self {
        let timeline = simulate_custom_resources(scenario, config);
        let replay = PictureReplay::of_custom_resources(scenario, config);
        Self::simulated(Shared::new(timeline), replay, config)
    }

    /// The run `timeline`, with `replay` giving its pictures (the
    /// simulation section gives its own run, so it is not simulated twice,
    /// and a learner's replay gives the pictures it kept).
    pub fn simulated(
        timeline: Shared<Timeline>,
        replay: PictureReplay,
        config: &SimConfig,
    ) -> Self {
        Self {
            replay: RefCell::new(replay),
            lanes: Swimlanes::of(&timeline, LANES_SHOWN),
            backoff: BackoffSeries::of(&timeline, &config.backoff),
            timeline,
        }
    }

    /// Where the cursor stands in the run: the event shown, else the moment.
    fn position(&self, cursor: ViewCursor) -> Option<Position> {
        match cursor.event {
            Some(event) => Some(Position::Event(event)),
            None => {
                let moment = self.timeline.moments.get(cursor.position).copied();
                position_of_moment(&self.timeline, moment.unwrap_or(Moment::Start))
            }
        }
    }

    /// Where "event ▶" most likely goes from `cursor`: the next event of the
    /// log, or the first of the next pass. A guess, only for [`ViewState::warm_up`].
    fn next_step(&self, cursor: ViewCursor) -> Option<ViewCursor> {
        let events = &self.timeline.events;
        let event = match cursor.event {
            Some(event) => event + 1,
            None => {
                let moment = self.timeline.moments.get(cursor.position).copied();
                let passes = self.timeline.passes_at(moment.unwrap_or(Moment::Start));
                events.start_of(passes + 1)?
            }
        };
        (event < events.entries.len()).then_some(())?;
        let pass = events.passes_started_by(event);
        let position = self.timeline.position_of(Moment::AfterPass(pass))?;
        Some(ViewCursor {
            position,
            revealed: cursor.revealed.max(position),
            event: Some(event),
        })
    }

    /// The picture at `cursor`; `None` past the event log's cap.
    fn picture_at(&self, cursor: ViewCursor) -> Option<Shared<Picture>> {
        let position = self.position(cursor)?;
        self.replay.borrow_mut().at(position).map(Shared::from)
    }
}

/// What the app renders.
#[derive(Clone, PartialEq)]
pub struct Shown {
    pub run: Option<Shared<Run>>,
    pub cursor: ViewCursor,
    pub picture: Option<Shared<Picture>>,
}

/// The run and the cursor as the page last gave them, and the picture there.
#[derive(Default)]
pub struct ViewState {
    run: Option<Shared<Run>>,
    cursor: ViewCursor,
    picture: Option<Shared<Picture>>,
}

impl ViewState {
    /// Takes what the page sent: a new run (simulated at once), then the cursor.
    pub fn take(&mut self, input: ViewInput) -> Result<(), String> {
        if let Some(run) = input.run {
            self.show_run(&run)?;
        }
        self.move_to(input.cursor);
        Ok(())
    }

    fn show_run(&mut self, run: &ViewRun) -> Result<(), String> {
        let (scenario, config) = run.read()?;
        self.show(Run::of(&scenario, &config));
        Ok(())
    }

    /// Shows `run` from now on; the cursor's picture is made on the next move.
    pub fn show(&mut self, run: Run) {
        self.run = Some(Shared::new(run));
        self.picture = None;
    }

    fn move_to(&mut self, cursor: ViewCursor) {
        let unchanged = self.picture.is_some() && cursor == self.cursor;
        self.cursor = cursor;
        if !unchanged {
            self.picture = self.run.as_ref().and_then(|run| run.picture_at(cursor));
        }
    }

    /// What the next step will most likely show, computed now: its picture
    /// stays in the replay's memo, and the app is rendered with it once
    /// before the cursor's own (`lib.rs`'s `SimulationView::update`, when the view opens), so the code a step runs
    /// (the replay's probe, yew's update of the drawing) is compiled while
    /// the module loads rather than on the first step (docs/SIZE.md).
    pub fn warm_up(&self) -> Option<Shown> {
        let run = self.run.as_ref()?;
        let cursor = run.next_step(self.cursor)?;
        Some(Shown {
            run: Some(run.clone()),
            cursor,
            picture: run.picture_at(cursor),
        })
    }

    pub fn shown(&self) -> Shown {
        Shown {
            run: self.run.clone(),
            cursor: self.cursor,
            picture: self.picture.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use reconcile_core::{check_scenario, export_scenario};
    use reconcile_sim::picture::ControllerPicture;

    fn run_of(desired: &str, observed: &str, config: &SimConfig) -> ViewRun {
        let scenario = check_scenario(desired, observed, "").expect("valid");
        ViewRun {
            scenario: export_scenario(&scenario),
            options: serde_json::to_string(config).expect("settings as JSON"),
            custom_resources: Vec::new(),
        }
    }

    #[test]
    fn a_run_arrives_and_the_picture_follows_the_cursor() {
        let run = run_of(
            r#"{"a":{"replicas":1},"b":{"replicas":3}}"#,
            r#"{"b":{"replicas":1},"c":{"replicas":1}}"#,
            &SimConfig::default(),
        );
        let mut state = ViewState::default();
        state
            .take(ViewInput {
                run: Some(run),
                cursor: ViewCursor::default(),
            })
            .expect("a valid run");
        let shown = state.shown();
        let timeline = &shown.run.as_ref().expect("simulated").timeline;
        assert!(timeline.passes.len() >= 2);
        let start = shown.picture.expect("the start's picture");
        assert_eq!(start.position, Position::Start);
        // After pass 1: the picture stands at the event that ended it.
        let after_pass_1 = timeline.position_of(Moment::AfterPass(1)).expect("pass 1");
        state
            .take(ViewInput {
                run: None,
                cursor: ViewCursor {
                    position: after_pass_1,
                    revealed: after_pass_1,
                    event: None,
                },
            })
            .expect("a move");
        let picture = state.shown().picture.expect("a picture after pass 1");
        assert!(matches!(picture.position, Position::Event(_)));
        assert!(
            matches!(
                picture.controller,
                ControllerPicture::Returned { pass: 1, .. }
            ),
            "{:?}",
            picture.controller
        );
        // Stepping by event: the event the page names is the one pictured.
        let event = timeline.events.start_of(1).expect("pass 1 starts");
        state
            .take(ViewInput {
                run: None,
                cursor: ViewCursor {
                    position: after_pass_1,
                    revealed: after_pass_1,
                    event: Some(event),
                },
            })
            .expect("a move");
        let picture = state.shown().picture.expect("the event's picture");
        assert_eq!(picture.position, Position::Event(event));
    }

    #[test]
    fn the_warm_up_pictures_the_next_event_and_keeps_the_cursor() {
        let run = run_of(r#"{"a":1,"b":2}"#, r#"{"b":1}"#, &SimConfig::default());
        let mut state = ViewState::default();
        state
            .take(ViewInput {
                run: Some(run),
                cursor: ViewCursor::default(),
            })
            .expect("valid");
        let warm = state.warm_up().expect("a next step");
        let timeline = &warm.run.as_ref().expect("a run").timeline;
        let first = timeline.events.start_of(1).expect("pass 1");
        assert_eq!(warm.cursor.event, Some(first));
        assert_eq!(
            warm.picture.expect("its picture").position,
            Position::Event(first)
        );
        // What the app shows is still the page's cursor.
        assert_eq!(state.shown().cursor, ViewCursor::default());
        assert_eq!(
            state.shown().picture.expect("the start").position,
            Position::Start
        );
        // At the log's last event there is no next one.
        let last = timeline.events.entries.len() - 1;
        let end = timeline.moments.len() - 1;
        state
            .take(ViewInput {
                run: None,
                cursor: ViewCursor {
                    position: end,
                    revealed: end,
                    event: Some(last),
                },
            })
            .expect("a move");
        assert!(state.warm_up().is_none());
    }

    #[test]
    fn a_run_that_does_not_read_is_an_error_and_keeps_the_last_one() {
        let mut state = ViewState::default();
        let good = run_of(r#"{"a":1}"#, "{}", &SimConfig::default());
        state
            .take(ViewInput {
                run: Some(good),
                cursor: ViewCursor::default(),
            })
            .expect("valid");
        let before = state.shown().run.expect("a run");
        let bad = ViewRun {
            scenario: "{".into(),
            options: "{}".into(),
            custom_resources: Vec::new(),
        };
        assert!(state
            .take(ViewInput {
                run: Some(bad),
                cursor: ViewCursor::default()
            })
            .is_err());
        assert!(state.shown().run.expect("still a run") == before);
    }
}
