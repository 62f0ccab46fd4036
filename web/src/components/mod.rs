//! Presentational components. They render props and emit callbacks; none computes a plan.

pub mod action_list;
pub mod custom_resource_tabs;
pub mod editor;
pub mod embed_code;
pub mod exercise_host;
pub mod lesson_panel;
pub mod on_demand_host;
pub mod page_frame;
pub mod present_bar;
pub mod preset_menu;
pub mod recent_sessions;
pub mod replay_note;
pub mod scenario_column;
pub mod sim_controls;
pub mod simulation;
pub mod toolbar;
pub mod update_notice;

pub use action_list::ActionList;
pub use editor::JsonEditor;
pub use exercise_host::exercise_host;
pub use preset_menu::preset_menu;
pub use simulation::Simulation;
pub use update_notice::update_notice;
