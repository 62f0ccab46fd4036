//! The names the API server generates (`generateName`), drawn from the
//! run's own stream so a seed replays them.

use std::sync::Arc;

use super::Engine;
use crate::control_plane::names::generate_free_name;

impl Engine {
    /// The name the API server gives a CREATE with `generateName: prefix`,
    /// drawn again while it is taken, up to 8 draws in all.
    pub(super) fn generated_name(&mut self, prefix: &str) -> Arc<str> {
        let world = &self.world;
        let name = generate_free_name(prefix, &mut self.names_rng, |n| world.observed.contains(n));
        Arc::from(name)
    }
}
