//! `status` (issue 30): report `status.observedGeneration` and a `Ready`
//! condition without waking yourself forever. A Rust reference passes the
//! default budget; each known bug is caught with a shrunk schedule.

mod exercises;

use std::collections::BTreeMap;

use serde_json::{json, Value};

use exercises::{caught, check, find, passes};
use reconcile_sim::learner::properties::{EVENTUALLY_STABLE, IDEMPOTENT_ONCE_CONVERGED};
use reconcile_sim::learner::{
    status, CallError, Client, ClientCall, Fault, Finish, Reconciler, Request,
};
use reconcile_sim::rfc3339;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Flaw {
    None,
    /// Puts the simulated time of each reconcile in status: every write
    /// wakes the controller for another.
    TimestampInStatus,
    /// Writes status on every reconcile, changed or not.
    WritesStatusEveryPass,
    /// Remembers the generation it reported before the write succeeded:
    /// a failed write is never retried.
    RemembersReportTooEarly,
}

struct Controller {
    flaw: Flaw,
    /// Generations reported, by custom resource: this process's memory.
    reported: BTreeMap<String, u64>,
}

impl Controller {
    fn run(&mut self, request: &Request, client: &mut Client<'_>) -> Result<(), CallError> {
        let Some(mut custom) = find(client, "Desired", &request.name)? else {
            return Ok(());
        };
        if !custom["metadata"]["deletionTimestamp"].is_null() {
            return Ok(());
        }
        let generation = custom["metadata"]["generation"].as_u64().unwrap_or(0);
        if self.flaw == Flaw::RemembersReportTooEarly {
            if self.reported.get(&request.name) == Some(&generation) {
                return Ok(());
            }
            self.reported.insert(request.name.clone(), generation);
        }
        // No lastTransitionTime: it would change only on a transition.
        let mut wanted = json!({
            "observedGeneration": generation,
            "conditions": [{ "type": "Ready", "status": "True", "reason": "Reconciled" }],
        });
        if self.flaw == Flaw::TimestampInStatus {
            // What `new Date().toISOString()` gives a learner: the simulated clock.
            wanted["lastReconciled"] = json!(to_iso_string(client.now()));
        }
        let same = custom["status"] == wanted;
        if same && self.flaw != Flaw::WritesStatusEveryPass {
            return Ok(());
        }
        custom["status"] = wanted;
        // A 409 returns an error: the retry reads the cache again.
        let written = client.call(ClientCall::UpdateStatus { object: custom });
        if self.flaw == Flaw::RemembersReportTooEarly {
            // Swallows the error: it believes the memory it already wrote.
            return Ok(());
        }
        written.map(|_: Value| ())
    }
}

impl Reconciler for Controller {
    fn reconcile(&mut self, request: &Request, client: &mut Client<'_>) -> Finish {
        match self.run(request, client) {
            Ok(()) => Finish::Ok(None),
            Err(error) => Finish::Error(error.to_string()),
        }
    }
}

/// JavaScript's `Date.prototype.toISOString`: RFC 3339 to the millisecond.
fn to_iso_string(at: u64) -> String {
    let seconds = rfc3339::time(at);
    let seconds = seconds.strip_suffix('Z').unwrap_or(&seconds);
    format!("{seconds}.{:03}Z", at % 1_000)
}

fn controller(flaw: Flaw) -> impl Fn() -> Controller {
    move || Controller {
        flaw,
        reported: BTreeMap::new(),
    }
}

#[test]
fn the_reference_passes_the_default_budget() {
    let report = check(&status(), controller(Flaw::None));
    passes(&report);
    // Both report, and blog again after its spec changes.
    assert_eq!(report.fault_free_requests, 3);
}

#[test]
fn a_timestamp_in_status_wakes_the_controller_forever() {
    let report = check(&status(), controller(Flaw::TimestampInStatus));
    let (property, faults) = caught(&report);
    assert_eq!((property, faults), (EVENTUALLY_STABLE, vec![]));
    let detail = &report.counterexample.as_ref().expect("caught").detail;
    assert!(detail.contains("never settled"), "{detail}");
    // Each write carries the simulated time it was made at: a new value each time.
    let written: Vec<(String, Value)> = report
        .counterexample
        .as_ref()
        .expect("caught")
        .record
        .iter()
        .flat_map(|reconcile| &reconcile.calls)
        .filter_map(|made| match &made.call {
            ClientCall::UpdateStatus { object } => Some((
                to_iso_string(made.at),
                object["status"]["lastReconciled"].clone(),
            )),
            _ => None,
        })
        .collect();
    assert!(written.len() > 3, "{written:?}");
    assert!(
        written.iter().all(|(at, time)| *time == json!(at)),
        "{written:?}"
    );
    assert!(written.windows(2).all(|w| w[0].1 != w[1].1), "{written:?}");
}

#[test]
fn writing_status_every_pass_is_not_idempotent() {
    let report = check(&status(), controller(Flaw::WritesStatusEveryPass));
    let (property, faults) = caught(&report);
    assert_eq!((property, faults), (IDEMPOTENT_ONCE_CONVERGED, vec![]));
}

#[test]
fn a_report_remembered_before_it_was_written_is_caught_by_a_503() {
    let report = check(&status(), controller(Flaw::RemembersReportTooEarly));
    let (property, faults) = caught(&report);
    assert_eq!(
        (property, faults),
        (EVENTUALLY_STABLE, vec![Fault::Unavailable])
    );
}
