//! Simulation state: settings, the computed timeline, and how far it is revealed.
//!
//! The whole timeline is computed by `reconcile_sim` whenever the
//! scenario or a setting changes; Step, Play and Run only move the cursor, so
//! stepping is instant and every run replays identically.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use reconcile_content::simulation::RunFacts;
use reconcile_core::{plan, Plan, Scenario};
use reconcile_sim::{
    next_plan_view, simulate, BackoffPolicy, CrashPlan, FinalizerOwner, FinalizerRef, Millis,
    Moment, ObjectNaming, PassViews, QueueModel, ScriptedEvent, SimConfig, SpecComparison,
    Timeline, WorldEvent,
};

use crate::shared::Shared;

/// Play speeds offered, in passes per second.
pub const SPEEDS: [u32; 4] = [1, 2, 4, 8];

#[derive(Debug, Clone, PartialEq)]
pub struct SimState {
    pub config: SimConfig,
    pub timeline: Option<Shared<Timeline>>,
    /// What the page needs of the run to own the cursor (moments, passes,
    /// pass starts): every position below is computed from these, as it will
    /// be once the run is simulated by the simulation module
    /// (docs/design/simulation-module.md). Present exactly when `timeline` is.
    pub facts: Option<Shared<RunFacts>>,
    /// Counts the runs simulated: the revision the facts are of.
    revision: usize,
    /// Level vs edge's `<details>` is open. Its view, a second view of the
    /// control-plane view's module, compares the run itself
    /// (`reconcile_sim::compare_level_edge`); the page keeps only this, the
    /// cursor and [`Self::conclusion_hidden`].
    pub show_comparison: bool,
    /// Level vs edge was opened by a class link: its conclusion (where the
    /// worlds part, how each ends, the whole trace) waits until revealed.
    pub conclusion_hidden: bool,
    /// The one moment every view shows (verdict, chart, status grid,
    /// timeline, world now, plan): a position in the timeline's moments
    /// (0 = the start). Never past `revealed`.
    pub cursor: usize,
    /// How far Step, Play and Run have revealed the run: a position in the
    /// timeline's moments. Moving the cursor back keeps the rest listed.
    pub revealed: usize,
    /// Stepping by event: the event shown (an index into the timeline's
    /// event log), in the pass it belongs to, which the cursor is at.
    pub event: Option<usize>,
    /// What `reconcile` returns for the pass after the cursor, once the
    /// cursor is past the start (at the start the page's own plan holds).
    pub next_plan: Option<NextPlan>,
    /// The run the timeline came from, replayed up to the next pass's
    /// reconcile call for the plan at the cursor. The replay stays where it
    /// stopped, so Play's beats cost one pass each; it is a memo of a
    /// deterministic run, which is why it may change behind a shared reference.
    views: Option<Shared<RefCell<PassViews>>>,
    pub playing: bool,
    pub speed: u32,
    /// The scenario is too large to re-simulate on every edit: the timeline is
    /// computed when the user first presses Step, Run or Play.
    pub deferred: bool,
    /// A link's or an autosave's position (`pass`, `selected`) that came
    /// before its timeline (YAML documents wait for the YAML module): taken
    /// up by the first timeline, and saved as it is until then.
    pending_position: Option<(usize, Option<usize>)>,
    /// The run was held while the page started ([`hold_first_run`]).
    pub held: bool,
    /// The control-plane view's `<details>` is open (the view is a module
    /// of its own, which simulates and pictures the run itself).
    pub picture_open: bool,
    /// The scenario the timeline was simulated from, for that view.
    pub scenario: Option<Shared<Scenario>>,
}

/// What the pass after the cursor does.
#[derive(Debug, Clone, PartialEq)]
pub struct NextPlan {
    pub pass: usize,
    pub plan: Shared<Plan>,
    /// The custom resource is being deleted or gone: the reconciler returns
    /// at once, and the plan is empty.
    pub owner_deleted: bool,
}

/// Scenarios with more resources than this are simulated on demand.
pub const AUTO_SIMULATE_LIMIT: usize = 2_000;

thread_local! {
    /// Set while the page starts: see [`hold_first_run`].
    static FIRST_RUN_HELD: Cell<bool> = const { Cell::new(false) };
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
            config: SimConfig::default(),
            timeline: None,
            facts: None,
            revision: 0,
            show_comparison: false,
            conclusion_hidden: false,
            cursor: 0,
            revealed: 0,
            event: None,
            next_plan: None,
            views: None,
            playing: false,
            speed: 2,
            deferred: false,
            pending_position: None,
            held: false,
            picture_open: false,
            scenario: None,
        }
    }
}

/// Everything a user can do to the simulation.
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
    /// Move the cursor to a revealed moment (a position in the timeline's
    /// moments): a pass, a chart point or a timeline row was chosen.
    MoveTo(usize),
    /// Step by event: the next or (`false`) the previous step of the
    /// control plane; the pass it belongs to is revealed and selected.
    StepEvent {
        forward: bool,
    },
    SetFailureRate(f64),
    SetWatchBreakRate(f64),
    SetResync(Option<Millis>),
    SetBackoff(BackoffPolicy),
    SetQueue(QueueModel),
    /// What the simulated controller compares to decide an UPDATE.
    SetCompare(SpecComparison),
    /// How the simulated controller names what it creates.
    SetNaming(ObjectNaming),
    /// What the simulated controller writes to its custom resource's status.
    SetStatusWrites(reconcile_sim::StatusWrites),
    /// Whether its watch on the custom resource drops same-generation updates.
    SetGenerationChangedPredicate(bool),
    SetSeed(u64),
    ToggleStuck(FinalizerRef),
    /// How long the owner of `finalizer` takes per object; `None` is the default.
    SetOwnerDelay {
        finalizer: String,
        delay_ms: Option<Millis>,
    },
    /// Crash the controller in the next pass after this many actions.
    CrashNextPass {
        after_actions: usize,
    },
    /// Another actor does something right after the current pass.
    Inject(WorldEvent),
    ShowComparison(bool),
    /// The control-plane picture's view was opened or closed.
    ShowPicture(bool),
    /// The class has predicted: show level vs edge's conclusion.
    RevealConclusion,
}

impl SimAction {
    /// Actions that need the timeline, so a deferred one is computed first.
    pub fn needs_timeline(&self) -> bool {
        matches!(
            self,
            SimAction::Step
                | SimAction::StepEvent { .. }
                | SimAction::RunToEnd
                | SimAction::Play
                | SimAction::ShowComparison(true)
        )
    }
}

impl SimState {
    pub fn with_config(config: SimConfig) -> Self {
        Self {
            config,
            ..Self::default()
        }
    }

    pub fn total_passes(&self) -> usize {
        self.facts.as_ref().map_or(0, |f| f.passes)
    }

    /// Entries in the run's event log (stepping by event moves through them).
    pub fn total_events(&self) -> usize {
        self.facts.as_ref().map_or(0, |f| f.events)
    }

    /// The position of the run's last moment (0 without a timeline).
    pub fn last_position(&self) -> usize {
        self.facts.as_ref().map_or(0, |f| f.last_position())
    }

    /// True once the whole run has been revealed, so the verdict can be shown.
    pub fn finished(&self) -> bool {
        self.timeline.is_some() && self.revealed >= self.last_position()
    }

    /// The moment on show: the one every view of the simulation shows.
    pub fn shown_moment(&self) -> Moment {
        self.moment_at(self.cursor)
    }

    /// The moment at a position of the timeline's moments.
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
        self.refresh_next_plan();
    }

    /// The plan for the pass after the cursor: computed here, once per move,
    /// from the view reconcile-sim says that pass reads.
    fn refresh_next_plan(&mut self) {
        let (Some(timeline), Some(views)) = (&self.timeline, &self.views) else {
            self.next_plan = None;
            return;
        };
        self.next_plan = (self.cursor > 0).then(|| {
            let moment = self.moment_at(self.cursor);
            let (pass, view) = next_plan_view(&mut views.borrow_mut(), timeline, moment);
            let owner_deleted = view.is_none();
            let view = view.unwrap_or_default();
            let next = plan(&view.desired, &view.observed, view.finalizers.as_ref());
            NextPlan {
                pass,
                plan: Shared::new(next),
                owner_deleted,
            }
        });
    }

    /// Restores a saved position: `pass` passes revealed (with the actors'
    /// events after the last of them) and the cursor after pass `selected`.
    pub fn restore(&mut self, pass: usize, selected: Option<usize>) {
        let Some(facts) = &self.facts else {
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

    /// Re-runs the simulation; keeps the cursor where it was (clamped).
    /// Large scenarios are only marked `deferred` unless `force` is set.
    pub fn recompute(&mut self, scenario: Option<&Rc<Scenario>>, force: bool) {
        let Some(scenario) = scenario else { return };
        self.held = FIRST_RUN_HELD.get();
        if self.held {
            // A link's position waits for the run, as it does for YAML.
            self.timeline = None;
            self.facts = None;
            self.next_plan = None;
            return;
        }
        if !force && scenario.desired.len() + scenario.observed.len() > AUTO_SIMULATE_LIMIT {
            self.timeline = None;
            self.facts = None;
            self.deferred = true;
            self.cursor = 0;
            self.revealed = 0;
            self.next_plan = None;
            self.playing = false;
            return;
        }
        self.deferred = false;
        self.event = None;
        // The same moments stay on show in the new run, where they still are.
        let (cursor, revealed) = (self.shown_moment(), self.moment_at(self.revealed));
        let (cursor_passes, revealed_passes) = (self.shown_pass(), self.revealed_passes());
        let timeline = simulate(scenario, &self.config);
        self.revision = self.revision.wrapping_add(1);
        let facts = RunFacts::of(self.revision, &timeline);
        self.revealed = facts.place(revealed, revealed_passes);
        self.cursor = facts.place(cursor, cursor_passes).min(self.revealed);
        self.facts = Some(Shared::new(facts));
        self.timeline = Some(Shared::new(timeline));
        self.scenario = Some(Shared::from(Rc::clone(scenario)));
        self.views = Some(Shared::new(RefCell::new(PassViews::new(
            scenario,
            &self.config,
        ))));
        self.refresh_next_plan();
        if let Some((pass, selected)) = self.pending_position.take() {
            self.restore(pass, selected);
        }
    }

    /// The run a start held, now that the page has painted.
    pub fn run_held(&mut self, scenario: Option<&Rc<Scenario>>) {
        if self.held {
            self.recompute(scenario, false);
        }
    }

    /// Opens level vs edge the way a class link asks: at the position
    /// restored, with its conclusion hidden until revealed.
    pub fn open_comparison_for_class(&mut self) {
        self.show_comparison = true;
        self.conclusion_hidden = true;
    }

    /// After an actor's event was added to the script and the run
    /// recomputed: the cursor goes to that event, a moment of its own.
    pub fn show_script_entry(&mut self, script_index: usize) {
        let position = self
            .facts
            .as_ref()
            .and_then(|f| f.position_of_script(script_index));
        if let Some(position) = position {
            self.move_to(position);
        }
    }

    /// Moves the event cursor one step, revealing and selecting its pass.
    /// It starts at the start of the pass shown (pass 1 before any).
    fn step_event(&mut self, forward: bool) {
        // From pass 1's start: the events before it have no pass to show them.
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

    /// Applies an action. Returns true if the timeline must be recomputed.
    pub fn apply(&mut self, action: SimAction) -> bool {
        let last = self.last_position();
        // The user moved on from the position a link or an autosave asked for.
        self.pending_position = None;
        if !matches!(
            action,
            SimAction::StepEvent { .. } | SimAction::SetSpeed(_) | SimAction::ShowPicture(_)
        ) {
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
            }
            SimAction::MoveTo(position) => {
                self.move_to(position.min(self.revealed));
                self.playing = false;
            }
            SimAction::SetSpeed(speed) => self.speed = speed.clamp(1, 60),
            SimAction::SetFailureRate(rate) => {
                return self.set(|c| c.failure_rate = rate.clamp(0.0, 1.0))
            }
            SimAction::SetWatchBreakRate(rate) => {
                return self.set(|c| c.watch_break_rate = rate.clamp(0.0, 1.0))
            }
            SimAction::SetResync(period) => return self.set(|c| c.resync_period_ms = period),
            // kube-rs has no rate limiter, only an error_policy's fixed
            // delay: choosing one of the two brings the other along.
            SimAction::SetBackoff(policy) => {
                return self.set(|c| {
                    c.backoff = policy;
                    if c.queue == QueueModel::KubeRs && c.backoff.kube_error_policy().is_none() {
                        c.queue = QueueModel::ClientGo;
                    }
                })
            }
            SimAction::SetQueue(model) => {
                return self.set(|c| {
                    c.queue = model;
                    if model == QueueModel::KubeRs && c.backoff.kube_error_policy().is_none() {
                        c.backoff = BackoffPolicy::FixedDelay { delay_ms: 1_000 };
                    }
                })
            }
            SimAction::SetCompare(compare) => return self.set(|c| c.compare = compare),
            SimAction::SetNaming(naming) => return self.set(|c| c.naming = naming),
            SimAction::SetStatusWrites(mode) => return self.set(|c| c.status_writes = mode),
            SimAction::SetGenerationChangedPredicate(on) => {
                return self.set(|c| c.generation_changed_predicate = on)
            }
            SimAction::SetSeed(seed) => return self.set(|c| c.seed = seed),
            SimAction::ToggleStuck(entry) => {
                return self.set(|c| {
                    if let Some(i) = c.stuck_finalizers.iter().position(|s| *s == entry) {
                        c.stuck_finalizers.remove(i);
                    } else {
                        c.stuck_finalizers.push(entry);
                    }
                });
            }
            SimAction::SetOwnerDelay {
                finalizer,
                delay_ms,
            } => {
                return self.set(|c| {
                    c.finalizer_owners
                        .retain(|owner| owner.finalizer != finalizer);
                    if let Some(delay_ms) = delay_ms {
                        c.finalizer_owners.push(FinalizerOwner {
                            finalizer,
                            delay_ms,
                        });
                    }
                });
            }
            SimAction::CrashNextPass { after_actions } => {
                let at_pass = self.shown_pass() + 1;
                return self.set(|c| {
                    c.crash = Some(CrashPlan {
                        at_pass,
                        after_actions,
                    })
                });
            }
            SimAction::Inject(event) => {
                let after_pass = self.shown_pass();
                return self.set(|c| c.script.push(ScriptedEvent { after_pass, event }));
            }
            SimAction::RevealConclusion => self.conclusion_hidden = false,
            SimAction::ShowPicture(open) => self.picture_open = open,
            SimAction::ShowComparison(show) => self.show_comparison = show,
        }
        false
    }

    fn set(&mut self, change: impl FnOnce(&mut SimConfig)) -> bool {
        change(&mut self.config);
        true
    }
}
