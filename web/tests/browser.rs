//! Runs in headless Chromium through wasm-bindgen-test: the page's pure parts,
//! compiled to wasm exactly as they ship.

use reconcile_core::Document;
use reconcile_web::highlight::{tokenize_line, TokenKind};
use reconcile_web::state::{Action, Playground};
use std::rc::Rc;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use yew::Reducible;

wasm_bindgen_test_configure!(run_in_browser);

fn kinds(line: &str) -> Vec<(TokenKind, &str)> {
    tokenize_line(line)
        .into_iter()
        .map(|t| (t.kind, t.text))
        .collect()
}

#[wasm_bindgen_test]
fn tokenizer_tells_keys_from_values() {
    assert_eq!(
        kinds(r#"  "replicas": 3, "on": true"#),
        vec![
            (TokenKind::Whitespace, "  "),
            (TokenKind::Key, r#""replicas""#),
            (TokenKind::Punctuation, ":"),
            (TokenKind::Whitespace, " "),
            (TokenKind::Number, "3"),
            (TokenKind::Punctuation, ","),
            (TokenKind::Whitespace, " "),
            (TokenKind::Key, r#""on""#),
            (TokenKind::Punctuation, ":"),
            (TokenKind::Whitespace, " "),
            (TokenKind::Literal, "true"),
        ]
    );
}

#[wasm_bindgen_test]
fn tokenizer_round_trips_any_line_without_panicking() {
    for line in [
        "",
        r#""unterminated"#,
        "\"escape at end\\",
        "\"é\\é\" : ",
        "// comment NaN 'x' 🚀",
        "{\"a\\\"b\": [1e-3, -0, null]}",
    ] {
        let joined: String = tokenize_line(line).iter().map(|t| t.text).collect();
        assert_eq!(joined, line);
    }
    assert_eq!(kinds("nope")[0].0, TokenKind::Other);
}

fn reduce(state: Rc<Playground>, action: Action) -> Rc<Playground> {
    state.reduce(action)
}

#[wasm_bindgen_test]
fn edits_wait_for_check_and_bad_input_keeps_the_last_plan() {
    let state = Rc::new(Playground::default());
    let first_plan = state.plan.clone().expect("default preset plans");
    assert_eq!(first_plan.actions.len(), 3);

    let typed = "{\"b\": [1,".to_owned();
    let state = reduce(
        state,
        Action::Edit {
            document: Document::Observed,
            text: typed.clone(),
        },
    );
    assert_eq!(state.texts.observed, typed, "text is stored as typed");
    assert!(state.errors.is_empty(), "not checked until the pause");

    let state = reduce(state, Action::Check);
    let error = state
        .error_of(Document::Observed)
        .expect("observed has an error");
    assert_eq!(error.line, 1);
    assert!(state.is_stale());
    assert_eq!(
        state.plan.as_ref(),
        Some(&first_plan),
        "last valid plan kept"
    );
    assert_eq!(state.texts.observed, typed, "text never replaced");

    let state = reduce(state, Action::Format(Document::Observed));
    assert_eq!(
        state.texts.observed, typed,
        "format of bad JSON keeps the text"
    );

    let state = reduce(
        state,
        Action::Edit {
            document: Document::Observed,
            text: "{}".into(),
        },
    );
    let state = reduce(state, Action::Check);
    assert!(!state.is_stale());
    let plan = state.plan.as_ref().expect("plan");
    assert_eq!(
        plan.summary_text,
        "2 to create, 0 to update, 0 to finalize, 0 to delete"
    );
}

#[wasm_bindgen_test]
fn presets_load_and_unknown_ids_change_nothing() {
    let state = Rc::new(Playground::default());
    let state = reduce(state, Action::LoadPreset("load-balancer-finalizer"));
    assert_eq!(state.preset_id, Some("load-balancer-finalizer"));
    let plan = state.plan.as_ref().expect("plan");
    assert_eq!(
        plan.summary_text,
        "0 to create, 0 to update, 1 to finalize, 0 to delete"
    );
    let same = reduce(Rc::clone(&state), Action::LoadPreset("no-such-preset"));
    assert!(Rc::ptr_eq(&same, &state));
}

#[wasm_bindgen_test]
fn lesson_progress_round_trips_and_ignores_garbage() {
    use reconcile_web::hooks::{parse_progress, render_progress};
    let progress = parse_progress("four-actions=2,drift=0,broken,x=y");
    assert_eq!(progress.len(), 2);
    assert_eq!(progress.get("four-actions"), Some(&2));
    assert_eq!(parse_progress(&render_progress(&progress)), progress);
}

#[wasm_bindgen_test]
fn only_debug_panic_arms_the_deliberate_panic() {
    use reconcile_web::embed::EmbedOptions;
    let pairs = |value: &str| [("debug".to_owned(), value.to_owned())];
    assert!(EmbedOptions::from_query(&pairs("panic")).panic_on_edit);
    assert!(!EmbedOptions::from_query(&pairs("")).panic_on_edit);
    assert!(!EmbedOptions::from_query(&pairs("1")).panic_on_edit);
    assert!(!EmbedOptions::from_query(&[]).panic_on_edit);
}
