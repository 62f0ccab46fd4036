//! The views of a run: moments, the control-plane picture, swimlanes, level
//! vs edge lanes, the backoff series and the status grid. Start at
//! [`moments`] for what a view stands at, and [`event_moment`] for an
//! instant inside a pass, where stepping by event stands.
//!
//! Invariant: a view reads the run's record ([`crate::Timeline`]), or
//! replays the engine through its public interface ([`crate::Simulation`],
//! as `PictureReplay` and `PassViews` do). Nothing below imports a view
//! (the `layering` test checks).

pub(crate) mod backoff_series;
pub(crate) mod event_moment;
pub(crate) mod key_status;
#[cfg(feature = "level-edge")]
pub(crate) mod lanes;
pub(crate) mod moments;
pub mod picture;
pub(crate) mod status;
pub(crate) mod swimlanes;
