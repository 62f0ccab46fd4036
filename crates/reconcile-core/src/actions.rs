//! Reading an action list that came from outside: the result of a reconcile
//! someone else wrote (a learner's function in a worker, a course page).
//!
//! Guarantees:
//! - The one reader of action lists. It accepts exactly what [`Action`]'s
//!   serialization writes: an array of `[kind, name, spec]`, where kind is
//!   one of the contract's four words, name is a string, and spec is any JSON
//!   value for CREATE and UPDATE and `null` for FINALIZE and DELETE.
//! - Every error is an [`InputError`] of [`Document::Actions`] with its line,
//!   column and JSON path (`$[2][0]`), through the same driver as the three
//!   documents, so it reads like an editor's error.
//!
//! Caveats:
//! - A well-formed list may still break the contract (a CREATE of a name that
//!   exists, actions out of order). That is not this reader's business: the
//!   simulation sends such actions, and the API server answers them.

use std::fmt;
use std::sync::Arc;

use serde::de::{self, MapAccess, SeqAccess, Visitor};

use crate::json::{self, Json};
use crate::parse::{reject_other_types, run, wrong_type, Ctx, DocumentSeed, WithCtx};
use crate::parse::{Document, ErrorKind, InputError, ACTIONS_EXPECTED};
use crate::path::Segment;
use crate::reconcile::{Action, ActionKind};

const ACTION_EXPECTED: &str = "an action: an array [kind, name, spec]";
const NAME_EXPECTED: &str = "a resource name (a string)";
/// The contract's four words, in [`ActionKind::ALL`]'s order (a test checks).
const KINDS_EXPECTED: &str = r#""CREATE", "UPDATE", "FINALIZE" or "DELETE""#;

/// Reads an action list, such as `[["CREATE","a",{"replicas":1}],["DELETE","c",null]]`.
pub fn parse_actions(text: &str) -> Result<Vec<Action>, InputError> {
    run(Document::Actions, text, ActionsSeed)
}

struct ActionsSeed;

impl DocumentSeed for ActionsSeed {
    type Value = Vec<Action>;
    fn deserialize_with<'de, D: de::Deserializer<'de>>(
        self,
        ctx: &Ctx,
        deserializer: D,
    ) -> Result<Vec<Action>, D::Error> {
        deserializer.deserialize_any(ActionsVisitor { ctx })
    }
}

struct ActionsVisitor<'c> {
    ctx: &'c Ctx,
}

impl<'de> Visitor<'de> for ActionsVisitor<'_> {
    type Value = Vec<Action>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(ACTIONS_EXPECTED)
    }

    reject_other_types!(ACTIONS_EXPECTED; unit, bool, number, str, map);

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<Action>, A::Error> {
        let mut actions = Vec::new();
        loop {
            let seed = WithCtx {
                ctx: self.ctx,
                seed: ActionSeed,
            };
            match seq.next_element_seed(seed) {
                Ok(Some(action)) => actions.push(action),
                Ok(None) => return Ok(actions),
                Err(error) => {
                    self.ctx.note_segment(Segment::Index(actions.len()));
                    return Err(error);
                }
            }
        }
    }
}

struct ActionSeed;

impl DocumentSeed for ActionSeed {
    type Value = Action;
    fn deserialize_with<'de, D: de::Deserializer<'de>>(
        self,
        ctx: &Ctx,
        deserializer: D,
    ) -> Result<Action, D::Error> {
        deserializer.deserialize_any(ActionVisitor { ctx })
    }
}

struct ActionVisitor<'c> {
    ctx: &'c Ctx,
}

impl ActionVisitor<'_> {
    /// The element at `index`, or an error that says how many there were.
    fn element<'de, A: SeqAccess<'de>, T>(
        &self,
        seq: &mut A,
        index: usize,
        seed: impl de::DeserializeSeed<'de, Value = T>,
    ) -> Result<T, A::Error> {
        match seq.next_element_seed(seed) {
            Ok(Some(value)) => Ok(value),
            Ok(None) => Err(self.ctx.fail(
                ErrorKind::Shape,
                format!("expected 3 elements [kind, name, spec], found {index}"),
            )),
            Err(error) => {
                self.ctx.note_segment(Segment::Index(index));
                Err(error)
            }
        }
    }
}

impl<'de> Visitor<'de> for ActionVisitor<'_> {
    type Value = Action;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(ACTION_EXPECTED)
    }

    reject_other_types!(ACTION_EXPECTED; unit, bool, number, str, map);

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Action, A::Error> {
        let kind = self.element(&mut seq, 0, KindSeed { ctx: self.ctx })?;
        let name = self.element(&mut seq, 1, NameSeed { ctx: self.ctx })?;
        let spec = self.element(&mut seq, 2, self.ctx.value())?;
        let spec = match (kind, spec) {
            (ActionKind::Create | ActionKind::Update, spec) => Some(spec),
            (ActionKind::Finalize | ActionKind::Delete, Json::Null) => None,
            (kind, _) => {
                self.ctx.note_segment(Segment::Index(2));
                return Err(self.ctx.fail(
                    ErrorKind::Shape,
                    format!("{kind} takes no spec; expected null"),
                ));
            }
        };
        if seq.next_element::<de::IgnoredAny>()?.is_some() {
            self.ctx.note_segment(Segment::Index(3));
            return Err(self.ctx.fail(
                ErrorKind::Shape,
                "expected 3 elements [kind, name, spec], found more",
            ));
        }
        Ok(Action { kind, name, spec })
    }
}

/// One of the contract's four words.
struct KindSeed<'c> {
    ctx: &'c Ctx,
}

impl<'de> de::DeserializeSeed<'de> for KindSeed<'_> {
    type Value = ActionKind;
    fn deserialize<D: de::Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<ActionKind, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for KindSeed<'_> {
    type Value = ActionKind;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an action kind")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<ActionKind, E> {
        ActionKind::ALL
            .into_iter()
            .find(|kind| kind.as_str() == v)
            .ok_or_else(|| {
                self.ctx.fail(
                    ErrorKind::Shape,
                    format!("expected {KINDS_EXPECTED}, found {}", json::quoted(v)),
                )
            })
    }

    reject_other_types!(KINDS_EXPECTED; unit, bool, number, seq, map);
}

/// A resource name, read straight into shared storage.
struct NameSeed<'c> {
    ctx: &'c Ctx,
}

impl<'de> de::DeserializeSeed<'de> for NameSeed<'_> {
    type Value = Arc<str>;
    fn deserialize<D: de::Deserializer<'de>>(self, deserializer: D) -> Result<Arc<str>, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for NameSeed<'_> {
    type Value = Arc<str>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(NAME_EXPECTED)
    }

    reject_other_types!(NAME_EXPECTED; unit, bool, number, seq, map);

    fn visit_str<E>(self, v: &str) -> Result<Arc<str>, E> {
        Ok(Arc::from(v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(text: &str) -> InputError {
        parse_actions(text).expect_err("should fail")
    }

    #[test]
    fn reads_what_actions_serialize_to() {
        let actions = vec![
            Action::create("a", Json::Null),
            Action::update(
                "b",
                Json::object(vec![("replicas".into(), Json::string("2"))]),
            ),
            Action::finalize("c"),
            Action::delete("d"),
        ];
        let text = serde_json::to_string(&actions).expect("serializes");
        assert_eq!(parse_actions(&text), Ok(actions));
        assert_eq!(parse_actions("[]"), Ok(Vec::new()));
    }

    #[test]
    fn a_wrong_kind_names_the_four_words_and_its_place() {
        let error = error("[\n  [\"CREATE\", \"a\", 1],\n  [\"CREAT\", \"b\", 2]\n]");
        assert_eq!(error.document, Document::Actions);
        assert_eq!(error.kind, ErrorKind::Shape);
        assert_eq!(error.path.to_string(), "$[1][0]");
        assert_eq!(error.line, 3);
        assert_eq!(
            error.message,
            r#"expected "CREATE", "UPDATE", "FINALIZE" or "DELETE", found "CREAT""#
        );
        assert!(error.to_string().starts_with("Returned actions: line 3"));
    }

    #[test]
    fn the_kinds_expected_are_the_contracts_four_words() {
        let quoted: Vec<String> = ActionKind::ALL
            .iter()
            .map(|k| json::quoted(k.as_str()))
            .collect();
        assert_eq!(
            KINDS_EXPECTED,
            format!("{} or {}", quoted[..3].join(", "), quoted[3])
        );
    }

    #[test]
    fn finalize_and_delete_take_null_and_nothing_else() {
        let error = error(r#"[["DELETE","c",{"replicas":1}]]"#);
        assert_eq!(error.path.to_string(), "$[0][2]");
        assert_eq!(error.message, "DELETE takes no spec; expected null");
        // CREATE and UPDATE take any value, null included: specs may be null.
        assert_eq!(
            parse_actions(r#"[["UPDATE","c",null]]"#),
            Ok(vec![Action::update("c", Json::Null)])
        );
    }

    #[test]
    fn an_action_has_exactly_three_elements() {
        let short = error(r#"[["DELETE","c"]]"#);
        assert_eq!(short.path.to_string(), "$[0]");
        assert_eq!(
            short.message,
            "expected 3 elements [kind, name, spec], found 2"
        );
        let long = error(r#"[["DELETE","c",null,1]]"#);
        assert_eq!(long.path.to_string(), "$[0][3]");
        assert!(long.message.ends_with("found more"), "{long}");
    }

    #[test]
    fn wrong_types_say_what_was_expected() {
        let top = error(r#"{"CREATE": "a"}"#);
        assert_eq!(top.path.to_string(), "$");
        assert_eq!(
            top.message,
            format!("expected {ACTIONS_EXPECTED}, found an object")
        );
        let name = error(r#"[["CREATE", 7, {}]]"#);
        assert_eq!(name.path.to_string(), "$[0][1]");
        assert_eq!(
            name.message,
            format!("expected {NAME_EXPECTED}, found a number")
        );
        let action = error(r#"["CREATE"]"#);
        assert_eq!(action.path.to_string(), "$[0]");
        assert_eq!(
            action.message,
            format!("expected {ACTION_EXPECTED}, found a string")
        );
        let syntax = error(r#"[["CREATE", "a", {]]"#);
        assert_eq!(syntax.kind, ErrorKind::Syntax);
        assert_eq!(syntax.path.to_string(), "$[0][2]");
    }
}
