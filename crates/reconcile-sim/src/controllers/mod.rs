//! The controllers, and the client they reach the control plane through.
//! Start at [`client`], then [`contract::ContractController`].
//!
//! Besides the contract controller: what it compares, how it names, its
//! expectations, its status writes, and what became of each action.
//!
//! Invariant: it uses only the control plane, never the run's record, the
//! engine or a view (the `layering` test checks); and a controller reaches
//! the control plane only through [`client`].

pub mod client;
pub mod comparison;
pub mod contract;
pub mod controller;
pub mod driven;
pub mod expectations;
pub mod naming;
pub(crate) mod outcome;
pub mod status_writes;
pub mod writes;
