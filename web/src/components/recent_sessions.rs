//! The Recent sessions menu: a disclosure listing the sessions saved in this
//! browser, each with its name, age and the start of its desired document,
//! to open one in this tab or delete it.

use reconcile_content::sessions::{Age, SessionEntry};
use yew::prelude::*;

use crate::hooks::{RecentList, RecentSessions};

const PANEL_ID: &str = "recent-sessions";

#[derive(Properties, PartialEq)]
pub struct RecentSessionsProps {
    pub recent: RecentSessions,
}

#[component]
pub fn RecentSessionsMenu(props: &RecentSessionsProps) -> Html {
    let recent = &props.recent;
    let toggle = use_node_ref();
    let open = recent.list.is_some();
    // Escape closes the list and gives the focus back to its button.
    let onkeydown = {
        let (on_show, toggle) = (recent.on_show.clone(), toggle.clone());
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Escape" {
                e.prevent_default();
                on_show.emit(false);
                if let Some(button) = toggle.cast::<web_sys::HtmlElement>() {
                    let _ = button.focus();
                }
            }
        })
    };
    html! {
        <div class="recent-sessions" {onkeydown}>
            <button type="button" ref={toggle} aria-expanded={open.to_string()} aria-controls={PANEL_ID}
                    onclick={recent.on_show.reform(move |_| !open)}>
                { "Recent sessions" }
            </button>
            if let Some(list) = &recent.list {
                <div id={PANEL_ID} class="recent-sessions-panel" role="region" aria-label="Recent sessions">
                    { session_list(list, recent) }
                </div>
            }
        </div>
    }
}

fn session_list(list: &RecentList, recent: &RecentSessions) -> Html {
    if list.index.entries().is_empty() {
        return html! { <p>{ "No sessions saved in this browser yet." }</p> };
    }
    html! {
        <ul>
            { for list.index.entries().iter().map(|entry| session_item(entry, list, recent)) }
        </ul>
    }
}

fn session_item(entry: &SessionEntry, list: &RecentList, recent: &RecentSessions) -> Html {
    let age = Age::between(entry.saved, list.now).to_string();
    let described = html! {
        <>
            <span class="session-title">{ &entry.title }</span>
            <span class="session-age">{ format!(", saved {age}") }</span>
            <span class="session-snippet">{ &entry.snippet }</span>
        </>
    };
    if list.current.as_deref() == Some(entry.id.as_str()) {
        return html! {
            <li class="current">
                <span class="session-open">{ described }<span class="session-this">{ " (this tab)" }</span></span>
            </li>
        };
    }
    let id = entry.id.clone();
    let on_open = recent.on_open.reform(move |_: MouseEvent| id.clone());
    let id = entry.id.clone();
    let on_delete = recent.on_delete.reform(move |_: MouseEvent| id.clone());
    html! {
        <li>
            <button type="button" class="session-open" onclick={on_open}>{ described }</button>
            <button type="button" class="session-delete" onclick={on_delete}>
                { "Delete" }
                <span class="visually-hidden">{ format!(" “{}”, saved {age}", entry.title) }</span>
            </button>
        </li>
    }
}
