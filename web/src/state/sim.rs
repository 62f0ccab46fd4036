//! Simulation state: settings, the computed timeline, and how far it is revealed.
//!
//! The whole timeline is computed by `reconcile_sim` whenever the
//! scenario or a setting changes; Step, Play and Run only move the cursor, so
//! stepping is instant and every run replays identically.

use reconcile_core::Scenario;
use reconcile_sim::{
    compare_level_edge, simulate, BackoffPolicy, Comparison, CrashPlan, FinalizerOwner,
    FinalizerRef, Millis, QueueModel, ScriptedEvent, SimConfig, Timeline, WorldEvent,
};

use crate::shared::Shared;

/// Play speeds offered, in passes per second.
pub const SPEEDS: [u32; 4] = [1, 2, 4, 8];

#[derive(Debug, Clone, PartialEq)]
pub struct SimState {
    pub config: SimConfig,
    pub timeline: Option<Shared<Timeline>>,
    /// Level- vs edge-triggered run of the same trace, computed while its view is open.
    pub comparison: Option<Shared<Comparison>>,
    pub show_comparison: bool,
    /// Passes revealed so far (0 = none): the "live" point.
    pub cursor: usize,
    /// A revealed pass being inspected as a read-only snapshot.
    pub selected: Option<usize>,
    /// Stepping by event: the event shown (an index into the timeline's
    /// event log), in the pass it belongs to, which is selected.
    pub event: Option<usize>,
    pub playing: bool,
    pub speed: u32,
    /// The scenario is too large to re-simulate on every edit: the timeline is
    /// computed when the user first presses Step, Run or Play.
    pub deferred: bool,
}

/// Scenarios with more resources than this are simulated on demand.
pub const AUTO_SIMULATE_LIMIT: usize = 2_000;

impl Default for SimState {
    fn default() -> Self {
        Self {
            config: SimConfig::default(),
            timeline: None,
            comparison: None,
            show_comparison: false,
            cursor: 0,
            selected: None,
            event: None,
            playing: false,
            speed: 2,
            deferred: false,
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
    /// Inspect a revealed pass; `None` goes back to live.
    Select(Option<usize>),
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
        self.timeline.as_ref().map_or(0, |t| t.passes.len())
    }

    /// True once every pass has been revealed, so the verdict can be shown.
    pub fn finished(&self) -> bool {
        self.timeline.is_some() && self.cursor >= self.total_passes()
    }

    /// The pass whose state is on show: the selected one, else the live cursor.
    pub fn shown_pass(&self) -> usize {
        self.selected.unwrap_or(self.cursor)
    }

    /// Re-runs the simulation; keeps the cursor where it was (clamped).
    /// Large scenarios are only marked `deferred` unless `force` is set.
    pub fn recompute(&mut self, scenario: Option<&Scenario>, force: bool) {
        let Some(scenario) = scenario else { return };
        if !force && scenario.desired.len() + scenario.observed.len() > AUTO_SIMULATE_LIMIT {
            self.timeline = None;
            self.comparison = None;
            self.deferred = true;
            self.cursor = 0;
            self.selected = None;
            self.playing = false;
            return;
        }
        self.deferred = false;
        self.event = None;
        let timeline = simulate(scenario, &self.config);
        self.cursor = self.cursor.min(timeline.passes.len());
        self.selected = self.selected.filter(|s| *s <= self.cursor);
        self.timeline = Some(Shared::new(timeline));
        self.comparison = self
            .show_comparison
            .then(|| Shared::new(compare_level_edge(scenario, &self.config)));
    }

    /// Moves the event cursor one step, revealing and selecting its pass.
    /// It starts at the start of the pass shown (pass 1 before any).
    fn step_event(&mut self, forward: bool) {
        let Some(events) = self.timeline.as_ref().map(|t| &t.events) else {
            return;
        };
        // From pass 1's start: the events before it have no pass to show them.
        let (Some(first), Some(last)) = (events.start_of(1), events.entries.len().checked_sub(1))
        else {
            return;
        };
        let event = match self.event {
            None => events.start_of(self.shown_pass()).unwrap_or(first),
            Some(i) if forward => (i + 1).min(last),
            Some(i) => i.saturating_sub(1).max(first),
        };
        self.event = Some(event);
        self.cursor = events.passes_started_by(event);
        self.selected = (self.cursor > 0).then_some(self.cursor);
        self.playing = false;
    }

    /// Applies an action. Returns true if the timeline must be recomputed.
    pub fn apply(&mut self, action: SimAction) -> bool {
        let total = self.total_passes();
        if !matches!(action, SimAction::StepEvent { .. } | SimAction::SetSpeed(_)) {
            self.event = None;
        }
        match action {
            SimAction::StepEvent { forward } => self.step_event(forward),
            SimAction::Step => {
                self.cursor = (self.cursor + 1).min(total);
                self.selected = None;
            }
            SimAction::RunToEnd => {
                self.cursor = total;
                self.selected = None;
                self.playing = false;
            }
            SimAction::Play => {
                if self.cursor >= total {
                    self.cursor = 0;
                }
                self.playing = true;
                self.selected = None;
            }
            SimAction::Pause => self.playing = false,
            SimAction::Tick => {
                if self.cursor < total {
                    self.cursor += 1;
                }
                if self.cursor >= total {
                    self.playing = false;
                }
            }
            SimAction::Reset => {
                self.cursor = 0;
                self.selected = None;
                self.playing = false;
            }
            SimAction::SetSpeed(speed) => self.speed = speed.clamp(1, 60),
            SimAction::Select(pass) => self.selected = pass.filter(|p| *p <= self.cursor),
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
                let at_pass = self.cursor + 1;
                return self.set(|c| {
                    c.crash = Some(CrashPlan {
                        at_pass,
                        after_actions,
                    })
                });
            }
            SimAction::Inject(event) => {
                let after_pass = self.cursor;
                return self.set(|c| c.script.push(ScriptedEvent { after_pass, event }));
            }
            SimAction::ShowComparison(show) => {
                self.show_comparison = show;
                return show && self.comparison.is_none();
            }
        }
        false
    }

    fn set(&mut self, change: impl FnOnce(&mut SimConfig)) -> bool {
        change(&mut self.config);
        true
    }
}
