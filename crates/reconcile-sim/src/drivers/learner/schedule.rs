//! Fault schedules: a few faults, each placed at one of the controller's
//! own requests. Start at [`Schedule`].
//!
//! A point is the index of a request the controller sends (a write or a
//! live read; cache reads cost nothing and are not points). So one
//! schedule means the same thing for any controller: "a 503 at its second
//! request". A fault whose point the run never reaches does not fire;
//! the world faults fire at the latest when the run would end quietly.

use serde::{Deserialize, Serialize};

use crate::workqueue::Millis;

/// How late the cache sees the controller's own write under
/// [`Fault::CacheLag`]: longer than one resync period (1 s in the
/// exercises), so a resync reconciles on the stale cache.
pub const CACHE_LAG_MS: Millis = 1500;

/// One kind of fault, as issue 30 lists them.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Fault {
    /// The process crashes just before the request goes out.
    CrashBefore,
    /// The server applies the request; the process crashes before it
    /// reads the response.
    CrashAfterApplied,
    /// The process crashes right after it read the response: at its next
    /// request, or as its reconcile returns.
    CrashAfterResponse,
    /// 503 ServiceUnavailable; nothing is applied.
    Unavailable,
    /// The server applies the request; the response is lost, and the
    /// client sees 504 Timeout.
    LostResponse,
    /// Right after the request, every watch breaks and resumes from its
    /// last resourceVersion.
    WatchBroken,
    /// Right after the request, the API server restarts: 410 Gone, then a
    /// re-list.
    ApiServerRestart,
    /// The request's own watch events reach the cache [`CACHE_LAG_MS`] late.
    CacheLag,
    /// Just before the request, another writer updates the object it names.
    OtherWriter,
    /// Just before the request, someone deletes the custom resource being
    /// reconciled.
    CustomResourceDeleted,
}

/// When a fault acts, relative to its request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Moment {
    /// Before the request goes out (or as it is answered).
    Before,
    /// After its answer.
    After,
}

impl Fault {
    /// Every fault, in the order the search tries them.
    pub const ALL: [Fault; 10] = [
        Fault::CrashBefore,
        Fault::CrashAfterApplied,
        Fault::CrashAfterResponse,
        Fault::Unavailable,
        Fault::LostResponse,
        Fault::WatchBroken,
        Fault::ApiServerRestart,
        Fault::CacheLag,
        Fault::OtherWriter,
        Fault::CustomResourceDeleted,
    ];

    /// When it acts, relative to its request.
    pub fn moment(self) -> Moment {
        match self {
            Fault::CrashAfterResponse | Fault::WatchBroken | Fault::ApiServerRestart => {
                Moment::After
            }
            _ => Moment::Before,
        }
    }

    /// Whether it still fires when the run would end before its point:
    /// faults of the world, not of one request.
    pub fn fires_at_quiet(self) -> bool {
        matches!(
            self,
            Fault::CrashAfterResponse
                | Fault::WatchBroken
                | Fault::ApiServerRestart
                | Fault::CustomResourceDeleted
        )
    }

    /// Whether the controller's process restarts, losing its memory.
    pub fn crashes(self) -> bool {
        matches!(
            self,
            Fault::CrashBefore | Fault::CrashAfterApplied | Fault::CrashAfterResponse
        )
    }

    /// Whether the engine does exactly this, or an approximation
    /// (`docs/design/learner-controllers.md` says why).
    pub fn exact(self) -> bool {
        !matches!(self, Fault::LostResponse | Fault::CrashAfterResponse)
    }
}

/// A fault at request `at` (from 0) of the controller.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Placed {
    pub at: usize,
    pub fault: Fault,
}

/// A short list of placed faults, sorted by point.
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Schedule(pub Vec<Placed>);

impl Schedule {
    /// The fault-free schedule.
    pub fn none() -> Self {
        Self::default()
    }

    /// A schedule of `faults`, sorted.
    pub fn of(mut faults: Vec<Placed>) -> Self {
        faults.sort();
        Self(faults)
    }

    /// How many faults it places.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// Every schedule of one fault for a controller whose fault-free run sent
/// `requests` requests: each fault at each request, and the world's
/// faults also after the last.
pub fn single_faults(requests: usize) -> Vec<Schedule> {
    let mut all = Vec::new();
    for fault in Fault::ALL {
        let last = if fault.fires_at_quiet() {
            requests
        } else {
            requests.saturating_sub(1)
        };
        if requests == 0 && !fault.fires_at_quiet() {
            continue;
        }
        for at in 0..=last {
            all.push(Schedule(vec![Placed { at, fault }]));
        }
    }
    all
}
