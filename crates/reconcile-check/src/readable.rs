//! Characters a counterexample cannot show as they are: invisible ones, and
//! ones easy to take for another. This is the one place that decides which;
//! every view of a counterexample shows them escaped (`\uE000`), with a note.

use std::borrow::Cow;

/// Why `c` is hard to see, or `None` when it shows as itself. `after_base`
/// says whether a visible character comes just before it, which a combining
/// mark needs to show.
pub fn hard_to_see(c: char, after_base: bool) -> Option<&'static str> {
    let code = u32::from(c);
    Some(match code {
        // Tabs and line ends lay out the documents; JSON escapes them in names.
        0x09 | 0x0A | 0x0D => return None,
        0x00..=0x1F | 0x7F..=0x9F => "a control character",
        0xE000..=0xF8FF | 0xF_0000..=0xF_FFFD | 0x10_0000..=0x10_FFFD => {
            "a private-use character, which shows as an empty box or nothing"
        }
        0x200B..=0x200D | 0x2060..=0x2064 | 0xFEFF | 0x00AD | 0x034F | 0x180E => {
            "an invisible character"
        }
        0x200E | 0x200F | 0x061C | 0x202A..=0x202E | 0x2066..=0x2069 => {
            "a bidi control, which reorders the text around it"
        }
        0x00A0 | 0x1680 | 0x2000..=0x200A | 0x202F | 0x205F | 0x3000 => {
            "a space that is not U+0020"
        }
        0xFE00..=0xFE0F | 0xE_0100..=0xE_01EF => "a variation selector",
        0xE_0000..=0xE_007F => "an invisible tag character",
        0xFFF0..=0xFFFF => "a special or noncharacter code point",
        0x0300..=0x036F | 0x1AB0..=0x1AFF | 0x1DC0..=0x1DFF | 0x20D0..=0x20FF | 0xFE20..=0xFE2F
            if !after_base =>
        {
            "a combining mark with no letter to sit on"
        }
        _ => return None,
    })
}

/// Cyrillic and Greek letters drawn like Latin ones: easy to confuse in a
/// name that also has Latin letters.
fn looks_latin(c: char) -> bool {
    matches!(
        c,
        'а' | 'е'
            | 'о'
            | 'р'
            | 'с'
            | 'у'
            | 'х'
            | 'і'
            | 'ј'
            | 'ѕ'
            | 'А'
            | 'В'
            | 'Е'
            | 'К'
            | 'М'
            | 'Н'
            | 'О'
            | 'Р'
            | 'С'
            | 'Т'
            | 'Х'
            | 'ο'
            | 'Α'
            | 'Β'
            | 'Ε'
            | 'Ζ'
            | 'Η'
            | 'Ι'
            | 'Κ'
            | 'Μ'
            | 'Ν'
            | 'Ο'
            | 'Ρ'
            | 'Τ'
            | 'Υ'
            | 'Χ'
    )
}

/// The character as an escape: `\uE000` within the BMP, `\u{F0000}` beyond.
pub fn escape_char(c: char) -> String {
    let code = u32::from(c);
    if code <= 0xFFFF {
        format!("\\u{code:04X}")
    } else {
        format!("\\u{{{code:X}}}")
    }
}

/// `text` with each character that is hard to see escaped, and what each
/// escaped character is, in order of first appearance.
pub fn readable(text: &str) -> (Cow<'_, str>, Vec<(String, &'static str)>) {
    let mixed = text.chars().any(|c| c.is_ascii_alphabetic());
    let mut found: Vec<(String, &'static str)> = Vec::new();
    let mut out = String::new();
    let mut after_base = false;
    let mut changed = false;
    for c in text.chars() {
        let why = hard_to_see(c, after_base).or_else(|| {
            (mixed && looks_latin(c)).then_some("a Cyrillic or Greek letter that looks Latin")
        });
        match why {
            Some(why) => {
                let escaped = escape_char(c);
                out.push_str(&escaped);
                if !found.iter().any(|(e, _)| *e == escaped) {
                    found.push((escaped, why));
                }
                changed = true;
                after_base = false;
            }
            None => {
                out.push(c);
                after_base = !c.is_whitespace() && c != '"';
            }
        }
    }
    if changed {
        (Cow::Owned(out), found)
    } else {
        (Cow::Borrowed(text), found)
    }
}

/// The note that goes with escaped characters: each one and what it is.
pub fn escapes_note(found: &[(String, &'static str)]) -> Option<String> {
    if found.is_empty() {
        return None;
    }
    let each: Vec<String> = found
        .iter()
        .map(|(escaped, why)| format!("{escaped} is {why}"))
        .collect();
    Some(format!(
        "Some names or specs hold characters that are invisible or easy to confuse, shown \
         escaped: {}.",
        each.join("; ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invisible_and_confusable_characters_are_escaped_and_the_rest_is_not() {
        let (text, found) = readable("\u{E000}");
        assert_eq!(text, "\\uE000");
        assert!(found[0].1.contains("private-use"));
        for (raw, shown) in [
            ("a\u{200B}b", "a\\u200Bb"),
            ("\u{202E}abc", "\\u202Eabc"),
            ("web\u{00A0}1", "web\\u00A01"),
            ("\u{0301}", "\\u0301"),
            ("\u{F0000}", "\\u{F0000}"),
            ("\"\u{0301}\"", "\"\\u0301\""),
            // A Cyrillic а among Latin letters.
            ("b\u{0430}d", "b\\u0430d"),
        ] {
            assert_eq!(readable(raw).0, shown, "{raw:?}");
        }
        // Visible characters stay: accents on a letter, emoji, Cyrillic alone.
        for visible in [
            "a",
            "é",
            "e\u{0301}",
            "🚀",
            "сервер",
            "web-1",
            "",
            "a b",
            "{\n  \"a\": 1\n}",
        ] {
            let (text, found) = readable(visible);
            assert!(matches!(text, Cow::Borrowed(_)), "{visible:?}");
            assert!(found.is_empty(), "{visible:?}");
        }
    }

    #[test]
    fn the_note_says_what_each_escaped_character_is_once() {
        let (_, found) = readable("\u{E000}-\u{E000}-\u{200B}");
        let note = escapes_note(&found).expect("a note");
        assert_eq!(note.matches("\\uE000").count(), 1, "{note}");
        assert!(note.contains("\\u200B is an invisible character"), "{note}");
        assert_eq!(escapes_note(&[]), None);
    }
}
