//! The JSON value a spec is made of, with the contract's equality.
//!
//! `serde_json::Value` is not used for specs because its equality is wrong for
//! the contract: it treats `1` and `1.0` as different and keeps object key
//! order significant only through its map type. [`Json`] keeps the author's key
//! order (so output reads like the input) but compares objects as unordered
//! maps and numbers by value.

use std::cell::{Cell, RefCell};
use std::cmp::Ordering;
use std::fmt;
use std::sync::Arc;

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Serialize, Serializer};

use crate::path::Segment;
use crate::stable::StableHasher;

/// A JSON number, kept in the form it was written in so it prints back the same.
#[derive(Debug, Clone, Copy)]
pub enum Number {
    /// A non-negative integer literal.
    Unsigned(u64),
    /// A negative integer literal.
    Signed(i64),
    /// A literal with a fraction or exponent, or an integer too large for 64 bits.
    Float(f64),
}

impl Number {
    /// The exact integer value, when there is one that fits in an `i128`.
    fn as_exact_integer(self) -> Option<i128> {
        match self {
            Number::Unsigned(u) => Some(i128::from(u)),
            Number::Signed(i) => Some(i128::from(i)),
            // Every f64 with no fraction and magnitude below 2^127 converts exactly.
            #[allow(clippy::cast_possible_truncation)]
            Number::Float(f) if f.fract() == 0.0 && f.abs() < 1.7e38 => Some(f as i128),
            Number::Float(_) => None,
        }
    }

    /// The value as an `f64`, for display in summaries.
    #[allow(clippy::cast_precision_loss)]
    pub fn as_f64(self) -> f64 {
        match self {
            Number::Unsigned(u) => u as f64,
            Number::Signed(i) => i as f64,
            Number::Float(f) => f,
        }
    }
}

/// Numbers are equal when their mathematical values are equal: `1 == 1.0 == 1e0`, `-0 == 0`.
impl PartialEq for Number {
    fn eq(&self, other: &Self) -> bool {
        match (self.as_exact_integer(), other.as_exact_integer()) {
            (Some(a), Some(b)) => a == b,
            // One side is integral and the other is not: they cannot be equal.
            (Some(_), None) | (None, Some(_)) => false,
            (None, None) => self.as_f64() == other.as_f64(),
        }
    }
}

impl Serialize for Number {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match *self {
            Number::Unsigned(u) => serializer.serialize_u64(u),
            Number::Signed(i) => serializer.serialize_i64(i),
            Number::Float(f) => serializer.serialize_f64(f),
        }
    }
}

/// A JSON value. Objects keep their members in the order they were written.
///
/// Guarantees: equality ignores object member order, compares numbers by value,
/// and never treats a boolean as a number. Duplicate member names cannot occur,
/// because the parser rejects them.
///
/// Strings, arrays and objects are reference-counted, so a clone costs O(1)
/// and shares its payload: a spec copied from desired into an action and on
/// into the simulated world is one allocation, and two values that share a
/// payload compare equal without looking inside. Writes ([`Json::set_path`])
/// copy a shared payload first, so sharing is never observable.
#[derive(Debug, Clone)]
// Serialized by hand (below) as the JSON value itself.
#[cfg_attr(
    feature = "ts",
    derive(ts_rs::TS),
    ts(type = "null | boolean | number | string | Json[] | { [key: string]: Json }")
)]
pub enum Json {
    Null,
    Bool(bool),
    Number(Number),
    String(Arc<str>),
    Array(Arc<Vec<Json>>),
    Object(Arc<Vec<(Box<str>, Json)>>),
}

impl Json {
    /// A string value.
    pub fn string(text: &str) -> Json {
        Json::String(Arc::from(text))
    }

    /// An array value.
    pub fn array(items: Vec<Json>) -> Json {
        Json::Array(Arc::new(items))
    }

    /// An object value; `members` must not repeat a name (the parser guarantees it).
    pub fn object(members: Vec<(Box<str>, Json)>) -> Json {
        Json::Object(Arc::new(members))
    }

    /// The members of an object, in written order.
    pub fn as_object(&self) -> Option<&[(Box<str>, Json)]> {
        match self {
            Json::Object(members) => Some(members),
            _ => None,
        }
    }

    /// The items of an array.
    pub fn as_array(&self) -> Option<&[Json]> {
        match self {
            Json::Array(items) => Some(items),
            _ => None,
        }
    }

    /// The text of a string.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::String(text) => Some(text),
            _ => None,
        }
    }

    /// The JSON type name, as used in error messages ("an object", "a string", ...).
    pub fn type_name(&self) -> &'static str {
        match self {
            Json::Null => "null",
            Json::Bool(_) => "a boolean",
            Json::Number(_) => "a number",
            Json::String(_) => "a string",
            Json::Array(_) => "an array",
            Json::Object(_) => "an object",
        }
    }

    /// Looks up an object member by name.
    pub fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Object(members) => members.iter().find(|(k, _)| &**k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// Sets the value at `path` (member names from this value down), creating
    /// objects on the way and replacing non-objects in the way. An empty path
    /// replaces the whole value.
    pub fn set_path(&mut self, path: &[String], value: Json) {
        let Some((first, rest)) = path.split_first() else {
            *self = value;
            return;
        };
        if !matches!(self, Json::Object(_)) {
            *self = Json::object(Vec::new());
        }
        if let Json::Object(members) = self {
            // Copies the member list (not the values) if another value shares it.
            let members = Arc::make_mut(members);
            let index = match members.iter().position(|(k, _)| **k == **first) {
                Some(index) => index,
                None => {
                    members.push((first.as_str().into(), Json::Null));
                    members.len() - 1
                }
            };
            members[index].1.set_path(rest, value);
        }
    }

    /// The value at `path` (member names), if present.
    pub fn get_path(&self, path: &[String]) -> Option<&Json> {
        path.iter().try_fold(self, |value, key| value.get(key))
    }

    /// A hash consistent with equality: equal values (member order ignored,
    /// numbers by value) hash equally. Deterministic across runs and platforms.
    pub fn stable_hash(&self) -> u64 {
        let mut hasher = StableHasher::default();
        self.hash_into(&mut hasher);
        hasher.finish()
    }

    fn hash_into(&self, hasher: &mut StableHasher) {
        match self {
            Json::Null => hasher.write(b"n"),
            Json::Bool(b) => hasher.write(if *b { b"t" } else { b"f" }),
            Json::Number(n) => match n.as_exact_integer() {
                Some(i) => {
                    hasher.write(b"i");
                    hasher.write(&i.to_le_bytes());
                }
                None => {
                    hasher.write(b"d");
                    hasher.write(&n.as_f64().to_bits().to_le_bytes());
                }
            },
            Json::String(s) => {
                hasher.write(b"s");
                hasher.write(&(s.len() as u64).to_le_bytes());
                hasher.write(s.as_bytes());
            }
            Json::Array(items) => {
                hasher.write(b"[");
                for item in items.iter() {
                    item.hash_into(hasher);
                }
                hasher.write(b"]");
            }
            Json::Object(members) => {
                // Order-independent: combine member hashes with a commutative sum.
                let mut sum = 0u64;
                for (key, value) in members.iter() {
                    let mut member = StableHasher::default();
                    member.write(key.as_bytes());
                    member.write(b":");
                    value.hash_into(&mut member);
                    sum = sum.wrapping_add(member.finish());
                }
                hasher.write(b"{");
                hasher.write(&sum.to_le_bytes());
                hasher.write(&(members.len() as u64).to_le_bytes());
            }
        }
    }

    /// Compact single-line JSON text.
    pub fn to_compact_string(&self) -> String {
        // Serializing an in-memory tree of plain values into a String cannot fail.
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Indented JSON text (two spaces), keeping member order.
    pub fn to_pretty_string(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }
}

impl PartialEq for Json {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Json::Null, Json::Null) => true,
            (Json::Bool(a), Json::Bool(b)) => a == b,
            (Json::Number(a), Json::Number(b)) => a == b,
            // A shared payload is equal to itself: O(1) for a spec copied from another.
            (Json::String(a), Json::String(b)) => Arc::ptr_eq(a, b) || a == b,
            (Json::Array(a), Json::Array(b)) => Arc::ptr_eq(a, b) || a == b,
            (Json::Object(a), Json::Object(b)) => Arc::ptr_eq(a, b) || objects_equal(a, b),
            _ => false,
        }
    }
}

/// Unordered comparison of two duplicate-free member lists.
///
/// Specs written by hand or produced by the same tool usually list members in
/// the same order, so the positional check succeeds without any lookup; only
/// a mismatch in order pays for sorting.
fn objects_equal(a: &[(Box<str>, Json)], b: &[(Box<str>, Json)]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let same_order = a.iter().zip(b).all(|((ka, _), (kb, _))| ka == kb);
    if same_order {
        return a.iter().zip(b).all(|((_, va), (_, vb))| va == vb);
    }
    let sorted_a = key_order(a.iter().map(|(key, _)| &**key));
    let sorted_b = key_order(b.iter().map(|(key, _)| &**key));
    sorted_a
        .iter()
        .zip(&sorted_b)
        .all(|(&i, &j)| match (a.get(i), b.get(j)) {
            (Some((ka, va)), Some((kb, vb))) => ka == kb && va == vb,
            _ => false,
        })
}

/// The positions of `keys` in ascending order, equal keys in their given
/// order (a stable sort). Every sort by name in this crate and the
/// simulation goes through here: one sort of `(&str, usize)` pairs, so no
/// element type pays for sort code of its own (docs/SIZE.md).
pub fn key_order<'a>(keys: impl Iterator<Item = &'a str>) -> Vec<usize> {
    sorted_positions(keys.zip(0..).collect())
}

/// The indices of `pairs`, sorted by key and then by index: not generic, so
/// the sort is linked once.
fn sorted_positions(mut pairs: Vec<(&str, usize)>) -> Vec<usize> {
    pairs.sort_unstable();
    pairs.into_iter().map(|(_, index)| index).collect()
}

/// `items` in the order of `order` (positions from [`key_order`]), each item
/// taken once.
pub fn reordered<T>(items: Vec<T>, order: &[usize]) -> Vec<T> {
    let mut slots: Vec<Option<T>> = items.into_iter().map(Some).collect();
    order
        .iter()
        .filter_map(|&i| slots.get_mut(i).and_then(Option::take))
        .collect()
}

impl Serialize for Json {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Json::Null => serializer.serialize_unit(),
            Json::Bool(b) => serializer.serialize_bool(*b),
            Json::Number(n) => n.serialize(serializer),
            Json::String(s) => serializer.serialize_str(s),
            Json::Array(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items.iter() {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Json::Object(members) => {
                let mut map = serializer.serialize_map(Some(members.len()))?;
                for (key, value) in members.iter() {
                    map.serialize_entry(&**key, value)?;
                }
                map.end()
            }
        }
    }
}

impl fmt::Display for Json {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_compact_string())
    }
}

// ---------------------------------------------------------------------------
// Reading values: the one visitor that builds a `Json` from serde_json's
// events. The precise parser (`crate::parse`) runs it with a trail it turns
// into located messages; a spec the scanner validated is read with it on first
// use (`crate::model`).

/// Where reading a value failed: serde_json's errors carry a line and column
/// but no JSON path, so the visitors note the path as an error propagates out.
#[derive(Debug, Default)]
pub(crate) struct Trail {
    /// Filled innermost-first as an error propagates out of nested values.
    segments: RefCell<Vec<Segment>>,
    /// Set when the error is a repeated member name.
    duplicate: Cell<bool>,
}

impl Trail {
    /// Notes the member or item of a failing child, on its way out.
    pub(crate) fn note(&self, segment: Segment) {
        self.segments.borrow_mut().push(segment);
    }

    /// The path of the failure, outermost first.
    pub(crate) fn take_path(&self) -> Vec<Segment> {
        let mut segments = self.segments.take();
        segments.reverse();
        segments
    }

    /// Whether the failure is a repeated member name.
    pub(crate) fn is_duplicate(&self) -> bool {
        self.duplicate.get()
    }

    /// The error for `key`, a name its object already has; `what` names it
    /// ("member name", "resource name").
    pub(crate) fn duplicate_key<E: de::Error>(&self, key: &str, what: &str) -> E {
        self.note(Segment::Key(key.to_owned()));
        self.duplicate.set(true);
        E::custom(format!(
            "duplicate {what} {}; each name may appear only once",
            quoted(key)
        ))
    }
}

/// A name as a JSON string literal, for messages.
pub fn quoted(key: &str) -> String {
    serde_json::to_string(key).unwrap_or_else(|_| key.to_owned())
}

/// Names, kept sorted for a search: the set of names a repeated-name check
/// needs. A hash set would do as well, but links a hash table (about 3 KB
/// of wasm in the JS API's simulation module, which has no other; docs/SIZE.md).
/// Names added in increasing order, as every document this project writes
/// has them, go at the end; others move the later ones.
#[derive(Debug, Default)]
pub(crate) struct NameIndex(Vec<Box<str>>);

impl NameIndex {
    /// Adds `name`; false if it was there already.
    pub(crate) fn insert(&mut self, name: &str) -> bool {
        match self.0.binary_search_by(|known| (**known).cmp(name)) {
            Ok(_) => false,
            Err(at) => {
                self.0.insert(at, name.into());
                true
            }
        }
    }

    pub(crate) fn contains(&self, name: &str) -> bool {
        self.0.binary_search_by(|known| (**known).cmp(name)).is_ok()
    }
}

/// Tracks member names of one object: a scan while it is small, an index once it is large.
#[derive(Default)]
struct SeenKeys {
    index: Option<NameIndex>,
}

impl SeenKeys {
    const SCAN_LIMIT: usize = 16;

    /// True if `key` is already among `members` (which this guard has seen so far).
    fn is_duplicate(&mut self, members: &[(Box<str>, Json)], key: &str) -> bool {
        if self.index.is_none() && members.len() >= Self::SCAN_LIMIT {
            let mut index = NameIndex::default();
            for (member, _) in members {
                index.insert(member);
            }
            self.index = Some(index);
        }
        match &mut self.index {
            Some(index) => !index.insert(key),
            None => members.iter().any(|(k, _)| &**k == key),
        }
    }
}

/// Reads any JSON value, rejecting repeated member names, and notes in its
/// [`Trail`] where it fails.
#[derive(Clone, Copy)]
pub(crate) struct ValueSeed<'t>(pub(crate) &'t Trail);

impl<'de> DeserializeSeed<'de> for ValueSeed<'_> {
    type Value = Json;
    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<Json, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ValueSeed<'_> {
    type Value = Json;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_unit<E>(self) -> Result<Json, E> {
        Ok(Json::Null)
    }
    fn visit_bool<E>(self, v: bool) -> Result<Json, E> {
        Ok(Json::Bool(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Json, E> {
        Ok(Json::Number(Number::Unsigned(v)))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Json, E> {
        Ok(Json::Number(Number::Signed(v)))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Json, E> {
        Ok(Json::Number(Number::Float(v)))
    }
    fn visit_str<E>(self, v: &str) -> Result<Json, E> {
        Ok(Json::string(v))
    }
    fn visit_string<E>(self, v: String) -> Result<Json, E> {
        Ok(Json::String(v.into()))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Json, A::Error> {
        let mut items = Vec::new();
        loop {
            let index = items.len();
            match seq.next_element_seed(self) {
                Ok(Some(item)) => items.push(item),
                Ok(None) => return Ok(Json::array(items)),
                Err(error) => {
                    self.0.note(Segment::Index(index));
                    return Err(error);
                }
            }
        }
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Json, A::Error> {
        let mut members: Vec<(Box<str>, Json)> = Vec::new();
        let mut seen = SeenKeys::default();
        while let Some(key) = map.next_key::<String>()? {
            if seen.is_duplicate(&members, &key) {
                return Err(self.0.duplicate_key(&key, "member name"));
            }
            match map.next_value_seed(self) {
                Ok(value) => members.push((key.into_boxed_str(), value)),
                Err(error) => {
                    self.0.note(Segment::Key(key));
                    return Err(error);
                }
            }
        }
        Ok(Json::object(members))
    }
}

/// Deserializes any JSON value with the playground's semantics (duplicate keys rejected).
impl<'de> serde::Deserialize<'de> for Json {
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        ValueSeed(&Trail::default()).deserialize(deserializer)
    }
}

/// Reads a [`Json`] value as serde input, so that the visitors and seeds that
/// read JSON text read a value built by another reader (the YAML reader)
/// the same way: one set of rules and messages for every format.
#[derive(Clone, Copy)]
pub(crate) struct ValueDeserializer<'a>(pub(crate) &'a Json);

impl<'de, 'a: 'de> de::IntoDeserializer<'de, de::value::Error> for ValueDeserializer<'a> {
    type Deserializer = Self;
    fn into_deserializer(self) -> Self {
        self
    }
}

impl<'de, 'a: 'de> de::Deserializer<'de> for ValueDeserializer<'a> {
    type Error = de::value::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        match self.0 {
            Json::Null => visitor.visit_unit(),
            Json::Bool(b) => visitor.visit_bool(*b),
            Json::Number(Number::Unsigned(u)) => visitor.visit_u64(*u),
            Json::Number(Number::Signed(i)) => visitor.visit_i64(*i),
            Json::Number(Number::Float(f)) => visitor.visit_f64(*f),
            Json::String(s) => visitor.visit_borrowed_str(s),
            Json::Array(items) => visitor.visit_seq(de::value::SeqDeserializer::new(
                items.iter().map(ValueDeserializer),
            )),
            Json::Object(members) => visitor.visit_map(de::value::MapDeserializer::new(
                members
                    .iter()
                    .map(|(key, value)| (&**key, ValueDeserializer(value))),
            )),
        }
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map struct enum identifier ignored_any
    }
}

/// Reads a text known to be one valid JSON value (the scanner checked it,
/// see `crate::scan`), so it cannot fail.
pub(crate) fn from_valid_text(text: &str) -> Json {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    ValueSeed(&Trail::default())
        .deserialize(&mut deserializer)
        .unwrap_or_else(|error| {
            debug_assert!(false, "a scanned spec failed to parse: {error}");
            Json::Null
        })
}

/// Orders names by Unicode code point. For UTF-8 this is plain byte order,
/// which is what `str::cmp` does; JavaScript's default sort (UTF-16 units) differs.
pub fn compare_names(a: &str, b: &str) -> Ordering {
    a.cmp(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn num(text: &str) -> Json {
        serde_json::from_str(text).expect("valid JSON")
    }

    #[test]
    fn the_name_index_finds_every_name_in_any_order() {
        let mut index = NameIndex::default();
        for name in ["m", "b", "z", "a", "q", "b", "z"] {
            let fresh = !index.contains(name);
            assert_eq!(index.insert(name), fresh, "{name}");
            assert!(index.contains(name));
        }
        assert!(!index.contains("c"));
        assert_eq!(index.0.len(), 5);
    }

    #[test]
    fn a_repeated_member_is_found_past_the_scan_limit_in_any_order() {
        let names: Vec<String> = (0..40).rev().map(|i| format!("\"k{i}\": {i}")).collect();
        let unique = format!("{{{}}}", names.join(", "));
        assert!(serde_json::from_str::<Json>(&unique).is_ok());
        let repeated = format!("{{{}, \"k7\": 0}}", names.join(", "));
        let error = serde_json::from_str::<Json>(&repeated).expect_err("k7 twice");
        assert!(error.to_string().contains("k7"), "{error}");
    }

    #[test]
    fn numbers_compare_by_value() {
        assert_eq!(num("1"), num("1.0"));
        assert_eq!(num("1"), num("1e0"));
        assert_eq!(num("-0"), num("0"));
        assert_eq!(num("100"), num("1e2"));
        assert_ne!(num("1"), num("1.5"));
        assert_ne!(num("18446744073709551615"), num("18446744073709551614"));
        assert_eq!(num("0.5"), num("5e-1"));
    }

    #[test]
    fn stable_hash_agrees_with_equality() {
        let a = num(r#"{"a":1,"b":{"x":[1,2.0],"y":null}}"#);
        let b = num(r#"{"b":{"y":null,"x":[1.0,2]},"a":1e0}"#);
        assert_eq!(a.stable_hash(), b.stable_hash());
        let c = num(r#"{"b":{"y":null,"x":[2,1]},"a":1}"#);
        assert_ne!(a.stable_hash(), c.stable_hash());
        assert_ne!(num("true").stable_hash(), num("1").stable_hash());
    }

    #[test]
    fn set_and_get_path() {
        let mut spec = num(r#"{"replicas":1,"template":{"image":"a"}}"#);
        let path = ["template".to_owned(), "image".to_owned()];
        spec.set_path(&path, Json::string("b"));
        assert_eq!(spec, num(r#"{"replicas":1,"template":{"image":"b"}}"#));
        spec.set_path(&["new".to_owned(), "deep".to_owned()], Json::Null);
        assert_eq!(
            spec.get_path(&["new".to_owned(), "deep".to_owned()]),
            Some(&Json::Null)
        );
        assert_eq!(spec.get_path(&["missing".to_owned()]), None);
    }

    #[test]
    fn set_path_never_changes_a_value_that_shares_the_payload() {
        let original = num(r#"{"replicas":1,"template":{"image":"a"}}"#);
        let mut copy = original.clone();
        assert_eq!(copy, original);
        copy.set_path(&["template".to_owned(), "image".to_owned()], num("\"b\""));
        assert_eq!(original, num(r#"{"replicas":1,"template":{"image":"a"}}"#));
        assert_eq!(copy, num(r#"{"replicas":1,"template":{"image":"b"}}"#));
        assert_ne!(copy, original);
    }

    #[test]
    fn constructors_and_accessors() {
        let value = Json::object(vec![
            ("s".into(), Json::string("x")),
            ("a".into(), Json::array(vec![Json::Null])),
        ]);
        assert_eq!(value.to_compact_string(), r#"{"s":"x","a":[null]}"#);
        assert_eq!(value.get("s").and_then(Json::as_str), Some("x"));
        assert_eq!(
            value.get("a").and_then(Json::as_array),
            Some(&[Json::Null][..])
        );
        assert_eq!(value.as_object().map(<[_]>::len), Some(2));
        assert_eq!(Json::Null.as_object(), None);
    }

    #[test]
    fn booleans_are_not_numbers() {
        assert_ne!(Json::Bool(true), num("1"));
        assert_ne!(Json::Bool(false), num("0"));
        assert_ne!(Json::Null, num("0"));
    }

    #[test]
    fn object_member_order_is_ignored() {
        let a = num(r#"{"a":1,"b":{"x":[1,2],"y":null}}"#);
        let b = num(r#"{"b":{"y":null,"x":[1.0,2]},"a":1}"#);
        assert_eq!(a, b);
        let c = num(r#"{"b":{"y":null,"x":[2,1]},"a":1}"#);
        assert_ne!(a, c, "array order matters");
    }

    #[test]
    fn code_point_order_differs_from_utf16_order() {
        // U+1F680 is above U+E000 by code point, below it in UTF-16 units.
        assert_eq!(compare_names("\u{1F680}", "\u{E000}"), Ordering::Greater);
    }
}
