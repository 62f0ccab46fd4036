//! The control-plane picture at the simulation's cursor: computed by
//! `reconcile_sim::picture` only while its view is open, once per move.
//! Its plots (the swimlanes and the backoff series) are computed once per
//! run, the first time the view is open for it.

use std::cell::RefCell;

use reconcile_sim::picture::{Picture, PictureReplay, Position};
use reconcile_sim::{BackoffPolicy, BackoffSeries, PassViews, Swimlanes, Timeline};

use crate::shared::Shared;

#[derive(Clone, Default, PartialEq)]
pub struct PictureState {
    /// The view's `<details>` is open.
    pub open: bool,
    /// The picture at the cursor, while open; `None` past the event log's cap.
    pub shown: Option<Shared<Picture>>,
    /// The run replayed for its pictures; it stays where it stopped (a memo
    /// of a deterministic run, hence the shared `RefCell`).
    replay: Option<Shared<RefCell<PictureReplay>>>,
    /// The run's swimlanes and backoff series, while open.
    pub plots: Option<Shared<Plots>>,
}

/// The plots of one run.
pub struct Plots {
    pub lanes: Swimlanes,
    pub backoff: BackoffSeries,
}

/// Lanes drawn at most; the rest are counted ("…and N more objects").
pub const LANES_SHOWN: usize = 16;

impl PictureState {
    /// The run changed: its replay starts again, from `views`' scenario and settings.
    pub fn reset(&mut self) {
        self.replay = None;
        self.shown = None;
        self.plots = None;
    }

    /// The plots of `timeline` (run under `backoff`), when open and not computed yet.
    pub fn refresh_plots(&mut self, timeline: Option<&Timeline>, backoff: &BackoffPolicy) {
        let (true, None, Some(timeline)) = (self.open, &self.plots, timeline) else {
            return;
        };
        self.plots = Some(Shared::new(Plots {
            lanes: Swimlanes::of(timeline, LANES_SHOWN),
            backoff: BackoffSeries::of(timeline, backoff),
        }));
    }

    /// The picture at `position` of the run `views` replays, when open.
    pub fn refresh(&mut self, views: Option<&RefCell<PassViews>>, position: Option<Position>) {
        self.shown = None;
        let (true, Some(views), Some(position)) = (self.open, views, position) else {
            return;
        };
        let replay = self
            .replay
            .get_or_insert_with(|| Shared::new(RefCell::new(views.borrow().pictures())));
        self.shown = replay.borrow_mut().at(position).map(Shared::from);
    }
}

/// Only whether it is open: a picture's whole state would be a lot of bytes
/// of formatting code in the bundle for a debug print.
impl std::fmt::Debug for PictureState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PictureState")
            .field("open", &self.open)
            .finish_non_exhaustive()
    }
}
