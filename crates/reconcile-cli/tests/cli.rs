//! End-to-end tests of the `reconcile` binary: arguments, input sources, outputs,
//! error messages and exit codes.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

const SEED_1: &str = r#"{
  "desired": {"a": {"replicas": 1}, "b": {"replicas": 3}},
  "observed": {"b": {"replicas": 1}, "c": {"replicas": 1}}
}"#;
const SEED_1_ACTIONS: &str =
    r#"[["CREATE","a",{"replicas":1}],["UPDATE","b",{"replicas":3}],["DELETE","c",null]]"#;

const SEED_2: &str = r#"{
  "desired": {},
  "observed": {"svc": {"type": "LoadBalancer"}},
  "finalizers": {"svc": ["cloud/lb-cleanup"]}
}"#;
const SEED_2_ACTIONS: &str = r#"[["FINALIZE","svc",null]]"#;

/// Output of one run, with the streams as text.
struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

impl From<Output> for Run {
    fn from(output: Output) -> Self {
        Run {
            code: output.status.code(),
            stdout: String::from_utf8(output.stdout).expect("stdout is UTF-8"),
            stderr: String::from_utf8(output.stderr).expect("stderr is UTF-8"),
        }
    }
}

impl Run {
    fn assert_ok(&self) -> &Self {
        assert_eq!(self.code, Some(0), "stderr: {}", self.stderr);
        assert_eq!(self.stderr, "");
        self
    }

    fn assert_input_error(&self) -> &Self {
        assert_eq!(self.code, Some(2), "stdout: {}", self.stdout);
        assert_eq!(self.stdout, "", "nothing on stdout after an error");
        assert!(
            self.stderr.starts_with("reconcile: "),
            "stderr: {}",
            self.stderr
        );
        self
    }
}

fn reconcile_cmd() -> Command {
    Command::new(env!("CARGO_BIN_EXE_reconcile"))
}

/// Runs the binary with `args`, feeding `stdin` (empty when `None`).
fn run(args: &[&str], stdin: Option<&[u8]>) -> Run {
    let mut child = reconcile_cmd()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    {
        let mut pipe = child.stdin.take().expect("stdin is piped");
        if let Some(bytes) = stdin {
            // The binary may exit (usage error, unreadable file) without reading stdin.
            if let Err(error) = pipe.write_all(bytes) {
                assert_eq!(error.kind(), std::io::ErrorKind::BrokenPipe, "{error}");
            }
        }
    }
    child
        .wait_with_output()
        .expect("the binary finishes")
        .into()
}

/// Writes `contents` to a fresh file under Cargo's per-target temp dir.
fn temp_file(contents: &[u8]) -> PathBuf {
    temp_file_ending(contents, "json")
}

/// [`temp_file`] with the extension `extension`.
fn temp_file_ending(contents: &[u8], extension: &str) -> PathBuf {
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("cli-test-{}-{n}.{extension}", std::process::id()));
    std::fs::write(&path, contents).expect("temp file is writable");
    path
}

fn run_file(args: &[&str], contents: &[u8]) -> Run {
    let path = temp_file(contents);
    let path_arg = path.to_str().expect("temp path is UTF-8");
    let mut all: Vec<&str> = args.to_vec();
    all.push(path_arg);
    let result = run(&all, None);
    let _ = std::fs::remove_file(&path);
    result
}

// ---------------------------------------------------------------------------
// Seed examples, from every input source.

#[test]
fn seed_examples_from_a_file() {
    let out = run_file(&[], SEED_1.as_bytes());
    out.assert_ok();
    assert_eq!(out.stdout, format!("{SEED_1_ACTIONS}\n"));

    let out = run_file(&[], SEED_2.as_bytes());
    out.assert_ok();
    assert_eq!(out.stdout, format!("{SEED_2_ACTIONS}\n"));
}

#[test]
fn seed_examples_from_stdin_with_dash() {
    let out = run(&["-"], Some(SEED_1.as_bytes()));
    out.assert_ok();
    assert_eq!(out.stdout, format!("{SEED_1_ACTIONS}\n"));

    let out = run(&["-"], Some(SEED_2.as_bytes()));
    out.assert_ok();
    assert_eq!(out.stdout, format!("{SEED_2_ACTIONS}\n"));
}

#[test]
fn seed_examples_from_stdin_without_argument() {
    let out = run(&[], Some(SEED_1.as_bytes()));
    out.assert_ok();
    assert_eq!(out.stdout, format!("{SEED_1_ACTIONS}\n"));

    let out = run(&[], Some(SEED_2.as_bytes()));
    out.assert_ok();
    assert_eq!(out.stdout, format!("{SEED_2_ACTIONS}\n"));
}

#[test]
fn json_output_parses_as_the_contract_arrays() {
    let out = run(&[], Some(SEED_1.as_bytes()));
    out.assert_ok();
    let value: serde_json::Value = serde_json::from_str(&out.stdout).expect("stdout is JSON");
    assert_eq!(
        value,
        serde_json::json!([
            ["CREATE", "a", {"replicas": 1}],
            ["UPDATE", "b", {"replicas": 3}],
            ["DELETE", "c", null]
        ])
    );
}

#[test]
fn converged_scenario_prints_an_empty_array() {
    let scenario = r#"{"desired":{"a":{"x":1,"y":[1,2]}},"observed":{"a":{"y":[1.0,2],"x":1e0}}}"#;
    let out = run(&[], Some(scenario.as_bytes()));
    out.assert_ok();
    assert_eq!(out.stdout, "[]\n");

    let out = run(&["--plan"], Some(scenario.as_bytes()));
    out.assert_ok();
    assert_eq!(out.stdout, "Converged: nothing to do\n");
}

#[test]
fn non_ascii_names_sort_by_code_point() {
    let scenario = r#"{"desired":{"🚀":1,"\ue000":1,"z":1},"observed":{}}"#;
    let out = run(&[], Some(scenario.as_bytes()));
    out.assert_ok();
    assert_eq!(
        out.stdout,
        "[[\"CREATE\",\"z\",1],[\"CREATE\",\"\u{E000}\",1],[\"CREATE\",\"🚀\",1]]\n"
    );
}

#[test]
fn numbers_print_back_exactly_and_compare_by_value() {
    let scenario = r#"{"desired":{"a":0.1,"b":-8.651884160948e-287,"c":1e0,"d":9.8599317528e-42},
                       "observed":{"c":1,"d":98599317528000e-55}}"#;
    let out = run(&[], Some(scenario.as_bytes()));
    out.assert_ok();
    assert_eq!(
        out.stdout,
        "[[\"CREATE\",\"a\",0.1],[\"CREATE\",\"b\",-8.651884160948e-287]]\n"
    );
}

#[test]
fn deep_nesting_is_a_located_error() {
    let scenario = format!(
        r#"{{"desired":{{"a":{}{}}},"observed":{{}}}}"#,
        "[".repeat(5000),
        "]".repeat(5000)
    );
    let out = run(&[], Some(scenario.as_bytes()));
    out.assert_input_error();
    assert!(
        out.stderr
            .contains("values are nested more than 127 levels deep"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.contains("at $.desired.a[0][0]"),
        "{}",
        out.stderr
    );
}

// ---------------------------------------------------------------------------
// --plan.

#[test]
fn plan_prints_symbols_and_the_summary_last() {
    let scenario = r#"{
      "desired": {"a": {"replicas": 1}, "b": {"replicas": 3}},
      "observed": {"b": {"replicas": 1}, "c": {"replicas": 1}, "svc": {"type": "LoadBalancer"}},
      "finalizers": {"svc": ["cloud/lb-cleanup"]}
    }"#;
    let out = run_file(&["--plan"], scenario.as_bytes());
    out.assert_ok();
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(
        lines,
        vec![
            r#"+ CREATE a {"replicas":1}  # desired but not observed"#,
            r#"~ UPDATE b {"replicas":3}  # observed spec differs from desired in 1 field"#,
            "    $.replicas: 1 → 3",
            "- DELETE c  # no longer desired, and it has no finalizers",
            "⊘ FINALIZE svc  # no longer desired, but finalizers are pending: cloud/lb-cleanup",
            "1 to create, 1 to update, 1 to finalize, 1 to delete",
        ]
    );
    assert!(out.stdout.ends_with('\n'));
}

#[test]
fn plan_quotes_names_that_would_break_lines() {
    let scenario = r#"{"desired":{"a\nb":1},"observed":{"":1}}"#;
    let out = run(&["--plan"], Some(scenario.as_bytes()));
    out.assert_ok();
    assert_eq!(
        out.stdout,
        "+ CREATE \"a\\nb\" 1  # desired but not observed\n\
         - DELETE \"\"  # no longer desired, and it has no finalizers\n\
         1 to create, 0 to update, 0 to finalize, 1 to delete\n"
    );
    // The JSON output keeps the names exactly.
    let out = run(&[], Some(scenario.as_bytes()));
    out.assert_ok();
    assert_eq!(
        out.stdout,
        "[[\"CREATE\",\"a\\nb\",1],[\"DELETE\",\"\",null]]\n"
    );
}

#[test]
fn plan_flag_after_the_file_and_with_stdin() {
    let path = temp_file(SEED_2.as_bytes());
    let out = run(
        &[path.to_str().expect("temp path is UTF-8"), "--plan"],
        None,
    );
    let _ = std::fs::remove_file(&path);
    out.assert_ok();
    let last = out.stdout.lines().last().expect("a summary line");
    assert_eq!(last, "0 to create, 0 to update, 1 to finalize, 0 to delete");
    assert!(out.stdout.starts_with("⊘ FINALIZE svc  # "));

    let out = run(&["--plan", "-"], Some(SEED_1.as_bytes()));
    out.assert_ok();
    let symbols: Vec<&str> = out
        .stdout
        .lines()
        .filter_map(|l| l.split_once(' ').map(|(s, _)| s))
        .collect();
    assert_eq!(symbols, vec!["+", "~", "", "-", "1"]);
}

// ---------------------------------------------------------------------------
// Finalizers document variants.

#[test]
fn finalizers_absent_null_empty_list_all_delete() {
    let base = r#""desired": {}, "observed": {"svc": {"type": "LoadBalancer"}}"#;
    for finalizers in [
        "",
        r#", "finalizers": null"#,
        r#", "finalizers": {}"#,
        r#", "finalizers": {"svc": []}"#,
        r#", "finalizers": {"other": ["x"]}"#,
    ] {
        let scenario = format!("{{{base}{finalizers}}}");
        let out = run(&[], Some(scenario.as_bytes()));
        out.assert_ok();
        assert_eq!(out.stdout, "[[\"DELETE\",\"svc\",null]]\n", "{scenario}");
    }
}

#[test]
fn plan_tells_empty_list_from_no_entry() {
    let scenario = r#"{"desired":{},"observed":{"a":1,"b":1},"finalizers":{"a":[]}}"#;
    let out = run(&["--plan"], Some(scenario.as_bytes()));
    out.assert_ok();
    assert_eq!(
        out.stdout,
        "- DELETE a  # no longer desired, and its finalizer list is empty\n\
         - DELETE b  # no longer desired, and it has no finalizers\n\
         0 to create, 0 to update, 0 to finalize, 2 to delete\n"
    );
}

// ---------------------------------------------------------------------------
// Bad input: exit 2, a precise message on stderr, nothing on stdout.

#[test]
fn bad_json_names_document_location_and_path() {
    let scenario = "{\n  \"desired\": {},\n  \"observed\": {\"b\": {\"replicas\": 1,}}\n}\n";
    let out = run_file(&[], scenario.as_bytes());
    out.assert_input_error();
    // The `}` after the trailing comma is on line 3, column 36.
    assert!(
        out.stderr
            .starts_with("reconcile: Scenario: line 3, column 36 at $.observed.b: "),
        "stderr: {}",
        out.stderr
    );
    assert!(out.stderr.contains("trailing comma"), "{}", out.stderr);

    // Same from stdin, and with --plan.
    let out = run(&["--plan"], Some(scenario.as_bytes()));
    out.assert_input_error();
    assert!(out
        .stderr
        .contains("Scenario: line 3, column 36 at $.observed.b"));
}

#[test]
fn bad_json_variants_are_located() {
    for (scenario, expected) in [
        (
            "{\"desired\": {\"a\": tru}, \"observed\": {}}",
            "Scenario: line 1, column 22 at $.desired.a: expected `true`, `false` or `null`",
        ),
        (
            "{\"desired\": {},\n \"observed\": {\"x\": [1, 2\n",
            "Scenario: line 3, column 1 at $.observed.x[2]: the text ends inside an array",
        ),
        (
            "{\"desired\": {}, \"observed\": {}} extra",
            "Scenario: line 1, column 33 at $: unexpected text after the end",
        ),
        (
            "{\"desired\": {\"a\": 1, \"a\": 2}, \"observed\": {}}",
            "Scenario: line 1, column 24 at $.desired.a: duplicate resource name \"a\"",
        ),
        (
            "{\"desired\": {\"🚀\": {\"x\": 1 2}}, \"observed\": {}}",
            "Scenario: line 1, column 27 at $.desired[\"🚀\"]: ",
        ),
    ] {
        let out = run(&[], Some(scenario.as_bytes()));
        out.assert_input_error();
        assert!(
            out.stderr.starts_with(&format!("reconcile: {expected}")),
            "for {scenario:?} expected {expected:?}, got: {}",
            out.stderr
        );
    }
}

#[test]
fn wrong_shape_says_what_was_expected() {
    let out = run(&[], Some(br#"{"desired": [1, 2], "observed": {}}"#));
    out.assert_input_error();
    assert!(
        out.stderr
            .starts_with("reconcile: Scenario: line 1, column "),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains(" at $.desired: "), "{}", out.stderr);
    assert!(
        out.stderr
            .contains(r#"expected an object of {"name": spec}, found an array"#),
        "{}",
        out.stderr
    );

    let cases: [(&[u8], &str); 5] = [
        (b"[]", "at $: expected an object"),
        (
            br#"{"desired": {}, "observed": {}, "finalizers": {"svc": "x"}}"#,
            "at $.finalizers.svc: expected an array of finalizer names",
        ),
        (
            br#"{"desired": {}, "observed": {}, "finalizers": {"svc": [1]}}"#,
            "at $.finalizers.svc[0]: expected a finalizer name (a string), found a number",
        ),
        (br#"{"desired": {}}"#, "missing member \"observed\""),
        (
            br#"{"desired": {}, "observed": {}, "extra": 1}"#,
            "at $.extra: unknown member \"extra\"",
        ),
    ];
    for (scenario, expected) in cases {
        let out = run(&[], Some(scenario));
        out.assert_input_error();
        assert!(
            out.stderr.contains(expected),
            "{expected:?} in {}",
            out.stderr
        );
    }
}

#[test]
fn empty_input_is_an_error() {
    let out = run(&[], Some(b" \n"));
    out.assert_input_error();
    assert!(
        out.stderr.contains("Scenario: line 1, column 1"),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("empty"), "{}", out.stderr);

    let out = run(&[], None);
    out.assert_input_error();
}

#[test]
fn non_utf8_file_is_a_clear_error() {
    let mut bytes = br#"{"desired": {"caf"#.to_vec();
    bytes.push(0xE9); // Latin-1 "é"
    bytes.extend_from_slice(br#"": 1}, "observed": {}}"#);
    let out = run_file(&[], &bytes);
    out.assert_input_error();
    let located = "Scenario: line 1, column 18 at $: byte 0xE9 is not UTF-8; expected UTF-8 text, so save the file as UTF-8";
    assert!(out.stderr.contains(located), "{}", out.stderr);

    let out = run(&[], Some(&bytes));
    out.assert_input_error();
    assert!(
        out.stderr.contains(&format!("standard input: {located}")),
        "{}",
        out.stderr
    );
}

#[test]
fn byte_order_mark_is_rejected_with_a_reason() {
    let mut bytes = "\u{FEFF}".as_bytes().to_vec();
    bytes.extend_from_slice(SEED_1.as_bytes());
    let out = run_file(&[], &bytes);
    out.assert_input_error();
    assert!(out.stderr.contains("byte order mark"), "{}", out.stderr);
}

#[test]
fn missing_file_is_an_error() {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("no-such-dir/missing.json");
    let out = run(
        &[path.to_str().expect("UTF-8 path")],
        Some(SEED_1.as_bytes()),
    );
    out.assert_input_error();
    assert!(
        out.stderr.contains("cannot read ") && out.stderr.contains("missing.json"),
        "{}",
        out.stderr
    );
}

// ---------------------------------------------------------------------------
// Usage.

#[test]
fn unknown_flag_is_a_usage_error() {
    for flag in ["--nope", "--plan=yes", "-x"] {
        let out = run(&[flag], Some(SEED_1.as_bytes()));
        out.assert_input_error();
        assert!(
            out.stderr.contains(&format!("unknown option {flag}")),
            "{}",
            out.stderr
        );
        assert!(out.stderr.contains("usage: reconcile"), "{}", out.stderr);
    }
}

#[test]
fn more_than_one_input_is_a_usage_error() {
    let path = temp_file(SEED_1.as_bytes());
    let path = path.to_str().expect("UTF-8 path").to_owned();
    for args in [
        [path.as_str(), path.as_str()],
        ["-", path.as_str()],
        [path.as_str(), "-"],
    ] {
        let out = run(&args, Some(SEED_1.as_bytes()));
        out.assert_input_error();
        assert!(
            out.stderr.contains("give at most one FILE"),
            "{}",
            out.stderr
        );
    }
    let _ = std::fs::remove_file(&path);
}

#[test]
fn help_prints_usage_and_succeeds() {
    for flag in ["--help", "-h"] {
        let out = run(&[flag], None);
        out.assert_ok();
        assert!(out
            .stdout
            .starts_with("usage: reconcile [--plan] [--format json|yaml] [FILE|-]"));
        assert!(out.stdout.contains("Exit status"));
    }
}

// ---------------------------------------------------------------------------
// YAML and Kubernetes manifests (the fixtures are reconcile-yaml's, from upstream examples).

fn fixture(name: &str) -> String {
    format!(
        "{}/../reconcile-yaml/tests/fixtures/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

#[test]
fn manifests_from_document_files() {
    let out = run(
        &[
            "--desired",
            &fixture("nginx-deployment.yaml"),
            "--observed",
            &fixture("kubectl-get-list.yaml"),
            "--plan",
        ],
        None,
    );
    out.assert_ok();
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert!(
        lines[0].starts_with("~ UPDATE Deployment/default/nginx-deployment"),
        "{}",
        out.stdout
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("\u{2298} FINALIZE Service/default/my-service")),
        "{}",
        out.stdout
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("- DELETE Namespace/shop")),
        "{}",
        out.stdout
    );
    assert_eq!(
        lines.last(),
        Some(&"0 to create, 1 to update, 1 to finalize, 1 to delete")
    );
}

/// `kubectl get deployments -o json > observed.json`: a JSON List is manifests too.
#[test]
fn a_kubectl_json_list_is_manifests() {
    let out = run(
        &[
            "--desired",
            &fixture("nginx-deployment.yaml"),
            "--observed",
            &fixture("kubectl-get-deployments.json"),
        ],
        None,
    );
    out.assert_ok();
    let actions: serde_json::Value = serde_json::from_str(&out.stdout).expect("JSON");
    let summary: Vec<(String, String)> = actions
        .as_array()
        .expect("a list")
        .iter()
        .map(|a| {
            (
                a[0].as_str().unwrap_or_default().into(),
                a[1].as_str().unwrap_or_default().into(),
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            (
                "UPDATE".into(),
                "Deployment/default/nginx-deployment".into()
            ),
            ("FINALIZE".into(), "Deployment/default/redis".into()),
        ]
    );
}

#[test]
fn a_load_balancer_service_is_finalized_not_deleted() {
    let desired = temp_file(b"{}");
    let finalizers = temp_file_ending(b"# none\n", "yml");
    let out = run(
        &[
            "--desired",
            desired.to_str().unwrap_or_default(),
            "--observed",
            &fixture("service-loadbalancer.yaml"),
            "--finalizers",
            finalizers.to_str().unwrap_or_default(),
        ],
        None,
    );
    let _ = std::fs::remove_file(&desired);
    let _ = std::fs::remove_file(&finalizers);
    out.assert_ok();
    assert_eq!(
        out.stdout,
        "[[\"FINALIZE\",\"Service/default/my-service\",null]]\n"
    );
}

#[test]
fn a_yaml_scenario_by_extension_or_format() {
    let yaml = b"desired:\n  a: {replicas: 1}\n  b: {replicas: 3}\nobserved:\n  b: {replicas: 1}\n  c: {replicas: 1}\n";
    let path = temp_file_ending(yaml, "yaml");
    let out = run(&[path.to_str().unwrap_or_default()], None);
    let _ = std::fs::remove_file(&path);
    out.assert_ok();
    assert_eq!(out.stdout.trim_end(), SEED_1_ACTIONS);
    let out = run(&["--format", "yaml"], Some(yaml));
    out.assert_ok();
    assert_eq!(out.stdout.trim_end(), SEED_1_ACTIONS);
    // Detected from the text when nothing says.
    let out = run(&[], Some(yaml));
    assert_eq!(out.stdout.trim_end(), SEED_1_ACTIONS);
}

#[test]
fn yaml_errors_name_document_line_column_and_path() {
    let observed = temp_file_ending(b"web:\n  replicas: 1\n  replicas: 2\n", "yaml");
    let out = run(
        &[
            "--desired",
            &fixture("nginx-deployment.yaml"),
            "--observed",
            observed.to_str().unwrap_or_default(),
        ],
        None,
    );
    let _ = std::fs::remove_file(&observed);
    out.assert_input_error();
    assert_eq!(
        out.stderr.trim_end(),
        "reconcile: Observed state: line 3, column 3 at $.web.replicas: duplicate member name \"replicas\"; each name may appear only once"
    );
    let out = run(&["--desired", "x.yaml"], None);
    out.assert_input_error();
    assert!(
        out.stderr.contains("--desired and --observed go together"),
        "{}",
        out.stderr
    );
}
