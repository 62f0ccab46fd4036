//! Why each action is in the plan: reasons, field-level drift and the summary line.

use std::borrow::Cow;
use std::fmt;

use serde::Serialize;

use crate::json::Json;
use crate::model::{Finalizers, Resources};
use crate::path::JsonPath;
use crate::reconcile::{reconcile, Action, ActionKind};

/// Why `reconcile` chose an action. Each variant maps to one rule of the contract.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(
    tag = "rule",
    rename_all = "kebab-case",
    rename_all_fields = "camelCase"
)]
pub enum Reason {
    /// CREATE: desired, but not observed.
    NotObserved,
    /// UPDATE: observed spec differs from the desired spec in `fields` places.
    Drifted { fields: usize },
    /// FINALIZE: no longer desired, but these finalizers are still pending.
    FinalizersPending { finalizers: Vec<String> },
    /// DELETE: no longer desired and nothing pending. `had_entry` tells an
    /// empty finalizer list apart from no entry at all.
    NoFinalizersPending { had_entry: bool },
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reason::NotObserved => f.write_str("desired but not observed"),
            Reason::Drifted { fields: 1 } => {
                f.write_str("observed spec differs from desired in 1 field")
            }
            Reason::Drifted { fields } => {
                write!(f, "observed spec differs from desired in {fields} fields")
            }
            Reason::FinalizersPending { finalizers } => {
                f.write_str("no longer desired, but finalizers are pending: ")?;
                for (i, finalizer) in finalizers.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    f.write_str(&display_name(finalizer))?;
                }
                Ok(())
            }
            Reason::NoFinalizersPending { had_entry: true } => {
                f.write_str("no longer desired, and its finalizer list is empty")
            }
            Reason::NoFinalizersPending { had_entry: false } => {
                f.write_str("no longer desired, and it has no finalizers")
            }
        }
    }
}

/// A name as plain text, unless it would break the one-line-per-action layout
/// (a newline or other control character) or vanish (the empty name): those
/// are shown as JSON string literals, e.g. `"a\nb"` and `""`.
fn display_name(name: &str) -> Cow<'_, str> {
    if name.is_empty() || name.chars().any(char::is_control) {
        Cow::Owned(serde_json::to_string(name).unwrap_or_else(|_| name.to_owned()))
    } else {
        Cow::Borrowed(name)
    }
}

/// One field that differs between the observed and the desired spec.
/// `None` means the field is absent on that side.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Drift {
    #[serde(serialize_with = "crate::path::serialize_display")]
    #[cfg_attr(feature = "ts", ts(type = "string"))]
    pub path: JsonPath,
    pub observed: Option<Json>,
    pub desired: Option<Json>,
}

impl fmt::Display for Drift {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let show = |value: &Option<Json>| match value {
            Some(value) => value.to_compact_string(),
            None => "(absent)".to_owned(),
        };
        write!(
            f,
            "{}: {} → {}",
            self.path,
            show(&self.observed),
            show(&self.desired)
        )
    }
}

/// An action with its explanation.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ExplainedAction {
    pub action: Action,
    pub reason: Reason,
    /// Field-level drift; non-empty exactly for UPDATE.
    pub drift: Vec<Drift>,
}

/// Counts per action kind.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Summary {
    pub create: usize,
    pub update: usize,
    pub finalize: usize,
    pub delete: usize,
}

impl Summary {
    pub fn of(actions: &[Action]) -> Self {
        let mut summary = Self::default();
        for action in actions {
            *summary.count_mut(action.kind) += 1;
        }
        summary
    }

    fn count_mut(&mut self, kind: ActionKind) -> &mut usize {
        match kind {
            ActionKind::Create => &mut self.create,
            ActionKind::Update => &mut self.update,
            ActionKind::Finalize => &mut self.finalize,
            ActionKind::Delete => &mut self.delete,
        }
    }

    pub fn count(&self, kind: ActionKind) -> usize {
        match kind {
            ActionKind::Create => self.create,
            ActionKind::Update => self.update,
            ActionKind::Finalize => self.finalize,
            ActionKind::Delete => self.delete,
        }
    }

    pub fn total(&self) -> usize {
        self.create + self.update + self.finalize + self.delete
    }

    pub fn is_converged(&self) -> bool {
        self.total() == 0
    }
}

/// "1 to create, 1 to update, 0 to finalize, 1 to delete", or "Converged: nothing to do".
impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_converged() {
            return f.write_str("Converged: nothing to do");
        }
        write!(
            f,
            "{} to create, {} to update, {} to finalize, {} to delete",
            self.create, self.update, self.finalize, self.delete
        )
    }
}

/// The explained plan: what the UI's action list and the CLI's `--plan` show.
/// Serializes with camelCase fields (`summaryText`), as the JS API returns it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Plan {
    pub actions: Vec<ExplainedAction>,
    pub summary: Summary,
    /// The summary sentence, for consumers that don't format it themselves.
    pub summary_text: String,
}

impl Plan {
    /// The bare contract actions, in order.
    pub fn bare_actions(&self) -> Vec<Action> {
        self.actions.iter().map(|a| a.action.clone()).collect()
    }

    /// One line per action with its symbol (and one indented line per drift),
    /// then the summary line. Names with control characters are quoted so that
    /// each action stays on one line.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for explained in &self.actions {
            let action = &explained.action;
            out.push_str(action.kind.symbol());
            out.push(' ');
            out.push_str(action.kind.as_str());
            out.push(' ');
            out.push_str(&display_name(&action.name));
            if let Some(spec) = &action.spec {
                out.push(' ');
                out.push_str(&spec.to_compact_string());
            }
            out.push_str("  # ");
            out.push_str(&explained.reason.to_string());
            out.push('\n');
            for drift in &explained.drift {
                out.push_str("    ");
                out.push_str(&drift.to_string());
                out.push('\n');
            }
        }
        out.push_str(&self.summary_text);
        out.push('\n');
        out
    }
}

/// Runs [`reconcile`] and explains every action it returns.
pub fn plan(desired: &Resources, observed: &Resources, finalizers: Option<&Finalizers>) -> Plan {
    let actions = reconcile(desired, observed, finalizers);
    let summary = Summary::of(&actions);
    let actions = actions
        .into_iter()
        .map(|action| explain(action, observed, finalizers))
        .collect();
    Plan {
        actions,
        summary,
        summary_text: summary.to_string(),
    }
}

fn explain(
    action: Action,
    observed: &Resources,
    finalizers: Option<&Finalizers>,
) -> ExplainedAction {
    let (reason, drift) = match action.kind {
        ActionKind::Create => (Reason::NotObserved, Vec::new()),
        ActionKind::Update => {
            let drift = match (observed.get(&action.name), &action.spec) {
                (Some(observed_spec), Some(desired_spec)) => diff(observed_spec, desired_spec),
                _ => Vec::new(),
            };
            (
                Reason::Drifted {
                    fields: drift.len(),
                },
                drift,
            )
        }
        ActionKind::Finalize => {
            let pending = finalizers
                .map(|f| f.pending(&action.name).to_vec())
                .unwrap_or_default();
            (
                Reason::FinalizersPending {
                    finalizers: pending,
                },
                Vec::new(),
            )
        }
        ActionKind::Delete => {
            let had_entry = finalizers.is_some_and(|f| f.has_entry(&action.name));
            (Reason::NoFinalizersPending { had_entry }, Vec::new())
        }
    };
    ExplainedAction {
        action,
        reason,
        drift,
    }
}

/// Field-level differences from `observed` to `desired`, in desired's member order
/// followed by members only observed. Empty exactly when the two are equal.
pub fn diff(observed: &Json, desired: &Json) -> Vec<Drift> {
    let mut out = Vec::new();
    diff_into(&JsonPath::root(), observed, desired, &mut out);
    out
}

fn diff_into(path: &JsonPath, observed: &Json, desired: &Json, out: &mut Vec<Drift>) {
    if observed == desired {
        return;
    }
    match (observed, desired) {
        (Json::Object(o_members), Json::Object(d_members)) => {
            for (key, d_value) in d_members.iter() {
                let child = path.key(key);
                match observed.get(key) {
                    Some(o_value) => diff_into(&child, o_value, d_value, out),
                    None => out.push(Drift {
                        path: child,
                        observed: None,
                        desired: Some(d_value.clone()),
                    }),
                }
            }
            for (key, o_value) in o_members.iter() {
                if desired.get(key).is_none() {
                    out.push(Drift {
                        path: path.key(key),
                        observed: Some(o_value.clone()),
                        desired: None,
                    });
                }
            }
        }
        (Json::Array(o_items), Json::Array(d_items)) => {
            for (index, (o_item, d_item)) in o_items.iter().zip(d_items.iter()).enumerate() {
                diff_into(&path.index(index), o_item, d_item, out);
            }
            for (index, d_item) in d_items.iter().enumerate().skip(o_items.len()) {
                out.push(Drift {
                    path: path.index(index),
                    observed: None,
                    desired: Some(d_item.clone()),
                });
            }
            for (index, o_item) in o_items.iter().enumerate().skip(d_items.len()) {
                out.push(Drift {
                    path: path.index(index),
                    observed: Some(o_item.clone()),
                    desired: None,
                });
            }
        }
        _ => out.push(Drift {
            path: path.clone(),
            observed: Some(observed.clone()),
            desired: Some(desired.clone()),
        }),
    }
}
