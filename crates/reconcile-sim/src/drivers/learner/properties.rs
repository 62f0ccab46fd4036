//! The properties a driven run is checked for, named as issue 30 names
//! them. Start at [`check`].
//!
//! - **Eventually stable** (Anvil's "eventually stable reconciliation"):
//!   the run ends at the goal, and the controller changed nothing for
//!   three resync periods (or nothing more could happen).
//! - **Safe**: the exercise's safety rule held at every point checked:
//!   each reconcile's start, each answer, the end.
//! - **Idempotent once converged**: a reconcile that starts on a converged
//!   world, in the store and in its cache, sends no write.

use serde::Serialize;

use super::call::CallError;
use super::run::{DrivenRun, RunEnd};
use crate::{format_millis, NotConvergingReason, Verdict};

/// One property, and whether the run kept it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Property {
    pub name: &'static str,
    pub held: bool,
    /// Why it broke, in plain words; empty when it held.
    pub detail: String,
    /// The pass (from 1) at whose end it had broken, for the views of a
    /// replay; `None` when it held, or broke at the run's end.
    #[serde(skip)]
    #[cfg_attr(feature = "ts", ts(skip))]
    pub pass: Option<usize>,
}

pub const EVENTUALLY_STABLE: &str = "eventually stable";
pub const SAFE: &str = "safe";
pub const IDEMPOTENT_ONCE_CONVERGED: &str = "idempotent once converged";

/// The three properties of a run that has ended.
pub fn check(run: &DrivenRun) -> [Property; 3] {
    [stable(run), safe(run), idempotent(run)]
}

/// The first of `properties` that broke: the one a check reports.
pub fn first_broken(properties: &[Property]) -> Option<&Property> {
    properties.iter().find(|p| !p.held)
}

/// A property that broke with `broke`'s words, at its pass (`None`: the end).
fn property(name: &'static str, broke: Option<(String, Option<usize>)>) -> Property {
    let held = broke.is_none();
    let (detail, pass) = broke.unwrap_or_default();
    Property {
        name,
        held,
        detail,
        pass,
    }
}

fn stable(run: &DrivenRun) -> Property {
    let broke = match run.end() {
        None => Some("the run has not ended".to_owned()),
        Some(RunEnd::Limit(verdict)) => Some(format!(
            "the run never settled: {}",
            unsettled(run, verdict)
        )),
        Some(_) if !run.goal_holds_now() => Some(format!(
            "the run settled away from the goal: {}",
            run.exercise().goal_text
        )),
        Some(_) => None,
    };
    property(EVENTUALLY_STABLE, broke.map(|detail| (detail, None)))
}

/// Why a run that reached a limit never settled, in the property's words:
/// what the controller did, not what the contract would plan (the
/// engine's verdict speaks of the contract's actions).
fn unsettled(run: &DrivenRun, verdict: &Verdict) -> String {
    let Verdict::NotConverging { reason } = verdict else {
        return verdict.to_string();
    };
    match reason {
        NotConvergingReason::PassLimit { limit } if run.goal_holds_now() => format!(
            "in {limit} passes, the pass limit, the controller never went three resync periods ({}) without a write of its own",
            format_millis(run.exercise().quiet_ms())
        ),
        NotConvergingReason::PassLimit { limit } => format!(
            "after {limit} passes, the pass limit, the goal still did not hold: {}",
            run.exercise().goal_text.trim_end_matches('.')
        ),
        NotConvergingReason::StatusHotLoop { field, passes } => format!(
            "each reconcile wrote a new {field} to the custom resource, and that \
             write's watch event started the next one ({passes} passes in a row)"
        ),
        NotConvergingReason::ApplyConflict { object, message } => {
            format!("every apply of {object} was refused with 409 Conflict ({message})")
        }
        // The engine ends a driven run at a limit for the reasons above only.
        other => other.to_string(),
    }
}

fn safe(run: &DrivenRun) -> Property {
    let broke = run
        .breach()
        .map(|(detail, pass)| (detail.to_owned(), Some(pass)));
    property(SAFE, broke.or_else(|| blind_retry(run)))
}

/// A write sent again, unchanged, right after it got 409 Conflict: its
/// resourceVersion is stale and can only get 409 again, since the
/// server's only grows (`OptimisticLockErrorMsg`, apiserver `store.go`).
fn blind_retry(run: &DrivenRun) -> Option<(String, Option<usize>)> {
    run.record().iter().find_map(|reconcile| {
        let writes: Vec<_> = reconcile.writes().collect();
        writes.windows(2).find_map(|pair| {
            let conflict = matches!(
                &pair[0].answer,
                Err(CallError::Api(failure)) if failure.status == 409 && failure.reason == "Conflict"
            );
            (conflict && pair[0].call == pair[1].call).then(|| {
                let detail = format!(
                    "reconcile {} of {} sent client.{} again unchanged after 409 Conflict: a stale resourceVersion never succeeds",
                    reconcile.pass,
                    reconcile.name,
                    pair[1].call.method()
                );
                (detail, Some(reconcile.pass))
            })
        })
    })
}

fn idempotent(run: &DrivenRun) -> Property {
    let broke = run
        .record()
        .iter()
        .filter(|reconcile| reconcile.converged_at_start)
        .find_map(|reconcile| {
            let write = reconcile.writes().next()?;
            let detail = format!(
                "reconcile {} of {} started converged, yet called client.{}",
                reconcile.pass,
                reconcile.name,
                write.call.method()
            );
            Some((detail, Some(reconcile.pass)))
        });
    property(IDEMPOTENT_ONCE_CONVERGED, broke)
}
