//! What the page keeps of a run once the simulation section is a module of
//! its own (issue 17's split, docs/design/simulation-module.md): the facts
//! the page's reducer needs to own the one cursor without the `Timeline`.
//!
//! The module simulates the run and sends [`RunFacts`] once per run, as JSON
//! text; the page reads it with core's JSON reader ([`RunFacts::from_json`]),
//! never a serde deserializer (one more in the first view, docs/SIZE.md).
//! Every position the page computes (Step, Run, restoring a link's position,
//! keeping the cursor on its moment after an edit, stepping by event,
//! the pass an injected event follows) is a function of these facts, here,
//! and the tests below check each against the `Timeline`'s own function on
//! every preset.
//!
//! Invariant: the facts are small: one entry per moment (the start, each
//! pass, each other actor's event) and one per pass start, never the event
//! log itself.

use reconcile_core::path::JsonPath;
use reconcile_core::{export_scenario, parse_scenario, plan, Json, Number, Plan};
use reconcile_sim::events::SimEvent;
use reconcile_sim::{
    format_millis, next_plan_view, pass_phase, Millis, Moment, PassPhase, PassViews, Timeline,
};
use serde::Serialize;

use reconcile_content::data::{read_json, ContentError, Reader};

/// One moment of a run, with what the page needs to know about it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum MomentFact {
    Start,
    /// Right after pass `pass` (from 1) ended.
    AfterPass {
        pass: usize,
    },
    /// Right after another actor's event: `index` into the timeline's actor
    /// events, `after_pass` passes finished when it happened, and `script`
    /// its entry in `SimConfig::script`. Its wire name is the old one.
    #[serde(rename = "after-event")]
    AfterActorEvent {
        index: usize,
        after_pass: usize,
        script: usize,
    },
}

/// What the page keeps of the run the module simulated.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct RunFacts {
    /// The page's revision of the run these facts are of (bumped on every
    /// change of the scenario or the settings): facts of another are late.
    pub revision: usize,
    /// The timeline's moments, in order: a cursor is a position in them.
    pub moments: Vec<MomentFact>,
    /// Passes in the run.
    pub passes: usize,
    /// Entries in the event log (stepping by event moves through them).
    pub events: usize,
    /// Where each pass starts in the event log, in order (pass 1 first):
    /// the index of its `ReconcileStarted`. Shorter than `passes` when the
    /// log was cut off.
    pub pass_starts: Vec<usize>,
}

impl MomentFact {
    /// The simulation's own name of this moment.
    pub fn moment(self) -> Moment {
        match self {
            MomentFact::Start => Moment::Start,
            MomentFact::AfterPass { pass } => Moment::AfterPass(pass),
            MomentFact::AfterActorEvent { index, .. } => Moment::AfterActorEvent(index),
        }
    }

    /// Passes finished at this moment.
    pub fn passes(self) -> usize {
        match self {
            MomentFact::Start => 0,
            MomentFact::AfterPass { pass } => pass,
            MomentFact::AfterActorEvent { after_pass, .. } => after_pass,
        }
    }
}

impl RunFacts {
    /// The facts of `timeline`, the run of the page's revision `revision`.
    pub fn of(revision: usize, timeline: &Timeline) -> Self {
        let moments = timeline
            .moments
            .iter()
            .map(|moment| match *moment {
                Moment::Start => MomentFact::Start,
                Moment::AfterPass(pass) => MomentFact::AfterPass { pass },
                Moment::AfterActorEvent(index) => {
                    let event = timeline.actor_events.get(index);
                    MomentFact::AfterActorEvent {
                        index,
                        after_pass: event.map_or(0, |e| e.after_pass),
                        script: event.map_or(usize::MAX, |e| e.script_index),
                    }
                }
            })
            .collect();
        let pass_starts = timeline
            .events
            .entries
            .iter()
            .enumerate()
            .filter(|(_, e)| matches!(e.what, SimEvent::ReconcileStarted { .. }))
            .map(|(index, _)| index)
            .collect();
        Self {
            revision,
            moments,
            passes: timeline.passes.len(),
            events: timeline.events.entries.len(),
            pass_starts,
        }
    }

    /// The position of the run's last moment.
    pub fn last_position(&self) -> usize {
        self.moments.len().saturating_sub(1)
    }

    /// The moment at `position` (the start past the end).
    pub fn moment_at(&self, position: usize) -> Moment {
        self.moments
            .get(position)
            .map_or(Moment::Start, |m| m.moment())
    }

    /// Passes finished at `position`.
    pub fn passes_at(&self, position: usize) -> usize {
        self.moments.get(position).map_or(0, |m| m.passes())
    }

    /// Where `moment` is in this run, if it is.
    pub fn position_of(&self, moment: Moment) -> Option<usize> {
        self.moments.iter().position(|m| m.moment() == moment)
    }

    /// The position right after the actor's event of script entry `script`.
    pub fn position_of_script(&self, script: usize) -> Option<usize> {
        self.moments.iter().position(
            |m| matches!(m, MomentFact::AfterActorEvent { script: s, .. } if *s == script),
        )
    }

    /// Where pass `pass` (from 1) starts in the event log.
    pub fn start_of(&self, pass: usize) -> Option<usize> {
        self.pass_starts.get(pass.checked_sub(1)?).copied()
    }

    /// Passes started up to and including event `index`.
    pub fn passes_started_by(&self, index: usize) -> usize {
        self.pass_starts.partition_point(|start| *start <= index)
    }

    /// The last position with at most `passes` passes finished (0 when none).
    fn last_with_at_most(&self, passes: usize) -> usize {
        self.moments
            .iter()
            .rposition(|m| m.passes() <= passes)
            .unwrap_or(0)
    }

    /// Where a moment of an earlier run goes in this one: the same moment
    /// where it still is, else the last moment with no more passes.
    pub fn place(&self, moment: Moment, passes: usize) -> usize {
        self.position_of(moment)
            .unwrap_or_else(|| self.last_with_at_most(passes))
    }

    /// A link's or an autosave's position: `pass` passes revealed (with the
    /// actors' events after the last of them) and the cursor after pass
    /// `selected`. Returns `(revealed, cursor)`.
    pub fn restore(&self, pass: usize, selected: Option<usize>) -> (usize, usize) {
        let revealed = self.last_with_at_most(pass);
        let cursor = selected
            .and_then(|s| self.moments.iter().position(|m| m.passes() == s))
            .filter(|c| *c <= revealed)
            .unwrap_or(revealed);
        (revealed, cursor)
    }

    /// Stepping by event from `event` (none yet: the start of the pass
    /// shown, `shown_pass`, or pass 1's start before any): the event shown
    /// next and the position of the pass it belongs to. `None` when the log
    /// has no pass to step through.
    pub fn step_event(
        &self,
        event: Option<usize>,
        shown_pass: usize,
        forward: bool,
    ) -> Option<(usize, usize)> {
        let (first, last) = (self.start_of(1)?, self.events.checked_sub(1)?);
        let event = match event {
            None => self.start_of(shown_pass).unwrap_or(first),
            Some(i) if forward => (i + 1).min(last),
            Some(i) => i.saturating_sub(1).max(first),
        };
        let pass = self.passes_started_by(event);
        let position = self.position_of(Moment::AfterPass(pass)).unwrap_or(0);
        Some((event, position))
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Reads what [`RunFacts::to_json`] wrote, with core's JSON reader.
    pub fn from_json(text: &str) -> Result<Self, ContentError> {
        const FILE: &str = "the simulation's run facts";
        let value = read_json(FILE, text)?;
        let reader = Reader::new(FILE);
        let facts = Self::read(&reader, &value, JsonPath::root());
        reader.finish(facts)
    }

    /// The facts in `value`, found at `path` (a message's member).
    pub(crate) fn read(reader: &Reader<'_>, value: &Json, path: JsonPath) -> Self {
        let facts = reader.object(value, path, FACTS_MEMBERS);
        let moments = reader
            .items(&facts, "moments")
            .map(|(path, item)| read_moment(reader, item, path))
            .collect();
        let pass_starts = reader
            .items(&facts, "pass_starts")
            .map(|(path, item)| count_of(reader, item, path))
            .collect();
        RunFacts {
            revision: reader.count(&facts, "revision"),
            moments,
            passes: reader.count(&facts, "passes"),
            events: reader.count(&facts, "events"),
            pass_starts,
        }
    }
}

/// What the pass after the cursor reads, for the page's "Plan for pass N":
/// the module replays the run (`reconcile_sim::next_plan_view`) and sends
/// the view as scenario JSON; the page reads it with core's `parse_scenario`
/// and plans it with core's `plan`, both already in its first view, so the
/// plan at the cursor is core's plan as everywhere else.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct NextPassView {
    /// The run ([`RunFacts::revision`]) and the cursor's position this is
    /// for: an answer to an earlier question is dropped.
    pub revision: usize,
    pub position: usize,
    /// Stepping by event: the event this is for (`None` between passes).
    pub event: Option<usize>,
    /// The pass after the cursor (from 1), or the one running at its event.
    pub pass: usize,
    /// The scenario that pass reconciles, as `export_scenario` writes it;
    /// `None` when the custom resource is being deleted or gone, so the
    /// reconciler returns at once with nothing to do.
    pub view: Option<String>,
    /// What that plan is, in words ("What pass 3 does: …").
    pub note: String,
}

impl NextPassView {
    /// The module's side: what the pass after `position` of `timeline` (the
    /// run `views` replays) reads.
    pub fn of(
        revision: usize,
        views: &mut PassViews,
        timeline: &Timeline,
        position: usize,
    ) -> Self {
        let moment = timeline
            .moments
            .get(position)
            .copied()
            .unwrap_or(Moment::Start);
        let (pass, view) = next_plan_view(views, timeline, moment);
        let at = timeline.describe_moment(moment);
        let skipped = timeline
            .passes
            .get(pass.wrapping_sub(1))
            .and_then(|record| record.skipped.as_ref());
        let note = match (&view, skipped) {
            (None, _) => owner_deleted_note(&at),
            (Some(_), Some(skip)) => skipped_pass_note(pass, &at, skip),
            (Some(view), None) => {
                let empty = plan(&view.desired, &view.observed, view.finalizers.as_ref())
                    .actions
                    .is_empty();
                plan_moment_note(pass, &at, pass <= timeline.passes.len(), empty)
            }
        };
        Self {
            revision,
            position,
            event: None,
            pass,
            view: view.as_ref().map(export_scenario),
            note,
        }
    }

    /// The same at the page's cursor when it steps by event: at an event
    /// inside a pass, that pass's plan, which the controller is sending;
    /// elsewhere, the next pass's, as [`NextPassView::of`].
    pub fn at_event(
        revision: usize,
        views: &mut PassViews,
        timeline: &Timeline,
        position: usize,
        event: Option<usize>,
    ) -> Self {
        let running = event.and_then(|event| match pass_phase(timeline, event) {
            PassPhase::During(pass) => Some((event, pass)),
            _ => None,
        });
        let Some((event, pass)) = running else {
            return Self {
                event,
                ..Self::of(revision, views, timeline, position)
            };
        };
        let view = views.view(pass);
        let at = timeline
            .events
            .entries
            .get(event)
            .map_or(0, |entry| entry.at);
        let skipped = timeline
            .passes
            .get(pass.wrapping_sub(1))
            .and_then(|record| record.skipped.as_ref());
        let note = match (&view, skipped) {
            (None, _) => running_owner_deleted_note(pass, at),
            (Some(_), Some(skip)) => running_skipped_note(pass, at, skip),
            (Some(_), None) => running_pass_note(pass, at),
        };
        Self {
            revision,
            position,
            event: Some(event),
            pass,
            view: view.as_ref().map(export_scenario),
            note,
        }
    }

    /// The page's side: the plan of that pass (empty when the owner is
    /// deleted), or why the view did not read.
    pub fn plan(&self) -> Result<Plan, String> {
        let view = match &self.view {
            Some(text) => {
                parse_scenario(text).map_err(|e| format!("the next pass's view: {}", e.message))?
            }
            None => Default::default(),
        };
        Ok(plan(
            &view.desired,
            &view.observed,
            view.finalizers.as_ref(),
        ))
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Reads what [`NextPassView::to_json`] wrote, with core's JSON reader.
    pub fn from_json(text: &str) -> Result<Self, ContentError> {
        const FILE: &str = "the next pass's view";
        let value = read_json(FILE, text)?;
        let reader = Reader::new(FILE);
        let next = Self::read(&reader, &value, JsonPath::root());
        reader.finish(next)
    }

    /// The view in `value`, found at `path` (a message's member).
    pub(crate) fn read(reader: &Reader<'_>, value: &Json, path: JsonPath) -> Self {
        let message = reader.object(value, path, NEXT_PASS_MEMBERS);
        NextPassView {
            revision: reader.count(&message, "revision"),
            position: reader.count(&message, "position"),
            event: reader.optional_count(&message, "event"),
            pass: reader.count(&message, "pass"),
            view: reader.optional_string(&message, "view"),
            note: reader.string(&message, "note"),
        }
    }
}

/// What the plan at the cursor is, in words.
fn plan_moment_note(pass: usize, at: &str, runs: bool, empty: bool) -> String {
    let start = "The editors' plan is the one at the start.";
    match (runs, empty) {
        (true, _) => format!(
            "What pass {pass} does: reconcile on the controller's cache, after {at} \
             (the cache may still lack the latest writes). {start}"
        ),
        (false, true) => format!("After {at} the run has ended: nothing to do. {start}"),
        (false, false) => {
            format!("After {at} nothing triggers pass {pass}; this is what it would do. {start}")
        }
    }
}

/// The plan at an event inside pass `pass`, at `at`: the one it sends.
fn running_pass_note(pass: usize, at: Millis) -> String {
    format!(
        "Pass {pass} is running at t = {}. It planned this on the controller's cache and sends \
         it one request at a time. The editors' plan is the one at the start.",
        format_millis(at)
    )
}

/// The same once the custom resource is being deleted or gone.
fn running_owner_deleted_note(pass: usize, at: Millis) -> String {
    format!(
        "Pass {pass} is running at t = {}. The custom resource is being deleted or is gone, so \
         its reconciler returns at once, with nothing to do. The editors' plan is the one at the \
         start.",
        format_millis(at)
    )
}

/// The same for a pass that skips its reconcile.
fn running_skipped_note(pass: usize, at: Millis, skip: &reconcile_sim::PassSkip) -> String {
    format!(
        "Pass {pass} is running at t = {}. It does not reconcile ({skip}), so it sends nothing. \
         Had it run, this is what reconcile would plan from the controller's cache. The editors' \
         plan is the one at the start.",
        format_millis(at)
    )
}

/// The plan at the cursor when the next pass skips its reconcile (a
/// ReplicaSet's unmet expectations): what it would plan, said as such.
fn skipped_pass_note(pass: usize, at: &str, skip: &reconcile_sim::PassSkip) -> String {
    format!(
        "Pass {pass}, after {at}, does not reconcile ({skip}), so it sends nothing. Had it run, \
         this is what reconcile would plan from the controller's cache. The editors' plan is the \
         one at the start."
    )
}

/// The plan at the cursor once the custom resource is being deleted or gone.
fn owner_deleted_note(at: &str) -> String {
    format!(
        "After {at} the custom resource is being deleted or is gone: its reconciler returns at \
         once, with nothing to do, and the garbage collector takes care of what it owned. The \
         editors' plan is the one at the start."
    )
}

/// The members of [`RunFacts`], of [`NextPassView`] and of a [`MomentFact`]
/// (of every kind), as their readers take them.
pub(crate) const FACTS_MEMBERS: &[&str] =
    &["revision", "moments", "passes", "events", "pass_starts"];
pub(crate) const NEXT_PASS_MEMBERS: &[&str] =
    &["revision", "position", "event", "pass", "view", "note"];
pub(crate) const MOMENT_MEMBERS: &[&str] = &["kind", "pass", "index", "after_pass", "script"];

/// An array item that must be a count.
fn count_of(reader: &Reader<'_>, item: &Json, path: JsonPath) -> usize {
    match item {
        Json::Number(Number::Unsigned(n)) => usize::try_from(*n).ok(),
        _ => None,
    }
    .unwrap_or_else(|| {
        reader.fail(path, "expected a non-negative integer".to_owned());
        0
    })
}

fn read_moment(reader: &Reader<'_>, item: &Json, path: JsonPath) -> MomentFact {
    let moment = reader.object(item, path, MOMENT_MEMBERS);
    let count = |name| reader.count(&moment, name);
    match reader.string(&moment, "kind").as_str() {
        "start" => MomentFact::Start,
        "after-pass" => MomentFact::AfterPass {
            pass: count("pass"),
        },
        "after-event" => MomentFact::AfterActorEvent {
            index: count("index"),
            after_pass: count("after_pass"),
            script: count("script"),
        },
        other => {
            reader.fail(moment.path_of("kind"), format!("unknown moment {other:?}"));
            MomentFact::Start
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use reconcile_core::check_scenario;
    use reconcile_sim::{simulate, ScriptedEvent, SimConfig, WorldEvent};

    /// Every preset's run as it is, and with other actors' events, transient
    /// failures and watch breaks, so that actor-event moments and retried
    /// passes are among the runs checked.
    fn runs() -> Vec<(String, Timeline)> {
        runs_of_presets()
            .into_iter()
            .map(|(name, _, _, timeline)| (name, timeline))
            .collect()
    }

    /// [`runs`] with the scenario and settings each came from.
    fn runs_of_presets() -> Vec<(String, reconcile_core::Scenario, SimConfig, Timeline)> {
        let mut runs = Vec::new();
        for preset in reconcile_content::presets::presets() {
            let Ok(scenario) =
                check_scenario(&preset.desired, &preset.observed, &preset.finalizers)
            else {
                continue;
            };
            let first_observed = scenario
                .observed
                .iter()
                .next()
                .map(|(name, _)| name.to_string());
            let config = preset.sim.read().expect("the preset's settings");
            let mut eventful = config.clone();
            eventful.failure_rate = 0.3;
            eventful.watch_break_rate = 0.2;
            if let Some(name) = first_observed {
                for after_pass in [0, 1, 2] {
                    eventful.script.push(ScriptedEvent {
                        after_pass,
                        event: WorldEvent::Delete { name: name.clone() },
                    });
                }
            }
            for (label, config) in [("as it is", config), ("eventful", eventful)] {
                let timeline = simulate(&scenario, &config);
                runs.push((
                    format!("{} ({label})", preset.id),
                    scenario.clone(),
                    config,
                    timeline,
                ));
            }
        }
        assert!(runs.len() >= 20, "only {} runs", runs.len());
        runs
    }

    #[test]
    fn the_facts_answer_as_the_timeline_does_for_every_preset() {
        let mut actor_moments = 0;
        for (name, timeline) in runs() {
            let facts = RunFacts::of(7, &timeline);
            assert_eq!(facts.passes, timeline.passes.len(), "{name}");
            assert_eq!(facts.events, timeline.events.entries.len(), "{name}");
            assert_eq!(facts.last_position() + 1, timeline.moments.len(), "{name}");
            for (position, moment) in timeline.moments.iter().enumerate() {
                assert_eq!(facts.moment_at(position), *moment, "{name} @{position}");
                assert_eq!(
                    facts.passes_at(position),
                    timeline.passes_at(*moment),
                    "{name} @{position}"
                );
                assert_eq!(
                    facts.position_of(*moment),
                    timeline.position_of(*moment),
                    "{name}"
                );
                if let Moment::AfterActorEvent(i) = moment {
                    actor_moments += 1;
                    let script = timeline.actor_events[*i].script_index;
                    assert_eq!(
                        facts.position_of_script(script),
                        timeline.position_of_script(script),
                        "{name}"
                    );
                }
            }
            for pass in 0..=timeline.passes.len() + 1 {
                assert_eq!(
                    facts.start_of(pass),
                    timeline.events.start_of(pass),
                    "{name} pass {pass}"
                );
            }
            for index in 0..timeline.events.entries.len() + 1 {
                assert_eq!(
                    facts.passes_started_by(index),
                    timeline.events.passes_started_by(index),
                    "{name} event {index}"
                );
            }
        }
        assert!(actor_moments > 0, "no actor event among the runs");
    }

    /// `restore` and `place` as `SimState::restore` and `recompute` compute
    /// them on the timeline (web/src/state/sim.rs, main at 6d8b5db).
    #[test]
    fn positions_are_restored_and_placed_as_on_the_timeline() {
        for (name, timeline) in runs() {
            let facts = RunFacts::of(0, &timeline);
            let passes = |m: &Moment| timeline.passes_at(*m);
            let last_with_at_most = |pass: usize| {
                timeline
                    .moments
                    .iter()
                    .rposition(|m| passes(m) <= pass)
                    .unwrap_or(0)
            };
            for pass in 0..=timeline.passes.len() + 1 {
                let revealed = last_with_at_most(pass);
                for selected in [None, Some(0), Some(1), Some(pass / 2), Some(pass + 1)] {
                    let cursor = selected
                        .and_then(|s| timeline.moments.iter().position(|m| passes(m) == s))
                        .filter(|c| *c <= revealed)
                        .unwrap_or(revealed);
                    assert_eq!(
                        facts.restore(pass, selected),
                        (revealed, cursor),
                        "{name} {pass} {selected:?}"
                    );
                }
                // A moment of an earlier run that this one lacks.
                let gone = Moment::AfterActorEvent(usize::MAX);
                assert_eq!(facts.place(gone, pass), revealed, "{name}");
                let here = Moment::AfterPass(pass);
                let expected = timeline.position_of(here).unwrap_or(revealed);
                assert_eq!(facts.place(here, pass), expected, "{name}");
            }
        }
    }

    /// `step_event` as `SimState::step_event` computes it on the timeline
    /// (web/src/state/sim.rs, main at 6d8b5db), from every pass shown and
    /// every event, both ways.
    #[test]
    fn stepping_by_event_goes_where_the_timeline_says() {
        for (name, timeline) in runs() {
            let facts = RunFacts::of(0, &timeline);
            let events = &timeline.events;
            let (Some(first), Some(last)) =
                (events.start_of(1), events.entries.len().checked_sub(1))
            else {
                assert_eq!(facts.step_event(None, 0, true), None, "{name}");
                continue;
            };
            let mut from: Vec<Option<usize>> = (0..events.entries.len()).map(Some).collect();
            from.push(None);
            for event in from {
                for shown_pass in [0, 1, timeline.passes.len()] {
                    for forward in [true, false] {
                        let next = match event {
                            None => events.start_of(shown_pass).unwrap_or(first),
                            Some(i) if forward => (i + 1).min(last),
                            Some(i) => i.saturating_sub(1).max(first),
                        };
                        let pass = events.passes_started_by(next);
                        let position = timeline.position_of(Moment::AfterPass(pass)).unwrap_or(0);
                        assert_eq!(
                            facts.step_event(event, shown_pass, forward),
                            Some((next, position)),
                            "{name} {event:?} {shown_pass} {forward}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn facts_read_back_as_written() {
        for (name, timeline) in runs() {
            let facts = RunFacts::of(3, &timeline);
            assert_eq!(RunFacts::from_json(&facts.to_json()), Ok(facts), "{name}");
        }
        let written = RunFacts {
            revision: 2,
            moments: vec![
                MomentFact::Start,
                MomentFact::AfterPass { pass: 1 },
                MomentFact::AfterActorEvent {
                    index: 0,
                    after_pass: 1,
                    script: 4,
                },
            ],
            passes: 1,
            events: 9,
            pass_starts: vec![2],
        };
        assert_eq!(
            written.to_json(),
            r#"{"revision":2,"moments":[{"kind":"start"},{"kind":"after-pass","pass":1},{"kind":"after-event","index":0,"after_pass":1,"script":4}],"passes":1,"events":9,"pass_starts":[2]}"#
        );
    }

    #[test]
    fn malformed_facts_are_an_error_not_a_default() {
        let good =
            r#"{"revision":1,"moments":[{"kind":"start"}],"passes":0,"events":0,"pass_starts":[]}"#;
        assert!(RunFacts::from_json(good).is_ok());
        for wrong in [
            r#"{"moments":[{"kind":"start"}],"passes":0,"events":0,"pass_starts":[]}"#,
            r#"{"revision":1,"moments":[{"kind":"later"}],"passes":0,"events":0,"pass_starts":[]}"#,
            r#"{"revision":1,"moments":[{"kind":"after-pass"}],"passes":0,"events":0,"pass_starts":[]}"#,
            r#"{"revision":1,"moments":[],"passes":-1,"events":0,"pass_starts":[]}"#,
            r#"{"revision":1,"moments":[],"passes":0,"events":0,"pass_starts":["2"]}"#,
            r#"{"revision":1,"moments":[],"passes":0,"events":0,"pass_starts":[1.5]}"#,
            r#"{"revision":1,"moments":[],"passes":0,"events":0,"pass_starts":[],"extra":1}"#,
            r#"[]"#,
        ] {
            assert!(RunFacts::from_json(wrong).is_err(), "{wrong}");
        }
    }

    /// The page's plan at the cursor, after the round trip of the view as
    /// JSON, is the plan of the view the replay computes (what the page's
    /// `SimState::refresh_next_plan` plans today), at every position of
    /// every run.
    #[test]
    fn the_plan_at_the_cursor_survives_the_round_trip_at_every_position() {
        let (mut positions, mut owner_gone) = (0, 0);
        for (name, scenario, config, timeline) in runs_of_presets() {
            let mut views = PassViews::new(&scenario, &config);
            let mut oracle = PassViews::new(&scenario, &config);
            for position in 1..timeline.moments.len() {
                let sent = NextPassView::of(5, &mut views, &timeline, position);
                let read = NextPassView::from_json(&sent.to_json()).expect(&name);
                assert_eq!(read, sent, "{name} @{position}");
                let (pass, view) =
                    next_plan_view(&mut oracle, &timeline, timeline.moments[position]);
                assert_eq!(read.pass, pass, "{name} @{position}");
                let view = view.unwrap_or_else(|| {
                    owner_gone += 1;
                    Default::default()
                });
                let expected = plan(&view.desired, &view.observed, view.finalizers.as_ref());
                assert_eq!(read.plan(), Ok(expected), "{name} @{position}");
                positions += 1;
            }
        }
        assert!(positions > 100, "only {positions} positions");
        assert!(owner_gone > 0, "no run deletes its owner");
    }

    /// Stepping by event: inside a pass, the plan is the one that pass
    /// sends (the view it read); elsewhere, the next pass's, as between
    /// passes. At every event of every run.
    #[test]
    fn the_plan_at_an_event_is_the_running_passs_or_the_next_ones() {
        let (mut during, mut between) = (0, 0);
        for (name, scenario, config, timeline) in runs_of_presets() {
            let mut views = PassViews::new(&scenario, &config);
            let mut oracle = PassViews::new(&scenario, &config);
            for event in 0..timeline.events.entries.len() {
                let pass = timeline.events.passes_started_by(event);
                let position = timeline.position_of(Moment::AfterPass(pass)).unwrap_or(0);
                let sent = NextPassView::at_event(5, &mut views, &timeline, position, Some(event));
                let read = NextPassView::from_json(&sent.to_json()).expect(&name);
                assert_eq!(read, sent, "{name} #{event}");
                assert_eq!(read.event, Some(event), "{name} #{event}");
                if let PassPhase::During(running) = pass_phase(&timeline, event) {
                    during += 1;
                    assert_eq!((read.pass, running), (pass, pass), "{name} #{event}");
                    let view = oracle.view(pass).unwrap_or_default();
                    let expected = plan(&view.desired, &view.observed, view.finalizers.as_ref());
                    assert_eq!(read.plan(), Ok(expected), "{name} #{event}");
                    assert!(read
                        .note
                        .starts_with(&format!("Pass {pass} is running at t = ")));
                } else {
                    between += 1;
                    let mut fresh = PassViews::new(&scenario, &config);
                    let expected = NextPassView::of(5, &mut fresh, &timeline, position);
                    assert_eq!(
                        NextPassView {
                            event: None,
                            ..read
                        },
                        expected,
                        "{name} #{event}"
                    );
                }
            }
        }
        assert!(
            during > 100 && between > 10,
            "{during} during, {between} between"
        );
    }

    #[test]
    fn a_malformed_next_pass_view_is_an_error() {
        let good = r#"{"revision":1,"position":2,"pass":3,"view":null,"note":"n"}"#;
        assert_eq!(
            NextPassView::from_json(good).map(|v| v.plan().map(|p| p.actions.len())),
            Ok(Ok(0))
        );
        for wrong in [
            r#"{"position":2,"pass":3,"view":null}"#,
            r#"{"revision":1,"position":2,"pass":3,"view":1}"#,
            r#"{"revision":1,"position":2,"pass":3,"view":null}"#,
            r#"{"revision":1,"position":2,"pass":3,"view":null,"note":"","hop":1}"#,
        ] {
            assert!(NextPassView::from_json(wrong).is_err(), "{wrong}");
        }
        let unreadable = NextPassView {
            revision: 1,
            position: 2,
            event: None,
            pass: 3,
            view: Some("{".into()),
            note: String::new(),
        };
        assert!(unreadable.plan().is_err());
    }
}
