//! Reading an edited text again in part gives exactly what reading it whole
//! gives: the same values (member order and number forms included), the same
//! document starts, the same errors.

use proptest::prelude::*;
use reconcile_core::{Document, Json};
use reconcile_yaml::{read_stream, to_yaml, StreamCache};

/// One resource's spec, with the strings YAML readers trip on.
fn spec() -> impl Strategy<Value = Json> {
    let text = prop_oneof![
        Just("a: b".to_owned()),
        Just("\"quoted\"".to_owned()),
        Just("multi\nline".to_owned()),
        Just("# not a comment".to_owned()),
        Just("yes".to_owned()),
        "[a-z0-9 ./-]{0,10}",
    ];
    let leaf = prop_oneof![
        any::<u32>().prop_map(|n| Json::Number(reconcile_core::Number::Unsigned(n.into()))),
        text.prop_map(|s| Json::string(&s)),
        Just(Json::Null),
    ];
    leaf.prop_recursive(3, 12, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..3).prop_map(Json::array),
            prop::collection::btree_map("[a-z]{1,6}", inner, 0..3).prop_map(|members| {
                Json::object(members.into_iter().map(|(k, v)| (k.into(), v)).collect())
            }),
        ]
    })
}

/// A `{name: spec}` document as block YAML, maybe with comments between entries.
fn document() -> impl Strategy<Value = String> {
    prop::collection::btree_map("web-[0-9]{1,3}", (spec(), any::<bool>()), 1..12).prop_map(
        |entries| {
            let mut text = String::new();
            for (name, (spec, comment)) in entries {
                if comment {
                    text.push_str("# a comment\n");
                }
                let one = Json::object(vec![(name.into(), spec)]);
                text.push_str(&to_yaml(&one));
            }
            text
        },
    )
}

/// One edit: replace `len` bytes at a fraction of the text with `insert`.
fn edit() -> impl Strategy<Value = (f64, usize, String)> {
    let piece = prop_oneof![
        Just("1"),
        Just(" "),
        Just("\n"),
        Just(": "),
        Just("\""),
        Just("'"),
        Just("- "),
        Just("#"),
        Just("{"),
        Just("]"),
        Just("|\n"),
        Just("&a "),
        Just("*a"),
        Just("\t"),
        Just("? "),
        Just("---\n"),
        Just("\nweb-9:\n  a: 1\n"),
        Just("\nweb-1: 2\n"),
        Just("x"),
        Just(""),
    ];
    (0.0..=1.0f64, 0..6usize, prop::collection::vec(piece, 0..3))
        .prop_map(|(at, len, pieces)| (at, len, pieces.concat()))
}

fn apply(text: &str, (at, len, insert): &(f64, usize, String)) -> String {
    let mut start = (text.len() as f64 * at) as usize;
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    let mut end = (start + len).min(text.len());
    while !text.is_char_boundary(end) {
        end += 1;
    }
    format!("{}{insert}{}", &text[..start], &text[end..])
}

/// What a read gives, exactly: each document's value as compact JSON and its start.
fn outcome(read: Result<Vec<reconcile_yaml::YamlDocument>, reconcile_core::InputError>) -> String {
    match read {
        Ok(documents) => documents
            .iter()
            .map(|d| format!("{}@{:?}", d.value.to_compact_string(), d.start))
            .collect::<Vec<_>>()
            .join(" | "),
        Err(error) => format!("error: {error:?}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn a_read_in_part_equals_a_whole_read(text in document(), edits in prop::collection::vec(edit(), 1..6)) {
        let mut cache = StreamCache::default();
        let mut text = text;
        let _ = cache.read(Document::Desired, &text);
        for edit in &edits {
            text = apply(&text, edit);
            let whole = outcome(read_stream(Document::Desired, &text));
            let in_part = outcome(cache.read(Document::Desired, &text));
            prop_assert_eq!(in_part, whole, "text: {:?}", text);
        }
    }
}

/// What the editors' read gives, exactly: the scenario as JSON, or the errors.
fn documents_outcome(
    read: Result<reconcile_yaml::ReadScenario, Vec<reconcile_core::InputError>>,
) -> String {
    match read {
        Ok(read) => serde_json::to_string(&read.scenario).unwrap_or_default(),
        Err(errors) => format!("errors: {errors:?}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    /// The editors' cached reads (a text read in part, entries core reads
    /// again only when new) give what reading the documents afresh gives.
    #[test]
    fn a_cached_read_equals_a_fresh_one(text in document(), edits in prop::collection::vec(edit(), 1..6)) {
        use reconcile_core::Format;
        use reconcile_yaml::{read_documents_cached, read_documents_in, ManifestOptions, ReadCache};
        let formats = [Format::Yaml, Format::Yaml, Format::Json];
        let options = ManifestOptions::default();
        let mut cache = ReadCache::default();
        let mut text = text;
        let observed = "web-1: {}\n";
        let _ = read_documents_cached(&mut cache, formats, &text, observed, "", &options);
        for edit in &edits {
            text = apply(&text, edit);
            let fresh = documents_outcome(read_documents_in(formats, &text, observed, "", &options));
            let cached = documents_outcome(read_documents_cached(&mut cache, formats, &text, observed, "", &options));
            prop_assert_eq!(cached, fresh, "text: {:?}", text);
        }
    }
}

#[test]
fn one_changed_digit_is_read_again_in_part() {
    let text: String = (0..2000)
        .map(|i| {
            format!(
                "web-{i:04}:\n  replicas: {}\n  labels:\n    app: a\n",
                i % 10
            )
        })
        .collect();
    let edited = text.replacen("replicas: 7", "replicas: 107", 1);
    let mut cache = StreamCache::default();
    cache.read(Document::Desired, &text).unwrap();
    let whole = read_stream(Document::Desired, &edited).unwrap();
    let in_part = cache.read(Document::Desired, &edited).unwrap();
    assert_eq!(
        in_part[0].value.to_compact_string(),
        whole[0].value.to_compact_string()
    );
    assert!(cache.last_read_was_in_part(), "the edit was read in part");
}

/// The editors' reads: a document whose text stays keeps its revision (the
/// page is not sent it again), and its read is the same as a fresh one.
#[test]
fn an_unchanged_document_keeps_its_revision() {
    use reconcile_core::Format;
    use reconcile_yaml::{read_documents_cached, read_documents_in, ManifestOptions, ReadCache};
    let formats = [Format::Yaml, Format::Yaml, Format::Json];
    let options = ManifestOptions::default();
    let observed = "a:\n  replicas: 1\nb:\n  replicas: 2\n";
    let mut cache = ReadCache::default();
    let mut read = |desired: &str| {
        let read = read_documents_cached(&mut cache, formats, desired, observed, "", &options);
        let fresh = read_documents_in(formats, desired, observed, "", &options);
        let outcome = |r: &Result<reconcile_yaml::ReadScenario, _>| match r {
            Ok(read) => format!("{:?}", read.scenario),
            Err(errors) => format!("{errors:?}"),
        };
        assert_eq!(outcome(&read), outcome(&fresh), "desired: {desired:?}");
        (read.is_ok(), cache.revisions())
    };
    let (ok, first) = read("a:\n  replicas: 3\n");
    assert!(ok);
    let (_, edited) = read("a:\n  replicas: 4\n");
    assert_ne!(edited[0], first[0], "an edited desired has a new revision");
    assert_eq!(
        edited[1], first[1],
        "an observed that stays keeps its revision"
    );
    let (_, again) = read("a:\n  replicas: 4\n");
    assert_eq!(again, edited, "the same texts, the same revisions");
    let (ok, broken) = read("a: [1,\n");
    assert!(!ok);
    let (_, mended) = read("a:\n  replicas: 4\n");
    assert_ne!(mended[0], edited[0], "a read after a failed one is new");
    assert_eq!(broken[1], first[1]);
}
