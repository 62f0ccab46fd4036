//! Shrinking a failing schedule: fewest faults first, then the earliest
//! points. Start at [`shrink`].
//!
//! Each candidate is run again, and kept only when the same property
//! still breaks: a schedule is never reported smaller than it is.

use super::exercise::Exercise;
use super::schedule::{Placed, Schedule};
use super::search::{run_schedule, Factory, Outcome};

/// The most runs shrinking may take.
pub const MAX_SHRINK_RUNS: usize = 300;

/// A shrunk schedule and its failing run.
pub struct Shrunk {
    pub schedule: Schedule,
    pub outcome: Outcome,
    /// The runs it took.
    pub runs: usize,
}

/// Shrinks `schedule`, whose run `outcome` broke `property`.
pub fn shrink(
    exercise: &Exercise,
    factory: Factory<'_>,
    schedule: Schedule,
    outcome: Outcome,
    property: &'static str,
) -> Shrunk {
    let goal = Goal {
        exercise,
        factory,
        property,
    };
    let mut shrunk = Shrunk {
        schedule,
        outcome,
        runs: 0,
    };
    while shrunk.runs < MAX_SHRINK_RUNS && (goal.fewer(&mut shrunk) || goal.earlier(&mut shrunk)) {}
    shrunk
}

/// What a candidate must still do: break `property` on `exercise`.
struct Goal<'g> {
    exercise: &'g Exercise,
    factory: Factory<'g>,
    property: &'static str,
}

impl Goal<'_> {
    /// Runs `candidate`; keeps it when the property still breaks.
    fn holds_for(&self, shrunk: &mut Shrunk, candidate: Schedule) -> bool {
        if shrunk.runs >= MAX_SHRINK_RUNS {
            return false;
        }
        shrunk.runs += 1;
        let outcome = run_schedule(self.exercise, self.factory, &candidate);
        let still = outcome.broken().is_some_and(|p| p.name == self.property);
        if still {
            shrunk.schedule = candidate;
            shrunk.outcome = outcome;
        }
        still
    }

    /// Drops one fault, if the property still breaks without it.
    fn fewer(&self, shrunk: &mut Shrunk) -> bool {
        (0..shrunk.schedule.len()).any(|index| {
            let mut faults = shrunk.schedule.0.clone();
            faults.remove(index);
            self.holds_for(shrunk, Schedule::of(faults))
        })
    }

    /// Moves one fault to the earliest point where the property still breaks.
    fn earlier(&self, shrunk: &mut Shrunk) -> bool {
        (0..shrunk.schedule.len()).any(|index| {
            let Placed { at, fault } = shrunk.schedule.0[index];
            (0..at).any(|point| {
                let mut faults = shrunk.schedule.0.clone();
                faults[index] = Placed { at: point, fault };
                self.holds_for(shrunk, Schedule::of(faults))
            })
        })
    }
}
