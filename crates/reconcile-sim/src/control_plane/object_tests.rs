use super::*;
use crate::apiserver::{DeleteOptions, DeleteStrategy, UpdateOutcome};
use crate::ownership::CUSTOM_RESOURCE;
use crate::patch::Patch;
use crate::status::{patch_status, stored_status};
use reconcile_core::model::Resources;

fn parse(text: &str) -> Json {
    serde_json::from_str(text).expect("JSON")
}

fn resources(entries: &[(&str, &str)]) -> Resources {
    entries
        .iter()
        .map(|(name, spec)| ((*name).to_owned(), parse(spec)))
        .collect()
}

#[test]
fn a_generic_object_renders_as_the_playgrounds_kind_with_the_servers_metadata() {
    let mut world = World::with_custom_resource(resources(&[("web", r#"{"replicas":1}"#)]), None);
    world
        .add_finalizer("web", "example.com/cleanup")
        .expect("added");
    world
        .delete(
            "web",
            &DeleteOptions::default(),
            &DeleteStrategy::default(),
            2024,
        )
        .expect("terminating");
    let state = world.object("web").expect("web");
    let meta = &state.meta;
    let expected = json!({
        "apiVersion": "reconcile.example.com/v1",
        "kind": "Resource",
        "metadata": {
            "name": "web",
            "namespace": "default",
            "uid": meta.uid.to_string(),
            "resourceVersion": meta.resource_version.to_string(),
            "generation": meta.generation,
            "finalizers": ["example.com/cleanup"],
            "ownerReferences": [{
                "apiVersion": "reconcile.example.com/v1",
                "kind": "Desired",
                "name": "custom-resource",
                "uid": "1",
                "controller": true,
                "blockOwnerDeletion": true,
            }],
            "deletionTimestamp": "1970-01-01T00:00:02Z",
            "deletionGracePeriodSeconds": 0,
        },
        "spec": { "replicas": 1 },
    });
    assert_eq!(render(&world, "web", &state), expected);
}

#[test]
fn a_manifest_is_its_own_object_with_the_servers_metadata_laid_over() {
    let pod = r#"{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web-0","labels":{"app":"web"}},"spec":{}}"#;
    let world = World::new(resources(&[("Pod/default/web-0", pod)]), None);
    let state = world.object("Pod/default/web-0").expect("pod");
    let object = render(&world, "Pod/default/web-0", &state);
    assert_eq!(object["kind"], "Pod");
    assert_eq!(object["metadata"]["name"], "web-0");
    assert_eq!(object["metadata"]["labels"], json!({"app": "web"}));
    assert_eq!(object["metadata"]["resourceVersion"], "1");
    // Read back unchanged, it is the stored manifest.
    let read = read("Pod/default/web-0", &object, object.clone(), state.meta.uid).expect("read");
    assert_eq!(read.spec, parse(pod));
    assert_eq!(read.resource_version, Some(1));
}

#[test]
fn a_status_patch_keeps_only_the_status() {
    let mut world = World::with_custom_resource(Resources::new(), None);
    let desired = parse(r#"{"web":{"replicas":2}}"#);
    let patch = Patch::merge(parse(
        r#"{"spec":{"web":null},"metadata":{"labels":{"a":"b"}},"status":{"ready":2}}"#,
    ));
    assert_eq!(
        patch_status(&mut world, CUSTOM_RESOURCE, &desired, &patch),
        Ok(UpdateOutcome::Updated)
    );
    assert_eq!(
        stored_status(&world, CUSTOM_RESOURCE),
        Some(parse(r#"{"ready":2}"#))
    );
    // The spec it renders is the desired document, which a JSON patch can test.
    let test = Patch::json(parse(
        r#"[{"op":"test","path":"/spec/web/replicas","value":2},
        {"op":"replace","path":"/status/ready","value":3}]"#,
    ));
    assert_eq!(
        patch_status(&mut world, CUSTOM_RESOURCE, &desired, &test),
        Ok(UpdateOutcome::Updated)
    );
    assert_eq!(
        stored_status(&world, CUSTOM_RESOURCE),
        Some(parse(r#"{"ready":3}"#))
    );
    // With a stale lock: 409.
    let stale = Patch::merge(parse(r#"{"status":{"ready":4}}"#)).with_resource_version(1);
    assert!(patch_status(&mut world, CUSTOM_RESOURCE, &desired, &stale).is_err());
}
