//! A second controller, written here against the client alone, runs on the
//! same control plane as the contract controller (issue 29, "no facade").
//!
//! `OneAtATime` never calls the contract's `reconcile`: each reconcile
//! reads the cache, sends at most one request, and returns `RequeueAfter`
//! while work is left, as many hand-written controllers do.

use std::cell::Cell;
use std::rc::Rc;
use std::sync::Arc;

use reconcile_core::json::Json;
use reconcile_core::reconcile::{Action, ActionKind};
use reconcile_core::{parse_finalizers, parse_resources, Document};
use reconcile_sim::client::{Answer, Client, ObjectKey, Patch, Replaces, Request};
use reconcile_sim::controller::{
    Controller, PlanInput, Planned, Recorded, Returned, Sent, Start, Worker,
};
use reconcile_sim::events::SimEvent;
use reconcile_sim::{
    ActionResult, CrashPlan, NewController, SimConfig, SimScenario, Simulation, Step, Trigger,
    Verdict,
};

const REQUEUE_AFTER_MS: u64 = 50;

/// How `OneAtATime` fixes an object's drift.
#[derive(Debug, Clone, Copy, Default)]
enum DriftFix {
    #[default]
    Update,
    /// A merge patch of the spec, locked on the resourceVersion read.
    MergePatch,
    /// A JSON patch that replaces the spec.
    JsonPatch,
}

/// Creates what is missing, deletes what is not wanted, fixes drift: one
/// request per reconcile.
#[derive(Default)]
struct OneAtATime {
    fix: DriftFix,
    next: Option<Request>,
    sent: bool,
    failed: bool,
}

impl OneAtATime {
    fn work(&self, request: &str, client: &Client<'_>) -> Option<Request> {
        let cache = client.cache();
        let owner_references = cache.controller_owner_refs(request);
        let desired = client.desired(request)?;
        for (name, spec) in desired.iter() {
            match cache.observed.get(name) {
                None => {
                    return Some(Request::Create {
                        name: Arc::from(name),
                        generate_name: None,
                        spec: spec.clone(),
                        owner_references,
                        finalizers: Vec::new(),
                    })
                }
                Some(seen) if seen != spec => {
                    let name = Arc::from(name);
                    let read = cache.meta(&name).map(|m| m.resource_version);
                    return Some(self.fix_drift(name, spec, read));
                }
                Some(_) => {}
            }
        }
        let extra = cache
            .observed
            .names()
            .find(|name| !desired.contains(name) && !cache.is_terminating(name))?;
        Some(Request::Delete {
            name: Arc::from(extra),
            propagation: None,
        })
    }

    fn fix_drift(&self, name: Arc<str>, spec: &Json, read: Option<u64>) -> Request {
        let member = |key: &str, value: Json| Json::object(vec![(key.into(), value)]);
        match self.fix {
            DriftFix::Update => Request::Update {
                name,
                spec: spec.clone(),
                resource_version: read,
                replaces: Replaces::Spec,
            },
            DriftFix::MergePatch => {
                let patch = Patch::merge(member("spec", spec.clone()));
                Request::Patch {
                    name,
                    patch: patch.with_resource_version(read.unwrap_or(0)),
                }
            }
            DriftFix::JsonPatch => {
                let op = Json::object(vec![
                    ("op".into(), Json::string("replace")),
                    ("path".into(), Json::string("/spec")),
                    ("value".into(), spec.clone()),
                ]);
                Request::Patch {
                    name,
                    patch: Patch::json(Json::array(vec![op])),
                }
            }
        }
    }
}

impl Controller for OneAtATime {
    fn start(&mut self, _worker: Worker, request: &Arc<str>, client: &Client<'_>) -> Start {
        let live = client
            .get(&ObjectKey::CustomResource(Arc::clone(request)))
            .is_some_and(|cr| cr.deletion_timestamp.is_none());
        self.next = live.then(|| self.work(request, client)).flatten();
        self.sent = false;
        self.failed = false;
        Start::Planned(Planned {
            requests: usize::from(self.next.is_some()),
            ..Planned::default()
        })
    }

    fn plan_input<'s>(&'s self, _worker: Worker, _client: &Client<'s>) -> PlanInput<'s> {
        unreachable!("OneAtATime never asks for a plan")
    }

    fn planned(&mut self, _worker: Worker, _plan: Vec<Action>, _client: &Client<'_>) -> Planned {
        unreachable!("OneAtATime never asks for a plan")
    }

    fn sends_more(&self, _worker: Worker) -> bool {
        !self.sent && self.next.is_some()
    }

    fn request(&mut self, _worker: Worker, _client: &Client<'_>) -> Option<Sent> {
        self.sent = true;
        Some(Sent {
            request: self.next.clone()?,
            serves: None,
        })
    }

    fn answered(&mut self, _worker: Worker, answer: &Answer, _client: &Client<'_>) -> Recorded {
        let result = match answer {
            Ok(_) => ActionResult::Applied,
            Err(error) => {
                self.failed = true;
                ActionResult::Failed {
                    requeued_at: 0,
                    code: error.code(),
                    error: error.to_string(),
                }
            }
        };
        Recorded {
            result,
            object: None,
        }
    }

    fn result(&mut self, _worker: Worker) -> Returned {
        Returned {
            error: self
                .failed
                .then_some(reconcile_sim::client::ReconcileError::Transient),
            requeue_after: self.next.is_some().then_some(REQUEUE_AFTER_MS),
        }
    }
}

fn scenario() -> SimScenario {
    SimScenario {
        desired: parse_resources(
            Document::Desired,
            r#"{"a":{"replicas":1},"b":{"replicas":3},"d":{"replicas":2}}"#,
        )
        .expect("valid"),
        observed: parse_resources(
            Document::Observed,
            r#"{"b":{"replicas":1},"c":{"replicas":1}}"#,
        )
        .expect("valid"),
        finalizers: parse_finalizers("{}").expect("valid"),
    }
}

/// A factory that counts the processes it made.
fn one_at_a_time(made: &Rc<Cell<usize>>, fix: DriftFix) -> NewController {
    let made = Rc::clone(made);
    Rc::new(move || {
        made.set(made.get() + 1);
        Box::new(OneAtATime {
            fix,
            ..OneAtATime::default()
        })
    })
}

fn run(config: SimConfig, made: &Rc<Cell<usize>>) -> reconcile_sim::Timeline {
    run_fixing(config, made, DriftFix::Update)
}

fn run_fixing(config: SimConfig, made: &Rc<Cell<usize>>, fix: DriftFix) -> reconcile_sim::Timeline {
    let controller = one_at_a_time(made, fix);
    let mut simulation = Simulation::with_controller(&scenario(), config, controller);
    assert!(
        matches!(simulation.step(), Step::Finished(_)),
        "OneAtATime never waits for a plan"
    );
    simulation.into_timeline()
}

fn requests(timeline: &reconcile_sim::Timeline) -> Vec<(usize, ActionKind, String, u16)> {
    timeline
        .events
        .entries
        .iter()
        .filter_map(|entry| match &entry.what {
            SimEvent::Request {
                pass,
                action,
                name,
                code,
            } => Some((*pass, *action, name.clone(), *code)),
            _ => None,
        })
        .collect()
}

#[test]
fn a_controller_written_against_the_client_converges_one_request_per_pass() {
    let made = Rc::new(Cell::new(0));
    let timeline = run(SimConfig::default(), &made);
    assert!(
        matches!(timeline.verdict, Verdict::Converged { .. }),
        "{:?}",
        timeline.verdict
    );
    assert_eq!(timeline.final_world.observed, scenario().desired);
    let sent = requests(&timeline);
    let kinds: Vec<ActionKind> = sent.iter().map(|r| r.1).collect();
    // Two creates, one update, one delete: the record names each verb.
    assert_eq!(
        kinds,
        [
            ActionKind::Create,
            ActionKind::Update,
            ActionKind::Create,
            ActionKind::Delete
        ],
        "{sent:?}"
    );
    assert!(sent.iter().all(|r| r.3 == 200 || r.3 == 201), "{sent:?}");
    // At most one request per pass, and no planned actions in the record.
    let mut passes: Vec<usize> = sent.iter().map(|r| r.0).collect();
    passes.dedup();
    assert_eq!(passes.len(), sent.len());
    assert!(timeline.passes.iter().all(|p| p.actions.is_empty()));
    assert_eq!(made.get(), 1);
}

#[test]
fn with_no_handler_on_owned_objects_requeue_after_drives_every_pass() {
    let made = Rc::new(Cell::new(0));
    let config = SimConfig {
        watch_owned: false,
        ..SimConfig::default()
    };
    let timeline = run(config, &made);
    assert_eq!(timeline.final_world.observed, scenario().desired);
    let later = &timeline.passes[1..];
    assert_eq!(later.len(), 3, "one pass per request after the first");
    for (before, pass) in timeline.passes.iter().zip(later) {
        assert!(
            matches!(
                pass.trigger,
                Trigger::RequeueAfter {
                    delay_ms: REQUEUE_AFTER_MS
                }
            ),
            "pass {} ran for {:?}",
            pass.index,
            pass.trigger
        );
        assert!(pass.started_at >= before.finished_at + REQUEUE_AFTER_MS);
    }
}

#[test]
fn a_crash_makes_a_new_controller_that_still_converges() {
    let made = Rc::new(Cell::new(0));
    let config = SimConfig {
        crash: Some(CrashPlan {
            at_pass: 2,
            after_actions: 0,
        }),
        ..SimConfig::default()
    };
    let timeline = run(config, &made);
    assert_eq!(made.get(), 2, "the restart is a new process");
    assert!(timeline.passes[1].crashed);
    assert!(
        matches!(timeline.verdict, Verdict::Converged { .. }),
        "{:?}",
        timeline.verdict
    );
    assert_eq!(timeline.final_world.observed, scenario().desired);
}

#[test]
fn failures_are_answered_by_the_same_server() {
    let made = Rc::new(Cell::new(0));
    let config = SimConfig {
        failure_rate: 0.5,
        seed: 7,
        ..SimConfig::default()
    };
    let timeline = run(config, &made);
    let sent = requests(&timeline);
    assert!(sent.iter().any(|r| r.3 == 503), "{sent:?}");
    assert!(
        matches!(timeline.verdict, Verdict::Converged { .. }),
        "{:?}",
        timeline.verdict
    );
}

#[test]
fn a_controller_that_fixes_drift_with_patches_converges() {
    for fix in [DriftFix::MergePatch, DriftFix::JsonPatch] {
        let made = Rc::new(Cell::new(0));
        let timeline = run_fixing(SimConfig::default(), &made, fix);
        assert!(
            matches!(timeline.verdict, Verdict::Converged { .. }),
            "{fix:?}: {:?}",
            timeline.verdict
        );
        assert_eq!(timeline.final_world.observed, scenario().desired, "{fix:?}");
        let sent = requests(&timeline);
        // The patch is recorded as the update it is, answered 200.
        assert!(
            sent.iter()
                .any(|r| r.1 == ActionKind::Update && r.2 == "b" && r.3 == 200),
            "{fix:?}: {sent:?}"
        );
    }
}
