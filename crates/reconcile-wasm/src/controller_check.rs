//! The check that tries to break a learner's controller, as a JS class.
//!
//! `reconcile_sim::learner::CheckSession` chooses the schedules, shrinks
//! and tells; this class runs one schedule per `run` call, so the caller
//! can load a fresh module for each process between runs (a crash loses
//! the process's memory, and `import()` is asynchronous) and report
//! progress. `js/controller.js` drives it.

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::Function;
use reconcile_sim::learner::search::{run_schedule, CheckReport, Outcome};
use reconcile_sim::learner::{
    self, Budget, CheckSession, Client, Finish, Reconciler, ReplayLink, Request,
};
use serde::Serialize;
use wasm_bindgen::closure::ScopedClosure;
use wasm_bindgen::prelude::*;

use crate::convert::to_js;
use crate::driven::{call_of, exercise_with, finish_from, options_text, thrown};

/// A check of a controller exercise, one schedule at a time: while
/// `next()` is not `null`, `run(start)`; then `report()`.
#[wasm_bindgen]
pub struct ControllerCheck {
    exercise: learner::Exercise,
    /// The settings given over the exercise's, as JSON text: a replay needs them.
    options: Option<String>,
    session: Option<CheckSession>,
}

/// The report, and the counterexample's replay for its link.
#[derive(Serialize)]
struct Reported<'a> {
    #[serde(flatten)]
    report: &'a CheckReport,
    /// What a link replays: `js/reconcile.js` makes it `counterexample.link`.
    replay: Option<ReplayLink>,
}

/// The schedule to run next, and how many processes it may need: one,
/// and one more for each crash it places.
#[derive(Serialize)]
#[cfg_attr(all(test, not(target_arch = "wasm32")), derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct NextSchedule<'a> {
    #[cfg_attr(all(test, not(target_arch = "wasm32")), ts(type = "Schedule"))]
    pub schedule: &'a learner::Schedule,
    pub processes: usize,
}

#[wasm_bindgen]
impl ControllerCheck {
    /// A check of the exercise named `exercise`: at most `schedules`
    /// schedules (at least the fault-free one), the random ones drawn from
    /// `seed`, its settings overridden by `options`.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "string")] exercise: JsValue,
        schedules: u32,
        seed: u32,
        #[wasm_bindgen(unchecked_optional_param_type = "SimOptions | string | null")]
        options: Option<JsValue>,
    ) -> Result<ControllerCheck, JsError> {
        let exercise = exercise_with(&exercise, options.as_ref())?;
        let options = options_text(options.as_ref());
        let budget = Budget {
            schedules: schedules as usize,
        };
        let session = CheckSession::new(budget, u64::from(seed));
        Ok(ControllerCheck {
            exercise,
            options,
            session: Some(session),
        })
    }

    /// The schedule to run next, or `null` once the check is over.
    #[wasm_bindgen(unchecked_return_type = "NextSchedule | null")]
    pub fn next(&self) -> Result<JsValue, JsError> {
        let Some(schedule) = self.session.as_ref().and_then(CheckSession::next) else {
            return Ok(JsValue::NULL);
        };
        let crashes = schedule.0.iter().filter(|p| p.fault.crashes()).count();
        to_js(&NextSchedule {
            schedule,
            processes: 1 + crashes,
        })
    }

    /// Runs the next schedule. `start()` is called for each process and
    /// returns its `reconcile(request, send, now)`, where `send(call)` makes a
    /// client call and `now()` gives the simulated time in milliseconds;
    /// what `reconcile` returns is read as `DrivenRun.finish` reads it. Throws what `start` or `reconcile` threw (misuse ends the
    /// check), or an `Error` when the result is not a reconcile's result.
    pub fn run(&mut self, start: &Function) -> Result<(), JsValue> {
        let Some(session) = self.session.as_mut() else {
            return Ok(());
        };
        let Some(schedule) = session.next().cloned() else {
            return Ok(());
        };
        let stopped = Stopped::default();
        let factory = || -> Box<dyn Reconciler> {
            let reconcile = match start.call0(&JsValue::NULL) {
                Ok(reconcile) => reconcile.dyn_into::<Function>().map_err(|_| {
                    js_sys::TypeError::new("start() returned no reconcile function").into()
                }),
                Err(thrown) => Err(thrown),
            };
            let reconcile = reconcile.map_err(|thrown| stopped.stop(thrown)).ok();
            Box::new(JsProcess {
                reconcile,
                stopped: stopped.clone(),
            })
        };
        let outcome: Outcome = run_schedule(&self.exercise, &factory, &schedule);
        if let Some(thrown) = stopped.take() {
            // A check cannot go on past misuse: retrying cannot mend it.
            self.session = None;
            return Err(thrown);
        }
        session.record(outcome);
        Ok(())
    }

    /// The schedules explored so far, the fault-free one included.
    #[wasm_bindgen(getter)]
    pub fn explored(&self) -> usize {
        self.session.as_ref().map_or(0, CheckSession::explored)
    }

    /// What the check found (so far, if stopped early): `passed`,
    /// `schedulesExplored`, the properties, and the shrunk counterexample
    /// with its story and record; `replay`, what a link to its replay
    /// holds (`null` when it passed). Ends the check.
    #[wasm_bindgen(unchecked_return_type = "ControllerCheckReport & { replay: Json | null }")]
    pub fn report(&mut self) -> Result<JsValue, JsError> {
        let session = self
            .session
            .take()
            .ok_or_else(|| JsError::new("report: the check has ended"))?;
        let report = session.report();
        let replay = report
            .counterexample
            .as_ref()
            .map(|example| ReplayLink::of(self.exercise.name, self.options.clone(), example));
        to_js(&Reported {
            report: &report,
            replay,
        })
    }

    /// The exercise's goal, in plain words.
    #[wasm_bindgen(getter)]
    pub fn goal(&self) -> String {
        self.exercise.goal_text.to_owned()
    }
}

/// The first error that ends the check, shared by a run's processes.
#[derive(Clone, Default)]
struct Stopped(Rc<RefCell<Option<JsValue>>>);

impl Stopped {
    fn stop(&self, thrown: JsValue) {
        self.0.borrow_mut().get_or_insert(thrown);
    }

    fn take(&self) -> Option<JsValue> {
        self.0.borrow_mut().take()
    }

    fn is_stopped(&self) -> bool {
        self.0.borrow().is_some()
    }
}

/// One process of the learner's controller: its `reconcile(request, send, now)`.
struct JsProcess {
    /// `None` when `start()` failed; the check then stops.
    reconcile: Option<Function>,
    stopped: Stopped,
}

impl Reconciler for JsProcess {
    fn reconcile(&mut self, request: &Request, client: &mut Client<'_>) -> Finish {
        let stop = || Finish::Terminal("the check stopped".to_owned());
        let Some(reconcile) = &self.reconcile else {
            return stop();
        };
        if self.stopped.is_stopped() {
            return stop();
        }
        let request = match to_js(request) {
            Ok(request) => request,
            Err(error) => {
                self.stopped.stop(error.into());
                return stop();
            }
        };
        // JS is one thread, and neither closure calls the other: the borrows never overlap.
        let client = RefCell::new(client);
        let mut send = |call: JsValue| -> Result<JsValue, JsValue> {
            let answer = call_of(&call).and_then(|call| client.borrow_mut().call(call));
            match answer {
                Ok(answer) => to_js(&answer).map_err(JsValue::from),
                Err(error) => Err(thrown(&error)),
            }
        };
        // Exact in a JS number: simulated runs last far less than 2^53 ms.
        let now = || client.borrow().now() as f64;
        let send =
            ScopedClosure::<dyn FnMut(JsValue) -> Result<JsValue, JsValue>>::borrow_mut_aborting(
                &mut send,
            );
        let now = ScopedClosure::<dyn Fn() -> f64>::borrow_aborting(&now);
        let result = reconcile.call3(&JsValue::NULL, &request, send.as_ref(), now.as_ref());
        drop((send, now));
        match result.map(|result| finish_from(&result)) {
            Ok(Ok(finish)) => finish,
            Ok(Err(message)) => {
                self.stopped.stop(js_sys::TypeError::new(&message).into());
                stop()
            }
            Err(thrown) => {
                self.stopped.stop(thrown);
                stop()
            }
        }
    }
}
