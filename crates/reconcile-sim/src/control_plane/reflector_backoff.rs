//! The reflector's backoff before it lists and watches again. Start at
//! [`ReflectorBackoff::next`].
//!
//! Upstream: client-go `tools/cache/reflector.go` (`defaultBackoff*`,
//! `delayHandler`) and apimachinery `pkg/util/wait/backoff.go`
//! (`Backoff`, `delay`, `DelayWithReset`, `backoffManager.Step`) and
//! `wait.go` (`Jitter`). Since client-go v0.36 the reflector builds
//! `wait.Backoff{800ms, Cap 30s, Steps 38, Factor 2, Jitter 1}` and calls
//! `DelayWithReset(clock, 2min)`; before, it used the deprecated
//! `NewExponentialBackoffManager`, which reset differently (see
//! [`ReflectorBackoff::next`]).
//!
//! Times are whole milliseconds; upstream's are nanoseconds, so a jittered
//! wait here is truncated to the millisecond.

use crate::rng::SimRng;
use crate::workqueue::Millis;

/// `defaultBackoffInit`: the first wait.
pub const BACKOFF_INIT_MS: Millis = 800;
/// `defaultBackoffMax`: the cap on the base wait (jitter adds up to as much).
pub const BACKOFF_MAX_MS: Millis = 30_000;
/// `defaultBackoffReset`: the backoff starts over after this long.
pub const BACKOFF_RESET_MS: Millis = 120_000;
/// `defaultBackoffFactor`.
pub const BACKOFF_FACTOR: f64 = 2.0;
/// `defaultBackoffJitter`: each wait adds up to this share of itself.
pub const BACKOFF_JITTER: f64 = 1.0;
/// `Steps: ceil(defaultBackoffMax / defaultBackoffInit)`, that is 38.
#[allow(clippy::cast_possible_truncation)]
pub const BACKOFF_STEPS: u32 = BACKOFF_MAX_MS.div_ceil(BACKOFF_INIT_MS) as u32;

/// `wait.Backoff`: the parameters of an exponential backoff, and its state.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Backoff {
    /// The next base wait.
    pub duration: Millis,
    /// Multiplies the base wait at each step, if not zero.
    pub factor: f64,
    /// Each wait adds a uniform draw in `[0, jitter * duration)`.
    pub jitter: f64,
    /// How many more steps may change the base wait.
    pub steps: u32,
    /// The largest base wait, if not zero; reaching it ends the steps.
    pub cap: Millis,
}

impl Backoff {
    /// `Backoff.Step` (through `delay`): this wait, then the next base.
    ///
    /// Without steps left the base no longer changes. Jitter draws from
    /// `rng` only when positive, as upstream draws `rand.Float64` only then.
    pub fn step(&mut self, rng: &mut SimRng) -> Millis {
        if self.steps < 1 {
            if self.jitter > 0.0 {
                return jitter(self.duration, self.jitter, rng);
            }
            return self.duration;
        }
        self.steps -= 1;
        let current = self.duration;
        #[allow(clippy::float_cmp)] // Go's `factor != 0`.
        let grows = self.factor != 0.0;
        if grows {
            #[allow(
                clippy::cast_precision_loss,
                clippy::cast_possible_truncation,
                clippy::cast_sign_loss
            )]
            let next = (current as f64 * self.factor) as Millis;
            if self.cap > 0 && next > self.cap {
                self.duration = self.cap;
                self.steps = 0;
            } else {
                self.duration = next;
            }
        }
        if self.jitter > 0.0 {
            return jitter(current, self.jitter, rng);
        }
        current
    }
}

/// `wait.Jitter`: `duration` plus up to `max_factor` times itself.
///
/// A factor not above zero means 1.0.
#[must_use]
pub fn jitter(duration: Millis, max_factor: f64, rng: &mut SimRng) -> Millis {
    let factor = if max_factor <= 0.0 { 1.0 } else { max_factor };
    #[allow(
        clippy::cast_precision_loss,
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss
    )]
    let extra = (rng.next_f64() * factor * duration as f64) as Millis;
    duration + extra
}

/// The reflector's `delayHandler`: a [`Backoff`] that starts over.
///
/// `Backoff.DelayWithReset` and its `backoffManager`.
#[derive(Debug, Clone, PartialEq)]
pub struct ReflectorBackoff {
    backoff: Backoff,
    initial: Backoff,
    /// `None`: a plain `DelayFunc` that never starts over.
    reset_interval: Option<Millis>,
    /// `lastStart`: when the backoff was made or last started over.
    last_start: Millis,
}

impl Default for ReflectorBackoff {
    /// The reflector's backoff, made at time zero (`NewReflector`).
    fn default() -> Self {
        Self::new(0)
    }
}

impl ReflectorBackoff {
    /// The reflector's backoff, made at `now` (`NewReflectorWithOptions`).
    #[must_use]
    pub fn new(now: Millis) -> Self {
        let backoff = Backoff {
            duration: BACKOFF_INIT_MS,
            factor: BACKOFF_FACTOR,
            jitter: BACKOFF_JITTER,
            steps: BACKOFF_STEPS,
            cap: BACKOFF_MAX_MS,
        };
        Self::with_reset(backoff, now, BACKOFF_RESET_MS)
    }

    /// `backoff.DelayWithReset(clock, reset_interval)`, made at `now`.
    ///
    /// A factor not above zero gives a plain delay that never starts over.
    /// A zero interval turns the growth off: every wait is the first.
    #[must_use]
    pub fn with_reset(mut backoff: Backoff, now: Millis, reset_interval: Millis) -> Self {
        let reset_interval = if backoff.factor <= 0.0 {
            None
        } else if reset_interval == 0 {
            backoff.steps = 0;
            backoff.factor = 0.0;
            None
        } else {
            Some(reset_interval)
        };
        Self {
            backoff,
            initial: backoff,
            reset_interval,
            last_start: now,
        }
    }

    /// The wait before the next `ListAndWatch`, asked at `now`.
    ///
    /// `backoffManager.Step`: when more than the reset interval has passed
    /// since the backoff was made or last started over, it starts over.
    /// That is not measured from the last call: a reflector failing every
    /// minute still starts over every two minutes. The deprecated manager
    /// the reflector used before v0.36 measured from the last call.
    pub fn next(&mut self, now: Millis, rng: &mut SimRng) -> Millis {
        if let Some(interval) = self.reset_interval {
            if now.saturating_sub(self.last_start) > interval {
                self.backoff = self.initial;
                self.last_start = now;
            }
        }
        self.backoff.step(rng)
    }
}

#[cfg(test)]
#[path = "reflector_backoff_tests.rs"]
mod tests;
