//! `replicas` (issue 30): keep N pods. A Rust reference with
//! deterministic names passes the default budget; each known bug is
//! caught with a shrunk schedule.

mod exercises;

use std::collections::BTreeMap;

use serde_json::{json, Value};

use exercises::{caught, check, controlled_by, controller_reference, find, list, passes, status};
use reconcile_sim::learner::properties::{EVENTUALLY_STABLE, SAFE};
use reconcile_sim::learner::{
    replicas, CallError, Client, ClientCall, Fault, Finish, Reconciler, Request,
};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Flaw {
    None,
    /// Creates the missing pods with `generateName` from what the cache
    /// lists, with no expectations.
    GenerateNameWithoutExpectations,
    /// Counts the pods it created in memory, and never lists them: a
    /// restart forgets them.
    CountsInMemory,
    /// Deterministic names, but a 409 AlreadyExists makes it create the
    /// pod again by `generateName`: it trusts a cache that has not seen
    /// its own last create over the server's answer.
    TrustsCacheOverAlreadyExists,
}

struct Controller {
    flaw: Flaw,
    /// Pods created, by custom resource: this process's memory.
    created: BTreeMap<String, usize>,
}

fn pod(custom: &Value, name: Option<&str>) -> Value {
    let owner = custom["metadata"]["name"].as_str().unwrap_or_default();
    let mut metadata = json!({
        "labels": { "app": owner },
        "ownerReferences": [controller_reference(custom)],
    });
    match name {
        Some(name) => metadata["name"] = json!(name),
        None => metadata["generateName"] = json!(format!("{owner}-")),
    }
    json!({
        "apiVersion": "v1", "kind": "Pod", "metadata": metadata,
        "spec": { "containers": [{ "name": "app", "image": "nginx" }] },
    })
}

impl Controller {
    fn run(&mut self, request: &Request, client: &mut Client<'_>) -> Result<(), CallError> {
        let Some(custom) = find(client, "Desired", &request.name)? else {
            return Ok(());
        };
        if !custom["metadata"]["deletionTimestamp"].is_null() {
            return Ok(());
        }
        let want = usize::try_from(custom["spec"]["replicas"].as_u64().unwrap_or(0)).unwrap_or(0);
        let pods = list(client, "Pod")?;
        let running: Vec<&Value> = pods
            .iter()
            .filter(|p| controlled_by(p, &request.name))
            .filter(|p| p["metadata"]["deletionTimestamp"].is_null())
            .collect();
        let have = match self.flaw {
            Flaw::CountsInMemory => self.created.get(&request.name).copied().unwrap_or(0),
            _ => running.len(),
        };
        if matches!(self.flaw, Flaw::None | Flaw::TrustsCacheOverAlreadyExists) {
            // Deterministic names: a create the cache has not seen yet
            // gets 409 AlreadyExists, never a second pod.
            for index in 0..want {
                let name = format!("{}-{index}", request.name);
                if running
                    .iter()
                    .any(|p| p["metadata"]["name"] == name.as_str())
                {
                    continue;
                }
                match client.call(ClientCall::Create {
                    object: pod(&custom, Some(&name)),
                }) {
                    Err(error) if status(&error) == Some(409) => {
                        if self.flaw == Flaw::TrustsCacheOverAlreadyExists {
                            let object = pod(&custom, None);
                            client.call(ClientCall::Create { object })?;
                        }
                    }
                    other => {
                        other?;
                    }
                }
            }
            return Ok(());
        }
        for _ in have..want {
            client.call(ClientCall::Create {
                object: pod(&custom, None),
            })?;
            if self.flaw == Flaw::CountsInMemory {
                *self.created.entry(request.name.clone()).or_default() += 1;
            }
        }
        Ok(())
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

fn controller(flaw: Flaw) -> impl Fn() -> Controller {
    move || Controller {
        flaw,
        created: BTreeMap::new(),
    }
}

#[test]
fn the_reference_with_deterministic_names_passes_the_default_budget() {
    let report = check(&replicas(), controller(Flaw::None));
    passes(&report);
    assert_eq!(report.fault_free_requests, 3, "one create per pod");
}

/// The bug's counterexample: it passed the fault-free run, and one fault
/// made it overshoot, which the goal then never undoes.
fn overshoots(flaw: Flaw) -> Vec<Fault> {
    let report = check(&replicas(), controller(flaw));
    let (property, faults) = caught(&report);
    assert_eq!(property, EVENTUALLY_STABLE);
    assert_eq!(faults.len(), 1, "only under a fault: {faults:?}");
    let safe = report.properties.iter().find(|p| p.name == SAFE);
    let detail = safe.map(|p| p.detail.clone()).unwrap_or_default();
    assert!(detail.contains("more than its"), "{detail}");
    faults
}

#[test]
fn generate_name_without_expectations_creates_twice() {
    // A 503 delays the first create, so a reconcile runs between two
    // creates of one pass, on a cache that has seen only the first.
    assert_eq!(
        overshoots(Flaw::GenerateNameWithoutExpectations),
        vec![Fault::Unavailable]
    );
}

#[test]
fn counts_kept_in_memory_are_wrong_after_a_restart() {
    let faults = overshoots(Flaw::CountsInMemory);
    assert!(
        matches!(
            faults[0],
            Fault::CrashBefore | Fault::CrashAfterApplied | Fault::CrashAfterResponse
        ),
        "{faults:?}"
    );
}

#[test]
fn acting_on_a_cache_that_missed_your_own_create_creates_twice() {
    // A 503 delays the first create: the next reconcile's cache lists
    // only the pod it created last, and the retried name gets 409.
    assert_eq!(
        overshoots(Flaw::TrustsCacheOverAlreadyExists),
        vec![Fault::Unavailable]
    );
}
