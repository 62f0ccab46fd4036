//! Swimlanes: one lane per object through the moments of a run (the start,
//! each pass, each other actor's event), each cell the object's state in the
//! API server's store then, in the words of the status grid, and what the
//! pass did to it.
//!
//! # Guarantees
//! - One column per moment of [`Timeline::moments`], in order: the same
//!   positions the one cursor moves through.
//! - A cell's state is [`resource_statuses`]' for the store at that moment
//!   ([`Timeline::world_at`]) against the desired state in force then
//!   ([`Timeline::desired_at`]): the status grid's state, so the two never
//!   disagree; `None` where the object is neither desired nor there.
//! - A pass's column notes the action that pass sent for the object, with
//!   what became of it (the timeline's own [`ActionOutcome`]).
//! - Lanes are ordered by the whole run, so they keep their places while
//!   the cursor moves: the objects that are out of sync at some moment
//!   first, by the first such moment, then by name; the others by name.
//!   At most `cap` lanes are kept; `hidden` counts the rest.
//!
//! # Caveats
//! - The store, not the controller's cache: a pass may have read an older
//!   copy (the status grid and the control-plane picture show where).
//! - States compare whole specs, as the status grid does, whatever the
//!   controller's `compare` setting.

use std::ops::Range;

use crate::sorted::SortedMap;
use crate::views::status::{resource_statuses, SyncState};
use crate::{ActionOutcome, ActionResult, Moment, Timeline};

/// One cell of a lane.
#[derive(Debug, Clone, PartialEq)]
pub struct SwimCell {
    /// `None`: neither desired nor in the store.
    pub state: Option<SyncState>,
    /// The action this column's pass sent for the object, if any.
    pub action: Option<ActionOutcome>,
}

impl SwimCell {
    /// The state in words, never a colour alone: "in sync", "not there".
    pub fn word(&self) -> &'static str {
        self.state.map_or("not there", SyncState::label)
    }

    /// The action in a few words: "CREATE ok", "UPDATE failed 503".
    pub fn action_words(&self) -> Option<String> {
        let outcome = self.action.as_ref()?;
        let result = match &outcome.result {
            ActionResult::Applied => "ok".to_owned(),
            ActionResult::AlreadyTerminating | ActionResult::Unchanged => "no-op".to_owned(),
            ActionResult::AlreadyGone => "404, done".to_owned(),
            ActionResult::Failed { code, .. } => format!("failed {code}"),
            ActionResult::NotAttempted => "not sent".to_owned(),
            ActionResult::LostInCrash => "lost".to_owned(),
        };
        Some(format!("{} {result}", outcome.action.kind.as_str()))
    }
}

/// One object's lane: a cell per column.
#[derive(Debug, Clone, PartialEq)]
pub struct SwimLane {
    pub name: String,
    pub cells: Vec<SwimCell>,
}

/// The lanes of a whole run.
#[derive(Debug, Clone, PartialEq)]
pub struct Swimlanes {
    /// The moment of each column: [`Timeline::moments`].
    pub columns: Vec<Moment>,
    pub lanes: Vec<SwimLane>,
    /// Objects left out past the cap.
    pub hidden: usize,
}

impl Swimlanes {
    /// The lanes of `timeline`, at most `cap` of them.
    pub fn of(timeline: &Timeline, cap: usize) -> Self {
        let columns = timeline.moments.clone();
        let states: Vec<Vec<(String, SyncState)>> = columns
            .iter()
            .map(|moment| {
                let desired = timeline.desired_at(*moment);
                resource_statuses(&desired, timeline.world_at(*moment), &[])
                    .into_iter()
                    .map(|status| (status.name, status.state))
                    .collect()
            })
            .collect();
        // Per object (by name), the first column where it is out of sync, or never.
        let mut first_out: SortedMap<&str, usize> = SortedMap::new();
        for (column, statuses) in states.iter().enumerate() {
            for (name, state) in statuses {
                let first = first_out.entry(name.as_str()).or_insert(usize::MAX);
                if *state != SyncState::InSync {
                    *first = (*first).min(column);
                }
            }
        }
        // By that column, then by name: one pass per column keeps name order
        // (a sort would cost the page's bundle more than this).
        let mut order: Vec<&str> = Vec::with_capacity(cap.min(first_out.len()));
        for column in (0..columns.len()).chain([usize::MAX]) {
            if order.len() == cap {
                break;
            }
            let at = first_out.iter().filter(|(_, first)| **first == column);
            order.extend(at.map(|(name, _)| *name).take(cap - order.len()));
        }
        let hidden = first_out.len() - order.len();
        let lanes = order
            .into_iter()
            .map(|name| SwimLane {
                name: name.to_owned(),
                cells: columns
                    .iter()
                    .zip(&states)
                    .map(|(moment, statuses)| SwimCell {
                        // Sorted by name, as `resource_statuses` gives them.
                        state: statuses
                            .binary_search_by(|(n, _)| n.as_str().cmp(name))
                            .ok()
                            .map(|i| statuses[i].1),
                        action: action_of(timeline, *moment, name),
                    })
                    .collect(),
            })
            .collect();
        Self {
            columns,
            lanes,
            hidden,
        }
    }
}

/// The action the pass of `moment` sent for `name`.
fn action_of(timeline: &Timeline, moment: Moment, name: &str) -> Option<ActionOutcome> {
    let Moment::AfterPass(pass) = moment else {
        return None;
    };
    let pass = timeline.passes.get(pass.checked_sub(1)?)?;
    pass.actions
        .iter()
        .find(|outcome| &*outcome.action.name == name)
        .cloned()
}

/// The `width` columns to draw when the run is revealed up to position
/// `revealed` and the cursor is at `cursor`: the latest ones, or from the
/// cursor on when it went back further.
pub fn column_window(cursor: usize, revealed: usize, width: usize) -> Range<usize> {
    let end = revealed + 1;
    let start = end.saturating_sub(width.max(1)).min(cursor);
    start..end.min(start + width.max(1))
}

/// How a moment is named in a lane's column head: "start", "pass 2", or the event.
pub fn column_label(timeline: &Timeline, moment: Moment) -> String {
    match moment {
        Moment::Start => "start".to_owned(),
        Moment::AfterPass(pass) => format!("pass {pass}"),
        Moment::AfterActorEvent(i) => timeline
            .actor_events
            .get(i)
            .map_or_else(String::new, |e| e.event.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_window_ends_at_the_revealed_column_unless_the_cursor_went_back() {
        assert_eq!(column_window(3, 3, 10), 0..4);
        assert_eq!(column_window(20, 20, 10), 11..21);
        assert_eq!(column_window(5, 20, 10), 5..15);
        assert_eq!(column_window(0, 0, 0), 0..1);
    }
}
