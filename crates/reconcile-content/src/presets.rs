//! Built-in starting scenarios, as data files (`presets/*.json`, compiled in,
//! in menu order). Texts are kept as the user will see them in the editors.

use reconcile_sim::SimConfig;

use reconcile_core::path::JsonPath;

use crate::data::{self, content_file, ContentError, Reader};

/// A named scenario for the presets menu.
#[derive(Debug, Clone, PartialEq)]
pub struct Preset {
    /// Stable identifier, used in URLs.
    pub id: String,
    pub title: String,
    /// One sentence on what to look at.
    pub summary: String,
    pub desired: String,
    pub observed: String,
    pub finalizers: String,
    /// The simulation settings that go with it.
    pub sim: SimConfig,
}

/// The members a preset file may have; `comment` is for people reading the
/// file (why the settings are what they are) and is not read.
const MEMBERS: [&str; 8] = [
    "id",
    "title",
    "summary",
    "comment",
    "desired",
    "observed",
    "finalizers",
    "sim",
];

/// The presets shipped with the playground, in menu order: `(file, text)`.
pub const PRESET_FILES: &[(&str, &str)] = &[
    content_file!("presets", "01-basics.json"),
    content_file!("presets", "02-load-balancer-finalizer.json"),
    content_file!("presets", "03-cache-2-replicas.json"),
    content_file!("presets", "04-stuck-namespace.json"),
    content_file!("presets", "05-fighting-controllers.json"),
    content_file!("presets", "06-flaky-api.json"),
    content_file!("presets", "07-crash-mid-pass.json"),
    content_file!("presets", "08-missed-events.json"),
    content_file!("presets", "09-defaults-drift.json"),
    content_file!("presets", "10-ten-changes.json"),
    content_file!("presets", "11-owner-deletion.json"),
    content_file!("presets", "12-deleted-while-down.json"),
    content_file!("presets", "13-two-reasons.json"),
    content_file!("presets", "14-stale-cache.json"),
    content_file!("presets", "15-status-timestamp.json"),
    content_file!("presets", "16-stale-update.json"),
    content_file!("presets", "17-graceful-pod-deletion.json"),
    content_file!("presets", "18-controller-finalizer.json"),
];

/// Parses one preset file; `file` names it in errors. Read through core's
/// JSON value (not a serde derive, which would add a reader to the page).
pub fn parse_preset(file: &str, text: &str) -> Result<Preset, ContentError> {
    let value = data::read_json(file, text)?;
    let reader = Reader::new(file);
    let preset = reader.object(&value, JsonPath::root(), &MEMBERS);
    let preset = Preset {
        id: reader.string(&preset, "id"),
        title: reader.string(&preset, "title"),
        summary: reader.string(&preset, "summary"),
        desired: reader.string(&preset, "desired"),
        observed: reader.string(&preset, "observed"),
        finalizers: reader.string(&preset, "finalizers"),
        sim: reader.sim(&preset).unwrap_or_default(),
    };
    reader.finish(preset)
}

/// Every shipped preset, in menu order, parsed once.
pub fn presets() -> &'static [Preset] {
    static PRESETS: std::sync::OnceLock<Vec<Preset>> = std::sync::OnceLock::new();
    PRESETS.get_or_init(|| data::parse_all(PRESET_FILES, parse_preset))
}

/// The preset shown on first load (the seed example).
pub fn default_preset() -> &'static Preset {
    static EMPTY: std::sync::OnceLock<Preset> = std::sync::OnceLock::new();
    presets().first().unwrap_or_else(|| {
        EMPTY.get_or_init(|| Preset {
            id: "basics".to_owned(),
            title: String::new(),
            summary: String::new(),
            desired: "{}\n".to_owned(),
            observed: "{}\n".to_owned(),
            finalizers: "null\n".to_owned(),
            sim: SimConfig::default(),
        })
    })
}

/// Looks a preset up by its identifier.
pub fn find(id: &str) -> Option<&'static Preset> {
    presets().iter().find(|preset| preset.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_parses_and_reaches_its_verdict() {
        use reconcile_sim::{simulate, NotConvergingReason as Why, SimScenario, Verdict};
        assert_eq!(
            presets().len(),
            PRESET_FILES.len(),
            "a preset file does not parse"
        );
        for (file, text) in PRESET_FILES {
            let preset = parse_preset(file, text).unwrap_or_else(|e| panic!("{e}"));
            let scenario = SimScenario {
                desired: reconcile_core::parse_resources(
                    reconcile_core::Document::Desired,
                    &preset.desired,
                )
                .expect("desired"),
                observed: reconcile_core::parse_resources(
                    reconcile_core::Document::Observed,
                    &preset.observed,
                )
                .expect("observed"),
                finalizers: reconcile_core::parse_finalizers(&preset.finalizers)
                    .expect("finalizers"),
            };
            let verdict = simulate(&scenario, &preset.sim).verdict;
            let expected_ok = match preset.id.as_str() {
                "stuck-namespace" => matches!(
                    &verdict,
                    Verdict::NotConverging { reason: Why::StuckFinalizer { object, finalizer } }
                        if object == "team-a" && finalizer == "kubernetes"
                ),
                "fighting-controllers" => matches!(
                    &verdict,
                    Verdict::NotConverging { reason: Why::Oscillation { object, field, .. } }
                        if object == "web" && field == "$.replicas"
                ),
                "defaults-drift" => matches!(
                    &verdict,
                    Verdict::NotConverging {
                        reason: Why::PassLimit { limit: 12 }
                    }
                ),
                "status-timestamp" => matches!(
                    &verdict,
                    Verdict::NotConverging { reason: Why::StatusHotLoop { field, .. } }
                        if field == "status.lastReconcileTime"
                ),
                _ => matches!(verdict, Verdict::Converged { .. }),
            };
            assert!(expected_ok, "preset {}: {verdict}", preset.id);
        }
        assert!(find("basics").is_some());
        assert!(find("nope").is_none());
        assert_eq!(default_preset().id, "basics");
    }

    #[test]
    fn a_misspelt_setting_in_a_preset_names_the_file_and_path() {
        let (file, text) = PRESET_FILES[5];
        let error = parse_preset(
            file,
            &text.replacen(r#""failureRate""#, r#""failureRat""#, 1),
        )
        .expect_err("a misspelt option is an error")
        .to_string();
        assert!(
            error.starts_with(
                r#"presets/06-flaky-api.json at $.sim: unknown option "failureRat"; expected one of seed,"#
            ),
            "{error}"
        );
        let error = parse_preset(file, &text.replacen(r#""title""#, r#""titel""#, 1))
            .expect_err("a misspelt member is an error")
            .to_string();
        assert!(
            error.starts_with(r#"presets/06-flaky-api.json at $.titel: unknown member "titel"; expected one of id, title,"#),
            "{error}"
        );
        let error = parse_preset(file, &text.replacen(r#""summary": "#, r#""summary": ,"#, 1))
            .expect_err("bad JSON is an error")
            .to_string();
        assert!(
            error.starts_with("presets/06-flaky-api.json: line 4, column 14 at $.summary: "),
            "{error}"
        );
    }
}
