//! How the simulated controller names what it creates: a named controller
//! behaviour ([`ObjectNaming`]), beyond the seed's contract.
//!
//! The contract's `reconcile` plans by name: `CREATE web-1` means "an
//! object named web-1". A controller that creates exactly that name
//! (`deterministic`, the default) gets 409 AlreadyExists when its cache is
//! stale and it sends the CREATE a second time: harmless, the object is
//! there. A ReplicaSet does not name its pods: it sends
//! `metadata.generateName` (`getPodsPrefix` in
//! `pkg/controller/controller_utils.go`: the owner's name and a dash), and
//! the API server picks the name (`registry/generic/registry/store.go`
//! `Store.create`: "if len(objectMeta.GetGenerateName()) > 0 &&
//! len(objectMeta.GetName()) == 0 { objectMeta.SetName(...GenerateName(...)) }",
//! drawing again after a collision, up to 8 times, in
//! `createWithGenerateNameRetry`; the generator is
//! `staging/src/k8s.io/apiserver/pkg/storage/names/generate.go`
//! `SimpleNameGenerator`: the base, cut to 58 characters, and 5 characters of
//! apimachinery's `utilrand.String`). A second CREATE then never conflicts:
//! it makes a second object.
//!
//! # The mapping rule (what `reconcile` sees)
//! With `generate-name` and `generate-name-with-expectations` the controller
//! finds its objects by name prefix, as a ReplicaSet finds its pods by
//! selector (`pkg/controller/replicaset/replica_set.go`), and shows
//! `reconcile` a view of its cache ([`named_view`]):
//! - an object is an **instance** of desired name `N` when its name is `N`
//!   itself, or `N-` followed by exactly 5 characters of [`ALPHABET`] (a
//!   name `generateName: "N-"` gives); an exact match wins, so every object
//!   is an instance of at most one desired name;
//! - an object named `N` itself is shown as `N`; without one, the oldest
//!   instance of `N` (lowest uid, i.e. created first) is shown to
//!   `reconcile` **as `N`**, with its spec and finalizers;
//! - every other object, surplus instances included, is shown under its own
//!   name: not desired, so `reconcile` plans its FINALIZE or DELETE. Keeping
//!   the oldest matches the ReplicaSet's choice of pods to delete, which
//!   ranks newer pods first (`controller_utils.go` `ActivePods.Less`: "newer
//!   pods < older pods").
//!
//! The plan's names are then sent to the objects they stand for: `UPDATE N`
//! to the instance shown as `N`, `CREATE N` as a POST with `generateName:
//! "N-"`, FINALIZE and DELETE to the object of that name.
//!
//! # Guarantees
//! - `deterministic` shows `reconcile` the cache as it is: the contract, to
//!   the letter, and every run is what it was before this option existed.
//! - `reconcile` is unchanged: the view is its input, nothing else.
//! - Generated names are drawn from their own seeded stream
//!   ([`crate::rng::Stream::GeneratedNames`]), so a seed replays them.
//!
//! # Caveats
//! - A ReplicaSet counts pods; the contract compares specs by name. The
//!   view is how a name-based `reconcile` can speak of generated objects;
//!   real controllers usually compare a count and a template hash.
//! - A desired name of 57 characters or more is cut by the generator, so its
//!   objects are not found again (each pass creates another). Real
//!   controllers find theirs by labels and ownerReferences, not by name.
//! - Two generated names can collide (27⁵ ≈ 14 million names per prefix).
//!   Upstream's `Store.Create` then asks the client to try again
//!   (`rest.CheckGeneratedNameError`); here the store answers 409
//!   AlreadyExists, which fails the pass and requeues it the same way.

use std::borrow::Cow;
use std::sync::Arc;

use reconcile_core::model::{Finalizers, Resources};
use serde::Serialize;

use super::client::{Cache as World, ALPHABET, RANDOM_LENGTH};

/// How the controller names the objects it creates.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "kebab-case")]
pub enum ObjectNaming {
    /// The desired name itself (the contract).
    #[default]
    Deterministic,
    /// `metadata.generateName: "N-"`: the API server picks `N-xxxxx`.
    GenerateName,
    /// As `GenerateName`, and after a pass that creates, the controller
    /// waits until its cache has seen those creations (a ReplicaSet's
    /// expectations, [`crate::expectations`]).
    GenerateNameWithExpectations,
}

super::client::read_unit_names!(ObjectNaming {
    Deterministic = "deterministic",
    GenerateName = "generate-name",
    GenerateNameWithExpectations = "generate-name-with-expectations",
});

impl ObjectNaming {
    /// Whether the API server names what the controller creates.
    pub fn generates_names(self) -> bool {
        self != ObjectNaming::Deterministic
    }

    pub fn keeps_expectations(self) -> bool {
        self == ObjectNaming::GenerateNameWithExpectations
    }
}

/// The `generateName` a CREATE of desired name `name` carries
/// (`getPodsPrefix`: the name and a dash).
pub fn generate_name_prefix(name: &str) -> String {
    format!("{name}-")
}

/// The desired name whose `generateName` could have given `object`: the
/// name without its `-xxxxx` suffix.
pub fn generated_from(object: &str) -> Option<&str> {
    let (base, suffix) = object.split_at_checked(object.len().checked_sub(RANDOM_LENGTH + 1)?)?;
    let random = suffix.strip_prefix('-')?;
    (random.len() == RANDOM_LENGTH && random.bytes().all(|b| ALPHABET.contains(&b))).then_some(base)
}

/// The desired name `object` is an instance of, if any (the mapping rule).
fn instance_of<'d>(desired: &'d Resources, object: &str) -> Option<&'d Arc<str>> {
    desired
        .shared_name(object)
        .or_else(|| desired.shared_name(generated_from(object)?))
}

/// What `reconcile` is shown, and where each name it may plan for goes.
#[derive(Debug, Clone, PartialEq)]
pub struct NamedView {
    pub observed: Resources,
    pub finalizers: Finalizers,
    /// Desired names shown in place of an object of another name: (desired
    /// name, the object's name), sorted by desired name.
    pub stand_ins: Vec<(Arc<str>, Arc<str>)>,
}

impl NamedView {
    /// The object a planned action on `name` is sent to.
    pub fn target<'n>(&'n self, name: &'n Arc<str>) -> &'n Arc<str> {
        self.stand_ins
            .binary_search_by(|(shown, _)| (**shown).cmp(name))
            .map_or(name, |i| &self.stand_ins[i].1)
    }
}

/// The view of `cache` the controller hands `reconcile` under the mapping
/// rule (see the module doc); `None` when `naming` is deterministic (the
/// cache as it is).
pub fn named_view(naming: ObjectNaming, desired: &Resources, cache: &World) -> Option<NamedView> {
    if !naming.generates_names() {
        return None;
    }
    // The oldest instance of each desired name: (desired name, object,
    // uid), kept sorted by desired name as it is built (no sort: each sort
    // of another element type is its own copy of the sort code in wasm).
    let mut oldest: Vec<(&Arc<str>, &Arc<str>, u64)> = Vec::new();
    for (object, _) in cache.observed.iter() {
        let (Some(shown), Some(object)) = (
            instance_of(desired, object),
            cache.observed.shared_name(object),
        ) else {
            continue;
        };
        // The object named `N` itself comes first: it is shown under its own name.
        let uid = if object == shown {
            0
        } else {
            cache.meta(object).map_or(0, |m| m.uid).saturating_add(1)
        };
        match oldest.binary_search_by(|(name, _, _)| name.cmp(&shown)) {
            Ok(i) if uid < oldest[i].2 => oldest[i] = (shown, object, uid),
            Ok(_) => {}
            Err(i) => oldest.insert(i, (shown, object, uid)),
        }
    }
    oldest.retain(|(shown, object, _)| shown != object);
    let mut observed = cache.observed.clone();
    let mut finalizers = cache.finalizers.clone();
    for (shown, object, _) in &oldest {
        if let Some(spec) = observed.remove(object) {
            observed.insert(Arc::clone(shown), spec);
        }
        if let Some(list) = finalizers.remove(object) {
            finalizers.set(shown, list);
        }
    }
    let stand_ins = oldest
        .into_iter()
        .map(|(shown, object, _)| (Arc::clone(shown), Arc::clone(object)))
        .collect();
    Some(NamedView {
        observed,
        finalizers,
        stand_ins,
    })
}

/// The store (or a cache) as the controller shows it to `reconcile`: its
/// named view, or the objects and finalizers as they are.
pub fn controller_observed<'w>(
    naming: ObjectNaming,
    desired: &Resources,
    world: &'w World,
) -> (Cow<'w, Resources>, Cow<'w, Finalizers>) {
    match named_view(naming, desired, world) {
        Some(view) => (Cow::Owned(view.observed), Cow::Owned(view.finalizers)),
        None => (
            Cow::Borrowed(&world.observed),
            Cow::Borrowed(&world.finalizers),
        ),
    }
}

/// `world` with each stand-in under the desired name it stands for (its
/// spec, finalizers and deletion mark), for views that go by desired
/// names, such as the status grid: under generated names, web-1 in sync
/// rather than web-1 missing and web-1-xxxxx extra. The world as it is when
/// `naming` is deterministic.
pub fn named_world<'w>(
    naming: ObjectNaming,
    desired: &Resources,
    world: &'w World,
) -> Cow<'w, World> {
    let Some(view) = named_view(naming, desired, world) else {
        return Cow::Borrowed(world);
    };
    let mut named = world.clone();
    for (shown, object) in &view.stand_ins {
        if let Some(since) = named.terminating.remove(&**object) {
            named.terminating.insert(shown.to_string(), since);
        }
    }
    named.observed = view.observed;
    named.finalizers = view.finalizers;
    Cow::Owned(named)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use reconcile_core::json::Json;

    use super::*;
    use crate::control_plane::names::generate_name;
    use crate::ownership::OwnerRefs;
    use crate::rng::SimRng;

    fn resources(names: &[&str]) -> Resources {
        Resources::from_unique(
            names
                .iter()
                .map(|n| ((*n).to_owned(), Json::Null))
                .collect(),
        )
    }

    fn world_created_in_order(names: &[&str]) -> World {
        let mut world = World::new(Resources::new(), None);
        for name in names {
            world
                .create_owned(
                    &Arc::from(*name),
                    Json::Null,
                    Vec::new(),
                    OwnerRefs::default(),
                )
                .expect("a new name");
        }
        world
    }

    #[test]
    fn only_a_dash_and_five_alphabet_characters_make_a_generated_suffix() {
        assert_eq!(generated_from("web-1-b2c4d"), Some("web-1"));
        assert_eq!(
            generated_from("web-1-abcde"),
            None,
            "a vowel is never drawn"
        );
        assert_eq!(generated_from("web-1-bcd"), None);
        assert_eq!(generated_from("web-1xbcdfg"), None);
        assert_eq!(generated_from("-bcdfg"), Some(""));
        assert_eq!(generated_from("bcdfg"), None);
        assert_eq!(generated_from("é-bcdfg"), Some("é"));
    }

    #[test]
    fn the_oldest_instance_stands_for_its_name_and_the_rest_are_surplus() {
        let desired = resources(&["web-0", "web-1"]);
        let cache = world_created_in_order(&["web-1-zzzzz", "web-0", "web-1-bbbbb", "other"]);
        let view = named_view(ObjectNaming::GenerateName, &desired, &cache).expect("a view");
        let names: Vec<&str> = view.observed.names().collect();
        assert_eq!(names, ["other", "web-0", "web-1", "web-1-bbbbb"]);
        assert_eq!(
            view.stand_ins,
            [(Arc::from("web-1"), Arc::from("web-1-zzzzz"))]
        );
        let web_1: Arc<str> = Arc::from("web-1");
        assert_eq!(&**view.target(&web_1), "web-1-zzzzz");
        let other: Arc<str> = Arc::from("other");
        assert_eq!(&**view.target(&other), "other");
        assert!(named_view(ObjectNaming::Deterministic, &desired, &cache).is_none());
    }

    #[test]
    fn the_named_world_renames_stand_ins_with_their_deletion_marks() {
        let desired = resources(&["web"]);
        let mut cache = world_created_in_order(&["web-bbbbb"]);
        assert!(cache.mark_terminating("web-bbbbb", 7));
        let named = named_world(ObjectNaming::GenerateName, &desired, &cache);
        assert_eq!(named.observed.names().collect::<Vec<_>>(), ["web"]);
        assert!(named.is_terminating("web"));
        assert!(!named.is_terminating("web-bbbbb"));
        let same = named_world(ObjectNaming::Deterministic, &desired, &cache);
        assert!(matches!(same, Cow::Borrowed(_)));
    }

    #[test]
    fn an_object_of_the_desired_name_itself_stands_for_it_even_when_younger() {
        let desired = resources(&["web"]);
        let cache = world_created_in_order(&["web-bbbbb", "web"]);
        let view = named_view(ObjectNaming::GenerateName, &desired, &cache).expect("a view");
        assert_eq!(
            view.observed.names().collect::<Vec<_>>(),
            ["web", "web-bbbbb"],
            "web is shown as itself, web-bbbbb is surplus"
        );
        assert!(view.stand_ins.is_empty());
    }

    proptest! {
        /// The view keeps every object: one per desired name with an
        /// instance, the rest under their own names, and none is lost or
        /// shown twice.
        #[test]
        fn the_view_shows_every_object_once(
            picks in proptest::collection::vec((0usize..3, proptest::option::of(0usize..4)), 0..8),
            seed in any::<u64>(),
        ) {
            let bases = ["a", "b", "c"];
            let mut rng = SimRng::new(seed);
            let mut names: Vec<String> = Vec::new();
            for (base, generated) in picks {
                let name = match generated {
                    Some(_) => generate_name(&generate_name_prefix(bases[base]), &mut rng),
                    None => bases[base].to_owned(),
                };
                if !names.contains(&name) {
                    names.push(name);
                }
            }
            let refs: Vec<&str> = names.iter().map(String::as_str).collect();
            let cache = world_created_in_order(&refs);
            let desired = resources(&bases[..2]);
            let view = named_view(ObjectNaming::GenerateName, &desired, &cache).expect("a view");
            prop_assert_eq!(view.observed.len(), cache.observed.len());
            for (shown, object) in &view.stand_ins {
                prop_assert!(desired.contains(shown));
                prop_assert!(!view.observed.contains(object));
                prop_assert!(cache.observed.contains(object));
            }
        }
    }
}
