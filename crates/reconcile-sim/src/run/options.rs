//! The one reader of simulation settings ([`SimConfig`]), whoever gives them:
//! the JS API's `options`, a lesson's or a preset's `sim`, a share link or an
//! autosave.
//!
//! # Guarantees
//! - A member name that is not a setting is an error ("unknown option"), at
//!   every depth, so a misspelt setting never silently runs with its default.
//! - Missing settings take their defaults; `null` means all defaults.
//! - Every error names where it is ([`OptionsError::path`], relative to the
//!   settings object) and what was expected. Syntax errors of JSON text also
//!   give the line and column.

use std::fmt;

use reconcile_core::json::Json;
use reconcile_core::path::JsonPath;
use reconcile_core::{parse_json, Document};
use serde::Deserialize;

use super::object_only::from_object_text;
use crate::{QueueModel, SimConfig};

/// Why settings could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OptionsError {
    /// Where, from the settings object (`$`, `$.maxPasses`).
    pub path: JsonPath,
    /// What went wrong and what was expected, without the location.
    pub message: String,
}

impl OptionsError {
    fn at_root(message: impl Into<String>) -> Self {
        Self {
            path: JsonPath::root(),
            message: message.into(),
        }
    }

    /// This error's path inside a document whose settings are at `base` (a lesson's `$.sim`).
    pub fn path_within(&self, base: &JsonPath) -> JsonPath {
        base.join(&self.path)
    }
}

impl fmt::Display for OptionsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Simulation options at {}: {}", self.path, self.message)
    }
}

impl std::error::Error for OptionsError {}

/// Reads settings from JSON text (the JS API's `options`).
pub fn parse_options(text: &str) -> Result<SimConfig, OptionsError> {
    // Core's parser, for precise syntax errors; its paths are the settings' paths.
    let value = parse_json(Document::Scenario, text).map_err(|error| OptionsError {
        message: format!("{} ({})", error.message, error.location()),
        path: error.path,
    })?;
    options_from_json(&value)
}

/// Reads settings from a JSON value (a member of a lesson, a preset or a link).
pub fn options_from_json(value: &Json) -> Result<SimConfig, OptionsError> {
    let members = match value {
        Json::Null => return Ok(SimConfig::default()),
        Json::Object(members) => members,
        _ => return Err(OptionsError::at_root("expected an object of options")),
    };
    if let Some((unknown, _)) = members
        .iter()
        .find(|(name, _)| !OPTION_NAMES.contains(&&**name) && !RENAMED.contains(&&**name))
    {
        return Err(OptionsError::at_root(format!(
            "unknown option {unknown:?}; expected one of {}",
            OPTION_NAMES.join(", ")
        )));
    }
    let text = value.to_compact_string();
    let config: SimConfig = from_object_text::<SimConfig>(&text).map_err(|error| {
        // serde's message says what, not where: the first option that fails alone is where.
        let culprit = members.iter().find(|(name, value)| {
            let alone = format!("{{{:?}:{}}}", name, value.to_compact_string());
            from_object_text::<SimConfig>(&alone).is_err()
        });
        let path = culprit.map_or_else(JsonPath::root, |(name, _)| JsonPath::root().key(name));
        let message = error.to_string();
        let message = message
            .rsplit_once(" at line ")
            .map_or(&*message, |(what, _)| what);
        OptionsError {
            path,
            message: message.to_owned(),
        }
    })?;
    if !(1..=MAX_WORKERS).contains(&config.workers) {
        return Err(OptionsError {
            path: JsonPath::root().key("workers"),
            message: format!("expected from 1 to {MAX_WORKERS} workers"),
        });
    }
    if config.queue == QueueModel::KubeRs && config.backoff.kube_error_policy().is_none() {
        // kube-rs has no rate limiter: a failed reconcile is requeued by its
        // `error_policy`, which the fixed-delay policy stands for.
        return Err(OptionsError {
            path: JsonPath::root().key("backoff"),
            message: "the kube-rs queue has no rate limiter: its error_policy requeues after a \
                      fixed delay; expected the backoff policy \"fixed-delay\" with it"
                .to_owned(),
        });
    }
    Ok(config)
}

/// Names earlier builds wrote, still read (serde aliases of [`SimConfig`]):
/// `dropRate` is `watchBreakRate`.
pub const RENAMED: [&str; 1] = ["dropRate"];

/// The most workers a run takes: enough for any lesson of concurrency.
pub const MAX_WORKERS: usize = 64;

/// The setting names, in [`SimConfig`]'s order (a test checks them against
/// its serialization, so they never drift). A list rather than the names of
/// the serialized defaults: serializing settings in a second place costs the
/// page its own copy of the serializer.
pub const OPTION_NAMES: [&str; 29] = [
    "seed",
    "maxPasses",
    "failureRate",
    "watchBreakRate",
    "resyncPeriodMs",
    "watchOwned",
    "backoff",
    "actionMs",
    "watchLatencyMs",
    "finalizerOwnerDelayMs",
    "restartDelayMs",
    "stuckFinalizers",
    "finalizerOwners",
    "crash",
    "script",
    "otherWriters",
    "requeueWhileTerminatingMs",
    "queue",
    "compare",
    "writes",
    "terminating",
    "naming",
    "statusWrites",
    "generationChangedPredicate",
    "customResourceWatchLatencyMs",
    "podStopMs",
    "consistencyStore",
    "cloud",
    "workers",
];

/// Settings as JSON, kept as they were given until a run needs them: what
/// a link, an autosave, a lesson or a preset holds. Only [`SimSettings::read`]
/// (that is, [`options_from_json`]) makes a [`SimConfig`] of them, so the page
/// passes them on and its simulation module reads them (docs/SIZE.md).
/// Equal as JSON values are: member order aside, numbers by value.
#[derive(Debug, Clone, PartialEq)]
pub struct SimSettings(Json);

/// No settings given: every setting at its default.
impl Default for SimSettings {
    fn default() -> Self {
        Self(Json::object(Vec::new()))
    }
}

impl SimSettings {
    /// The settings as serde writes them (every setting).
    pub fn of(config: &SimConfig) -> Self {
        let text = serde_json::to_string(config).unwrap_or_default();
        Self(serde_json::from_str(&text).unwrap_or(Json::Null))
    }

    /// Settings as given, unread.
    pub fn from_json(value: Json) -> Self {
        Self(value)
    }

    /// Reads them with the one settings reader: where and what is wrong, if anything.
    pub fn read(&self) -> Result<SimConfig, OptionsError> {
        options_from_json(&self.0)
    }

    /// The settings as JSON text, for a reader elsewhere ([`parse_options`]).
    pub fn to_text(&self) -> String {
        self.0.to_compact_string()
    }

    /// One setting's JSON, if given.
    pub fn get(&self, name: &str) -> Option<&Json> {
        self.0.get(name)
    }

    /// Gives one setting as `value`; settings that are not an object become one.
    pub fn set(&mut self, name: &str, value: Json) {
        self.0.set_path(&[name.to_owned()], value);
    }
}

impl serde::Serialize for SimSettings {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

/// Any JSON value: what it holds is read later, by [`SimSettings::read`].
impl<'de> Deserialize<'de> for SimSettings {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Json::deserialize(deserializer).map(Self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::BackoffPolicy;

    #[test]
    fn the_option_names_are_the_settings_names() {
        // `workers` is left out at its default: serialize it at 2.
        let config = SimConfig {
            workers: 2,
            ..SimConfig::default()
        };
        let defaults = serde_json::to_string(&config).expect("serializes");
        let Ok(Json::Object(members)) = parse_json(Document::Scenario, &defaults) else {
            panic!("the defaults serialize as an object");
        };
        let names: Vec<&str> = members.iter().map(|(name, _)| &**name).collect();
        assert_eq!(names, OPTION_NAMES);
    }

    #[test]
    fn settings_pass_on_unread_and_read_as_the_options_reader_reads() {
        let config = SimConfig {
            seed: 7,
            failure_rate: 0.25,
            ..SimConfig::default()
        };
        let settings = SimSettings::of(&config);
        assert_eq!(settings.read(), Ok(config.clone()));
        assert_eq!(parse_options(&settings.to_text()), Ok(config));
        assert_eq!(SimSettings::default().read(), Ok(SimConfig::default()));
        let misspelt: SimSettings =
            serde_json::from_str(r#"{"failureRat":0.5}"#).expect("any JSON value");
        let error = misspelt.read().expect_err("read, it is refused");
        assert!(error
            .to_string()
            .starts_with(r#"Simulation options at $: unknown option "failureRat""#));
        let mut terminating = SimSettings::from_json(Json::Null);
        terminating.set("terminating", Json::array(vec![Json::string("a")]));
        assert_eq!(
            terminating.read().map(|config| config.terminating),
            Ok(vec!["a".to_owned()])
        );
    }

    #[test]
    fn backoff_names_are_camel_case_and_the_old_snake_case_ones_still_read() {
        let client_go = BackoffPolicy::ClientGo {
            base_ms: 7,
            max_ms: 900,
            qps: 2.5,
            burst: 3,
        };
        let fixed = BackoffPolicy::FixedDelay { delay_ms: 250 };
        for (old, new, policy) in [
            (
                r#"{"backoff":{"policy":"client-go","base_ms":7,"max_ms":900,"qps":2.5,"burst":3}}"#,
                r#"{"backoff":{"policy":"client-go","baseMs":7,"maxMs":900,"qps":2.5,"burst":3}}"#,
                client_go,
            ),
            (
                r#"{"backoff":{"policy":"fixed-delay","delay_ms":250}}"#,
                r#"{"backoff":{"policy":"fixed-delay","delayMs":250}}"#,
                fixed,
            ),
        ] {
            let config = parse_options(new).expect("the camelCase names read");
            assert_eq!(config.backoff, policy);
            assert_eq!(parse_options(old), Ok(config.clone()), "{old}");
            let written = serde_json::to_string(&config.backoff).expect("serializes");
            assert!(new.contains(&written), "{written} is written camelCase");
        }
        assert_eq!(
            parse_options(r#"{"backoff":{"policy":"fixed-delay"}}"#)
                .expect_err("delayMs is needed")
                .to_string(),
            r#"Simulation options at $.backoff: backoff policy "fixed-delay" needs "delayMs""#
        );
    }

    #[test]
    fn settings_objects_read_as_objects_only() {
        let config = parse_options(r#"{"cloud":{"latencyMs":7},"crash":null}"#).expect("valid");
        assert_eq!(config.cloud.map(|cloud| cloud.latency_ms), Some(7));
        // serde_json would read a struct from an array of its fields; these do not.
        for (text, path, expected) in [
            (r#"{"cloud":[7,0.5]}"#, "$.cloud", "struct CloudSettings"),
            (
                r#"{"stuckFinalizers":[["a","f"]]}"#,
                "$.stuckFinalizers",
                "struct FinalizerRef",
            ),
            (
                r#"{"backoff":["fixed-delay"]}"#,
                "$.backoff",
                "struct RawBackoff",
            ),
        ] {
            let error = parse_options(text).expect_err(text);
            assert_eq!(error.path.to_string(), path, "{text}");
            assert_eq!(
                error.message,
                format!("invalid type: sequence, expected {expected}"),
                "{text}"
            );
        }
    }

    #[test]
    fn drop_rate_still_reads_as_the_watch_break_rate_it_became() {
        let config = parse_options(r#"{"dropRate":0.25}"#).expect("the old name reads");
        assert_eq!(config.watch_break_rate, 0.25);
        assert_eq!(
            parse_options(r#"{"watchBreakRate":0.25}"#),
            Ok(config.clone())
        );
        let written = serde_json::to_string(&config).expect("serializes");
        assert!(written.contains(r#""watchBreakRate":0.25"#), "{written}");
        assert!(!written.contains("dropRate"), "{written}");
        // Both names at once is one setting given twice.
        let both = parse_options(r#"{"dropRate":0.25,"watchBreakRate":0.5}"#);
        assert!(both.expect_err("twice").message.contains("duplicate field"));
    }

    #[test]
    fn naming_reads_its_three_names_round_trips_and_names_a_bad_one() {
        use crate::ObjectNaming;
        assert_eq!(
            parse_options("{}").expect("defaults").naming,
            ObjectNaming::Deterministic
        );
        for (text, naming) in [
            ("deterministic", ObjectNaming::Deterministic),
            ("generate-name", ObjectNaming::GenerateName),
            (
                "generate-name-with-expectations",
                ObjectNaming::GenerateNameWithExpectations,
            ),
        ] {
            let config = parse_options(&format!(r#"{{"naming":"{text}"}}"#)).expect(text);
            assert_eq!(config.naming, naming);
            let written = serde_json::to_string(&config).expect("serializes");
            assert!(
                written.contains(&format!(r#""naming":"{text}""#)),
                "{written}"
            );
            assert_eq!(parse_options(&written), Ok(config));
        }
        let bad = parse_options(r#"{"naming":"random"}"#).expect_err("not a naming");
        assert_eq!(bad.path.to_string(), "$.naming");
        assert!(bad.message.contains("generate-name"), "{}", bad.message);
    }
}
