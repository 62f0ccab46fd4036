//! `external-finalizer` (issue 30): a cloud load balancer behind the
//! controller's own finalizer. A Rust reference passes the default
//! budget; each known bug is caught with a shrunk schedule.

mod exercises;

use serde_json::{json, Value};

use exercises::{caught, check, find, passes, status};
use reconcile_sim::learner::exercise::FINALIZER;
use reconcile_sim::learner::properties::{EVENTUALLY_STABLE, SAFE};
use reconcile_sim::learner::{
    external_finalizer, CallError, Client, ClientCall, Fault, Finish, PatchKind, Reconciler,
    Request,
};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Flaw {
    None,
    /// Removes the finalizer, then deletes the load balancer.
    RemovesFinalizerFirst,
    /// Never adds the finalizer: a deleted resource is gone at once.
    NeverAddsFinalizer,
    /// Deletes the load balancer without looking, and fails on 404: after
    /// a crash that came after the delete, it fails forever.
    CleanupFailsWhenAbsent,
}

struct Controller(Flaw);

fn finalizers(custom: &Value) -> Vec<String> {
    let list = custom["metadata"]["finalizers"].as_array();
    let names = list.into_iter().flatten().filter_map(Value::as_str);
    names.map(str::to_owned).collect()
}

/// A merge patch of the custom resource's finalizers, locked to the
/// resourceVersion read.
fn set_finalizers(
    client: &mut Client<'_>,
    custom: &Value,
    list: &[String],
) -> Result<Value, CallError> {
    client.call(ClientCall::Patch {
        kind: "Desired".to_owned(),
        name: custom["metadata"]["name"]
            .as_str()
            .unwrap_or_default()
            .to_owned(),
        namespace: None,
        patch: json!({ "metadata": { "finalizers": list } }),
        patch_type: PatchKind::Merge,
        resource_version: custom["metadata"]["resourceVersion"]
            .as_str()
            .map(str::to_owned),
    })
}

impl Controller {
    fn run(&mut self, request: &Request, client: &mut Client<'_>) -> Result<(), CallError> {
        let Some(custom) = find(client, "Desired", &request.name)? else {
            return Ok(());
        };
        let lb = format!("lb-{}", request.name);
        let mut list = finalizers(&custom);
        let ours = list.iter().any(|f| f == FINALIZER);
        if !custom["metadata"]["deletionTimestamp"].is_null() {
            if !ours {
                return Ok(());
            }
            list.retain(|f| f != FINALIZER);
            if self.0 == Flaw::RemovesFinalizerFirst {
                set_finalizers(client, &custom, &list)?;
            }
            self.clean_up(client, &lb)?;
            if self.0 != Flaw::RemovesFinalizerFirst {
                set_finalizers(client, &custom, &list)?;
            }
            return Ok(());
        }
        if !ours && self.0 != Flaw::NeverAddsFinalizer {
            list.push(FINALIZER.to_owned());
            set_finalizers(client, &custom, &list)?;
        }
        // Look first: a converged reconcile writes nothing.
        let found = client.call(ClientCall::GetLoadBalancer { name: lb.clone() })?;
        if found.is_null() {
            client.call(ClientCall::EnsureLoadBalancer { name: lb })?;
        }
        Ok(())
    }

    fn clean_up(&self, client: &mut Client<'_>, lb: &str) -> Result<(), CallError> {
        let name = lb.to_owned();
        if self.0 == Flaw::CleanupFailsWhenAbsent {
            client.call(ClientCall::DeleteLoadBalancer { name })?;
            return Ok(());
        }
        let found = client.call(ClientCall::GetLoadBalancer { name: name.clone() })?;
        if found.is_null() {
            return Ok(());
        }
        match client.call(ClientCall::DeleteLoadBalancer { name }) {
            // Gone already: what cleanup wants.
            Err(error) if status(&error) == Some(404) => Ok(()),
            other => other.map(|_| ()),
        }
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

#[test]
fn the_reference_passes_the_default_budget() {
    let report = check(&external_finalizer(), || Controller(Flaw::None));
    passes(&report);
}

#[test]
fn removing_the_finalizer_before_cleanup_leaks_the_load_balancer() {
    let report = check(&external_finalizer(), || {
        Controller(Flaw::RemovesFinalizerFirst)
    });
    let (property, faults) = caught(&report);
    assert_eq!((property, faults), (SAFE, vec![]));
    let detail = &report.counterexample.as_ref().expect("caught").detail;
    assert!(detail.contains("lb-blog leaked"), "{detail}");
}

#[test]
fn never_adding_the_finalizer_leaks_the_load_balancer() {
    let report = check(&external_finalizer(), || {
        Controller(Flaw::NeverAddsFinalizer)
    });
    let (property, faults) = caught(&report);
    // The goal wants the finalizer; and the deleted `blog` leaks lb-blog.
    assert_eq!((property, faults), (EVENTUALLY_STABLE, vec![]));
    let safe = report.properties.iter().find(|p| p.name == SAFE);
    assert!(safe.is_some_and(|p| !p.held && p.detail.contains("lb-blog leaked")));
}

#[test]
fn cleanup_that_fails_on_an_absent_load_balancer_is_caught_after_a_crash() {
    let report = check(&external_finalizer(), || {
        Controller(Flaw::CleanupFailsWhenAbsent)
    });
    let (property, faults) = caught(&report);
    assert_eq!(property, EVENTUALLY_STABLE);
    assert_eq!(faults.len(), 1, "{faults:?}");
    // A crash between the load balancer's delete and the finalizer's
    // removal: the restarted controller deletes again, and gets 404.
    assert_eq!(faults, vec![Fault::CrashBefore]);
    let story = report
        .counterexample
        .as_ref()
        .expect("caught")
        .story
        .join(" ");
    assert!(story.contains("crash"), "{story}");
}
