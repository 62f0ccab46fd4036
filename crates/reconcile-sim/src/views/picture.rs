//! The control plane as a picture: what each part holds at one position of a
//! run (the start, right after one event of the event log, right after an
//! actor's event). The API server's store and the informer cache as cards,
//! the watch events in flight, the work queue, the controller, the finalizer
//! owners and the garbage collector.
//!
//! # Invariant
//! A [`Picture`] is the engine's own state, read at the instant its event
//! was recorded ([`crate::events::EventLog`]): nothing is inferred from the
//! timeline after the fact.
//!
//! # Guarantees
//! - Right after pass `n`'s `ReconcileEnded`, the store is
//!   `Timeline::world_after(n)`; right after an actor's event it is that
//!   event's `world_after` ([`position_of_moment`] maps a moment there).
//! - At a pass's `ReconcileStarted`, the cache is what the pass reconciled
//!   ([`crate::pass_view`]), and the controller holds that pass's plan.
//! - In flight are exactly the watch events written and not yet taken by the
//!   cache (those of a broken watch or a crashed process are lost, not shown).
//! - [`simulate`](crate::simulate) records nothing of this: [`PictureReplay`]
//!   replays the run with a probe that captures only the positions asked
//!   for, and stays where it stopped, so walking forward one event at a time
//!   costs one event each. Unchanged stores and caches are shared (`Rc`).
//!
//! # Caveats
//! - Replays answer every reconcile call with the contract's (the
//!   controller's `compare` setting), as [`crate::simulate`] does. A run
//!   driven by another controller (a learner's, replayed from its record)
//!   keeps every picture as it runs instead ([`PictureReplay::of_pictures`]).
//! - Only the first [`crate::events::MAX_EVENTS`] events have a picture.
//! - Going back to an earlier position than the recent ones kept replays
//!   the run from its start.

use std::rc::Rc;

use crate::comparison::controller_plan;
pub use crate::engine::{
    CollectorTask, CollectorWork, ControllerPicture, InFlight, KeyPicture, KeyState, OwnerTask,
    Picture, Position, QueuePicture,
};
use crate::events::SimEvent;
use crate::workqueue::Millis;
use crate::world::World;
use crate::{CustomResources, Moment, SimConfig, SimScenario, Simulation, Timeline};
use reconcile_core::json::Json;

/// Where a moment of the run stands as a picture: a pass's end is its
/// `ReconcileEnded` event. `None` for a pass past the event log's cap.
pub fn position_of_moment(timeline: &Timeline, moment: Moment) -> Option<Position> {
    match moment {
        Moment::Start => Some(Position::Start),
        Moment::AfterActorEvent(i) => Some(Position::ActorEvent(i)),
        Moment::AfterPass(n) => timeline
            .events
            .entries
            .iter()
            .position(|e| matches!(e.what, SimEvent::ReconcileEnded { pass, .. } if pass == n))
            .map(Position::Event),
    }
}

/// One object as a card.
#[derive(Debug, Clone, PartialEq)]
pub struct Card {
    pub name: String,
    pub spec: Json,
    pub resource_version: u64,
    pub generation: u64,
    pub deletion_timestamp: Option<Millis>,
    pub finalizers: Vec<String>,
}

/// How a cache card stands against the store.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Freshness {
    /// The same resourceVersion as the store's.
    Fresh,
    /// The store has a newer version of it.
    Stale { store_version: u64 },
    /// Deleted from the store; the cache has not heard yet.
    Deleted,
    /// In the store, not yet in the cache.
    Unseen,
}

/// One object in both boxes: the store's card, the cache's, and how they stand.
#[derive(Debug, Clone, PartialEq)]
pub struct CardPair {
    pub store: Option<Card>,
    pub cache: Option<Card>,
    pub freshness: Freshness,
}

/// The cards a picture shows, and how many it leaves out.
#[derive(Debug, Clone, PartialEq)]
pub struct Cards {
    pub pairs: Vec<CardPair>,
    pub hidden: usize,
}

impl Picture {
    /// At most `limit` objects, by name: first those that differ between the
    /// store and the cache, are terminating or concern this event, then the
    /// rest, so what matters is never among the ones left out.
    pub fn cards(&self, limit: usize) -> Cards {
        let names = crate::views::status::union_of_sorted(
            self.store.observed.names(),
            self.cache.observed.names(),
        );
        let concerns = self.event_object();
        let pair = |name: &str| CardPair::of(card(&self.store, name), card(&self.cache, name));
        let notable = |name: &str| {
            concerns == Some(name)
                || self.store.is_terminating(name)
                || self
                    .in_flight
                    .iter()
                    .any(|f| f.object.as_deref() == Some(name))
                || self.store.meta.get(name).map(|m| m.resource_version)
                    != self.cache.meta.get(name).map(|m| m.resource_version)
        };
        // In name order, without a sort (each sort is kilobytes of wasm):
        // the notable ones first claim their places, the rest fill what is left.
        let notable_count = names.iter().filter(|n| notable(n)).count().min(limit);
        let (mut notable_left, mut room) = (notable_count, limit - notable_count);
        let shown = names.iter().filter(|n| {
            let slot = if notable(n) {
                &mut notable_left
            } else {
                &mut room
            };
            let take = *slot > 0;
            *slot = slot.saturating_sub(1);
            take
        });
        Cards {
            pairs: shown.map(|n| pair(n)).collect(),
            hidden: names.len().saturating_sub(limit),
        }
    }

    /// The custom resource in the store and in the cache.
    pub fn custom_resource(&self) -> CardPair {
        let of = |world: &World| {
            let name = world.custom_resource_names().next()?;
            let state = world.get(&crate::ownership::ObjectKey::CustomResource(name.clone()))?;
            Some(Card {
                name: name.to_string(),
                // What the store holds of it besides metadata: its status,
                // once the controller writes one (`statusWrites`), else null.
                spec: state.spec,
                resource_version: state.meta.resource_version,
                generation: state.meta.generation,
                deletion_timestamp: state.deletion_timestamp,
                finalizers: state.finalizers,
            })
        };
        CardPair::of(of(&self.store), of(&self.cache))
    }

    /// The object this position's event is about, if any.
    pub fn event_object(&self) -> Option<&str> {
        match &self.event.as_ref()?.what {
            SimEvent::Request { name, .. } | SimEvent::WatchDelivered { name, .. } => Some(name),
            _ => None,
        }
    }
}

impl CardPair {
    /// The two cards of one name, and how the cache's stands against the store's.
    fn of(store: Option<Card>, cache: Option<Card>) -> Self {
        let freshness = match (&store, &cache) {
            (Some(_), None) => Freshness::Unseen,
            (None, _) => Freshness::Deleted,
            (Some(s), Some(c)) if s.resource_version != c.resource_version => Freshness::Stale {
                store_version: s.resource_version,
            },
            _ => Freshness::Fresh,
        };
        Self {
            store,
            cache,
            freshness,
        }
    }
}

fn card(world: &World, name: &str) -> Option<Card> {
    let state = world.object(name)?;
    Some(Card {
        name: name.to_owned(),
        spec: state.spec,
        resource_version: state.meta.resource_version,
        generation: state.meta.generation,
        deletion_timestamp: state.deletion_timestamp,
        finalizers: state.finalizers,
    })
}

/// Recent pictures kept, so stepping back a little replays nothing.
const RECENT: usize = 48;

/// A run replayed for its pictures, on demand.
#[derive(Debug)]
pub struct PictureReplay {
    source: Source,
    recent: Vec<Rc<Picture>>,
}

/// Where a [`PictureReplay`]'s pictures come from.
#[derive(Debug)]
enum Source {
    /// The contract controller's run, replayed from its start when needed.
    Contract(Box<ContractRun>),
    /// Every picture of a run, kept as it ran: a learner's controller
    /// replayed from its record (`drivers/learner/replay.rs`), which no
    /// contract run could give again.
    Kept(Rc<[Rc<Picture>]>),
}

/// The contract controller's run of a scenario, and where it stopped.
#[derive(Debug)]
struct ContractRun {
    scenario: CustomResources,
    config: SimConfig,
    run: Simulation,
}

impl PictureReplay {
    pub fn new(scenario: &SimScenario, config: &SimConfig) -> Self {
        Self::of_custom_resources(&CustomResources::one(scenario), config)
    }

    /// The same for a scenario of several custom resources.
    pub fn of_custom_resources(scenario: &CustomResources, config: &SimConfig) -> Self {
        Self {
            source: Source::Contract(Box::new(ContractRun {
                scenario: scenario.clone(),
                config: config.clone(),
                run: Simulation::of_custom_resources(scenario, config.clone()),
            })),
            recent: Vec::new(),
        }
    }

    /// The pictures of a run kept as it ran, the start's first: no run
    /// again, no contract. Several replays may share them.
    pub fn of_pictures(pictures: Rc<[Rc<Picture>]>) -> Self {
        Self {
            source: Source::Kept(pictures),
            recent: Vec::new(),
        }
    }

    /// The picture at `position`; `None` when the run never gets there.
    pub fn at(&mut self, position: Position) -> Option<Rc<Picture>> {
        if let Some(found) = self.recent.iter().find(|p| p.position == position) {
            return Some(Rc::clone(found));
        }
        let ContractRun {
            scenario,
            config,
            run,
        } = match &mut self.source {
            Source::Kept(all) => return all.iter().find(|p| p.position == position).cloned(),
            Source::Contract(contract) => &mut **contract,
        };
        if position == Position::Start {
            let start = Simulation::of_custom_resources(scenario, config.clone()).picture_now();
            return self.keep(vec![start]).into_iter().next();
        }
        if run.has_passed(position) {
            *run = Simulation::of_custom_resources(scenario, config.clone());
        }
        loop {
            match run.probe(position) {
                crate::engine::Probed::Pictures(pictures) => {
                    let kept = self.keep(pictures);
                    return kept.into_iter().find(|p| p.position == position);
                }
                crate::engine::Probed::Reconcile(call) => {
                    let plan = controller_plan(
                        config.comparison(),
                        call.desired,
                        call.observed,
                        call.finalizers,
                    );
                    run.resume(plan);
                }
                crate::engine::Probed::Finished => return None,
            }
        }
    }

    fn keep(&mut self, pictures: Vec<Picture>) -> Vec<Rc<Picture>> {
        let kept: Vec<Rc<Picture>> = pictures.into_iter().map(Rc::new).collect();
        for picture in &kept {
            if self.recent.len() == RECENT {
                self.recent.remove(0);
            }
            self.recent.push(Rc::clone(picture));
        }
        kept
    }
}
