//! A check, one run at a time. Start at [`CheckSession`].
//!
//! [`super::search::check`] runs it in one go with a Rust controller. A
//! learner's JS module loads asynchronously, and a crash needs a fresh
//! one: so the wasm binding runs each schedule itself, and fetches fresh
//! modules, and reports progress, between runs.

use std::collections::BTreeSet;

use reconcile_core::stable::SplitMix64;

use super::schedule::{single_faults, Fault, Placed, Schedule};
use super::search::{Budget, CheckReport, Counterexample, Outcome};
use super::shrink::Shrinking;

/// The check that tries to break a controller, driven by its caller:
/// run [`CheckSession::next`]'s schedule, give its outcome to
/// [`CheckSession::record`], until `next` is `None`; then
/// [`CheckSession::report`]. Deterministic, as the search is.
pub struct CheckSession {
    budget: Budget,
    seed: u64,
    stage: Stage,
    /// The schedules run while exploring, in order.
    explored: Vec<Schedule>,
    /// The requests of the fault-free run: the points of single faults.
    requests: usize,
}

enum Stage {
    /// Running schedules until one breaks a property or the budget is
    /// spent. `last` is the latest outcome; `upcoming`, the next schedule.
    Exploring {
        candidates: Option<Candidates>,
        last: Option<Outcome>,
        upcoming: Option<Schedule>,
    },
    /// Shrinking the schedule that broke a property.
    Shrinking(Shrinking),
}

impl CheckSession {
    /// A check of at most `budget` schedules, the random ones drawn from
    /// `seed`. The first schedule is the fault-free one.
    pub fn new(budget: Budget, seed: u64) -> Self {
        Self {
            budget,
            seed,
            stage: Stage::Exploring {
                candidates: None,
                last: None,
                upcoming: Some(Schedule::none()),
            },
            explored: Vec::new(),
            requests: 0,
        }
    }

    /// The schedule to run next, or `None` when the check is over.
    pub fn next(&self) -> Option<&Schedule> {
        match &self.stage {
            Stage::Exploring { upcoming, .. } => upcoming.as_ref(),
            Stage::Shrinking(shrinking) => shrinking.next(),
        }
    }

    /// The outcome of the schedule [`CheckSession::next`] named.
    pub fn record(&mut self, outcome: Outcome) {
        match &mut self.stage {
            Stage::Shrinking(shrinking) => shrinking.record(outcome),
            Stage::Exploring {
                candidates,
                last,
                upcoming,
            } => {
                let Some(schedule) = upcoming.take() else {
                    return;
                };
                let candidates = candidates.get_or_insert_with(|| {
                    self.requests = outcome.run.requests();
                    Candidates::new(self.requests, self.seed)
                });
                self.explored.push(schedule.clone());
                if let Some(property) = outcome.broken().map(|p| p.name) {
                    self.stage = Stage::Shrinking(Shrinking::new(schedule, outcome, property));
                    return;
                }
                if self.explored.len() < self.budget.schedules.max(1) {
                    *upcoming = candidates.next_new();
                }
                *last = Some(outcome);
            }
        }
    }

    /// The schedules explored so far, the fault-free one included.
    pub fn explored(&self) -> usize {
        self.explored.len()
    }

    /// What the check found; if it stopped early, what it found so far.
    /// Before any run it has not passed.
    pub fn report(self) -> CheckReport {
        let schedules_explored = self.explored.len();
        let shrinking = match self.stage {
            Stage::Shrinking(shrinking) => shrinking,
            Stage::Exploring { last, .. } => {
                return CheckReport {
                    passed: last.is_some(),
                    schedules_explored,
                    properties: last.map(|o| o.properties.to_vec()).unwrap_or_default(),
                    counterexample: None,
                    fault_free_requests: self.requests,
                    explored: self.explored,
                }
            }
        };
        let broken = shrinking.property();
        let shrunk = shrinking.shrunk();
        let detail = shrunk.outcome.broken().map(|p| p.detail.clone());
        let story = super::story::tell(&shrunk.schedule, shrunk.outcome.fired());
        CheckReport {
            passed: false,
            schedules_explored,
            properties: shrunk.outcome.properties.to_vec(),
            counterexample: Some(Counterexample {
                property: broken,
                detail: detail.unwrap_or_default(),
                schedule: shrunk.schedule.clone(),
                story,
                record: shrunk.outcome.run.run().record().to_vec(),
                shrink_runs: shrunk.runs,
            }),
            fault_free_requests: self.requests,
            explored: self.explored,
        }
    }
}

/// The schedules to try, in order: single faults, pairs, then random.
struct Candidates {
    singles: Vec<Schedule>,
    next_single: usize,
    pair: (usize, usize),
    rng: SplitMix64,
    /// The points random faults are drawn from.
    points: usize,
    seen: BTreeSet<Schedule>,
}

impl Candidates {
    fn new(requests: usize, seed: u64) -> Self {
        Self {
            singles: single_faults(requests),
            next_single: 0,
            pair: (0, 1),
            rng: SplitMix64::new(seed),
            points: requests.saturating_mul(2).saturating_add(2),
            seen: BTreeSet::from([Schedule::none()]),
        }
    }

    /// The next schedule not yet run; `None` when none is left to draw.
    fn next_new(&mut self) -> Option<Schedule> {
        for _ in 0..10_000 {
            let candidate = self.next_candidate();
            if self.seen.insert(candidate.clone()) {
                return Some(candidate);
            }
        }
        None
    }

    fn next_candidate(&mut self) -> Schedule {
        if let Some(single) = self.singles.get(self.next_single) {
            self.next_single += 1;
            return single.clone();
        }
        let (i, j) = self.pair;
        if let (Some(a), Some(b)) = (self.singles.get(i), self.singles.get(j)) {
            self.pair = if j + 1 < self.singles.len() {
                (i, j + 1)
            } else {
                (i + 1, i + 2)
            };
            return Schedule::of(a.0.iter().chain(&b.0).copied().collect());
        }
        self.random()
    }

    fn random(&mut self) -> Schedule {
        let count = 1 + self.draw(3);
        let faults = (0..count)
            .map(|_| Placed {
                at: self.draw(self.points + 1),
                fault: Fault::ALL[self.draw(Fault::ALL.len())],
            })
            .collect();
        Schedule::of(faults)
    }

    /// A number below `below`.
    fn draw(&mut self, below: usize) -> usize {
        let below = u64::try_from(below.max(1)).unwrap_or(u64::MAX);
        usize::try_from(self.rng.next_u64() % below).unwrap_or(0)
    }
}
