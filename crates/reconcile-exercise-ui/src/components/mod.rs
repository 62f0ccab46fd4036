//! The pane's components: they render its state and emit callbacks.

pub mod code_editor;
pub mod controller_view;
pub mod counterexample;
pub mod exercise_pane;

pub use exercise_pane::ExercisePane;
