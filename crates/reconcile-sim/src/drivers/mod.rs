//! Programs that drive whole runs through the engine's public interface:
//! a learner's reconcile in the loop ([`own_reconcile`]) and level vs edge
//! (`edge`). Start at [`own_reconcile::LoopCheck`].
//!
//! Invariant: they sit beside the views, above the engine; nothing below
//! imports them (the `layering` test checks).

#[cfg(feature = "level-edge")]
pub(crate) mod edge;
pub mod learner;
pub mod own_reconcile;
