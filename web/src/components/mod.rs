//! Presentational components. They render props and emit callbacks; none computes a plan.

pub mod action_list;
pub mod editor;
pub mod preset_menu;

pub use action_list::ActionList;
pub use editor::JsonEditor;
pub use preset_menu::PresetMenu;
