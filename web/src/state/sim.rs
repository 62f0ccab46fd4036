//! The loop's controls: the settings, the one cursor, and what the page
//! knows of the run.
//!
//! The run itself is simulated by the simulation section's module (loaded
//! on demand, docs/design/simulation-module.md): the page sends it the
//! scenario and the settings with a revision (`run`), and it answers with
//! the run's facts (`RunFacts`: its moments, passes and pass starts) and,
//! after every move, the view the next pass reads. Every position below is
//! computed from the facts, so Step, Play and Run only move the cursor, and
//! a Step pressed before the facts came is queued, not lost.

use std::cell::Cell;
use std::rc::Rc;

use reconcile_core::Plan;
use reconcile_protocol::control_plane::ViewRun;
use reconcile_protocol::section::{LessonCheck, LessonQuestion, RunInput};
use reconcile_protocol::simulation::{NextPassView, RunFacts};
use reconcile_sim::{Moment, SimSettings};

use super::RunScenario;
use crate::shared::Shared;

/// Play speeds offered, in passes per second.
pub const SPEEDS: [u32; 4] = [1, 2, 4, 8];

#[derive(Debug, Clone, PartialEq)]
pub struct SimState {
    /// The settings as given (a preset's, a lesson's, a link's) or as the
    /// module last wrote them: the module reads them, the page never does.
    pub config: SimSettings,
    /// The run asked for last, by a count of the page's runs: a new one
    /// whenever the scenario or a setting changes. Facts, views and settings
    /// of another revision are late.
    revision: usize,
    /// Where this revision's run stands: asked of the module, or not
    /// (nothing to simulate, held while the page starts, deferred).
    stage: RunStage,
    /// What the page knows of the run the module last simulated (its
    /// revision may be behind [`Self::revision`] while a new run is on its
    /// way): every position below is computed from these.
    pub facts: Option<Shared<RunFacts>>,
    /// Level vs edge's `<details>` is open.
    pub show_level_edge: bool,
    /// Level vs edge was opened by a class link: its conclusion (where the
    /// worlds part, how each ends, the whole trace) waits until revealed.
    pub conclusion_hidden: bool,
    /// The one moment every view shows (verdict, chart, status grid,
    /// timeline, world now, plan): a position in the run's moments
    /// (0 = the start). Never past `revealed`.
    pub cursor: usize,
    /// How far Step, Play and Run have revealed the run: a position in the
    /// run's moments. Moving the cursor back keeps the rest listed.
    pub revealed: usize,
    /// Stepping by event: the event shown (an index into the run's event
    /// log), in the pass it belongs to, which the cursor is at.
    pub event: Option<usize>,
    /// What `reconcile` returns for the pass after the cursor, once the
    /// cursor is past the start (at the start the page's own plan holds).
    pub next_plan: Option<NextPlan>,
    pub playing: bool,
    pub speed: u32,
    /// A link's or an autosave's position (`pass`, `selected`) that came
    /// before its run's facts: taken up by the first facts, and saved as it
    /// is until then.
    pending_position: Option<(usize, Option<usize>)>,
    /// Moves asked for before this revision's facts came, applied in order
    /// when they come (a Step pressed while the module loads, an embed's
    /// `step()` right after load).
    queued: Vec<SimAction>,
    /// An injected event's script entry: the cursor goes to it once the run
    /// with it is simulated.
    pending_script: Option<usize>,
    /// The control-plane view's `<details>` is open.
    pub picture_open: bool,
    /// A `#v4/` link's replay of a learner's controller: the module shows
    /// it instead of the editors' scenario, which stays as the autosave
    /// had it until "Leave the replay".
    pub replay: Option<Replay>,
    /// A lesson's question about the run, waiting for the module's answer.
    pub check: Option<LessonCheck>,
    /// Counts the lesson checks asked, so that an answer is matched.
    checks: usize,
    /// How many times "Download results" was pressed (the module downloads).
    pub results_asked: usize,
}

/// A `#v4/` link's replay of a learner's controller, as the page opened it.
#[derive(Debug, Clone, PartialEq)]
pub struct Replay {
    /// The replay's JSON, unread here: the module reads it.
    pub json: Rc<str>,
    /// The address it came from (`#v4/…`, with the `#`): Share gives it
    /// again, so the failing run can be sent on as it came.
    pub link: Rc<str>,
}

/// Where the run of the latest revision stands, from the page's side.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum RunStage {
    /// Nothing to simulate: no scenario yet, or input errors.
    #[default]
    Idle,
    /// Held while the page starts ([`hold_first_run`]): simulated once it
    /// has painted.
    Held,
    /// The scenario is too large to re-simulate on every edit: it is
    /// simulated when the user first presses Step, Run or Play.
    Deferred,
    /// The run the module is to simulate (this revision's).
    Asked(Rc<RunInput>),
}

/// What the pass after the cursor does.
#[derive(Debug, Clone, PartialEq)]
pub struct NextPlan {
    pub pass: usize,
    pub plan: Shared<Plan>,
    /// What the plan is, in words.
    pub note: Rc<str>,
}

/// Scenarios with more resources than this are simulated on demand.
pub const AUTO_SIMULATE_LIMIT: usize = 2_000;

/// Moves kept at most while the facts are on their way.
const QUEUE_LIMIT: usize = 16;

thread_local! {
    /// Set while the page starts: see [`hold_first_run`].
    static FIRST_RUN_HELD: Cell<bool> = const { Cell::new(false) };
    /// The last revision given to a run. One count for the page, not one per
    /// `SimState`: a preset or a link replaces the state, and its first run
    /// must not share a revision with a run the module already has.
    static LAST_REVISION: Cell<usize> = const { Cell::new(0) };
}

/// Holds every simulation run until [`release_first_run`]. The page starts
/// with the editors and the action list; the loop, below them, is simulated
/// right after they have painted, so a slow link or device sees the plan
/// sooner (docs/PERFORMANCE.md, "first visit over slow links").
pub fn hold_first_run() {
    FIRST_RUN_HELD.set(true);
}

/// Lets runs happen again; a state that was held then runs with
/// [`SimState::run_held`].
pub fn release_first_run() {
    FIRST_RUN_HELD.set(false);
}

impl Default for SimState {
    fn default() -> Self {
        Self {
            config: SimSettings::default(),
            revision: 0,
            stage: RunStage::Idle,
            facts: None,
            show_level_edge: false,
            conclusion_hidden: false,
            cursor: 0,
            revealed: 0,
            event: None,
            next_plan: None,
            playing: false,
            speed: 2,
            pending_position: None,
            queued: Vec::new(),
            pending_script: None,
            picture_open: false,
            replay: None,
            check: None,
            checks: 0,
            results_asked: 0,
        }
    }
}

/// Everything a user (or the simulation's module) can do to the simulation.
#[derive(Debug, Clone, PartialEq)]
pub enum SimAction {
    Step,
    RunToEnd,
    Play,
    Pause,
    /// One beat of Play.
    Tick,
    Reset,
    SetSpeed(u32),
    /// Move the cursor to a revealed moment (a position in the run's
    /// moments): a pass, a chart point or a timeline row was chosen.
    MoveTo(usize),
    /// Step by event: the next or (`false`) the previous step of the
    /// control plane; the pass it belongs to is revealed and selected.
    StepEvent {
        forward: bool,
    },
    ShowLevelEdge(bool),
    /// The control-plane picture's view was opened or closed.
    ShowPicture(bool),
    /// The class has predicted: show level vs edge's conclusion.
    RevealConclusion,
    /// The module simulated a run: its facts.
    Simulated(Shared<RunFacts>),
    /// The module says what the pass after the cursor reads.
    NextPass(Rc<NextPassView>),
    /// A setting was changed in Faults and settings (the module applied it):
    /// the whole settings, of run `revision`.
    Settings {
        revision: usize,
        config: Rc<SimSettings>,
        show_script: Option<usize>,
    },
    /// The module read run `revision`'s settings: the same settings as
    /// it wrote them (every setting, under its current name).
    SettingsRead {
        revision: usize,
        config: Rc<SimSettings>,
    },
    /// "Download results" was pressed.
    DownloadResults,
    /// "Leave the replay": the editors' scenario runs again.
    LeaveReplay,
}

impl SimAction {
    /// Actions that need the run, so a deferred one is simulated first.
    pub fn needs_timeline(&self) -> bool {
        matches!(
            self,
            SimAction::Step
                | SimAction::StepEvent { .. }
                | SimAction::RunToEnd
                | SimAction::Play
                | SimAction::ShowLevelEdge(true)
        )
    }

    /// Actions that simulate a deferred (large) scenario first.
    pub fn forces_run(&self) -> bool {
        self.needs_timeline() || *self == SimAction::DownloadResults
    }

    /// Moves that wait for this revision's facts (Play's beats do not: a
    /// beat while a new run is on its way is skipped).
    fn waits_for_facts(&self) -> bool {
        matches!(
            self,
            SimAction::Step | SimAction::StepEvent { .. } | SimAction::RunToEnd | SimAction::Play
        )
    }
}

impl SimState {
    pub fn with_config(config: SimSettings) -> Self {
        Self {
            config,
            ..Self::default()
        }
    }

    /// The run asked of the module, if any: `None` while there is nothing
    /// to simulate, the page starts, or a large scenario waits.
    pub fn run(&self) -> Option<&Rc<RunInput>> {
        match &self.stage {
            RunStage::Asked(run) => Some(run),
            _ => None,
        }
    }

    /// The run is held while the page starts.
    pub fn held(&self) -> bool {
        self.stage == RunStage::Held
    }

    /// A large scenario waits for Step, Run or Play to be simulated.
    pub fn deferred(&self) -> bool {
        self.stage == RunStage::Deferred
    }

    /// The facts of the run asked for last, once they are here.
    fn current_facts(&self) -> Option<&RunFacts> {
        self.facts
            .as_deref()
            .filter(|facts| facts.revision == self.revision && self.run().is_some())
    }

    /// The run is simulated and its facts are here (the section shows it).
    pub fn has_run(&self) -> bool {
        self.current_facts().is_some()
    }

    /// A run was asked for and its facts are not here yet.
    pub fn simulating(&self) -> bool {
        self.run().is_some() && !self.has_run()
    }

    pub fn total_passes(&self) -> usize {
        self.facts.as_ref().map_or(0, |f| f.passes)
    }

    /// Entries in the run's event log (stepping by event moves through them).
    pub fn total_events(&self) -> usize {
        self.facts.as_ref().map_or(0, |f| f.events)
    }

    /// The position of the run's last moment (0 without a run).
    pub fn last_position(&self) -> usize {
        self.facts.as_ref().map_or(0, |f| f.last_position())
    }

    /// True once the whole run has been revealed, so the verdict can be shown.
    pub fn finished(&self) -> bool {
        self.has_run() && self.revealed >= self.last_position()
    }

    /// The moment on show: the one every view of the simulation shows.
    pub fn shown_moment(&self) -> Moment {
        self.moment_at(self.cursor)
    }

    /// The moment at a position of the run's moments.
    pub fn moment_at(&self, position: usize) -> Moment {
        self.facts
            .as_ref()
            .map_or(Moment::Start, |f| f.moment_at(position))
    }

    /// Passes finished at the moment on show.
    pub fn shown_pass(&self) -> usize {
        self.passes_at(self.cursor)
    }

    /// Passes revealed so far.
    pub fn revealed_passes(&self) -> usize {
        self.passes_at(self.revealed)
    }

    fn passes_at(&self, position: usize) -> usize {
        self.facts.as_ref().map_or(0, |f| f.passes_at(position))
    }

    /// Moves the cursor (and the revealed part with it, when it goes further).
    fn move_to(&mut self, position: usize) {
        self.cursor = position.min(self.last_position());
        self.revealed = self.revealed.max(self.cursor);
        if self.cursor == 0 {
            self.next_plan = None;
        }
    }

    /// Restores a saved position: `pass` passes revealed (with the actors'
    /// events after the last of them) and the cursor after pass `selected`.
    pub fn restore(&mut self, pass: usize, selected: Option<usize>) {
        let Some(facts) = self.current_facts() else {
            self.pending_position = (pass > 0).then_some((pass, selected));
            return;
        };
        let (revealed, cursor) = facts.restore(pass, selected);
        self.revealed = revealed;
        self.move_to(cursor);
    }

    /// What a link or an autosave keeps of the position: the passes revealed
    /// and, when the cursor is behind them, the passes at the cursor.
    pub fn saved_position(&self) -> (usize, Option<usize>) {
        if let Some(pending) = self.pending_position {
            return pending;
        }
        let selected = (self.cursor < self.revealed).then(|| self.shown_pass());
        (self.revealed_passes(), selected)
    }

    /// Asks for the run of `scenario` with the settings as they are: a new
    /// revision. Large scenarios are only deferred unless `force` is set. The cursor stays where it is until the facts come.
    pub fn recompute(&mut self, scenario: Option<&RunScenario>, force: bool) {
        // A replay runs without the editors' scenario, whatever its size.
        let none = RunScenario::default();
        let (scenario, force) = match (scenario, &self.replay) {
            (Some(scenario), None) => (scenario, force),
            (scenario, Some(_)) => (scenario.unwrap_or(&none), true),
            (None, None) => return,
        };
        self.revision = LAST_REVISION.get().wrapping_add(1);
        LAST_REVISION.set(self.revision);
        if FIRST_RUN_HELD.get() {
            // A link's position waits for the run, as it does for YAML.
            self.stage = RunStage::Held;
            return;
        }
        if !force && scenario.size > AUTO_SIMULATE_LIMIT {
            self.stage = RunStage::Deferred;
            self.facts = None;
            self.cursor = 0;
            self.revealed = 0;
            self.next_plan = None;
            self.playing = false;
            return;
        }
        self.event = None;
        // Written only now: a held or deferred run writes no text.
        let (text, custom_resources) = scenario.write();
        self.stage = RunStage::Asked(Rc::new(RunInput {
            revision: self.revision,
            run: ViewRun {
                scenario: text,
                options: self.config.to_text(),
                custom_resources,
            },
            replay: self.replay.as_ref().map(|replay| replay.json.to_string()),
        }));
    }

    /// The revision of the run last asked for.
    pub fn revision(&self) -> usize {
        self.revision
    }

    /// The run a start held, now that the page has painted.
    pub fn run_held(&mut self, scenario: Option<&RunScenario>) {
        if self.held() {
            self.recompute(scenario, false);
        }
    }

    /// Opens level vs edge the way a class link asks: at the position
    /// restored, with its conclusion hidden until revealed.
    pub fn open_level_edge_for_class(&mut self) {
        self.show_level_edge = true;
        self.conclusion_hidden = true;
    }

    /// Asks the module a lesson's question about the run.
    pub fn ask(&mut self, question: LessonQuestion) {
        self.checks += 1;
        self.check = Some(LessonCheck {
            id: self.checks,
            question,
        });
    }

    /// Whether `id` answers the question waiting; it no longer waits.
    pub fn answered(&mut self, id: usize) -> bool {
        let waiting = self.check.as_ref().is_some_and(|check| check.id == id);
        if waiting {
            self.check = None;
        }
        waiting
    }

    /// The facts of a new run came: the same moments stay on show where they
    /// still are, then what waited for them is taken up.
    fn take_facts(&mut self, facts: Shared<RunFacts>) {
        if facts.revision != self.revision || self.run().is_none() {
            return;
        }
        let (cursor, revealed) = (self.shown_moment(), self.moment_at(self.revealed));
        let (cursor_passes, revealed_passes) = (self.shown_pass(), self.revealed_passes());
        self.revealed = facts.place(revealed, revealed_passes);
        if self.replay.is_some() {
            // A replay is a run that has ended: all of it is there to scrub,
            // and the module sends the cursor where it broke (an
            // autosave's position is another run's).
            self.revealed = facts.moments.len().saturating_sub(1);
            self.pending_position = None;
        }
        self.cursor = facts.place(cursor, cursor_passes).min(self.revealed);
        self.next_plan = None;
        self.facts = Some(facts);
        if let Some((pass, selected)) = self.pending_position.take() {
            self.restore(pass, selected);
        }
        if let Some(script) = self.pending_script.take() {
            let position = self
                .facts
                .as_ref()
                .and_then(|f| f.position_of_script(script));
            if let Some(position) = position {
                self.move_to(position);
            }
        }
        for action in std::mem::take(&mut self.queued) {
            self.apply(action);
        }
    }

    /// The module's view of the pass after the cursor, planned here with
    /// core's plan; one for another run, position or event is late.
    fn take_next_pass(&mut self, next: &NextPassView) {
        let current = self.current_facts().map(|f| f.revision);
        let elsewhere = next.position != self.cursor || next.event != self.event;
        if current != Some(next.revision) || elsewhere || self.cursor == 0 {
            return;
        }
        match next.plan() {
            Ok(plan) => {
                self.next_plan = Some(NextPlan {
                    pass: next.pass,
                    plan: Shared::new(plan),
                    note: next.note.as_str().into(),
                })
            }
            Err(error) => gloo::console::error!(error),
        }
    }

    /// Moves the event cursor one step, revealing and selecting its pass.
    /// It starts at the start of the pass shown (pass 1 before any).
    fn step_event(&mut self, forward: bool) {
        let Some((event, position)) = self
            .facts
            .as_ref()
            .and_then(|f| f.step_event(self.event, self.shown_pass(), forward))
        else {
            return;
        };
        self.event = Some(event);
        self.move_to(position);
        self.playing = false;
    }

    /// Applies an action. Returns true if the run must be simulated again.
    pub fn apply(&mut self, action: SimAction) -> bool {
        if action == SimAction::Tick && self.simulating() {
            return false;
        }
        if action.waits_for_facts() && self.simulating() {
            if matches!(action, SimAction::RunToEnd) {
                self.queued.retain(|queued| *queued == SimAction::Play);
            }
            if self.queued.len() < QUEUE_LIMIT {
                self.queued.push(action);
            }
            return false;
        }
        let last = self.last_position();
        // What the module reports, not a move of the learner's: it keeps
        // the event stepped to and the position a link asked for.
        let informs = matches!(
            action,
            SimAction::Simulated(_)
                | SimAction::NextPass(_)
                | SimAction::SettingsRead { .. }
                | SimAction::DownloadResults
        );
        if !informs {
            // The user moved on from the position a link or an autosave asked for.
            self.pending_position = None;
        }
        if !informs
            && !matches!(
                action,
                SimAction::StepEvent { .. } | SimAction::SetSpeed(_) | SimAction::ShowPicture(_)
            )
        {
            self.event = None;
        }
        match action {
            SimAction::StepEvent { forward } => self.step_event(forward),
            SimAction::Step | SimAction::Tick => {
                self.move_to(self.cursor + 1);
                if self.cursor >= last {
                    self.playing = false;
                }
            }
            SimAction::RunToEnd => {
                self.move_to(last);
                self.playing = false;
            }
            SimAction::Play => {
                if self.cursor >= last {
                    self.revealed = 0;
                    self.move_to(0);
                }
                self.playing = true;
            }
            SimAction::Pause => self.playing = false,
            SimAction::Reset => {
                self.revealed = 0;
                self.move_to(0);
                self.playing = false;
                self.queued.clear();
            }
            SimAction::MoveTo(position) => {
                self.move_to(position.min(self.revealed));
                self.playing = false;
            }
            SimAction::SetSpeed(speed) => self.speed = speed.clamp(1, 60),
            SimAction::RevealConclusion => self.conclusion_hidden = false,
            SimAction::ShowPicture(open) => self.picture_open = open,
            SimAction::ShowLevelEdge(show) => self.show_level_edge = show,
            SimAction::Simulated(facts) => self.take_facts(facts),
            SimAction::NextPass(next) => self.take_next_pass(&next),
            SimAction::Settings {
                revision,
                config,
                show_script,
            } => {
                if revision != self.revision || *config == self.config {
                    return false;
                }
                self.config = SimSettings::clone(&config);
                self.pending_script = show_script;
                return true;
            }
            // The same settings, so the run stands: nothing to simulate again.
            SimAction::SettingsRead { revision, config } => {
                if revision == self.revision {
                    self.config = SimSettings::clone(&config);
                }
            }
            SimAction::DownloadResults => self.results_asked += 1,
            SimAction::LeaveReplay => return self.replay.take().is_some(),
        }
        false
    }
}
