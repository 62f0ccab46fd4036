//! Presentational components. They render props and emit callbacks; none computes a plan.

pub mod action_list;
pub mod chart;
pub mod editor;
pub mod embed_code;
pub mod exercise_host;
pub mod fault_panel;
pub mod lesson_panel;
pub mod naming_setting;
mod on_demand_host;
pub mod pass_list;
pub mod preset_menu;
pub mod recent_sessions;
mod run_views;
pub mod sim_controls;
pub mod simulation;
pub mod status_grid;
pub mod status_writes_field;
pub mod toolbar;
pub mod update_notice;
pub mod world_now;

pub use action_list::ActionList;
pub use editor::JsonEditor;
pub use exercise_host::exercise_host;
pub use preset_menu::preset_menu;
pub use simulation::Simulation;
pub use update_notice::update_notice;
pub use world_now::world_now;
