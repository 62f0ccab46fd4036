//! Bad YAML input: each gets a clear, located message, quickly, and nothing
//! overflows the stack (docs/bad-input.md lists these).

use std::time::{Duration, Instant};

use reconcile_core::{Document, ErrorKind, InputError};
use reconcile_yaml::{
    read_resources, read_value, text_from_bytes, ManifestOptions, MAX_ALIAS_NODES,
};

fn error(text: &str) -> InputError {
    read_value(Document::Observed, text).expect_err("bad input")
}

#[test]
fn an_alias_bomb_is_stopped() {
    // "Billion laughs": nine levels of nine aliases, 9^9 values if expanded.
    let mut text = String::from("a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
    for level in 1..=9 {
        let previous = format!("*a{}", level - 1);
        let items = vec![previous; 9].join(", ");
        text.push_str(&format!("a{level}: &a{level} [{items}]\n"));
    }
    let started = Instant::now();
    let e = error(&text);
    assert!(
        started.elapsed() < Duration::from_secs(1),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(e.kind, ErrorKind::TooLarge);
    assert!(
        e.message.starts_with(&format!(
            "aliases expand to more than {MAX_ALIAS_NODES} values"
        )),
        "{e}"
    );
    assert!(e.path.to_string().starts_with("$.a"), "{e}");
    // A few aliases of a small anchor are fine.
    assert!(read_value(Document::Observed, "x: &x {a: 1}\ny: *x\nz: *x\n").is_ok());
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    // Flow sequences, block sequences on one line, flow mappings after a key.
    let texts = [
        "x: ".to_owned() + &"[".repeat(100_000),
        "- ".repeat(100_000) + "x",
        "x: ".to_owned() + &"{a: ".repeat(100_000),
    ];
    for text in texts {
        let e = error(&text);
        assert_eq!(e.kind, ErrorKind::TooDeep, "{}", &text[..8]);
        assert_eq!(e.message, "values are nested more than 127 levels deep");
        assert_eq!(e.line, 1);
    }
    // 127 levels are fine, as in JSON; a JSON text this deep is JSON's error.
    assert_eq!(error(&"[".repeat(100_000)).kind, ErrorKind::TooDeep);
    let ok = format!("x: {}1{}", "[".repeat(126), "]".repeat(126));
    assert!(read_value(Document::Observed, &ok).is_ok());
}

#[test]
fn tab_indentation_is_an_error_that_says_so() {
    let e = error("web:\n\treplicas: 1\n");
    assert_eq!(e.kind, ErrorKind::Syntax);
    assert_eq!(e.line, 2);
    assert_eq!(
        e.message,
        "a tab in the indentation; expected spaces (YAML indents with spaces only)"
    );
}

#[test]
fn mixed_yaml_and_json() {
    // YAML first: a JSON line inside is YAML flow style, and a stray `,` is not.
    let e = error("web:\n  replicas: 1\n\"api\": {\"replicas\": 2},\n");
    assert_eq!(e.kind, ErrorKind::Syntax);
    assert_eq!(e.line, 3);
    // JSON first: the text is JSON, so YAML after it is JSON's error.
    let e = error("{\"web\": {\"replicas\": 1}}\napi:\n  replicas: 2\n");
    assert_eq!(e.kind, ErrorKind::Syntax);
    assert_eq!(e.message, "unexpected text after the end of the JSON value");
    assert_eq!(e.line, 2);
}

#[test]
fn non_utf8_input_is_located() {
    let e = text_from_bytes(Document::Desired, b"web:\n  image: caf\xe9\n").expect_err("Latin-1");
    assert_eq!(e.kind, ErrorKind::Unsupported);
    assert_eq!((e.line, e.column), (2, 13));
    assert_eq!(
        e.message,
        "byte 0xE9 is not UTF-8; expected UTF-8 text, so save the file as UTF-8"
    );
    let e = text_from_bytes(Document::Desired, b"\xff\xfea\x00:\x00").expect_err("UTF-16");
    assert!(e.message.starts_with("the text is UTF-16"), "{e}");
    assert_eq!(
        text_from_bytes(Document::Desired, "a: é".as_bytes()),
        Ok("a: é")
    );
}

#[test]
fn a_multi_megabyte_document_reads_in_time() {
    // 20,000 resources, pretty-printed: about 2 MB.
    let mut text = String::new();
    for i in 0..20_000 {
        text.push_str(&format!(
            "app-{i:05}:\n  replicas: {}\n  image: \"registry.example/app:{i}\"\n  labels:\n    tier: web\n    team: t{}\n  ports:\n    - 80\n    - 443\n",
            i % 7,
            i % 13
        ));
    }
    assert!(text.len() > 2_000_000, "{}", text.len());
    let started = Instant::now();
    let read =
        read_resources(Document::Desired, &text, &ManifestOptions::default()).expect("valid");
    let elapsed = started.elapsed();
    assert_eq!(read.resources.len(), 20_000);
    // Generous for debug builds on a busy machine; the release figure is in docs/PERFORMANCE.md.
    assert!(elapsed < Duration::from_secs(20), "{elapsed:?}");
    // An error near the end is found and placed.
    text.push_str("app-x:\n  replicas: [\n");
    let e = read_resources(Document::Desired, &text, &ManifestOptions::default())
        .expect_err("cut short");
    assert!(e.line > 180_000, "{e}");
}

#[test]
fn a_long_manifest_stream_and_list_read_in_linear_time() {
    // 5,000 Deployments: once as a stream, once as a List (each object's line
    // is found in one reading of the text, not one per object).
    let object = |i: usize, indent: &str| {
        format!("apiVersion: apps/v1\n{indent}kind: Deployment\n{indent}metadata:\n{indent}  name: app-{i}\n{indent}spec:\n{indent}  replicas: 3\n")
    };
    let stream: String = (0..5_000)
        .map(|i| format!("---\n{}", object(i, "")))
        .collect();
    let list = String::from("apiVersion: v1\nkind: List\nitems:\n")
        + &(0..5_000)
            .map(|i| format!("- {}", object(i, "  ")))
            .collect::<String>();
    for text in [stream, list] {
        let started = Instant::now();
        let read =
            read_resources(Document::Observed, &text, &ManifestOptions::default()).expect("valid");
        assert_eq!(read.resources.len(), 5_000);
        assert_eq!(
            read.manifests.last().map(|o| o.name.as_str()),
            Some("Deployment/default/app-999")
        );
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "{:?}",
            started.elapsed()
        );
    }
}
