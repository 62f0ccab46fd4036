//! One call of `reconcile`: its arguments, what the contract answers, and
//! how big it is (what the shrinker makes smaller).

use reconcile_core::json::Json;
use reconcile_core::model::{Finalizers, Resources};
use reconcile_core::reconcile::{reconcile, Action};
use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;

/// How the third argument is given: the contract treats the three alike when
/// nothing is pending, but a learner's code may not.
#[derive(Debug, Clone, PartialEq)]
pub enum FinalizersArg {
    /// `reconcile(desired, observed)`.
    Omitted,
    /// `reconcile(desired, observed, None)` / `null`.
    Null,
    /// `reconcile(desired, observed, {...})`, possibly empty.
    Given(Finalizers),
}

/// The arguments of one call.
#[derive(Debug, Clone, PartialEq)]
pub struct Case {
    pub desired: Resources,
    pub observed: Resources,
    pub finalizers: FinalizersArg,
}

impl Case {
    pub fn finalizers(&self) -> Option<&Finalizers> {
        match &self.finalizers {
            FinalizersArg::Given(finalizers) => Some(finalizers),
            FinalizersArg::Omitted | FinalizersArg::Null => None,
        }
    }

    /// What the contract returns.
    pub fn expected(&self) -> Vec<Action> {
        reconcile(&self.desired, &self.observed, self.finalizers())
    }

    /// The call as JSON text for a runner: `{"desired":…,"observed":…}`, with
    /// `"finalizers"` unless it is omitted. Specs keep their member order and
    /// number spelling (`1.0`), which some traps depend on.
    pub fn arguments_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// The three arguments as JSON texts, for a runner that passes each on
    /// as written: `[desired, observed, finalizers]`, the last `None` when
    /// the argument is left out.
    pub fn argument_texts(&self) -> [Option<String>; 3] {
        [
            Some(json_text(&self.desired)),
            Some(json_text(&self.observed)),
            match &self.finalizers {
                FinalizersArg::Omitted => None,
                FinalizersArg::Null => Some("null".to_owned()),
                FinalizersArg::Given(finalizers) => Some(json_text(finalizers)),
            },
        ]
    }

    /// What the shrinker minimizes: names first, then finalizer entries, then
    /// the size of the specs. Every shrink candidate is strictly smaller.
    pub fn size(&self) -> usize {
        let specs = |resources: &Resources| -> usize {
            resources.iter().map(|(_, spec)| 1_000 + weight(spec)).sum()
        };
        let finalizers = self.finalizers().map_or(0, |finalizers| {
            finalizers
                .iter()
                .map(|(_, list)| 100 + 10 * list.len())
                .sum::<usize>()
        });
        let argument = match self.finalizers {
            FinalizersArg::Omitted => 0,
            FinalizersArg::Null => 1,
            FinalizersArg::Given(_) => 2,
        };
        specs(&self.desired) + specs(&self.observed) + finalizers + argument
    }
}

impl Serialize for Case {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let omitted = self.finalizers == FinalizersArg::Omitted;
        let mut map = serializer.serialize_map(Some(if omitted { 2 } else { 3 }))?;
        map.serialize_entry("desired", &self.desired)?;
        map.serialize_entry("observed", &self.observed)?;
        if !omitted {
            map.serialize_entry("finalizers", &self.finalizers())?;
        }
        map.end()
    }
}

/// How much there is to a spec: every shrink of a value makes it smaller.
pub(crate) fn weight(spec: &Json) -> usize {
    match spec {
        Json::Null => 1,
        Json::Bool(_) => 2,
        Json::Number(number) if number.as_f64() == 0.0 => 2,
        Json::String(text) if text.is_empty() => 2,
        Json::Number(_) | Json::String(_) => 3,
        Json::Array(items) => 2 + items.iter().map(weight).sum::<usize>(),
        Json::Object(members) => {
            2 + members
                .iter()
                .map(|(_, value)| 1 + weight(value))
                .sum::<usize>()
        }
    }
}

fn json_text<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_default()
}
