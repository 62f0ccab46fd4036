//! The benchmark scenarios: one generator, written once, whose files every
//! implementation reads (Rust's criterion benches, the Python reference and
//! the plain-JS comparison in the browser).
//!
//! A scenario of `n` resources is deterministic (a fixed SplitMix64 seed) and
//! sorted by name, as the API server lists objects. About 1% of desired names
//! are not observed (CREATE), about 1% of observed specs have drifted (UPDATE),
//! and about 1% of resources have an extra observed-only name next to them
//! (FINALIZE when it has a pending finalizer, which half of them do, else
//! DELETE). About 1% of in-sync observed specs list their members in another
//! order, so equality is decided by value, not by text. Specs hold strings,
//! integers, nested objects and arrays; no booleans or floats, so the Python
//! reference can compare them with its native `==` (see bench/python/reference.py).
//!
//! This file is std-only: the criterion bench includes it with `#[path]`.

use std::fmt::Write as _;

use reconcile_core::stable::SplitMix64;

/// The scenario sizes of the report.
pub const SIZES: [usize; 4] = [1_000, 10_000, 100_000, 1_000_000];

/// `scenario-100000.json`.
pub fn file_name(n: usize) -> String {
    format!("scenario-{n}.json")
}

/// Draws from [`SplitMix64`]: tiny, fixed and the same everywhere.
trait Below {
    /// A number in `0..bound`.
    fn below(&mut self, bound: u64) -> u64;
}

impl Below for SplitMix64 {
    fn below(&mut self, bound: u64) -> u64 {
        self.next_u64() % bound
    }
}

/// The varying parts of one spec.
struct Spec {
    app: u64,
    version: u64,
    replicas: u64,
    tier: &'static str,
    with_env: bool,
}

impl Spec {
    fn random(rng: &mut SplitMix64) -> Self {
        Spec {
            app: rng.below(500),
            version: rng.below(20),
            replicas: rng.below(10),
            tier: ["web", "api", "worker", "cache"][rng.below(4) as usize],
            with_env: rng.below(4) == 0,
        }
    }

    /// Compact JSON; `reordered` writes the same members in another order.
    fn write(&self, out: &mut String, reordered: bool) {
        let Spec {
            app,
            version,
            replicas,
            tier,
            with_env,
        } = self;
        let image = format!(r#""image":"registry.example/app-{app}:1.{version}""#);
        let replicas = format!(r#""replicas":{replicas}"#);
        let labels = format!(r#""labels":{{"app":"app-{app}","tier":"{tier}"}}"#);
        let ports = r#""ports":[8080,9090]"#;
        let env = if *with_env {
            r#","env":[{"name":"MODE","value":"prod"}]"#
        } else {
            ""
        };
        let _ = if reordered {
            write!(out, "{{{labels},{ports},{replicas},{image}{env}}}")
        } else {
            write!(out, "{{{image},{replicas},{labels},{ports}{env}}}")
        };
    }
}

/// `{"desired":{…},"observed":{…},"finalizers":{…}}` with `n` desired resources.
pub fn scenario_text(n: usize) -> String {
    let mut rng = SplitMix64::new(0x5EED_0000_0000_0000 ^ n as u64);
    let mut desired = String::with_capacity(n * 110);
    let mut observed = String::with_capacity(n * 110);
    let mut finalizers = String::new();
    let comma = |text: &mut String| {
        if !text.is_empty() {
            text.push(',');
        }
    };
    for i in 0..n {
        let name = format!("web-{i:07}");
        let spec = Spec::random(&mut rng);
        comma(&mut desired);
        let _ = write!(desired, "\"{name}\":");
        spec.write(&mut desired, false);
        match rng.below(100) {
            // Desired only: CREATE.
            0 => {}
            // Drifted: UPDATE.
            1 => {
                comma(&mut observed);
                let _ = write!(observed, "\"{name}\":");
                let drifted = Spec {
                    replicas: spec.replicas + 1,
                    ..spec
                };
                drifted.write(&mut observed, false);
            }
            // In sync, members written in another order.
            2 => {
                comma(&mut observed);
                let _ = write!(observed, "\"{name}\":");
                spec.write(&mut observed, true);
            }
            _ => {
                comma(&mut observed);
                let _ = write!(observed, "\"{name}\":");
                spec.write(&mut observed, false);
            }
        }
        // Finalizers of still-desired names, which the contract ignores.
        if rng.below(200) == 0 {
            comma(&mut finalizers);
            let _ = write!(finalizers, "\"{name}\":[\"kubernetes.io/pvc-protection\"]");
        }
        // Observed only, sorted right after `name`: FINALIZE or DELETE.
        if rng.below(100) == 0 {
            comma(&mut observed);
            let _ = write!(observed, "\"{name}-old\":");
            Spec::random(&mut rng).write(&mut observed, false);
            if rng.below(2) == 0 {
                comma(&mut finalizers);
                let _ = write!(finalizers, "\"{name}-old\":[\"example.com/cleanup\"]");
            }
        }
    }
    format!(
        r#"{{"desired":{{{desired}}},"observed":{{{observed}}},"finalizers":{{{finalizers}}}}}"#
    )
}
