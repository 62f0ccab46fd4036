//! A counterexample, as the check reported it: the input, the contract's
//! actions beside the learner's with each difference marked, the rule it
//! broke, and where the learner's language compares unlike JSON or holds a
//! trap. Plus what
//! the learner's code printed.

use reconcile_check::{escapes_note, readable, Mark};
use yew::prelude::*;

use crate::state::{ActionText, CounterexampleReport, LogLine};

/// Lines of output shown at most (the sandbox keeps 1,000).
const LOG_LIMIT: usize = 200;

pub fn counterexample_view(found: &CounterexampleReport, on_load: &Callback<[String; 3]>) -> Html {
    let onclick = {
        let (on_load, documents) = (on_load.clone(), found.documents.clone());
        Callback::from(move |_: MouseEvent| on_load.emit(documents.clone()))
    };
    // What is invisible or easy to confuse is shown escaped; "Load into the
    // editors" loads the texts as they are.
    let mut escaped = Vec::new();
    let mut shown = |text: &str| -> String {
        let (text, found) = readable(text);
        for each in found {
            if !escaped.contains(&each) {
                escaped.push(each);
            }
        }
        text.into_owned()
    };
    let [desired, observed, finalizers] = found.documents.clone().map(|text| shown(&text));
    let finalizers = if found.finalizers_omitted {
        "(left out of the call)".to_owned()
    } else {
        finalizers
    };
    let rule = shown(&found.rule);
    let mut readable_actions = |actions: &[ActionText]| -> Vec<ActionText> {
        actions
            .iter()
            .map(|action| ActionText(shown(&action.0)))
            .collect()
    };
    let expected = readable_actions(&found.expected);
    let actual = found.actual.as_deref().map(&mut readable_actions);
    let escapes = escapes_note(&escaped);
    html! {
        <div class="counterexample" aria-labelledby="counterexample-heading">
            <h3 id="counterexample-heading">{ "Counterexample" }</h3>
            <p class="rule">{ rule }</p>
            if let Some(escapes) = escapes {
                <aside class="escapes-note">{ escapes }</aside>
            }
            { for found.notes.iter().map(|(note, text)| html! {
                <aside class="equality-note" data-note={note_id(*note)}>
                    <strong>{ "Where your language differs from JSON. " }</strong>{ text }
                </aside>
            }) }
            <dl class="counterexample-input">
                <dt>{ "desired" }</dt><dd><code>{ desired }</code></dd>
                <dt>{ "observed" }</dt><dd><code>{ observed }</code></dd>
                <dt>{ "finalizers" }</dt><dd><code>{ finalizers }</code></dd>
            </dl>
            <div class="action-lists">
                { action_column("Expected (the contract)", "expected", &expected, &found.expected_marks) }
                if let Some(actual) = &actual {
                    { action_column("Yours", "actual", actual, &found.actual_marks) }
                } else {
                    <div class="action-column actual">
                        <h4>{ "Yours" }</h4>
                        <pre class="learner-error">{ found.error.clone().unwrap_or_default() }</pre>
                    </div>
                }
            </div>
            <button type="button" class="load-counterexample" {onclick}>{ "Load into the editors" }</button>
        </div>
    }
}

/// The note's name as the JS API gives it (`python-bool-is-int`), for tests and styles.
fn note_id(note: reconcile_check::EqualityNote) -> String {
    serde_json::to_string(&note)
        .unwrap_or_default()
        .trim_matches('"')
        .to_owned()
}

fn action_column(
    title: &'static str,
    class: &'static str,
    actions: &[ActionText],
    marks: &[Mark],
) -> Html {
    html! {
        <div class={classes!("action-column", class)}>
            <h4>{ title }</h4>
            if actions.is_empty() {
                <p class="no-actions">{ "No actions." }</p>
            } else {
                <ol aria-label={title}>
                    { for actions.iter().zip(marks.iter().copied().chain(std::iter::repeat(Mark::Same)))
                        .map(|(action, mark)| action_row(action, mark)) }
                </ol>
            }
        </div>
    }
}

fn action_row(action: &ActionText, mark: Mark) -> Html {
    let (class, label) = match mark {
        Mark::Same => ("mark-same", None),
        Mark::Missing => ("mark-missing", Some("missing from yours")),
        Mark::Unexpected => ("mark-unexpected", Some("not expected")),
        Mark::Moved => ("mark-moved", Some("in another place")),
    };
    html! {
        <li class={classes!("ce-action", class)}>
            <code>{ &action.0 }</code>
            if let Some(label) = label {
                <span class="mark-label">{ format!(" ({label})") }</span>
            }
        </li>
    }
}

pub fn log_view(logs: &[LogLine]) -> Html {
    if logs.is_empty() {
        return html! {};
    }
    let text: Vec<String> = logs
        .iter()
        .take(LOG_LIMIT)
        .map(|line| match line.case {
            Some(case) => format!("[case {}] {}", case + 1, line.text),
            None => line.text.clone(),
        })
        .collect();
    html! {
        <details class="learner-output">
            <summary>{ format!("Output of your code ({} lines)", logs.len()) }</summary>
            // Focusable: it scrolls, and keyboard users must be able to scroll it.
            <pre tabindex="0" aria-label="Output of your code">{ text.join("\n") }</pre>
        </details>
    }
}
