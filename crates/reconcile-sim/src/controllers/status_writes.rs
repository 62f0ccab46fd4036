//! The controller's status writes: a named controller behaviour, beyond
//! the seed's contract (`statusWrites`, and `generationChangedPredicate`).
//!
//! The contract's `reconcile` returns actions on objects; it says nothing
//! about the custom resource's own status. Real controllers end a pass by
//! writing it through the `/status` subresource (controller-runtime
//! `client.Status().Update`): `observedGeneration`, the generation the pass
//! reconciled, and conditions. With [`StatusWrites`] set, the simulated
//! controller does the same after the last action of a pass, as one more API
//! request (`action_ms` after the last one), with what it read:
//! - `observedGeneration`: the custom resource's `metadata.generation` in the
//!   cache the pass read;
//! - one condition, `Ready`: `True` (reason `InSync`) when the pass found
//!   nothing to do, `False` (reason `Progressing`) when it sent actions, set
//!   with apimachinery's `meta.SetStatusCondition`
//!   (`staging/src/k8s.io/apimachinery/pkg/api/meta/conditions.go`), which
//!   moves `lastTransitionTime` only when the condition's status changes
//!   ([`set_status_condition`], with `conditions_test.go`'s
//!   `TestSetStatusCondition` ported below);
//! - with [`StatusWrites::WithTimestamp`], also `lastReconcileTime`: the
//!   simulated clock at the write, a new value every pass.
//!
//! The API server's side follows apiextensions-apiserver
//! `pkg/registry/customresource/status_strategy.go` (`PrepareForUpdate`: a
//! PUT to `/status` copies the stored object and takes only its `status`, so
//! `metadata.generation` never moves) and `strategy.go` (`PrepareForUpdate`:
//! only changes outside `metadata` and, with the subresource, `status` bump
//! the generation). A write that changes nothing is not written: no new
//! resourceVersion and no watch event (apiserver `TestNoOpUpdates`).
//!
//! The controller's watch on its custom resource hears its own status writes
//! (controller-runtime's `For` has no predicate unless given one): a written
//! status is an update event, and the key is queued again. With
//! `generationChangedPredicate`, controller-runtime's `GenerationChangedPredicate`
//! (`pkg/predicate/predicate.go`: an update passes only when
//! `ObjectNew.GetGeneration() != ObjectOld.GetGeneration()`) filters the
//! event out; the cache still takes it.
//!
//! # Guarantees
//! - `statusWrites: "none"` (the default) writes nothing: runs are exactly
//!   what they were without this module.
//! - A status write never changes the custom resource's generation, only its
//!   resourceVersion, and only when the status differs from the stored one.
//! - Without a timestamp the same world gives the same status: after the
//!   world settles, the next status write is a no-op, so the loop ends.
//! - With a timestamp every write is new, so each one wakes the controller
//!   again: three passes that found nothing to do, ran because of a status
//!   write and wrote a new one (with nothing between them but requeues and
//!   failed status writes) end the run with
//!   [`crate::NotConvergingReason::StatusHotLoop`] (nothing else can stop it).
//!
//! - The crate's convergence bound (see the crate's documentation) grows by
//!   one pass per status write that changed the status (its event may bring
//!   one); a timestamp the controller hears has no bound.
//!
//! # Caveats
//! - The write is an update of `/status` carrying the resourceVersion the
//!   pass read (controller-runtime's `Status().Update`): a
//!   pass that read a stale cache (the watch event of the previous pass's
//!   status write not arrived yet) gets 409 Conflict, fails and is requeued.
//!   A merge patch without an optimistic lock (`client.MergeFrom`,
//!   `pkg/client/patch.go`) would not conflict; it is not modelled.
//! - The status is written only by a pass that got through all its actions:
//!   a failed request returns the error first (the usual `return err`), and a
//!   crash loses it. A failed status write (503, or 409 when the cache was
//!   stale) fails the pass like any request.
//! - `lastReconcileTime` is written to the millisecond of the simulated clock,
//!   as a `metav1.MicroTime` (`micro_time.go`, `RFC3339Micro`) or a string
//!   would be. A `metav1.Time` is written to the second (`time.go`
//!   `Time.MarshalJSON`, `time.RFC3339`): two passes within one second would
//!   write the same bytes, and the second write would be a no-op, so such a
//!   loop stops after a burst; that is not modelled. The simulated clock
//!   starts at [`SIM_EPOCH`].
//! - A condition's `lastTransitionTime` is written to the millisecond too;
//!   upstream's `metav1.Time` keeps whole seconds.
//! - The conditions are derived from the plan of the pass (what the cache
//!   showed), not from the objects' own status (readiness of pods is not
//!   modelled).

use reconcile_core::json::{Json, Number};
use serde::Serialize;

use super::client::Millis;
use super::client::{civil_from_days, days_from_civil};
use super::outcome::ActionResult;

/// What the controller writes to its custom resource's status after each pass.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "kebab-case")]
pub enum StatusWrites {
    /// Nothing (the seed's contract).
    #[default]
    None,
    /// `observedGeneration` and a `Ready` condition set with `SetStatusCondition`.
    ObservedGeneration,
    /// The same, plus `lastReconcileTime`: a new value every pass.
    WithTimestamp,
}

super::client::read_unit_names!(StatusWrites {
    None = "none",
    ObservedGeneration = "observed-generation",
    WithTimestamp = "with-timestamp",
});

/// The status write of one pass, as the timeline shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct StatusWrite {
    /// The status the controller sent.
    pub status: Json,
    /// `applied` (written: a new resourceVersion and a watch event),
    /// `unchanged` (the same status: nothing written), or `failed`.
    #[serde(flatten)]
    pub result: ActionResult,
}

/// The simulated clock's zero, as status timestamps show it.
pub const SIM_EPOCH: &str = "2026-01-01T00:00:00Z";
/// Days from 1970-01-01 to [`SIM_EPOCH`].
const SIM_EPOCH_DAYS: i64 = 20_454;

/// `metav1.Condition`, the fields the playground sets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Condition {
    pub kind: String,
    pub status: String,
    pub reason: String,
    pub message: String,
    /// Simulated time; `None` is Go's zero time.
    pub last_transition_time: Option<Millis>,
    pub observed_generation: u64,
}

/// apimachinery `meta.SetStatusCondition`: a new type is appended (its
/// `lastTransitionTime` set to `now` if unset); an existing one takes every
/// field of `new`, but its `lastTransitionTime` moves (to `new`'s, else
/// `now`) only when the status changes.
pub fn set_status_condition(conditions: &mut Vec<Condition>, new: Condition, now: Millis) {
    let Some(existing) = conditions.iter_mut().find(|c| c.kind == new.kind) else {
        let at = new.last_transition_time.unwrap_or(now);
        conditions.push(Condition {
            last_transition_time: Some(at),
            ..new
        });
        return;
    };
    if existing.status != new.status {
        existing.status = new.status;
        existing.last_transition_time = Some(new.last_transition_time.unwrap_or(now));
    }
    existing.reason = new.reason;
    existing.message = new.message;
    existing.observed_generation = new.observed_generation;
}

/// What a pass knows when it writes status: the status it read, and what it found.
#[derive(Debug, Clone)]
pub(crate) struct StatusInput {
    /// The custom resource's status in the cache the pass read.
    pub read_status: Option<Json>,
    /// Its generation there: what this pass reconciled.
    pub generation: u64,
    /// Its resourceVersion there, which the update carries.
    pub resource_version: u64,
    /// The pass found nothing to do.
    pub in_sync: bool,
}

/// The status a pass writes at `now`, under `mode` (not `None`).
pub(crate) fn status_after_pass(mode: StatusWrites, input: &StatusInput, now: Millis) -> Json {
    let mut conditions = input
        .read_status
        .as_ref()
        .and_then(|s| s.get("conditions"))
        .and_then(Json::as_array)
        .map(|items| items.iter().filter_map(condition_from_json).collect())
        .unwrap_or_default();
    let (status, reason, message) = if input.in_sync {
        ("True", "InSync", "every object matches the desired state")
    } else {
        (
            "False",
            "Progressing",
            "objects are being created, updated or deleted",
        )
    };
    let ready = Condition {
        kind: "Ready".to_owned(),
        status: status.to_owned(),
        reason: reason.to_owned(),
        message: message.to_owned(),
        last_transition_time: None,
        observed_generation: input.generation,
    };
    set_status_condition(&mut conditions, ready, now);
    let mut members: Vec<(Box<str>, Json)> = vec![
        ("observedGeneration".into(), number(input.generation)),
        (
            "conditions".into(),
            Json::array(conditions.iter().map(condition_to_json).collect()),
        ),
    ];
    if mode == StatusWrites::WithTimestamp {
        members.push(("lastReconcileTime".into(), Json::string(&micro_time(now))));
    }
    Json::object(members)
}

/// Counts the passes in a row that only answered status writes.
#[derive(Debug, Clone, Default)]
pub(crate) struct HotLoopWatch {
    written: usize,
}

/// What one finished pass was, as far as a hot loop is concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PassKind {
    /// Ran on a status write, found nothing to do, and wrote a new status.
    AnsweredItsStatus,
    /// Found nothing to do, ran on a requeue or wrote nothing new (a failed
    /// or conflicting status write): neither a loop nor its end.
    Neutral,
    /// Anything else: the world or the spec moved.
    Other,
}

/// Passes that answered their own status write with a new one, with only
/// neutral passes between them: a loop nothing will stop.
pub(crate) const HOT_LOOP_PASSES: usize = 3;

impl HotLoopWatch {
    /// Notes a finished pass; true once the loop is certain.
    pub(crate) fn note(&mut self, pass: PassKind) -> bool {
        match pass {
            PassKind::AnsweredItsStatus => self.written += 1,
            PassKind::Neutral => {}
            PassKind::Other => self.written = 0,
        }
        self.written >= HOT_LOOP_PASSES
    }

    pub(crate) fn passes(&self) -> usize {
        self.written
    }
}

fn number(n: u64) -> Json {
    Json::Number(Number::Unsigned(n))
}

fn condition_to_json(c: &Condition) -> Json {
    let time = c
        .last_transition_time
        .map_or(Json::Null, |t| Json::string(&micro_time(t)));
    Json::object(vec![
        ("type".into(), Json::string(&c.kind)),
        ("status".into(), Json::string(&c.status)),
        ("reason".into(), Json::string(&c.reason)),
        ("message".into(), Json::string(&c.message)),
        ("lastTransitionTime".into(), time),
        ("observedGeneration".into(), number(c.observed_generation)),
    ])
}

fn condition_from_json(value: &Json) -> Option<Condition> {
    let text = |name: &str| value.get(name).and_then(Json::as_str).map(str::to_owned);
    Some(Condition {
        kind: text("type")?,
        status: text("status").unwrap_or_default(),
        reason: text("reason").unwrap_or_default(),
        message: text("message").unwrap_or_default(),
        last_transition_time: value
            .get("lastTransitionTime")
            .and_then(Json::as_str)
            .and_then(parse_rfc3339),
        observed_generation: match value.get("observedGeneration") {
            Some(Json::Number(Number::Unsigned(n))) => *n,
            _ => 0,
        },
    })
}

/// `metav1.MicroTime` as written (`RFC3339Micro`: six digits after the seconds).
pub fn micro_time(ms: Millis) -> String {
    let seconds = ms / 1_000;
    let days = i64::try_from(seconds / 86_400).unwrap_or(i64::MAX / 2) + SIM_EPOCH_DAYS;
    let (year, month, day) = civil_from_days(days);
    let rest = seconds % 86_400;
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:06}Z",
        rest / 3_600,
        rest % 3_600 / 60,
        rest % 60,
        (ms % 1_000) * 1_000
    )
}

/// The inverse of [`micro_time`], for timestamps it wrote.
fn parse_rfc3339(text: &str) -> Option<Millis> {
    let (date, time) = text.strip_suffix('Z')?.split_once('T')?;
    let mut date = date.splitn(3, '-').map(str::parse::<i64>);
    let (year, month, day) = (date.next()?.ok()?, date.next()?.ok()?, date.next()?.ok()?);
    let (clock, fraction) = time.split_once('.').unwrap_or((time, "0"));
    let mut clock = clock.splitn(3, ':').map(str::parse::<u64>);
    let (h, m, s) = (
        clock.next()?.ok()?,
        clock.next()?.ok()?,
        clock.next()?.ok()?,
    );
    let micros: u64 = format!("{fraction:0<6}").get(..6)?.parse().ok()?;
    let days = u64::try_from(days_from_civil(year, month, day) - SIM_EPOCH_DAYS).ok()?;
    Some(((days * 86_400 + h * 3_600 + m * 60 + s) * 1_000) + micros / 1_000)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn condition(kind: &str, status: &str, at: Option<Millis>) -> Condition {
        Condition {
            kind: kind.to_owned(),
            status: status.to_owned(),
            reason: String::new(),
            message: String::new(),
            last_transition_time: at,
            observed_generation: 0,
        }
    }

    fn with(c: Condition, reason: &str, message: &str, generation: u64) -> Condition {
        Condition {
            reason: reason.to_owned(),
            message: message.to_owned(),
            observed_generation: generation,
            ..c
        }
    }

    const ONE_HOUR_BEFORE: Millis = 1_000;
    const ONE_HOUR_AFTER: Millis = 7_201_000;
    const NOW: Millis = 3_601_000;

    /// apimachinery `pkg/api/meta/conditions_test.go` `TestSetStatusCondition`,
    /// case "should-add": a new type is appended as given.
    #[test]
    fn test_set_status_condition_should_add() {
        let mut conditions = vec![condition("first", "", None), condition("third", "", None)];
        let second = with(
            condition("second", "True", Some(ONE_HOUR_BEFORE)),
            "reason",
            "message",
            0,
        );
        set_status_condition(&mut conditions, second.clone(), NOW);
        assert_eq!(
            conditions,
            vec![
                condition("first", "", None),
                condition("third", "", None),
                second
            ]
        );
    }

    /// `TestSetStatusCondition`, case "use-supplied-time": a status change
    /// takes the supplied lastTransitionTime.
    #[test]
    fn test_set_status_condition_use_supplied_time() {
        let mut conditions = vec![
            condition("first", "", None),
            condition("second", "False", None),
            condition("third", "", None),
        ];
        let second = with(
            condition("second", "True", Some(ONE_HOUR_BEFORE)),
            "reason",
            "message",
            0,
        );
        set_status_condition(&mut conditions, second.clone(), NOW);
        assert_eq!(conditions[1], second);
    }

    /// `TestSetStatusCondition`, case "update-fields": the same status keeps
    /// its lastTransitionTime (one hour before, not the supplied one hour
    /// after), and takes reason, message and observedGeneration.
    #[test]
    fn test_set_status_condition_update_fields() {
        let mut conditions = vec![
            condition("first", "", None),
            condition("second", "True", Some(ONE_HOUR_BEFORE)),
            condition("third", "", None),
        ];
        let new = with(
            condition("second", "True", Some(ONE_HOUR_AFTER)),
            "reason",
            "message",
            3,
        );
        set_status_condition(&mut conditions, new, NOW);
        assert_eq!(
            conditions[1],
            with(
                condition("second", "True", Some(ONE_HOUR_BEFORE)),
                "reason",
                "message",
                3
            )
        );
    }

    /// `SetStatusCondition`'s doc: a missing time is set to now, on add and on a status change.
    #[test]
    fn an_unset_transition_time_is_now() {
        let mut conditions = Vec::new();
        set_status_condition(&mut conditions, condition("Ready", "False", None), 10);
        assert_eq!(conditions[0].last_transition_time, Some(10));
        set_status_condition(&mut conditions, condition("Ready", "False", None), 20);
        assert_eq!(
            conditions[0].last_transition_time,
            Some(10),
            "same status: kept"
        );
        set_status_condition(&mut conditions, condition("Ready", "True", None), 30);
        assert_eq!(conditions[0].last_transition_time, Some(30), "flipped: now");
    }

    fn input(in_sync: bool, read_status: Option<Json>) -> StatusInput {
        StatusInput {
            read_status,
            generation: 2,
            resource_version: 7,
            in_sync,
        }
    }

    #[test]
    fn without_a_timestamp_the_same_world_gives_the_same_status() {
        let mode = StatusWrites::ObservedGeneration;
        let first = status_after_pass(mode, &input(true, None), 15);
        let again = status_after_pass(mode, &input(true, Some(first.clone())), 40);
        assert_eq!(first, again, "lastTransitionTime stays");
        assert_eq!(first.get("observedGeneration"), Some(&number(2)));
        let flipped = status_after_pass(mode, &input(false, Some(first.clone())), 60);
        assert_ne!(flipped, first);
        let ready = &flipped
            .get("conditions")
            .and_then(Json::as_array)
            .expect("list")[0];
        assert_eq!(
            ready.get("lastTransitionTime").and_then(Json::as_str),
            Some("2026-01-01T00:00:00.060000Z")
        );
    }

    #[test]
    fn with_a_timestamp_every_pass_writes_a_new_status() {
        let mode = StatusWrites::WithTimestamp;
        let first = status_after_pass(mode, &input(true, None), 15);
        let again = status_after_pass(mode, &input(true, Some(first.clone())), 40);
        assert_ne!(first, again);
        assert_eq!(
            again.get("lastReconcileTime").and_then(Json::as_str),
            Some("2026-01-01T00:00:00.040000Z")
        );
    }

    #[test]
    fn timestamps_are_rfc3339_micro_from_the_epoch_and_read_back() {
        assert_eq!(micro_time(0), "2026-01-01T00:00:00.000000Z");
        assert_eq!(
            micro_time(86_400_000 * 59 + 3_723_004),
            "2026-03-01T01:02:03.004000Z"
        );
        for ms in [0, 999, 61_001, 86_400_000 * 400 + 5, 4_000_000_000_000] {
            assert_eq!(parse_rfc3339(&micro_time(ms)), Some(ms), "{ms}");
        }
        assert_eq!(civil_from_days(SIM_EPOCH_DAYS), (2026, 1, 1));
    }
}
