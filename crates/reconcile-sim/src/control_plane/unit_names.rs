//! Settings' unit enums read from their names. serde's derived reader of a
//! unit enum is a copy of serde_json's enum reader and of a name visitor per
//! enum; reading the name as a string and looking it up shares one copy
//! (docs/SIZE.md). The error for an unknown name is serde's own `unknown
//! variant` message. Unlike the derived reader, a variant written as an
//! object (`{"kube-rs": null}`) is refused; no document, type or lesson
//! writes one. Start at [`read_unit_names`].

use std::borrow::Cow;

use serde::{Deserialize, Deserializer};

/// The index in `names` of the name `deserializer` holds, or serde's
/// `unknown variant` error listing them.
pub fn name_index<'de, D: Deserializer<'de>>(
    deserializer: D,
    names: &'static [&'static str],
) -> Result<usize, D::Error> {
    let name = <Cow<'de, str>>::deserialize(deserializer)?;
    names
        .iter()
        .position(|known| *known == name)
        .ok_or_else(|| serde::de::Error::unknown_variant(&name, names))
}

/// `Deserialize` for a unit enum from its variants' wire names, in the
/// order given (they must be the names its derived `Serialize` writes: a
/// test of each enum checks). Also gives the enum `NAMES` and `VARIANTS`.
macro_rules! read_unit_names {
    ($ty:ident { $($variant:ident = $name:literal),+ $(,)? }) => {
        impl $ty {
            /// The wire names, in [`Self::VARIANTS`]' order.
            pub const NAMES: &'static [&'static str] = &[$($name),+];
            /// Every variant.
            pub const VARIANTS: &'static [$ty] = &[$($ty::$variant),+];
        }

        impl<'de> serde::Deserialize<'de> for $ty {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                $crate::control_plane::unit_names::name_index(deserializer, Self::NAMES)
                    .map(|index| Self::VARIANTS[index])
            }
        }
    };
}
pub(crate) use read_unit_names;

#[cfg(test)]
mod tests {
    use serde::de::DeserializeOwned;
    use serde::Serialize;

    use crate::apiserver::PropagationPolicy;
    use crate::comparison::SpecComparison;
    use crate::naming::ObjectNaming;
    use crate::status_writes::StatusWrites;
    use crate::workqueue::QueueModel;
    use crate::writes::ObjectWrites;

    /// Each variant is written as its name and read back from it.
    fn round_trips<T>(names: &[&str], variants: &[T])
    where
        T: Serialize + DeserializeOwned + PartialEq + std::fmt::Debug,
    {
        assert_eq!(names.len(), variants.len());
        for (name, variant) in names.iter().zip(variants) {
            let text = serde_json::to_string(variant).expect("a unit variant serializes");
            assert_eq!(text, format!("\"{name}\""));
            let read: T = serde_json::from_str(&text).expect("its own name reads");
            assert_eq!(&read, variant);
        }
    }

    #[test]
    fn every_unit_enum_reads_the_names_it_writes() {
        round_trips(QueueModel::NAMES, QueueModel::VARIANTS);
        round_trips(ObjectWrites::NAMES, ObjectWrites::VARIANTS);
        round_trips(StatusWrites::NAMES, StatusWrites::VARIANTS);
        round_trips(SpecComparison::NAMES, SpecComparison::VARIANTS);
        round_trips(PropagationPolicy::NAMES, PropagationPolicy::VARIANTS);
        round_trips(ObjectNaming::NAMES, ObjectNaming::VARIANTS);
    }

    #[test]
    fn an_unknown_name_gets_serde_s_message_at_its_option() {
        let error = crate::parse_options(r#"{"queue": "fifo"}"#).expect_err("not a model");
        assert_eq!(error.path.to_string(), "$.queue");
        assert_eq!(
            error.message,
            "unknown variant `fifo`, expected one of `client-go`, \
             `controller-runtime-priority`, `kube-rs`"
        );
        let error = crate::parse_options(r#"{"statusWrites": 3}"#).expect_err("not a name");
        assert_eq!(error.path.to_string(), "$.statusWrites");
        assert_eq!(
            error.message,
            "invalid type: integer `3`, expected a string"
        );
    }
}
