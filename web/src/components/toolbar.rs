//! Share, export and import, and the notices they produce.

use web_sys::HtmlInputElement;
use yew::prelude::*;

use crate::components::embed_code::EmbedCode;
use reconcile_content::share::{LinkNote, ShareError};

use crate::browser::StorageProblem;
use crate::state::{LinkOf, Loaded, Notice, YamlAction};

pub struct ToolbarCallbacks {
    pub on_share: Callback<()>,
    pub on_export_scenario: Callback<()>,
    pub on_export_results: Callback<()>,
    pub on_export_yaml: Callback<()>,
    pub on_import: Callback<web_sys::File>,
}

/// The toolbar; `replaying` while the simulation shows a replay, whose
/// link and results Share and Download results give.
pub fn toolbar(callbacks: &ToolbarCallbacks, can_export: bool, replaying: bool) -> Html {
    let on_file = {
        let on_import = callbacks.on_import.clone();
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            if let Some(file) = input.files().and_then(|files| files.get(0)) {
                on_import.emit(file);
            }
            // Let the same file be chosen again later.
            input.set_value("");
        })
    };
    let (share_title, results_title) = if replaying {
        (
            "Copy the link to this replay (Ctrl/Cmd+S)",
            "Download the replay as JSON: its exercise, the property broken, the schedule, the story and the timeline",
        )
    } else {
        (
            "Copy a link to this exact state (Ctrl/Cmd+S)",
            "Download the action list and the simulation timeline as JSON",
        )
    };
    html! {
        <div class="toolbar" role="group" aria-label="Share and files">
            <button type="button" class="primary" onclick={callbacks.on_share.reform(|_| ())}
                    aria-keyshortcuts="Control+S Meta+S" title={share_title}>
                { "Share" }
            </button>
            <button type="button" onclick={callbacks.on_export_scenario.reform(|_| ())} disabled={!can_export}
                    title="Download desired, observed and finalizers as one scenario file">
                { "Download scenario" }
            </button>
            <button type="button" onclick={callbacks.on_export_results.reform(|_| ())}
                    disabled={!can_export && !replaying} title={results_title}>
                { "Download results" }
            </button>
            <button type="button" onclick={callbacks.on_export_yaml.reform(|_| ())} disabled={!can_export}
                    title="Download the desired state as a YAML manifest stream, for kubectl apply -f">
                { "Download desired as YAML" }
            </button>
            <label class="button">
                { "Import…" }
                <input type="file" accept=".json,.yaml,.yml,application/json,application/yaml" class="visually-hidden"
                       onchange={on_file} aria-label="Import a scenario file" />
            </label>
        </div>
    }
}

/// What the page says about a link it could not open.
fn link_problem_text(error: &ShareError) -> String {
    match error {
        ShareError::UnknownVersion(_) => {
            format!("{error}; it can't be opened here, so the default scenario is loaded.")
        }
        _ => format!("{error}; the default scenario is loaded."),
    }
}

/// What an older link's setting became, in words.
fn link_note_text(note: LinkNote) -> String {
    match note {
        LinkNote::DropRateIsWatchBreaks { rate } => format!(
            "This link was made before the simulation had an informer cache. Its setting \
             \"watch events dropped: {percent}%\" is now \"Watch breaks: {percent}% of events\": \
             the watch breaks at that share of events, and the informer lists again, so no change \
             is missed for good. Change it in Faults and settings.",
            // A whole percent, formatted as an integer: the page links no float formatting.
            percent = (rate.clamp(0.0, 1.0) * 100.0).round() as u32
        ),
    }
}

/// What the share notice says before its link.
fn link_ready_text(of: &LinkOf, copied: bool) -> &'static str {
    match (of, copied) {
        (LinkOf::State(_), true) => "Link copied to the clipboard: ",
        (LinkOf::State(_), false) => "Copy this link: ",
        (LinkOf::Replay(_), true) => "Link to this replay copied to the clipboard: ",
        (LinkOf::Replay(_), false) => "Copy this link to the replay: ",
    }
}

/// What the page's message buttons do.
pub struct NoticeCallbacks {
    pub on_dismiss: Callback<()>,
    pub on_restore: Callback<()>,
    pub on_show_recent: Callback<()>,
    /// Confirm or undo a YAML conversion.
    pub on_yaml: Callback<YamlAction>,
}

/// What put documents in the editors, in words.
fn loaded_text(loaded: &Loaded) -> String {
    match loaded {
        Loaded::File(name) | Loaded::Documents(name) => format!("Loaded {name}."),
        Loaded::Preset(title) => format!("Loaded the preset “{title}”."),
        Loaded::Lesson(title) => format!("Opened the lesson “{title}”."),
        Loaded::Restored => "Restored your earlier documents.".to_owned(),
    }
}

pub fn notice_banner(
    notice: Option<&Notice>,
    link_outdated: bool,
    can_restore: bool,
    callbacks: &NoticeCallbacks,
) -> Html {
    let NoticeCallbacks {
        on_dismiss,
        on_restore,
        on_show_recent,
        on_yaml,
    } = callbacks;
    if notice.is_none() && !can_restore {
        return Html::default();
    }
    let (class, body) = match notice {
        Some(Notice::LinkProblem(error)) => {
            ("notice warning", html! { { link_problem_text(error) } })
        }
        Some(Notice::SettingsRefused(message)) => (
            "notice warning",
            html! { { format!("The simulation could not read these settings, so it runs with the default settings instead. {message}") } },
        ),
        Some(Notice::LinkNote(note)) => ("notice info", html! { { link_note_text(*note) } }),
        Some(Notice::AutosaveCorrupt) => (
            "notice warning",
            html! { { "Your saved session in this browser could not be read, so it was ignored." } },
        ),
        Some(Notice::TooLargeToAutosave) => (
            "notice warning",
            html! { { "These documents are over 1 MB, so they are not autosaved. Use Download scenario to keep them." } },
        ),
        Some(Notice::LinkReady { url, copied, of }) => (
            "notice info",
            html! {
                <>
                    { link_ready_text(of, *copied) }
                    <input type="text" readonly=true value={url.clone()} aria-label="Share link" class="share-url" />
                    if matches!(of, LinkOf::Replay(_)) {
                        { " It opens this same failing run, replayed from its record, for a teacher or anyone. \
                           It holds the controller's calls, not its code, and none of your documents." }
                    }
                    if link_outdated {
                        <strong class="link-outdated">
                            { " The playground has changed since: this link (and its embed code) holds the state from when you pressed Share. Press Share again for the current one." }
                        </strong>
                    }
                </>
            },
        ),
        Some(Notice::Imported(loaded)) => ("notice info", html! { { loaded_text(loaded) } }),
        Some(Notice::Replaced(loaded)) => (
            "notice info",
            html! { { format!("{} It replaced your edited documents.", loaded_text(loaded)) } },
        ),
        Some(Notice::CommentsWillBeLost { document, to, .. }) => (
            "notice warning",
            html! {
                <>
                    { format!("Comments will be lost: {} in {} keeps no YAML comments. ", document.label(), to.label()) }
                    <button type="button" onclick={on_yaml.reform(|_| YamlAction::Confirm)}>
                        { if matches!(to, reconcile_core::Format::Yaml) { "Format anyway" } else { "Convert anyway" } }
                    </button>
                </>
            },
        ),
        Some(Notice::Converted { document, to, .. }) => (
            "notice info",
            html! {
                <>
                    { format!("{} is now {}. ", document.label(), to.label()) }
                    <button type="button" onclick={on_yaml.reform(|_| YamlAction::Undo)}>{ "Undo" }</button>
                </>
            },
        ),
        Some(Notice::ImportFailed { file_name, error }) => (
            "notice warning",
            html! { { format!("Import failed: {file_name}: {error}") } },
        ),
        Some(Notice::StartedFromLatest) => (
            "notice info",
            html! { { "This tab starts from a copy of your latest session. Every tab keeps its own session; your earlier ones are in Recent sessions." } },
        ),
        Some(Notice::Forked) => (
            "notice info",
            html! { { "This session is also open in another tab; this tab now keeps its own copy." } },
        ),
        Some(Notice::SessionOpened) => (
            "notice info",
            html! { { "Opened the session. The one this tab had is kept in Recent sessions." } },
        ),
        Some(Notice::SessionGone) => (
            "notice warning",
            html! { { "That session is no longer saved: it was deleted in another tab." } },
        ),
        None => (
            "notice info",
            html! { { "Your previous session is still saved in this browser." } },
        ),
    };
    // Course authors embed what they share: the link's state, as an iframe.
    let embed_code = match notice {
        Some(Notice::LinkReady {
            url,
            of: LinkOf::State(of),
            ..
        }) => {
            html! { <EmbedCode link={AttrValue::from(url.clone())} package={of.package_target()} /> }
        }
        _ => Html::default(),
    };
    html! {
        <div {class} role="status">
            <p>{ body }</p>
            if matches!(notice, Some(Notice::StartedFromLatest)) {
                <button type="button" onclick={on_show_recent.reform(|_| ())}>{ "Show recent sessions" }</button>
            }
            if can_restore {
                <button type="button" onclick={on_restore.reform(|_| ())}>
                    { if matches!(notice, Some(Notice::Replaced(_))) { "Bring back your edits" } else { "Restore your last session" } }
                </button>
            }
            if notice.is_some() {
                <button type="button" onclick={on_dismiss.reform(|_| ())} aria-label="Dismiss message">{ "Dismiss" }</button>
            } else {
                <button type="button" onclick={on_dismiss.reform(|_| ())}>{ "Forget it" }</button>
            }
            { embed_code }
        </div>
    }
}

/// The persistent notice while autosave is off, with the two ways to keep
/// the work; `compact` in embeds, where it must not crowd the frame.
pub fn storage_notice(
    problem: Option<StorageProblem>,
    compact: bool,
    callbacks: &ToolbarCallbacks,
    can_export: bool,
) -> Html {
    let Some(problem) = problem else {
        return Html::default();
    };
    let reason = match problem {
        StorageProblem::Full => "Autosave is off: this browser's storage is full.",
        StorageProblem::Unavailable => "Autosave is off: this browser's storage is unavailable.",
    };
    html! {
        <div class={classes!("notice", "warning", "storage-notice", compact.then_some("compact"))} role="status">
            <p>
                { reason }
                if !compact {
                    { " Keep your work with Download scenario or a share link; the playground tries again at every change." }
                }
            </p>
            <button type="button" onclick={callbacks.on_export_scenario.reform(|_| ())} disabled={!can_export}>
                { "Download scenario" }
            </button>
            <button type="button" onclick={callbacks.on_share.reform(|_| ())}>{ "Copy share link" }</button>
        </div>
    }
}
