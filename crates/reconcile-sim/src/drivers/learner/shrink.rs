//! Shrinking a failing schedule: fewest faults first, then the earliest
//! points. Start at [`Shrinking`].
//!
//! Each candidate is run again, and kept only when the same property
//! still breaks: a schedule is never reported smaller than it is.

use super::schedule::{Placed, Schedule};
use super::search::Outcome;

/// The most runs shrinking may take.
pub const MAX_SHRINK_RUNS: usize = 300;

/// A shrunk schedule and its failing run.
pub struct Shrunk {
    pub schedule: Schedule,
    pub outcome: Outcome,
    /// The runs it took.
    pub runs: usize,
}

/// Shrinking, one run at a time: [`Shrinking::next`] names the candidate
/// to run and [`Shrinking::record`] takes its outcome. The caller runs it,
/// so a controller that loads asynchronously can be shrunk too.
pub struct Shrinking {
    property: &'static str,
    shrunk: Shrunk,
    /// The candidates smaller than the shrunk schedule, the next last.
    pending: Vec<Schedule>,
}

impl Shrinking {
    /// Starts from `schedule`, whose run `outcome` broke `property`.
    pub fn new(schedule: Schedule, outcome: Outcome, property: &'static str) -> Self {
        let pending = candidates(&schedule);
        Self {
            property,
            shrunk: Shrunk {
                schedule,
                outcome,
                runs: 0,
            },
            pending,
        }
    }

    /// The candidate to run next, or `None` once none is left or the
    /// runs are spent.
    pub fn next(&self) -> Option<&Schedule> {
        if self.shrunk.runs >= MAX_SHRINK_RUNS {
            return None;
        }
        self.pending.last()
    }

    /// The outcome of the candidate [`Shrinking::next`] named: kept when
    /// the same property still breaks, and then shrunk further from.
    pub fn record(&mut self, outcome: Outcome) {
        let Some(candidate) = self.pending.pop() else {
            return;
        };
        self.shrunk.runs += 1;
        if outcome.broken().is_some_and(|p| p.name == self.property) {
            self.pending = candidates(&candidate);
            self.shrunk.schedule = candidate;
            self.shrunk.outcome = outcome;
        }
    }

    /// The property that broke.
    pub fn property(&self) -> &'static str {
        self.property
    }

    /// The smallest failing schedule found so far.
    pub fn shrunk(&self) -> &Shrunk {
        &self.shrunk
    }
}

/// The schedules tried after `schedule`, in order: each fault dropped,
/// then each fault moved earlier, point by point. Reversed, so the next
/// is last.
fn candidates(schedule: &Schedule) -> Vec<Schedule> {
    let faults = &schedule.0;
    let fewer = (0..faults.len()).map(|index| {
        let mut fewer = faults.clone();
        fewer.remove(index);
        Schedule::of(fewer)
    });
    let earlier = (0..faults.len()).flat_map(|index| {
        let Placed { at, fault } = faults[index];
        (0..at).map(move |point| {
            let mut moved = faults.clone();
            moved[index] = Placed { at: point, fault };
            Schedule::of(moved)
        })
    });
    let mut all: Vec<Schedule> = fewer.chain(earlier).collect();
    all.reverse();
    all
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::learner::schedule::Fault;

    fn at(at: usize, fault: Fault) -> Placed {
        Placed { at, fault }
    }

    #[test]
    fn candidates_drop_each_fault_then_move_each_earlier_point_by_point() {
        let schedule = Schedule::of(vec![at(0, Fault::Unavailable), at(2, Fault::CrashBefore)]);
        let mut order = candidates(&schedule);
        order.reverse();
        let expected = vec![
            Schedule::of(vec![at(2, Fault::CrashBefore)]),
            Schedule::of(vec![at(0, Fault::Unavailable)]),
            Schedule::of(vec![at(0, Fault::Unavailable), at(0, Fault::CrashBefore)]),
            Schedule::of(vec![at(0, Fault::Unavailable), at(1, Fault::CrashBefore)]),
        ];
        assert_eq!(order, expected);
    }
}
