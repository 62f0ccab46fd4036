//! structured-merge-diff's merge tests, ported: each names its source in
//! sigs.k8s.io/structured-merge-diff `merge/`. Their YAML is JSON here.
//! Upstream's managers are plain names; here an applier and an updater
//! are told apart, as the apiserver's identifiers tell them.
//!
//! Left out, with why: versions and conversions (`*_different_version`,
//! `*_across_version`, `obsolete_versions_test.go`, `schema_change_test.go`:
//! one version per kind here), sets (`set_test.go`: no list here is
//! `x-kubernetes-list-type: set`), atomic maps, unions, ignored fields,
//! duplicates (`duplicates_test.go`: a keyed list with duplicates is read as
//! atomic here), and `extract_apply_test.go` (no extract).

use std::sync::Arc;

use super::*;
use crate::managed_fields::{FieldPath, PathElement};
use reconcile_core::model::{Finalizers, Resources};

fn parse(text: &str) -> Json {
    serde_json::from_str(text).expect("JSON")
}

fn path(names: &[&str]) -> FieldPath {
    FieldPath::of(names)
}

/// One object and its managers, driven as SMD's `TestCase` drives its ops.
struct State {
    schema: Schema,
    live: Json,
    managers: ManagedFields,
}

impl State {
    fn new(schema: Schema) -> Self {
        Self {
            schema,
            live: parse("{}"),
            managers: ManagedFields::default(),
        }
    }

    fn apply(&mut self, manager: &str, config: &str, force: bool) -> Result<(), Vec<Conflict>> {
        let manager = Manager::apply(manager);
        let (live, managers) = apply(
            self.schema,
            &self.live,
            &parse(config),
            &self.managers,
            &manager,
            force,
        )?;
        self.live = live;
        self.managers = managers;
        Ok(())
    }

    fn update(&mut self, manager: &str, object: &str) {
        let manager = Manager::update(manager, "v1");
        let new = parse(object);
        self.managers = update(self.schema, &self.live, &new, &self.managers, &manager);
        self.live = new;
    }

    fn fields(&self, manager: &Manager) -> Vec<String> {
        self.managers
            .fields_of(manager)
            .map(|set| set.iter().map(ToString::to_string).collect())
            .unwrap_or_default()
    }

    fn applier(&self, name: &str) -> Vec<String> {
        self.fields(&Manager::apply(name))
    }

    fn updater(&self, name: &str) -> Vec<String> {
        self.fields(&Manager::update(name, "v1"))
    }
}

fn names(list: &[&str]) -> Vec<String> {
    let mut names: Vec<String> = list.iter().map(|s| (*s).to_owned()).collect();
    names.sort();
    names
}

// merge/leaf_test.go, TestUpdateLeaf "apply_twice".
#[test]
fn test_update_leaf_apply_twice() {
    let mut state = State::new(Schema::BuiltIn);
    state
        .apply("default", r#"{"numeric":1,"string":"string"}"#, false)
        .unwrap();
    let second = r#"{"numeric":2,"string":"string","bool":false}"#;
    state.apply("default", second, false).unwrap();
    assert_eq!(state.live, parse(second));
    assert_eq!(
        state.applier("default"),
        names(&[".bool", ".numeric", ".string"])
    );
}

// merge/leaf_test.go, TestUpdateLeaf "apply_update_apply_no_conflict".
#[test]
fn test_update_leaf_apply_update_apply_no_conflict() {
    let mut state = State::new(Schema::BuiltIn);
    state
        .apply("default", r#"{"numeric":1,"string":"string"}"#, false)
        .unwrap();
    state.update(
        "controller",
        r#"{"numeric":1,"string":"string","bool":true}"#,
    );
    state
        .apply("default", r#"{"numeric":2,"string":"string"}"#, false)
        .unwrap();
    assert_eq!(
        state.live,
        parse(r#"{"numeric":2,"string":"string","bool":true}"#)
    );
    assert_eq!(state.applier("default"), names(&[".numeric", ".string"]));
    assert_eq!(state.updater("controller"), names(&[".bool"]));
}

// merge/leaf_test.go, TestUpdateLeaf "apply_update_apply_with_conflict".
#[test]
fn test_update_leaf_apply_update_apply_with_conflict() {
    let mut state = State::new(Schema::BuiltIn);
    state
        .apply("default", r#"{"numeric":1,"string":"string"}"#, false)
        .unwrap();
    let by_controller = r#"{"numeric":1,"string":"controller string","bool":true}"#;
    state.update("controller", by_controller);
    let user = r#"{"numeric":2,"string":"user string"}"#;
    let conflicts = state.apply("default", user, false).unwrap_err();
    assert_eq!(
        conflicts,
        vec![Conflict {
            manager: Manager::update("controller", "v1"),
            path: path(&["string"]),
        }]
    );
    state.apply("default", user, true).unwrap();
    assert_eq!(
        state.live,
        parse(r#"{"numeric":2,"string":"user string","bool":true}"#)
    );
    assert_eq!(state.applier("default"), names(&[".numeric", ".string"]));
    assert_eq!(state.updater("controller"), names(&[".bool"]));
}

// merge/leaf_test.go, TestUpdateLeaf "apply_twice_remove": the semantic
// test that apply is not a merge patch. A merge patch of the second config
// keeps `numeric` and `bool`; the apply removes them.
#[test]
fn test_update_leaf_apply_twice_remove() {
    let mut state = State::new(Schema::BuiltIn);
    let first = r#"{"numeric":1,"string":"string","bool":false}"#;
    state.apply("default", first, false).unwrap();
    let second = r#"{"string":"new string"}"#;
    state.apply("default", second, false).unwrap();
    assert_eq!(state.live, parse(second));
    assert_eq!(state.applier("default"), names(&[".string"]));
    let mut merged = crate::object::to_value(&parse(first));
    json_patch::merge(&mut merged, &crate::object::to_value(&parse(second)));
    assert_eq!(
        crate::object::from_value(merged),
        parse(r#"{"numeric":1,"string":"new string","bool":false}"#),
        "a merge patch keeps what it leaves out"
    );
}

// merge/leaf_test.go, TestUpdateLeaf "update_apply_omits".
#[test]
fn test_update_leaf_update_apply_omits() {
    let mut state = State::new(Schema::BuiltIn);
    state.apply("default", r#"{"numeric":2}"#, false).unwrap();
    state.update("controller", r#"{"numeric":1}"#);
    state.apply("default", "{}", false).unwrap();
    assert_eq!(state.live, parse(r#"{"numeric":1}"#));
    assert!(state.applier("default").is_empty());
    assert_eq!(state.updater("controller"), names(&[".numeric"]));
}

// merge/leaf_test.go, TestUpdateLeaf "update_remove_empty_set".
#[test]
fn test_update_leaf_update_remove_empty_set() {
    let mut state = State::new(Schema::BuiltIn);
    state
        .apply("default", r#"{"string":"string"}"#, false)
        .unwrap();
    state.update("controller", r#"{"string":"new string"}"#);
    assert!(state
        .managers
        .fields_of(&Manager::apply("default"))
        .is_none());
    assert_eq!(state.updater("controller"), names(&[".string"]));
}

// merge/leaf_test.go, TestUpdateLeaf "apply_remove_empty_set".
#[test]
fn test_update_leaf_apply_remove_empty_set() {
    let mut state = State::new(Schema::BuiltIn);
    state
        .apply("default", r#"{"string":"string"}"#, false)
        .unwrap();
    state.apply("default", "{}", false).unwrap();
    assert_eq!(state.live, parse("{}"));
    assert!(state.managers.is_empty());
}

// merge/multiple_appliers_test.go, TestMultipleAppliersDeducedType
// "multiple_appliers_recursive_map_deduced", under `spec` as a free-form
// spec is here; upstream's nulls (`a:`) are JSON nulls.
#[test]
fn test_multiple_appliers_deduced_type() {
    let mut state = State::new(Schema::Deduced);
    let spec = |text: &str| format!(r#"{{"spec":{text}}}"#);
    state
        .apply(
            "apply-one",
            &spec(r#"{"a":{"b":null},"c":{"d":null}}"#),
            false,
        )
        .unwrap();
    state
        .apply("apply-two", &spec(r#"{"a":null,"c":{"d":null}}"#), false)
        .unwrap();
    state.update(
        "controller-one",
        &spec(r#"{"a":{"b":{"c":null}},"c":{"d":{"e":null}}}"#),
    );
    state.update(
        "controller-two",
        &spec(r#"{"a":{"b":{"c":{"d":null}}},"c":{"d":{"e":{"f":null}}}}"#),
    );
    state.update(
        "controller-one",
        &spec(r#"{"a":{"b":{"c":{"d":{"e":null}}}},"c":{"d":{"e":{"f":{"g":null}}}}}"#),
    );
    state.apply("apply-one", "{}", false).unwrap();
    assert_eq!(
        state.live,
        parse(&spec(r#"{"a":{},"c":{"d":{"e":{"f":{"g":null}}}}}"#))
    );
    assert_eq!(
        state.applier("apply-two"),
        names(&[".spec.a", ".spec.c", ".spec.c.d"])
    );
    assert_eq!(
        state.updater("controller-one"),
        names(&[".spec.c.d.e", ".spec.c.d.e.f.g"])
    );
    assert_eq!(state.updater("controller-two"), names(&[".spec.c.d.e.f"]));
}

// merge/multiple_appliers_test.go, TestMultipleAppliersFieldUnsetting
// "unset_scalar_sole_owner" and "unset_scalar_shared_with_applier" (one
// version, so one field name).
#[test]
fn test_multiple_appliers_field_unsetting() {
    let mut sole = State::new(Schema::BuiltIn);
    let both = r#"{"struct":{"name":"a","scalarField":"a"}}"#;
    sole.apply("apply-one", both, false).unwrap();
    sole.apply("apply-one", r#"{"struct":{"name":"a"}}"#, false)
        .unwrap();
    assert_eq!(sole.live, parse(r#"{"struct":{"name":"a"}}"#));
    assert_eq!(sole.applier("apply-one"), names(&[".struct.name"]));

    let mut shared = State::new(Schema::BuiltIn);
    shared.apply("apply-one", both, false).unwrap();
    let scalar = r#"{"struct":{"scalarField":"a"}}"#;
    shared.apply("apply-two", scalar, false).unwrap();
    shared
        .apply("apply-one", r#"{"struct":{"name":"a"}}"#, false)
        .unwrap();
    assert_eq!(shared.live, parse(both));
    assert_eq!(shared.applier("apply-one"), names(&[".struct.name"]));
    assert_eq!(shared.applier("apply-two"), names(&[".struct.scalarField"]));
}

fn containers(items: &str) -> String {
    format!(r#"{{"spec":{{"template":{{"spec":{{"containers":{items}}}}}}}}}"#)
}

// merge/key_test.go, TestUpdateAssociativeLists
// "removing_obsolete_applied_structs", with containers keyed by `name`.
#[test]
fn test_update_associative_lists() {
    let mut state = State::new(Schema::BuiltIn);
    let first = containers(r#"[{"name":"a","image":"a:1"}]"#);
    state.apply("default", &first, false).unwrap();
    let second = containers(r#"[{"name":"b","image":"b:2"}]"#);
    state.apply("default", &second, false).unwrap();
    assert_eq!(state.live, parse(&second));
    let item = r#".spec.template.spec.containers[name="b"]"#;
    assert_eq!(
        state.applier("default"),
        names(&[item, &format!("{item}.image"), &format!("{item}.name")])
    );
}

/// Containers merge by name: a field of one container conflicts alone.
#[test]
fn containers_merge_by_name_and_conflict_by_field() {
    let mut state = State::new(Schema::BuiltIn);
    let applied = containers(r#"[{"name":"a","image":"a:1"},{"name":"b","image":"b:1"}]"#);
    state.apply("default", &applied, false).unwrap();
    let updated = containers(
        r#"[{"name":"a","image":"a:1"},{"name":"b","image":"b:2"},{"name":"c","image":"c:1"}]"#,
    );
    state.update("controller", &updated);
    let image = |name: &str| {
        let key = PathElement::Key(Box::new([("name".into(), format!("{name:?}").into())]));
        path(&["spec", "template", "spec", "containers"])
            .child(key)
            .child(PathElement::Field("image".into()))
    };
    let c = r#".spec.template.spec.containers[name="c"]"#;
    assert_eq!(
        state.updater("controller"),
        names(&[
            &image("b").to_string(),
            c,
            &format!("{c}.image"),
            &format!("{c}.name"),
        ])
    );
    let again = containers(r#"[{"name":"a","image":"a:2"},{"name":"b","image":"b:3"}]"#);
    let conflicts = state.apply("default", &again, false).unwrap_err();
    assert_eq!(
        conflicts,
        vec![Conflict {
            manager: Manager::update("controller", "v1"),
            path: image("b"),
        }]
    );
    state.apply("default", &again, true).unwrap();
    assert_eq!(
        state.live,
        parse(&containers(
            r#"[{"name":"a","image":"a:2"},{"name":"b","image":"b:3"},{"name":"c","image":"c:1"}]"#
        ))
    );
}

fn ports(items: &str) -> String {
    containers(&format!(r#"[{{"name":"web","ports":{items}}}]"#))
}

// merge/default_keys_test.go, TestDefaultKeysFlat
// "apply_missing_defaulted_key_A" and "apply_missing_defaulted_key_B", on a
// container's ports: a port without its protocol is keyed by the default.
#[test]
fn test_default_keys_flat() {
    let port = |key: &str| format!(r#".spec.template.spec.containers[name="web"].ports[{key}]"#);
    let item = r#".spec.template.spec.containers[name="web"]"#;
    let mut a = State::new(Schema::BuiltIn);
    a.apply("default", &ports(r#"[{"containerPort":80}]"#), false)
        .unwrap();
    let tcp = port(r#"containerPort=80,protocol="TCP""#);
    assert_eq!(
        a.applier("default"),
        names(&[
            item,
            &format!("{item}.name"),
            &tcp,
            &format!("{tcp}.containerPort")
        ])
    );
    let mut b = State::new(Schema::BuiltIn);
    let two = ports(r#"[{"containerPort":80},{"containerPort":80,"protocol":"UDP"}]"#);
    b.apply("default", &two, false).unwrap();
    assert_eq!(b.live, parse(&two));
    let udp = port(r#"containerPort=80,protocol="UDP""#);
    assert_eq!(
        b.applier("default"),
        names(&[
            item,
            &format!("{item}.name"),
            &tcp,
            &format!("{tcp}.containerPort"),
            &udp,
            &format!("{udp}.containerPort"),
            &format!("{udp}.protocol"),
        ])
    );
}

// merge/conflict_test.go, TestConflictsFromManagers, and the apiserver's
// `internal/conflict_test.go`, TestNewConflictError: one conflict on one
// line; several grouped by sorted manager.
#[test]
fn test_conflicts_from_managers() {
    let one = vec![Conflict {
        manager: Manager::apply("Bob"),
        path: path(&["key"]),
    }];
    assert_eq!(
        conflict_message(&one),
        r#"Apply failed with 1 conflict: conflict with "Bob": .key"#
    );
    // Sorted, as `update_managers` returns them.
    let several = vec![
        Conflict {
            manager: Manager::apply("Alice"),
            path: path(&["value"]),
        },
        Conflict {
            manager: Manager::update("Bob", "v1"),
            path: path(&["key"]),
        },
        Conflict {
            manager: Manager::update("Bob", "v1"),
            path: path(&["value"]),
        },
    ];
    assert_eq!(
        conflict_message(&several),
        "Apply failed with 3 conflicts: conflicts with \"Alice\":\n- .value\n\
         conflicts with \"Bob\" using v1:\n- .key\n- .value"
    );
}

fn world_with(name: &str, spec: &str) -> World {
    let mut world = World::new(Resources::new(), None::<Finalizers>);
    world
        .create(&Arc::from(name), parse(spec), Vec::new())
        .expect("created");
    world
}

fn apply_request(config: &str, manager: &str, force: bool) -> Apply {
    Apply {
        config: parse(config),
        field_manager: manager.into(),
        force,
    }
}

#[test]
fn an_apply_that_takes_anothers_field_is_a_409_naming_it() {
    let name: Arc<str> = Arc::from("web");
    let mut world = world_with("web", r#"{"replicas":3,"image":"web:1"}"#);
    let none = OwnerRefs::default();
    let gitops = apply_request(r#"{"replicas":3,"image":"web:1"}"#, "gitops", false);
    assert_eq!(
        world.apply(&name, &gitops, &none),
        Ok(ApplyOutcome::Updated)
    );
    let autoscaler = apply_request(r#"{"replicas":5}"#, "autoscaler", false);
    let error = world.apply(&name, &autoscaler, &none).unwrap_err();
    assert_eq!(error.code(), 409);
    assert_eq!(
        error.to_string(),
        r#"Apply failed with 1 conflict: conflict with "gitops": .spec.replicas"#
    );
    let forced = apply_request(r#"{"replicas":5}"#, "autoscaler", true);
    assert_eq!(
        world.apply(&name, &forced, &none),
        Ok(ApplyOutcome::Updated)
    );
    assert_eq!(
        world.observed.get("web"),
        Some(&parse(r#"{"replicas":5,"image":"web:1"}"#))
    );
    // gitops gives replicas up: its apply no longer touches it.
    let image_only = apply_request(r#"{"image":"web:1"}"#, "gitops", false);
    assert_eq!(
        world.apply(&name, &image_only, &none),
        Ok(ApplyOutcome::Unchanged)
    );
    assert_eq!(
        world.observed.get("web"),
        Some(&parse(r#"{"replicas":5,"image":"web:1"}"#))
    );
}

#[test]
fn an_apply_creates_a_missing_object_and_owns_what_it_set() {
    let name: Arc<str> = Arc::from("web");
    let mut world = World::new(Resources::new(), None::<Finalizers>);
    let request = apply_request(r#"{"image":"web:1"}"#, "gitops", false);
    let created = world.apply(&name, &request, &OwnerRefs::default());
    assert_eq!(created, Ok(ApplyOutcome::Created));
    let meta = world.meta("web").expect("web");
    let owned: Vec<String> = meta
        .managed_fields
        .fields_of(&Manager::apply("gitops"))
        .expect("gitops")
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(owned, vec![".spec.image"]);
}

#[test]
fn an_update_by_a_named_manager_is_recorded_and_conflicts_with_an_apply() {
    let name: Arc<str> = Arc::from("web");
    let mut world = world_with("web", r#"{"replicas":3}"#);
    world.record_update("web", None, "kubectl-edit");
    let request = apply_request(r#"{"replicas":4}"#, "gitops", false);
    let error = world
        .apply(&name, &request, &OwnerRefs::default())
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        format!(
            "Apply failed with 1 conflict: conflict with \"kubectl-edit\" using {}: .spec.replicas",
            API_VERSION
        )
    );
}

#[test]
fn a_deployment_applied_keeps_the_servers_defaults_unowned() {
    let name: Arc<str> = Arc::from("Deployment/default/web");
    let manifest = r#"{"apiVersion":"apps/v1","kind":"Deployment",
        "metadata":{"name":"web","namespace":"default"},
        "spec":{"replicas":3,"selector":{"matchLabels":{"app":"web"}},
        "template":{"metadata":{"labels":{"app":"web"}},
        "spec":{"containers":[{"name":"web","image":"web:1","ports":[{"containerPort":80}]}]}}}}"#;
    let mut world = World::new(Resources::new(), None::<Finalizers>);
    let request = apply_request(manifest, "gitops", false);
    let none = OwnerRefs::default();
    assert_eq!(
        world.apply(&name, &request, &none),
        Ok(ApplyOutcome::Created)
    );
    let stored = world.observed.get(&name).cloned().expect("stored");
    let strategy = stored.get_path(&["spec".into(), "strategy".into(), "type".into()]);
    assert_eq!(strategy, Some(&Json::string("RollingUpdate")));
    // The same apply again changes nothing: the defaults are nobody's.
    assert_eq!(
        world.apply(&name, &request, &none),
        Ok(ApplyOutcome::Unchanged)
    );
}

/// The semantic test: `apply` is not a merge patch. The same manager
/// applying a config without `replicas` removes it; the same body as a
/// merge patch keeps it.
#[test]
fn apply_is_not_a_merge_patch() {
    let name: Arc<str> = Arc::from("web");
    let none = OwnerRefs::default();
    let mut applied = World::new(Resources::new(), None::<Finalizers>);
    let first = apply_request(r#"{"replicas":3,"image":"web:1"}"#, "gitops", false);
    applied.apply(&name, &first, &none).expect("created");
    let mut patched = applied.clone();
    let second = apply_request(r#"{"image":"web:2"}"#, "gitops", false);
    applied.apply(&name, &second, &none).expect("applied");
    assert_eq!(
        applied.observed.get("web"),
        Some(&parse(r#"{"image":"web:2"}"#))
    );

    let patch = crate::patch::Patch::merge(parse(r#"{"spec":{"image":"web:2"}}"#));
    patched.patch("web", &patch).expect("patched");
    assert_eq!(
        patched.observed.get("web"),
        Some(&parse(r#"{"replicas":3,"image":"web:2"}"#))
    );
}
