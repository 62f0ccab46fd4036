//! Property tests of the reconcile contract, JSON equality, diff and the parser.
//!
//! Names come from a small alphabet (with non-ASCII names whose code point
//! order differs from UTF-16 order) so desired, observed and finalizers overlap.
//! Specs include numbers written as integers and as floats with the same value.

use std::collections::{BTreeMap, BTreeSet};

use proptest::prelude::*;
use reconcile_core::{
    count_out_of_sync, diff, format_document, parse_finalizers, parse_json, parse_resources,
    parse_scenario, plan, reconcile, Action, ActionKind, Document, Finalizers, InputError, Json,
    Number, Reason, Resources, Scenario, Summary,
};

const CASES: u32 = 96;

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: CASES,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

// ---------------------------------------------------------------------------
// Generators.

const NAMES: &[&str] = &[
    "a", "b", "c", "ab", "A", "é", "\u{E000}", "🚀", "my app", "a\nb", "",
];

fn name() -> impl Strategy<Value = String> {
    prop::sample::select(NAMES).prop_map(str::to_owned)
}

fn int(i: i64) -> Json {
    Json::Number(match u64::try_from(i) {
        Ok(u) => Number::Unsigned(u),
        Err(_) => Number::Signed(i),
    })
}

fn float(f: f64) -> Json {
    Json::Number(Number::Float(f))
}

fn number() -> impl Strategy<Value = Json> {
    prop_oneof![
        // Small values, written both ways, so equal numbers turn up often.
        4 => (-3i64..=3).prop_map(int),
        #[allow(clippy::cast_precision_loss)]
        4 => (-3i64..=3).prop_map(|i| float(i as f64)),
        1 => Just(Json::Number(Number::Signed(2))),
        1 => prop::sample::select(vec![0.5, -2.25, 1e-3, 1.5e10, 1e300, -0.0]).prop_map(float),
        1 => any::<u64>().prop_map(|u| Json::Number(Number::Unsigned(u))),
        1 => any::<i64>().prop_map(|i| Json::Number(Number::Signed(i))),
        1 => any::<f64>()
            .prop_filter("JSON numbers are finite", |f| f.is_finite())
            .prop_map(float),
    ]
}

fn text() -> impl Strategy<Value = String> {
    "[ab é🚀\u{E000}\"\\\\\n\t\u{1}]{0,4}"
}

fn leaf() -> impl Strategy<Value = Json> {
    prop_oneof![
        1 => Just(Json::Null),
        2 => any::<bool>().prop_map(Json::Bool),
        4 => number(),
        2 => text().prop_map(|s| Json::string(&s)),
    ]
}

/// Keeps the first member of each name, as a parsed object would have only one.
fn object(members: Vec<(String, Json)>) -> Json {
    let mut seen = BTreeSet::new();
    Json::object(
        members
            .into_iter()
            .filter(|(key, _)| seen.insert(key.clone()))
            .map(|(key, value)| (key.into_boxed_str(), value))
            .collect(),
    )
}

fn spec() -> impl Strategy<Value = Json> {
    leaf().prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Json::array),
            prop::collection::vec(("[xyé🚀]{0,2}", inner), 0..5).prop_map(object),
        ]
    })
}

/// The same value written differently: members reversed, integral numbers
/// switched between integer and float form.
fn equivalent(value: &Json) -> Json {
    match value {
        Json::Number(Number::Unsigned(u)) if *u < (1 << 53) =>
        {
            #[allow(clippy::cast_precision_loss)]
            float(*u as f64)
        }
        Json::Number(Number::Signed(i)) if i.unsigned_abs() < (1 << 53) =>
        {
            #[allow(clippy::cast_precision_loss)]
            float(*i as f64)
        }
        Json::Number(Number::Float(f)) if f.fract() == 0.0 && f.abs() < 9.0e15 =>
        {
            #[allow(clippy::cast_possible_truncation)]
            int(*f as i64)
        }
        Json::Array(items) => Json::array(items.iter().map(equivalent).collect()),
        Json::Object(members) => Json::object(
            members
                .iter()
                .rev()
                .map(|(k, v)| (k.clone(), equivalent(v)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// Rotates every object's members by an amount drawn from `seed`.
fn permuted(value: &Json, seed: &mut u64) -> Json {
    match value {
        Json::Array(items) => Json::array(items.iter().map(|v| permuted(v, seed)).collect()),
        Json::Object(members) => {
            *seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let mut members: Vec<_> = members
                .iter()
                .map(|(k, v)| (k.clone(), permuted(v, seed)))
                .collect();
            if !members.is_empty() {
                let by = usize::try_from(*seed >> 33).unwrap_or(0) % members.len();
                members.rotate_left(by);
                if *seed & 1 == 1 {
                    members.reverse();
                }
            }
            Json::object(members)
        }
        other => other.clone(),
    }
}

/// The same value with nothing shared: every string, array and object is a fresh copy,
/// so equality has to look inside instead of recognizing a shared payload.
fn unshared(value: &Json) -> Json {
    match value {
        Json::String(s) => Json::string(s),
        Json::Array(items) => Json::array(items.iter().map(unshared).collect()),
        Json::Object(members) => Json::object(
            members
                .iter()
                .map(|(k, v)| (k.clone(), unshared(v)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// The inputs of one reconcile, plus last-wins maps that serve as the oracle.
#[derive(Debug, Clone)]
struct Case {
    desired: Resources,
    observed: Resources,
    finalizers: Option<Finalizers>,
    desired_map: BTreeMap<String, Json>,
    observed_map: BTreeMap<String, Json>,
    finalizers_map: Option<BTreeMap<String, Vec<String>>>,
}

fn last_wins<V: Clone>(entries: &[(String, V)]) -> BTreeMap<String, V> {
    entries.iter().cloned().collect()
}

fn case() -> impl Strategy<Value = Case> {
    let finalizer_names = prop::collection::vec(
        prop::sample::select(vec!["cloud/lb", "pvc/detach", "x"]).prop_map(str::to_owned),
        0..3,
    );
    (
        prop::collection::vec((name(), spec()), 0..7),
        // 0: a fresh spec; 1: desired's spec as is; 2: desired's spec written differently.
        prop::collection::vec((name(), 0u8..3, spec()), 0..7),
        prop::option::of(prop::collection::vec((name(), finalizer_names), 0..6)),
    )
        .prop_map(|(desired_entries, observed_raw, finalizer_entries)| {
            let desired_map = last_wins(&desired_entries);
            let observed_entries: Vec<(String, Json)> = observed_raw
                .into_iter()
                .map(|(name, mode, fresh)| {
                    let spec = match (mode, desired_map.get(&name)) {
                        (1, Some(d)) => d.clone(),
                        (2, Some(d)) => equivalent(d),
                        _ => fresh,
                    };
                    (name, spec)
                })
                .collect();
            Case {
                desired: Resources::from_unique(desired_entries),
                observed: Resources::from_unique(observed_entries.clone()),
                finalizers: finalizer_entries.clone().map(Finalizers::from_unique),
                observed_map: last_wins(&observed_entries),
                finalizers_map: finalizer_entries.as_deref().map(last_wins),
                desired_map,
            }
        })
}

impl Case {
    fn actions(&self) -> Vec<Action> {
        reconcile(&self.desired, &self.observed, self.finalizers.as_ref())
    }

    fn has_pending(&self, name: &str) -> bool {
        self.finalizers_map
            .as_ref()
            .and_then(|m| m.get(name))
            .is_some_and(|list| !list.is_empty())
    }
}

// ---------------------------------------------------------------------------
// Helpers for the parser properties.

fn line_count(text: &str) -> usize {
    text.split('\n').count()
}

fn check_location(text: &str, error: &InputError) -> Result<(), TestCaseError> {
    prop_assert!(error.line >= 1, "line {} in {:?}", error.line, error);
    prop_assert!(error.column >= 1, "column {} in {:?}", error.column, error);
    prop_assert!(
        error.line <= line_count(text),
        "line {} beyond {} lines: {:?}",
        error.line,
        line_count(text),
        error
    );
    let line_chars = text
        .split('\n')
        .nth(error.line - 1)
        .map_or(0, |l| l.chars().count());
    prop_assert!(
        error.column <= line_chars + 1,
        "column {} beyond line of {} chars: {:?}",
        error.column,
        line_chars,
        error
    );
    prop_assert!(!error.message.is_empty());
    let shown = error.to_string();
    let prefix = format!("{}: {}", error.document, error.location());
    prop_assert!(shown.starts_with(&prefix), "{}", shown);
    Ok(())
}

/// Runs every parser over `text`; none may panic, and every error must be located.
fn parse_everything(text: &str) -> Result<(), TestCaseError> {
    let results = [
        parse_resources(Document::Desired, text).err(),
        parse_resources(Document::Observed, text).err(),
        parse_finalizers(text).err(),
        parse_scenario(text).err(),
        parse_json(Document::Finalizers, text).err(),
        format_document(Document::Scenario, text).err(),
    ];
    for error in results.iter().flatten() {
        check_location(text, error)?;
    }
    Ok(())
}

/// JSON text for `value`, written in an unusual but valid way: whitespace
/// around everything, every non-ASCII character as `\u` escapes (surrogate
/// pairs for emoji), integral numbers below 2^53 written as `N.0` or `Ne0`.
fn render_unusual(value: &Json, out: &mut String) {
    match value {
        Json::Null => out.push_str("null"),
        Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Json::Number(Number::Unsigned(u)) if *u < (1 << 53) => {
            out.push_str(&format!("{u}.0"));
        }
        Json::Number(Number::Signed(i)) if i.unsigned_abs() < (1 << 53) => {
            out.push_str(&format!("{i}e0"));
        }
        Json::Number(_) => out.push_str(&value.to_compact_string()),
        Json::String(s) => render_string(s, out),
        Json::Array(items) => {
            out.push_str("[ ");
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(" ,\n");
                }
                render_unusual(item, out);
            }
            out.push_str("\t]");
        }
        Json::Object(members) => {
            out.push_str("{\r\n");
            for (i, (key, item)) in members.iter().enumerate() {
                if i > 0 {
                    out.push_str(",\n ");
                }
                render_string(key, out);
                out.push_str(" :\t");
                render_unusual(item, out);
            }
            out.push_str(" }");
        }
    }
}

fn render_string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_ascii() && !c.is_ascii_control() => out.push(c),
            c => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    out.push_str(&format!("\\u{unit:04X}"));
                }
            }
        }
    }
    out.push('"');
}

// ---------------------------------------------------------------------------
// Reconcile properties.

proptest! {
    #![proptest_config(config())]

    /// (a) CREATE/UPDATE first, then FINALIZE/DELETE; each group strictly increasing by name.
    #[test]
    fn output_order(case in case()) {
        let actions = case.actions();
        let split = actions
            .iter()
            .position(|a| !a.kind.is_for_desired_name())
            .unwrap_or(actions.len());
        let (upserts, removals) = actions.split_at(split);
        prop_assert!(upserts.iter().all(|a| a.kind.is_for_desired_name()));
        prop_assert!(removals
            .iter()
            .all(|a| matches!(a.kind, ActionKind::Finalize | ActionKind::Delete)));
        for group in [upserts, removals] {
            for pair in group.windows(2) {
                prop_assert!(
                    *pair[0].name < *pair[1].name,
                    "{:?} before {:?}", pair[0], pair[1]
                );
            }
        }
    }

    /// `count_out_of_sync` counts exactly the actions `reconcile` returns, with
    /// or without finalizers, whether specs share payloads or not.
    #[test]
    fn count_out_of_sync_equals_the_number_of_actions(case in case()) {
        let f = case.finalizers.as_ref();
        prop_assert_eq!(
            count_out_of_sync(&case.desired, &case.observed, f),
            reconcile(&case.desired, &case.observed, f).len()
        );
        prop_assert_eq!(
            count_out_of_sync(&case.desired, &case.observed, None),
            reconcile(&case.desired, &case.observed, None).len()
        );
        // After the desired specs are applied, observed shares them: still the same count.
        let mut applied = case.observed.clone();
        for action in reconcile(&case.desired, &case.observed, f) {
            if let Some(spec) = action.spec {
                applied.insert(action.name, spec);
            }
        }
        prop_assert_eq!(
            count_out_of_sync(&case.desired, &applied, f),
            reconcile(&case.desired, &applied, f).len()
        );
    }

    /// (b) At most one action per name.
    #[test]
    fn one_action_per_name(case in case()) {
        let actions = case.actions();
        let names: BTreeSet<&str> = actions.iter().map(|a| &*a.name).collect();
        prop_assert_eq!(names.len(), actions.len());
    }

    /// (c) Every name is accounted for, with the kind the rules demand.
    #[test]
    fn every_name_accounted_for(case in case()) {
        let actions = case.actions();
        let by_name: BTreeMap<&str, &Action> =
            actions.iter().map(|a| (&*a.name, a)).collect();
        let all_names: BTreeSet<&String> =
            case.desired_map.keys().chain(case.observed_map.keys()).collect();
        for name in &all_names {
            let action = by_name.get(name.as_str());
            match (case.desired_map.get(*name), case.observed_map.get(*name)) {
                (Some(d), None) => {
                    prop_assert_eq!(action, Some(&&Action::create(name.as_str(), d.clone())));
                }
                (Some(d), Some(o)) if d == o => prop_assert_eq!(action, None),
                (Some(d), Some(_)) => {
                    prop_assert_eq!(action, Some(&&Action::update(name.as_str(), d.clone())));
                }
                (None, Some(_)) if case.has_pending(name) => {
                    prop_assert_eq!(action, Some(&&Action::finalize(name.as_str())));
                }
                (None, Some(_)) => {
                    prop_assert_eq!(action, Some(&&Action::delete(name.as_str())));
                }
                (None, None) => unreachable!("name came from one of the maps"),
            }
        }
        // No action for a name outside desired ∪ observed (e.g. a finalizer-only name).
        for action in &actions {
            prop_assert!(all_names.contains(&action.name.to_string()), "{:?}", action);
        }
    }

    /// (d) Applying CREATE/UPDATE/DELETE and reconciling again yields nothing.
    #[test]
    fn applying_the_actions_converges(case in case()) {
        let mut observed = case.observed.clone();
        for action in reconcile(&case.desired, &observed, None) {
            match (action.kind, action.spec) {
                (ActionKind::Create | ActionKind::Update, Some(spec)) => {
                    observed.insert(action.name, spec);
                }
                (ActionKind::Delete, None) => {
                    prop_assert!(observed.remove(&action.name).is_some());
                }
                (kind, spec) => prop_assert!(false, "unexpected {kind} with spec {spec:?}"),
            }
        }
        prop_assert_eq!(reconcile(&case.desired, &observed, None), vec![]);
        prop_assert_eq!(&observed, &case.desired);
    }

    /// With finalizers, applying everything but FINALIZE leaves exactly the FINALIZE actions,
    /// and reconciling twice without applying gives the same answer (level-based).
    #[test]
    fn only_finalize_remains_with_pending_finalizers(case in case()) {
        let first = case.actions();
        prop_assert_eq!(&first, &case.actions());
        let mut observed = case.observed.clone();
        let mut finalizing = Vec::new();
        for action in &first {
            match action.kind {
                ActionKind::Create | ActionKind::Update => {
                    observed.insert(action.name.clone(), action.spec.clone().unwrap_or(Json::Null));
                }
                ActionKind::Delete => {
                    observed.remove(&action.name);
                }
                ActionKind::Finalize => finalizing.push(action.clone()),
            }
        }
        prop_assert_eq!(
            reconcile(&case.desired, &observed, case.finalizers.as_ref()),
            finalizing
        );
    }
}

proptest! {
    #![proptest_config(config())]

    /// The explained plan agrees with `reconcile`, counts, reasons and drift,
    /// and its text has one line per action, per drift, and the summary.
    #[test]
    fn plan_agrees_with_reconcile(case in case()) {
        let actions = case.actions();
        let p = plan(&case.desired, &case.observed, case.finalizers.as_ref());
        prop_assert_eq!(&p.bare_actions(), &actions);
        prop_assert_eq!(p.summary, Summary::of(&actions));
        prop_assert_eq!(p.summary.total(), actions.len());
        prop_assert_eq!(&p.summary_text, &p.summary.to_string());
        for explained in &p.actions {
            let name = &*explained.action.name;
            match (&explained.reason, explained.action.kind) {
                (Reason::NotObserved, ActionKind::Create)
                | (Reason::NoFinalizersPending { .. }, ActionKind::Delete) => {
                    prop_assert!(explained.drift.is_empty());
                }
                (Reason::Drifted { fields }, ActionKind::Update) => {
                    prop_assert!(*fields > 0);
                    prop_assert_eq!(*fields, explained.drift.len());
                    let observed = case.observed.get(name).expect("update of an observed name");
                    prop_assert_eq!(&explained.drift, &diff(observed, &case.desired_map[name]));
                }
                (Reason::FinalizersPending { finalizers }, ActionKind::Finalize) => {
                    prop_assert!(!finalizers.is_empty());
                    let expected = case.finalizers_map.as_ref().and_then(|m| m.get(name));
                    prop_assert_eq!(Some(finalizers), expected);
                }
                (reason, kind) => prop_assert!(false, "{kind} explained by {reason:?}"),
            }
            if let Reason::NoFinalizersPending { had_entry } = explained.reason {
                let entry = case.finalizers_map.as_ref().and_then(|m| m.get(name));
                prop_assert_eq!(had_entry, entry.is_some());
            }
        }
        let text = p.to_text();
        let drift_lines: usize = p.actions.iter().map(|a| a.drift.len()).sum();
        prop_assert_eq!(text.lines().count(), actions.len() + drift_lines + 1, "{}", text);
        prop_assert_eq!(text.lines().last(), Some(p.summary_text.as_str()));
        let symbols: Vec<&str> = text
            .lines()
            .filter(|l| !l.starts_with("    "))
            .filter_map(|l| l.split_once(' ').map(|(symbol, _)| symbol))
            .take(actions.len())
            .collect();
        let expected: Vec<&str> = actions.iter().map(|a| a.kind.symbol()).collect();
        prop_assert_eq!(symbols, expected);
    }
}

// ---------------------------------------------------------------------------
// Equality and diff.

/// A pair of specs that are often equal or nearly equal.
fn spec_pair() -> impl Strategy<Value = (Json, Json)> {
    (spec(), spec(), 0u8..4, any::<u64>()).prop_map(|(a, b, mode, seed)| match mode {
        0 => (a, b),
        1 => {
            let same = equivalent(&a);
            (a, same)
        }
        2 => {
            let mut seed = seed;
            let same = permuted(&a, &mut seed);
            (a, same)
        }
        // Nearly equal: the same object with one more member, or b nested in a.
        _ => {
            let grown = match &a {
                Json::Object(members) if !members.iter().any(|(k, _)| &**k == "extra") => {
                    let mut members = members.to_vec();
                    members.push(("extra".into(), b));
                    Json::object(members)
                }
                _ => Json::array(vec![a.clone(), b]),
            };
            (a, grown)
        }
    })
}

proptest! {
    #![proptest_config(config())]

    /// (e) `diff` is empty exactly when the values are equal, and each drift is a real difference.
    #[test]
    fn diff_empty_iff_equal((observed, desired) in spec_pair()) {
        let drift = diff(&observed, &desired);
        prop_assert_eq!(drift.is_empty(), observed == desired, "{:?}", drift);
        for d in &drift {
            prop_assert_ne!(&d.observed, &d.desired);
            prop_assert!(d.observed.is_some() || d.desired.is_some());
        }
        prop_assert!(diff(&observed, &observed).is_empty());
        prop_assert_eq!(diff(&desired, &observed).len() == drift.len(), true);
    }

    /// (f) Equality is reflexive and symmetric, and ignores member order and number form.
    #[test]
    fn equality_laws((a, b) in spec_pair(), seed in any::<u64>()) {
        prop_assert_eq!(&a, &a.clone());
        prop_assert_eq!(&a, &unshared(&a));
        prop_assert_eq!(a == b, b == a);
        // Sharing payloads never changes a comparison's result.
        prop_assert_eq!(unshared(&a) == unshared(&b), a == b);
        prop_assert_eq!(a.clone() == unshared(&b), a == b);
        let mut seed = seed;
        let shuffled = permuted(&a, &mut seed);
        prop_assert_eq!(&a, &shuffled);
        prop_assert_eq!(&shuffled, &a);
        prop_assert_eq!(&a, &equivalent(&a));
        prop_assert_eq!(&equivalent(&a), &a);
        // Equal values stay equal when both are permuted, unequal ones stay unequal.
        prop_assert_eq!(permuted(&a, &mut seed) == permuted(&b, &mut seed), a == b);
        // Wrapping changes the value.
        let wrapped = Json::array(vec![a.clone()]);
        prop_assert_ne!(&wrapped, &a);
    }
}

// ---------------------------------------------------------------------------
// Parsing.

/// Mutates text: 0 truncates, 1 inserts a character, 2 deletes one, at a character index.
fn mutate(text: &str, how: u8, at: usize, insert: char) -> String {
    let chars: Vec<char> = text.chars().collect();
    let at = at % (chars.len() + 1);
    match how {
        0 => chars[..at].iter().collect(),
        1 => {
            let mut out: Vec<char> = chars.clone();
            out.insert(at, insert);
            out.into_iter().collect()
        }
        _ => chars
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != at)
            .map(|(_, c)| *c)
            .collect(),
    }
}

fn scenario_text(case: &Case, pretty: bool) -> String {
    let scenario = Scenario {
        desired: case.desired.clone(),
        observed: case.observed.clone(),
        finalizers: case.finalizers.clone(),
    };
    if pretty {
        serde_json::to_string_pretty(&scenario).expect("scenario serializes")
    } else {
        serde_json::to_string(&scenario).expect("scenario serializes")
    }
}

proptest! {
    #![proptest_config(config())]

    /// (g) Serializing and parsing back gives equal values, for every document kind.
    #[test]
    fn parse_round_trip(case in case(), pretty in any::<bool>()) {
        let to_text = |value: &Resources| if pretty {
            serde_json::to_string_pretty(value).expect("serializes")
        } else {
            serde_json::to_string(value).expect("serializes")
        };
        let text = to_text(&case.desired);
        prop_assert_eq!(&parse_resources(Document::Desired, &text).expect("round trip"), &case.desired);
        let text = to_text(&case.observed);
        let observed = parse_resources(Document::Observed, &text).expect("round trip");
        prop_assert_eq!(&observed, &case.observed);
        // A copy that shares the text reads the same, and plans the same.
        prop_assert_eq!(&observed.share(), &case.observed);
        prop_assert_eq!(
            plan(&case.desired, &observed.share(), None),
            plan(&case.desired, &case.observed, None)
        );

        let text = serde_json::to_string(&case.finalizers).expect("serializes");
        prop_assert_eq!(&parse_finalizers(&text).expect("round trip"), &case.finalizers);

        let text = scenario_text(&case, pretty);
        let scenario = parse_scenario(&text).expect("round trip");
        prop_assert_eq!(&scenario.desired, &case.desired);
        prop_assert_eq!(&scenario.observed, &case.observed);
        prop_assert_eq!(&scenario.finalizers, &case.finalizers);
        // And serializing the parsed value again gives the same text.
        prop_assert_eq!(scenario_text(&case, pretty), {
            let again = Case { desired: scenario.desired, observed: scenario.observed,
                               finalizers: scenario.finalizers, ..case.clone() };
            scenario_text(&again, pretty)
        });
    }

    /// (g) Values written with escapes, odd whitespace and other number forms parse equal.
    #[test]
    fn unusual_text_parses_to_an_equal_value(value in spec()) {
        let mut text = String::new();
        render_unusual(&value, &mut text);
        let parsed = parse_json(Document::Desired, &text)
            .map_err(|e| TestCaseError::fail(format!("{e} in {text}")))?;
        prop_assert_eq!(&parsed, &value);
        // Formatting is idempotent and keeps the value.
        let pretty = format_document(Document::Desired, &text).expect("valid");
        prop_assert_eq!(&parse_json(Document::Desired, &pretty).expect("valid"), &value);
        prop_assert_eq!(format_document(Document::Desired, &pretty).expect("valid"), pretty.clone());
    }

    /// (h) No panic on arbitrary text, and every error is located inside the text.
    #[test]
    fn parser_never_panics_on_arbitrary_text(text in any::<String>()) {
        parse_everything(&text)?;
    }

    /// (h) Same, for JSON-looking noise that gets further into the parser.
    #[test]
    fn parser_never_panics_on_json_like_noise(
        text in "[\\[\\]{}:,\"0-9.eE+\\-tfnrul \n\r\té🚀\\\\/]{0,48}"
    ) {
        parse_everything(&text)?;
    }

    /// (h) Same, for valid scenarios truncated, with a character inserted or deleted.
    #[test]
    fn parser_never_panics_on_mutated_valid_text(
        case in case(),
        pretty in any::<bool>(),
        how in 0u8..3,
        at in any::<usize>(),
        insert in prop::sample::select(vec!['{', '}', '[', ']', ',', ':', '"', '\\', '\n', 'x', '1', '.', '-', 'é', '🚀', '\u{0}', '\u{FEFF}']),
    ) {
        let text = mutate(&scenario_text(&case, pretty), how, at, insert);
        parse_everything(&text)?;
        if let Err(error) = parse_scenario(&text) {
            prop_assert_eq!(error.document, Document::Scenario);
        }
    }
}

#[test]
fn generators_produce_overlap_and_equal_specs() {
    // Guards the generators: without overlap the properties above would be vacuous.
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let strategy = case();
    let (mut updates, mut equal, mut finalizes, mut deletes) = (0, 0, 0, 0);
    for _ in 0..200 {
        let case = strategy.new_tree(&mut runner).expect("generates").current();
        for action in case.actions() {
            match action.kind {
                ActionKind::Update => updates += 1,
                ActionKind::Finalize => finalizes += 1,
                ActionKind::Delete => deletes += 1,
                ActionKind::Create => {}
            }
        }
        equal += case
            .desired
            .iter()
            .filter(|(n, d)| case.observed.get(n) == Some(*d))
            .count();
    }
    assert!(updates > 20, "updates: {updates}");
    assert!(equal > 20, "equal specs: {equal}");
    assert!(finalizes > 10, "finalizes: {finalizes}");
    assert!(deletes > 20, "deletes: {deletes}");
}
