//! `cargo xtask precompress [DIR]`: writes `FILE.br` (brotli, quality 11) and
//! `FILE.gz` (gzip by zopfli) beside each text and wasm file of a release build,
//! for hosts that serve precompressed files by `Accept-Encoding` (nginx's
//! `gzip_static` and `brotli_static`, Caddy's `precompressed`; docs/offline.md
//! says how). Brotli sends about a fifth fewer bytes than gzip for the page's
//! first view (docs/PERFORMANCE.md). Zopfli writes an ordinary gzip stream
//! (any browser reads it) about 5% smaller than gzip level 9. Both are slow at
//! these settings (about 15 s for a whole build on 2 cores, brotli most of
//! it; see `[profile.dev.package.*]` in the workspace's Cargo.toml), so the copies are kept in the target folder by the SHA-256 of what
//! they copy and the encoder's settings (`precompressed/`), and a build
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

/// An encoding the build writes a copy in.
struct Encoding {
    /// The copy's suffix: `FILE.br`.
    suffix: &'static str,
    /// The encoder and its settings, in the cached copy's name: a change of
    /// settings never reuses a copy made with the old ones.
    settings: &'static str,
    compress: fn(&[u8]) -> Result<Vec<u8>, String>,
}

/// The encodings the build writes copies in.
const ENCODINGS: [Encoding; 2] = [
    Encoding {
        suffix: ".br",
        settings: BROTLI_SETTINGS,
        compress: brotli,
    },
    Encoding {
        suffix: ".gz",
        settings: ZOPFLI_SETTINGS,
        compress: gzip,
    },
];
/// The encodings, by the suffix of their copies.
const SUFFIXES: [&str; 2] = [ENCODINGS[0].suffix, ENCODINGS[1].suffix];
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
/// from `cache` when it has them; a thread per core takes the files in turn,
/// biggest first, so no core is left with a big one at the end.
fn write_copies(dir: &Path, cache: &Path) -> Result<(), String> {
    std::fs::create_dir_all(cache).map_err(|e| format!("{}: {e}", cache.display()))?;
    let pyodide = format!("{}/", crate::pyodide::DIR);
    let mut files: Vec<PathBuf> = crate::sw::files_under(dir, "")?
        .into_iter()
        .filter(|(path, _)| {
            !path.starts_with(&pyodide)
                && !is_copy(path)
                && COMPRESSIBLE.iter().any(|ext| path.ends_with(ext))
        })
        .map(|(_, file)| file)
        .collect();
    // `pop` takes from the end.
    files.sort_by_key(|file| file.metadata().map_or(0, |meta| meta.len()));
    let files = Mutex::new(files);
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

/// Numbers the partial copies this process writes.
static PARTIALS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Where a copy of `cached` is written before it is renamed there: a name
/// per write, not per process, since two files of one content (the section's
/// two builds share a stylesheet) may be compressed at once by two threads.
fn partial_of(cached: &Path) -> PathBuf {
    let write = PARTIALS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    PathBuf::from(format!(
        "{}.{}.{write}",
        cached.display(),
        std::process::id()
    ))
}

/// Writes `file`'s two copies beside it, compressing only what `cache` lacks.
fn write_copy(file: &Path, cache: &Path) -> Result<(), String> {
    let bytes = std::fs::read(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let hash = format!("{:x}", Sha256::digest(&bytes));
    for Encoding {
        suffix,
        settings,
        compress,
    } in &ENCODINGS
    {
        let cached = cache.join(format!("{hash}.{settings}{suffix}"));
        if !cached.is_file() {
            let compressed = compress(&bytes)?;
            // Written whole, then renamed: a build stopped midway leaves no half copy.
            let partial = partial_of(&cached);
            std::fs::write(&partial, compressed)
                .map_err(|e| format!("{}: {e}", partial.display()))?;
            std::fs::rename(&partial, &cached).map_err(|e| format!("{}: {e}", cached.display()))?;
        }
        let out = PathBuf::from(format!("{}{suffix}", file.display()));
        std::fs::copy(&cached, &out).map_err(|e| format!("{}: {e}", out.display()))?;
    }
    Ok(())
}

/// Zopfli's passes over each block (its default is 15). On this build's files
/// (4 MB of wasm and text, 2026-12-05, one core) 1 pass already gives almost all
/// of the gain over gzip -9's 1,563,474 B: 1,492,468 B in 5.4 s; 5 passes
/// 1,490,115 B in 7.1 s (the page's wasm 369,353 B against 387,280 B); 15 passes
/// 1,489,689 B in 11.1 s. The biggest file is the page's wasm (950 KB, 1.2 s),
/// and Pyodide's big files get no copies, so no file needs fewer passes.
const ZOPFLI_ITERATIONS: u64 = 5;
/// `ZOPFLI_ITERATIONS` in the cached copies' names.
const ZOPFLI_SETTINGS: &str = "zopfli-i5";

/// `bytes` as the build's gzip copy: zopfli, [`ZOPFLI_ITERATIONS`] passes, what a
/// host serving precompressed files sends.
fn gzip(bytes: &[u8]) -> Result<Vec<u8>, String> {
    let options = zopfli::Options {
        iteration_count: std::num::NonZeroU64::new(ZOPFLI_ITERATIONS)
            .ok_or("zopfli needs at least one pass")?,
        ..zopfli::Options::default()
    };
    let mut out = Vec::new();
    zopfli::compress(options, zopfli::Format::Gzip, bytes, &mut out).map_err(|e| e.to_string())?;
    Ok(out)
}

/// `bytes` as gzip, level 9: what a host compressing on the fly at its best
/// level sends (`web/e2e/serve.mjs` for a file without a copy).
pub fn gzip_level_9(bytes: &[u8]) -> Result<Vec<u8>, String> {
    let mut encoder = GzEncoder::new(Vec::new(), Compression::best());
    encoder.write_all(bytes).map_err(|e| e.to_string())?;
    encoder.finish().map_err(|e| e.to_string())
}

/// Brotli's highest quality.
const BROTLI_QUALITY: u32 = 11;
/// A 4 MB window (2^22 bytes).
const BROTLI_WINDOW: u32 = 22;
/// `BROTLI_QUALITY` and `BROTLI_WINDOW` in the cached copies' names.
const BROTLI_SETTINGS: &str = "brotli-q11-w22";

/// `bytes` as brotli, quality 11 with a 4 MB window (`brotli -q 11 -w 22`).
pub fn brotli(bytes: &[u8]) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    {
        let mut encoder =
            brotli::CompressorWriter::new(&mut out, 4096, BROTLI_QUALITY, BROTLI_WINDOW);
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

    #[test]
    fn the_gzip_copy_is_smaller_than_gzip_level_9_and_reads_back() {
        // Files the build serves as they are: the sandbox's page and scripts.
        let sandbox = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web/static/sandbox");
        let mut text = Vec::new();
        for name in ["sandbox.html", "sandbox-host.js", "sandbox-worker.js"] {
            text.extend(std::fs::read(sandbox.join(name)).expect("a file of the sandbox"));
        }
        let copy = gzip(&text).expect("zopfli");
        let level_9 = gzip_level_9(&text).expect("flate2");
        assert!(
            copy.len() < level_9.len() * 99 / 100,
            "zopfli {} B against gzip -9 {} B",
            copy.len(),
            level_9.len()
        );
        let mut read = Vec::new();
        flate2::read::GzDecoder::new(&copy[..])
            .read_to_end(&mut read)
            .expect("valid gzip");
        assert_eq!(read, text);
    }

    /// Two threads compressing files of one content once wrote one partial
    /// copy, and the second rename failed: each write has its own name.
    #[test]
    fn each_partial_copy_has_a_name_of_its_own() {
        let cached = Path::new("cache/0123.zopfli-i5.gz");
        let (first, second) = (partial_of(cached), partial_of(cached));
        assert_ne!(first, second);
        for partial in [first, second] {
            assert!(partial
                .to_string_lossy()
                .starts_with("cache/0123.zopfli-i5.gz."));
        }
    }

    #[test]
    fn a_cached_copy_is_named_by_its_encoder_settings() {
        assert_eq!(ZOPFLI_SETTINGS, format!("zopfli-i{ZOPFLI_ITERATIONS}"));
        assert_eq!(
            BROTLI_SETTINGS,
            format!("brotli-q{BROTLI_QUALITY}-w{BROTLI_WINDOW}")
        );
    }
}
