//! Runs in headless Chromium through wasm-bindgen-test: the page's pure parts,
//! compiled to wasm exactly as they ship.

use reconcile_core::Document;
use reconcile_web::highlight::{tokenize_line, TokenKind};
use reconcile_web::state::{Action, Playground, SimAction};
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

fn type_text(state: Rc<Playground>, document: Document, text: &str) -> Rc<Playground> {
    reduce(
        state,
        Action::Edit {
            document,
            text: text.to_owned(),
        },
    )
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

/// Presets, lessons, imports and Restore replace the documents; edited ones
/// are never dropped: they become restorable, and Restore swaps them back.
#[wasm_bindgen_test]
fn replacing_edited_documents_keeps_them_restorable() {
    use reconcile_web::state::{LessonAction, Notice};
    let typed = "{\"mine\": {}}";
    // A lesson replaces them once its file has arrived.
    let replacements = [
        vec![Action::LoadPreset("stuck-namespace")],
        vec![
            Action::Lesson(LessonAction::Open {
                id: "finalizers".into(),
                step: 0,
            }),
            finalizers_fetched(),
        ],
        vec![Action::Import {
            file_name: "s.json".into(),
            text: r#"{"desired": {}, "observed": {}}"#.into(),
        }],
    ];
    let reduce_all = |state: Rc<Playground>, actions: &[Action]| {
        actions
            .iter()
            .fold(state, |state, action| reduce(state, action.clone()))
    };
    for replacement in replacements {
        // Unedited documents are replaced without a word.
        let quiet = reduce_all(Rc::new(Playground::default()), &replacement);
        assert!(quiet.restorable.is_none(), "{replacement:?}");
        assert!(!matches!(quiet.notice, Some(Notice::Replaced(_))));

        let edited = type_text(Rc::new(Playground::default()), Document::Desired, typed);
        let replaced = reduce_all(edited, &replacement);
        assert_ne!(
            replaced.texts.get(Document::Desired),
            typed,
            "{replacement:?}"
        );
        let kept = replaced.restorable.as_ref().expect("the edits are kept");
        assert_eq!(kept.desired, typed);
        assert!(
            matches!(&replaced.notice, Some(Notice::Replaced(_))),
            "{:?}",
            replaced.notice
        );

        // Restore brings the edits back; edits made after the replacement are swapped out, not lost.
        let edited_again = type_text(replaced, Document::Observed, "{\"later\": {}}");
        let restored = reduce(edited_again, Action::RestorePrevious);
        assert_eq!(restored.texts.get(Document::Desired), typed);
        assert!(restored.lesson.is_none());
        let swapped = restored
            .restorable
            .as_ref()
            .expect("the later edits are kept");
        assert_eq!(swapped.observed, "{\"later\": {}}");
    }
}

/// The lesson file of `finalizers`, as the page fetches it.
fn finalizers_fetched() -> Action {
    Action::Lesson(reconcile_web::state::LessonAction::Fetched {
        path: "lessons/03-finalizers.json".into(),
        text: include_str!("../../crates/reconcile-content/lessons/03-finalizers.json").into(),
    })
}

/// A lesson opens once its file is fetched and read; until then the editors
/// keep their documents, and a failed download or a file that does not read
/// leaves the error in the panel until Try again.
#[wasm_bindgen_test]
fn a_lesson_opens_when_its_file_arrives_and_a_failure_can_be_retried() {
    use reconcile_web::state::LessonAction;
    let open = Action::Lesson(LessonAction::Open {
        id: "finalizers".into(),
        step: 1,
    });
    let asked = reduce(Rc::new(Playground::default()), open);
    let load = asked.lesson_load.as_ref().expect("fetching");
    assert_eq!(
        load.request(),
        Some(("lessons/03-finalizers.json".to_owned(), 0))
    );
    assert_eq!(asked.lesson_id(), Some("finalizers"));
    assert!(asked.lesson.is_none());
    assert_eq!(
        asked.texts,
        Playground::default().texts,
        "nothing replaced yet"
    );
    assert_eq!(asked.shared().lesson, None, "nothing to save yet");

    let failed = reduce(
        Rc::clone(&asked),
        Action::Lesson(LessonAction::FetchFailed {
            path: "lessons/03-finalizers.json".into(),
            message: "Failed to fetch".into(),
        }),
    );
    let load = failed.lesson_load.as_ref().expect("still there");
    assert_eq!(load.failed.as_deref(), Some("Failed to fetch"));
    assert_eq!(load.request(), None, "no fetch until Try again");
    let retried = reduce(failed, Action::Lesson(LessonAction::Refetch));
    assert_eq!(
        retried.lesson_load.as_ref().and_then(|l| l.request()),
        Some(("lessons/03-finalizers.json".to_owned(), 1))
    );

    // The one reader's located error, for a file that does not read.
    let broken = reduce(
        Rc::clone(&retried),
        Action::Lesson(LessonAction::Fetched {
            path: "lessons/03-finalizers.json".into(),
            text: "{\"id\": \"finalizers\",}".into(),
        }),
    );
    let error = broken.lesson_load.as_ref().and_then(|l| l.failed.clone());
    assert!(
        error
            .as_deref()
            .is_some_and(|e| e.starts_with("lessons/03-finalizers.json: line 1, column")),
        "{error:?}"
    );

    let opened = reduce(retried, finalizers_fetched());
    assert!(opened.lesson_load.is_none());
    let lesson = opened.lesson.as_ref().expect("open");
    assert_eq!((lesson.lesson.id.as_str(), lesson.step), ("finalizers", 1));
    assert!(opened
        .texts
        .get(Document::Finalizers)
        .contains("cloud/lb-cleanup"));
    assert_eq!(opened.shared().lesson.as_deref(), Some("finalizers"));
}

/// A link or an autosave that carries a lesson keeps its own documents: the
/// fetched lesson opens over them, and is saved meanwhile.
#[wasm_bindgen_test]
fn a_linked_lesson_opens_over_the_links_documents() {
    let mut shared = Playground::default().shared();
    shared.desired = "{\"mine\": {}}\n".into();
    shared.lesson = Some("finalizers".into());
    shared.step = Some(2);
    let restored = Rc::new(Playground::from_shared(&shared));
    assert_eq!(restored.shared().lesson.as_deref(), Some("finalizers"));
    assert_eq!(restored.shared().step, Some(2));
    let opened = reduce(restored, finalizers_fetched());
    assert_eq!(opened.texts.get(Document::Desired), "{\"mine\": {}}\n");
    assert_eq!(opened.lesson.as_ref().map(|l| l.step), Some(2));
    assert!(opened.notice.is_none());
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

#[wasm_bindgen_test]
fn commands_are_never_accepted_from_an_opaque_origin() {
    use reconcile_web::embed::EmbedOptions;
    let allow = |value: &str| EmbedOptions::from_query(&[("allow".to_owned(), value.to_owned())]);
    let options = allow("null, https://course.example");
    assert!(options.accepts_origin("https://course.example"));
    assert!(
        !options.accepts_origin("null"),
        "a sandboxed frame's origin"
    );
    assert!(!allow("null").accepts_origin("null"));
    assert!(!options.accepts_origin("https://course.example.evil"));
}

/// `theme=` takes `light` or `dark`; anything else follows the system.
#[wasm_bindgen_test]
fn theme_is_light_dark_or_the_systems() {
    use reconcile_web::embed::EmbedOptions;
    let theme =
        |value: &str| EmbedOptions::from_query(&[("theme".to_owned(), value.to_owned())]).theme;
    assert_eq!(theme("light"), Some("light"));
    assert_eq!(theme("dark"), Some("dark"));
    for other in ["", "Dark", "blue", "system"] {
        assert_eq!(theme(other), None, "{other}");
    }
    assert_eq!(EmbedOptions::from_query(&[]).theme, None);
}

/// The envelope's version: none (a parent written before it) and 1 are
/// obeyed; a newer or malformed one is not.
#[wasm_bindgen_test]
fn commands_are_obeyed_only_in_a_known_envelope_version() {
    use reconcile_web::embed::{accepts_version, MESSAGE_VERSION};
    assert_eq!(MESSAGE_VERSION, 1);
    assert!(accepts_version(None));
    assert!(accepts_version(Some(1.0)));
    for newer in [2.0, 0.0, 1.5, f64::NAN, f64::INFINITY] {
        assert!(!accepts_version(Some(newer)), "{newer}");
    }
}

/// `pkg/reconcile-playground.js` reads and writes the envelope with the
/// page's own names: one format, compared here.
#[wasm_bindgen_test]
fn the_component_uses_the_envelopes_names() {
    use reconcile_web::embed::{
        MESSAGE_HEIGHT, MESSAGE_KEY, MESSAGE_LOAD, MESSAGE_PREFIX, MESSAGE_RUN, MESSAGE_STEP,
        MESSAGE_VERSION,
    };
    const COMPONENT: &str = include_str!("../../crates/reconcile-wasm/js/reconcile-playground.js");
    assert!(COMPONENT.contains(&format!("const PREFIX = \"{MESSAGE_PREFIX}\";")));
    assert!(COMPONENT.contains(&format!("const VERSION = {MESSAGE_VERSION};")));
    for message in [
        MESSAGE_HEIGHT,
        MESSAGE_LOAD,
        MESSAGE_STEP,
        MESSAGE_RUN,
        MESSAGE_KEY,
    ] {
        let kind = message.strip_prefix(MESSAGE_PREFIX).expect("one prefix");
        assert!(COMPONENT.contains(&format!("\"{kind}\"")), "{kind}");
    }
}

/// Embeds of different link states keep separate autosaves; embeds without
/// a link keep the keys they always had; the main page has one autosave.
#[wasm_bindgen_test]
fn embeds_of_different_links_save_apart() {
    use reconcile_web::embed::{EmbedOptions, AUTOSAVE_KEY};
    let embed = |hash: &str| {
        EmbedOptions::from_query(&[("embed".to_owned(), String::new())]).with_link(hash)
    };
    assert_ne!(
        embed("#v1/aaa").autosave_key(),
        embed("#v1/aab").autosave_key()
    );
    assert_eq!(
        embed("#v1/aaa").autosave_key(),
        embed("v1/aaa").autosave_key()
    );
    assert_eq!(embed("").autosave_key(), format!("{AUTOSAVE_KEY}:embed::"));
    assert_ne!(
        embed("#v1/aaa").previous_key(),
        embed("#v1/aab").previous_key()
    );
    let main = EmbedOptions::from_query(&[]).with_link("#v1/aaa");
    assert_eq!(main.autosave_key(), AUTOSAVE_KEY);
}

/// Every choice in "Embed this state", read back by the page it embeds: the
/// same panes, the same lock, the link's state, and the link's origin checked.
#[wasm_bindgen_test]
fn embed_snippets_open_what_was_chosen() {
    use reconcile_web::embed::{embed_snippet, EmbedChoice, EmbedOptions, Pane};
    let link = "https://course.example:8443/play/#v1/abc-_123";
    for bits in 0..32u8 {
        let choice = EmbedChoice {
            editors: bits & 1 != 0,
            plan: bits & 2 != 0,
            timeline: bits & 4 != 0,
            faults: bits & 8 != 0,
            readonly: bits & 16 != 0,
        };
        let snippet = embed_snippet(link, choice);
        let src = snippet
            .split("src=\"")
            .nth(1)
            .and_then(|rest| rest.split('"').next())
            .expect("the snippet has an iframe src")
            .replace("&amp;", "&");
        assert!(!src.contains(['<', '>', '"']), "{src}");
        let (page, rest) = src.split_once('?').expect("a query");
        let (query, hash) = rest.split_once('#').expect("the link's state");
        assert_eq!(
            (page, hash),
            ("https://course.example:8443/play/", "v1/abc-_123")
        );
        let pairs: Vec<(String, String)> = query
            .split('&')
            .map(|pair| {
                let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
                (key.to_owned(), value.to_owned())
            })
            .collect();
        let options = EmbedOptions::from_query(&pairs);
        assert!(options.embed);
        assert_eq!(options.readonly, choice.readonly);
        let none = choice.panes().is_empty();
        for (pane, chosen) in [
            (Pane::Editors, choice.editors),
            (Pane::Plan, choice.plan),
            (Pane::Timeline, choice.timeline),
            (Pane::Faults, choice.faults),
        ] {
            // No pane chosen cannot be asked for (the form keeps one); it shows all.
            assert_eq!(options.shows(pane), chosen || none, "{choice:?} {pane:?}");
        }
        assert!(snippet.contains("if (event.origin !== \"https://course.example:8443\") return;"));
        assert!(snippet.contains(&format!("height:{}px;", choice.height())));
    }
    // Without a script to resize it, the frame is as tall as the panes chosen.
    let height = |editors, plan, timeline| {
        EmbedChoice {
            editors,
            plan,
            timeline,
            faults: false,
            readonly: false,
        }
        .height()
    };
    assert!(height(true, true, true) > height(true, true, false));
    assert!(height(true, true, false) > height(false, true, false));
    assert_eq!(EmbedChoice::default().height(), height(true, true, true));
}

/// `panes=sim` (the name embeds used before the timeline and the faults
/// could be named apart) still shows the whole simulation.
#[wasm_bindgen_test]
fn panes_sim_is_the_timeline_and_the_faults() {
    use reconcile_web::embed::{EmbedOptions, Pane};
    let panes = |value: &str| EmbedOptions::from_query(&[("panes".to_owned(), value.to_owned())]);
    let old = panes("sim");
    assert!(old.shows(Pane::Timeline) && old.shows(Pane::Faults) && !old.shows(Pane::Plan));
    let without_faults = panes("plan,timeline");
    assert!(without_faults.shows(Pane::Timeline) && !without_faults.shows(Pane::Faults));
    assert!(without_faults.shows_simulation());
    assert!(!panes("editors,plan").shows_simulation());
}

mod editor_window {
    use reconcile_sim::rng::SimRng;
    use reconcile_web::editor_window::{
        byte_index_of_utf16, utf16_index_of_byte, utf16_len, window_for, LineIndex, LINES_ABOVE,
        LINES_BELOW, WHOLE_BYTES, WINDOW_BYTES,
    };
    use wasm_bindgen_test::wasm_bindgen_test;

    /// Deterministic cases (the simulation's seeded generator) without a property-testing crate in wasm.
    struct Cases(SimRng);
    impl Cases {
        fn below(&mut self, n: usize) -> usize {
            (self.0.next_u64() % n.max(1) as u64) as usize
        }
    }

    /// Lines of random length (some far longer than a window), with multi-byte characters.
    fn document(cases: &mut Cases) -> String {
        let lines = 1 + cases.below(3_000);
        let mut text = String::new();
        for i in 0..lines {
            let length = match cases.below(100) {
                0 => 20_000 + cases.below(60_000),
                1..=10 => 0,
                _ => cases.below(120),
            };
            for j in 0..length {
                text.push(match (i + j) % 37 {
                    0 => 'é',
                    1 => '🙂',
                    2 => 'ж',
                    _ => 'a',
                });
            }
            if i + 1 < lines {
                text.push('\n');
            }
        }
        text
    }

    #[wasm_bindgen_test]
    fn windows_are_bounded_aligned_and_splice_back() {
        let mut cases = Cases(SimRng::new(7));
        for _ in 0..120 {
            let text = document(&mut cases);
            let index = LineIndex::new(&text);
            let anchor = cases.below(index.line_count() + 10);
            let caret = (cases.below(2) == 0).then(|| cases.below(text.len() + 1));
            let w = window_for(&text, &index, anchor, caret);
            assert!(w.start <= w.end && w.end <= text.len());
            assert!(text.is_char_boundary(w.start) && text.is_char_boundary(w.end));
            assert_eq!(
                (w.first_line, w.last_line),
                (index.line_of(w.start), index.line_of(w.end))
            );
            assert_eq!(w.total_lines, index.line_count());
            if text.len() <= WHOLE_BYTES {
                assert!(w.is_whole(text.len()));
                continue;
            }
            assert!(w.last_line - w.first_line <= LINES_ABOVE + LINES_BELOW);
            let lines_bytes = index.end_of(w.last_line) - index.start_of(w.first_line);
            assert!(w.end - w.start <= lines_bytes.min(WINDOW_BYTES + 1_024 + 4));
            // Mid-line edges only inside lines too long to show whole.
            if w.start != index.start_of(w.first_line) || w.end != index.end_of(w.last_line) {
                assert!(lines_bytes > WINDOW_BYTES, "clipped a window that fits");
            }
            // A caret outside the anchor's lines is brought into the window.
            if let Some(caret) = caret {
                let caret_line = index.line_of(caret);
                let anchored = anchor.min(index.line_count() - 1);
                let outside =
                    caret_line + LINES_ABOVE < anchored || caret_line > anchored + LINES_BELOW;
                if outside {
                    assert!(w.contains_line(caret_line));
                }
            }
            // The window's own text spliced back is the document; an edit lands in place.
            let shown = &text[w.start..w.end];
            assert_eq!(w.splice(&text, shown), text);
            let edited = format!("<{shown}>");
            assert_eq!(
                w.splice(&text, &edited),
                format!("{}<{shown}>{}", &text[..w.start], &text[w.end..])
            );
        }
    }

    #[wasm_bindgen_test]
    fn scrolling_covers_the_screen_and_moves_near_edges() {
        let text = (0..20_000)
            .map(|i| format!("line {i}"))
            .collect::<Vec<_>>()
            .join("\n");
        let index = LineIndex::new(&text);
        let w = window_for(&text, &index, 10_000, None);
        assert_eq!(
            (w.first_line, w.last_line),
            (10_000 - LINES_ABOVE, 10_000 + LINES_BELOW)
        );
        assert!(w.covers(10_000, 10_030));
        assert!(
            !w.covers(w.last_line - 10, w.last_line + 20),
            "the screen near the bottom edge"
        );
        assert!(
            !w.covers(w.first_line + 1, w.first_line + 30),
            "the screen near the top edge"
        );
        let top = window_for(&text, &index, 0, None);
        assert!(
            top.covers(0, 30),
            "the document's own edge needs no spare lines"
        );
        assert_eq!(top.lines_above(), 0);
        assert_eq!(top.lines_below(), 20_000 - 1 - LINES_BELOW);
    }

    #[wasm_bindgen_test]
    fn utf16_offsets_round_trip() {
        let text = "aé🙂ж\nb🙂";
        for (byte, _) in text.char_indices().chain([(text.len(), ' ')]) {
            let units = utf16_index_of_byte(text, byte);
            assert_eq!(byte_index_of_utf16(text, units), byte);
        }
        assert_eq!(utf16_len(text), 9);
        assert_eq!(
            utf16_index_of_byte(text, 4),
            2,
            "inside 🙂 counts as its start"
        );
    }
}

/// The YAML worker is sent each edit as one replaced range: applied to the
/// text it had, it gives exactly the new text, on character boundaries.
#[wasm_bindgen_test]
fn a_splice_turns_the_last_text_into_the_new_one() {
    use reconcile_core::stable::SplitMix64;
    use reconcile_web::yaml_worker::splice;
    let apply = |old: &str, new: &str| {
        let (from, to, insert) = splice(old, new);
        let mut text = old.to_owned();
        text.replace_range(from as usize..to as usize, insert);
        assert_eq!(text, new, "from {old:?}");
        (from, to, insert.len())
    };
    assert_eq!(apply("replicas: 7", "replicas: 107"), (10, 10, 2));
    assert_eq!(
        apply("aaaa", "aa"),
        (2, 4, 0),
        "the range ends where the texts agree"
    );
    assert_eq!(apply("é", "ê"), (0, 2, 2), "never inside a character");
    assert_eq!(apply("", "x"), (0, 0, 1));
    assert_eq!(apply("same", "same"), (4, 4, 0));
    let mut random = SplitMix64::new(15);
    let alphabet = ['a', 'b', 'é', '🚀', '\n', ' '];
    let mut text = String::new();
    for _ in 0..500 {
        let pick = |random: &mut SplitMix64, n: usize| (random.next_u64() % n as u64) as usize;
        let chars: Vec<char> = text.chars().collect();
        let at = pick(&mut random, chars.len() + 1);
        let cut = pick(&mut random, 3).min(chars.len() - at);
        let inserted: String = (0..pick(&mut random, 3))
            .map(|_| alphabet[pick(&mut random, alphabet.len())])
            .collect();
        let next: String = chars[..at]
            .iter()
            .chain(inserted.chars().collect::<Vec<_>>().iter())
            .chain(&chars[at + cut..])
            .collect();
        apply(&text, &next);
        text = next;
    }
}

/// The simulation's module's part, as it plays it (`mount_simulation`):
/// the run the page asked for, simulated, and its facts.
fn simulated(state: &Playground) -> Action {
    let run = state.sim.run().expect("a run asked for");
    let (scenario, config) = run.run.read().expect("the run reads");
    let timeline = reconcile_sim::simulate_custom_resources(&scenario, &config);
    let facts = reconcile_protocol::simulation::RunFacts::of(run.revision, &timeline);
    Action::Sim(SimAction::Simulated(reconcile_web::shared::Shared::new(
        facts,
    )))
}

fn painted(preset: &'static str) -> Rc<Playground> {
    let state = reduce(Rc::new(Playground::default()), Action::LoadPreset(preset));
    reduce(state, Action::FirstPainted)
}

#[wasm_bindgen_test]
fn a_step_before_the_runs_facts_is_kept_and_applied_when_they_come() {
    let state = painted("basics");
    assert!(
        state.sim.simulating(),
        "the run is asked for, its facts not here"
    );
    let facts = simulated(&state);
    let state = reduce(state, Action::Sim(SimAction::Step));
    let state = reduce(state, Action::Sim(SimAction::Step));
    assert_eq!(state.sim.cursor, 0, "nothing to move through yet");
    let state = reduce(state, facts);
    assert!(state.sim.has_run());
    assert_eq!((state.sim.cursor, state.sim.shown_pass()), (2, 2));
    // Facts of an older run are late: the cursor stays on the newer run's.
    let older = simulated(&state);
    let state = type_text(state, Document::Desired, r#"{"a": {"replicas": 2}}"#);
    let state = reduce(state, Action::Check);
    assert!(state.sim.simulating());
    let state = reduce(state, older);
    assert!(state.sim.simulating(), "the older run's facts are dropped");
    let newer = simulated(&state);
    let state = reduce(state, newer);
    assert!(state.sim.has_run());
    assert!(state.sim.cursor <= state.sim.last_position());
}

#[wasm_bindgen_test]
fn settings_from_the_module_run_again_and_an_injected_event_is_shown_when_simulated() {
    let state = painted("basics");
    let facts = simulated(&state);
    let state = reduce(state, facts);
    let state = reduce(state, Action::Sim(SimAction::Step));
    let mut written = state.sim.config.read().expect("the preset's settings");
    let script = reconcile_protocol::setting_change::SettingChange::Inject(
        reconcile_sim::WorldEvent::Delete { name: "a".into() },
    )
    .apply(&mut written, state.sim.shown_pass());
    let config = reconcile_sim::SimSettings::of(&written);
    let stale = Action::Sim(SimAction::Settings {
        revision: 0,
        config: Rc::new(config.clone()),
        show_script: script,
    });
    assert!(
        Rc::ptr_eq(&reduce(Rc::clone(&state), stale.clone()), &state) || {
            let after = reduce(Rc::clone(&state), stale);
            after.sim.config == state.sim.config
        }
    );
    let revision = state.sim.run().expect("run").revision;
    let state = reduce(
        state,
        Action::Sim(SimAction::Settings {
            revision,
            config: Rc::new(config.clone()),
            show_script: script,
        }),
    );
    assert_eq!(state.sim.config, config);
    assert!(
        state.sim.simulating(),
        "the new settings are simulated again"
    );
    let facts = simulated(&state);
    let state = reduce(state, facts);
    let facts = state.sim.facts.as_ref().expect("facts");
    assert_eq!(Some(state.sim.cursor), facts.position_of_script(0));
}

#[wasm_bindgen_test]
fn settings_as_the_module_read_them_are_kept_without_a_new_run() {
    let state = painted("basics");
    let run = Rc::clone(state.sim.run().expect("run"));
    let read = state.sim.config.read().expect("the preset's settings");
    let config = Rc::new(reconcile_sim::SimSettings::of(&read));
    let late = Action::Sim(SimAction::SettingsRead {
        revision: run.revision + 1,
        config: Rc::clone(&config),
    });
    let after = reduce(Rc::clone(&state), late);
    assert_eq!(after.sim.config, state.sim.config);
    let state = reduce(
        state,
        Action::Sim(SimAction::SettingsRead {
            revision: run.revision,
            config: Rc::clone(&config),
        }),
    );
    assert_eq!(state.sim.config, *config);
    assert_eq!(state.sim.run(), Some(&run), "the run stands");
    assert!(
        state.shared().sim == *config,
        "links and autosaves hold them"
    );
}

/// The module's report of the settings it read can come after the learner
/// stepped by event: the event stepped to stays (stop 42's CI failed on it).
#[wasm_bindgen_test]
fn settings_read_after_a_step_by_event_keep_the_event() {
    let state = painted("basics");
    let run = Rc::clone(state.sim.run().expect("run"));
    let facts = simulated(&state);
    let state = reduce(state, facts);
    let state = reduce(state, Action::Sim(SimAction::StepEvent { forward: true }));
    let stepped = state.sim.event;
    assert!(stepped.is_some(), "stepping by event");
    let read = state.sim.config.read().expect("the preset's settings");
    let state = reduce(
        state,
        Action::Sim(SimAction::SettingsRead {
            revision: run.revision,
            config: Rc::new(reconcile_sim::SimSettings::of(&read)),
        }),
    );
    assert_eq!(state.sim.event, stepped, "still on the same event");
    assert_eq!(state.sim.shown_pass(), 1);
}

#[wasm_bindgen_test]
fn settings_the_module_refuses_run_as_the_defaults_with_the_reason() {
    use reconcile_web::state::Notice;
    let state = painted("basics");
    let revision = state.sim.run().expect("run").revision;
    let message = "Simulation options at $: unknown option \"sed\"".to_owned();
    let late = Action::SettingsRefused {
        revision: revision + 1,
        message: message.clone(),
    };
    assert!(Rc::ptr_eq(&reduce(Rc::clone(&state), late), &state));
    let state = reduce(
        state,
        Action::SettingsRefused {
            revision,
            message: message.clone(),
        },
    );
    assert_eq!(state.sim.config, reconcile_sim::SimSettings::default());
    assert_eq!(state.notice, Some(Notice::SettingsRefused(message)));
    let run = state.sim.run().expect("run again");
    assert!(run.revision > revision, "the defaults are simulated");
}

#[wasm_bindgen_test]
fn a_lessons_question_about_the_run_waits_for_the_modules_answer() {
    use reconcile_content::lesson::Feedback;
    use reconcile_web::state::LessonAction;
    let mut state = (*painted("basics")).clone();
    state
        .sim
        .ask(reconcile_protocol::section::LessonQuestion::Passes { answer: 2 });
    let id = state.sim.check.as_ref().expect("asked").id;
    let state = Rc::new(state);
    let feedback = |correct| {
        Rc::new(Feedback {
            correct,
            hint: "h".into(),
            headline: "x".into(),
            details: Vec::new(),
        })
    };
    let other = reduce(
        Rc::clone(&state),
        Action::Lesson(LessonAction::Checked {
            id: id + 1,
            feedback: feedback(true),
        }),
    );
    assert!(
        Rc::ptr_eq(&other, &state),
        "an answer to another question is dropped"
    );
    let answered = reduce(
        state,
        Action::Lesson(LessonAction::Checked {
            id,
            feedback: feedback(true),
        }),
    );
    assert!(answered.sim.check.is_none());
}

/// Presenter mode: the arrows move the panes and, past the first or last,
/// go to the course page; an editing control keeps every key.
#[wasm_bindgen_test]
fn presenter_keys_move_panes_then_the_deck() {
    use reconcile_web::embed::EmbedOptions;
    use reconcile_web::present::{key_use, presented, Focus, KeyUse, Shown};
    let other = Focus::Other;
    assert_eq!(key_use("ArrowRight", false, other, 0, 3), KeyUse::Move(1));
    assert_eq!(key_use("ArrowLeft", false, other, 2, 3), KeyUse::Move(1));
    assert_eq!(key_use("ArrowRight", false, other, 2, 3), KeyUse::Forward);
    assert_eq!(key_use("ArrowLeft", false, other, 0, 3), KeyUse::Forward);
    for key in ["PageDown", "PageUp", "n", "P", " "] {
        assert_eq!(key_use(key, false, other, 1, 3), KeyUse::Forward, "{key}");
    }
    // Space presses a focused button; Ctrl+arrows and other keys stay in the frame.
    assert_eq!(key_use(" ", false, Focus::Control, 1, 3), KeyUse::Keep);
    assert_eq!(
        key_use("ArrowRight", false, Focus::Control, 1, 3),
        KeyUse::Move(2)
    );
    assert_eq!(key_use("ArrowRight", true, other, 1, 3), KeyUse::Keep);
    assert_eq!(key_use("Escape", false, other, 1, 3), KeyUse::Keep);
    for key in ["ArrowRight", "ArrowLeft", "PageDown", " ", "n"] {
        assert_eq!(
            key_use(key, false, Focus::Editing, 0, 3),
            KeyUse::Keep,
            "{key}"
        );
    }
    let query = |pairs: &[(&str, &str)]| {
        let pairs: Vec<(String, String)> = pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        EmbedOptions::from_query(&pairs)
    };
    let options = query(&[("present", ""), ("panes", "plan,sim")]);
    assert!(options.present);
    assert_eq!(
        presented(&options, true),
        [Shown::Lesson, Shown::Plan, Shown::Simulation]
    );
    assert_eq!(
        presented(&query(&[]), false),
        [Shown::Editors, Shown::Plan, Shown::Simulation]
    );
    assert!(!query(&[("present", "false")]).present);
}
