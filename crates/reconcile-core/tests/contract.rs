//! The reconcile contract from DESIGN.md, one test per rule.
//!
//! Inputs are written as JSON text and parsed with the crate's own parser, so
//! each test reads like the contract's examples.

use reconcile_core::{
    check_texts, diff, parse_finalizers, parse_json, parse_resources, plan, plan_texts, reconcile,
    reconcile_scenario_json, Action, ActionKind, Document, Drift, Finalizers, Json, Reason,
    Resources, Summary,
};

fn res(text: &str) -> Resources {
    parse_resources(Document::Desired, text).expect("test resources are valid")
}

fn fin(text: &str) -> Finalizers {
    parse_finalizers(text)
        .expect("test finalizers are valid")
        .expect("test finalizers are not null")
}

fn json(text: &str) -> Json {
    parse_json(Document::Desired, text).expect("test JSON is valid")
}

fn run(desired: &str, observed: &str, finalizers: Option<&str>) -> Vec<Action> {
    let finalizers = finalizers.map(fin);
    reconcile(&res(desired), &res(observed), finalizers.as_ref())
}

fn run_json(desired: &str, observed: &str, finalizers: Option<&str>) -> String {
    serde_json::to_string(&run(desired, observed, finalizers)).expect("actions serialize")
}

fn kinds_and_names(actions: &[Action]) -> Vec<(ActionKind, &str)> {
    actions.iter().map(|a| (a.kind, &*a.name)).collect()
}

// ---------------------------------------------------------------------------
// The two seed examples.

#[test]
fn seed_example_create_update_delete() {
    let desired = r#"{"a":{"replicas":1},"b":{"replicas":3}}"#;
    let observed = r#"{"b":{"replicas":1},"c":{"replicas":1}}"#;
    let actions = run(desired, observed, None);
    assert_eq!(
        actions,
        vec![
            Action::create("a", json(r#"{"replicas":1}"#)),
            Action::update("b", json(r#"{"replicas":3}"#)),
            Action::delete("c"),
        ]
    );
    assert_eq!(
        run_json(desired, observed, None),
        r#"[["CREATE","a",{"replicas":1}],["UPDATE","b",{"replicas":3}],["DELETE","c",null]]"#
    );
}

#[test]
fn seed_example_finalize() {
    let actions = run(
        "{}",
        r#"{"svc":{"type":"LoadBalancer"}}"#,
        Some(r#"{"svc":["cloud/lb-cleanup"]}"#),
    );
    assert_eq!(actions, vec![Action::finalize("svc")]);
    assert_eq!(
        serde_json::to_string(&actions).expect("serializes"),
        r#"[["FINALIZE","svc",null]]"#
    );
}

#[test]
fn seed_examples_through_the_scenario_entry_point() {
    let text = r#"{"desired":{"a":{"replicas":1},"b":{"replicas":3}},
                   "observed":{"b":{"replicas":1},"c":{"replicas":1}}}"#;
    assert_eq!(
        reconcile_scenario_json(text).expect("valid scenario"),
        r#"[["CREATE","a",{"replicas":1}],["UPDATE","b",{"replicas":3}],["DELETE","c",null]]"#
    );
    let text = r#"{"desired":{},"observed":{"svc":{"type":"LoadBalancer"}},
                   "finalizers":{"svc":["cloud/lb-cleanup"]}}"#;
    assert_eq!(
        reconcile_scenario_json(text).expect("valid scenario"),
        r#"[["FINALIZE","svc",null]]"#
    );
}

// ---------------------------------------------------------------------------
// One test per constraint.

#[test]
fn identical_specs_produce_no_action() {
    let specs = r#"{"a":{"replicas":2,"image":"nginx"},"b":[1,2],"c":null}"#;
    assert_eq!(run(specs, specs, None), vec![]);
    assert_eq!(run("{}", "{}", None), vec![]);
    assert_eq!(run_json("{}", "{}", None), "[]");
}

#[test]
fn order_is_upserts_by_name_then_removals_by_name() {
    let actions = run(
        r#"{"e":1,"c":2,"a":3,"same":0}"#,
        r#"{"f":0,"d":0,"c":9,"b":0,"same":0}"#,
        Some(r#"{"d":["x"]}"#),
    );
    assert_eq!(
        kinds_and_names(&actions),
        vec![
            (ActionKind::Create, "a"),
            (ActionKind::Update, "c"),
            (ActionKind::Create, "e"),
            // "b" sorts before "e", but removals come after every upsert.
            (ActionKind::Delete, "b"),
            (ActionKind::Finalize, "d"),
            (ActionKind::Delete, "f"),
        ]
    );
}

#[test]
fn finalizers_only_affect_deletion_candidates() {
    // Still desired, equal spec, pending finalizers: nothing at all.
    assert_eq!(
        run(r#"{"a":1}"#, r#"{"a":1}"#, Some(r#"{"a":["x"]}"#)),
        vec![]
    );
    // Still desired, drifted, pending finalizers: only the UPDATE.
    assert_eq!(
        run(r#"{"a":2}"#, r#"{"a":1}"#, Some(r#"{"a":["x"]}"#)),
        vec![Action::update("a", json("2"))]
    );
    // Desired and not observed, with finalizers: a CREATE.
    assert_eq!(
        run(r#"{"a":2}"#, "{}", Some(r#"{"a":["x"]}"#)),
        vec![Action::create("a", json("2"))]
    );
}

#[test]
fn empty_finalizer_list_means_delete() {
    assert_eq!(
        run("{}", r#"{"c":1}"#, Some(r#"{"c":[]}"#)),
        vec![Action::delete("c")]
    );
}

#[test]
fn no_finalizer_entry_means_delete() {
    assert_eq!(
        run("{}", r#"{"c":1,"d":1}"#, Some(r#"{"d":["x"]}"#)),
        vec![Action::delete("c"), Action::finalize("d")]
    );
    assert_eq!(
        run("{}", r#"{"c":1}"#, Some("{}")),
        vec![Action::delete("c")]
    );
}

#[test]
fn no_finalizers_document_means_delete() {
    assert_eq!(run("{}", r#"{"c":1}"#, None), vec![Action::delete("c")]);
    // `null` and an empty text both parse to "no finalizers".
    assert_eq!(parse_finalizers("null").expect("valid"), None);
    assert_eq!(parse_finalizers(" \n").expect("valid"), None);
}

#[test]
fn finalizer_entries_for_unobserved_names_are_ignored() {
    assert_eq!(
        run("{}", "{}", Some(r#"{"ghost":["x"],"other":[]}"#)),
        vec![]
    );
    assert_eq!(
        run(
            r#"{"ghost":1}"#,
            r#"{"real":1}"#,
            Some(r#"{"ghost":["x"],"zzz":["y"]}"#)
        ),
        vec![Action::create("ghost", json("1")), Action::delete("real")]
    );
}

#[test]
fn object_key_order_is_ignored() {
    assert_eq!(
        run(
            r#"{"a":{"x":1,"y":{"p":true,"q":null},"z":[{"m":1,"n":2}]}}"#,
            r#"{"a":{"z":[{"n":2,"m":1}],"y":{"q":null,"p":true},"x":1}}"#,
            None
        ),
        vec![]
    );
}

#[test]
fn numbers_compare_by_value() {
    for (desired, observed) in [
        ("1", "1.0"),
        ("1", "1e0"),
        ("1.0", "1e0"),
        ("100", "1E2"),
        ("0", "-0"),
        ("-5", "-5.0"),
        ("0.5", "5e-1"),
    ] {
        let d = format!(r#"{{"a":{{"replicas":{desired}}}}}"#);
        let o = format!(r#"{{"a":{{"replicas":{observed}}}}}"#);
        assert_eq!(run(&d, &o, None), vec![], "{desired} vs {observed}");
    }
    assert_eq!(
        run(r#"{"a":1}"#, r#"{"a":1.5}"#, None),
        vec![Action::update("a", json("1"))]
    );
    assert_eq!(
        run(
            r#"{"a":18446744073709551615}"#,
            r#"{"a":18446744073709551614}"#,
            None
        ),
        vec![Action::update("a", json("18446744073709551615"))]
    );
}

#[test]
fn numbers_compare_by_value_however_many_digits_are_written() {
    // Equal decimals spelled differently must parse to the same f64; a best-effort
    // float parser gets some of these one ULP apart and reports a false UPDATE.
    for (desired, observed) in [
        ("9.8599317528e-42", "98599317528000e-55"),
        ("1.927727222984e-190", "19277272229840e-203"),
        ("1.3965881206151e-80", "1.39658812061510e-80"),
        ("-8.651884160948e-287", "-0.8651884160948e-286"),
    ] {
        let d = format!(r#"{{"a":{desired}}}"#);
        let o = format!(r#"{{"a":{observed}}}"#);
        assert_eq!(run(&d, &o, None), vec![], "{desired} vs {observed}");
        // And the printed spec parses back to the value it came from.
        let printed = json(desired).to_compact_string();
        assert_eq!(
            json(&printed),
            json(desired),
            "{desired} printed as {printed}"
        );
        let std: f64 = desired.parse().expect("valid float");
        assert_eq!(printed.parse::<f64>().expect("valid float"), std);
    }
}

#[test]
fn booleans_are_not_numbers() {
    assert_eq!(
        run(r#"{"a":true}"#, r#"{"a":1}"#, None),
        vec![Action::update("a", Json::Bool(true))]
    );
    assert_eq!(
        run(r#"{"a":{"on":false}}"#, r#"{"a":{"on":0}}"#, None),
        vec![Action::update("a", json(r#"{"on":false}"#))]
    );
    // Nor are strings or null.
    assert_eq!(
        kinds_and_names(&run(r#"{"s":"1","n":null}"#, r#"{"s":1,"n":0}"#, None)),
        vec![(ActionKind::Update, "n"), (ActionKind::Update, "s")]
    );
}

#[test]
fn any_json_value_is_a_spec() {
    let desired = r#"{"arr":[1,2],"nul":null,"num":5,"str":"x","yes":true,"new":null}"#;
    let observed = r#"{"arr":[2,1],"nul":null,"num":5.0,"str":"y","yes":true}"#;
    let actions = run(desired, observed, None);
    assert_eq!(
        actions,
        vec![
            Action::update("arr", json("[1,2]")),
            Action::create("new", Json::Null),
            Action::update("str", json(r#""x""#)),
        ]
    );
    assert_eq!(
        serde_json::to_string(&actions).expect("serializes"),
        r#"[["UPDATE","arr",[1,2]],["CREATE","new",null],["UPDATE","str","x"]]"#
    );
}

#[test]
fn names_sort_by_code_point_not_utf16() {
    let rocket = "\u{1F680}";
    let private_use = "\u{E000}";
    // The UTF-16 order really is the other way round, so this test can tell them apart.
    assert!(rocket.encode_utf16().lt(private_use.encode_utf16()));

    let names = format!(r#"{{"{rocket}":1,"{private_use}":1,"z":1,"é":1,"A":1}}"#);
    let expected = vec!["A", "z", "é", private_use, rocket];
    let creates = run(&names, "{}", None);
    assert!(creates.iter().all(|a| a.kind == ActionKind::Create));
    assert_eq!(
        creates.iter().map(|a| &*a.name).collect::<Vec<_>>(),
        expected
    );
    let deletes = run("{}", &names, None);
    assert!(deletes.iter().all(|a| a.kind == ActionKind::Delete));
    assert_eq!(
        deletes.iter().map(|a| &*a.name).collect::<Vec<_>>(),
        expected
    );
}

#[test]
fn resources_built_in_code_keep_the_contract() {
    // Entries given out of order and through the model API, not the parser.
    let desired: Resources = [("b".to_owned(), json("3")), ("a".to_owned(), json("1"))]
        .into_iter()
        .collect();
    let mut observed = Resources::new();
    assert_eq!(observed.insert("c".to_owned(), json("1")), None);
    assert_eq!(observed.insert("b".to_owned(), json("0")), None);
    assert_eq!(observed.insert("b".to_owned(), json("1")), Some(json("0")));
    let finalizers: Finalizers = [("c".to_owned(), vec!["f".to_owned()])]
        .into_iter()
        .collect();
    assert_eq!(
        reconcile(&desired, &observed, Some(&finalizers)),
        vec![
            Action::create("a", json("1")),
            Action::update("b", json("3")),
            Action::finalize("c"),
        ]
    );
    // A repeated name in `from_unique` keeps the last entry.
    let repeated = Resources::from_unique(vec![
        ("x".to_owned(), json("1")),
        ("x".to_owned(), json("2")),
    ]);
    assert_eq!(repeated.len(), 1);
    assert_eq!(repeated.get("x"), Some(&json("2")));
}

// ---------------------------------------------------------------------------
// The plan: summary, reasons and drift.

#[test]
fn plan_summary_text() {
    let p = plan_texts(
        r#"{"a":{"replicas":1},"b":{"replicas":3}}"#,
        r#"{"b":{"replicas":1},"c":{"replicas":1}}"#,
        "null",
    )
    .expect("valid");
    assert_eq!(
        p.summary,
        Summary {
            create: 1,
            update: 1,
            finalize: 0,
            delete: 1
        }
    );
    assert_eq!(
        p.summary_text,
        "1 to create, 1 to update, 0 to finalize, 1 to delete"
    );
    assert_eq!(p.summary.to_string(), p.summary_text);
    assert_eq!(p.summary.total(), 3);
    assert!(!p.summary.is_converged());
    assert_eq!(p.summary.count(ActionKind::Update), 1);
    assert_eq!(p.summary.count(ActionKind::Finalize), 0);

    let converged = plan_texts(r#"{"a":1}"#, r#"{"a":1.0}"#, "").expect("valid");
    assert_eq!(converged.summary_text, "Converged: nothing to do");
    assert!(converged.summary.is_converged());
    assert!(converged.actions.is_empty());
    assert_eq!(converged.to_text(), "Converged: nothing to do\n");
}

#[test]
fn plan_bare_actions_equal_reconcile() {
    let (d, o, f) = (
        res(r#"{"a":1,"b":2}"#),
        res(r#"{"b":3,"c":1,"d":1}"#),
        fin(r#"{"d":["x"]}"#),
    );
    assert_eq!(
        plan(&d, &o, Some(&f)).bare_actions(),
        reconcile(&d, &o, Some(&f))
    );
}

#[test]
fn reasons_for_each_kind() {
    let p = plan(
        &res(r#"{"a":1,"b":{"x":1,"y":2}}"#),
        &res(r#"{"b":{"x":0,"y":0},"c":1,"d":1,"e":1}"#),
        Some(&fin(r#"{"c":["one","two"],"d":[]}"#)),
    );
    let reasons: Vec<&Reason> = p.actions.iter().map(|a| &a.reason).collect();
    assert_eq!(
        reasons,
        vec![
            &Reason::NotObserved,
            &Reason::Drifted { fields: 2 },
            &Reason::FinalizersPending {
                finalizers: vec!["one".to_owned(), "two".to_owned()]
            },
            &Reason::NoFinalizersPending { had_entry: true },
            &Reason::NoFinalizersPending { had_entry: false },
        ]
    );
    let texts: Vec<String> = reasons.iter().map(ToString::to_string).collect();
    assert_eq!(
        texts,
        vec![
            "desired but not observed",
            "observed spec differs from desired in 2 fields",
            "no longer desired, but finalizers are pending: one, two",
            "no longer desired, and its finalizer list is empty",
            "no longer desired, and it has no finalizers",
        ]
    );
    assert_eq!(
        Reason::Drifted { fields: 1 }.to_string(),
        "observed spec differs from desired in 1 field"
    );
    // Drift is listed exactly for UPDATE.
    for explained in &p.actions {
        assert_eq!(
            explained.drift.is_empty(),
            explained.action.kind != ActionKind::Update,
            "{:?}",
            explained.action
        );
    }
}

fn drift_strings(observed: &str, desired: &str) -> Vec<String> {
    diff(&json(observed), &json(desired))
        .iter()
        .map(ToString::to_string)
        .collect()
}

#[test]
fn drift_nested_path() {
    let drift = diff(
        &json(r#"{"template":{"image":"nginx:1.25","port":80}}"#),
        &json(r#"{"template":{"port":80.0,"image":"nginx:1.27"}}"#),
    );
    assert_eq!(
        drift,
        vec![Drift {
            path: reconcile_core::JsonPath::root()
                .key("template")
                .key("image"),
            observed: Some(json(r#""nginx:1.25""#)),
            desired: Some(json(r#""nginx:1.27""#)),
        }]
    );
    assert_eq!(drift[0].path.to_string(), "$.template.image");
    assert_eq!(
        drift[0].to_string(),
        r#"$.template.image: "nginx:1.25" → "nginx:1.27""#
    );
}

#[test]
fn drift_added_and_removed_fields() {
    let drift = diff(
        &json(r#"{"keep":1,"old":true}"#),
        &json(r#"{"keep":1,"new":{"a":1}}"#),
    );
    assert_eq!(drift.len(), 2);
    // Added in desired: observed side is absent.
    assert_eq!(drift[0].path.to_string(), "$.new");
    assert_eq!(drift[0].observed, None);
    assert_eq!(drift[0].desired, Some(json(r#"{"a":1}"#)));
    // Only observed: desired side is absent.
    assert_eq!(drift[1].path.to_string(), "$.old");
    assert_eq!(drift[1].observed, Some(Json::Bool(true)));
    assert_eq!(drift[1].desired, None);
    assert_eq!(
        drift.iter().map(ToString::to_string).collect::<Vec<_>>(),
        vec![r#"$.new: (absent) → {"a":1}"#, "$.old: true → (absent)"]
    );
}

#[test]
fn drift_array_elements() {
    assert_eq!(
        drift_strings(r#"{"ports":[80,443]}"#, r#"{"ports":[80,8443,9000]}"#),
        vec!["$.ports[1]: 443 → 8443", "$.ports[2]: (absent) → 9000"]
    );
    assert_eq!(
        drift_strings("[1,2,3]", "[1]"),
        vec!["$[1]: 2 → (absent)", "$[2]: 3 → (absent)"]
    );
    assert_eq!(
        drift_strings(r#"[{"a":1},{"b":2}]"#, r#"[{"a":1},{"b":3}]"#),
        vec!["$[1].b: 2 → 3"]
    );
}

#[test]
fn drift_type_changes_and_odd_keys() {
    assert_eq!(
        drift_strings(r#"{"x":{"a":1}}"#, r#"{"x":[1]}"#),
        vec![r#"$.x: {"a":1} → [1]"#]
    );
    assert_eq!(drift_strings("1", "true"), vec!["$: 1 → true"]);
    assert_eq!(
        drift_strings(r#"{"my app":1,"9":1}"#, r#"{"my app":2,"9":1}"#),
        vec![r#"$["my app"]: 1 → 2"#]
    );
    // Equal values, however written, have no drift.
    assert!(diff(
        &json(r#"{"a":[1,{"b":1e0}]}"#),
        &json(r#"{"a":[1.0,{"b":1}]}"#)
    )
    .is_empty());
}

#[test]
fn update_drift_lines_in_the_plan_text() {
    let p = plan_texts(
        r#"{"web":{"template":{"image":"nginx:1.27"},"replicas":3}}"#,
        r#"{"web":{"template":{"image":"nginx:1.25"},"replicas":3,"paused":true}}"#,
        "",
    )
    .expect("valid");
    assert_eq!(p.actions.len(), 1);
    assert_eq!(p.actions[0].reason, Reason::Drifted { fields: 2 });
    assert_eq!(
        p.to_text(),
        concat!(
            "~ UPDATE web {\"template\":{\"image\":\"nginx:1.27\"},\"replicas\":3}",
            "  # observed spec differs from desired in 2 fields\n",
            "    $.template.image: \"nginx:1.25\" → \"nginx:1.27\"\n",
            "    $.paused: true → (absent)\n",
            "0 to create, 1 to update, 0 to finalize, 0 to delete\n",
        )
    );
}

#[test]
fn plan_text_symbols() {
    let p = plan(
        &res(r#"{"a":1,"b":2}"#),
        &res(r#"{"b":1,"c":1,"d":1}"#),
        Some(&fin(r#"{"c":["x"]}"#)),
    );
    let text = p.to_text();
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with("    ")).collect();
    assert_eq!(
        lines,
        vec![
            "+ CREATE a 1  # desired but not observed",
            "~ UPDATE b 2  # observed spec differs from desired in 1 field",
            "⊘ FINALIZE c  # no longer desired, but finalizers are pending: x",
            "- DELETE d  # no longer desired, and it has no finalizers",
            "1 to create, 1 to update, 1 to finalize, 1 to delete",
        ]
    );
}

#[test]
fn plan_serializes_for_the_js_api() {
    let p = plan(&res(r#"{"a":{"n":2}}"#), &res(r#"{"a":{"n":1}}"#), None);
    let value = serde_json::to_value(&p).expect("plan serializes");
    assert_eq!(
        value["actions"][0]["action"],
        serde_json::json!(["UPDATE", "a", {"n": 2}])
    );
    assert_eq!(
        value["actions"][0]["reason"],
        serde_json::json!({"rule": "drifted", "fields": 1})
    );
    assert_eq!(
        value["actions"][0]["drift"],
        serde_json::json!([{"path": "$.n", "observed": 1, "desired": 2}])
    );
    assert_eq!(
        value["summaryText"],
        "0 to create, 1 to update, 0 to finalize, 0 to delete"
    );
}

#[test]
fn plan_text_keeps_one_line_per_action_for_odd_names() {
    let p = plan(
        &res(r#"{"a\nb":1,"":2,"my app":3}"#),
        &res(r#"{"x\ty":1}"#),
        Some(&fin(r#"{"x\ty":["cloud/\nlb","ok"]}"#)),
    );
    assert_eq!(
        p.to_text(),
        concat!(
            "+ CREATE \"\" 2  # desired but not observed\n",
            "+ CREATE \"a\\nb\" 1  # desired but not observed\n",
            "+ CREATE my app 3  # desired but not observed\n",
            "⊘ FINALIZE \"x\\ty\"  # no longer desired, but finalizers are pending: \"cloud/\\nlb\", ok\n",
            "3 to create, 0 to update, 1 to finalize, 0 to delete\n",
        )
    );
    // The actions themselves keep the real names.
    assert_eq!(&*p.actions[1].action.name, "a\nb");
}

#[test]
fn nesting_up_to_the_limit_parses_and_deeper_is_an_error() {
    // Runs on a 1 MiB stack, the wasm32 default, to catch deep recursion early.
    let worker = std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(|| {
            let nested = |levels: usize| {
                format!(
                    r#"{{"desired":{{"a":{}1{}}},"observed":{{"a":{}1.0{}}}}}"#,
                    "[".repeat(levels),
                    "]".repeat(levels),
                    "[".repeat(levels),
                    "]".repeat(levels)
                )
            };
            // The scenario and desired objects are two levels; 125 more reach MAX_DEPTH.
            let limit = reconcile_core::parse::MAX_DEPTH;
            let ok = reconcile_core::parse_scenario(&nested(limit - 2)).expect("at the limit");
            let actions = reconcile(&ok.desired, &ok.observed, None);
            let too_deep =
                reconcile_core::parse_scenario(&nested(limit - 1)).expect_err("too deep");
            (actions, too_deep)
        })
        .expect("thread starts");
    let (actions, too_deep) = worker.join().expect("no stack overflow");
    assert_eq!(actions, vec![]);
    assert_eq!(too_deep.kind, reconcile_core::ErrorKind::TooDeep);
    assert!(too_deep.path.to_string().starts_with("$.desired.a[0][0]"));
}

#[test]
fn check_texts_reports_every_documents_error() {
    let errors = check_texts("{\"a\": }", "[]", "{\"svc\": \"x\"}").expect_err("all three bad");
    let documents: Vec<Document> = errors.iter().map(|e| e.document).collect();
    assert_eq!(
        documents,
        vec![Document::Desired, Document::Observed, Document::Finalizers]
    );
    assert_eq!(
        errors[0].to_string().split(':').next(),
        Some("Desired state")
    );
    assert_eq!(errors[1].path.to_string(), "$");
    assert_eq!(errors[2].path.to_string(), "$.svc");

    let errors = check_texts("{}", "{\n  \"b\": tru\n}", "").expect_err("observed bad");
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].document, Document::Observed);
    assert_eq!((errors[0].line, errors[0].column), (3, 1));

    let p = check_texts(r#"{"a":1}"#, r#"{"b":1}"#, r#"{"b":["x"]}"#).expect("all valid");
    assert_eq!(
        p.bare_actions(),
        vec![Action::create("a", json("1")), Action::finalize("b")]
    );
}
