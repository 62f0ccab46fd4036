//! What the simulated controller compares to decide that an object drifted:
//! a named controller behaviour, beyond the seed's contract.
//!
//! The contract's `reconcile` compares whole specs, so a field the API
//! server fills in ([`crate::defaulting`]) is drift for ever. Real
//! controllers compare only what they set: controller-runtime's
//! `controllerutil.CreateOrUpdate` runs the caller's mutate function on the
//! object it fetched and writes only when that changed it
//! (`pkg/controller/controllerutil/controllerutil.go`), and server-side
//! apply records a field manager per field, so an apply speaks only for the
//! fields it holds (`k8s.io/apimachinery/pkg/util/managedfields`).
//!
//! # Guarantees
//! - [`SpecComparison::WholeSpec`] hands `reconcile` the cache as it is:
//!   the seed's contract, to the letter.
//! - [`SpecComparison::FieldsItSets`] hands `reconcile` each observed spec cut
//!   down to the members its desired spec has ([`fields_it_sets`]);
//!   `reconcile` itself is unchanged and still decides by whole-spec
//!   equality, on that view.
//! - With [`SpecComparison::FieldsItSets`], an UPDATE sends the object as its
//!   pass read it with the desired members written over it
//!   ([`with_fields_set`]), as `CreateOrUpdate` runs its mutate function on
//!   the object it fetched and then calls `Update`: the members others set
//!   go back as they were read. With [`SpecComparison::WholeSpec`] it sends
//!   the desired spec, as the contract's action says.
//!
//! # Caveats
//! - Server-side apply matches the elements of a keyed list (containers by
//!   `name`) by their key, and treats an atomic list (`args`) as one value.
//!   Here the elements of two arrays of the same length are matched by
//!   position, and arrays of different lengths are compared whole.

use std::borrow::Cow;

use reconcile_core::json::Json;
use reconcile_core::model::{Finalizers, Resources};
use reconcile_core::reconcile::{count_out_of_sync, reconcile, Action};
use serde::Serialize;

/// What the controller compares to decide an UPDATE.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "kebab-case")]
pub enum SpecComparison {
    /// The whole spec, as the contract says.
    #[default]
    WholeSpec,
    /// Only the members its desired spec sets; what others add (the API
    /// server's defaults, another controller's fields) is not drift.
    FieldsItSets,
}

super::client::read_unit_names!(SpecComparison {
    WholeSpec = "whole-spec",
    FieldsItSets = "fields-it-sets",
});

/// `observed` cut down to the members `desired` has, at every depth: in
/// objects, and in the elements of arrays of the same length, matched by
/// position. Anything else (scalars, a type change, arrays of another
/// length) is kept whole.
pub fn fields_it_sets(desired: &Json, observed: &Json) -> Json {
    match (desired, observed) {
        (Json::Object(wanted), Json::Object(_)) => Json::object(
            wanted
                .iter()
                .filter_map(|(name, want)| {
                    let have = observed.get(name)?;
                    Some((name.clone(), fields_it_sets(want, have)))
                })
                .collect(),
        ),
        // Element by element, as for a keyed list whose keys are in order.
        (Json::Array(wanted), Json::Array(have)) if wanted.len() == have.len() => Json::array(
            wanted
                .iter()
                .zip(have.iter())
                .map(|(want, have)| fields_it_sets(want, have))
                .collect(),
        ),
        _ => observed.clone(),
    }
}

/// The spec an UPDATE sends when the controller speaks only for the fields
/// it sets: `read` (the object as the pass read it) with `desired`'s members
/// written over it, at every depth, and the elements of arrays of the same
/// length matched by position, as [`fields_it_sets`] matches them. Anything
/// else is `desired`. So [`fields_it_sets`] of the result is `desired`, and
/// the members only `read` has go back as they were read: with the
/// resourceVersion of that read, which is why a write since then must be a
/// 409 Conflict rather than lost.
pub fn with_fields_set(desired: &Json, read: &Json) -> Json {
    match (desired, read) {
        (Json::Object(wanted), Json::Object(have)) => {
            let mut members: Vec<(Box<str>, Json)> = have
                .iter()
                .map(|(name, value)| match desired.get(name) {
                    Some(want) => (name.clone(), with_fields_set(want, value)),
                    None => (name.clone(), value.clone()),
                })
                .collect();
            members.extend(
                wanted
                    .iter()
                    .filter(|(name, _)| read.get(name).is_none())
                    .cloned(),
            );
            Json::object(members)
        }
        (Json::Array(wanted), Json::Array(have)) if wanted.len() == have.len() => Json::array(
            wanted
                .iter()
                .zip(have.iter())
                .map(|(want, have)| with_fields_set(want, have))
                .collect(),
        ),
        _ => desired.clone(),
    }
}

/// The spec an UPDATE of `desired` sends, given the object its pass read.
pub fn update_spec(comparison: SpecComparison, desired: &Json, read: Option<&Json>) -> Json {
    match (comparison, read) {
        (SpecComparison::FieldsItSets, Some(read)) => with_fields_set(desired, read),
        _ => desired.clone(),
    }
}

/// The observed state as the controller compares it with `desired`.
pub fn compared<'a>(
    comparison: SpecComparison,
    desired: &Resources,
    observed: &'a Resources,
) -> Cow<'a, Resources> {
    match comparison {
        SpecComparison::WholeSpec => Cow::Borrowed(observed),
        SpecComparison::FieldsItSets => {
            let mut view = observed.clone();
            for (name, want) in desired.iter() {
                if let Some(have) = view.get_mut(name) {
                    *have = fields_it_sets(want, have);
                }
            }
            Cow::Owned(view)
        }
    }
}

/// What the simulated controller plans: the contract's `reconcile` on the
/// cache as `comparison` shows it.
pub fn controller_plan(
    comparison: SpecComparison,
    desired: &Resources,
    observed: &Resources,
    finalizers: &Finalizers,
) -> Vec<Action> {
    reconcile(
        desired,
        &compared(comparison, desired, observed),
        Some(finalizers),
    )
}

/// How many actions [`controller_plan`] would return, counted without building them.
pub fn controller_out_of_sync(
    comparison: SpecComparison,
    desired: &Resources,
    observed: &Resources,
    finalizers: &Finalizers,
) -> usize {
    count_out_of_sync(
        desired,
        &compared(comparison, desired, observed),
        Some(finalizers),
    )
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use reconcile_core::parse::parse_json_value;

    use super::*;

    fn json(text: &str) -> Json {
        parse_json_value(text).expect("test JSON")
    }

    #[test]
    fn members_the_desired_spec_lacks_are_left_out_at_every_depth() {
        let desired =
            json(r#"{"spec":{"replicas":3,"template":{"spec":{"containers":[{"image":"a"}]}}}}"#);
        let observed = json(
            r#"{"spec":{"replicas":3,"strategy":{"type":"RollingUpdate"},"template":{"spec":{"dnsPolicy":"ClusterFirst","containers":[{"image":"a","imagePullPolicy":"Always"}]}}}}"#,
        );
        assert_eq!(fields_it_sets(&desired, &observed), desired);
        // Arrays of another length are compared whole.
        let two = json(r#"{"c":[{"image":"a","x":1},{"image":"b"}]}"#);
        assert_eq!(fields_it_sets(&json(r#"{"c":[{"image":"a"}]}"#), &two), two);
    }

    #[test]
    fn a_member_missing_or_changed_is_still_drift() {
        let desired = json(r#"{"replicas":3,"image":"a"}"#);
        assert_ne!(
            fields_it_sets(&desired, &json(r#"{"replicas":3}"#)),
            desired
        );
        assert_ne!(
            fields_it_sets(&desired, &json(r#"{"replicas":5,"image":"a"}"#)),
            desired
        );
        assert_eq!(
            fields_it_sets(&desired, &json(r#"{"replicas":3,"image":"a","x":1}"#)),
            desired
        );
    }

    fn small_json() -> impl Strategy<Value = Json> {
        let leaf = prop_oneof![
            Just(Json::Null),
            any::<bool>().prop_map(Json::Bool),
            (0u8..4).prop_map(|n| json(&n.to_string())),
        ];
        leaf.prop_recursive(3, 16, 4, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..3).prop_map(Json::array),
                proptest::collection::vec(
                    (proptest::sample::select(vec!["a", "b", "c"]), inner),
                    0..3
                )
                .prop_map(|members| {
                    let mut seen = Vec::new();
                    Json::object(
                        members
                            .into_iter()
                            .filter(|(name, _)| {
                                let fresh = !seen.contains(name);
                                seen.push(*name);
                                fresh
                            })
                            .map(|(name, value)| (name.into(), value))
                            .collect(),
                    )
                }),
            ]
        })
    }

    /// `CreateOrUpdate`'s mutate on the fetched object: what another writer
    /// set goes back as read, what the controller sets is overwritten.
    #[test]
    fn an_update_keeps_the_members_it_does_not_set_as_read() {
        let desired = json(r#"{"image":"web:2","ports":[{"port":80}]}"#);
        let read = json(r#"{"replicas":5,"image":"web:1","ports":[{"port":8080,"name":"http"}]}"#);
        assert_eq!(
            with_fields_set(&desired, &read),
            json(r#"{"replicas":5,"image":"web:2","ports":[{"port":80,"name":"http"}]}"#)
        );
        assert_eq!(
            update_spec(SpecComparison::FieldsItSets, &desired, Some(&read)),
            with_fields_set(&desired, &read)
        );
        // The contract's UPDATE sends the desired spec as it is.
        assert_eq!(
            update_spec(SpecComparison::WholeSpec, &desired, Some(&read)),
            desired
        );
        // Arrays of another length, and other types, are the desired value.
        let read = json(r#"{"ports":[],"image":{"name":"web"}}"#);
        assert_eq!(with_fields_set(&desired, &read), desired);
    }

    proptest! {
        /// What an UPDATE writes compares in sync with the desired spec, and
        /// keeps every member of the read object the desired spec lacks.
        #[test]
        fn an_update_compares_in_sync_and_keeps_what_others_set(desired in small_json(), read in small_json()) {
            let written = with_fields_set(&desired, &read);
            prop_assert_eq!(fields_it_sets(&desired, &written), desired.clone());
            if let (Json::Object(_), Json::Object(members)) = (&desired, &read) {
                for (name, value) in members.iter().filter(|(n, _)| desired.get(n).is_none()) {
                    prop_assert_eq!(written.get(name), Some(value));
                }
            }
        }

        /// An object compares equal to what it would be after its own
        /// fields are written over anything: the view never invents drift
        /// of what the controller set, and a spec always matches itself.
        #[test]
        fn a_spec_matches_itself_and_its_supersets(desired in small_json(), extra in small_json()) {
            prop_assert_eq!(fields_it_sets(&desired, &desired), desired.clone());
            let mut superset = extra;
            if let (Json::Object(_), Json::Object(wanted)) = (&superset, &desired) {
                for (name, value) in wanted.iter() {
                    superset.set_path(&[name.to_string()], value.clone());
                }
                prop_assert_eq!(fields_it_sets(&desired, &superset), desired);
            }
        }
    }
}
