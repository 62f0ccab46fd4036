//! The cloud, the external system, as an actor: its load balancers and
//! the draws of its failures (`control_plane/cloud.rs`).

use crate::control_plane::cloud::Cloud;
use crate::rng::{SimRng, Stream};

/// The cloud's state and its own failure stream, which a crash of the
/// controller leaves alone.
#[derive(Debug)]
pub(super) struct CloudActor {
    pub(super) state: Cloud,
    pub(super) failures: SimRng,
}

impl CloudActor {
    pub(super) fn new(seed: u64) -> Self {
        Self {
            state: Cloud::default(),
            failures: SimRng::stream(seed, Stream::CloudFailures),
        }
    }
}
