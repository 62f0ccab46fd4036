//! Hooks shared by components.

mod use_debounce;
mod use_shortcut;

pub use use_debounce::use_debounce;
pub use use_shortcut::use_ctrl_enter;
