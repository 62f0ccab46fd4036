//! Smaller cases to try in place of a failing one.
//!
//! The candidates of a case, biggest cut first: many names gone at once (in
//! a large case), a name gone from every document, a name gone from one, a finalizer entry or one finalizer gone,
//! the finalizers argument left out, then each spec made simpler (`null`, a
//! member or an item fewer, `0`, `""`). Each is strictly smaller by
//! [`Case::size`], so shrinking ends.

use std::sync::Arc;

use reconcile_core::json::{Json, Number};
use reconcile_core::model::{Finalizers, Resources};

use crate::case::{weight, Case, FinalizersArg};

/// The smaller cases to try, in order.
pub fn candidates(case: &Case) -> Vec<Case> {
    let mut out = Vec::new();
    let mut names: Vec<&str> = case.desired.names().chain(case.observed.names()).collect();
    if let Some(finalizers) = case.finalizers() {
        names.extend(finalizers.iter().map(|(name, _)| name));
    }
    names.sort_unstable();
    names.dedup();
    // A large case loses many names at once first: halves, then quarters...
    let mut chunk = names.len() / 2;
    while chunk >= 4 {
        for part in names.chunks(chunk) {
            out.push(
                part.iter()
                    .fold(case.clone(), |smaller, name| without_name(&smaller, name)),
            );
        }
        chunk /= 2;
    }
    for name in &names {
        out.push(without_name(case, name));
    }
    for name in case.desired.names() {
        out.push(Case {
            desired: removed(&case.desired, name),
            ..case.clone()
        });
    }
    for name in case.observed.names() {
        out.push(Case {
            observed: removed(&case.observed, name),
            ..case.clone()
        });
    }
    if let Some(finalizers) = case.finalizers() {
        finalizer_candidates(case, finalizers, &mut out);
    }
    if case.finalizers == FinalizersArg::Null {
        out.push(Case {
            finalizers: FinalizersArg::Omitted,
            ..case.clone()
        });
    }
    paired_spec_candidates(case, &mut out);
    spec_candidates(case, true, &mut out);
    spec_candidates(case, false, &mut out);
    debug_assert!(out.iter().all(|smaller| smaller.size() < case.size()));
    out
}

fn without_name(case: &Case, name: &str) -> Case {
    let finalizers = match &case.finalizers {
        FinalizersArg::Given(finalizers) => {
            let mut finalizers = finalizers.clone();
            finalizers.remove(name);
            FinalizersArg::Given(finalizers)
        }
        other => other.clone(),
    };
    Case {
        desired: removed(&case.desired, name),
        observed: removed(&case.observed, name),
        finalizers,
    }
}

fn removed(resources: &Resources, name: &str) -> Resources {
    let mut resources = resources.clone();
    resources.remove(name);
    resources
}

fn finalizer_candidates(case: &Case, finalizers: &Finalizers, out: &mut Vec<Case>) {
    if finalizers.is_empty() {
        out.push(Case {
            finalizers: FinalizersArg::Omitted,
            ..case.clone()
        });
        return;
    }
    for (name, list) in finalizers.iter() {
        let mut fewer = finalizers.clone();
        fewer.remove(name);
        out.push(Case {
            finalizers: FinalizersArg::Given(fewer),
            ..case.clone()
        });
        for index in 0..list.len() {
            let mut shorter = list.to_vec();
            shorter.remove(index);
            let mut fewer = finalizers.clone();
            fewer.set(name, shorter);
            out.push(Case {
                finalizers: FinalizersArg::Given(fewer),
                ..case.clone()
            });
        }
    }
}

fn spec_candidates(case: &Case, desired: bool, out: &mut Vec<Case>) {
    let resources = if desired {
        &case.desired
    } else {
        &case.observed
    };
    for (name, spec) in resources.iter() {
        for simpler in simpler_values(spec) {
            let mut changed = resources.clone();
            changed.insert(name, simpler);
            let mut candidate = case.clone();
            if desired {
                candidate.desired = changed;
            } else {
                candidate.observed = changed;
            }
            out.push(candidate);
        }
    }
}

/// A name's desired and observed specs made simpler together, so that a
/// failure that needs them equal (or differing in one place) survives: both
/// `null`, the same member gone from both, the same member made simpler in
/// both (each keeping its member order), or both the desired spec's simpler
/// value when they are equal.
fn paired_spec_candidates(case: &Case, out: &mut Vec<Case>) {
    for (name, want) in case.desired.iter() {
        let Some(have) = case.observed.get(name) else {
            continue;
        };
        for (simpler_want, simpler_have) in paired_simpler(want, have) {
            let mut candidate = case.clone();
            candidate.desired.insert(name, simpler_want);
            candidate.observed.insert(name, simpler_have);
            out.push(candidate);
        }
    }
}

/// Pairs simpler than `(want, have)`, each of smaller total [`weight`].
fn paired_simpler(want: &Json, have: &Json) -> Vec<(Json, Json)> {
    let mut pairs: Vec<(Json, Json)> = Vec::new();
    if !matches!((want, have), (Json::Null, Json::Null)) {
        pairs.push((Json::Null, Json::Null));
    }
    if let (Json::Object(a), Json::Object(b)) = (want, have) {
        let with = |members: &[(Box<str>, Json)], key: &str, value: Option<&Json>| {
            Json::object(
                members
                    .iter()
                    .filter_map(|(k, v)| match (&**k == key, value) {
                        (false, _) => Some((k.clone(), v.clone())),
                        (true, Some(value)) => Some((k.clone(), value.clone())),
                        (true, None) => None,
                    })
                    .collect(),
            )
        };
        for (key, a_value) in a.iter() {
            let Some((_, b_value)) = b.iter().find(|(k, _)| k == key) else {
                continue;
            };
            pairs.push((with(a, key, None), with(b, key, None)));
            for (x, y) in paired_simpler(a_value, b_value) {
                pairs.push((with(a, key, Some(&x)), with(b, key, Some(&y))));
            }
        }
    }
    if let (Json::Array(a), Json::Array(b)) = (want, have) {
        if a.len() == b.len() {
            for (index, (x, y)) in a.iter().zip(b.iter()).enumerate() {
                for (sx, sy) in paired_simpler(x, y) {
                    let (mut a, mut b) = (a.as_ref().clone(), b.as_ref().clone());
                    a[index] = sx;
                    b[index] = sy;
                    pairs.push((Json::Array(Arc::new(a)), Json::Array(Arc::new(b))));
                }
            }
        }
    }
    if want == have {
        pairs.extend(simpler_values(want).into_iter().map(|v| (v.clone(), v)));
    }
    let total = weight(want) + weight(have);
    pairs.retain(|(x, y)| weight(x) + weight(y) < total);
    pairs
}

/// Simpler values than `value`, each of smaller [`weight`].
fn simpler_values(value: &Json) -> Vec<Json> {
    let mut out = Vec::new();
    if !matches!(value, Json::Null) {
        out.push(Json::Null);
    }
    match value {
        Json::Number(n) if n.as_f64() != 0.0 => out.push(Json::Number(Number::Unsigned(0))),
        Json::String(text) if !text.is_empty() => out.push(Json::string("")),
        Json::Array(items) => {
            for index in 0..items.len() {
                let mut fewer = items.as_ref().clone();
                fewer.remove(index);
                out.push(Json::Array(Arc::new(fewer)));
            }
            for (index, item) in items.iter().enumerate() {
                for simpler in simpler_values(item) {
                    let mut changed = items.as_ref().clone();
                    changed[index] = simpler;
                    out.push(Json::Array(Arc::new(changed)));
                }
            }
        }
        Json::Object(members) => {
            for index in 0..members.len() {
                let mut fewer = members.as_ref().clone();
                fewer.remove(index);
                out.push(Json::object(fewer));
            }
            for (index, (_, member)) in members.iter().enumerate() {
                for simpler in simpler_values(member) {
                    let mut changed = members.as_ref().clone();
                    changed[index].1 = simpler;
                    out.push(Json::object(changed));
                }
            }
        }
        _ => {}
    }
    out.retain(|simpler| weight(simpler) < weight(value));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::generate;

    #[test]
    fn every_candidate_is_smaller() {
        for case in generate(11, 200) {
            let size = case.size();
            for candidate in candidates(&case) {
                assert!(
                    candidate.size() < size,
                    "{candidate:?} is not smaller than {case:?}"
                );
            }
        }
    }

    #[test]
    fn an_empty_case_has_no_candidates() {
        let empty = Case {
            desired: Resources::new(),
            observed: Resources::new(),
            finalizers: FinalizersArg::Omitted,
        };
        assert!(candidates(&empty).is_empty());
    }
}
