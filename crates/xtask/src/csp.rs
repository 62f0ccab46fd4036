//! `cargo xtask csp [DIR]`: gives every page in `DIR` (each top-level `*.html`)
//! a Content-Security-Policy `<meta>` that allows exactly the inline scripts and
//! styles the page holds, by their SHA-256 hashes.
//!
//! The policy is a `<meta>` rather than a header because the playground is
//! static files and a course host may not let authors set headers. The hashes
//! are computed here, after the build, because trunk writes the page's inline
//! module loader (and its hashed file names) itself. Trunk runs this as a
//! `post_build` hook (see Trunk.toml) with `TRUNK_STAGING_DIR`, the default
//! `DIR` when set; otherwise `DIR` is `dist`.
//!
//! Attributes a hash cannot allow (`on…=` handlers, `style=`, `javascript:`
//! URLs) fail the build instead of failing silently in the browser.
//!
//! One page has a policy of its own: `sandbox.html`, the opaque-origin frame that
//! runs the learner's reconcile in a worker (web/static/sandbox/README.md). It
//! loads nothing from the site and may reach no server: only its own inline relay
//! (by hash) and `blob:` scripts and workers, which is how it starts the worker
//! the playground hands it and imports the learner's module.

use std::path::{Path, PathBuf};

use base64::Engine as _;
use sha2::{Digest as _, Sha256};

use crate::tools::Env;

/// Everything but the inline hashes. `'wasm-unsafe-eval'` lets the page
/// compile its WebAssembly and nothing else (no `eval`, no `new Function`).
/// `frame-ancestors` is not here: browsers ignore it in a `<meta>`, and say so
/// on the console. Hosts that want it send it as a header (docs/embedding.md).
fn policy(script_hashes: &[String], style_hashes: &[String]) -> String {
    [
        "default-src 'self'".to_owned(),
        with_hashes("script-src 'self' 'wasm-unsafe-eval'", script_hashes),
        with_hashes("style-src 'self'", style_hashes),
        "img-src 'self' data:".to_owned(),
        "connect-src 'self'".to_owned(),
        "object-src 'none'".to_owned(),
        "base-uri 'none'".to_owned(),
        "form-action 'none'".to_owned(),
    ]
    .join("; ")
}

/// A directive, `base` followed by each hash as a source.
fn with_hashes(base: &str, hashes: &[String]) -> String {
    std::iter::once(base.to_owned())
        .chain(hashes.iter().map(|hash| format!("'{hash}'")))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The file name of the sandbox page, which gets [`sandbox_policy`].
pub const SANDBOX_PAGE: &str = "sandbox.html";

/// The sandbox page's policy: `default-src 'none'` (no requests to any server,
/// `connect-src` included), its inline relay by hash, and `blob:` for the worker
/// and the learner's module. No `'self'`: in an opaque origin it would name the
/// site in some engines and nothing in others. No `'unsafe-eval'`: the learner's
/// module is imported from a `blob:` URL, not evaluated from a string.
/// `'wasm-unsafe-eval'` lets the Python worker compile Pyodide's WebAssembly (and
/// allows nothing else: `eval` and `new Function` stay refused); Pyodide's files
/// arrive from the page as Blobs, so no `connect-src` is needed.
fn sandbox_policy(script_hashes: &[String], style_hashes: &[String]) -> String {
    let mut directives = vec![
        "default-src 'none'".to_owned(),
        format!(
            "{} 'wasm-unsafe-eval' blob:",
            with_hashes("script-src", script_hashes)
        ),
        "worker-src blob:".to_owned(),
    ];
    if !style_hashes.is_empty() {
        directives.push(with_hashes("style-src", style_hashes));
    }
    directives.extend([
        "base-uri 'none'".to_owned(),
        "form-action 'none'".to_owned(),
    ]);
    directives.join("; ")
}

/// Which policy a page gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// The playground and the other pages: [`policy`].
    Page,
    /// `sandbox.html`: [`sandbox_policy`].
    Sandbox,
}

impl Kind {
    fn of(path: &Path) -> Self {
        if path.file_name().is_some_and(|name| name == SANDBOX_PAGE) {
            Self::Sandbox
        } else {
            Self::Page
        }
    }
}

/// Parses `[DIR]` and adds the policy to each page in it.
pub fn run(args: &[String]) -> Result<(), String> {
    let dir = match args {
        [] => crate::tools::staging_dir(&Env::new()),
        [dir] => PathBuf::from(dir),
        _ => return Err("usage: cargo xtask csp [DIR]".to_owned()),
    };
    // Trunk's websocket base defaults to the path of its public URL.
    let public_url = std::env::var("TRUNK_PUBLIC_URL").unwrap_or_default();
    let ws_base = match public_url.trim_end_matches('/') {
        path if path.starts_with('/') => format!("{path}/"),
        _ => "/".to_owned(),
    };
    apply_to_dir(&dir, &ws_base)
}

/// `ws_base`: where `trunk serve` listens for its autoreload websocket.
pub fn apply_to_dir(dir: &Path, ws_base: &str) -> Result<(), String> {
    let error = |e: std::io::Error| format!("{}: {e}", dir.display());
    let mut pages = 0;
    for entry in std::fs::read_dir(dir).map_err(error)? {
        let path = entry.map_err(error)?.path();
        if path.extension().is_some_and(|ext| ext == "html") {
            let error = |e: std::io::Error| format!("{}: {e}", path.display());
            let html = std::fs::read_to_string(&path).map_err(error)?;
            let html = fill_dev_server_placeholders(&html, ws_base);
            let with_policy = with_policy_of(&html, Kind::of(&path))
                .map_err(|e| format!("{}: {e}", path.display()))?;
            std::fs::write(&path, with_policy).map_err(error)?;
            pages += 1;
        }
    }
    if pages == 0 {
        return Err(format!("{}: no .html pages to protect", dir.display()));
    }
    Ok(())
}

/// `trunk serve` writes these into its autoreload script as it serves the
/// page (the address from each request's Host header), which would change the
/// script after its hash was taken. Filling them in first, with what trunk
/// would write (`window.location.host` is its own fallback), keeps the hash
/// right. Release builds have no such script, so this changes nothing there.
fn fill_dev_server_placeholders(html: &str, ws_base: &str) -> String {
    html.replace("'{{__TRUNK_ADDRESS__}}'", "window.location.host")
        .replace("`{{__TRUNK_ADDRESS__}}`", "window.location.host")
        .replace("{{__TRUNK_WS_BASE__}}", ws_base)
}

/// `html` with a CSP `<meta>` right after `<meta charset>` (or `<head>`), so
/// that it comes before anything it governs. An existing CSP `<meta>` is
/// replaced, so running this twice gives the same page.
#[cfg(test)]
pub fn with_policy(html: &str) -> Result<String, String> {
    with_policy_of(html, Kind::Page)
}

/// [`with_policy`] with the policy of `kind`.
pub fn with_policy_of(html: &str, kind: Kind) -> Result<String, String> {
    let scan = scan(html);
    if let Some(problem) = scan.blocked.first() {
        return Err(format!(
            "{problem}, which the Content-Security-Policy blocks; use a script or a stylesheet instead"
        ));
    }
    let anchor = scan
        .insert_after
        .ok_or("no <head> to put the Content-Security-Policy in")?;
    let hashes = |blocks: &[&str]| {
        let mut hashes: Vec<String> = Vec::new();
        for block in blocks {
            let hash = sha256_source(block);
            if !hashes.contains(&hash) {
                hashes.push(hash);
            }
        }
        hashes
    };
    let (scripts, styles) = (hashes(&scan.inline_scripts), hashes(&scan.inline_styles));
    let meta = format!(
        "<meta http-equiv=\"Content-Security-Policy\" content=\"{}\" />",
        match kind {
            Kind::Page => policy(&scripts, &styles),
            Kind::Sandbox => sandbox_policy(&scripts, &styles),
        }
    );

    let mut page = html.to_owned();
    let mut insert_at = anchor.end;
    if let Some(old) = scan.policy_meta {
        // Take the line break and indent before it too, so a rerun is byte-identical.
        let start = html[..old.start]
            .trim_end_matches([' ', '\t', '\r', '\n'])
            .len();
        page.replace_range(start..old.end, "");
        if start < insert_at {
            insert_at -= old.end - start;
        }
    }
    let indent = line_indent(html, anchor.start);
    page.insert_str(insert_at, &format!("\n{indent}{meta}"));
    Ok(page)
}

/// The CSP source expression for an inline block: `sha256-<base64>` of its
/// text. Browsers hash the text after the HTML parser has turned CRLF and CR
/// into LF, so this does too.
pub fn sha256_source(text: &str) -> String {
    let parsed = text.replace("\r\n", "\n").replace('\r', "\n");
    let digest = Sha256::digest(parsed.as_bytes());
    format!(
        "sha256-{}",
        base64::engine::general_purpose::STANDARD.encode(digest)
    )
}

/// The whitespace that starts the line `at` is on, when the tag starts the line.
fn line_indent(html: &str, at: usize) -> &str {
    let line_start = html[..at].rfind('\n').map_or(0, |i| i + 1);
    let indent = &html[line_start..at];
    if indent.chars().all(|c| c == ' ' || c == '\t') {
        indent
    } else {
        ""
    }
}

/// What the policy needs to know about a page.
#[derive(Debug, Default)]
struct Scan<'a> {
    inline_scripts: Vec<&'a str>,
    inline_styles: Vec<&'a str>,
    /// The existing CSP `<meta>`, if any.
    policy_meta: Option<std::ops::Range<usize>>,
    /// The `<meta charset>` tag, else the `<head>` tag: the policy goes after it.
    insert_after: Option<std::ops::Range<usize>>,
    /// Inline code the policy would block, described for an error message.
    blocked: Vec<String>,
}

/// A small HTML tokenizer: enough for pages we build (tags, attributes,
/// comments and the raw text of `<script>` and `<style>`), not for arbitrary HTML.
fn scan(html: &str) -> Scan<'_> {
    let mut scan = Scan::default();
    let mut charset = None;
    let mut head = None;
    let mut at = 0;
    while let Some(offset) = html[at..].find('<') {
        let start = at + offset;
        if html[start..].starts_with("<!--") {
            at = html[start..]
                .find("-->")
                .map_or(html.len(), |end| start + end + 3);
            continue;
        }
        let Some(tag) = parse_tag(html, start) else {
            at = start + 1;
            continue;
        };
        at = tag.range.end;
        if tag.closing {
            continue;
        }
        for (name, value) in &tag.attributes {
            if name.starts_with("on") {
                scan.blocked.push(format!(
                    "<{}> has an inline event handler `{name}`",
                    tag.name
                ));
            } else if name == "style" {
                scan.blocked
                    .push(format!("<{}> has a `style` attribute", tag.name));
            } else if value.as_deref().is_some_and(|v| {
                v.trim_start()
                    .get(..11)
                    .is_some_and(|scheme| scheme.eq_ignore_ascii_case("javascript:"))
            }) {
                scan.blocked.push(format!(
                    "<{}> has a `javascript:` URL in `{name}`",
                    tag.name
                ));
            }
        }
        match tag.name.as_str() {
            "script" | "style" => {
                // Raw text: it ends at the first `</script` (or `</style`), whatever it holds.
                let close = find_ascii_case_insensitive(&html[at..], &format!("</{}", tag.name))
                    .map_or(html.len(), |i| at + i);
                let text = &html[at..close];
                if tag.name == "style" {
                    scan.inline_styles.push(text);
                } else if !tag.has("src") {
                    scan.inline_scripts.push(text);
                }
                at = close;
            }
            "meta"
                if tag
                    .value("http-equiv")
                    .is_some_and(|v| v.eq_ignore_ascii_case("content-security-policy")) =>
            {
                scan.policy_meta = Some(tag.range.clone());
            }
            "meta" if tag.has("charset") => charset = charset.or(Some(tag.range.clone())),
            "head" => head = head.or(Some(tag.range.clone())),
            _ => {}
        }
    }
    scan.insert_after = charset.or(head);
    scan
}

#[derive(Debug)]
struct Tag {
    /// Lowercase.
    name: String,
    closing: bool,
    /// Lowercase names; values as written, without quotes.
    attributes: Vec<(String, Option<String>)>,
    /// From `<` to just after `>`.
    range: std::ops::Range<usize>,
}

impl Tag {
    fn has(&self, name: &str) -> bool {
        self.attributes.iter().any(|(n, _)| n == name)
    }

    fn value(&self, name: &str) -> Option<&str> {
        self.attributes
            .iter()
            .find(|(n, _)| n == name)
            .and_then(|(_, v)| v.as_deref())
    }
}

/// The tag starting at `html[start] == '<'`, or None if it isn't one (a
/// stray `<` in text). Delimiters are ASCII, so every index is a char boundary.
fn parse_tag(html: &str, start: usize) -> Option<Tag> {
    let bytes = html.as_bytes();
    let mut at = start + 1;
    let closing = bytes.get(at) == Some(&b'/');
    if closing {
        at += 1;
    }
    let name_start = at;
    while bytes
        .get(at)
        .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'-')
    {
        at += 1;
    }
    if at == name_start || !bytes[name_start].is_ascii_alphabetic() {
        return None;
    }
    let name = html[name_start..at].to_ascii_lowercase();
    let mut attributes = Vec::new();
    loop {
        while bytes
            .get(at)
            .is_some_and(|b| b.is_ascii_whitespace() || *b == b'/')
        {
            at += 1;
        }
        match bytes.get(at) {
            None => return None,
            Some(b'>') => break,
            Some(_) => {}
        }
        let attribute_start = at;
        while bytes
            .get(at)
            .is_some_and(|b| !b.is_ascii_whitespace() && !matches!(b, b'/' | b'>' | b'='))
        {
            at += 1;
        }
        let attribute = html[attribute_start..at].to_ascii_lowercase();
        while bytes.get(at).is_some_and(u8::is_ascii_whitespace) {
            at += 1;
        }
        let mut value = None;
        if bytes.get(at) == Some(&b'=') {
            at += 1;
            while bytes.get(at).is_some_and(u8::is_ascii_whitespace) {
                at += 1;
            }
            let (value_start, value_end) = match bytes.get(at) {
                Some(quote @ (b'"' | b'\'')) => {
                    let end = at + 1 + html[at + 1..].find(char::from(*quote))?;
                    let range = (at + 1, end);
                    at = end + 1;
                    range
                }
                _ => {
                    let value_start = at;
                    while bytes
                        .get(at)
                        .is_some_and(|b| !b.is_ascii_whitespace() && *b != b'>')
                    {
                        at += 1;
                    }
                    (value_start, at)
                }
            };
            value = Some(html[value_start..value_end].to_owned());
        }
        attributes.push((attribute, value));
    }
    Some(Tag {
        name,
        closing,
        attributes,
        range: start..at + 1,
    })
}

fn find_ascii_case_insensitive(haystack: &str, needle: &str) -> Option<usize> {
    haystack
        .as_bytes()
        .windows(needle.len())
        .position(|window| window.eq_ignore_ascii_case(needle.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What trunk 0.21 writes: an inline module loader and preloads.
    const TRUNK_PAGE: &str = "<!doctype html>\n<html lang=\"en\">\n  <head>\n    <meta charset=\"utf-8\" />\n    <title>T</title>\n    \n<script type=\"module\">\nimport init from '/app.js';\nawait init();\n</script>\n    <link rel=\"modulepreload\" href=\"/app.js\">\n  </head>\n  <body></body>\n</html>\n";

    fn policy_of(page: &str) -> String {
        let start = page.find("content=\"").expect("a policy") + 9;
        let end = start + page[start..].find('"').expect("closing quote");
        page[start..end].to_owned()
    }

    #[test]
    fn hashes_match_the_csp_specification_example() {
        // CSP Level 3, "hash-source": the digest of `alert('Hello, world.');`.
        assert_eq!(
            sha256_source("alert('Hello, world.');"),
            "sha256-qznLcsROx4GACP2dm0UCKCzCG+HiZ1guq6ZZDob/Tng="
        );
    }

    #[test]
    fn the_policy_goes_right_after_the_charset_and_lists_the_loader_hash() {
        let page = with_policy(TRUNK_PAGE).expect("a policy");
        let loader = "\nimport init from '/app.js';\nawait init();\n";
        let expected_meta = format!(
            "    <meta charset=\"utf-8\" />\n    <meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'self'; script-src 'self' 'wasm-unsafe-eval' '{}'; style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'\" />\n    <title>",
            sha256_source(loader)
        );
        assert!(page.contains(&expected_meta), "{page}");
        assert!(!policy_of(&page).contains("'unsafe-eval'"));
        assert!(!policy_of(&page).contains("'unsafe-inline'"));
    }

    #[test]
    fn a_second_run_changes_nothing_and_a_changed_script_replaces_the_old_policy() {
        let once = with_policy(TRUNK_PAGE).expect("a policy");
        assert_eq!(with_policy(&once).expect("a policy"), once);
        let changed = once.replace("await init();", "await init(); go();");
        let again = with_policy(&changed).expect("a policy");
        assert_eq!(again.matches("Content-Security-Policy").count(), 1);
        assert!(policy_of(&again).contains(&sha256_source(
            "\nimport init from '/app.js';\nawait init(); go();\n"
        )));
        assert!(!policy_of(&again).contains(&sha256_source(
            "\nimport init from '/app.js';\nawait init();\n"
        )));
    }

    #[test]
    fn external_scripts_are_not_hashed_and_styles_are() {
        let page = "<html><HEAD><Script SRC=\"/a.js\"></SCRIPT><style>p{color:red}</style><script>x()</script><script>x()</script></head></html>";
        let policy = policy_of(&with_policy(page).expect("a policy"));
        assert!(policy.contains(&format!(
            "script-src 'self' 'wasm-unsafe-eval' '{}';",
            sha256_source("x()")
        )));
        assert!(policy.contains(&format!(
            "style-src 'self' '{}';",
            sha256_source("p{color:red}")
        )));
        assert!(!policy.contains(&sha256_source("")));
    }

    #[test]
    fn without_a_charset_the_policy_follows_head() {
        let page = with_policy("<html><head><script>a</script></head></html>").expect("a policy");
        assert!(page.starts_with("<html><head>\n<meta http-equiv=\"Content-Security-Policy\""));
    }

    #[test]
    fn crlf_is_hashed_as_the_browser_parses_it() {
        let page = with_policy("<head><script>\r\na();\r\n</script></head>").expect("a policy");
        assert!(policy_of(&page).contains(&sha256_source("\na();\n")));
    }

    #[test]
    fn commented_out_scripts_and_text_that_looks_like_tags_are_not_hashed() {
        let page = "<head><!-- <script>old()</script> --><script>if (a < b && '<p>') run();</script></head>";
        let policy = policy_of(&with_policy(page).expect("a policy"));
        assert!(!policy.contains(&sha256_source("old()")));
        assert!(policy.contains(&sha256_source("if (a < b && '<p>') run();")));
    }

    #[test]
    fn inline_code_that_a_hash_cannot_allow_is_an_error() {
        for page in [
            "<head></head><body><button onclick=\"go()\">Go</button></body>",
            "<head></head><body><p style=\"color: red\">x</p></body>",
            "<head></head><body><a href=' JavaScript:go()'>x</a></body>",
        ] {
            let error = with_policy(page).expect_err(page);
            assert!(error.contains("Content-Security-Policy blocks"), "{error}");
        }
        assert!(with_policy("<p>no head</p>").is_err());
    }

    #[test]
    fn the_dev_server_placeholders_are_filled_before_hashing() {
        let page = "<head><script>const address = '{{__TRUNK_ADDRESS__}}'; const base = '{{__TRUNK_WS_BASE__}}';</script></head>";
        let filled = fill_dev_server_placeholders(page, "/");
        assert!(!filled.contains("{{"), "{filled}");
        let policy = policy_of(&with_policy(&filled).expect("a policy"));
        assert!(policy.contains(&sha256_source(
            "const address = window.location.host; const base = '/';"
        )));
    }

    #[test]
    fn the_sandbox_page_gets_its_own_policy_without_self_or_eval() {
        let dir = std::env::temp_dir().join(format!("xtask-csp-sandbox-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let relay = "\nrelay();\n";
        std::fs::write(dir.join("index.html"), TRUNK_PAGE).expect("write");
        std::fs::write(
            dir.join(SANDBOX_PAGE),
            format!("<head><meta charset=\"utf-8\" /><script>{relay}</script></head>"),
        )
        .expect("write");
        apply_to_dir(&dir, "/").expect("applied");
        let sandbox = policy_of(&std::fs::read_to_string(dir.join(SANDBOX_PAGE)).expect("read"));
        assert_eq!(
            sandbox,
            format!(
                "default-src 'none'; script-src '{}' 'wasm-unsafe-eval' blob:; worker-src blob:; base-uri 'none'; form-action 'none'",
                sha256_source(relay)
            )
        );
        let page = policy_of(&std::fs::read_to_string(dir.join("index.html")).expect("read"));
        assert!(page.starts_with("default-src 'self'; script-src 'self' 'wasm-unsafe-eval' "));
        for policy in [&sandbox, &page] {
            assert!(!policy.contains("'unsafe-eval'"), "{policy}");
            assert!(!policy.contains("'unsafe-inline'"), "{policy}");
        }
        assert!(!page.contains("blob:"), "{page}");
        std::fs::remove_dir_all(&dir).expect("cleanup");
    }

    #[test]
    fn every_page_in_a_folder_gets_a_policy() {
        let dir = std::env::temp_dir().join(format!("xtask-csp-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        std::fs::write(dir.join("index.html"), TRUNK_PAGE).expect("write");
        std::fs::write(dir.join("example.html"), "<head><style>b{}</style></head>").expect("write");
        std::fs::write(dir.join("app.js"), "<head>").expect("write");
        apply_to_dir(&dir, "/").expect("applied");
        for page in ["index.html", "example.html"] {
            let html = std::fs::read_to_string(dir.join(page)).expect("read");
            assert!(html.contains("Content-Security-Policy"), "{page}");
        }
        assert_eq!(
            std::fs::read_to_string(dir.join("app.js")).expect("read"),
            "<head>"
        );
        std::fs::remove_dir_all(&dir).expect("cleanup");
    }
}
