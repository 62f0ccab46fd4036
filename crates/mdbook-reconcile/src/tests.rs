//! The rewriting of whole chapters, and its errors as an author reads them.

use super::*;

const CHAPTER: Chapter<'static> = Chapter {
    file: "src/chapter.md",
    depth: 0,
};

fn rewritten(markdown: &str) -> String {
    rewrite(markdown, &CHAPTER, "https://play.example/").expect("valid fences")
}

fn error(markdown: &str) -> String {
    rewrite(markdown, &CHAPTER, "https://play.example/")
        .expect_err("a bad fence")
        .to_string()
}

#[test]
fn a_preset_fence_becomes_the_element_after_the_script_once() {
    let text = "# A\n\n```reconcile preset=stuck-namespace panes=editors,plan readonly\n```\n\nText.\n\n```reconcile lesson=four-actions step=2\n```\n";
    let out = rewritten(text);
    assert_eq!(
        out,
        "# A\n\n\n<script type=\"module\" src=\"https://play.example/pkg/reconcile-playground.js\"></script>\n\n\
         \n<reconcile-playground preset=\"stuck-namespace\" panes=\"editors,plan\" readonly>\n</reconcile-playground>\n\n\
         \nText.\n\n\
         \n<reconcile-playground lesson=\"four-actions\" step=\"2\">\n</reconcile-playground>\n\n"
    );
}

#[test]
fn a_scenario_fence_becomes_a_state_that_opens_on_its_documents() {
    let text = "```reconcile panes=plan\ndesired:\n  web: {replicas: 2}\nobserved: {}\n```\n";
    let out = rewritten(text);
    let state = out
        .split("state=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("a state attribute");
    let opened = reconcile_content::share::decode(state)
        .expect("opens")
        .state;
    assert_eq!(opened.desired, "web:\n  replicas: 2\n");
    assert!(out.contains("<reconcile-playground panes=\"plan\" state=\"#v2/"));
}

#[test]
fn other_fences_and_text_are_kept_byte_for_byte() {
    let text =
        "Intro\r\n\r\n```rust\nfn main() {}\n```\n````md\n```reconcile\nnot: [valid\n```\n````\n";
    assert_eq!(rewritten(text), text);
}

#[test]
fn a_relative_playground_is_from_the_books_root() {
    let nested = Chapter {
        file: "src/part/one.md",
        depth: 1,
    };
    assert_eq!(playground_from(&nested, "playground"), "../playground/");
    assert_eq!(playground_from(&nested, "/play/"), "/play/");
    assert_eq!(
        playground_from(&nested, "http://127.0.0.1:4173"),
        "http://127.0.0.1:4173/"
    );
}

#[test]
fn a_bad_json_scenario_is_located_in_the_chapter_and_in_the_fence() {
    let text = "# Title\n\n```reconcile\n{\n  \"desired\": {\"web\": {\"replicas\": 2,}},\n  \"observed\": {}\n}\n```\n";
    assert_eq!(
        error(text),
        "src/chapter.md:5:37: the reconcile fence at line 3 holds a bad scenario: \
         line 2 of the fence, column 37, at $.desired.web: \
         trailing comma; expected another member or value after `,`"
    );
}

#[test]
fn a_bad_yaml_scenario_is_located_with_its_json_path() {
    let text = "Text\n\n```reconcile readonly\ndesired:\n  web: {replicas: 2}\nobserved:\n  web: {replicas: 1, replicas: 2}\n```\n";
    assert_eq!(
        error(text),
        "src/chapter.md:7:22: the reconcile fence at line 3 holds a bad scenario: \
         line 4 of the fence, column 22, at $.observed.web.replicas: \
         duplicate member name \"replicas\"; each name may appear only once"
    );
}

#[test]
fn attribute_mistakes_name_the_fence_and_what_was_expected() {
    assert_eq!(
        error("a\n```reconcile preset=nope\n```\n")
            .split("; expected")
            .next(),
        Some("src/chapter.md:2: the reconcile fence's info line: no preset `nope`")
    );
    assert_eq!(
        error("```reconcile preset=stuck-namespace\n{\"desired\": {}, \"observed\": {}}\n```\n"),
        "src/chapter.md:1: the reconcile fence holds a scenario and `preset`; \
         expected one of them: a scenario opens on its own documents"
    );
    assert_eq!(
        error("```reconcile\n- just\n- a list\n```\n")
            .split(": line")
            .next(),
        Some("src/chapter.md:2:1: the reconcile fence at line 1 holds a bad scenario")
    );
}

#[test]
fn a_fence_language_that_only_starts_with_reconcile_is_not_a_playground() {
    let text = "```reconciler\n{}\n```\n";
    assert_eq!(rewritten(text), text);
}
