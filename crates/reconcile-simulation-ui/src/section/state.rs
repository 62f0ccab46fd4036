//! What the simulation section holds between the page's inputs: the run it
//! simulated from the page's last `RunInput`, with the replay for the plan
//! at the cursor, and what it already told the page (the next pass's view
//! for which cursor, which lesson checks, how many results downloads). No
//! web dependency: the native tests below drive it with the page's
//! messages (`reconcile_protocol::section`).
//!
//! Invariant: the page owns the cursor and the settings; this only answers.
//! Each input's events come in one order: the run's facts first, then the
//! next pass's view, then a lesson check's answer.

use std::rc::Rc;

use reconcile_content::export_results;
use reconcile_content::lesson::{check_pass_actions, check_passes, Feedback};
#[cfg(feature = "replay")]
use reconcile_content::{export_replay_results, ReplayResults};
use reconcile_core::plan;
#[cfg(test)]
use reconcile_protocol::control_plane::NamedScenario;
use reconcile_protocol::control_plane::{LevelEdgeInput, ViewCursor, ViewInput, ViewRun};
use reconcile_protocol::section::{
    LessonCheck, LessonQuestion, RunInput, SectionFrame, SimulationEvent, SimulationInput,
};
use reconcile_protocol::setting_change::SettingChange;
use reconcile_protocol::simulation::{NextPassView, RunFacts};
use reconcile_sim::learner::properties::Property;
use reconcile_sim::learner::{ReconcileRecord, Schedule};
#[cfg(feature = "replay")]
use reconcile_sim::learner::{ReplayLink, ReplayedRun};
use reconcile_sim::picture::{Picture, PictureReplay, Position};
use reconcile_sim::{
    list_entry_of, parse_options, simulate_custom_resources, CustomResources, EventMoment, Moment,
    PassViews, SimConfig, SimSettings, Timeline,
};
use reconcile_ui_shared::Shared;

use crate::level_edge::{LevelEdgeShown, LevelEdgeState};
use crate::state::{Run, Shown as PictureShown, ViewState};

/// One run of the page's, simulated here, or a replay a link opened.
#[derive(Debug)]
pub struct SectionRun {
    /// The page's revision of this run.
    pub revision: usize,
    pub scenario: CustomResources,
    pub config: SimConfig,
    pub timeline: Shared<Timeline>,
    /// The run as the page sent it, for the two views of the run.
    view_run: ViewRun,
    /// A learner's controller replayed from its record: what broke, the
    /// story, and its pictures. `None`: the contract controller's run.
    pub replay: Option<ReplayShown>,
}

/// What the section shows of a replay beside its run: the check's words
/// (`reconcile_sim::learner::ReplayedRun`) and where it broke.
#[derive(Debug)]
pub struct ReplayShown {
    /// The exercise's id and goal.
    pub exercise: &'static str,
    pub goal: &'static str,
    /// The property that broke, as the check reports it.
    pub broken: Option<Property>,
    /// The faults placed, as the link gives them.
    pub schedule: Schedule,
    /// The faults, one sentence each.
    pub story: Vec<String>,
    /// The position in the timeline's moments where the property had broken.
    pub broke_at: usize,
    /// Each reconcile's calls and their answers.
    pub record: Vec<ReconcileRecord>,
    /// The control plane's picture at every event, kept as it ran.
    pictures: Rc<[Rc<Picture>]>,
}

#[cfg(feature = "replay")]
impl ReplayShown {
    /// A replay's results.json: the exercise, the property that broke, the
    /// schedule, the story and the replay's timeline; no plan, as the
    /// contract did not run.
    fn results(&self, timeline: &Timeline) -> String {
        export_replay_results(&ReplayResults {
            exercise: self.exercise,
            property: self.broken.as_ref(),
            schedule: &self.schedule,
            story: &self.story,
            timeline,
        })
    }
}

impl SectionRun {
    fn of(input: &RunInput) -> Result<Self, String> {
        if let Some(replay) = &input.replay {
            return Self::replayed(input, replay);
        }
        let (scenario, config) = input.run.read()?;
        let timeline = simulate_custom_resources(&scenario, &config);
        Ok(Self {
            revision: input.revision,
            scenario,
            config,
            timeline: Shared::new(timeline),
            view_run: input.run.clone(),
            replay: None,
        })
    }

    /// The replay `text` (a `ReplayLink`'s JSON) opened: its run, never the
    /// contract's, and never the learner's code.
    #[cfg(feature = "replay")]
    fn replayed(input: &RunInput, text: &str) -> Result<Self, String> {
        let opened = ReplayLink::read(text)?.open_for_views()?;
        let broke_at = opened.broke_at();
        let ReplayedRun {
            exercise,
            timeline,
            pictures,
            record,
            broken,
            schedule,
            story,
        } = opened;
        Ok(Self {
            revision: input.revision,
            scenario: exercise.scenario,
            config: exercise.config,
            timeline: Shared::new(timeline),
            view_run: input.run.clone(),
            replay: Some(ReplayShown {
                exercise: exercise.name,
                goal: exercise.goal_text,
                broken,
                schedule,
                story,
                broke_at,
                record,
                pictures: pictures.into_iter().map(Rc::new).collect(),
            }),
        })
    }

    /// This build leaves out the learner driver, to stay small: the page
    /// loads the `replay` build (`reconcile_simulation_replay`) for a replay.
    #[cfg(not(feature = "replay"))]
    fn replayed(_: &RunInput, _: &str) -> Result<Self, String> {
        Err("this build of the simulation section does not open replays".to_owned())
    }

    /// The run replayed for its control-plane pictures: a replay's kept
    /// pictures, else the contract's run again.
    pub fn picture_replay(&self) -> PictureReplay {
        match &self.replay {
            Some(replay) => PictureReplay::of_pictures(Rc::clone(&replay.pictures)),
            None => PictureReplay::of_custom_resources(&self.scenario, &self.config),
        }
    }

    /// The position of the run's last moment.
    pub fn last_position(&self) -> usize {
        self.timeline.moments.len().saturating_sub(1)
    }

    /// The moment at `position`, clamped to the run (a cursor the page
    /// placed in an earlier run may be past this one's end).
    pub fn moment_at(&self, position: usize) -> Moment {
        let moments = &self.timeline.moments;
        moments
            .get(position.min(self.last_position()))
            .copied()
            .unwrap_or(Moment::Start)
    }

    /// What the page is told after `change` was made in Faults and
    /// settings with the cursor at `position`: the whole settings, changed
    /// as `SettingChange::apply` changes them, with the passes at the cursor.
    pub fn settings_after(&self, change: SettingChange, position: usize) -> SimulationEvent {
        let mut sim = self.config.clone();
        let shown_pass = self.timeline.passes_at(self.moment_at(position));
        let show_script = change.apply(&mut sim, shown_pass);
        SimulationEvent::Settings {
            revision: self.revision,
            sim: SimSettings::of(&sim),
            show_script,
        }
    }

    /// results.json: the plan of the run's scenario (the page's plan, which
    /// is core's `plan` of the same documents) and the timeline. With
    /// several custom resources, the plan is the first one's. A replay's
    /// has no plan: see [`ReplayShown::results`].
    pub fn results(&self) -> String {
        #[cfg(feature = "replay")]
        if let Some(replay) = &self.replay {
            return replay.results(&self.timeline);
        }
        let scenario = self.scenario.first();
        let plan = plan(
            &scenario.desired,
            &scenario.observed,
            scenario.finalizers.as_ref(),
        );
        export_results(&plan, Some(&self.timeline))
    }

    fn answer(&self, question: &LessonQuestion) -> Feedback {
        match question {
            LessonQuestion::Passes { answer } => check_passes(*answer, &self.timeline),
            LessonQuestion::PassActions { pass, picked } => {
                check_pass_actions(picked, *pass, &self.timeline)
            }
        }
    }
}

/// What the section's app renders.
#[derive(Clone, PartialEq, Default)]
pub struct SectionShown {
    pub run: Option<Shared<SectionRun>>,
    /// The page's cursor, clamped to the run.
    pub cursor: ViewCursor,
    pub frame: SectionFrame,
    pub picture_open: bool,
    pub show_level_edge: bool,
    pub world_now: bool,
    /// Stepping by event, inside or between passes: the run at the event
    /// (`None` between passes and at a pass's end, the cursor's moment).
    pub at_event: Option<Shared<EventMoment>>,
    /// The control-plane view's state, while it is open.
    pub picture: Option<PictureShown>,
    /// Level vs edge's, while it is open.
    pub level_edge: Option<LevelEdgeShown>,
    /// Why the replay the page gave does not open.
    pub replay_refused: Option<Rc<str>>,
}

impl SectionShown {
    /// An embed before the learner's first step: its timeline, chart and
    /// status grid would be empty, so a course column shows none of them.
    pub fn before_first_step(&self) -> bool {
        self.frame.embed && self.cursor.revealed == 0 && self.at_event.is_none()
    }
}

/// What one input of the page's asks the module to do.
#[derive(Debug, Default, PartialEq)]
pub struct Answers {
    /// For the page, in this order.
    pub events: Vec<SimulationEvent>,
    /// results.json's text, to download.
    pub results: Option<String>,
    /// What went wrong (a run that does not read), for the console.
    pub errors: Vec<String>,
}

/// The section's state: see the module's documentation.
#[derive(Default)]
pub struct SectionState {
    run: Option<Shared<SectionRun>>,
    /// The run replayed for the next pass's view; it stays where it stopped.
    views: Option<PassViews>,
    input: Option<SimulationInput>,
    /// The (revision, position, event) of the last next pass's view sent.
    next_pass_sent: Option<(usize, usize, Option<usize>)>,
    /// The run replayed for the event moments while the control-plane view
    /// is closed (open, its picture serves); it stays where it stopped.
    event_replay: Option<PictureReplay>,
    /// The moment at the cursor's event, for (revision, event).
    at_event: Option<(usize, usize, Option<Shared<EventMoment>>)>,
    /// Lesson checks answered, by id.
    answered: Vec<usize>,
    /// "Download results" presses seen.
    results_seen: usize,
    picture: ViewState,
    /// The revision of the run the control-plane view was last given.
    picture_revision: Option<usize>,
    level_edge: LevelEdgeState,
    level_edge_revision: Option<usize>,
    /// Why the replay last given does not open.
    replay_refused: Option<Rc<str>>,
}

impl SectionState {
    /// Takes the page's input and answers it.
    pub fn take(&mut self, input: SimulationInput) -> Answers {
        let mut answers = self.take_shown(input);
        self.answer_next_pass(&mut answers);
        answers
    }

    /// The next pass's view for the cursor last taken, placed after the
    /// run's facts among `answers`: the second half of [`Self::take`], which
    /// the app computes after it has drawn the cursor (a step shows at once;
    /// the plan at the cursor follows in the same task).
    pub fn answer_next_pass(&mut self, answers: &mut Answers) {
        let (Some(run), Some(input)) = (self.run.clone(), &self.input) else {
            return;
        };
        let (position, event) = (input.cursor.position, input.cursor.event);
        let mut next = Answers::default();
        self.answer_cursor(&run, position, event, &mut next);
        let after_facts = usize::from(matches!(
            answers.events.first(),
            Some(SimulationEvent::Run { .. })
        ));
        for (offset, event) in next.events.into_iter().enumerate() {
            answers.events.insert(after_facts + offset, event);
        }
    }

    /// The first half of [`Self::take`]: everything the section draws (the
    /// run, the views fed, a check's answer, results), not the next pass's view.
    pub fn take_shown(&mut self, mut input: SimulationInput) -> Answers {
        let mut answers = Answers::default();
        if let Some(run) = input.run.take() {
            self.simulate(run, &mut answers);
        }
        if let Some(run) = self.run.clone() {
            if let Some(check) = &input.check {
                self.answer_check(&run, check, &mut answers);
            }
            self.feed_views(&run, &input, &mut answers);
            self.follow_event(&run, input.cursor.event);
        }
        if input.results_asked > self.results_seen {
            self.results_seen = input.results_asked;
            match &self.run {
                Some(run) => answers.results = Some(run.results()),
                None => answers
                    .errors
                    .push("results asked for before any run: nothing to download".to_owned()),
            }
        }
        self.input = Some(input);
        answers
    }

    fn simulate(&mut self, input: RunInput, answers: &mut Answers) {
        self.replay_refused = None;
        match SectionRun::of(&input) {
            Ok(run) => {
                answers.events.push(SimulationEvent::Run {
                    facts: RunFacts::of(run.revision, &run.timeline),
                });
                self.event_replay = None;
                match &run.replay {
                    // A replay: the cursor goes where the property broke (the
                    // page reveals a replay whole). Its settings are the
                    // exercise's, not the page's; no contract replays the
                    // next pass.
                    Some(replay) => {
                        answers.events.push(SimulationEvent::MoveTo {
                            position: replay.broke_at,
                        });
                        self.views = None;
                    }
                    None => {
                        // Settings written otherwise (a preset's few, an old
                        // link's names): the page keeps them as read, as links held them.
                        let read = SimSettings::of(&run.config);
                        if read.to_text() != input.run.options {
                            answers.events.push(SimulationEvent::SettingsRead {
                                revision: run.revision,
                                sim: read,
                            });
                        }
                        self.views =
                            Some(PassViews::of_custom_resources(&run.scenario, &run.config));
                    }
                }
                self.run = Some(Shared::new(run));
            }
            Err(error) if input.replay.is_some() => {
                // A replay that does not open: said in the section, where it
                // would have shown; the page offers the way back.
                self.replay_refused = Some(Rc::from(error.as_str()));
                self.run = None;
                self.views = None;
            }
            Err(error) => {
                // Settings that do not read (a link's, an autosave's): the
                // page keeps them as given and says so.
                if let Err(settings) = parse_options(&input.run.options) {
                    answers.events.push(SimulationEvent::SettingsRefused {
                        revision: input.revision,
                        message: settings.to_string(),
                    });
                    return;
                }
                // Custom resources that cannot run together: the page marks the tab.
                let refused = input.run.read_scenario().err();
                match refused.and_then(|e| Some((list_entry_of(&e)?, e.message))) {
                    Some((entry, message)) => answers.events.push(SimulationEvent::Refused {
                        revision: input.revision,
                        entry,
                        message,
                    }),
                    None => answers.errors.push(error),
                }
            }
        }
    }

    /// The next pass's view (or, at an event inside a pass, that pass's),
    /// once per (revision, position, event) past the start, for a position
    /// in the run.
    fn answer_cursor(
        &mut self,
        run: &SectionRun,
        position: usize,
        event: Option<usize>,
        answers: &mut Answers,
    ) {
        let key = (run.revision, position, event);
        if position == 0 || position > run.last_position() || self.next_pass_sent == Some(key) {
            return;
        }
        let Some(views) = self.views.as_mut() else {
            return;
        };
        answers.events.push(SimulationEvent::NextPass {
            next: NextPassView::at_event(run.revision, views, &run.timeline, position, event),
        });
        self.next_pass_sent = Some(key);
    }

    fn answer_check(&mut self, run: &SectionRun, check: &LessonCheck, answers: &mut Answers) {
        if self.answered.contains(&check.id) {
            return;
        }
        self.answered.push(check.id);
        answers.events.push(SimulationEvent::Checked {
            id: check.id,
            feedback: run.answer(&check.question),
        });
    }

    /// Gives the two views of the run what they show, while each is open
    /// (closed, they compute nothing): the run when it is new to them.
    fn feed_views(&mut self, run: &SectionRun, input: &SimulationInput, answers: &mut Answers) {
        let cursor = input.cursor;
        let shows_views = input.frame.timeline && !input.frame.concealed;
        if shows_views && input.picture_open {
            // The picture replays the section's own run: not simulated again.
            if self.picture_revision != Some(run.revision) {
                let timeline = run.timeline.clone();
                self.picture
                    .show(Run::simulated(timeline, run.picture_replay(), &run.config));
                self.picture_revision = Some(run.revision);
            }
            let given = self.picture.take(ViewInput { run: None, cursor });
            answers.errors.extend(given.err());
        }
        // Level vs edge runs the contract's two loops: not a replay's.
        if shows_views && input.show_level_edge && run.replay.is_none() {
            // Level vs edge compares its own two runs of the page's.
            let run_input =
                (self.level_edge_revision != Some(run.revision)).then(|| run.view_run.clone());
            self.level_edge_revision = Some(run.revision);
            let given = self.level_edge.take(LevelEdgeInput {
                run: run_input,
                cursor,
                conclusion_hidden: input.conclusion_hidden,
            });
            answers.errors.extend(given.err());
        }
    }

    /// The run at the cursor's event, from the control-plane view's picture
    /// when it is open, else from the section's own replay.
    fn follow_event(&mut self, run: &SectionRun, event: Option<usize>) {
        let Some(event) = event else {
            self.at_event = None;
            return;
        };
        if matches!(self.at_event, Some((revision, at, _)) if (revision, at) == (run.revision, event))
        {
            return;
        }
        let position = Position::Event(event);
        let pictured = self.picture.shown().picture.filter(|picture| {
            picture.position == position && self.picture_revision == Some(run.revision)
        });
        let picture: Option<Shared<Picture>> = pictured.or_else(|| {
            let replay = self
                .event_replay
                .get_or_insert_with(|| run.picture_replay());
            replay.at(position).map(Shared::from)
        });
        let moment = picture
            .and_then(|picture| EventMoment::of(&run.timeline, &picture))
            .map(Shared::new);
        self.at_event = Some((run.revision, event, moment));
    }

    /// What the section shows with the control-plane view at the step after
    /// the cursor (`ViewState::warm_up`): rendered once, in the same task,
    /// before the view first shows the cursor, so that the first step costs
    /// what any step costs. `None` while the view is not shown.
    pub fn warm_up(&self) -> Option<SectionShown> {
        let mut shown = self.shown();
        let picture = Some(self.picture.warm_up()?).filter(|_| shown.picture.is_some())?;
        // The event's views too: World now, the verdict and the grid.
        if let (Some(run), Some(next)) = (&self.run, &picture.picture) {
            shown.at_event = EventMoment::of(&run.timeline, next).map(Shared::new);
        }
        shown.picture = Some(picture);
        Some(shown)
    }

    /// Whether the run shown is a replay of a learner's controller.
    fn replays(&self) -> bool {
        self.run.as_ref().is_some_and(|run| run.replay.is_some())
    }

    /// The run's config and revision now, for Faults and settings.
    pub fn run(&self) -> Option<&Shared<SectionRun>> {
        self.run.as_ref()
    }

    pub fn shown(&self) -> SectionShown {
        let Some(input) = &self.input else {
            return SectionShown::default();
        };
        let last = self.run.as_ref().map_or(0, |run| run.last_position());
        let cursor = ViewCursor {
            position: input.cursor.position.min(last),
            revealed: input.cursor.revealed.min(last),
            event: input.cursor.event,
        };
        let shows_views = input.frame.timeline && !input.frame.concealed && self.run.is_some();
        SectionShown {
            run: self.run.clone(),
            cursor,
            frame: input.frame,
            picture_open: input.picture_open,
            show_level_edge: input.show_level_edge,
            world_now: input.world_now,
            at_event: self
                .at_event
                .as_ref()
                .filter(|(revision, event, _)| {
                    let run = self.run.as_ref().map(|run| run.revision);
                    (Some(*revision), Some(*event)) == (run, input.cursor.event)
                })
                .and_then(|(_, _, moment)| moment.clone()),
            picture: (shows_views && input.picture_open).then(|| self.picture.shown()),
            level_edge: (shows_views && input.show_level_edge && !self.replays())
                .then(|| self.level_edge.shown()),
            replay_refused: self.replay_refused.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use reconcile_core::{check_scenario, export_scenario, Scenario};
    use reconcile_protocol::section::SectionFrame;
    use reconcile_sim::{simulate, ScriptedEvent, WorldEvent};

    const DESIRED: &str = r#"{"a":{"replicas":1},"b":{"replicas":3}}"#;
    const OBSERVED: &str = r#"{"b":{"replicas":1},"c":{"replicas":1}}"#;

    /// The seed example, with another actor deleting `a` after pass 1.
    fn config() -> SimConfig {
        let mut config = SimConfig::default();
        config.script.push(ScriptedEvent {
            after_pass: 1,
            event: WorldEvent::Delete { name: "a".into() },
        });
        config
    }

    fn run_input(revision: usize, config: &SimConfig) -> RunInput {
        let scenario = check_scenario(DESIRED, OBSERVED, "").expect("valid");
        RunInput {
            revision,
            run: ViewRun {
                scenario: export_scenario(&scenario),
                options: serde_json::to_string(config).expect("settings as JSON"),
                custom_resources: Vec::new(),
            },
            replay: None,
        }
    }

    /// What the module computes, computed here the way the contract's
    /// functions do.
    fn oracle(config: &SimConfig) -> (Scenario, Timeline) {
        let scenario = check_scenario(DESIRED, OBSERVED, "").expect("valid");
        let timeline = simulate(&scenario, config);
        (scenario, timeline)
    }

    fn input(run: Option<RunInput>, position: usize) -> SimulationInput {
        SimulationInput {
            run,
            cursor: ViewCursor {
                position,
                revealed: position,
                event: None,
            },
            frame: SectionFrame {
                timeline: true,
                faults: true,
                ..SectionFrame::default()
            },
            picture_open: false,
            show_level_edge: false,
            conclusion_hidden: false,
            world_now: false,
            check: None,
            results_asked: 0,
        }
    }

    #[test]
    fn a_run_is_answered_with_its_facts_then_the_next_pass_view() {
        let config = config();
        let (scenario, timeline) = oracle(&config);
        let mut state = SectionState::default();
        // At the start: the facts only.
        let answers = state.take(input(Some(run_input(7, &config)), 0));
        assert_eq!(
            answers.events,
            vec![SimulationEvent::Run {
                facts: RunFacts::of(7, &timeline)
            }]
        );
        assert!(answers.errors.is_empty());
        // A new run with the cursor already moved: the facts, then the view.
        let mut views = PassViews::new(&scenario, &config);
        let answers = state.take(input(Some(run_input(8, &config)), 2));
        assert_eq!(
            answers.events,
            vec![
                SimulationEvent::Run {
                    facts: RunFacts::of(8, &timeline)
                },
                SimulationEvent::NextPass {
                    next: NextPassView::of(8, &mut views, &timeline, 2)
                },
            ]
        );
    }

    #[test]
    fn the_next_pass_view_follows_the_cursor_once_per_position() {
        let config = config();
        let (scenario, timeline) = oracle(&config);
        let mut views = PassViews::new(&scenario, &config);
        let mut state = SectionState::default();
        state.take(input(Some(run_input(1, &config)), 0));
        let last = timeline.moments.len() - 1;
        assert!(last >= 3, "{last}");
        for position in 1..=last {
            let answers = state.take(input(None, position));
            assert_eq!(
                answers.events,
                vec![SimulationEvent::NextPass {
                    next: NextPassView::of(1, &mut views, &timeline, position)
                }],
                "@{position}"
            );
            // The same position again: nothing new to say.
            assert_eq!(state.take(input(None, position)).events, vec![]);
        }
        // Back at the start: the page's own plan holds.
        assert_eq!(state.take(input(None, 0)).events, vec![]);
        // Moving back is a move too.
        let answers = state.take(input(None, 1));
        assert_eq!(
            answers.events,
            vec![SimulationEvent::NextPass {
                next: NextPassView::of(1, &mut views, &timeline, 1)
            }]
        );
    }

    #[test]
    fn a_cursor_past_the_run_or_a_run_that_does_not_read_panics_nothing() {
        let config = config();
        let (_, timeline) = oracle(&config);
        let mut state = SectionState::default();
        // No run yet: nothing to answer, nothing to show.
        assert_eq!(state.take(input(None, 3)), Answers::default());
        assert!(state.shown().run.is_none());
        state.take(input(Some(run_input(1, &config)), 0));
        let last = timeline.moments.len() - 1;
        let mut past = input(None, last + 5);
        past.picture_open = true;
        past.show_level_edge = true;
        past.world_now = true;
        past.cursor.revealed = usize::MAX;
        past.cursor.event = Some(usize::MAX);
        assert_eq!(state.take(past.clone()).events, vec![]);
        let shown = state.shown();
        assert_eq!((shown.cursor.position, shown.cursor.revealed), (last, last));
        assert!(shown.picture.is_some() && shown.level_edge.is_some());
        let run = shown.run.expect("a run");
        assert!(matches!(
            run.settings_after(
                SettingChange::CrashNextPass { after_actions: 1 },
                usize::MAX
            ),
            SimulationEvent::Settings { .. }
        ));
        // A run that does not read: an error, no event, the last run stays.
        let mut bad = run_input(2, &config);
        bad.run.scenario = "{".into();
        let answers = state.take(SimulationInput {
            run: Some(bad),
            ..past
        });
        assert!(answers.events.is_empty(), "{:?}", answers.events);
        assert_eq!(answers.errors.len(), 1, "{:?}", answers.errors);
        assert_eq!(state.run().expect("the last run").revision, 1);
        // Settings written otherwise are sent back as read; as read, they are not.
        let mut few = run_input(5, &config);
        few.run.options = r#"{"seed":3,"dropRate":0.5}"#.into();
        let answers = state.take(input(Some(few), 0));
        let read = SimConfig {
            seed: 3,
            watch_break_rate: 0.5,
            ..SimConfig::default()
        };
        let sent = SimulationEvent::SettingsRead {
            revision: 5,
            sim: SimSettings::of(&read),
        };
        assert!(answers.events.contains(&sent), "{:?}", answers.events);
        let answers = state.take(input(Some(run_input(6, &read)), 0));
        assert!(
            !(answers.events.iter()).any(|e| matches!(e, SimulationEvent::SettingsRead { .. })),
            "{:?}",
            answers.events
        );
        // Settings that do not read: the page is told where and what.
        let mut bad_settings = run_input(3, &config);
        bad_settings.run.options = r#"{"seed":"x"}"#.into();
        let answers = state.take(input(Some(bad_settings), 0));
        assert_eq!(
            answers.events,
            [SimulationEvent::SettingsRefused {
                revision: 3,
                message: "Simulation options at $.seed: invalid type: string \"x\", expected u64"
                    .into()
            }]
        );
        assert_eq!(state.run().expect("the last run").revision, 6);
    }

    #[test]
    fn custom_resources_that_repeat_a_name_are_refused_naming_the_entry() {
        let config = config();
        let mut state = SectionState::default();
        let mut run = run_input(4, &config);
        let named = |name: &str, observed: &str| NamedScenario {
            name: name.into(),
            scenario: format!(r#"{{"desired": {{}}, "observed": {observed}}}"#),
        };
        run.run.custom_resources = vec![
            named("a", r#"{"web-0": {}}"#),
            named("b", r#"{"web-0": {}}"#),
        ];
        let answers = state.take(input(Some(run.clone()), 0));
        assert!(answers.errors.is_empty(), "{:?}", answers.errors);
        let [SimulationEvent::Refused {
            revision: 4,
            entry: 1,
            message,
        }] = &answers.events[..]
        else {
            panic!("{:?}", answers.events);
        };
        assert!(message.contains("\"web-0\""), "{message}");
        // Apart, the two run together: the section writes and reads their list form.
        run.revision = 5;
        run.run.custom_resources[1] = named("b", r#"{"web-1": {}}"#);
        let answers = state.take(input(Some(run), 0));
        assert!(
            matches!(answers.events[..], [SimulationEvent::Run { .. }]),
            "{:?}",
            answers.events
        );
        assert_eq!(state.run().expect("a run").scenario.entries().len(), 2);
    }

    #[test]
    fn a_lesson_check_is_answered_once_with_the_lesson_checks_feedback() {
        let config = SimConfig::default();
        let (_, timeline) = oracle(&config);
        let mut state = SectionState::default();
        let question = LessonQuestion::Passes { answer: 2 };
        let mut asked = input(None, 0);
        asked.check = Some(LessonCheck {
            id: 1,
            question: question.clone(),
        });
        // Before a run: it waits.
        assert_eq!(state.take(asked.clone()).events, vec![]);
        let mut with_run = asked.clone();
        with_run.run = Some(run_input(1, &config));
        let answers = state.take(with_run);
        assert_eq!(
            answers.events,
            vec![
                SimulationEvent::Run {
                    facts: RunFacts::of(1, &timeline)
                },
                SimulationEvent::Checked {
                    id: 1,
                    feedback: check_passes(2, &timeline)
                }
            ]
        );
        // The same check again: answered already.
        assert_eq!(state.take(asked.clone()).events, vec![]);
        let picked = vec!["CREATE a".to_owned(), "UPDATE b".to_owned()];
        asked.check = Some(LessonCheck {
            id: 2,
            question: LessonQuestion::PassActions {
                pass: 1,
                picked: picked.clone(),
            },
        });
        assert_eq!(
            state.take(asked).events,
            vec![SimulationEvent::Checked {
                id: 2,
                feedback: check_pass_actions(&picked, 1, &timeline)
            }]
        );
    }

    #[test]
    fn a_setting_change_comes_back_as_the_whole_settings_changed_as_apply_does() {
        let config = config();
        let (_, timeline) = oracle(&config);
        let mut state = SectionState::default();
        let position = timeline.moments.len() - 1;
        state.take(input(Some(run_input(4, &config)), position));
        let shown = state.shown();
        let run = shown.run.expect("a run");
        let passes = timeline.passes_at(timeline.moments[position]);
        assert!(passes > 0);
        for change in [
            SettingChange::FailureRate(0.3),
            SettingChange::Seed(99),
            SettingChange::CrashNextPass { after_actions: 1 },
            SettingChange::Inject(WorldEvent::Delete { name: "b".into() }),
        ] {
            let mut expected = config.clone();
            let show_script = change.clone().apply(&mut expected, passes);
            assert_ne!(expected, config, "{change:?}");
            assert_eq!(
                run.settings_after(change, position),
                SimulationEvent::Settings {
                    revision: 4,
                    sim: SimSettings::of(&expected),
                    show_script
                }
            );
        }
    }

    #[test]
    fn each_new_results_count_downloads_the_results_once() {
        let config = config();
        let (scenario, timeline) = oracle(&config);
        let expected = export_results(
            &plan(
                &scenario.desired,
                &scenario.observed,
                scenario.finalizers.as_ref(),
            ),
            Some(&timeline),
        );
        let mut state = SectionState::default();
        // Pressed before the module came: the mount's input counts 1.
        let mut mount = input(Some(run_input(1, &config)), 0);
        mount.results_asked = 1;
        assert_eq!(state.take(mount.clone()).results, Some(expected.clone()));
        mount.run = None;
        assert_eq!(state.take(mount.clone()).results, None);
        mount.results_asked = 2;
        assert_eq!(state.take(mount).results, Some(expected));
        // Without a run there is nothing to download: said, not done.
        let mut early = SectionState::default();
        let mut asked = input(None, 0);
        asked.results_asked = 1;
        let answers = early.take(asked);
        assert_eq!((answers.results, answers.errors.len()), (None, 1));
    }

    /// Stepping by event: every event of the run, with the control-plane
    /// view closed (the section's own replay) and open (its picture), gives
    /// the moment a fresh replay gives; the next pass's view follows too.
    #[test]
    fn stepping_by_event_shows_the_events_moment_open_or_closed() {
        let config = config();
        let (scenario, timeline) = oracle(&config);
        let mut fresh = PictureReplay::new(&scenario, &config);
        for picture_open in [false, true] {
            let mut state = SectionState::default();
            state.take(input(Some(run_input(1, &config)), 0));
            let mut inside = 0;
            for event in 0..timeline.events.entries.len() {
                let pass = timeline.events.passes_started_by(event);
                let position = timeline.position_of(Moment::AfterPass(pass)).unwrap_or(0);
                let mut step = input(None, position);
                step.cursor.event = Some(event);
                step.picture_open = picture_open;
                let answers = state.take(step);
                let picture = fresh.at(Position::Event(event)).expect("a picture");
                let expected = EventMoment::of(&timeline, &picture);
                let shown = state.shown();
                assert_eq!(shown.at_event.as_deref(), expected.as_ref(), "#{event}");
                inside += usize::from(expected.is_some());
                if position > 0 {
                    let [SimulationEvent::NextPass { next }] = answers.events.as_slice() else {
                        panic!("#{event}: {:?}", answers.events);
                    };
                    assert_eq!((next.position, next.event), (position, Some(event)));
                }
            }
            assert!(inside > 5, "{inside} events inside or between passes");
            // Back to a moment: no event, no event moment.
            state.take(input(None, 1));
            assert!(state.shown().at_event.is_none());
        }
    }

    #[test]
    fn the_views_of_the_run_are_fed_only_while_open_and_shown() {
        let config = config();
        let (_, timeline) = oracle(&config);
        let mut state = SectionState::default();
        state.take(input(Some(run_input(1, &config)), 1));
        assert!(state.shown().picture.is_none() && state.shown().level_edge.is_none());
        let mut open = input(None, 1);
        open.picture_open = true;
        open.show_level_edge = true;
        open.conclusion_hidden = true;
        state.take(open.clone());
        let shown = state.shown();
        let picture = shown.picture.expect("the picture");
        let pictured = picture.run.expect("the picture's run");
        assert_eq!(pictured.timeline.moments, timeline.moments);
        // The section's own run, not simulated again.
        let section_run = state.run().expect("a run");
        assert!(pictured.timeline == section_run.timeline);
        assert_eq!(picture.cursor.position, 1);
        let level_edge = shown.level_edge.expect("level vs edge");
        assert!(level_edge.level_edge.is_some() && level_edge.conclusion_hidden);
        // The same run again is not simulated again by the views.
        open.cursor.position = 2;
        open.cursor.revealed = 2;
        state.take(open.clone());
        let moved = state.shown().picture.expect("the picture");
        assert!(moved.run.expect("its run") == pictured);
        assert_eq!(moved.cursor.position, 2);
        // Concealed, or without the timeline pane, the views are not shown.
        open.frame.concealed = true;
        state.take(open.clone());
        assert!(state.shown().picture.is_none());
        open.frame.concealed = false;
        open.frame.timeline = false;
        state.take(open);
        assert!(state.shown().level_edge.is_none());
    }

    #[cfg(feature = "replay")]
    /// A controller that creates each ConfigMap without its owner
    /// reference: the check catches it breaking "safe" at a pass.
    struct NoOwnerReference;

    #[cfg(feature = "replay")]
    impl reconcile_sim::learner::Reconciler for NoOwnerReference {
        fn reconcile(
            &mut self,
            request: &reconcile_sim::learner::Request,
            client: &mut reconcile_sim::learner::Client<'_>,
        ) -> reconcile_sim::learner::Finish {
            use reconcile_sim::learner::{ClientCall, Finish, Read};
            let name = format!("{}-config", request.name);
            let get = |client: &mut reconcile_sim::learner::Client<'_>, kind: &str, name: &str| {
                client.call(ClientCall::Get {
                    kind: kind.to_owned(),
                    name: name.to_owned(),
                    namespace: None,
                    read: Read::Cache,
                })
            };
            let Ok(custom) = get(client, "Desired", &request.name) else {
                return Finish::Ok(None);
            };
            if get(client, "ConfigMap", &name).is_ok() {
                return Finish::Ok(None);
            }
            let object = serde_json::json!({
                "apiVersion": "v1", "kind": "ConfigMap",
                "metadata": { "name": name }, "data": custom["spec"]["data"],
            });
            match client.call(ClientCall::Create { object }) {
                Ok(_) => Finish::Ok(None),
                Err(error) => Finish::Error(error.to_string()),
            }
        }
    }

    #[cfg(feature = "replay")]
    /// The link the check gives for [`NoOwnerReference`], and its
    /// counterexample.
    fn replay_link() -> (String, reconcile_sim::learner::search::Counterexample) {
        use reconcile_sim::learner::{check_controller, owned_configmap, Budget, ReplayLink};
        let factory =
            || -> Box<dyn reconcile_sim::learner::Reconciler> { Box::new(NoOwnerReference) };
        let report = check_controller(&owned_configmap(), &factory, Budget::default(), 7);
        let example = report.counterexample.expect("caught");
        let link = ReplayLink::of("owned-configmap", None, &example);
        (serde_json::to_string(&link).expect("JSON"), example)
    }

    #[cfg(feature = "replay")]
    /// The replay `text`, opened as the section opens it.
    fn opened(text: &str) -> ReplayedRun {
        ReplayLink::read(text)
            .and_then(|link| link.open_for_views())
            .expect("opens")
    }

    #[cfg(feature = "replay")]
    fn replay_input(revision: usize, replay: &str) -> RunInput {
        RunInput {
            replay: Some(replay.to_owned()),
            ..run_input(revision, &config())
        }
    }

    #[cfg(feature = "replay")]
    /// Issue 30: a replay shows its own run in every view that reads the
    /// run, from its record and its kept pictures: its facts, the cursor
    /// sent where it broke, the picture at each pass's end, the event
    /// moments; no contract run (no next pass's view, no level vs edge),
    /// and the page's settings are left alone.
    #[test]
    fn a_replay_shows_the_replayed_run_in_the_views_and_never_the_contract() {
        let (text, example) = replay_link();
        let opened = opened(&text);
        let mut state = SectionState::default();
        let answers = state.take(input(Some(replay_input(3, &text)), 0));
        assert!(answers.errors.is_empty(), "{:?}", answers.errors);
        let broke_at = opened.broke_at();
        assert_eq!(
            answers.events,
            vec![
                SimulationEvent::Run {
                    facts: RunFacts::of(3, &opened.timeline)
                },
                SimulationEvent::MoveTo { position: broke_at },
            ]
        );
        let run = state.run().expect("the replay's run").clone();
        assert!(*run.timeline == opened.timeline);
        let replay = run.replay.as_ref().expect("a replay");
        let broken = replay.broken.as_ref().expect("broke");
        assert_eq!(
            (broken.name, &broken.detail),
            (example.property, &example.detail)
        );
        assert_eq!(replay.story, example.story);
        assert_eq!(replay.exercise, "owned-configmap");
        // The contract's run of the page's scenario is not what is shown.
        let (_, contract) = oracle(&config());
        assert_ne!(run.timeline.moments, contract.moments);
        // Every position: no next pass's view (that is the contract's plan);
        // the picture and the event moments come from the kept pictures.
        let last = run.last_position();
        assert!(last >= 2, "{last}");
        for position in 0..=last {
            let mut step = input(None, position);
            step.picture_open = true;
            step.show_level_edge = true;
            let answers = state.take(step);
            assert_eq!(answers.events, vec![], "@{position}");
            let shown = state.shown();
            assert!(
                shown.level_edge.is_none(),
                "level vs edge is not a replay's"
            );
            let picture = shown
                .picture
                .expect("the picture")
                .picture
                .expect("pictured");
            let moment = run.timeline.moments[position];
            if let Moment::AfterPass(pass) = moment {
                assert_eq!(
                    &*picture.store,
                    run.timeline.world_after(pass),
                    "@{position}"
                );
            }
        }
        for event in 0..run.timeline.events.entries.len() {
            let pass = run.timeline.events.passes_started_by(event);
            let position = run
                .timeline
                .position_of(Moment::AfterPass(pass))
                .unwrap_or(0);
            let mut step = input(None, position);
            step.cursor.event = Some(event);
            state.take(step);
            let expected = EventMoment::of(&run.timeline, &opened.pictures[event + 1]);
            assert_eq!(
                state.shown().at_event.as_deref(),
                expected.as_ref(),
                "#{event}"
            );
        }
        // Leaving the replay: the page's run again, simulated as ever.
        let answers = state.take(input(Some(run_input(4, &config())), 0));
        assert_eq!(
            answers.events,
            vec![SimulationEvent::Run {
                facts: RunFacts::of(4, &contract)
            }]
        );
        assert!(state.run().expect("a run").replay.is_none());
    }

    #[cfg(feature = "replay")]
    /// A replay's results.json is the check's failing run: the exercise,
    /// the property, the schedule, the story and the replay's timeline;
    /// no plan of the page's documents.
    #[test]
    fn a_replays_results_are_the_checked_run_and_no_plan() {
        let (text, example) = replay_link();
        let opened = opened(&text);
        let mut state = SectionState::default();
        let mut asked = input(Some(replay_input(2, &text)), 0);
        asked.results_asked = 1;
        let results = state.take(asked).results.expect("downloaded");
        let results: serde_json::Value = serde_json::from_str(&results).expect("JSON");
        assert_eq!(results["exercise"], "owned-configmap");
        assert_eq!(results["property"]["name"], example.property);
        assert_eq!(results["property"]["detail"], example.detail.as_str());
        assert_eq!(results["schedule"], serde_json::json!(example.schedule));
        assert_eq!(results["story"], serde_json::json!(example.story));
        assert_eq!(results["timeline"], serde_json::json!(opened.timeline));
        for absent in ["plan", "actions"] {
            assert!(results.get(absent).is_none(), "{absent}: {results:#}");
        }
    }

    #[cfg(feature = "replay")]
    #[test]
    fn a_replay_that_does_not_open_says_why_in_the_section() {
        let (text, _) = replay_link();
        for bad in [
            "{".to_owned(),
            text.replace("owned-configmap", "no-such-exercise"),
            text.replace(
                "\"reconciles\":[",
                "\"reconciles\":[{\"name\":\"x\",\"incarnation\":0,\"calls\":[],\"outcome\":null},",
            ),
        ] {
            let mut state = SectionState::default();
            state.take(input(Some(run_input(1, &config())), 0));
            let answers = state.take(input(Some(replay_input(2, &bad)), 0));
            assert!(answers.events.is_empty(), "{bad:.80}: {:?}", answers.events);
            let shown = state.shown();
            let refused = shown.replay_refused.expect("said");
            assert!(!refused.is_empty());
            assert!(shown.run.is_none(), "no run shown instead of the replay");
        }
    }
}
