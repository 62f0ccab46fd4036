//! The fast read of a valid document: one validating pass over the text that
//! records where each resource's name and spec are, without building values.
//!
//! [`crate::parse`]'s precise parser builds every spec and tracks the JSON
//! path of a failure as it goes; most inputs are valid, and most specs are
//! only ever compared, so that work is wasted on them. This pass checks the
//! same rules (JSON syntax, duplicate member names at every depth, nesting,
//! numbers in the `f64` range) and gives back text ranges: specs are parsed
//! later, one at a time, only when something needs their value
//! ([`crate::model::Resources`] does that).
//!
//! Guarantee: when this pass accepts a text, the precise parser accepts it too
//! and builds the same names and specs. It gives up (returns `None`) on every
//! error and on anything it does not check itself (escapes in member names,
//! `\u` escapes of surrogates, objects in specs with more than
//! [`MEMBER_LIMIT`] members, numbers near the edge of the `f64` range,
//! nesting deeper than [`DEPTH_LIMIT`]);
//! the caller then runs the precise parser, which reports the error with its
//! location or reads the unusual input. So this pass changes how fast a valid
//! input is read, never a result.
//!
//! In a scenario whose observed state follows its desired state, an observed
//! spec written exactly as the desired spec of the same name is not read
//! again: the same bytes are the same valid value (see
//! `Scanner::repeats_known_spec`). Most of an in-sync observed state is such
//! repeats, so it costs a comparison of bytes, not a second read.

use std::ops::Range;

/// Deepest nesting this pass reads (the document's own object is level 1);
/// deeper input goes to the precise parser, whose limit is [`crate::parse::MAX_DEPTH`].
const DEPTH_LIMIT: usize = 100;

/// Objects inside specs with more members than this go to the precise parser:
/// this pass checks member names for duplicates by comparing every pair.
const MEMBER_LIMIT: usize = 128;

/// One member of a `{"name": spec}` document: where its name and spec are.
/// Offsets are 32 bits (a larger text goes to the precise parser), which
/// halves what a scan of many resources holds.
#[derive(Debug, Clone)]
pub(crate) struct ScannedResource {
    pub name: Range<u32>,
    /// Where the spec's JSON text is; a valid value on its own.
    pub spec: Range<u32>,
    /// Which of the known resources (see [`Scanner::resources`]) has this
    /// name and this spec, byte for byte; [`NOT_KNOWN`] if none.
    pub repeats: u32,
}

/// [`ScannedResource::repeats`] of a resource that repeats no known one.
const NOT_KNOWN: u32 = u32::MAX;

impl ScannedResource {
    /// Where the name is, without its quotes (names with escapes go to the precise parser).
    pub(crate) fn name(&self) -> Range<usize> {
        wide(&self.name)
    }

    /// The position among the known resources of the one this one repeats:
    /// for a scenario's observed resources, the desired resource of the same
    /// name whose spec is written the same.
    pub(crate) fn repeats(&self) -> Option<usize> {
        (self.repeats != NOT_KNOWN).then_some(self.repeats as usize)
    }
}

/// A range of the scan's 32-bit offsets as one to index the text with.
pub(crate) fn wide(range: &Range<u32>) -> Range<usize> {
    range.start as usize..range.end as usize
}

/// The members of a `{"name": spec}` document, in document order.
#[derive(Debug, Default)]
pub(crate) struct ScannedResources {
    pub members: Vec<ScannedResource>,
    /// Whether the names strictly increase (so they are sorted and unique);
    /// otherwise whoever sorts them must also reject a repeated name.
    pub sorted: bool,
}

/// A scenario `{"desired": …, "observed": …, "finalizers": …}`.
#[derive(Debug)]
pub(crate) struct ScannedScenario {
    pub desired: ScannedResources,
    pub observed: ScannedResources,
    /// Where the finalizers value is, when the member is present (it may be `null`).
    /// Its shape is not checked here: parse it with the finalizers parser.
    pub finalizers: Option<Range<usize>>,
}

/// Reads a desired or observed document, or gives up.
pub(crate) fn resources(text: &str) -> Option<ScannedResources> {
    let mut scanner = Scanner::new(text);
    scanner.skip_whitespace();
    let resources = scanner.resources(1, &[])?;
    scanner.end()?;
    Some(resources)
}

/// Reads a scenario document, or gives up.
pub(crate) fn scenario(text: &str) -> Option<ScannedScenario> {
    let mut scanner = Scanner::new(text);
    scanner.skip_whitespace();
    scanner.expect(b'{')?;
    let (mut desired, mut observed, mut finalizers) = (None, None, None);
    scanner.skip_whitespace();
    if scanner.peek()? != b'}' {
        loop {
            let key = scanner.plain_string()?;
            scanner.skip_whitespace();
            scanner.expect(b':')?;
            scanner.skip_whitespace();
            // A repeated or unknown member is an error for the precise parser to report.
            match &text.as_bytes()[key] {
                b"desired" if desired.is_none() => desired = Some(scanner.resources(2, &[])?),
                b"observed" if observed.is_none() => {
                    // Observed specs mostly repeat desired ones (that is what
                    // in sync means), which need not be read again.
                    let known = match &desired {
                        Some(ScannedResources {
                            members,
                            sorted: true,
                        }) => &members[..],
                        _ => &[],
                    };
                    observed = Some(scanner.resources(2, known)?);
                }
                b"finalizers" if finalizers.is_none() => {
                    // The finalizers parser reads this value again and checks
                    // its names itself; here it only has to be found.
                    scanner.check_names = false;
                    let start = scanner.pos;
                    scanner.value(1)?;
                    finalizers = Some(start..scanner.pos);
                    scanner.check_names = true;
                }
                _ => return None,
            }
            if !scanner.next_member(b'}')? {
                break;
            }
        }
    } else {
        scanner.pos += 1;
    }
    scanner.end()?;
    Some(ScannedScenario {
        desired: desired?,
        observed: observed?,
        finalizers,
    })
}

/// Whether a byte ends the plain run of a string: the closing quote, an escape, a control character.
#[inline(always)]
fn stops_string(byte: u8) -> bool {
    byte == b'"' || byte == b'\\' || byte < 0x20
}

/// The same test on eight bytes at once (SWAR): the lowest flagged byte of the
/// result is the first that stops the string (flags above it may be spurious).
#[inline(always)]
fn string_stops_in(word: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH_BITS: u64 = 0x8080_8080_8080_8080;
    let zero_bytes = |v: u64| v.wrapping_sub(ONES) & !v;
    let quote = zero_bytes(word ^ (ONES * u64::from(b'"')));
    let backslash = zero_bytes(word ^ (ONES * u64::from(b'\\')));
    let control = word.wrapping_sub(ONES * 0x20) & !word;
    (quote | backslash | control) & HIGH_BITS
}

/// A member name's bit for [`Scanner::object`]'s first duplicate check:
/// equal names have the same bit.
#[inline(always)]
fn name_bit(bytes: &[u8], name: &Range<usize>) -> u64 {
    // An empty name reads its quotes, which are the same for every empty name.
    let first = bytes.get(name.start).copied().unwrap_or(0);
    let last = bytes.get(name.end.wrapping_sub(1)).copied().unwrap_or(0);
    let key = name.len() as u64 ^ u64::from(first) << 32 ^ u64::from(last) << 40;
    // The top six bits of a Fibonacci hash: a bit from 0 to 63.
    1 << (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 58)
}

struct Scanner<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
    /// Member names of the objects being read, innermost last, for the duplicate check.
    names: Vec<Range<usize>>,
    /// Whether objects are checked for repeated member names.
    check_names: bool,
}

impl<'a> Scanner<'a> {
    fn new(text: &'a str) -> Self {
        Self {
            text,
            bytes: text.as_bytes(),
            pos: 0,
            names: Vec::new(),
            check_names: true,
        }
    }

    #[inline(always)]
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    #[inline(always)]
    fn expect(&mut self, byte: u8) -> Option<()> {
        (self.peek()? == byte).then(|| self.pos += 1)
    }

    #[inline(always)]
    fn skip_whitespace(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.pos += 1;
        }
    }

    /// Only whitespace may follow the document's value.
    fn end(&mut self) -> Option<()> {
        self.skip_whitespace();
        (self.pos == self.bytes.len()).then_some(())
    }

    /// After a member or item: `,` (true, whitespace skipped) or `close` (false).
    #[inline(always)]
    fn next_member(&mut self, close: u8) -> Option<bool> {
        self.skip_whitespace();
        match self.peek()? {
            b',' => {
                self.pos += 1;
                self.skip_whitespace();
                Some(true)
            }
            byte if byte == close => {
                self.pos += 1;
                Some(false)
            }
            _ => None,
        }
    }

    /// A string at `pos`: whether it has escapes. Its contents are the bytes
    /// between the old `pos` and the new one, less the quotes.
    fn string(&mut self) -> Option<bool> {
        self.expect(b'"')?;
        let mut escaped = false;
        loop {
            self.skip_plain_string_bytes();
            match self.peek()? {
                b'"' => {
                    self.pos += 1;
                    return Some(escaped);
                }
                b'\\' => {
                    escaped = true;
                    self.escape()?;
                }
                // A raw control character.
                _ => return None,
            }
        }
    }

    /// A string at `pos` that must have no escapes: the range of its contents.
    fn plain_string(&mut self) -> Option<Range<usize>> {
        let start = self.pos + 1;
        let escaped = self.string()?;
        (!escaped).then(|| start..self.pos - 1)
    }

    /// Moves `pos` to the next byte that ends a string's plain run, or to the end.
    #[inline(always)]
    fn skip_plain_string_bytes(&mut self) {
        while let Some(&word) = self
            .bytes
            .get(self.pos..self.pos + 8)
            .and_then(|chunk| <&[u8; 8]>::try_from(chunk).ok())
        {
            let stops = string_stops_in(u64::from_le_bytes(word));
            if stops != 0 {
                self.pos += (stops.trailing_zeros() / 8) as usize;
                return;
            }
            self.pos += 8;
        }
        while self.peek().is_some_and(|byte| !stops_string(byte)) {
            self.pos += 1;
        }
    }

    /// An escape at `pos` (the backslash).
    fn escape(&mut self) -> Option<()> {
        match *self.bytes.get(self.pos + 1)? {
            b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => self.pos += 2,
            b'u' => {
                let hex = self.text.get(self.pos + 2..self.pos + 6)?;
                if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
                    return None;
                }
                let unit = u32::from_str_radix(hex, 16).ok()?;
                // Surrogate pairs (and lone surrogates, which are errors) go to the precise parser.
                if (0xD800..=0xDFFF).contains(&unit) {
                    return None;
                }
                self.pos += 6;
            }
            _ => return None,
        }
        Some(())
    }

    /// Any JSON value at `pos`; `depth` counts the objects and arrays around it.
    fn value(&mut self, depth: usize) -> Option<()> {
        match self.peek()? {
            b'{' => self.object(depth + 1),
            b'[' => self.array(depth + 1),
            b'"' => self.string().map(drop),
            b'-' | b'0'..=b'9' => self.number(),
            b't' => self.literal(b"true"),
            b'f' => self.literal(b"false"),
            b'n' => self.literal(b"null"),
            _ => None,
        }
    }

    #[inline(always)]
    fn literal(&mut self, word: &[u8]) -> Option<()> {
        let end = self.pos + word.len();
        (self.bytes.get(self.pos..end)? == word).then(|| self.pos = end)
    }

    #[inline(always)]
    fn digits(&mut self) -> usize {
        let start = self.pos;
        while let Some(b'0'..=b'9') = self.peek() {
            self.pos += 1;
        }
        self.pos - start
    }

    fn number(&mut self) -> Option<()> {
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        // The decimal exponent of the first significant digit; `None` while every digit is 0.
        let mut magnitude: Option<i64> = None;
        match self.peek()? {
            b'0' => self.pos += 1,
            b'1'..=b'9' => magnitude = Some(self.digits() as i64 - 1),
            _ => return None,
        }
        if self.peek() == Some(b'.') {
            self.pos += 1;
            let fraction = self.pos;
            if self.digits() == 0 {
                return None;
            }
            if magnitude.is_none() {
                // `0.00123`: the first digit that is not 0 sets it.
                let zeros = self.bytes[fraction..self.pos]
                    .iter()
                    .position(|&d| d != b'0');
                magnitude = zeros.map(|zeros| -(zeros as i64) - 1);
            }
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.pos += 1;
            let negative = self.peek() == Some(b'-');
            if let Some(b'+' | b'-') = self.peek() {
                self.pos += 1;
            }
            let exponent = self.pos;
            if self.digits() == 0 {
                return None;
            }
            // Saturating: any larger exponent is as far out of range.
            let exponent = self.bytes[exponent..self.pos]
                .iter()
                .fold(0_i64, |e, &d| (e * 10 + i64::from(d - b'0')).min(1 << 30));
            magnitude = magnitude.map(|m| if negative { m - exponent } else { m + exponent });
        }
        // Below 10^308 a number stays finite however it rounds; from 10^309 on it
        // is infinite, which serde_json rejects ("number out of range"). Zero is
        // always finite. The precise parser decides the band in between.
        match magnitude {
            Some(magnitude) if magnitude > 307 => None,
            _ => Some(()),
        }
    }

    fn array(&mut self, depth: usize) -> Option<()> {
        if depth > DEPTH_LIMIT {
            return None;
        }
        self.pos += 1;
        self.skip_whitespace();
        if self.peek()? == b']' {
            self.pos += 1;
            return Some(());
        }
        loop {
            self.value(depth)?;
            if !self.next_member(b']')? {
                return Some(());
            }
        }
    }

    fn object(&mut self, depth: usize) -> Option<()> {
        if depth > DEPTH_LIMIT {
            return None;
        }
        self.pos += 1;
        self.skip_whitespace();
        if self.peek()? == b'}' {
            self.pos += 1;
            return Some(());
        }
        let first = self.names.len();
        // One bit per name, from its length and its first and last bytes: while
        // no two names share a bit, they are all different, and no pair is compared.
        let (mut seen, mut shared) = (0_u64, false);
        loop {
            // Escaped names would need decoding before they can be compared.
            let name = self.plain_string()?;
            let bit = name_bit(self.bytes, &name);
            shared |= seen & bit != 0;
            seen |= bit;
            self.names.push(name);
            self.skip_whitespace();
            self.expect(b':')?;
            self.skip_whitespace();
            self.value(depth)?;
            if !self.next_member(b'}')? {
                break;
            }
        }
        let unique = !self.check_names
            || (self.names.len() - first <= MEMBER_LIMIT && (!shared || self.names_unique(first)));
        self.names.truncate(first);
        unique.then_some(())
    }

    /// Whether the member names from `first` on are all different.
    fn names_unique(&self, first: usize) -> bool {
        let bytes = self.bytes;
        let names = &self.names[first..];
        names.iter().enumerate().all(|(i, a)| {
            names[i + 1..]
                .iter()
                .all(|b| bytes[a.clone()] != bytes[b.clone()])
        })
    }

    /// A `{"name": spec}` object at `pos`, at nesting `depth`. `known` are
    /// resources read before from the same text at the same depth, sorted by
    /// name: a spec written exactly as the known spec of its name is not read
    /// again (see [`Scanner::repeats_known_spec`]).
    fn resources(&mut self, depth: usize, known: &[ScannedResource]) -> Option<ScannedResources> {
        self.expect(b'{')?;
        let mut members: Vec<ScannedResource> = Vec::new();
        let mut sorted = true;
        self.skip_whitespace();
        if self.peek()? == b'}' {
            self.pos += 1;
            return Some(ScannedResources { members, sorted });
        }
        let bytes = self.bytes;
        let narrow = |range: Range<usize>| {
            Some(u32::try_from(range.start).ok()?..u32::try_from(range.end).ok()?)
        };
        let mut previous: Option<Range<usize>> = None;
        // The known resources from here on have names above the previous one's.
        let mut next_known = 0;
        loop {
            // Escaped names would need decoding; the precise parser reads them.
            let name = self.plain_string()?;
            if let Some(previous) = previous {
                sorted &= bytes[previous] < bytes[name.clone()];
            }
            previous = Some(name.clone());
            self.skip_whitespace();
            self.expect(b':')?;
            self.skip_whitespace();
            let start = self.pos;
            let repeats = self.repeats_known_spec(&name, known, &mut next_known);
            if repeats.is_none() {
                self.value(depth)?;
            }
            members.push(ScannedResource {
                name: narrow(name)?,
                spec: narrow(start..self.pos)?,
                repeats: repeats.unwrap_or(NOT_KNOWN),
            });
            if !self.next_member(b'}')? {
                break;
            }
        }
        Some(ScannedResources { members, sorted })
    }

    /// Which resource of `known` (from `next` on) the text at `pos` repeats:
    /// one named `name` whose spec is written the same, and the member ends
    /// right after it; then `pos` moves past it. A repeat of a valid value is
    /// that valid value: the same bytes pass the same checks (duplicate names,
    /// nesting, number ranges), and the `,` or `}` after it ends it where the
    /// original ended. `known` is in name order, and so are the names asked
    /// for, usually (when they are not, some repeats are read again: slower,
    /// never wrong).
    #[inline(always)]
    fn repeats_known_spec(
        &mut self,
        name: &Range<usize>,
        known: &[ScannedResource],
        next: &mut usize,
    ) -> Option<u32> {
        let bytes = self.bytes;
        let name = &bytes[name.clone()];
        while let Some(candidate) = known.get(*next) {
            match bytes[candidate.name()].cmp(name) {
                std::cmp::Ordering::Less => *next += 1,
                std::cmp::Ordering::Greater => return None,
                std::cmp::Ordering::Equal => {
                    let position = u32::try_from(*next).ok()?;
                    *next += 1;
                    let spec = &bytes[wide(&candidate.spec)];
                    let end = self.pos + spec.len();
                    let mut after = end;
                    while let Some(b' ' | b'\t' | b'\n' | b'\r') = bytes.get(after) {
                        after += 1;
                    }
                    let repeats = bytes.get(self.pos..end) == Some(spec)
                        && matches!(bytes.get(after), Some(b',' | b'}'));
                    if !repeats {
                        return None;
                    }
                    self.pos = end;
                    return Some(position);
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Names and spec texts in name order, as the consumers sort them;
    /// `None` for a repeated name, as they reject it.
    fn names_and_specs(text: &str) -> Option<Vec<(String, String)>> {
        let slice = |range: &Range<usize>| text[range.clone()].to_owned();
        let mut members: Vec<(String, String)> = resources(text)?
            .members
            .iter()
            .map(|r| (slice(&r.name()), slice(&wide(&r.spec))))
            .collect();
        members.sort();
        let unique = members.windows(2).all(|pair| pair[0].0 != pair[1].0);
        unique.then_some(members)
    }

    #[test]
    fn reads_names_and_spec_texts_in_name_order() {
        assert_eq!(
            names_and_specs(r#" { "b" : {"x": [1, 2.5e3, "s"]} , "a":null, "é": -0 } "#),
            Some(
                [
                    ("a", "null"),
                    ("b", r#"{"x": [1, 2.5e3, "s"]}"#),
                    ("é", "-0")
                ]
                .map(|(name, spec)| (name.to_owned(), spec.to_owned()))
                .to_vec()
            )
        );
        assert_eq!(names_and_specs("{}"), Some(vec![]));
        // Names out of order are fine; a repeated one is left to the precise parser.
        assert!(resources(r#"{"b":1,"a":2}"#).is_some_and(|r| !r.sorted));
        assert_eq!(names_and_specs(r#"{"b":1,"a":2,"b":3}"#), None);
    }

    #[test]
    fn numbers_in_range_are_read_and_the_rest_left_to_the_precise_parser() {
        for number in [
            "0",
            "-0",
            "1.5",
            "0.000123",
            "123456789012345678901234567890",
            "9.9e307",
            "1e-400",
            "0e999999999999",
            "0.0e400",
            "-2.5E+10",
        ] {
            assert!(
                resources(&format!(r#"{{"a":{number}}}"#)).is_some(),
                "{number}"
            );
        }
        // 1e308 is finite and 1.8e308 is not: both are left to the precise parser.
        for number in [
            "1e308",
            "1.8e308",
            "1e309",
            "1e99999999999999999999",
            "0.1e310",
        ] {
            assert!(
                resources(&format!(r#"{{"a":{number}}}"#)).is_none(),
                "{number}"
            );
        }
    }

    #[test]
    fn gives_up_on_every_error_and_on_what_it_does_not_check() {
        for text in [
            "",
            "  ",
            "\u{FEFF}{}",
            "[]",
            "null",
            "{",
            "{}x",
            "{} {}",
            r#"{"a":1,}"#,
            r#"{"a":1 "b":2}"#,
            r#"{"a":[1,]}"#,
            r#"{"a":01}"#,
            r#"{"a":1.}"#,
            r#"{"a":.5}"#,
            r#"{"a":1e}"#,
            r#"{"a":1e400}"#,
            r#"{"a":-}"#,
            r#"{"a":tru}"#,
            r#"{"a":nul}"#,
            r#"{"a":"x
"}"#,
            r#"{"a":"\x"}"#,
            r#"{"a":"\u12"}"#,
            r#"{"a":"\ud83d\ude80"}"#,
            r#"{"a":{"k":1,"k":2}}"#,
            r#"{"a":{"k\n":1}}"#,
            r#"{"a":1,"a":2}"#,
            r#"{"b":1,"a":2,"b":3}"#,
            r#"{"a":1,"\u0061":2}"#,
            r#"{"\u00e9":1}"#,
        ] {
            assert!(names_and_specs(text).is_none(), "{text:?}");
        }
        let deep = format!("{{\"a\":{}{}}}", "[".repeat(99), "]".repeat(99));
        assert!(resources(&deep).is_some());
        let deeper = format!("{{\"a\":{}{}}}", "[".repeat(100), "]".repeat(100));
        assert!(resources(&deeper).is_none());
    }

    #[test]
    fn eight_byte_test_finds_the_first_byte_that_ends_a_string() {
        let interesting = [
            0x00, 0x1F, 0x20, b'"', b'\\', b'a', 0x7F, 0x80, 0xA2, 0xDC, 0xFF,
        ];
        let mut seed = 0x1234_5678_9ABC_DEF0_u64;
        for _ in 0..20_000 {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let bytes: [u8; 8] =
                std::array::from_fn(|i| interesting[((seed >> (i * 7)) % 11) as usize]);
            let expected = bytes.iter().position(|&b| stops_string(b));
            let stops = string_stops_in(u64::from_le_bytes(bytes));
            let found = (stops != 0).then(|| (stops.trailing_zeros() / 8) as usize);
            assert_eq!(found, expected, "{bytes:?}");
        }
    }

    #[test]
    fn finds_duplicates_in_large_objects() {
        let members: Vec<String> = (0..128).map(|i| format!("\"k{i}\":{i}")).collect();
        let unique = format!("{{\"a\":{{{}}}}}", members.join(","));
        assert!(resources(&unique).is_some());
        let repeated = format!("{{\"a\":{{{},\"k7\":0}}}}", members.join(","));
        assert!(resources(&repeated).is_none());
        // More members than the pairwise check takes: left to the precise parser.
        let larger = format!("{{\"a\":{{{},\"k999\":0}}}}", members.join(","));
        assert!(resources(&larger).is_none());
    }

    #[test]
    fn reads_scenarios_with_many_finalizer_entries() {
        let entries: Vec<String> = (0..300).map(|i| format!("\"n{i}\":[\"f\"]")).collect();
        let text = format!(
            r#"{{"desired":{{}},"observed":{{}},"finalizers":{{{}}}}}"#,
            entries.join(",")
        );
        assert!(crate::parse::scan_scenario_parts(&text).is_some());
        let repeated = text.replace("\"n7\"", "\"n8\"");
        assert!(crate::parse::scan_scenario_parts(&repeated).is_none());
    }

    #[test]
    fn observed_specs_that_repeat_desired_ones_are_not_read_again() {
        let text = r#"{"desired":{"a":1,"b":[1,2],"c":{"k":"v"}},
                       "observed":{"a":12,"b":[1,2] ,"c":{"k":"v"},"d":1}}"#;
        let scanned = scenario(text).expect("valid");
        let repeats: Vec<Option<usize>> = scanned
            .observed
            .members
            .iter()
            .map(ScannedResource::repeats)
            .collect();
        // `12` starts like `1` but goes on: it is read, not taken for a repeat.
        assert_eq!(repeats, [None, Some(1), Some(2), None]);
        assert_eq!(&text[wide(&scanned.observed.members[0].spec)], "12");
        // A repeat must end its member: here the text goes on, an error.
        assert!(scenario(r#"{"desired":{"a":{"k":1}},"observed":{"a":{"k":1}x}}"#).is_none());
        // Observed before desired, or desired out of order: read, not compared.
        for text in [
            r#"{"observed":{"a":1},"desired":{"a":1}}"#,
            r#"{"desired":{"b":2,"a":1},"observed":{"a":1,"b":2}}"#,
        ] {
            let scanned = scenario(text).expect("valid");
            assert!(scanned
                .observed
                .members
                .iter()
                .all(|m| m.repeats().is_none()));
        }
    }

    #[test]
    fn reads_scenarios() {
        let text = r#"{"observed":{"b":2},"desired":{"a":1},"finalizers":{"b":["f"]}}"#;
        let scanned = scenario(text).expect("valid");
        assert_eq!(scanned.desired.members.len(), 1);
        assert_eq!(&text[wide(&scanned.observed.members[0].spec)], "2");
        assert_eq!(
            scanned.finalizers.map(|range| &text[range]),
            Some(r#"{"b":["f"]}"#)
        );
        for text in [
            r#"{"desired":{}}"#,
            r#"{"desired":{},"observed":{},"other":1}"#,
            r#"{"desired":{},"observed":{},"desired":{}}"#,
            r#"{"desired":[],"observed":{}}"#,
        ] {
            assert!(scenario(text).is_none(), "{text}");
        }
    }

    // -----------------------------------------------------------------------
    // The fast read against the precise parser, on valid and broken texts.

    mod agrees_with_the_precise_parser {
        use proptest::prelude::*;

        use crate::parse::{
            parse_resources, parse_resources_precise, parse_scenario, parse_scenario_precise,
        };
        use crate::{reconcile, reconcile_scenario_json, Document};

        const LEAVES: &[&str] = &[
            "null",
            "true",
            "false",
            "0",
            "-0",
            "7",
            "1.0",
            "1e2",
            "1E+2",
            "-2.5e-3",
            "0.5",
            "123456789012345678",
            "1234567890123456789",
            "18446744073709551616",
            "1e400",
            "-1e-400",
            "1e308",
            "1.8e308",
            "9.9e307",
            "0.0e999",
            r#""a""#,
            r#""""#,
            r#""\u00e9""#,
            r#""\ud83d\ude80""#,
            r#""\ud800""#,
            r#""\n\t\/\\\"""#,
            r#""é🚀""#,
            r#""x\u0000y""#,
        ];
        const KEYS: &[&str] = &[
            r#""a""#,
            r#""b""#,
            r#""é""#,
            r#""""#,
            r#""\u0061""#,
            r#""a b""#,
        ];
        const NAMES: &[&str] = &[
            r#""a""#,
            r#""b""#,
            r#""c""#,
            r#""🚀""#,
            r#""\ue000""#,
            r#""\u0063""#,
        ];
        const SEPARATORS: &[&str] = &[",", ", ", ",\n  ", "\t,\r\n"];
        /// What a mutation may insert: structure, number parts, quotes, escapes, bad bytes.
        const INSERTS: &[&str] = &[
            "{", "}", "[", "]", ",", ":", "\"", "\\", "1", "e", "-", ".", " ", "\u{1}", "x",
            "\u{FEFF}",
        ];

        fn join(items: Vec<String>, separator: &str) -> String {
            items.join(separator)
        }

        fn value() -> impl Strategy<Value = String> {
            let leaf = prop::sample::select(LEAVES).prop_map(str::to_owned);
            leaf.prop_recursive(4, 40, 4, |inner| {
                prop_oneof![
                    (
                        prop::collection::vec(inner.clone(), 0..4),
                        prop::sample::select(SEPARATORS)
                    )
                        .prop_map(|(items, sep)| format!("[{}]", join(items, sep))),
                    (
                        prop::collection::vec((prop::sample::select(KEYS), inner), 0..4),
                        prop::sample::select(SEPARATORS)
                    )
                        .prop_map(|(members, sep)| {
                            let members = members
                                .into_iter()
                                .map(|(k, v)| format!("{k}:{v}"))
                                .collect();
                            format!("{{{}}}", join(members, sep))
                        }),
                ]
            })
        }

        /// ` {name: spec, ...}` and a newline; the names are JSON string literals.
        fn document<'a>(members: impl IntoIterator<Item = (&'a str, String)>, sep: &str) -> String {
            let members = members
                .into_iter()
                .map(|(k, v)| format!("{k}: {v}"))
                .collect();
            format!(" {{{}}}\n", join(members, sep))
        }

        fn resources() -> impl Strategy<Value = String> {
            (
                prop::collection::vec((prop::sample::select(NAMES), value()), 0..5),
                prop::sample::select(SEPARATORS),
            )
                .prop_map(|(members, sep)| document(members, sep))
        }

        /// A document whose names are plain and in order, as the scan compares them.
        fn sorted_resources() -> impl Strategy<Value = String> {
            const PLAIN: &[&str] = &[r#""a""#, r#""b""#, r#""c""#, r#""é""#, r#""🚀""#];
            (
                prop::collection::btree_map(prop::sample::select(PLAIN), value(), 0..5),
                prop::sample::select(SEPARATORS),
            )
                .prop_map(|(members, sep)| document(members, sep))
        }

        fn finalizers() -> impl Strategy<Value = String> {
            prop_oneof![
                Just("null".to_owned()),
                Just(r#"{"a":["f"],"c":[],"🚀":["f","g"]}"#.to_owned()),
                Just(r#"{"a":"f"}"#.to_owned()),
                value(),
            ]
        }

        fn scenario() -> impl Strategy<Value = String> {
            let member = prop_oneof![
                resources().prop_map(|d| format!(r#""desired":{d}"#)),
                resources().prop_map(|o| format!(r#""observed":{o}"#)),
                finalizers().prop_map(|f| format!(r#""finalizers":{f}"#)),
                Just(r#""other":1"#.to_owned()),
            ];
            (
                resources(),
                resources(),
                prop::collection::vec(member, 0..2),
                any::<bool>(),
            )
                .prop_map(|(desired, observed, extra, observed_first)| {
                    let mut members = if observed_first {
                        vec![
                            format!(r#""observed":{observed}"#),
                            format!(r#""desired":{desired}"#),
                        ]
                    } else {
                        vec![
                            format!(r#""desired":{desired}"#),
                            format!(r#""observed":{observed}"#),
                        ]
                    };
                    members.extend(extra);
                    format!("{{{}}}", members.join(","))
                })
        }

        /// `text`, or `text` with one character deleted or inserted somewhere.
        fn mutated(text: impl Strategy<Value = String>) -> impl Strategy<Value = String> {
            (
                text,
                0..3u8,
                any::<prop::sample::Index>(),
                prop::sample::select(INSERTS),
            )
                .prop_map(|(text, kind, at, insert)| {
                    let boundaries: Vec<usize> = text
                        .char_indices()
                        .map(|(i, _)| i)
                        .chain([text.len()])
                        .collect();
                    let at = boundaries[at.index(boundaries.len())];
                    match kind {
                        0 => text,
                        1 => {
                            let end = text[at..].chars().next().map_or(at, |c| at + c.len_utf8());
                            format!("{}{}", &text[..at], &text[end..])
                        }
                        _ => format!("{}{insert}{}", &text[..at], &text[at..]),
                    }
                })
        }

        /// The scan and the precise parser read `text` as the same scenario
        /// (the same export too) or fail with the same error.
        fn agrees_on_scenario(text: &str) -> Result<(), TestCaseError> {
            let precise = parse_scenario_precise(text);
            let fast = parse_scenario(text);
            match (&fast, &precise) {
                (Ok(fast), Ok(precise)) => {
                    prop_assert_eq!(fast, precise);
                    prop_assert_eq!(
                        crate::export_scenario(fast),
                        crate::export_scenario(precise)
                    );
                }
                _ => prop_assert_eq!(&fast, &precise),
            }
            // The action list from the one read path agrees with the precise parser's.
            let expected = precise.map(|s| {
                serde_json::to_string(&reconcile(&s.desired, &s.observed, s.finalizers.as_ref()))
                    .unwrap_or_default()
            });
            prop_assert_eq!(reconcile_scenario_json(text), expected);
            Ok(())
        }

        proptest! {
            #![proptest_config(ProptestConfig { cases: 2_000, failure_persistence: None, ..ProptestConfig::default() })]

            #[test]
            fn resources_documents(text in mutated(resources())) {
                let precise = parse_resources_precise(&text);
                let accepted = super::super::resources(&text)
                    .and_then(|scanned| crate::Resources::from_scanned(text.clone(), [scanned, Default::default()]).ok());
                if accepted.is_some() {
                    prop_assert!(precise.is_ok(), "accepted what the precise parser rejects: {:?}", precise);
                }
                let fast = parse_resources(Document::Desired, &text);
                match (&fast, &precise) {
                    (Ok(fast), Ok(precise)) => {
                        prop_assert_eq!(fast, precise);
                        // Same values, and the same spelling of every number when printed.
                        prop_assert_eq!(fast.to_json_string(), precise.to_json_string());
                    }
                    _ => prop_assert_eq!(fast, precise),
                }
            }

            #[test]
            fn scenario_documents(text in mutated(scenario())) {
                agrees_on_scenario(&text)?;
            }

            /// Observed mostly as desired, as when in sync: the specs the scan
            /// takes as repeats of desired ones, and the edits that are not.
            #[test]
            fn scenarios_whose_observed_repeats_desired(
                (desired, observed) in sorted_resources().prop_flat_map(|desired| {
                    let copy = desired.clone();
                    mutated(Just(desired)).prop_map(move |observed| (copy.clone(), observed))
                })
            ) {
                agrees_on_scenario(&format!(r#"{{"desired":{desired},"observed":{observed}}}"#))?;
            }
        }
    }
}
