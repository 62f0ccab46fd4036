//! What the contract controller decides, beside the contract's `reconcile`:
//! what it compares, how it names, its expectations, its status writes, and
//! what became of each action. Start at [`comparison::controller_plan`].
//!
//! Invariant: it uses only the control plane, never the run's record, the
//! engine or a view (the `layering` test checks).

pub mod comparison;
pub mod expectations;
pub mod naming;
pub(crate) mod outcome;
pub mod status_writes;
