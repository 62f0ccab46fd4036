//! The document shapes read with located errors: resources `{name: spec}`,
//! finalizers `{name: [finalizer, ...]}` or `null`, one object's finalizer
//! list, and a scenario `{desired, observed, finalizers}`.
//!
//! One visitor, [`ShapeSeed`], reads every shape, told which by a [`Shape`]:
//! serde_json's reader of any value, and of a member's or an element's value,
//! is then linked once for all of them instead of once per shape (the JS
//! API's simulation module links all four; docs/SIZE.md). Each reports the
//! segment of a failing child, so the path is known.

use std::fmt;
use std::sync::Arc;

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};

use super::{wrong_type, Ctx, DocumentSeed, ErrorKind};
use crate::json::{self, Json, NameIndex};
use crate::model::{Finalizers, Resources, Scenario};
use crate::path::Segment;

const RESOURCES_EXPECTED: &str = r#"an object of {"name": spec}"#;
const FINALIZERS_EXPECTED: &str = r#"an object of {"name": ["finalizer", ...]}, or null"#;
const FINALIZER_LIST_EXPECTED: &str = "an array of finalizer names (strings)";
const FINALIZER_NAME_EXPECTED: &str = "a finalizer name (a string)";
const SCENARIO_EXPECTED: &str =
    r#"an object {"desired": {...}, "observed": {...}, "finalizers": {...} or null}"#;

/// What a [`ShapeSeed`] reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    Resources,
    Finalizers,
    FinalizerList,
    FinalizerName,
    Scenario,
}

impl Shape {
    fn expected(self) -> &'static str {
        match self {
            Shape::Resources => RESOURCES_EXPECTED,
            Shape::Finalizers => FINALIZERS_EXPECTED,
            Shape::FinalizerList => FINALIZER_LIST_EXPECTED,
            Shape::FinalizerName => FINALIZER_NAME_EXPECTED,
            Shape::Scenario => SCENARIO_EXPECTED,
        }
    }
}

/// What a [`ShapeSeed`] read, one variant per [`Shape`].
enum Read {
    Resources(Resources),
    Finalizers(Option<Finalizers>),
    FinalizerList(Vec<String>),
    FinalizerName(String),
    Scenario(Scenario),
}

/// Reads the value of one [`Shape`], noting where an error is in `ctx`.
#[derive(Clone, Copy)]
struct ShapeSeed<'c> {
    ctx: &'c Ctx,
    shape: Shape,
}

impl<'de> DeserializeSeed<'de> for ShapeSeed<'_> {
    type Value = Read;
    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<Read, D::Error> {
        deserializer.deserialize_any(self)
    }
}

/// Implements [`DocumentSeed`] for a shape's seed: the [`ShapeSeed`] of
/// `$shape`, whose [`Read`] is always `$shape`'s variant.
macro_rules! shape_seed {
    ($(#[$doc:meta])* $seed:ident, $shape:ident, $value:ty) => {
        $(#[$doc])*
        pub(crate) struct $seed;

        impl DocumentSeed for $seed {
            type Value = $value;
            fn deserialize_with<'de, D: de::Deserializer<'de>>(
                self,
                ctx: &Ctx,
                deserializer: D,
            ) -> Result<$value, D::Error> {
                match (ShapeSeed { ctx, shape: Shape::$shape }).deserialize(deserializer)? {
                    Read::$shape(value) => Ok(value),
                    _ => Err(another_shape()),
                }
            }
        }
    };
}

shape_seed!(
    /// `{name: spec}` for desired and observed.
    ResourcesSeed, Resources, Resources
);
shape_seed!(
    /// `{name: [finalizer, ...]}` or `null`.
    FinalizersSeed, Finalizers, Option<Finalizers>
);
shape_seed!(
    /// One object's list of finalizer names.
    FinalizerListSeed, FinalizerList, Vec<String>
);
shape_seed!(
    /// A whole scenario document.
    ScenarioSeed, Scenario, Scenario
);

/// A [`ShapeSeed`] gives the [`Read`] of its own shape; this error is for
/// the match arms that can not be reached.
fn another_shape<E: de::Error>() -> E {
    E::custom("internal error: a document reader read another shape")
}

impl ShapeSeed<'_> {
    fn wrong<E: de::Error>(self, found: &str) -> E {
        wrong_type(self.ctx, self.shape.expected(), found)
    }

    /// The value of the member `name` (just read from `map`), as `shape`.
    fn member<'de, A: MapAccess<'de>>(
        self,
        map: &mut A,
        name: &str,
        shape: Shape,
    ) -> Result<Read, A::Error> {
        map.next_value_seed(ShapeSeed { shape, ..self })
            .inspect_err(|_| self.ctx.note_segment(Segment::Key(name.to_owned())))
    }
}

impl<'de> Visitor<'de> for ShapeSeed<'_> {
    type Value = Read;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.shape.expected())
    }

    fn visit_unit<E: de::Error>(self) -> Result<Read, E> {
        match self.shape {
            Shape::Finalizers => Ok(Read::Finalizers(None)),
            _ => Err(self.wrong("null")),
        }
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Read, E> {
        Err(self.wrong("a boolean"))
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Read, E> {
        Err(self.wrong("a number"))
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Read, E> {
        Err(self.wrong("a number"))
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Read, E> {
        Err(self.wrong("a number"))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Read, E> {
        match self.shape {
            Shape::FinalizerName => Ok(Read::FinalizerName(v.to_owned())),
            _ => Err(self.wrong("a string")),
        }
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Read, E> {
        match self.shape {
            Shape::FinalizerName => Ok(Read::FinalizerName(v)),
            _ => Err(self.wrong("a string")),
        }
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Read, A::Error> {
        match self.shape {
            Shape::FinalizerList => self.finalizer_list(seq).map(Read::FinalizerList),
            _ => Err(self.wrong("an array")),
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Read, A::Error> {
        match self.shape {
            Shape::Resources => self.resources(map).map(Read::Resources),
            Shape::Finalizers => self.finalizers(map).map(|f| Read::Finalizers(Some(f))),
            Shape::Scenario => self.scenario(map).map(Read::Scenario),
            Shape::FinalizerList | Shape::FinalizerName => Err(self.wrong("an object")),
        }
    }
}

impl ShapeSeed<'_> {
    fn resources<'de, A: MapAccess<'de>>(self, mut map: A) -> Result<Resources, A::Error> {
        let mut entries: Vec<(Arc<str>, Json)> = Vec::new();
        let mut seen = SeenNames::default();
        while let Some(name) = map.next_key_seed(SharedName)? {
            if seen.is_duplicate(entries.iter().map(|(n, _)| &**n), &name) {
                return Err(self.ctx.trail.duplicate_key(&name, "resource name"));
            }
            match map.next_value_seed(self.ctx.value()) {
                Ok(spec) => {
                    seen.accept(&name);
                    entries.push((name, spec));
                }
                Err(error) => {
                    self.ctx.note_segment(Segment::Key(name.to_string()));
                    return Err(error);
                }
            }
        }
        Ok(Resources::from_unique_shared(entries))
    }

    fn finalizers<'de, A: MapAccess<'de>>(self, mut map: A) -> Result<Finalizers, A::Error> {
        let mut entries: Vec<(String, Vec<String>)> = Vec::new();
        let mut seen = SeenNames::default();
        while let Some(name) = map.next_key::<String>()? {
            if seen.is_duplicate(entries.iter().map(|(n, _)| n.as_str()), &name) {
                return Err(self.ctx.trail.duplicate_key(&name, "resource name"));
            }
            let list = map.next_value_seed(ShapeSeed {
                shape: Shape::FinalizerList,
                ..self
            });
            match list {
                Ok(Read::FinalizerList(list)) => {
                    seen.accept(&name);
                    entries.push((name, list));
                }
                Ok(_) => return Err(another_shape()),
                Err(error) => {
                    self.ctx.note_segment(Segment::Key(name));
                    return Err(error);
                }
            }
        }
        Ok(Finalizers::from_unique(entries))
    }

    fn finalizer_list<'de, A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<String>, A::Error> {
        let mut names = Vec::new();
        loop {
            let index = names.len();
            let name = seq.next_element_seed(ShapeSeed {
                shape: Shape::FinalizerName,
                ..self
            });
            match name {
                Ok(Some(Read::FinalizerName(name))) => names.push(name),
                Ok(Some(_)) => return Err(another_shape()),
                Ok(None) => return Ok(names),
                Err(error) => {
                    self.ctx.note_segment(Segment::Index(index));
                    return Err(error);
                }
            }
        }
    }

    fn scenario<'de, A: MapAccess<'de>>(self, mut map: A) -> Result<Scenario, A::Error> {
        let mut desired = None;
        let mut observed = None;
        let mut finalizers = None;
        while let Some(key) = map.next_key::<String>()? {
            let already = match key.as_str() {
                "desired" => desired.is_some(),
                "observed" => observed.is_some(),
                "finalizers" => finalizers.is_some(),
                _ => {
                    self.ctx.note_segment(Segment::Key(key.clone()));
                    return Err(self.ctx.fail(
                        ErrorKind::Shape,
                        format!(
                            "unknown member {}; expected \"desired\", \"observed\" or \"finalizers\"",
                            json::quoted(&key)
                        ),
                    ));
                }
            };
            if already {
                return Err(self.ctx.trail.duplicate_key(&key, "member name"));
            }
            let shape = match key.as_str() {
                "desired" | "observed" => Shape::Resources,
                _ => Shape::Finalizers,
            };
            match (key.as_str(), self.member(&mut map, &key, shape)?) {
                ("desired", Read::Resources(resources)) => desired = Some(resources),
                ("observed", Read::Resources(resources)) => observed = Some(resources),
                (_, Read::Finalizers(read)) => finalizers = Some(read),
                _ => return Err(another_shape()),
            }
        }
        let missing = |name: &str| {
            self.ctx.fail::<A::Error>(
                ErrorKind::Shape,
                format!("missing member \"{name}\"; expected {RESOURCES_EXPECTED} there"),
            )
        };
        Ok(Scenario {
            desired: desired.ok_or_else(|| missing("desired"))?,
            observed: observed.ok_or_else(|| missing("observed"))?,
            finalizers: finalizers.flatten(),
        })
    }
}

/// Detects a repeated name among the members of a document's top-level object.
///
/// Names that arrive in increasing code point order, as in every document this
/// project writes, need one comparison with the previous name and no
/// allocation; the first name out of order indexes all names so far (a
/// [`NameIndex`]), which every later name is checked against.
#[derive(Default)]
struct SeenNames {
    index: Option<NameIndex>,
}

impl SeenNames {
    /// True if `name` is among `earlier`, the names accepted so far in document order.
    fn is_duplicate<'a>(
        &mut self,
        mut earlier: impl DoubleEndedIterator<Item = &'a str>,
        name: &str,
    ) -> bool {
        if self.index.is_none() {
            match earlier.next_back() {
                // Every earlier name is at most the previous one, so below `name`.
                None => return false,
                Some(previous) if previous < name => return false,
                Some(previous) if previous == name => return true,
                Some(previous) => {
                    let mut index = NameIndex::default();
                    for name in earlier {
                        index.insert(name);
                    }
                    index.insert(previous);
                    self.index = Some(index);
                }
            }
        }
        self.index
            .as_ref()
            .is_some_and(|index| index.contains(name))
    }

    /// Notes a name that was accepted.
    fn accept(&mut self, name: &str) {
        if let Some(index) = &mut self.index {
            index.insert(name);
        }
    }
}

/// A resource name, read straight into shared storage (one allocation).
struct SharedName;

impl<'de> DeserializeSeed<'de> for SharedName {
    type Value = Arc<str>;
    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<Arc<str>, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl Visitor<'_> for SharedName {
    type Value = Arc<str>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a member name")
    }
    fn visit_str<E>(self, v: &str) -> Result<Arc<str>, E> {
        Ok(Arc::from(v))
    }
}
