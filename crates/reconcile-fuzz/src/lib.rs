//! Input generators and checks shared by the fuzz targets in `fuzz_targets/`.
//!
//! Generated names come from a small pool most of the time, so desired,
//! observed and finalizers overlap (where the contract has its cases), and
//! sometimes from arbitrary text. The pool mixes names whose code-point order
//! differs from JavaScript's UTF-16 order (`\u{ffff}` before `😀`).
//!
//! Every check panics with a message naming the broken guarantee: a panic is
//! what libFuzzer reports as a crash.

use std::cmp::Ordering;

use arbitrary::{Result, Unstructured};
use reconcile_content::presets::presets;
use reconcile_core::{
    parse_finalizers, parse_resources, Document, Finalizers, InputError, Json, Number, Resources,
    Scenario,
};
use reconcile_sim::{
    BackoffPolicy, CrashPlan, FinalizerOwner, FinalizerRef, ObjectNaming, ObjectWrites,
    OtherWriter, QueueModel, ScriptedEvent, SimConfig, SpecComparison, StatusWrites, WorldEvent,
};

/// Separates the three documents of a `parse_scenario` input. A raw NUL is
/// invalid everywhere in JSON text (even inside strings), so splitting never
/// cuts a valid document in two.
pub const DOCUMENT_SEPARATOR: char = '\0';

/// `desired NUL observed NUL finalizers`; missing documents are empty texts.
pub fn split_documents(text: &str) -> [&str; 3] {
    let mut parts = text.splitn(3, DOCUMENT_SEPARATOR);
    let mut next = || parts.next().unwrap_or("");
    [next(), next(), next()]
}

/// Panics unless `error` points inside `text` and reads as the editor shows it.
pub fn assert_located(text: &str, error: &InputError) {
    let lines: Vec<&str> = text.split('\n').collect();
    assert!(
        error.line >= 1 && error.line <= lines.len(),
        "line {} outside a text of {} lines: {error:?}",
        error.line,
        lines.len()
    );
    let line_chars = lines[error.line - 1].chars().count();
    assert!(
        error.column >= 1 && error.column <= line_chars + 1,
        "column {} outside a line of {line_chars} characters: {error:?}",
        error.column
    );
    assert!(!error.message.is_empty(), "empty message: {error:?}");
    let path = error.path.to_string();
    assert!(path.starts_with('$'), "path {path:?} does not start at $");
    let shown = error.to_string();
    let prefix = format!(
        "{}: line {}, column {} at ",
        error.document.label(),
        error.line,
        error.column
    );
    assert!(
        shown.starts_with(&prefix),
        "{shown:?} does not start with {prefix:?}"
    );
}

// ---------------------------------------------------------------------------
// Names, specs and resources.

/// Names that overlap between documents and sort differently by code point
/// than by UTF-16 unit; also the empty name, whitespace, control characters and quotes.
const NAME_POOL: [&str; 16] = [
    "a",
    "b",
    "c",
    "web",
    "Z",
    "é",
    "\u{ffff}",
    "😀",
    "\u{10ffff}",
    "",
    "a b",
    "a\nb",
    "\u{7f}",
    "\"",
    "\\",
    "ab",
];
const FINALIZER_POOL: [&str; 4] = ["kubernetes", "cloud/lb-cleanup", "example.com/backup", ""];

fn pooled(u: &mut Unstructured<'_>, pool: &[&str]) -> Result<String> {
    // Mostly the pool; sometimes any text, so every code point gets its turn.
    if u.ratio(7, 8)? {
        Ok((*u.choose(pool)?).to_owned())
    } else {
        u.arbitrary()
    }
}

pub fn name(u: &mut Unstructured<'_>) -> Result<String> {
    pooled(u, &NAME_POOL)
}

pub fn finalizer_name(u: &mut Unstructured<'_>) -> Result<String> {
    pooled(u, &FINALIZER_POOL)
}

/// A finite JSON number, with the spellings the contract equates (`1`, `1.0`,
/// `-0`, `1e0`) and the edges of `u64`, `i64` and `f64`.
pub fn number(u: &mut Unstructured<'_>) -> Result<Number> {
    const FLOATS: [f64; 12] = [
        0.0,
        -0.0,
        1.0,
        0.5,
        -1.5,
        9_007_199_254_740_992.0,
        18_446_744_073_709_551_616.0,
        -9_223_372_036_854_775_808.0,
        1e300,
        f64::MAX,
        f64::MIN_POSITIVE,
        5e-324,
    ];
    Ok(match u.int_in_range(0..=5)? {
        0 => Number::Unsigned(u.int_in_range(0..=3)?),
        1 => Number::Unsigned(u.arbitrary()?),
        2 => Number::Signed(u.int_in_range(i64::MIN..=-1)?),
        3 => Number::Float(*u.choose(&FLOATS)?),
        4 => Number::Float(f64::from(u.int_in_range(-4..=4)?) / 2.0),
        _ => {
            let float: f64 = u.arbitrary()?;
            // JSON has no NaN or infinity, and the parser rejects them.
            Number::Float(if float.is_finite() { float } else { 0.0 })
        }
    })
}

/// A spec at most `depth` levels deep; object member names are unique, as the parser guarantees.
pub fn spec(u: &mut Unstructured<'_>, depth: u32) -> Result<Json> {
    let kinds = if depth == 0 { 4 } else { 6 };
    Ok(match u.int_in_range(0..=kinds)? {
        0 => Json::Null,
        1 => Json::Bool(u.arbitrary()?),
        2 | 3 => Json::Number(number(u)?),
        4 => Json::string(&name(u)?),
        5 => {
            let len = u.int_in_range(0..=3)?;
            let items = (0..len)
                .map(|_| spec(u, depth - 1))
                .collect::<Result<_>>()?;
            Json::array(items)
        }
        _ => {
            let len = u.int_in_range(0..=3)?;
            let mut members: Vec<(Box<str>, Json)> = Vec::new();
            for _ in 0..len {
                let key = name(u)?;
                let value = spec(u, depth - 1)?;
                if !members.iter().any(|(k, _)| **k == *key) {
                    members.push((key.into(), value));
                }
            }
            Json::object(members)
        }
    })
}

/// A value that must compare equal to `value` under the contract, written
/// differently: members in another order, integers as floats and back, and
/// no payload shared with the original (so equality cannot take the pointer shortcut).
pub fn equivalent(u: &mut Unstructured<'_>, value: &Json) -> Result<Json> {
    const EXACT: f64 = 9_007_199_254_740_992.0; // 2^53: integers below it are exact floats
    Ok(match value {
        Json::Null => Json::Null,
        Json::Bool(b) => Json::Bool(*b),
        Json::Number(number) => Json::Number(match *number {
            #[allow(clippy::cast_precision_loss)] // guarded: below 2^53 the cast is exact
            Number::Unsigned(n) if (n as f64) < EXACT && u.arbitrary()? => Number::Float(n as f64),
            #[allow(clippy::cast_precision_loss)]
            Number::Signed(n) if (n as f64).abs() < EXACT && u.arbitrary()? => {
                Number::Float(n as f64)
            }
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            Number::Float(f)
                if f.fract() == 0.0 && (0.0..18_446_744_073_709_551_616.0).contains(&f) =>
            {
                Number::Unsigned(f as u64)
            }
            other => other,
        }),
        Json::String(text) => Json::string(text),
        Json::Array(items) => Json::array(
            items
                .iter()
                .map(|item| equivalent(u, item))
                .collect::<Result<_>>()?,
        ),
        Json::Object(members) => {
            let mut copy = members
                .iter()
                .map(|(k, v)| Ok((k.clone(), equivalent(u, v)?)))
                .collect::<Result<Vec<_>>>()?;
            // A Fisher-Yates shuffle driven by the input.
            for i in (1..copy.len()).rev() {
                let j = u.int_in_range(0..=i)?;
                copy.swap(i, j);
            }
            Json::object(copy)
        }
    })
}

/// The contract's equality, written independently of `Json`'s: objects as
/// sorted member lists, numbers by exact value.
pub fn canonical(value: &Json) -> String {
    match value {
        Json::Null => "null".to_owned(),
        Json::Bool(b) => b.to_string(),
        Json::Number(number) => canonical_number(*number),
        Json::String(text) => format!("{text:?}"),
        Json::Array(items) => {
            let items: Vec<String> = items.iter().map(canonical).collect();
            format!("[{}]", items.join(","))
        }
        Json::Object(members) => {
            let mut members: Vec<String> = members
                .iter()
                .map(|(k, v)| format!("{k:?}:{}", canonical(v)))
                .collect();
            members.sort();
            format!("{{{}}}", members.join(","))
        }
    }
}

fn canonical_number(number: Number) -> String {
    match number {
        Number::Unsigned(n) => format!("int {n}"),
        Number::Signed(n) => format!("int {n}"),
        // An integral float is an integer; i128 holds every one below 2^127 exactly.
        #[allow(clippy::cast_possible_truncation)]
        Number::Float(f) if f.fract() == 0.0 && f.abs() < 1.7e38 => format!("int {}", f as i128),
        Number::Float(f) => format!("float {:?}", f.to_bits()),
    }
}

/// How an observed spec was made from the desired spec of the same name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Relation {
    /// The same value (shared payload), or rewritten to compare equal.
    Equal,
    /// Generated independently, or changed in one place: may or may not be equal.
    Unknown,
}

/// One `reconcile` input, with what is known about it independently of the core.
#[derive(Debug)]
pub struct ReconcileCase {
    pub desired: Vec<(String, Json)>,
    pub observed: Vec<(String, Json)>,
    pub finalizers: Option<Vec<(String, Vec<String>)>>,
    /// Names whose observed spec was made equal to the desired spec.
    pub equal_by_construction: Vec<String>,
}

impl ReconcileCase {
    pub fn generate(u: &mut Unstructured<'_>) -> Result<Self> {
        let desired = unique_entries(u, 6, |u| spec(u, 3))?;
        let mut observed: Vec<(String, Json)> = Vec::new();
        let mut equal_by_construction = Vec::new();
        // Most desired names are observed too, with an equal or a differing spec.
        for (name, desired_spec) in &desired {
            if !u.ratio(3, 4)? {
                continue;
            }
            let (observed_spec, relation) = match u.int_in_range(0..=3)? {
                0 => (desired_spec.clone(), Relation::Equal),
                1 => (equivalent(u, desired_spec)?, Relation::Equal),
                2 => {
                    let mut changed = equivalent(u, desired_spec)?;
                    changed.set_path(&[self::name(u)?], spec(u, 1)?);
                    (changed, Relation::Unknown)
                }
                _ => (spec(u, 3)?, Relation::Unknown),
            };
            if relation == Relation::Equal {
                equal_by_construction.push(name.clone());
            }
            observed.push((name.clone(), observed_spec));
        }
        // And some names only observed.
        for (name, spec) in unique_entries(u, 4, |u| spec(u, 2))? {
            if !desired.iter().any(|(n, _)| *n == name) {
                observed.push((name, spec));
            }
        }
        let finalizers = if u.ratio(3, 4)? {
            Some(unique_entries(u, 5, |u| {
                let len = u.int_in_range(0..=2)?;
                (0..len).map(|_| finalizer_name(u)).collect()
            })?)
        } else {
            None
        };
        Ok(Self {
            desired,
            observed,
            finalizers,
            equal_by_construction,
        })
    }
}

/// Up to `max` entries with distinct names.
fn unique_entries<T>(
    u: &mut Unstructured<'_>,
    max: usize,
    mut value: impl FnMut(&mut Unstructured<'_>) -> Result<T>,
) -> Result<Vec<(String, T)>> {
    let len = u.int_in_range(0..=max)?;
    let mut entries: Vec<(String, T)> = Vec::new();
    for _ in 0..len {
        let name = name(u)?;
        let value = value(u)?;
        if !entries.iter().any(|(n, _)| *n == name) {
            entries.push((name, value));
        }
    }
    Ok(entries)
}

/// Orders names by Unicode code point, counted char by char (not through `str::cmp`).
pub fn code_point_order(a: &str, b: &str) -> Ordering {
    a.chars().cmp(b.chars())
}

/// JSON object text for entries, through `Json`'s serializer: `{"name": value, ...}`.
pub fn object_text(entries: &[(String, Json)], pretty: bool) -> String {
    let object = Json::object(
        entries
            .iter()
            .map(|(name, value)| (name.as_str().into(), value.clone()))
            .collect(),
    );
    if pretty {
        object.to_pretty_string()
    } else {
        object.to_compact_string()
    }
}

/// Builds `Resources` both directly and from their JSON text; the two must agree.
pub fn resources_both_ways(document: Document, entries: &[(String, Json)]) -> Resources {
    let direct = Resources::from_unique(entries.to_vec());
    for pretty in [false, true] {
        let text = object_text(entries, pretty);
        let parsed = parse_resources(document, &text)
            .unwrap_or_else(|e| panic!("generated resources do not parse back: {e}\n{text}"));
        assert!(
            parsed == direct,
            "resources changed through their text:\n{text}\n{parsed:?}\n{direct:?}"
        );
    }
    direct
}

/// Builds `Finalizers` both directly and from their JSON text; the two must agree.
pub fn finalizers_both_ways(entries: &[(String, Vec<String>)]) -> Finalizers {
    let direct = Finalizers::from_unique(entries.to_vec());
    let text = serde_json::to_string(&direct).unwrap_or_default();
    let parsed = parse_finalizers(&text)
        .unwrap_or_else(|e| panic!("generated finalizers do not parse back: {e}\n{text}"));
    assert_eq!(parsed.as_ref(), Some(&direct), "finalizers through {text}");
    direct
}

// ---------------------------------------------------------------------------
// Simulation inputs.

const SIM_NAMES: [&str; 5] = ["a", "b", "c", "web", "é"];

fn sim_name(u: &mut Unstructured<'_>) -> Result<String> {
    pooled(u, &SIM_NAMES)
}

/// Durations: mostly everyday ones, sometimes the extremes a JS caller may pass.
fn millis(u: &mut Unstructured<'_>) -> Result<u64> {
    Ok(match u.int_in_range(0..=9)? {
        0 => 0,
        1 => u64::MAX,
        2 => u.arbitrary()?,
        _ => u.int_in_range(1..=2_000)?,
    })
}

/// Probabilities: usually none, often in [0, 1], now and then outside it.
fn rate(u: &mut Unstructured<'_>) -> Result<f64> {
    Ok(match u.int_in_range(0..=7)? {
        0..=3 => 0.0,
        4 => 1.0,
        5 => -0.5,
        6 => 1.5,
        _ => f64::from(u.arbitrary::<u8>()?) / 255.0,
    })
}

fn sim_spec(u: &mut Unstructured<'_>) -> Result<Json> {
    if u.arbitrary()? {
        let replicas = Json::Number(Number::Unsigned(u.int_in_range(0..=3)?));
        Ok(Json::object(vec![("replicas".into(), replicas)]))
    } else {
        spec(u, 2)
    }
}

fn sim_resources(u: &mut Unstructured<'_>) -> Result<Resources> {
    let len = u.int_in_range(0..=4)?;
    let entries = (0..len)
        .map(|_| Ok((sim_name(u)?, sim_spec(u)?)))
        .collect::<Result<Vec<_>>>()?;
    Ok(Resources::from_unique(entries))
}

fn field_path(u: &mut Unstructured<'_>) -> Result<Vec<String>> {
    let len = u.int_in_range(0..=2)?;
    (0..len)
        .map(|_| pooled(u, &["replicas", "image", "type"]))
        .collect()
}

fn world_event(u: &mut Unstructured<'_>) -> Result<WorldEvent> {
    Ok(match u.int_in_range(0..=5)? {
        0 => WorldEvent::Delete { name: sim_name(u)? },
        5 => WorldEvent::RestartApiServer,
        1 => WorldEvent::Drift {
            name: sim_name(u)?,
            path: field_path(u)?,
            value: spec(u, 1)?,
        },
        2 => WorldEvent::StrayCreate {
            name: sim_name(u)?,
            spec: sim_spec(u)?,
        },
        3 => WorldEvent::AddFinalizer {
            name: sim_name(u)?,
            finalizer: finalizer_name(u)?,
        },
        _ => WorldEvent::SetDesired {
            desired: sim_resources(u)?,
        },
    })
}

fn backoff(u: &mut Unstructured<'_>) -> Result<BackoffPolicy> {
    if u.arbitrary()? {
        return Ok(BackoffPolicy::default());
    }
    Ok(if u.arbitrary()? {
        BackoffPolicy::FixedDelay {
            delay_ms: millis(u)?,
        }
    } else {
        BackoffPolicy::ClientGo {
            base_ms: millis(u)?,
            max_ms: millis(u)?,
            qps: *u.choose(&[10.0, 0.0, 0.5, 1e9, -1.0, 1e-300])?,
            burst: *u.choose(&[100, 0, 1, u32::MAX])?,
        }
    })
}

fn short_list<T>(
    u: &mut Unstructured<'_>,
    max: usize,
    mut item: impl FnMut(&mut Unstructured<'_>) -> Result<T>,
) -> Result<Vec<T>> {
    let len = u.int_in_range(0..=max)?;
    (0..len).map(|_| item(u)).collect()
}

/// The longest run a fuzz input may ask for, so each input takes milliseconds.
pub const MAX_PASSES: usize = 40;

/// A simulation input: a built-in preset with some settings changed, or a
/// small generated scenario with generated settings.
pub fn sim_case(u: &mut Unstructured<'_>) -> Result<(Scenario, SimConfig)> {
    if u.ratio(1, 3)? {
        let preset = u.choose(presets())?;
        let scenario = Scenario {
            desired: parse_resources(Document::Desired, &preset.desired)
                .unwrap_or_else(|e| panic!("preset {} does not parse: {e}", preset.id)),
            observed: parse_resources(Document::Observed, &preset.observed)
                .unwrap_or_else(|e| panic!("preset {} does not parse: {e}", preset.id)),
            finalizers: parse_finalizers(&preset.finalizers)
                .unwrap_or_else(|e| panic!("preset {} does not parse: {e}", preset.id)),
        };
        let mut config = preset
            .sim
            .read()
            .unwrap_or_else(|e| panic!("preset {} settings do not read: {e}", preset.id));
        config.seed = u.arbitrary()?;
        config.max_passes = config.max_passes.min(MAX_PASSES);
        if u.arbitrary()? {
            config.failure_rate = rate(u)?;
            config.watch_break_rate = rate(u)?;
        }
        return Ok((scenario, config));
    }
    let scenario = Scenario {
        desired: sim_resources(u)?,
        observed: sim_resources(u)?,
        finalizers: if u.arbitrary()? {
            let len = u.int_in_range(0..=3)?;
            let entries = (0..len)
                .map(|_| Ok((sim_name(u)?, short_list(u, 2, finalizer_name)?)))
                .collect::<Result<Vec<_>>>()?;
            Some(Finalizers::from_unique(entries))
        } else {
            None
        },
    };
    let config = SimConfig {
        seed: u.arbitrary()?,
        max_passes: u.int_in_range(0..=MAX_PASSES)?,
        failure_rate: rate(u)?,
        watch_break_rate: rate(u)?,
        resync_period_ms: if u.arbitrary()? {
            Some(millis(u)?)
        } else {
            None
        },
        watch_owned: u.ratio(7, 8)?,
        backoff: backoff(u)?,
        action_ms: millis(u)?,
        watch_latency_ms: millis(u)?,
        custom_resource_watch_latency_ms: if u.arbitrary()? {
            Some(millis(u)?)
        } else {
            None
        },
        finalizer_owner_delay_ms: millis(u)?,
        pod_stop_ms: millis(u)?,
        restart_delay_ms: millis(u)?,
        stuck_finalizers: short_list(u, 2, |u| {
            Ok(FinalizerRef {
                object: sim_name(u)?,
                finalizer: finalizer_name(u)?,
            })
        })?,
        finalizer_owners: short_list(u, 2, |u| {
            Ok(FinalizerOwner {
                finalizer: finalizer_name(u)?,
                delay_ms: millis(u)?,
            })
        })?,
        crash: if u.ratio(1, 4)? {
            Some(CrashPlan {
                at_pass: u.int_in_range(0..=4)?,
                after_actions: u.int_in_range(0..=4)?,
            })
        } else {
            None
        },
        script: short_list(u, 3, |u| {
            Ok(ScriptedEvent {
                after_pass: u.int_in_range(0..=5)?,
                event: world_event(u)?,
            })
        })?,
        other_writers: short_list(u, 2, |u| {
            Ok(OtherWriter {
                name: pooled(u, &["autoscaler", "operator"])?,
                object: sim_name(u)?,
                path: field_path(u)?,
                value: spec(u, 1)?,
                reaction_ms: millis(u)?,
                writes: Default::default(),
            })
        })?,
        requeue_while_terminating_ms: if u.ratio(1, 4)? {
            Some(millis(u)?)
        } else {
            None
        },
        // kube-rs with any backoff: the options reader refuses it with
        // client-go's, but the engine must not mind.
        queue: *u.choose(&[
            QueueModel::ClientGo,
            QueueModel::ControllerRuntimePriority,
            QueueModel::KubeRs,
        ])?,
        compare: *u.choose(&[SpecComparison::WholeSpec, SpecComparison::FieldsItSets])?,
        writes: *u.choose(&[
            ObjectWrites::Update,
            ObjectWrites::Apply,
            ObjectWrites::ForceApply,
        ])?,
        terminating: short_list(u, 2, sim_name)?,
        naming: *u.choose(&[
            ObjectNaming::Deterministic,
            ObjectNaming::GenerateName,
            ObjectNaming::GenerateNameWithExpectations,
        ])?,
        status_writes: *u.choose(&[
            StatusWrites::None,
            StatusWrites::ObservedGeneration,
            StatusWrites::WithTimestamp,
        ])?,
        generation_changed_predicate: u.arbitrary()?,
        consistency_store: u.arbitrary()?,
        cloud: if u.ratio(1, 4)? {
            Some(reconcile_sim::CloudSettings {
                latency_ms: millis(u)?,
                failure_rate: u.choose(&[0.0, 0.3, 1.0])?.to_owned(),
            })
        } else {
            None
        },
        // Several workers: with one key, one works at a time.
        workers: u.int_in_range(1..=3)?,
    };
    Ok((scenario, config))
}
