//! `cargo xtask prerender [DIR]`: puts each preset's first plan into
//! `DIR/index.html`, so a first visit shows its action list before the wasm
//! arrives (issue 33's budget for a course page: docs/PERFORMANCE.md).
//!
//! The plans come from the core (`check_scenario`, then `plan`), as the page
//! computes them. Each is a `<template data-view="PRESET">` holding the plan
//! pane's markup as `web/src/components/action_list.rs` renders it; the inline
//! script `web/static/prerendered-plan.js` shows the one the address opens and
//! makes the `first-action-list` mark. Mounting the page clears it.
//! `web/e2e/prerender.spec.mjs` compares every template with the page's list.
//!
//! A preset is left out (the page's own render shows it, as before) when its
//! first plan is not certain here: YAML or manifest documents, which the YAML
//! module reads first; several custom resources, whose tabs are not drawn
//! here; drift that the API server's defaults explain (its note is the page's
//! own prose); or more actions than the page lists.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use reconcile_content::presets::{self, Preset};
use reconcile_core::{
    check_scenario, detect_format, plan, Drift, ExplainedAction, Format, Json, Plan,
};
use reconcile_sim::defaulting::defaulted_drift;

use crate::tools::Env;

/// The script that picks the template the address opens; inline, so its hash
/// goes into the page's policy (`cargo xtask csp` runs after this).
const SCRIPT: &str = include_str!("../../../web/static/prerendered-plan.js");
/// Where the templates and the script go: the end of the page's body.
const BODY_END: &str = "</body>";

/// Parses `[DIR]` and writes the plans into `DIR/index.html`.
pub fn run(args: &[String]) -> Result<(), String> {
    let dir = match args {
        [] => crate::tools::staging_dir(&Env::new()),
        [dir] => PathBuf::from(dir),
        _ => return Err("usage: cargo xtask prerender [DIR]".to_owned()),
    };
    apply(&dir.join("index.html"))
}

fn apply(page: &Path) -> Result<(), String> {
    let html = std::fs::read_to_string(page).map_err(|e| format!("{}: {e}", page.display()))?;
    if html.contains("prerendered-plan") {
        return Ok(());
    }
    let at = html
        .rfind(BODY_END)
        .ok_or_else(|| format!("{}: no {BODY_END}", page.display()))?;
    let block = block(presets::presets(), &presets::default_preset().id);
    let written = format!("{}{block}{}", &html[..at], &html[at..]);
    std::fs::write(page, written).map_err(|e| format!("{}: {e}", page.display()))
}

/// The templates of every preset that has one, then the script.
pub fn block(presets: &[Preset], default_id: &str) -> String {
    let mut out = String::new();
    for (id, plan) in presets.iter().filter_map(|p| Some((&p.id, first_plan(p)?))) {
        let _ = write!(
            out,
            "<template data-view=\"{}\">{}</template>",
            attr(id),
            pane(&plan)
        );
    }
    let _ = writeln!(
        out,
        "<script data-default=\"{}\">{}</script>",
        attr(default_id),
        SCRIPT.trim_end()
    );
    out
}

/// The plan the page shows when it opens `preset`, if it shows one at once.
pub fn first_plan(preset: &Preset) -> Option<Plan> {
    let texts = [&preset.desired, &preset.observed, &preset.finalizers];
    if preset.custom_resource_name.is_some()
        || texts.iter().any(|t| detect_format(t) == Format::Yaml)
    {
        return None;
    }
    let scenario = check_scenario(texts[0], texts[1], texts[2]).ok()?;
    let manifest = |resources: &reconcile_core::Resources| {
        ["apiVersion", "kind"]
            .iter()
            .any(|key| resources.get(key).is_some())
    };
    if manifest(&scenario.desired) || manifest(&scenario.observed) {
        return None;
    }
    let plan = plan(
        &scenario.desired,
        &scenario.observed,
        scenario.finalizers.as_ref(),
    );
    let defaulted = plan.actions.iter().any(|explained| {
        let spec = explained.action.spec.as_ref();
        spec.is_some_and(|spec| {
            explained
                .drift
                .iter()
                .any(|d| defaulted_drift(spec, d).is_some())
        })
    });
    (!defaulted && plan.actions.len() <= ITEM_LIMIT).then_some(plan)
}

/// Actions the page lists at most (`ITEM_LIMIT` in action_list.rs): longer plans are left out.
const ITEM_LIMIT: usize = 200;

/// The plan pane, as `ActionList` renders a plan that is neither stale nor concealed.
fn pane(plan: &Plan) -> String {
    let mut out = String::from(
        "<section class=\"pane plan-pane\" aria-labelledby=\"plan-heading\">\
         <p id=\"plan-announcement\" class=\"visually-hidden\" aria-live=\"polite\" aria-atomic=\"true\"></p>\
         <header class=\"pane-header\"><h2 id=\"plan-heading\" tabindex=\"-1\">Plan</h2></header>",
    );
    let _ = write!(
        out,
        "<p id=\"plan-summary\" class=\"summary\">{}</p>",
        text(&plan.summary_text)
    );
    if plan.actions.is_empty() {
        out.push_str("<p class=\"nothing-to-do\">Nothing to do: reconcile returns no actions.</p>");
    }
    out.push_str(
        "<ol class=\"actions\" aria-label=\"Actions\" aria-describedby=\"plan-summary\" data-stale=\"false\">",
    );
    for explained in &plan.actions {
        item(&mut out, explained);
    }
    out.push_str("</ol></section>");
    out
}

fn item(out: &mut String, explained: &ExplainedAction) {
    let action = &explained.action;
    let kind = action.kind.as_str();
    let _ = write!(
        out,
        "<li class=\"action kind-{}\"><div class=\"action-head\">\
         <span class=\"badge\" aria-hidden=\"true\">{}</span><span class=\"kind\">{kind}</span> \
         <code class=\"name\">{}</code></div>",
        kind.to_ascii_lowercase(),
        text(action.kind.symbol()),
        text(&action.name)
    );
    if let Some(spec) = &action.spec {
        let _ = write!(
            out,
            "<code class=\"spec\">{}</code>",
            text(&spec.to_compact_string())
        );
    }
    let _ = write!(
        out,
        "<p class=\"reason\">{}</p>",
        text(&explained.reason.to_string())
    );
    if !explained.drift.is_empty() {
        let _ = write!(
            out,
            "<ul class=\"drift\" aria-label=\"Drift of {}\">",
            attr(&action.name)
        );
        for drift in &explained.drift {
            drift_row(out, drift);
        }
        out.push_str("</ul>");
    }
    out.push_str("</li>");
}

fn drift_row(out: &mut String, drift: &Drift) {
    let show = |value: &Option<Json>| match value {
        Some(value) => value.to_compact_string(),
        None => "(absent)".to_owned(),
    };
    let _ = write!(
        out,
        "<li class=\"drift-row\"><code class=\"drift-path\">{}</code>: \
         <span class=\"drift-observed\" title=\"observed\">{}</span>\
         <span aria-hidden=\"true\"> → </span><span class=\"visually-hidden\"> becomes </span>\
         <span class=\"drift-desired\" title=\"desired\">{}</span></li>",
        text(&drift.path.to_string()),
        text(&show(&drift.observed)),
        text(&show(&drift.desired))
    );
}

/// Text content, escaped.
fn text(raw: &str) -> String {
    raw.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// An attribute's value (in double quotes), escaped.
fn attr(raw: &str) -> String {
    text(raw).replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_view_the_page_plans_at_once_has_a_template() {
        let all = presets::presets();
        let block = block(all, &presets::default_preset().id);
        let shown: Vec<&str> = all
            .iter()
            .filter(|p| first_plan(p).is_some())
            .map(|p| p.id.as_str())
            .collect();
        assert!(
            shown.contains(&presets::default_preset().id.as_str()),
            "{shown:?}"
        );
        for id in &shown {
            assert!(block.contains(&format!("data-view=\"{id}\"")), "{id}");
        }
        assert_eq!(block.matches("<template").count(), shown.len());
        assert!(block.contains("aria-label=\"Actions\""));
    }

    #[test]
    fn names_and_texts_are_escaped() {
        assert_eq!(attr("a\"<b>&"), "a&quot;&lt;b&gt;&amp;");
        assert_eq!(text("x<y"), "x&lt;y");
    }
}
