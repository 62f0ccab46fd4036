//! The names the API server generates (`generateName`), drawn from the
//! run's own stream so a seed replays them.

use std::sync::Arc;

use super::Engine;
use crate::control_plane::names::generate_name;

impl Engine {
    /// The name the API server gives a CREATE with `generateName: prefix`.
    pub(super) fn generated_name(&mut self, prefix: &str) -> Arc<str> {
        Arc::from(generate_name(prefix, &mut self.names_rng))
    }
}
