//! Share links and autosaves. The first byte picks what the rest is:
//! - 0: the link text itself (`#v1/...` or anything else);
//! - 1: deflate data, wrapped into a `#v1/` link (reaches the inflater);
//! - 2: JSON text, compressed and wrapped into a `#v1/` link (reaches the
//!   state's deserializer), and read as an autosave too.
//!
//! Decoding must return a state or a `ShareError` with a sentence, never
//! panic; a decoded state must encode and decode back to itself.

#![no_main]

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use libfuzzer_sys::fuzz_target;
use reconcile_content::share::{self, SharedState};

fuzz_target!(|data: &[u8]| {
    let Some((&mode, payload)) = data.split_first() else {
        return;
    };
    match mode % 3 {
        0 => {
            check_link(&String::from_utf8_lossy(payload));
        }
        1 => {
            check_link(&link_for(payload));
        }
        _ => {
            let text = String::from_utf8_lossy(payload);
            // Compression level from the data too: every level must inflate the same.
            let level = payload.first().map_or(6, |b| b % 11);
            let compressed = miniz_oxide::deflate::compress_to_vec(text.as_bytes(), level);
            let decoded = check_link(&link_for(&compressed));
            // A link and an autosave of the same JSON read the same state.
            assert_eq!(
                decoded,
                share::from_autosave(&text),
                "link and autosave disagree on {text:?}"
            );
        }
    }
});

fn link_for(compressed: &[u8]) -> String {
    format!("#{}/{}", share::VERSION, URL_SAFE_NO_PAD.encode(compressed))
}

/// Decodes `link` and checks the result; returns the state, if any.
fn check_link(link: &str) -> Option<SharedState> {
    match share::decode(link).map(|opened| opened.state) {
        Ok(state) => {
            check_round_trips(&state);
            Some(state)
        }
        Err(error) => {
            let sentence = error.to_string();
            // The page adds what it does instead ("the default scenario is loaded").
            assert!(
                sentence.starts_with("This link") && !sentence.ends_with('.'),
                "{sentence:?}"
            );
            None
        }
    }
}

fn check_round_trips(state: &SharedState) {
    let link = share::encode(state);
    let version = if state.is_several() { "#v3/" } else { "#v2/" };
    assert!(link.starts_with(version), "{link}");
    let opened = share::decode(&link).expect("its own link opens");
    assert_eq!(&opened.state, state, "state changed through its link");
    assert_eq!(opened.note, None, "this build's link needs no note");
    // Without the leading '#', as `location.hash` may be handed over.
    assert_eq!(share::decode(&link[1..]), Ok(opened));
    assert_eq!(
        share::from_autosave(&share::to_autosave(state)).as_ref(),
        Some(state),
        "state changed through its autosave"
    );
}
