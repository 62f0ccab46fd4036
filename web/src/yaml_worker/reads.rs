//! Reads of the editors' documents by the YAML worker: one at a time, each
//! sent as what changed since the texts the worker read last, and answered
//! the same way (a document that reads as before comes back `null`), so a
//! keystroke in a large document sends and parses one small change, not
//! the whole documents.

use std::cell::RefCell;
use std::rc::Rc;

use reconcile_core::Format;
use wasm_bindgen::prelude::*;
use yew::AttrValue;

use super::{call, no_answer, Answer, Unavailable};
use crate::state::{same_text, ReadDocuments, YamlReply};

/// What a read's caller is told: the reply, or `None` when a newer read
/// took its place before it was sent.
type Done = Box<dyn FnOnce(Result<Option<YamlReply>, Unavailable>)>;

struct Read {
    formats: [Format; 3],
    /// Desired, observed, finalizers.
    texts: [AttrValue; 3],
    done: Done,
}

#[derive(Default)]
struct Reads {
    /// A read is out: the next waits.
    out: bool,
    /// The newest read asked for while one was out.
    waiting: Option<Read>,
    /// The texts of the worker's last read, while the worker has them (a
    /// failed call may have lost them with the worker).
    sent: Option<[AttrValue; 3]>,
    /// The desired and observed JSON texts of the worker's last answer: it
    /// answers `null` for a document that reads as it did then.
    answered: [Option<Rc<str>>; 2],
}

thread_local! {
    static READS: RefCell<Reads> = RefCell::default();
}

/// Has the three documents read in their formats and calls `done` with
/// the reply. One read at a time: a read asked for while one is out waits,
/// and a newer one replaces it (its `done` gets `None`), so typing never
/// queues reads.
pub fn read(
    formats: [Format; 3],
    texts: [AttrValue; 3],
    done: impl FnOnce(Result<Option<YamlReply>, Unavailable>) + 'static,
) {
    let read = Read {
        formats,
        texts,
        done: Box::new(done),
    };
    let (now, replaced) = READS.with_borrow_mut(|reads| match reads.out {
        true => (None, reads.waiting.replace(read)),
        false => {
            reads.out = true;
            (Some(read), None)
        }
    });
    if let Some(replaced) = replaced {
        (replaced.done)(Ok(None));
    }
    if let Some(read) = now {
        wasm_bindgen_futures::spawn_local(send_in_turn(read));
    }
}

/// Sends `read`, then each read that waited meanwhile, until none waits.
async fn send_in_turn(mut read: Read) {
    loop {
        let changes = READS.with_borrow(|reads| changes(reads.sent.as_ref(), &read.texts));
        let reply = send(read.formats, changes).await;
        let next = READS.with_borrow_mut(|reads| {
            reads.sent = reply.is_ok().then(|| read.texts.clone());
            let next = reads.waiting.take();
            reads.out = next.is_some();
            next
        });
        (read.done)(reply.map(Some));
        match next {
            Some(next) => read = next,
            None => return,
        }
    }
}

/// Each text as the worker takes it: `null` when it has it already, else
/// `[from, to, insert]` (bytes `from..to` of the text it has replaced by
/// `insert`), or the whole text when it has none.
fn changes(sent: Option<&[AttrValue; 3]>, texts: &[AttrValue; 3]) -> [JsValue; 3] {
    std::array::from_fn(|at| match sent.map(|sent| &sent[at]) {
        None => JsValue::from_str(&texts[at]),
        Some(old) if same_text(old, &texts[at]) => JsValue::NULL,
        Some(old) => {
            let (from, to, insert) = splice(old, &texts[at]);
            let parts = [from.into(), to.into(), JsValue::from_str(insert)];
            js_sys::Array::from_iter(parts).into()
        }
    })
}

/// `old` to `new` as one replaced range: bytes `from..to` of `old` become
/// `insert`, on character boundaries.
pub fn splice<'a>(old: &str, new: &'a str) -> (u32, u32, &'a str) {
    let (a, b) = (old.as_bytes(), new.as_bytes());
    let mut from = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let room = a.len().min(b.len()) - from;
    let suffix = a
        .iter()
        .rev()
        .zip(b.iter().rev())
        .take(room)
        .take_while(|(x, y)| x == y)
        .count();
    let (mut to, mut new_to) = (a.len() - suffix, b.len() - suffix);
    while !(old.is_char_boundary(from) && new.is_char_boundary(from)) {
        from -= 1;
    }
    while !(old.is_char_boundary(to) && new.is_char_boundary(new_to)) {
        (to, new_to) = (to + 1, new_to + 1);
    }
    let offset = |at: usize| u32::try_from(at).unwrap_or(u32::MAX);
    (offset(from), offset(to), &new[from..new_to])
}

/// One read by the worker.
async fn send(formats: [Format; 3], changes: [JsValue; 3]) -> Result<YamlReply, Unavailable> {
    let formats = serde_json::to_string(&formats).unwrap_or_default();
    let [desired, observed, finalizers] = changes;
    match call("read", &[formats.into(), desired, observed, finalizers]).await? {
        Answer::Ok(read) => {
            let field = |name: &str| js_sys::Reflect::get(&read, &name.into()).ok();
            let text = |name: &str| field(name).and_then(|v| v.as_string());
            // Taken first, whatever follows: the worker counts on it.
            let resources =
                remember_answer(["desired", "observed"].map(|name| text(name).map(Rc::from)))?;
            let terminating =
                reconcile_protocol::yaml::names_from_json(&text("terminating").unwrap_or_default())
                    .map_err(|error| Unavailable(error.to_string()))?;
            Ok(YamlReply::Scenario(ReadDocuments {
                resources,
                finalizers: text("finalizers").unwrap_or_default(),
                terminating,
            }))
        }
        Answer::Errors(errors) => Ok(YamlReply::Errors(errors)),
    }
}

/// The answer's desired and observed texts, a `None` ("as before") taken
/// from the last answer, which the answer then becomes.
fn remember_answer(texts: [Option<Rc<str>>; 2]) -> Result<[Rc<str>; 2], Unavailable> {
    READS.with_borrow_mut(|reads| {
        for (slot, text) in reads.answered.iter_mut().zip(texts) {
            if let Some(text) = text {
                *slot = Some(text);
            }
        }
        match &reads.answered {
            [Some(desired), Some(observed)] => Ok([Rc::clone(desired), Rc::clone(observed)]),
            _ => Err(no_answer()),
        }
    })
}
