//! The pane's hooks.

mod use_learner_run;

pub use use_learner_run::{use_learner_run, LearnerRun};
