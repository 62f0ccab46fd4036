//! A run's settings and its record: what goes in ([`settings`], read by
//! [`options`]) and what comes out ([`record`], [`events`], [`verdict`]).
//! Start at [`record::Timeline`].
//!
//! Invariant: plain data and its readers; it uses the control plane and the
//! controllers' types, never the engine or a view (the `layering` test checks).

pub(crate) mod custom_resources;
pub mod events;
pub(crate) mod fault_input;
mod object_only;
pub mod options;
pub(crate) mod record;
pub(crate) mod scenario_text;
pub(crate) mod settings;
pub(crate) mod trigger;
pub(crate) mod verdict;
