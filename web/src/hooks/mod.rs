//! Hooks shared by components.

mod use_debounce;

pub use use_debounce::use_debounce;
