//! Writes the lessons' index, `$OUT_DIR/lesson_index.rs`, from `lessons/*.json`
//! in file-name order (the `NN-` prefix is the teaching order): each file's
//! name, `id`, `title` and, per step, its exercise's `kind` ("" for none).
//!
//! This reads only those members, and validates nothing: a file it cannot
//! read gets empty fields, and `lesson_index`'s tests compare every entry with
//! what the one reader, `lesson::parse_lesson`, reads of the same file (and
//! name the file's error). The page compiles in this index, not the texts,
//! and fetches a lesson's file when it opens (docs/lessons.md).

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let folder = Path::new(&manifest).join("lessons");
    println!("cargo:rerun-if-changed=lessons");
    let mut files: Vec<String> = std::fs::read_dir(&folder)
        .expect("the lessons folder")
        .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
        .filter(|name| name.ends_with(".json"))
        .collect();
    files.sort();
    let mut index = String::from("&[\n");
    for file in files {
        let text = std::fs::read_to_string(folder.join(&file)).unwrap_or_default();
        let lesson: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
        let member = |name: &str| lesson[name].as_str().unwrap_or_default().to_owned();
        let exercises: Vec<&str> = lesson["steps"]
            .as_array()
            .map(|steps| {
                steps
                    .iter()
                    .map(|step| step["exercise"]["kind"].as_str().unwrap_or_default())
                    .collect()
            })
            .unwrap_or_default();
        writeln!(
            index,
            "    LessonEntry {{ file: {file:?}, id: {:?}, title: {:?}, exercises: &{exercises:?} }},",
            member("id"),
            member("title"),
        )
        .expect("writing to a String");
    }
    index.push(']');
    let out =
        Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("lesson_index.rs");
    std::fs::write(&out, index).expect("writing the lessons' index");
}
