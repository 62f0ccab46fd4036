//! `cargo xtask precompress [DIR]`: writes `FILE.br` (brotli, quality 11) and
//! `FILE.gz` (gzip, level 9) beside each text and wasm file of a release build,
//! for hosts that serve precompressed files by `Accept-Encoding` (nginx's
//! `gzip_static` and `brotli_static`, Caddy's `precompressed`; docs/offline.md
//! says how). Brotli sends about a fifth fewer bytes than gzip for the page's
//! first view (docs/PERFORMANCE.md). Brotli's highest quality is slow (about
//! 35 s for a whole build on 2 cores), so the copies are kept in the target
//! folder by the SHA-256 of what they copy (`precompressed/`), and a build
//! compresses only what changed, on every core.
//!
//! Trunk's hook runs this after the service worker is written (`cargo xtask
//! post-build`), so the copies are never listed in it: a host sends them in
//! place of the file they copy. Pyodide's files (on demand, 13.5 MB, its
//! standard library already a zip) and debug builds get none.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use flate2::write::GzEncoder;
use flate2::Compression;
use sha2::{Digest as _, Sha256};

use crate::tools::{self, Env};

/// The encodings, by the suffix of their copies.
const SUFFIXES: [&str; 2] = [".br", ".gz"];
/// What is worth compressing: text, and wasm.
const COMPRESSIBLE: [&str; 8] = [
    ".html", ".js", ".mjs", ".css", ".wasm", ".json", ".py", ".ts",
];

/// A precompressed copy of another file of the build.
pub fn is_copy(path: &str) -> bool {
    SUFFIXES.iter().any(|suffix| path.ends_with(suffix))
}

/// Parses `[DIR]` and writes the copies.
pub fn run(args: &[String]) -> Result<(), String> {
    let env = Env::new();
    let dir = match args {
        [] => tools::staging_dir(&env),
        [dir] => PathBuf::from(dir),
        _ => return Err("usage: cargo xtask precompress [DIR]".to_owned()),
    };
    if std::env::var("TRUNK_PROFILE").is_ok_and(|profile| profile == "debug") {
        return Ok(());
    }
    write_copies(&dir, &crate::jsapi::target_dir(&env).join("precompressed"))
}

/// Writes both copies of every compressible file under `dir`, except Pyodide's,
/// from `cache` when it has them; a thread per core takes the files in turn.
fn write_copies(dir: &Path, cache: &Path) -> Result<(), String> {
    std::fs::create_dir_all(cache).map_err(|e| format!("{}: {e}", cache.display()))?;
    let pyodide = format!("{}/", crate::pyodide::DIR);
    let files = Mutex::new(
        crate::sw::files_under(dir, "")?
            .into_iter()
            .filter(|(path, _)| {
                !path.starts_with(&pyodide)
                    && !is_copy(path)
                    && COMPRESSIBLE.iter().any(|ext| path.ends_with(ext))
            })
            .map(|(_, file)| file)
            .collect::<Vec<_>>(),
    );
    let next = || files.lock().map_or(None, |mut files| files.pop());
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..cores)
            .map(|_| {
                scope.spawn(|| {
                    while let Some(file) = next() {
                        write_copy(&file, cache)?;
                    }
                    Ok::<(), String>(())
                })
            })
            .collect();
        workers.into_iter().try_for_each(|worker| {
            worker
                .join()
                .unwrap_or_else(|_| Err("a thread panicked".into()))
        })
    })
}

/// Writes `file`'s two copies beside it, compressing only what `cache` lacks.
fn write_copy(file: &Path, cache: &Path) -> Result<(), String> {
    let bytes = std::fs::read(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let hash = format!("{:x}", Sha256::digest(&bytes));
    for suffix in SUFFIXES {
        let cached = cache.join(format!("{hash}{suffix}"));
        if !cached.is_file() {
            let compressed = if suffix == ".br" {
                brotli(&bytes)?
            } else {
                gzip(&bytes)?
            };
            // Written whole, then renamed: a build stopped midway leaves no half copy.
            let partial = cache.join(format!("{hash}{suffix}.{}", std::process::id()));
            std::fs::write(&partial, compressed)
                .map_err(|e| format!("{}: {e}", partial.display()))?;
            std::fs::rename(&partial, &cached).map_err(|e| format!("{}: {e}", cached.display()))?;
        }
        let out = PathBuf::from(format!("{}{suffix}", file.display()));
        std::fs::copy(&cached, &out).map_err(|e| format!("{}: {e}", out.display()))?;
    }
    Ok(())
}

/// `bytes` as gzip, level 9 (what `cargo xtask size` counts).
pub fn gzip(bytes: &[u8]) -> Result<Vec<u8>, String> {
    let mut encoder = GzEncoder::new(Vec::new(), Compression::best());
    encoder.write_all(bytes).map_err(|e| e.to_string())?;
    encoder.finish().map_err(|e| e.to_string())
}

/// `bytes` as brotli, quality 11 with a 4 MB window (`brotli -q 11 -w 22`).
pub fn brotli(bytes: &[u8]) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    {
        let mut encoder = brotli::CompressorWriter::new(&mut out, 4096, 11, 22);
        encoder.write_all(bytes).map_err(|e| e.to_string())?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read as _;

    #[test]
    fn each_copy_decompresses_to_its_file_and_only_builds_files_get_copies() {
        let dir = std::env::temp_dir().join(format!("xtask-precompress-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("pyodide")).expect("temp dir");
        let text = "const answer = 42;\n".repeat(100);
        std::fs::write(dir.join("app.js"), &text).expect("write");
        std::fs::write(dir.join("pyodide/pyodide.mjs"), &text).expect("write");
        std::fs::write(dir.join("notes.txt"), &text).expect("write");
        let cache = dir.join("cache");
        write_copies(&dir, &cache).expect("copies");

        let br = std::fs::read(dir.join("app.js.br")).expect("a brotli copy");
        let mut unbrotli = String::new();
        brotli::Decompressor::new(&br[..], 4096)
            .read_to_string(&mut unbrotli)
            .expect("valid brotli");
        assert_eq!(unbrotli, text);
        let gz = std::fs::read(dir.join("app.js.gz")).expect("a gzip copy");
        let mut ungzip = String::new();
        flate2::read::GzDecoder::new(&gz[..])
            .read_to_string(&mut ungzip)
            .expect("valid gzip");
        assert_eq!(ungzip, text);
        assert!(br.len() < gz.len() && gz.len() < text.len());

        assert!(
            !dir.join("pyodide/pyodide.mjs.br").exists(),
            "Pyodide is left as it is"
        );
        assert!(!dir.join("notes.txt.gz").exists(), "not a file of the page");
        std::fs::remove_file(dir.join("app.js.br")).expect("remove");
        write_copies(&dir, &cache).expect("again");
        assert_eq!(
            std::fs::read(dir.join("app.js.br")).expect("from the cache"),
            br
        );
        assert!(!dir.join("app.js.br.br").exists(), "no copy of a copy");
        assert!(is_copy("pkg/reconcile_sim_bg.wasm.br") && !is_copy("index.html"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
