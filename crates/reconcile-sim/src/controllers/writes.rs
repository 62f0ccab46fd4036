//! How the contract controller writes the objects it creates and updates:
//! a named controller behaviour, beyond the seed's contract.
//!
//! The contract's actions are a POST and a PUT. A controller may instead
//! send server-side apply (`client.Apply` in controller-runtime, `Patch::Apply`
//! in kube-rs) under its own field manager: the API server then records
//! which fields it owns ([`crate::apply`]). A conflict with another manager
//! is a 409 the controller returns as an error, unless it forces.
//!
//! # Guarantees
//! - [`ObjectWrites::Update`] sends the contract's POST and PUT. Each is
//!   still recorded under [`FIELD_MANAGER`] as an `Update` manager.
//! - [`ObjectWrites::Apply`] and [`ObjectWrites::ForceApply`] send each
//!   CREATE and UPDATE as an apply of the desired spec: the fields it sets.
//!   With apply, the controller compares only those fields
//!   ([`crate::comparison`]), as an applier speaks only for its fields.
//!
//! # Caveats
//! - A CREATE with `generateName` stays a POST: an apply needs a name.

use serde::Serialize;

use super::comparison::SpecComparison;

/// The contract controller's field manager.
pub const FIELD_MANAGER: &str = "contract-controller";

/// How the controller writes objects.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "kebab-case")]
pub enum ObjectWrites {
    /// POST and PUT, as the contract says.
    #[default]
    Update,
    /// Server-side apply; a conflict is an error.
    Apply,
    /// Server-side apply with `force`: it takes the fields it applies.
    ForceApply,
}

super::client::read_unit_names!(ObjectWrites {
    Update = "update",
    Apply = "apply",
    ForceApply = "force-apply",
});

impl ObjectWrites {
    /// Whether it applies, and with `force`.
    pub fn applies(self) -> Option<bool> {
        match self {
            ObjectWrites::Update => None,
            ObjectWrites::Apply => Some(false),
            ObjectWrites::ForceApply => Some(true),
        }
    }

    /// What the controller compares: an applier, the fields it sets.
    pub fn comparison(self, compare: SpecComparison) -> SpecComparison {
        match self {
            ObjectWrites::Update => compare,
            ObjectWrites::Apply | ObjectWrites::ForceApply => SpecComparison::FieldsItSets,
        }
    }
}
