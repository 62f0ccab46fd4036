//! Start at `tree_id`, then `words`.
//!
//! What the page (`reconcile-web`) and the yew apps it loads on demand
//! ("Your reconcile", `reconcile-exercise-ui`; the simulation section,
//! `reconcile-simulation-ui`) share, each in one place:
//!
//! - [`tree_id`]: how an app loaded later takes a tree number the page's yew
//!   does not use, so that two yew apps can share one DOM;
//! - [`Shared`]: an `Rc` that compares by identity, for props;
//! - [`download`]: saving text as a file download;
//! - [`words`]: the sentences for the simulation's records (a request's
//!   result, a step of the event log, a lane cell's state) that the page's
//!   timeline and the control-plane view both show.
//!
//! Invariant: no state and no simulation logic here, only these helpers;
//! each wasm module links its own copy of what it uses.
//!
//! It depends on `reconcile-sim`, yew, gloo, js-sys and web-sys only
//! (`cargo xtask boundaries` checks).

pub mod download;
pub mod shared;
pub mod tree_id;
pub mod words;

pub use shared::Shared;
