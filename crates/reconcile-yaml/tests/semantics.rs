//! The YAML semantics the crate documents: the 1.2 core schema, tags, keys,
//! anchors, format detection and where errors are.

use reconcile_core::{Document, ErrorKind, InputError, Json};
use reconcile_yaml::{detect_format, read_resources, read_value, Format, ManifestOptions};

fn value(text: &str) -> Json {
    read_value(Document::Desired, text).unwrap_or_else(|e| panic!("{text:?}: {e}"))
}

fn json(text: &str) -> Json {
    reconcile_core::parse_json(Document::Desired, text).expect("valid JSON")
}

fn error(text: &str) -> InputError {
    read_value(Document::Desired, text).expect_err(text)
}

#[test]
fn core_schema_scalars() {
    let cases = [
        ("a: yes", r#"{"a":"yes"}"#),
        ("a: on", r#"{"a":"on"}"#),
        ("a: No", r#"{"a":"No"}"#),
        ("a: ~", r#"{"a":null}"#),
        ("a: null", r#"{"a":null}"#),
        ("a:", r#"{"a":null}"#),
        ("a: True", r#"{"a":true}"#),
        ("a: FALSE", r#"{"a":false}"#),
        ("a: 0o17", r#"{"a":15}"#),
        ("a: 017", r#"{"a":17}"#),
        ("a: 0x1F", r#"{"a":31}"#),
        ("a: -3", r#"{"a":-3}"#),
        ("a: +7", r#"{"a":7}"#),
        ("a: 1.5", r#"{"a":1.5}"#),
        ("a: .5", r#"{"a":0.5}"#),
        ("a: 6e3", r#"{"a":6000}"#),
        ("a: 1_000", r#"{"a":"1_000"}"#),
        ("a: 0b101", r#"{"a":"0b101"}"#),
        ("a: 2001-12-14", r#"{"a":"2001-12-14"}"#),
        ("a: 18446744073709551615", r#"{"a":18446744073709551615}"#),
        ("a: 99999999999999999999", r#"{"a":1e20}"#),
        ("a: '1'", r#"{"a":"1"}"#),
        ("a: \"true\"", r#"{"a":"true"}"#),
        ("a: !!str 12", r#"{"a":"12"}"#),
        ("a: ! 12", r#"{"a":"12"}"#),
        ("a: !!int 12", r#"{"a":12}"#),
        ("a: !!float 1", r#"{"a":1}"#),
        ("a: !!map {b: 1}", r#"{"a":{"b":1}}"#),
        ("1: one\ntrue: t", r#"{"1":"one","true":"t"}"#),
        ("a: |\n  line 1\n  line 2\n", r#"{"a":"line 1\nline 2\n"}"#),
        ("- [1, {b: c}]", r#"[[1,{"b":"c"}]]"#),
    ];
    for (yaml, expected) in cases {
        assert_eq!(value(yaml), json(expected), "{yaml}");
    }
    assert_eq!(value("a: 0o17").to_compact_string(), r#"{"a":15}"#);
}

#[test]
fn infinity_and_nan_are_errors() {
    for text in ["a: .inf", "a: -.Inf", "a: .nan"] {
        let e = error(text);
        assert_eq!(e.kind, ErrorKind::Unsupported, "{text}");
        assert_eq!(e.path.to_string(), "$.a");
        assert!(e.message.contains("no JSON value"), "{e}");
    }
    let e = error("a: 1e400");
    assert!(e.message.starts_with("number out of range"), "{e}");
}

#[test]
fn tags_outside_the_core_schema_are_errors() {
    let e = error("data:\n  key: !!binary aGVsbG8=\n");
    assert_eq!(e.kind, ErrorKind::Unsupported);
    assert_eq!((e.line, e.column), (2, 8));
    assert_eq!(e.path.to_string(), "$.data.key");
    assert!(
        e.message.starts_with("the tag !!binary is not supported"),
        "{e}"
    );
    let e = error("a: !Thing {b: 1}");
    assert_eq!(e.kind, ErrorKind::Unsupported);
    assert!(
        e.message.starts_with("the tag !Thing is not supported"),
        "{e}"
    );
    let e = error("a: !!int twelve");
    assert_eq!(e.kind, ErrorKind::Shape);
    assert_eq!(
        e.message,
        "\"twelve\" is not an integer; the tag !!int asks for one"
    );
    assert_eq!(
        error("a: !!seq {b: 1}").message,
        "the tag !!seq does not fit a mapping"
    );
}

#[test]
fn keys_are_strings() {
    let e = error("? [a, b]\n: c\n");
    assert_eq!(e.kind, ErrorKind::Unsupported);
    assert!(e.message.starts_with("a sequence as a mapping key"), "{e}");
    let e = error("base: &b {x: 1}\nweb:\n  <<: *b\n");
    assert_eq!(e.kind, ErrorKind::Unsupported);
    assert_eq!((e.line, e.path.to_string()), (3, "$.web".to_owned()));
    assert!(e.message.contains("merge key"), "{e}");
    assert_eq!(value("\"<<\": 1"), json(r#"{"<<":1}"#));
}

#[test]
fn a_duplicate_key_is_an_error_at_the_repeat() {
    let e = error("web:\n  replicas: 1\n  image: a\n  replicas: 2\n");
    assert_eq!(e.kind, ErrorKind::DuplicateKey);
    assert_eq!((e.line, e.column), (4, 3));
    assert_eq!(e.path.to_string(), "$.web.replicas");
    assert_eq!(
        e.to_string(),
        "Desired state: line 4, column 3 at $.web.replicas: duplicate member name \"replicas\"; each name may appear only once"
    );
    let e = read_resources(
        Document::Observed,
        "a: 1\nb: 2\na: 3\n",
        &ManifestOptions::default(),
    )
    .expect_err("a resource twice");
    assert_eq!((e.kind, e.line), (ErrorKind::DuplicateKey, 3));
    assert!(
        e.message.starts_with("duplicate resource name \"a\""),
        "{e}"
    );
}

#[test]
fn anchors_and_aliases_share_their_value() {
    let text = "defaults: &d {image: nginx, replicas: 2}\nweb: *d\napi: *d\n";
    let expected = json(
        r#"{"defaults":{"image":"nginx","replicas":2},"web":{"image":"nginx","replicas":2},"api":{"image":"nginx","replicas":2}}"#,
    );
    assert_eq!(value(text), expected);
    let e = error("a: &x [1, *x]");
    assert_eq!(e.kind, ErrorKind::Unsupported);
    assert!(e.message.contains("recursive alias"), "{e}");
    let e = error("a: *missing");
    assert_eq!(e.kind, ErrorKind::Syntax);
    assert!(e.message.contains("unknown anchor"), "{e}");
}

#[test]
fn json_looking_text_is_json() {
    assert_eq!(detect_format("  {\"a\":1}"), Format::Json);
    assert_eq!(detect_format("\n[1]"), Format::Json);
    assert_eq!(detect_format(""), Format::Json);
    assert_eq!(detect_format("a: 1"), Format::Yaml);
    assert_eq!(detect_format("# {\n{}"), Format::Yaml);
    // Valid YAML, but read as JSON, so the trailing comma is JSON's error.
    let e = error(r#"{"a":1,}"#);
    assert_eq!(e.kind, ErrorKind::Syntax);
    assert!(e.message.starts_with("trailing comma"), "{e}");
    // YAML flow style that is not JSON starts with `{` too: JSON's error.
    assert_eq!(
        error("{a: 1}").message,
        "expected a member name in double quotes"
    );
    // JSON inside YAML is YAML.
    assert_eq!(
        value("web: {\"replicas\": 1}"),
        json(r#"{"web":{"replicas":1}}"#)
    );
}

#[test]
fn syntax_errors_are_located_with_their_path() {
    let e = error("web:\n  replicas: 1\n  image: \"nginx\n");
    assert_eq!(e.kind, ErrorKind::Syntax);
    assert_eq!(e.path.to_string(), "$.web.image");
    assert_eq!(
        e.message,
        "the text ends inside a quoted string; expected its closing quote"
    );
    let e = error("web:\n  items: [1, 2\n");
    assert_eq!(e.path.to_string(), "$.web.items[2]");
    let e = error("a: 1\n  b: 2\n");
    assert_eq!((e.line, e.column), (2, 4));
    assert!(e.message.starts_with("unexpected `:`"), "{e}");
}

#[test]
fn documents_other_than_resources_take_one_yaml_document() {
    let e = read_value(Document::Finalizers, "a: 1\n---\nb: 2\n").expect_err("two documents");
    assert_eq!((e.line, e.kind), (2, ErrorKind::Shape));
    assert!(e.message.starts_with("a second YAML document"), "{e}");
    assert_eq!(reconcile_yaml::read_finalizers("# none yet\n"), Ok(None));
    let finalizers = reconcile_yaml::read_finalizers("svc:\n- cloud/lb\n").expect("valid");
    assert_eq!(
        finalizers.map(|f| f.pending("svc").to_vec()),
        Some(vec!["cloud/lb".to_owned()])
    );
    let e = reconcile_yaml::read_finalizers("svc:\n- cloud/lb\n- 7\n").expect_err("a number");
    assert_eq!(
        (e.line, e.column, e.path.to_string()),
        (3, 3, "$.svc[1]".to_owned())
    );
    assert_eq!(
        e.message,
        "expected a finalizer name (a string), found a number"
    );
    let scenario = reconcile_yaml::read_scenario("desired: {a: 1}\nobserved: {}\n").expect("valid");
    assert_eq!(scenario.desired.len(), 1);
    let e = read_resources(
        Document::Desired,
        "# nothing\n",
        &ManifestOptions::default(),
    )
    .expect_err("empty");
    assert_eq!(e.kind, ErrorKind::Empty);
}

#[test]
fn a_duplicate_resource_with_a_mapping_value_is_an_error_at_the_repeat() {
    let e = read_resources(
        Document::Desired,
        "web:\n  replicas: 1\nweb:\n  replicas: 2\n",
        &ManifestOptions::default(),
    )
    .expect_err("a resource twice");
    assert_eq!(
        (e.kind, e.line, e.column),
        (ErrorKind::DuplicateKey, 3, 1),
        "{e}"
    );
}
