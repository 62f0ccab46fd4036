//! The moments of a run a view can stand at: the start, the end of each
//! pass, and right after each scripted event of another actor (a delete, a
//! drift, a stray create...). One list in time order, so that every view of a
//! page (verdict, chart, status grid, timeline, the world and the plan) can
//! show the same moment.
//!
//! # Guarantees
//! - [`Timeline::moments`] starts with [`Moment::Start`], lists every pass
//!   once, in order, and each actor's event right after the pass it followed
//!   (the ones before the first pass come before it).
//! - What a moment shows is the API server's store then ([`Timeline::world_at`]);
//!   its out-of-sync count is the engine's, the one the verdict uses, so the
//!   last moment agrees with a `NoTrigger` verdict.
//! - [`next_plan_view`] is what the next pass reconciles: the
//!   informer cache and desired state that pass read (which may lag the
//!   store), or, when no pass follows, the store at the moment itself.

use crate::comparison::{compared, controller_out_of_sync, controller_plan};
use crate::naming::controller_observed;
use reconcile_core::model::{Resources, Scenario};

use crate::world::World;
use crate::{CacheLagEntry, Moment};
use crate::{CustomResources, SimConfig, Simulation, Step, Timeline};

/// The views the passes of one run read, replayed on demand: what pass
/// `pass` (from 1) reconciled, i.e. the desired state and its informer
/// cache's objects and finalizers, which may lag the store. The run is
/// deterministic, so a timeline keeps no copy of every pass's cache (that
/// doubled the time of a 1,000-pass run); instead the replay stays where the
/// last question stopped it.
///
/// # Guarantees
/// - A question about a later pass continues the replay: walking forward
///   through a run, one pass at a time as Play does, costs one pass each.
/// - A question about an earlier pass, or any after the run ended, starts the replay again.
#[derive(Debug)]
pub struct PassViews {
    scenario: CustomResources,
    config: SimConfig,
    run: Simulation,
}

impl PassViews {
    pub fn new(scenario: &Scenario, config: &SimConfig) -> Self {
        Self::of_custom_resources(&CustomResources::one(scenario), config)
    }

    /// The same for a scenario of several custom resources.
    pub fn of_custom_resources(scenario: &CustomResources, config: &SimConfig) -> Self {
        Self {
            scenario: scenario.clone(),
            config: config.clone(),
            run: Simulation::of_custom_resources(scenario, config.clone()),
        }
    }

    /// What pass `pass` reconciled; `None` past the run's last pass.
    pub fn view(&mut self, pass: usize) -> Option<Scenario> {
        // Behind the question, the replay goes on; past it (or ended), it starts again.
        if self.waiting_pass().is_none_or(|waiting| waiting > pass) {
            self.run = Simulation::of_custom_resources(&self.scenario, self.config.clone());
        }
        loop {
            let Step::Reconcile(call) = self.run.step() else {
                return None;
            };
            let compare = self.config.comparison();
            if call.pass == pass {
                return Some(Scenario {
                    desired: call.desired.clone(),
                    observed: compared(compare, call.desired, call.observed).into_owned(),
                    finalizers: Some(call.finalizers.clone()),
                });
            }
            let plan = controller_plan(compare, call.desired, call.observed, call.finalizers);
            self.run.resume(plan);
        }
    }

    /// The same run replayed for its control-plane pictures.
    pub fn pictures(&self) -> crate::picture::PictureReplay {
        crate::picture::PictureReplay::of_custom_resources(&self.scenario, &self.config)
    }

    /// The pass the replay stands at, waiting for its plan; `None` once the run has ended.
    fn waiting_pass(&mut self) -> Option<usize> {
        match self.run.step() {
            Step::Reconcile(call) => Some(call.pass),
            Step::Finished(_) => None,
        }
    }
}

/// What pass `pass` of the run of `scenario` under `config` reconciled (a
/// replay from the start; see [`PassViews`] to walk through a run).
pub fn pass_view(scenario: &Scenario, config: &SimConfig, pass: usize) -> Option<Scenario> {
    PassViews::new(scenario, config).view(pass)
}

/// What the pass after `moment` of `timeline` (the run `views` replays)
/// reconciles, and that pass's number: the view it read (its informer cache,
/// which may still lack recent writes) when it is the next moment; else
/// (another actor acts first, or no pass follows) the store and desired
/// state at `moment`, what a pass would read once its cache caught up.
/// `None` when no pass reconciles anything: the custom resource is being
/// deleted or gone, so the reconciler returns at once, with no actions (as
/// the engine's passes do), and the garbage collector takes care of what it
/// owned.
pub fn next_plan_view(
    views: &mut PassViews,
    timeline: &Timeline,
    moment: Moment,
) -> (usize, Option<Scenario>) {
    let next = timeline.passes_at(moment) + 1;
    let comes_next = timeline
        .position_of(moment)
        .and_then(|at| timeline.moments.get(at + 1))
        == Some(&Moment::AfterPass(next));
    if comes_next {
        if let Some(view) = views.view(next) {
            return (next, Some(view));
        }
    }
    let world = timeline.world_at(moment);
    let first = world.custom_resource_names().next();
    if !first.is_some_and(|name| world.custom_resource_live(name)) {
        return (next, None);
    }
    let desired = timeline.desired_at(moment);
    let (named, finalizers) = controller_observed(views.config.naming, &desired, world);
    let observed = compared(views.config.comparison(), &desired, &named).into_owned();
    let view = Scenario {
        desired,
        observed,
        finalizers: Some(finalizers.into_owned()),
    };
    (next, Some(view))
}

/// How one object at a moment differs from the start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ObjectChange {
    Unchanged,
    /// Not there at the start.
    Added,
    /// Another spec or other finalizers than at the start.
    Changed,
    /// There at the start, gone now.
    Removed,
    /// Being deleted now (it was not at the start).
    Terminating,
}

impl ObjectChange {
    /// Words for the world view; never only a colour.
    pub fn label(self) -> &'static str {
        match self {
            ObjectChange::Unchanged => "unchanged",
            ObjectChange::Added => "added",
            ObjectChange::Changed => "changed",
            ObjectChange::Removed => "removed",
            ObjectChange::Terminating => "terminating",
        }
    }
}

/// One object of the world at a moment (or gone since the start).
#[derive(Debug, Clone, PartialEq)]
pub struct WorldRow {
    pub name: String,
    /// Its spec now; the spec it had for a removed object.
    pub spec: reconcile_core::json::Json,
    pub finalizers: Vec<String>,
    pub change: ObjectChange,
}

/// Every object of `start` and `now`, sorted by name, with how it changed.
pub fn world_rows(start: &World, now: &World) -> Vec<WorldRow> {
    crate::views::status::union_of_sorted(start.observed.names(), now.observed.names())
        .into_iter()
        .filter_map(|name| {
            let (before, after) = (start.observed.get(name), now.observed.get(name));
            let change = match (before, after) {
                (_, Some(_)) if now.is_terminating(name) && !start.is_terminating(name) => {
                    ObjectChange::Terminating
                }
                (None, Some(_)) => ObjectChange::Added,
                (Some(_), None) => ObjectChange::Removed,
                (Some(a), Some(b)) if a != b || start.pending(name) != now.pending(name) => {
                    ObjectChange::Changed
                }
                _ => ObjectChange::Unchanged,
            };
            Some(WorldRow {
                name: name.to_owned(),
                spec: after.or(before)?.clone(),
                finalizers: now.pending(name).to_vec(),
                change,
            })
        })
        .collect()
}

impl Timeline {
    /// Passes finished at `moment`.
    pub fn passes_at(&self, moment: Moment) -> usize {
        match moment {
            Moment::Start => 0,
            Moment::AfterPass(pass) => pass,
            Moment::AfterActorEvent(i) => self.actor_events.get(i).map_or(0, |e| e.after_pass),
        }
    }

    /// The API server's store at `moment`.
    pub fn world_at(&self, moment: Moment) -> &World {
        match moment {
            Moment::AfterActorEvent(i) => match self.actor_events.get(i) {
                Some(event) => &event.world_after,
                None => &self.final_world,
            },
            _ => self.world_after(self.passes_at(moment)),
        }
    }

    /// The desired state in force at `moment`: an actor's event right after
    /// pass `n` comes after the moment of pass `n`, so it is not in force there.
    pub fn desired_at(&self, moment: Moment) -> Resources {
        let last_event = match moment {
            Moment::Start => None,
            Moment::AfterPass(pass) => self.actor_events.iter().rposition(|e| e.after_pass < pass),
            Moment::AfterActorEvent(i) => Some(i),
        };
        last_event
            .and_then(|i| self.actor_events.get(i))
            .map_or_else(|| self.desired_initial.clone(), |e| e.desired_after.clone())
    }

    /// How many actions `reconcile` would return on the store at `moment`.
    pub fn out_of_sync_at(&self, moment: Moment) -> usize {
        match moment {
            Moment::Start => {
                let (observed, finalizers) =
                    controller_observed(self.naming, &self.desired_initial, &self.initial);
                controller_out_of_sync(self.compare, &self.desired_initial, &observed, &finalizers)
            }
            Moment::AfterPass(pass) => self.passes.get(pass - 1).map_or(0, |p| p.out_of_sync),
            Moment::AfterActorEvent(i) => self.actor_events.get(i).map_or(0, |e| e.out_of_sync),
        }
    }

    /// Where the controller's cache differed from the store at `moment`:
    /// known as each pass ends; none at the start or after an actor's event.
    pub fn cache_lag_at(&self, moment: Moment) -> &[CacheLagEntry] {
        match moment {
            Moment::AfterPass(pass) => self.cache_lag_after(pass),
            _ => &[],
        }
    }

    /// The position of `moment` in [`Timeline::moments`].
    pub fn position_of(&self, moment: Moment) -> Option<usize> {
        self.moments.iter().position(|m| *m == moment)
    }

    /// The position of the moment right after the actor's event of script
    /// entry `script_index`, when it happened.
    pub fn position_of_script(&self, script_index: usize) -> Option<usize> {
        let event = self
            .actor_events
            .iter()
            .position(|e| e.script_index == script_index)?;
        self.position_of(Moment::AfterActorEvent(event))
    }

    /// The store's objects at `moment`, each marked with how it changed since the start.
    pub fn world_rows_at(&self, moment: Moment) -> Vec<WorldRow> {
        world_rows(&self.initial, self.world_at(moment))
    }

    /// "the start", "pass 2", "someone deletes a (after pass 3)".
    pub fn describe_moment(&self, moment: Moment) -> String {
        match moment {
            Moment::Start => "the start".to_owned(),
            Moment::AfterPass(pass) => format!("pass {pass}"),
            Moment::AfterActorEvent(i) => match self.actor_events.get(i) {
                Some(e) if e.after_pass == 0 => format!("{} (before pass 1)", e.event),
                Some(e) => format!("{} (after pass {})", e.event, e.after_pass),
                None => "the end".to_owned(),
            },
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use reconcile_core::explain::plan;
    use reconcile_core::{parse_finalizers, parse_resources, Document};

    use super::*;
    use crate::{
        simulate, NotConvergingReason, ScriptedEvent, SimConfig, SimScenario, Verdict, WorldEvent,
    };

    /// The seed example: desired a and b, observed b (drifted) and c.
    pub(crate) fn seed() -> SimScenario {
        let res = |text| parse_resources(Document::Desired, text).expect("valid");
        SimScenario {
            desired: res(r#"{"a":{"replicas":1},"b":{"replicas":3}}"#),
            observed: res(r#"{"b":{"replicas":1},"c":{"replicas":1}}"#),
            finalizers: parse_finalizers("null").expect("valid"),
        }
    }

    fn next_plan(
        scenario: &SimScenario,
        config: &SimConfig,
        timeline: &Timeline,
        moment: Moment,
    ) -> (usize, Vec<String>) {
        let (pass, view) = next_plan_view(&mut PassViews::new(scenario, config), timeline, moment);
        let view = view.expect("the custom resource lives");
        let plan = plan(&view.desired, &view.observed, view.finalizers.as_ref());
        let actions = plan
            .actions
            .iter()
            .map(|a| format!("{} {}", a.action.kind.as_str(), a.action.name))
            .collect();
        (pass, actions)
    }

    #[test]
    fn the_seed_example_has_a_start_and_one_moment_per_pass() {
        let (scenario, config) = (seed(), SimConfig::default());
        let timeline = simulate(&scenario, &config);
        use Moment::*;
        assert_eq!(
            timeline.moments,
            [Start, AfterPass(1), AfterPass(2), AfterPass(3)]
        );
        let counts: Vec<usize> = timeline
            .moments
            .iter()
            .map(|m| timeline.out_of_sync_at(*m))
            .collect();
        assert_eq!(counts, [3, 0, 0, 0]);
        assert_eq!(
            next_plan(&scenario, &config, &timeline, Start),
            (
                1,
                vec!["CREATE a".into(), "UPDATE b".into(), "DELETE c".into()]
            )
        );
        // Pass 2 read a cache that had not seen c's delete yet: its plan is
        // what it did, not what the store says.
        assert_eq!(
            next_plan(&scenario, &config, &timeline, AfterPass(1)),
            (2, vec!["DELETE c".into()])
        );
        assert_eq!(
            next_plan(&scenario, &config, &timeline, AfterPass(3)),
            (4, vec![])
        );
        assert_eq!(timeline.describe_moment(AfterPass(2)), "pass 2");
    }

    #[test]
    fn one_replay_walked_forward_and_back_gives_the_views_of_fresh_replays() {
        // A flaky API: many passes, each reading a cache that lags the store.
        let config = SimConfig {
            failure_rate: 0.5,
            ..SimConfig::default()
        };
        let scenario = seed();
        let timeline = simulate(&scenario, &config);
        let passes = timeline.passes.len();
        assert!(passes > 3, "a flaky run has retries: {passes} passes");
        let mut views = PassViews::new(&scenario, &config);
        let order: Vec<usize> = (1..=passes + 1).chain([2, 1, passes, 3]).collect();
        for pass in order {
            assert_eq!(
                views.view(pass),
                pass_view(&scenario, &config, pass),
                "pass {pass}"
            );
        }
        assert_eq!(views.view(passes + 1), None);
    }

    #[test]
    fn an_unheard_delete_is_a_moment_of_its_own_that_agrees_with_the_verdict() {
        let config = SimConfig {
            // Nobody watches owned objects: the delete never triggers a pass.
            watch_owned: false,
            script: vec![ScriptedEvent {
                after_pass: 1,
                event: WorldEvent::Delete { name: "a".into() },
            }],
            ..SimConfig::default()
        };
        let timeline = simulate(&seed(), &config);
        let last = *timeline.moments.last().expect("moments");
        let scenario = seed();
        assert_eq!(last, Moment::AfterActorEvent(0));
        assert_eq!(timeline.passes_at(last), 1);
        assert_eq!(
            timeline.position_of_script(0),
            Some(timeline.moments.len() - 1)
        );
        assert!(timeline.world_after(1).observed.contains("a"));
        assert!(!timeline.world_at(last).observed.contains("a"));
        assert_eq!(timeline.out_of_sync_at(Moment::AfterPass(1)), 0);
        assert_eq!(timeline.out_of_sync_at(last), 1);
        assert_eq!(
            timeline.verdict,
            Verdict::NotConverging {
                reason: NotConvergingReason::NoTrigger { out_of_sync: 1 }
            }
        );
        assert_eq!(timeline.world_at(last), &timeline.final_world);
        // No pass follows: the plan is the store's, as a pass would read it.
        assert_eq!(
            next_plan(&scenario, &config, &timeline, last),
            (2, vec!["CREATE a".into()])
        );
        assert_eq!(
            timeline.describe_moment(last),
            "someone deletes a (after pass 1)"
        );
        let changes: Vec<(String, ObjectChange)> = timeline
            .world_rows_at(last)
            .into_iter()
            .map(|row| (row.name, row.change))
            .collect();
        use ObjectChange::*;
        assert_eq!(
            changes,
            [("b".into(), Changed), ("c".into(), Removed)],
            "a was created and deleted again: not in the world, and not at the start"
        );
        let after_pass_1: Vec<ObjectChange> = timeline
            .world_rows_at(Moment::AfterPass(1))
            .iter()
            .map(|row| row.change)
            .collect();
        assert_eq!(after_pass_1, [Added, Changed, Removed]);
    }

    #[test]
    fn a_deleted_object_with_finalizers_is_marked_terminating() {
        let res = |text| parse_resources(Document::Desired, text).expect("valid");
        let scenario = SimScenario {
            desired: res(r#"{"svc":{}}"#),
            observed: res(r#"{"svc":{}}"#),
            finalizers: parse_finalizers(r#"{"svc":["x/y"]}"#).expect("valid"),
        };
        let config = SimConfig {
            stuck_finalizers: vec![crate::FinalizerRef {
                object: "svc".into(),
                finalizer: "x/y".into(),
            }],
            script: vec![ScriptedEvent {
                after_pass: 1,
                event: WorldEvent::Delete { name: "svc".into() },
            }],
            ..SimConfig::default()
        };
        let timeline = simulate(&scenario, &config);
        let rows = timeline.world_rows_at(Moment::AfterActorEvent(0));
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].change, ObjectChange::Terminating);
        assert_eq!(rows[0].finalizers, ["x/y"]);
    }

    #[test]
    fn events_before_the_first_pass_come_before_it() {
        let config = SimConfig {
            script: vec![ScriptedEvent {
                after_pass: 0,
                event: WorldEvent::Delete { name: "b".into() },
            }],
            ..SimConfig::default()
        };
        let timeline = simulate(&seed(), &config);
        assert_eq!(
            timeline.moments[..3],
            [
                Moment::Start,
                Moment::AfterActorEvent(0),
                Moment::AfterPass(1)
            ]
        );
        assert!(!timeline
            .world_at(Moment::AfterActorEvent(0))
            .observed
            .contains("b"));
    }

    /// Once the custom resource is deleted, no pass reconciles anything:
    /// the plan at the cursor is none, not the contract's plan against the
    /// desired state of an owner that is gone.
    #[test]
    fn no_plan_after_the_custom_resource_is_deleted() {
        let config = SimConfig {
            script: vec![ScriptedEvent {
                after_pass: 1,
                event: WorldEvent::DeleteCustomResource {
                    propagation: crate::PropagationPolicy::Background,
                },
            }],
            ..SimConfig::default()
        };
        let scenario = seed();
        let timeline = simulate(&scenario, &config);
        let mut views = PassViews::new(&scenario, &config);
        let last = *timeline.moments.last().expect("moments");
        assert!(next_plan_view(&mut views, &timeline, last).1.is_none());
        let (_, before) = next_plan_view(&mut views, &timeline, Moment::Start);
        assert!(before.is_some());
    }
}
