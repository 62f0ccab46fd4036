//! The JS API as JavaScript sees it, in headless Chromium:
//! `cargo test --target wasm32-unknown-unknown -p reconcile-wasm` (see webdriver.json).
#![cfg(target_arch = "wasm32")]

use js_sys::JSON;
use reconcile_wasm::{plan, reconcile, simulate, simulate_verdict, Check};
use wasm_bindgen::{JsCast, JsError, JsValue};
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

/// A JS value from JSON text, as a course page would write it as an object literal.
fn js(json: &str) -> JsValue {
    JSON::parse(json).unwrap_or_else(|_| panic!("test JSON is valid: {json}"))
}

/// A result as compact JSON text, to compare whole values at once.
fn json(result: Result<JsValue, JsError>) -> String {
    let value = result.unwrap_or_else(|error| panic!("threw: {}", message(error)));
    JSON::stringify(&value)
        .ok()
        .and_then(|text| JsValue::from(text).as_string())
        .unwrap_or_default()
}

/// The message of the `Error` a call threw.
fn thrown(result: Result<JsValue, JsError>) -> String {
    match result {
        Ok(value) => panic!("expected an error, got {}", json(Ok(value))),
        Err(error) => message(error),
    }
}

fn message(error: JsError) -> String {
    let value = JsValue::from(error);
    let error = value
        .dyn_ref::<js_sys::Error>()
        .expect("thrown value is an Error");
    String::from(error.message())
}

fn get(value: &JsValue, path: &[&str]) -> JsValue {
    path.iter().fold(value.clone(), |value, key| {
        js_sys::Reflect::get(&value, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
    })
}

fn get_str(value: &JsValue, path: &[&str]) -> String {
    get(value, path).as_string().unwrap_or_default()
}

// --- reconcile ---

#[wasm_bindgen_test]
fn seed_example_create_update_delete() {
    let actions = reconcile(
        js(r#"{"a":{"replicas":1},"b":{"replicas":3}}"#),
        js(r#"{"b":{"replicas":1},"c":{"replicas":1}}"#),
        None,
    );
    assert_eq!(
        json(actions),
        r#"[["CREATE","a",{"replicas":1}],["UPDATE","b",{"replicas":3}],["DELETE","c",null]]"#
    );
}

#[wasm_bindgen_test]
fn seed_example_finalize() {
    let actions = reconcile(
        js("{}"),
        js(r#"{"svc":{"type":"LoadBalancer"}}"#),
        Some(js(r#"{"svc":["cloud/lb-cleanup"]}"#)),
    );
    assert_eq!(json(actions), r#"[["FINALIZE","svc",null]]"#);
}

#[wasm_bindgen_test]
fn json_strings_work_like_objects() {
    let from_text = reconcile(
        JsValue::from_str(r#"{"a":{"replicas":1},"b":{"replicas":3}}"#),
        JsValue::from_str(r#"{"b":{"replicas":1},"c":{"replicas":1}}"#),
        Some(JsValue::from_str(r#"{"c":["x"]}"#)),
    );
    assert_eq!(
        json(from_text),
        r#"[["CREATE","a",{"replicas":1}],["UPDATE","b",{"replicas":3}],["FINALIZE","c",null]]"#
    );
}

#[wasm_bindgen_test]
fn names_sort_by_code_point_not_utf16() {
    // JavaScript's default sort puts U+1F680 (a surrogate pair) before U+E000.
    let actions = reconcile(
        js(r#"{"\ud83d\ude80":1,"\ue000":2,"b":3,"B":4}"#),
        js(r#"{"\ud83d\ude81":1,"\ue001":2}"#),
        None,
    );
    let value = actions.unwrap_or_else(|error| panic!("threw: {}", message(error)));
    let names: Vec<String> = js_sys::Array::from(&value)
        .iter()
        .map(|action| {
            js_sys::Array::from(&action)
                .get(1)
                .as_string()
                .unwrap_or_default()
        })
        .collect();
    assert_eq!(
        names,
        ["B", "b", "\u{E000}", "\u{1F680}", "\u{E001}", "\u{1F681}"]
    );
}

#[wasm_bindgen_test]
fn numbers_compare_by_value() {
    let same = reconcile(
        JsValue::from_str(r#"{"a":{"replicas":1},"b":[1.0],"c":{"x":100}}"#),
        JsValue::from_str(r#"{"a":{"replicas":1.0},"b":[1e0],"c":{"x":1e2}}"#),
        None,
    );
    assert_eq!(json(same), "[]");
    // A boolean is not a number.
    let differ = reconcile(js(r#"{"a":{"on":true}}"#), js(r#"{"a":{"on":1}}"#), None);
    assert_eq!(json(differ), r#"[["UPDATE","a",{"on":true}]]"#);
}

#[wasm_bindgen_test]
fn finalizers_undefined_null_and_empty_mean_none() {
    let expected = r#"[["DELETE","c",null]]"#;
    let observed = r#"{"c":{}}"#;
    assert_eq!(json(reconcile(js("{}"), js(observed), None)), expected);
    assert_eq!(
        json(reconcile(js("{}"), js(observed), Some(JsValue::NULL))),
        expected
    );
    assert_eq!(
        json(reconcile(js("{}"), js(observed), Some(JsValue::UNDEFINED))),
        expected
    );
    assert_eq!(
        json(reconcile(
            js("{}"),
            js(observed),
            Some(JsValue::from_str(""))
        )),
        expected
    );
    assert_eq!(
        json(reconcile(js("{}"), js(observed), Some(js(r#"{"c":[]}"#)))),
        expected
    );
}

#[wasm_bindgen_test]
fn results_are_plain_objects_and_specs_of_any_type() {
    let actions = reconcile(
        js(r#"{"a":{"nested":{"k":[1,"two",null]}},"b":"text","c":null}"#),
        js("{}"),
        None,
    )
    .unwrap_or_else(|error| panic!("threw: {}", message(error)));
    let spec = js_sys::Array::from(&js_sys::Array::from(&actions).get(0)).get(2);
    assert!(
        !spec.is_instance_of::<js_sys::Map>(),
        "a plain object, not a Map"
    );
    assert_eq!(
        get(&spec, &["nested", "k"])
            .dyn_into::<js_sys::Array>()
            .map(|a| a.length())
            .ok(),
        Some(3)
    );
    assert_eq!(
        json(Ok(actions)),
        r#"[["CREATE","a",{"nested":{"k":[1,"two",null]}}],["CREATE","b","text"],["CREATE","c",null]]"#
    );
}

#[wasm_bindgen_test]
fn integers_beyond_two_to_the_53_come_back_as_numbers() {
    let actions = reconcile(
        JsValue::from_str(r#"{"a":{"n":18446744073709551615}}"#),
        js("{}"),
        None,
    )
    .unwrap_or_else(|error| panic!("threw: {}", message(error)));
    let n = get(
        &js_sys::Array::from(&js_sys::Array::from(&actions).get(0)).get(2),
        &["n"],
    );
    assert_eq!(n.as_f64(), Some(18_446_744_073_709_551_615_u64 as f64));
}

// --- errors ---

#[wasm_bindgen_test]
fn bad_json_text_throws_core_message() {
    assert_eq!(
        thrown(reconcile(JsValue::from_str(r#"{"a":}"#), js("{}"), None)),
        "Desired state: line 1, column 6 at $.a: expected a JSON value (object, array, string, number, true, false or null)"
    );
    assert_eq!(
        thrown(reconcile(js("{}"), JsValue::from_str(r#"{"b":[1,]}"#), None)),
        "Observed state: line 1, column 9 at $.b[1]: trailing comma; expected another member or value after `,`"
    );
    assert_eq!(
        thrown(reconcile(
            js("{}"),
            js("{}"),
            Some(JsValue::from_str(r#"{"a":["x","x"],"a":[]}"#))
        )),
        r#"Finalizers: line 1, column 18 at $.a: duplicate resource name "a"; each name may appear only once"#
    );
}

#[wasm_bindgen_test]
fn wrong_shapes_throw_core_message() {
    let error = thrown(reconcile(js("[1,2]"), js("{}"), None));
    assert!(
        error.starts_with("Desired state: line 1, column 1 at $: expected an object"),
        "{error}"
    );
    let error = thrown(reconcile(js("{}"), js("{}"), Some(js(r#"{"a":"x"}"#))));
    assert!(error.starts_with("Finalizers: line 1"), "{error}");
    assert!(error.contains("at $.a: expected"), "{error}");
    let error = thrown(reconcile(JsValue::UNDEFINED, js("{}"), None));
    assert!(
        error.starts_with("Desired state: line 1, column 1 at $: the document is empty"),
        "{error}"
    );
}

#[wasm_bindgen_test]
fn errors_match_plan_texts() {
    // The same text gives the same message through the API and through core's UI path.
    let text = "{\n  \"web\": {\"replicas\": 01}\n}";
    let expected = reconcile_core::plan_texts(text, "{}", "")
        .err()
        .map(|e| e.to_string());
    assert_eq!(
        Some(thrown(reconcile(JsValue::from_str(text), js("{}"), None))),
        expected
    );
    assert_eq!(
        Some(thrown(plan(JsValue::from_str(text), js("{}"), None))),
        expected
    );
}

#[wasm_bindgen_test]
fn values_json_cannot_hold_throw_a_clear_error() {
    let cyclic = js_sys::Object::new();
    js_sys::Reflect::set(&cyclic, &JsValue::from_str("self"), &cyclic).ok();
    let error = thrown(reconcile(cyclic.into(), js("{}"), None));
    assert!(
        error.starts_with("Desired state: cannot be converted to JSON: "),
        "{error}"
    );
}

#[wasm_bindgen_test]
fn a_thrown_value_that_is_not_an_error_is_told_as_json() {
    let throws = js_sys::Function::new_no_args("throw {code: 5}");
    let value = js_sys::Object::new();
    js_sys::Reflect::set(&value, &JsValue::from_str("toJSON"), &throws).ok();
    assert_eq!(
        thrown(reconcile(value.into(), js("{}"), None)),
        r#"Desired state: cannot be converted to JSON: {"code":5}"#
    );
}

// --- plan ---

#[wasm_bindgen_test]
fn plan_explains_the_seed_example() {
    let plan = plan(
        js(r#"{"a":{"replicas":1},"b":{"replicas":3}}"#),
        js(r#"{"b":{"replicas":1},"c":{"replicas":1}}"#),
        Some(js(r#"{"c":[]}"#)),
    );
    assert_eq!(
        json(plan),
        concat!(
            r#"{"actions":["#,
            r#"{"action":["CREATE","a",{"replicas":1}],"reason":{"rule":"not-observed"},"drift":[]},"#,
            r#"{"action":["UPDATE","b",{"replicas":3}],"reason":{"rule":"drifted","fields":1},"#,
            r#""drift":[{"path":"$.replicas","observed":1,"desired":3}]},"#,
            r#"{"action":["DELETE","c",null],"reason":{"rule":"no-finalizers-pending","hadEntry":true},"drift":[]}"#,
            r#"],"summary":{"create":1,"update":1,"finalize":0,"delete":1},"#,
            r#""summaryText":"1 to create, 1 to update, 0 to finalize, 1 to delete"}"#
        )
    );
}

#[wasm_bindgen_test]
fn plan_summary_text_when_converged_and_finalizing() {
    let converged = plan(js(r#"{"a":1}"#), js(r#"{"a":1.0}"#), None)
        .unwrap_or_else(|error| panic!("threw: {}", message(error)));
    assert_eq!(
        get_str(&converged, &["summaryText"]),
        "Converged: nothing to do"
    );
    let finalizing = plan(
        js("{}"),
        js(r#"{"svc":{"type":"LoadBalancer"}}"#),
        Some(js(r#"{"svc":["cloud/lb-cleanup"]}"#)),
    )
    .unwrap_or_else(|error| panic!("threw: {}", message(error)));
    assert_eq!(
        get_str(&finalizing, &["summaryText"]),
        "0 to create, 0 to update, 1 to finalize, 0 to delete"
    );
}

// --- simulate ---

const SMALL: &str = r#"{"desired":{"a":{"replicas":2}},"observed":{"a":{"replicas":1},"old":{}}}"#;

#[wasm_bindgen_test]
fn simulate_converges_on_a_small_scenario() {
    let timeline =
        simulate(js(SMALL), None).unwrap_or_else(|error| panic!("threw: {}", message(error)));
    assert_eq!(get_str(&timeline, &["verdict", "verdict"]), "converged");
    let text = get_str(&timeline, &["verdictText"]);
    assert!(text.starts_with("Converged after "), "{text}");
    let first = js_sys::Array::from(&get(&timeline, &["passes"])).get(0);
    assert_eq!(
        json(Ok(get(&first, &["actions"]))),
        r#"[{"action":["UPDATE","a",{"replicas":2}],"result":"applied"},{"action":["DELETE","old",null],"result":"applied"}]"#
    );
    assert_eq!(get_str(&first, &["trigger", "kind"]), "custom-resource");
    assert_eq!(
        json(Ok(get(&first, &["worldAfter", "observed"]))),
        r#"{"a":{"replicas":2}}"#
    );
    assert_eq!(get(&first, &["outOfSync"]).as_f64(), Some(0.0));
}

#[wasm_bindgen_test]
fn simulate_marks_the_pass_after_a_restart() {
    let options = js(r#"{"crash":{"atPass":1,"afterActions":0}}"#);
    let timeline = simulate(js(SMALL), Some(options))
        .unwrap_or_else(|error| panic!("threw: {}", message(error)));
    let passes = js_sys::Array::from(&get(&timeline, &["passes"]));
    assert_eq!(
        json(Ok(get(&passes.get(0), &["trigger"]))),
        r#"{"kind":"custom-resource","change":"added","afterRestart":false}"#
    );
    assert_eq!(
        json(Ok(get(&passes.get(1), &["trigger"]))),
        r#"{"kind":"custom-resource","change":"added","afterRestart":true}"#
    );
}

#[wasm_bindgen_test]
fn simulate_is_deterministic_and_takes_json_text() {
    let options = r#"{"seed":7,"failureRate":0.3}"#;
    let a = json(simulate(js(SMALL), Some(js(options))));
    let b = json(simulate(
        JsValue::from_str(SMALL),
        Some(JsValue::from_str(options)),
    ));
    assert_eq!(a, b);
}

#[wasm_bindgen_test]
fn simulate_reports_a_stuck_finalizer() {
    let scenario = js(r#"{"desired":{},"observed":{"ns":{}},"finalizers":{"ns":["kubernetes"]}}"#);
    let options = js(r#"{"stuckFinalizers":[{"object":"ns","finalizer":"kubernetes"}]}"#);
    let timeline = simulate(scenario, Some(options))
        .unwrap_or_else(|error| panic!("threw: {}", message(error)));
    assert_eq!(
        json(Ok(get(&timeline, &["verdict"]))),
        r#"{"verdict":"not-converging","reason":{"kind":"stuck-finalizer","object":"ns","finalizer":"kubernetes"}}"#
    );
    assert_eq!(
        get_str(&timeline, &["verdictText"]),
        "Not converging: ns is stuck terminating; finalizer kubernetes is never removed"
    );
}

#[wasm_bindgen_test]
fn simulate_without_the_stuck_finalizer_converges() {
    let scenario = js(r#"{"desired":{},"observed":{"ns":{}},"finalizers":{"ns":["kubernetes"]}}"#);
    let timeline = simulate(scenario, Some(JsValue::UNDEFINED))
        .unwrap_or_else(|error| panic!("threw: {}", message(error)));
    assert_eq!(get_str(&timeline, &["verdict", "verdict"]), "converged");
}

#[wasm_bindgen_test]
fn simulate_pass_limit_option() {
    let options = js(
        r#"{"maxPasses":2,"otherWriters":[{"name":"hpa","object":"a","path":["replicas"],"value":5,"reactionMs":1}]}"#,
    );
    let timeline = simulate(js(SMALL), Some(options))
        .unwrap_or_else(|error| panic!("threw: {}", message(error)));
    assert_eq!(
        get_str(&timeline, &["verdict", "verdict"]),
        "not-converging"
    );
    assert!(js_sys::Array::from(&get(&timeline, &["passes"])).length() <= 2);
}

#[wasm_bindgen_test]
fn simulate_errors() {
    assert_eq!(
        thrown(simulate(
            JsValue::from_str(r#"{"desired":{},"observed":[]}"#),
            None
        )),
        r#"Scenario: line 1, column 27 at $.observed: expected an object of {"name": spec}, found an array"#
    );
    let error = thrown(simulate(js(r#"{"desired":{}}"#), None));
    assert!(error.starts_with("Scenario: "), "{error}");
    assert!(error.contains("observed"), "{error}");
}

#[wasm_bindgen_test]
fn simulate_option_errors_name_the_option() {
    assert_eq!(
        thrown(simulate(js(SMALL), Some(js(r#"{"maxPasses":"ten"}"#)))),
        r#"Simulation options at $.maxPasses: invalid type: string "ten", expected usize"#
    );
    let error = thrown(simulate(js(SMALL), Some(js(r#"{"stuckFinalizer":[]}"#))));
    assert!(
        error.starts_with(r#"Simulation options at $: unknown option "stuckFinalizer"; expected one of seed, maxPasses,"#),
        "{error}"
    );
    let error = thrown(simulate(js(SMALL), Some(js("[1]"))));
    assert_eq!(
        error,
        "Simulation options at $: expected an object of options"
    );
    let error = thrown(simulate(js(SMALL), Some(JsValue::from_str("{seed:1}"))));
    assert_eq!(
        error,
        "Simulation options at $: expected a member name in double quotes (line 1, column 2)"
    );
    let error = thrown(simulate(
        js(SMALL),
        Some(js(r#"{"stuckFinalizers":[{"object":"ns"}]}"#)),
    ));
    assert_eq!(
        error,
        "Simulation options at $.stuckFinalizers: missing field `finalizer`"
    );
    let error = thrown(simulate(js(SMALL), Some(js(r#"{"crash":{"atPass":1}}"#))));
    assert!(
        error.starts_with("Simulation options at $.crash: missing field `afterActions`"),
        "{error}"
    );
}

// --- simulateVerdict ---

#[wasm_bindgen_test]
fn simulate_verdict_is_the_timelines_end_without_passes() {
    let options = r#"{"seed":7,"failureRate":0.3}"#;
    let timeline = simulate(js(SMALL), Some(js(options)))
        .unwrap_or_else(|error| panic!("threw: {}", message(error)));
    let verdict = simulate_verdict(JsValue::from_str(SMALL), Some(JsValue::from_str(options)))
        .unwrap_or_else(|error| panic!("threw: {}", message(error)));
    let passes = js_sys::Array::from(&get(&timeline, &["passes"])).length();
    assert_eq!(get(&verdict, &["passes"]).as_f64(), Some(f64::from(passes)));
    assert_eq!(
        json(Ok(get(&verdict, &["verdict"]))),
        json(Ok(get(&timeline, &["verdict"])))
    );
    assert_eq!(
        get_str(&verdict, &["verdictText"]),
        get_str(&timeline, &["verdictText"])
    );
    let keys = js_sys::Object::keys(&verdict.unchecked_into::<js_sys::Object>());
    assert_eq!(
        json(Ok(keys.into())),
        r#"["passes","verdict","verdictText"]"#
    );
}

#[wasm_bindgen_test]
fn simulate_verdict_reports_a_stuck_finalizer_and_errors() {
    let scenario = js(r#"{"desired":{},"observed":{"ns":{}},"finalizers":{"ns":["kubernetes"]}}"#);
    let options = js(r#"{"stuckFinalizers":[{"object":"ns","finalizer":"kubernetes"}]}"#);
    let verdict = simulate_verdict(scenario, Some(options))
        .unwrap_or_else(|error| panic!("threw: {}", message(error)));
    // Pass 1 sets the deletion mark; its watch event runs pass 2, which finds nothing to write.
    assert_eq!(
        json(Ok(verdict)),
        r#"{"passes":2,"verdict":{"verdict":"not-converging","reason":{"kind":"stuck-finalizer","object":"ns","finalizer":"kubernetes"}},"verdictText":"Not converging: ns is stuck terminating; finalizer kubernetes is never removed"}"#
    );
    assert_eq!(
        thrown(simulate_verdict(
            js(SMALL),
            Some(js(r#"{"maxPasses":"ten"}"#))
        )),
        r#"Simulation options at $.maxPasses: invalid type: string "ten", expected usize"#
    );
    let error = thrown(simulate_verdict(js(r#"{"desired":{}}"#), None));
    assert!(error.starts_with("Scenario: "), "{error}");
}

// --- field names ---

#[wasm_bindgen_test]
fn results_and_backoff_options_are_camel_case_and_old_backoff_names_still_read() {
    let failing = |backoff: &str| {
        json(simulate(
            js(SMALL),
            Some(js(&format!(
                r#"{{"failureRate":1,"maxPasses":2,"backoff":{backoff}}}"#
            ))),
        ))
    };
    let fixed = failing(r#"{"policy":"fixed-delay","delayMs":100}"#);
    assert_eq!(
        failing(r#"{"policy":"fixed-delay","delay_ms":100}"#),
        fixed,
        "the old snake_case name reads the same"
    );
    assert!(
        fixed.contains(r#""result":"failed","requeuedAt":"#),
        "{fixed}"
    );
    let client_go =
        failing(r#"{"policy":"client-go","baseMs":7,"maxMs":900,"qps":10,"burst":100}"#);
    assert_eq!(
        failing(r#"{"policy":"client-go","base_ms":7,"max_ms":900,"qps":10,"burst":100}"#),
        client_go
    );
    assert_ne!(client_go, fixed);

    // No watch on owned objects and no resync: the delete is never acted on.
    let lost = json(simulate(
        js(r#"{"desired":{"a":1},"observed":{}}"#),
        Some(js(
            r#"{"watchOwned":false,"script":[{"afterPass":1,"event":{"kind":"delete","name":"a"}}]}"#,
        )),
    ));
    assert!(
        lost.contains(r#""afterPass":1,"kind":"external-event""#),
        "{lost}"
    );
    assert!(
        lost.contains(r#""reason":{"kind":"no-trigger","outOfSync":1}"#),
        "{lost}"
    );
    let fighting = json(simulate_verdict(
        js(r#"{"desired":{"web":{"replicas":3}},"observed":{"web":{"replicas":3}}}"#),
        Some(js(
            r#"{"otherWriters":[{"name":"hpa","object":"web","path":["replicas"],"value":5,"reactionMs":20}]}"#,
        )),
    ));
    assert!(fighting.contains(r#""otherWriter":"hpa""#), "{fighting}");
    for text in [fixed, client_go, lost, fighting] {
        assert!(
            !text.contains("_at\"")
                && !text.contains("_pass\"")
                && !text.contains("_writer\"")
                && !text.contains("_sync\""),
            "{text}"
        );
    }
}

/// Runs a check, answering every case with `answer` (the case's arguments
/// as a JS object in, the returned list as JSON text out).
fn run_check(language: &str, answer: impl Fn(&JsValue) -> String) -> JsValue {
    let mut check =
        Check::new(language, 7, None, None).unwrap_or_else(|e| panic!("{}", message(e)));
    while let Some(case) = check.case() {
        check.answer(&answer(&js(&case)));
    }
    check.outcome().unwrap_or_else(|e| panic!("{}", message(e)))
}

#[wasm_bindgen_test]
fn check_passes_the_contracts_reconcile_and_shrinks_a_wrong_one() {
    let right = run_check("javascript", |case| {
        let finalizers = get(case, &["finalizers"]);
        let finalizers = (!finalizers.is_undefined()).then_some(finalizers);
        json(reconcile(
            get(case, &["desired"]),
            get(case, &["observed"]),
            finalizers,
        ))
    });
    assert_eq!(get(&right, &["passed"]).as_bool(), Some(true));
    assert_eq!(get(&right, &["total"]).as_f64(), Some(500.0));
    assert!(get(&right, &["counterexample"]).is_null());

    // Returning nothing: the smallest case that needs an action is one name.
    let lazy = run_check("python", |_| "[]".to_owned());
    assert_eq!(get(&lazy, &["passed"]).as_bool(), Some(false));
    let found = get(&lazy, &["counterexample"]);
    assert!(
        get_str(&found, &["rule"]).contains("is missing"),
        "{}",
        get_str(&found, &["rule"])
    );
    assert_eq!(json(Ok(get(&found, &["expectedMarks"]))), r#"["missing"]"#);
    assert_eq!(json(Ok(get(&found, &["actual"]))), "[]");

    // Not an action list: the core's message, located.
    let malformed = run_check("python", |_| r#"[["REMOVE","a",null]]"#.to_owned());
    let error = get_str(&malformed, &["counterexample", "error"]);
    assert!(
        error.starts_with("Returned actions: line 1, column 10 at $[0][0]"),
        "{error}"
    );
}

#[wasm_bindgen_test]
fn check_refuses_an_unknown_language() {
    let error = Check::new("ruby", 1, None, None)
        .map(|_| ())
        .expect_err("refused");
    assert_eq!(
        message(error),
        r#"unknown language "ruby"; expected "python" or "javascript""#
    );
}
