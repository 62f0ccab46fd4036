//! Faults a caller places at one point of a driven run: the hooks behind
//! issue 30's fault schedules. Start at [`Injection`].
//!
//! The run's own faults (`failureRate`, `watchBreakRate`, `crash`, the
//! script) are drawn or placed by pass. A fault schedule places faults by
//! the controller's own requests instead, so one schedule means the same
//! for any controller. Nothing here fires unless a caller arms it, so runs
//! without injections are unchanged.

use std::sync::Arc;

use super::reflector::Kind;
use super::{Engine, Key, Simulation};
use crate::apiserver::{DeleteOptions, PropagationPolicy};
use crate::ownership::ObjectKey;
use crate::workqueue::Millis;
use crate::{Happening, WorldEvent};
use reconcile_core::json::Json;

/// A fault that fires at the controller's next request, or its next step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Injection {
    /// The process crashes before its next step: the next request never
    /// goes out, or the reconcile's result is lost.
    CrashBeforeNextStep,
    /// The next request is refused with 503 and changes nothing.
    Unavailable,
    /// The next request is applied; the process crashes before it reads
    /// the response.
    CrashAfterApplied,
    /// The watch events the next request raises reach the cache `ms`
    /// late; later events on that watch wait behind them, as one stream.
    LagOwnWrite { ms: Millis },
}

/// The injections armed, and the watch delays they left.
#[derive(Debug, Default)]
pub(super) struct Armed {
    next: Vec<Injection>,
    /// The delay the request being answered adds to its events.
    active_lag: Millis,
    /// Per watch: no event is delivered before this (a lagged one first).
    floor: [Option<Millis>; 2],
}

impl Armed {
    /// Whether an event on `kind`'s watch waits for an injected lag.
    pub(super) fn delays(&self, kind: Kind) -> bool {
        self.active_lag > 0 || self.floor[kind as usize].is_some()
    }

    /// Takes the armed injection `wanted` matches, if any.
    pub(super) fn take(&mut self, wanted: impl Fn(&Injection) -> bool) -> Option<Injection> {
        let index = self.next.iter().position(wanted)?;
        Some(self.next.remove(index))
    }
}

impl Engine {
    /// When an event of `kind` sent at `at` reaches the informer: its
    /// latency, plus an injected lag, never before an earlier lagged one.
    pub(super) fn delivery_time(&mut self, kind: Kind, at: Millis, latency: Millis) -> Millis {
        let lag = self.armed.active_lag;
        let due = at.saturating_add(latency).saturating_add(lag);
        let slot = &mut self.armed.floor[kind as usize];
        let due = slot.map_or(due, |floor| due.max(floor));
        if lag > 0 || slot.is_some() {
            *slot = Some(due);
        }
        due
    }

    /// Whether an armed crash ends the pass before its next step.
    pub(super) fn crash_armed(&mut self) -> bool {
        let crash = |i: &Injection| *i == Injection::CrashBeforeNextStep;
        self.armed.take(crash).is_some()
    }

    /// Whether the request about to be answered is refused with 503.
    pub(super) fn unavailable_armed(&mut self) -> bool {
        self.armed.take(|i| *i == Injection::Unavailable).is_some()
    }

    /// Starts the lag armed for the request about to be answered.
    pub(super) fn start_lag(&mut self) {
        let lag = |i: &Injection| matches!(i, Injection::LagOwnWrite { .. });
        if let Some(Injection::LagOwnWrite { ms }) = self.armed.take(lag) {
            self.armed.active_lag = ms;
        }
    }

    pub(super) fn end_lag(&mut self) {
        self.armed.active_lag = 0;
    }

    /// Whether the process crashes right after the request it just sent
    /// was applied: the caller's next step is then a crash.
    pub(super) fn crash_after_applied(&mut self) -> bool {
        let crash = |i: &Injection| *i == Injection::CrashAfterApplied;
        if self.armed.take(crash).is_none() {
            return false;
        }
        self.armed.next.push(Injection::CrashBeforeNextStep);
        true
    }
}

impl Simulation {
    /// Arms `injection` for the controller's next request (or step).
    pub fn inject(&mut self, injection: Injection) {
        self.engine.armed.next.push(injection);
    }

    /// Every watch of the controller breaks now. Each reflector resumes
    /// from its last resourceVersion (client-go `reflector.go`, `watch`),
    /// and the API server replays the missed events from its watch cache.
    pub fn break_watches(&mut self) {
        let now = self.engine.now;
        for kind in [Kind::CustomResource, Kind::Object] {
            if !self.engine.informer.reflector(kind).broken && !self.engine.down {
                self.engine.close_watch(kind, now);
            }
        }
    }

    /// Another actor's event, now: the API server restarts
    /// (`WorldEvent::RestartApiServer`), a drift by another writer, and so on.
    /// Noted in the log as the script's events are.
    pub fn world_event_now(&mut self, event: WorldEvent) {
        let engine = &mut self.engine;
        let now = engine.now;
        let effect = match &event {
            WorldEvent::RestartApiServer => {
                engine.restart_api_server(now);
                "its watch cache starts again; every watch closes".to_owned()
            }
            WorldEvent::Drift { name, path, value } => engine.drift_now(name, path, value),
            _ => "not injected".to_owned(),
        };
        engine.note(now, Happening::ActorEvent { event, effect });
    }

    /// Someone deletes custom resource `name` now, with background
    /// propagation: the garbage collector deletes what it owned.
    pub fn delete_custom_resource_now(&mut self, name: &str) {
        let engine = &mut self.engine;
        let now = engine.now;
        let key: Key = Arc::from(name);
        let object = ObjectKey::CustomResource(Key::clone(&key));
        let options = DeleteOptions {
            propagation_policy: Some(PropagationPolicy::Background),
            ..DeleteOptions::default()
        };
        let effect = match engine.delete_key(&object, &options, now) {
            Ok(Some(change)) => {
                engine.custom_resource_event(now, &key, change, false);
                format!("custom resource {name} deleted")
            }
            Ok(None) => "already being deleted".to_owned(),
            Err(_) => "not found".to_owned(),
        };
        let event = WorldEvent::DeleteCustomResource {
            propagation: PropagationPolicy::Background,
        };
        engine.note(now, Happening::ActorEvent { event, effect });
    }
}

impl Engine {
    /// Another writer sets `path` of object `name` now.
    fn drift_now(&mut self, name: &str, path: &[String], value: &Json) -> String {
        let Some(mut spec) = self.world.observed.get(name).cloned() else {
            return "not found; nothing changed".to_owned();
        };
        spec.set_path(path, value.clone());
        if let Some(change) = self.world.write_spec(name, spec) {
            self.watch_event(self.now, name, change);
        }
        let writer = "another writer".to_owned();
        self.actors
            .last_other_writer
            .insert(name.to_owned(), writer);
        "field changed".to_owned()
    }
}
