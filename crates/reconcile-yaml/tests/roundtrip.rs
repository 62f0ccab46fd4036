//! JSON → YAML → back gives the same value: members in the same order, every
//! string exactly, numbers by value (and in the form JSON writes them).

use proptest::prelude::*;
use reconcile_core::{Document, Json, Number};
use reconcile_yaml::{read_resources, read_value, to_yaml, to_yaml_stream, ManifestOptions};

/// Strings YAML readers like to take for something else.
const TRICKY: [&str; 34] = [
    "",
    "yes",
    "No",
    "on",
    "OFF",
    "y",
    "~",
    "null",
    "true",
    "0o17",
    "017",
    "0x1F",
    "1_000",
    "1e3",
    ".inf",
    "-.inf",
    ".nan",
    "2001-12-14",
    "- a",
    "a: b",
    "a #b",
    "#x",
    " lead",
    "trail ",
    "---",
    "...",
    "? x",
    "*a",
    "&a",
    "!x",
    "line\nbreak",
    "tab\there",
    "\u{85}\u{2028}\u{FEFF}\u{7F}",
    "<<",
];

fn string() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(TRICKY.to_vec()).prop_map(str::to_owned),
        "[a-z][a-z0-9./:-]{0,12}",
        any::<String>(),
    ]
}

fn number() -> impl Strategy<Value = Number> {
    prop_oneof![
        any::<u64>().prop_map(Number::Unsigned),
        (i64::MIN..0).prop_map(Number::Signed),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(Number::Float),
    ]
}

fn value() -> impl Strategy<Value = Json> {
    let leaf = prop_oneof![
        Just(Json::Null),
        any::<bool>().prop_map(Json::Bool),
        number().prop_map(Json::Number),
        string().prop_map(|s| Json::string(&s)),
    ];
    leaf.prop_recursive(5, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Json::array),
            prop::collection::vec((string(), inner), 0..6).prop_map(|members| {
                let mut seen = std::collections::HashSet::new();
                Json::object(
                    members
                        .into_iter()
                        .filter(|(key, _)| seen.insert(key.clone()))
                        .map(|(key, value)| (key.into_boxed_str(), value))
                        .collect(),
                )
            }),
        ]
    })
}

/// Compact JSON text: equal texts mean the same members in the same order
/// and the same strings, not only equal values.
fn exact(value: &Json) -> String {
    value.to_compact_string()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn json_to_yaml_and_back_is_the_same_value(value in value()) {
        let yaml = to_yaml(&value);
        let back = read_value(Document::Desired, &yaml);
        prop_assert!(back.is_ok(), "{yaml}\n{:?}", back.err().map(|e| e.to_string()));
        prop_assert_eq!(exact(&back.unwrap_or(Json::Null)), exact(&value), "{}", yaml);
    }

    #[test]
    fn a_stream_reads_back_document_by_document(values in prop::collection::vec(value(), 1..4)) {
        let yaml = to_yaml_stream(&values);
        let documents = reconcile_yaml::read_stream(Document::Desired, &yaml);
        prop_assert!(documents.is_ok(), "{}", yaml);
        let back: Vec<String> = documents.unwrap_or_default().iter().map(|d| exact(&d.value)).collect();
        let expected: Vec<String> = values.iter().map(exact).collect();
        prop_assert_eq!(back, expected, "{}", yaml);
    }
}

#[test]
fn yaml_reads_like_the_kubernetes_documentation_writes_it() {
    let value = reconcile_core::parse_json(
        Document::Desired,
        r#"{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","labels":{"app.kubernetes.io/name":"nginx"}},"spec":{"replicas":3,"template":{"spec":{"containers":[{"name":"nginx","image":"nginx:1.14.2","ports":[{"containerPort":80}]}]}},"paused":false,"note":"on","empty":{},"none":[]}}"#,
    )
    .expect("valid");
    let expected = "\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels:
    app.kubernetes.io/name: nginx
spec:
  replicas: 3
  template:
    spec:
      containers:
        - name: nginx
          image: nginx:1.14.2
          ports:
            - containerPort: 80
  paused: false
  note: \"on\"
  empty: {}
  none: []
";
    assert_eq!(to_yaml(&value), expected);
}

#[test]
fn resources_round_trip_through_yaml() {
    let text = r#"{"b":{"replicas":1.0,"image":"a"},"a":[1,"yes",null]}"#;
    let value = reconcile_core::parse_json(Document::Desired, text).expect("valid");
    let yaml = to_yaml(&value);
    let from_yaml =
        read_resources(Document::Desired, &yaml, &ManifestOptions::default()).expect("valid");
    let from_json =
        read_resources(Document::Desired, text, &ManifestOptions::default()).expect("valid");
    assert_eq!(from_yaml.resources, from_json.resources);
    let long_key = "k".repeat(2000);
    let value = Json::object(vec![(long_key.clone().into_boxed_str(), Json::Bool(true))]);
    let yaml = to_yaml(&value);
    assert!(yaml.starts_with("? \""), "{}", &yaml[..10]);
    assert_eq!(
        read_value(Document::Desired, &yaml).map(|v| exact(&v)),
        Ok(exact(&value))
    );
}

/// Import: a YAML scenario file splits into the three editors' texts, each
/// reading as its part; anything else is no scenario; a broken one is its error.
#[test]
fn a_yaml_scenario_file_splits_into_three_documents() {
    use reconcile_yaml::{read_finalizers, read_scenario, scenario_documents};
    let file = "# a scenario\ndesired:\n  a:\n    replicas: 2\nobserved:\n  a:\n    replicas: 1\n  c: {}\nfinalizers:\n  c: [example.com/x]\n";
    let [desired, observed, finalizers] = scenario_documents(file)
        .expect("valid")
        .expect("a scenario");
    let scenario = read_scenario(file).expect("valid");
    let options = ManifestOptions::default();
    assert_eq!(
        read_resources(Document::Desired, &desired, &options)
            .expect("valid")
            .resources,
        scenario.desired
    );
    assert_eq!(
        read_resources(Document::Observed, &observed, &options)
            .expect("valid")
            .resources,
        scenario.observed
    );
    assert_eq!(
        read_finalizers(&finalizers).expect("valid"),
        scenario.finalizers
    );
    let without = scenario_documents("desired: {}\nobserved: {}\n")
        .expect("valid")
        .expect("a scenario");
    assert_eq!(without[2], "");
    for other in [
        "web:\n  replicas: 1\n",
        "desired: {}\n",
        "apiVersion: v1\nkind: List\nitems: []\n",
        "a: [\n",
    ] {
        assert_eq!(
            scenario_documents(other).expect("no error"),
            None,
            "{other:?}"
        );
    }
    let error = scenario_documents("desired: {}\nobserved: []\n").expect_err("observed is a list");
    assert_eq!((error.document, error.line), (Document::Scenario, 2));
    assert_eq!(error.path.to_string(), "$.observed");
}
