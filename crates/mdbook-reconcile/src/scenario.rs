//! A fence's scenario, read by the playground's own readers and turned into
//! the `#v2/…` state a share link carries.
//!
//! JSON goes to reconcile-core's `import_scenario`, YAML to reconcile-yaml's
//! `read_scenario_in` then `scenario_documents`: the same readers, errors and
//! editor texts as a scenario file opened in the page. The state is written
//! by reconcile-content's share module, the one encoder of links.

use reconcile_content::share::{self, SharedState};
use reconcile_core::{detect_format, import_scenario, Format, InputError};
use reconcile_yaml::{read_scenario_in, scenario_documents};

/// Why a fence's scenario was not read.
#[derive(Debug, Clone, PartialEq)]
pub enum ScenarioError {
    /// The reader's located error: line and column within the fence's body.
    Input(InputError),
    /// Read, but not a scenario the editors can take.
    NotScenario,
}

/// The three editor texts of a scenario in JSON or YAML: desired, observed, finalizers.
pub fn documents(text: &str) -> Result<[String; 3], ScenarioError> {
    match detect_format(text) {
        Format::Json => import_scenario(text).map_err(ScenarioError::Input),
        Format::Yaml => {
            read_scenario_in(Format::Yaml, text).map_err(ScenarioError::Input)?;
            scenario_documents(text)
                .map_err(ScenarioError::Input)?
                .ok_or(ScenarioError::NotScenario)
        }
    }
}

/// The `#v2/…` state that opens the playground on these documents, with no
/// preset, no lesson and the simulation's default settings.
pub fn state_link([desired, observed, finalizers]: [String; 3]) -> String {
    share::encode(&SharedState {
        desired,
        observed,
        finalizers,
        sim: Default::default(),
        preset: None,
        ..SharedState::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_and_yaml_scenarios_become_a_link_that_opens_on_them() {
        let json = r#"{"desired": {"web": {"replicas": 2}}, "observed": {}, "finalizers": null}"#;
        let yaml = "desired:\n  web: {replicas: 2}\nobserved: {}\n";
        for text in [json, yaml] {
            let docs = documents(text).expect("a scenario");
            let link = state_link(docs.clone());
            assert!(link.starts_with("#v2/"), "{link}");
            let opened = share::decode(&link).expect("opens").state;
            assert_eq!([opened.desired, opened.observed, opened.finalizers], docs);
            assert_eq!(opened.preset, None);
        }
    }

    #[test]
    fn a_bad_scenario_gives_the_readers_located_error() {
        let Err(ScenarioError::Input(json)) = documents("{\"desired\": {\"web\": 1,}}") else {
            panic!("a JSON error");
        };
        assert_eq!((json.line, json.column), (1, 23));
        let Err(ScenarioError::Input(yaml)) =
            documents("desired:\n  web: {a: 1, a: 2}\nobserved: {}\n")
        else {
            panic!("a YAML error");
        };
        assert_eq!(yaml.line, 2);
        assert_eq!(yaml.path.to_string(), "$.desired.web.a");
    }
}
