//! LMS packages (issue 33, docs/lms.md): SCORM 1.2 zips of one lesson or the
//! exercise, each the build plus `imsmanifest.xml`, launched at `scorm.html`.
//!
//! - `cargo xtask scorm [DIR]`, a step of trunk's hook: writes each package's
//!   manifest into `DIR/scorm/NAME.xml`, with the packer the embed dialog
//!   loads on a click (`web/static/scorm/pack.js`, and npm `fflate`). The
//!   manifest lists every file of its package, so the browser zips the same
//!   files as `package`.
//! - `cargo xtask package --scorm ID [--lang L] [--dist D] [--out FILE]`:
//!   zips a built `dist/` into `packages/NAME.zip` (or `FILE`).
//!
//! [`manifest`] is the one writer of a manifest, [`package_files`] the one
//! rule for what a package holds.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use quick_xml::events::{BytesDecl, BytesText, Event};
use quick_xml::Writer;
use reconcile_content::package::{PackageTarget, LAUNCH_PAGE};
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, DateTime, ZipWriter};

use crate::tools::{self, Env};

/// The launch page's script, beside it.
const LAUNCH_SCRIPT: &str = "scorm.js";
/// The folder of the build that holds the manifests and the packer; no package holds it.
pub const DIR: &str = "scorm";
/// The packer's files in the build's [`DIR`]: ours, and npm `fflate`'s browser module.
const PACKER: &str = "pack.js";
const ZIP_LIBRARY: (&str, &str) = ("fflate/esm/browser.js", "fflate.js");
/// The package's manifest, at its root, as SCORM 1.2 names it.
const MANIFEST: &str = "imsmanifest.xml";

/// The launch page and its script, at the root of the build and of every package.
pub fn is_launch_file(name: &str) -> bool {
    name == LAUNCH_PAGE || name == LAUNCH_SCRIPT
}

/// The files of `dist` that a package of `target` holds, by path: the build,
/// less its precompressed copies, TypeScript declarations, the service worker
/// (an embed never registers it), the example page, [`DIR`], and Pyodide unless
/// the exercise is in Python.
pub fn package_files(dist: &Path, target: PackageTarget) -> Result<Vec<(String, PathBuf)>, String> {
    let python = format!("{}/", crate::pyodide::DIR);
    let own = format!("{DIR}/");
    let mut files: Vec<_> = crate::sw::files_under(dist, "")?
        .into_iter()
        .filter(|(path, _)| {
            !(crate::precompress::is_copy(path)
                || path.ends_with(".d.ts")
                || crate::sw::is_worker_file(path)
                || path == "example.html"
                || path.starts_with(&own)
                || (path.starts_with(&python) && !target.needs_python()))
        })
        .collect();
    files.sort();
    if !files.iter().any(|(path, _)| path == LAUNCH_PAGE) {
        return Err(format!(
            "{}: no {LAUNCH_PAGE}; build the playground first (cargo xtask build)",
            dist.display()
        ));
    }
    Ok(files)
}

/// The SCORM 1.2 manifest of a package of `target` holding `files`: one
/// organization of one item, a SCO launched at [`PackageTarget::launch`].
pub fn manifest(target: PackageTarget, files: &[String]) -> Result<String, String> {
    let name = target.name();
    let title = target.title();
    let mut xml = Writer::new_with_indent(Vec::new(), b' ', 2);
    let written = xml
        .write_event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)))
        .and_then(|()| {
            xml.create_element("manifest")
                .with_attributes([
                    (
                        "identifier",
                        format!("reconcile-playground-{name}").as_str(),
                    ),
                    ("version", "1.0"),
                    ("xmlns", "http://www.imsproject.org/xsd/imscp_rootv1p1p2"),
                    ("xmlns:adlcp", "http://www.adlnet.org/xsd/adlcp_rootv1p2"),
                ])
                .write_inner_content(|xml| {
                    xml.create_element("metadata").write_inner_content(|xml| {
                        text(xml, "schema", "ADL SCORM")?;
                        text(xml, "schemaversion", "1.2")
                    })?;
                    xml.create_element("organizations")
                        .with_attribute(("default", "playground"))
                        .write_inner_content(|xml| {
                            xml.create_element("organization")
                                .with_attribute(("identifier", "playground"))
                                .write_inner_content(|xml| {
                                    text(xml, "title", &title)?;
                                    xml.create_element("item")
                                        .with_attributes([
                                            ("identifier", "item"),
                                            ("identifierref", "sco"),
                                            ("isvisible", "true"),
                                        ])
                                        .write_inner_content(|xml| text(xml, "title", &title))?;
                                    Ok(())
                                })?;
                            Ok(())
                        })?;
                    xml.create_element("resources").write_inner_content(|xml| {
                        xml.create_element("resource")
                            .with_attributes([
                                ("identifier", "sco"),
                                ("type", "webcontent"),
                                ("adlcp:scormtype", "sco"),
                                ("href", target.launch().as_str()),
                            ])
                            .write_inner_content(|xml| {
                                for file in files {
                                    xml.create_element("file")
                                        .with_attribute(("href", file.as_str()))
                                        .write_empty()?;
                                }
                                Ok(())
                            })?;
                        Ok(())
                    })?;
                    Ok(())
                })
                .map(drop)
        });
    written.map_err(|e| format!("{MANIFEST} of {name}: {e}"))?;
    String::from_utf8(xml.into_inner()).map_err(|e| format!("{MANIFEST} of {name}: {e}"))
}

fn text<W: std::io::Write>(xml: &mut Writer<W>, name: &str, value: &str) -> std::io::Result<()> {
    xml.create_element(name)
        .write_text_content(BytesText::new(value))
        .map(drop)
}

/// `cargo xtask scorm [DIR]`: every package's manifest and the packer, into `DIR/scorm/`.
pub fn run(args: &[String]) -> Result<(), String> {
    let env = Env::new();
    let dist = match args {
        [] => tools::staging_dir(&env),
        [dir] => PathBuf::from(dir),
        _ => return Err("usage: cargo xtask scorm [DIR]".to_owned()),
    };
    let out = dist.join(DIR);
    std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    for target in PackageTarget::all() {
        let files = paths(&package_files(&dist, target)?);
        let file = out.join(format!("{}.xml", target.name()));
        std::fs::write(&file, manifest(target, &files)?)
            .map_err(|e| format!("{}: {e}", file.display()))?;
    }
    let copies = [
        (env.root.join("web/static/scorm").join(PACKER), PACKER),
        (
            env.root.join("web/node_modules").join(ZIP_LIBRARY.0),
            ZIP_LIBRARY.1,
        ),
    ];
    for (from, to) in copies {
        std::fs::copy(&from, out.join(to)).map_err(|e| {
            format!(
                "{}: {e} (run `npm ci` in web/ for npm fflate)",
                from.display()
            )
        })?;
    }
    Ok(())
}

fn paths(files: &[(String, PathBuf)]) -> Vec<String> {
    files.iter().map(|(path, _)| path.clone()).collect()
}

/// `cargo xtask package --scorm ID [--lang L] [--dist D] [--out FILE]`.
pub fn package_command(args: &[String]) -> Result<(), String> {
    const USAGE: &str =
        "usage: cargo xtask package --scorm LESSON_OR_EXERCISE [--lang L] [--dist D] [--out FILE]";
    let env = Env::new();
    let (mut id, mut lang, mut dist, mut out) = (None, None, env.root.join("dist"), None);
    let mut args = args.iter();
    while let Some(flag) = args.next() {
        let value = args
            .next()
            .ok_or_else(|| format!("{flag} needs a value; {USAGE}"))?;
        match flag.as_str() {
            "--scorm" => id = Some(value.as_str()),
            "--lang" => lang = Some(value.as_str()),
            "--dist" => dist = PathBuf::from(value),
            "--out" => out = Some(PathBuf::from(value)),
            _ => return Err(format!("unknown option {flag}; {USAGE}")),
        }
    }
    let target = PackageTarget::parse(id.ok_or(USAGE)?, lang)?;
    let out = out.unwrap_or_else(|| default_out(&env, target));
    let files = write_package(&dist, target, &out)?;
    println!("{}: {files} files, {}", out.display(), target.title());
    Ok(())
}

/// Where a package goes without `--out`: `packages/reconcile-playground-NAME.zip`.
fn default_out(env: &Env, target: PackageTarget) -> PathBuf {
    env.root
        .join("packages")
        .join(format!("reconcile-playground-{}.zip", target.name()))
}

/// The test command's package, which `web/e2e/scorm.spec.mjs` plays in a
/// SCORM run-time: the lesson `finalizers`, from the built `dist/`.
pub fn test_package(env: &Env) -> Result<(), String> {
    let target = PackageTarget::parse("finalizers", None)?;
    write_package(&env.root.join("dist"), target, &default_out(env, target)).map(drop)
}

/// Zips the package of `target` from the build in `dist` into `out`; returns how many files it holds.
pub fn write_package(dist: &Path, target: PackageTarget, out: &Path) -> Result<usize, String> {
    let files = package_files(dist, target)?;
    let manifest = manifest(target, &paths(&files))?;
    if let Some(folder) = out.parent() {
        std::fs::create_dir_all(folder).map_err(|e| format!("{}: {e}", folder.display()))?;
    }
    let error = |e: &dyn std::fmt::Display| format!("{}: {e}", out.display());
    let file = std::fs::File::create(out).map_err(|e| error(&e))?;
    let mut zip = ZipWriter::new(file);
    // A fixed time: the same build makes the same zip.
    let options = SimpleFileOptions::default()
        .compression_method(CompressionMethod::Deflated)
        .last_modified_time(DateTime::DEFAULT);
    zip.start_file(MANIFEST, options).map_err(|e| error(&e))?;
    zip.write_all(manifest.as_bytes()).map_err(|e| error(&e))?;
    for (path, source) in &files {
        let bytes = std::fs::read(source).map_err(|e| format!("{}: {e}", source.display()))?;
        zip.start_file(path.as_str(), options)
            .map_err(|e| error(&e))?;
        zip.write_all(&bytes).map_err(|e| error(&e))?;
    }
    zip.finish().map_err(|e| error(&e))?;
    Ok(files.len() + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lesson() -> PackageTarget {
        PackageTarget::parse("finalizers", None).expect("a lesson")
    }

    #[test]
    fn the_manifest_names_the_launch_page_and_every_file() {
        let files = ["index.html".to_owned(), "scorm.html".to_owned()];
        let xml = manifest(lesson(), &files).expect("a manifest");
        assert!(xml.contains("<schemaversion>1.2</schemaversion>"), "{xml}");
        assert!(
            xml.contains(
                r#"adlcp:scormtype="sco" href="scorm.html?lesson=finalizers&amp;predictions="#
            ),
            "{xml}"
        );
        assert!(xml.contains(r#"<file href="index.html"/>"#), "{xml}");
        assert!(
            xml.contains("<title>Reconcile Playground: Finalizers"),
            "{xml}"
        );
    }

    /// A temporary build with the files a package may or may not hold.
    fn fake_dist(name: &str) -> PathBuf {
        let dist = std::env::temp_dir().join(format!("xtask-scorm-{name}-{}", std::process::id()));
        for file in [
            "index.html",
            "index.html.br",
            "scorm.html",
            "scorm.js",
            "sw.js",
            "pkg/reconcile.d.ts",
            "pkg/reconcile.js",
            "pyodide/pyodide.mjs",
            "scorm/lesson-finalizers.xml",
        ] {
            let path = dist.join(file);
            std::fs::create_dir_all(path.parent().expect("a folder")).expect("a folder");
            std::fs::write(path, file).expect("written");
        }
        dist
    }

    #[test]
    fn pyodide_goes_only_into_a_python_package() {
        let dist = fake_dist("files");
        let held = |target| paths(&package_files(&dist, target).expect("files"));
        assert_eq!(
            held(lesson()),
            ["index.html", "pkg/reconcile.js", "scorm.html", "scorm.js"]
        );
        let python = PackageTarget::parse("reconcile", None).expect("the exercise");
        assert!(held(python).contains(&"pyodide/pyodide.mjs".to_owned()));
        std::fs::remove_dir_all(dist).expect("removed");
    }

    #[test]
    fn a_build_without_the_launch_page_is_an_error() {
        let dist = std::env::temp_dir().join(format!("xtask-scorm-empty-{}", std::process::id()));
        std::fs::create_dir_all(&dist).expect("a folder");
        let error = package_files(&dist, lesson()).expect_err("no launch page");
        assert!(
            error.contains("no scorm.html; build the playground first"),
            "{error}"
        );
    }

    #[test]
    fn the_zip_holds_the_manifest_and_the_files() {
        let dist = fake_dist("zip");
        let out = dist.join("out/package.zip");
        assert_eq!(write_package(&dist, lesson(), &out).expect("zipped"), 5);
        let archive =
            zip::ZipArchive::new(std::fs::File::open(&out).expect("the zip")).expect("a zip");
        let names: Vec<&str> = archive.file_names().collect();
        assert!(
            names.contains(&MANIFEST) && names.contains(&"pkg/reconcile.js"),
            "{names:?}"
        );
        std::fs::remove_dir_all(dist).expect("removed");
    }
}
