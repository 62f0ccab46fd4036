//! The section's views, copied from the page's web/src/components for the
//! split (docs/design/simulation-module.md §1) with the same classes and
//! DOM structure, so the page's CSS and its end-to-end tests still match:
//! the props come from the section's state, and what was a `SimAction` of
//! the page's is a request to the page (`SimulationEvent`) or a
//! `SettingChange`.

pub mod chart;
pub mod fault_panel;
pub mod key_status;
pub mod pass_list;
pub mod replay;
pub mod run_views;
pub mod status_grid;
pub mod verdict;
pub mod world_now;
