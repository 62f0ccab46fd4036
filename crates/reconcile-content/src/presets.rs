//! Built-in starting scenarios, as data files (`presets/*.json`, compiled in,
//! in menu order). Texts are kept as the user will see them in the editors.

use reconcile_sim::SimSettings;

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
    /// The simulation settings that go with it, as the file gives them
    /// (checked by [`parse_preset`]; read where a run needs them).
    pub sim: SimSettings,
    /// With several custom resources: the first one's name (the texts
    /// above are its documents) and the others, one tab each, as a `#v3/`
    /// link keeps them. `None` and empty with one.
    pub custom_resource_name: Option<String>,
    pub custom_resources: Vec<PresetCustomResource>,
}

/// A custom resource of a preset after the first: its name and editor texts.
#[derive(Debug, Clone, PartialEq)]
pub struct PresetCustomResource {
    pub name: String,
    pub desired: String,
    /// `{}` when the file leaves it out.
    pub observed: String,
    /// Empty when the file leaves it out.
    pub finalizers: String,
}

impl Preset {
    /// Every custom resource's scenario, as the simulation section reads
    /// them: each tab's documents through core's reader, then the list
    /// form through `parse_sim_scenario`, the one writer and reader.
    pub fn scenario(&self) -> Result<reconcile_sim::CustomResources, String> {
        let check = |desired: &str, observed: &str, finalizers: &str| {
            reconcile_core::check_scenario(desired, observed, finalizers)
                .map_err(|errors| format!("{}: {errors:?}", self.id))
        };
        let first = check(&self.desired, &self.observed, &self.finalizers)?;
        let Some(name) = &self.custom_resource_name else {
            return Ok(reconcile_sim::CustomResources::one(&first));
        };
        let mut entries = vec![(name.clone(), reconcile_core::export_scenario(&first))];
        for other in &self.custom_resources {
            let scenario = check(&other.desired, &other.observed, &other.finalizers)?;
            entries.push((
                other.name.clone(),
                reconcile_core::export_scenario(&scenario),
            ));
        }
        let list = entries.iter().map(|(n, text)| (n.as_str(), text.as_str()));
        let text = reconcile_sim::write_list_form(list);
        reconcile_sim::parse_sim_scenario(&text).map_err(|e| format!("{}: {e}", self.id))
    }
}

/// The members a preset file may have; `comment` is for people reading the
/// file (why the settings are what they are) and is not read.
const MEMBERS: [&str; 10] = [
    "id",
    "title",
    "summary",
    "comment",
    "desired",
    "observed",
    "finalizers",
    "sim",
    "customResourceName",
    "customResources",
];

/// The members of an entry of `customResources`.
const ENTRY_MEMBERS: [&str; 4] = ["name", "desired", "observed", "finalizers"];

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
    content_file!("presets", "19-client-go-bucket.json"),
    content_file!("presets", "20-fair-keys.json"),
];

/// Parses one preset file and checks its settings with the simulation's
/// options parser; `file` names it in errors.
pub fn parse_preset(file: &str, text: &str) -> Result<Preset, ContentError> {
    let preset = read_preset(file, text)?;
    data::check_sim(file, Some(&preset.sim))?;
    Ok(preset)
}

/// Reads one preset file, its settings as given: the page's presets, whose
/// settings its simulation module reads (this crate's tests check them all
/// with [`parse_preset`]). Read through core's JSON value (not a serde
/// derive, which would add a reader to the page).
fn read_preset(file: &str, text: &str) -> Result<Preset, ContentError> {
    let value = data::read_json(file, text)?;
    let reader = Reader::new(file);
    let preset_object = reader.object(&value, JsonPath::root(), &MEMBERS);
    let preset = &preset_object;
    let preset = Preset {
        id: reader.string(preset, "id"),
        title: reader.string(preset, "title"),
        summary: reader.string(preset, "summary"),
        desired: reader.string(preset, "desired"),
        observed: reader.string(preset, "observed"),
        finalizers: reader.string(preset, "finalizers"),
        sim: reader.sim(preset).unwrap_or_default(),
        custom_resource_name: reader.optional_string(preset, "customResourceName"),
        custom_resources: Vec::new(),
    };
    let entries = reader.items(&preset_object, "customResources");
    let custom_resources: Vec<PresetCustomResource> = entries
        .map(|(path, item)| {
            let entry = reader.object(item, path, &ENTRY_MEMBERS);
            PresetCustomResource {
                name: reader.string(&entry, "name"),
                desired: reader.string(&entry, "desired"),
                observed: reader
                    .optional_string(&entry, "observed")
                    .unwrap_or_else(|| "{}\n".to_owned()),
                finalizers: reader
                    .optional_string(&entry, "finalizers")
                    .unwrap_or_default(),
            }
        })
        .collect();
    if preset.custom_resource_name.is_none() && !custom_resources.is_empty() {
        reader.missing(&preset_object, "customResourceName");
    }
    reader.finish(Preset {
        custom_resources,
        ..preset
    })
}

/// Every shipped preset, in menu order, parsed once.
pub fn presets() -> &'static [Preset] {
    static PRESETS: std::sync::OnceLock<Vec<Preset>> = std::sync::OnceLock::new();
    PRESETS.get_or_init(|| data::parse_all(PRESET_FILES, read_preset))
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
            sim: SimSettings::default(),
            custom_resource_name: None,
            custom_resources: Vec::new(),
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
        use reconcile_sim::{simulate_custom_resources, NotConvergingReason as Why, Verdict};
        assert_eq!(
            presets().len(),
            PRESET_FILES.len(),
            "a preset file does not parse"
        );
        for (file, text) in PRESET_FILES {
            let preset = parse_preset(file, text).unwrap_or_else(|e| panic!("{e}"));
            let scenario = preset.scenario().unwrap_or_else(|e| panic!("{e}"));
            let verdict =
                simulate_custom_resources(&scenario, &preset.sim.read().expect("settings")).verdict;
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
                "client-go-bucket" => matches!(
                    &verdict,
                    Verdict::NotConverging {
                        reason: Why::PassLimit { limit: 140 }
                    }
                ),
                "fair-keys" => matches!(
                    &verdict,
                    Verdict::NotConverging {
                        reason: Why::PassLimit { limit: 24 }
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

#[cfg(test)]
mod several_tests {
    use super::*;
    use reconcile_sim::{simulate_custom_resources, ActionResult, Timeline};

    fn run(id: &str) -> Timeline {
        let preset = find(id).expect("shipped");
        let scenario = preset.scenario().expect("valid");
        simulate_custom_resources(&scenario, &preset.sim.read().expect("settings"))
    }

    /// Each failed pass's delay until its requeue, in pass order.
    fn delays(timeline: &Timeline) -> Vec<u64> {
        let failed = |pass: &reconcile_sim::PassRecord| {
            pass.actions.iter().find_map(|o| match o.result {
                ActionResult::Failed { requeued_at, .. } => {
                    Some(requeued_at.saturating_sub(pass.finished_at))
                }
                _ => None,
            })
        };
        timeline.passes.iter().filter_map(failed).collect()
    }

    /// client-go's bucket: the burst's 100 tokens (and the couple that
    /// refill meanwhile) requeue after the per-item 5 ms; then each
    /// failure waits for its own token, about 100 ms after the last.
    #[test]
    fn the_bucket_preset_spaces_requeues_100_ms_apart_after_the_burst() {
        let timeline = run("client-go-bucket");
        let delays = delays(&timeline);
        let fast = delays.iter().take_while(|&&d| d == 5).count();
        assert!((100..=104).contains(&fast), "{delays:?}");
        let bound = &delays[fast..fast + 15];
        let steps: Vec<u64> = bound.windows(2).map(|w| w[1] - w[0]).collect();
        assert!(steps.iter().all(|s| (90..=100).contains(s)), "{steps:?}");
    }

    /// The failing key backs off alone: every other key converges in the
    /// first passes, and the failing one's delays double.
    #[test]
    fn the_fairness_preset_lets_the_other_keys_converge() {
        let timeline = run("fair-keys");
        let others_last = timeline
            .passes
            .iter()
            .rposition(|p| &*p.custom_resource != "cache-b")
            .expect("other keys ran");
        assert!(others_last < 12, "the others are done by pass 12");
        let delays = delays(&timeline);
        assert_eq!(delays.len(), timeline.passes.len() - others_last - 1 + 2);
        assert!(
            delays[2..].windows(2).all(|w| w[1] >= w[0] * 3 / 2),
            "{delays:?}"
        );
        let scenario = find("fair-keys")
            .and_then(|p| p.scenario().ok())
            .expect("valid");
        let keys =
            reconcile_sim::key_statuses(&scenario, &timeline.final_world, &[], timeline.naming);
        let converged: Vec<&str> = keys
            .iter()
            .filter(|k| k.converged())
            .map(|k| &*k.key)
            .collect();
        assert_eq!(converged, ["cache-a", "cache-c", "cache-d", "cache-e"]);
        let after_1 =
            reconcile_sim::key_statuses(&scenario, timeline.world_after(1), &[], timeline.naming);
        let converged = after_1.iter().filter(|k| k.converged()).count();
        assert_eq!(converged, 1, "the e2e spec reads 1 of 5 after pass 1");
    }

    /// At pass 1's end the workers hold cache-a and cache-c; cache-b, failed
    /// once, waits in line behind the keys that have not run yet.
    #[test]
    fn the_fairness_preset_pictures_both_workers_and_the_line() {
        use reconcile_sim::picture::{position_of_moment, KeyState, PictureReplay};
        let preset = find("fair-keys").expect("shipped");
        let scenario = preset.scenario().expect("valid");
        let timeline = simulate_custom_resources(&scenario, &preset.sim.read().expect("settings"));
        let at = position_of_moment(&timeline, reconcile_sim::Moment::AfterPass(1));
        let mut replay =
            PictureReplay::of_custom_resources(&scenario, &preset.sim.read().expect("settings"));
        let picture = replay.at(at.expect("in the log")).expect("a picture");
        let held: Vec<&str> = picture
            .queue
            .workers
            .iter()
            .flatten()
            .map(|k| &**k)
            .collect();
        assert_eq!(held, ["cache-a", "cache-c"]);
        let ready: Vec<&str> = (picture.queue.keys.iter())
            .filter(|k| matches!(k.state, KeyState::Ready { .. }))
            .map(|k| &*k.key)
            .collect();
        // cache-b failed at t = 11; its requeue, due at 16, joined the line behind the others.
        assert_eq!(ready, ["cache-d", "cache-e", "cache-b"]);
    }
}
