//! Parsing arbitrary text. The whole input is read as a scenario file (the
//! CLI's, the import's and the Format button's paths: the one read path, the
//! fast scan handing over to the precise parser on any error); then it is split on NUL
//! into the three editor documents, desired, observed and finalizers, and
//! checked and planned as the page does. It is also read as an action list,
//! the answer a reconcile written elsewhere gives the simulation.
//!
//! Every error must name its document and a line and column inside that
//! document's text; whatever parses must format and import to text that
//! parses back to the same value.

#![no_main]

use libfuzzer_sys::fuzz_target;
use reconcile_core::{
    check_scenario, check_texts, format_document, import_scenario, parse_actions, parse_finalizers,
    parse_json, parse_resources, parse_scenario, parse_scenario_owned, plan, plan_texts, reconcile,
    reconcile_scenario_json, Document,
};
use reconcile_fuzz::{assert_located, split_documents};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    check_scenario_file(&text);
    check_editor_texts(split_documents(&text));
    check_actions(&text);
});

/// An action list either reads back from its own serialization or says
/// where it is wrong.
fn check_actions(text: &str) {
    match parse_actions(text) {
        Ok(actions) => {
            let written = serde_json::to_string(&actions).expect("actions serialize");
            assert_eq!(parse_actions(&written), Ok(actions), "{written}");
        }
        Err(error) => {
            assert_eq!(error.document, Document::Actions);
            assert_located(text, &error);
        }
    }
}

fn check_scenario_file(text: &str) {
    let scenario = parse_scenario(text);
    // The CLI hands its text over rather than lending it: the same result.
    assert_eq!(
        parse_scenario_owned(text.to_owned()),
        scenario,
        "a handed-over text reads differently"
    );
    match &scenario {
        Ok(scenario) => {
            let expected = reconcile(
                &scenario.desired,
                &scenario.observed,
                scenario.finalizers.as_ref(),
            );
            let json = reconcile_scenario_json(text).expect("parsed once, parses again");
            assert_eq!(
                json,
                serde_json::to_string(&expected).expect("actions serialize")
            );
            let [desired, observed, finalizers] =
                import_scenario(text).expect("a scenario that parses imports");
            let imported = check_scenario(&desired, &observed, &finalizers)
                .unwrap_or_else(|errors| panic!("imported texts do not parse: {errors:?}"));
            assert!(
                imported == *scenario,
                "import changed the scenario:\n{desired}{observed}{finalizers}"
            );
        }
        Err(error) => {
            assert_located(text, error);
            assert_eq!(reconcile_scenario_json(text).as_ref(), Err(error));
            assert_eq!(import_scenario(text).err().as_ref(), Some(error));
        }
    }
    for document in [
        Document::Desired,
        Document::Observed,
        Document::Finalizers,
        Document::Scenario,
    ] {
        check_format(document, text);
    }
}

/// Format either explains the problem or gives text that means the same and formats to itself.
fn check_format(document: Document, text: &str) {
    match format_document(document, text) {
        Ok(formatted) => {
            let before = parse_json(document, text).expect("formatted, so it parses");
            let after = parse_json(document, &formatted)
                .unwrap_or_else(|e| panic!("formatted text does not parse: {e}\n{formatted}"));
            assert!(before == after, "format changed the value:\n{formatted}");
            assert_eq!(
                format_document(document, &formatted).as_ref(),
                Ok(&formatted),
                "format is not idempotent"
            );
        }
        Err(error) => {
            assert_eq!(error.document, document);
            assert_located(text, &error);
        }
    }
}

fn check_editor_texts([desired, observed, finalizers]: [&str; 3]) {
    let checked = check_scenario(desired, observed, finalizers);
    let planned = check_texts(desired, observed, finalizers);
    let first_error = plan_texts(desired, observed, finalizers);
    match checked {
        Ok(scenario) => {
            let expected = plan(
                &scenario.desired,
                &scenario.observed,
                scenario.finalizers.as_ref(),
            );
            assert_eq!(planned.as_ref(), Ok(&expected));
            assert_eq!(first_error.as_ref(), Ok(&expected));
            // Each document alone parses to the same value.
            let alone = parse_resources(Document::Desired, desired).expect("desired parsed");
            assert!(alone == scenario.desired);
            let alone = parse_finalizers(finalizers).expect("finalizers parsed");
            assert_eq!(alone, scenario.finalizers);
        }
        Err(errors) => {
            assert!(!errors.is_empty(), "failed without an error");
            // At most one error per document, in editor order.
            let documents: Vec<Document> = errors.iter().map(|e| e.document).collect();
            let order = [Document::Desired, Document::Observed, Document::Finalizers];
            let mut expected_order: Vec<Document> = order
                .iter()
                .copied()
                .filter(|d| documents.contains(d))
                .collect();
            expected_order.dedup();
            assert_eq!(documents, expected_order, "errors out of order or repeated");
            for error in &errors {
                let own_text = match error.document {
                    Document::Desired => desired,
                    Document::Observed => observed,
                    _ => finalizers,
                };
                assert_located(own_text, error);
            }
            assert_eq!(planned.as_ref().err(), Some(&errors));
            assert_eq!(first_error.err().as_ref(), errors.first());
        }
    }
}
