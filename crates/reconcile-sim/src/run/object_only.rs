//! Settings objects read as JSON objects only. serde_json also reads a
//! struct from an array of its fields in order, and that second reader of
//! every settings struct cost the JS API's simulation module about 3 KB
//! gzipped (docs/SIZE.md). No document, lesson or type declaration writes a
//! setting that way; one given as an array now gets serde's "invalid type:
//! sequence, expected struct ..." error. Start at [`from_object_text`].

use std::fmt;
use std::marker::PhantomData;

use serde::de::{DeserializeOwned, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer};

/// A value of type `T` from JSON text, as `serde_json::from_str` reads it,
/// but with its structs read as objects only.
pub fn from_object_text<'de, T: Deserialize<'de>>(text: &'de str) -> serde_json::Result<T> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let value = T::deserialize(MapOnly(&mut deserializer))?;
    deserializer.end()?;
    Ok(value)
}

/// For `#[serde(deserialize_with)]`: a nested settings struct.
pub fn value<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    deserializer: D,
) -> Result<T, D::Error> {
    T::deserialize(MapOnly(deserializer))
}

/// For `#[serde(deserialize_with)]`: an optional nested settings struct.
pub fn option<'de, D: Deserializer<'de>, T: DeserializeOwned>(
    deserializer: D,
) -> Result<Option<T>, D::Error> {
    deserializer.deserialize_option(Optional(PhantomData))
}

/// Reads `null` as `None`, anything else as a `T`, as an object only.
struct Optional<T>(PhantomData<T>);

impl<'de, T: Deserialize<'de>> Visitor<'de> for Optional<T> {
    type Value = Option<T>;

    /// serde's own word for an `Option`, so its messages are unchanged.
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("option")
    }

    fn visit_none<E: serde::de::Error>(self) -> Result<Option<T>, E> {
        Ok(None)
    }

    fn visit_unit<E: serde::de::Error>(self) -> Result<Option<T>, E> {
        Ok(None)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Option<T>, D::Error> {
        T::deserialize(MapOnly(deserializer)).map(Some)
    }
}

/// For `#[serde(deserialize_with)]`: a list of nested settings structs.
/// Read straight into a `Vec<T>`, not into a `Vec<ObjectOnly<T>>` then
/// moved: that second pass was its own copy per list type.
pub fn vec<'de, D: Deserializer<'de>, T: DeserializeOwned>(
    deserializer: D,
) -> Result<Vec<T>, D::Error> {
    deserializer.deserialize_seq(Objects(PhantomData))
}

/// Reads a sequence of `T`s, each as an object only.
struct Objects<T>(PhantomData<T>);

impl<'de, T: Deserialize<'de>> Visitor<'de> for Objects<T> {
    type Value = Vec<T>;

    /// serde's own word for a `Vec`, so its messages are unchanged.
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a sequence")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
        let mut items = Vec::new();
        while let Some(ObjectOnly(item)) = seq.next_element()? {
            items.push(item);
        }
        Ok(items)
    }
}

/// A `T` read with its struct as an object only.
struct ObjectOnly<T>(T);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for ObjectOnly<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        T::deserialize(MapOnly(deserializer)).map(ObjectOnly)
    }
}

/// A deserializer that reads a struct as a map and anything else as the
/// one it wraps would (derived structs and enums ask for nothing else).
struct MapOnly<D>(D);

impl<'de, D: Deserializer<'de>> Deserializer<'de> for MapOnly<D> {
    type Error = D::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        self.0.deserialize_any(visitor)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.0.deserialize_map(visitor)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map enum identifier ignored_any
    }
}
