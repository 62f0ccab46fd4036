//! Built-in starting scenarios. Texts are kept as the user will see them in the editors.

/// A named scenario for the presets menu.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Preset {
    /// Stable identifier, used in URLs.
    pub id: &'static str,
    pub title: &'static str,
    /// One sentence on what to look at.
    pub summary: &'static str,
    pub desired: &'static str,
    pub observed: &'static str,
    pub finalizers: &'static str,
}

pub const PRESETS: &[Preset] = &[
    Preset {
        id: "basics",
        title: "Create, update, delete",
        summary: "The seed example: one missing, one drifted, one extra.",
        desired: "{\n  \"a\": {\"replicas\": 1},\n  \"b\": {\"replicas\": 3}\n}\n",
        observed: "{\n  \"b\": {\"replicas\": 1},\n  \"c\": {\"replicas\": 1}\n}\n",
        finalizers: "null\n",
    },
    Preset {
        id: "load-balancer-finalizer",
        title: "LoadBalancer finalizer",
        summary: "A deleted Service must release its cloud load balancer before it can go.",
        desired: "{}\n",
        observed: "{\n  \"svc\": {\"type\": \"LoadBalancer\"}\n}\n",
        finalizers: "{\n  \"svc\": [\"cloud/lb-cleanup\"]\n}\n",
    },
    Preset {
        id: "cache-2-replicas",
        title: "Cache with 2 replicas",
        summary: "A Cache wants 2 pods and 1 is running: reconcile creates the second.",
        desired: "{\n  \"cache-0\": {\"app\": \"cache\", \"image\": \"redis:7\"},\n  \"cache-1\": {\"app\": \"cache\", \"image\": \"redis:7\"}\n}\n",
        observed: "{\n  \"cache-0\": {\"app\": \"cache\", \"image\": \"redis:7\"}\n}\n",
        finalizers: "null\n",
    },
];

/// The preset shown on first load.
pub const DEFAULT_PRESET: &Preset = &PRESETS[0];

/// Looks a preset up by its identifier.
pub fn find(id: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|preset| preset.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan_texts;

    #[test]
    fn every_preset_parses_and_has_actions() {
        for preset in PRESETS {
            let plan = plan_texts(preset.desired, preset.observed, preset.finalizers)
                .unwrap_or_else(|e| panic!("preset {} is invalid: {e}", preset.id));
            assert!(
                !plan.actions.is_empty(),
                "preset {} has nothing to do",
                preset.id
            );
        }
        assert!(find("basics").is_some());
        assert!(find("nope").is_none());
    }
}
