//! A run's custom resources: one (a contract scenario, named
//! [`CUSTOM_RESOURCE`]) or several, each with its own contract scenario.
//! Start at [`CustomResources`].
//!
//! Invariant: names are unique, custom resources' among themselves and
//! objects' across entries; [`CustomResources::new`] refuses a repeat.

use std::sync::Arc;

use reconcile_core::model::{Finalizers, Resources, Scenario};

use crate::control_plane::ownership::CUSTOM_RESOURCE;
use crate::control_plane::sorted::SortedMap;
use crate::control_plane::world::World;

/// One custom resource and what its contract scenario says of it: its spec
/// (`desired`), and the objects it owns with their finalizers.
#[derive(Debug, Clone, PartialEq)]
pub struct CustomResourceScenario {
    pub name: Arc<str>,
    pub scenario: Scenario,
}

/// The custom resources a run starts with, in the order they are created.
#[derive(Debug, Clone, PartialEq)]
pub struct CustomResources(Vec<CustomResourceScenario>);

/// Why a list of custom resources was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CustomResourcesError {
    /// No entry at all.
    Empty,
    /// A name used twice: by two custom resources, or by objects of two entries.
    Repeated {
        /// The entry that repeats it, from 0.
        entry: usize,
        /// The object's name, or `None` for the custom resource's own.
        object: Option<String>,
        name: String,
    },
}

impl std::fmt::Display for CustomResourcesError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Empty => f.write_str("expected at least one custom resource"),
            Self::Repeated {
                object: None, name, ..
            } => write!(f, "the custom resource name {name:?} is used twice"),
            Self::Repeated { name, .. } => {
                write!(f, "the object name {name:?} is in two custom resources")
            }
        }
    }
}

impl CustomResources {
    /// A scenario's one custom resource.
    pub fn one(scenario: &Scenario) -> Self {
        Self(vec![CustomResourceScenario {
            name: Arc::from(CUSTOM_RESOURCE),
            scenario: scenario.clone(),
        }])
    }

    /// Several custom resources, checked for repeated names.
    pub fn new(entries: Vec<CustomResourceScenario>) -> Result<Self, CustomResourcesError> {
        if entries.is_empty() {
            return Err(CustomResourcesError::Empty);
        }
        let mut names = SortedMap::new();
        let mut objects = SortedMap::new();
        for (entry, cr) in entries.iter().enumerate() {
            let repeated = |object: Option<&str>, name: &str| CustomResourcesError::Repeated {
                entry,
                object: object.map(str::to_owned),
                name: name.to_owned(),
            };
            if names.insert(Arc::clone(&cr.name), ()).is_some() {
                return Err(repeated(None, &cr.name));
            }
            for name in cr.scenario.observed.names() {
                if objects.insert(name.to_owned(), ()).is_some() {
                    return Err(repeated(Some(name), name));
                }
            }
        }
        Ok(Self(entries))
    }

    pub fn entries(&self) -> &[CustomResourceScenario] {
        &self.0
    }

    /// The first entry's scenario: the scenario itself when there is one.
    pub fn first(&self) -> &Scenario {
        &self.0[0].scenario
    }

    /// Each custom resource's spec, by name.
    pub fn desired(&self) -> SortedMap<Arc<str>, Resources> {
        let mut desired = SortedMap::new();
        for cr in &self.0 {
            desired.insert(Arc::clone(&cr.name), cr.scenario.desired.clone());
        }
        desired
    }

    /// The store they start in: the custom resources, then every entry's
    /// objects, each controlled by its entry's custom resource.
    pub fn world(&self) -> World {
        let Some((only, [])) = self.0.split_first() else {
            return self.world_of_several();
        };
        let observed = only.scenario.observed.clone();
        World::with_custom_resource_named(&only.name, observed, only.scenario.finalizers.clone())
    }

    fn world_of_several(&self) -> World {
        let mut observed = Resources::new();
        let mut finalizers = Finalizers::new();
        let mut owners = SortedMap::new();
        for cr in &self.0 {
            for (name, spec) in cr.scenario.observed.iter() {
                observed.insert(name.to_owned(), spec.clone());
                owners.insert(name.to_owned(), Arc::clone(&cr.name));
            }
            for (name, list) in cr.scenario.finalizers.iter().flat_map(Finalizers::iter) {
                finalizers.set(name, list.to_vec());
            }
        }
        let names: Vec<Arc<str>> = self.0.iter().map(|cr| Arc::clone(&cr.name)).collect();
        World::with_custom_resources(&names, observed, Some(finalizers), &owners)
    }
}
