//! The simulation section's app (issue 17's split,
//! docs/design/simulation-module.md): everything of the section the page
//! used to render after its controls (the verdict, the snapshot banner, the
//! timeline, the chart, the status grid, Faults and settings, the two views
//! of the run) and World now beside the editors, mounted with `lib.rs`'s
//! `mount_simulation` into the host the page keeps after the controls.
//!
//! Invariant: the page owns the cursor, the settings and whether each view
//! is open (`reconcile_protocol::section::SimulationInput`); this simulates
//! the page's run once per revision ([`state::SectionState`]), shows it at
//! the page's cursor, and asks the page for every change
//! (`reconcile_protocol::section::SimulationEvent`).

pub mod app;
pub mod components;
pub mod state;
