//! The commit-subject check: start at [`check`].
//!
//! Every commit after the one that adds this file has a subject of at most
//! [`MAX_SUBJECT`] characters, so `git log --oneline` can be read.
//! Details go in the commit's body.
//!
//! - **Where it starts**: git finds the commit that adds this file
//!   (`git log --diff-filter=A`), so no hash is kept by hand.
//! - **Which commits**: those that descend from that commit
//!   (`git log --ancestry-path START..HEAD`), merge commits included.
//!   A branch that forked before the check existed could not run it, so its
//!   own commits are not examined; the merge commit that brings it in is.
//! - **Length**: characters (Unicode scalar values) of git's `%s`, the
//!   subject as `git log --oneline` prints it.
//! - **A shallow clone** (CI's default checkout) may not reach the commit that
//!   adds the check: then git shows the clone's oldest commit as adding every
//!   file. Every commit present comes after the check, so all of them are
//!   examined, and the line printed says so.
//! - **Not examined, and printed as skipped**: no git checkout (a source
//!   archive), or this file not committed yet.
//!   The line always says how many commits were examined, zero included.

use std::process::Command;

use crate::tools::{Env, Tally};

/// The longest subject allowed, in characters.
pub const MAX_SUBJECT: usize = 72;

/// This file: the commit that adds it is where the check starts.
const THIS_FILE: &str = "crates/xtask/src/commits.rs";

/// Whether a commit subject is short enough.
pub fn subject_fits(subject: &str) -> bool {
    subject.chars().count() <= MAX_SUBJECT
}

/// Where the examined commits start.
#[derive(Debug, PartialEq, Eq)]
enum Start {
    /// The commits that descend from this one (the commit that adds the check).
    After(String),
    /// A shallow clone whose history ends after the check was added: every commit present.
    AllPresent,
    /// The check is not committed yet.
    NotCommitted,
}

/// Reads `git log --reverse --diff-filter=A --format='%H %P'`: the oldest
/// commit that adds the file, with its parents.
fn start_from(adders: &str, shallow: bool) -> Start {
    let Some(line) = adders.lines().find(|line| !line.trim().is_empty()) else {
        return Start::NotCommitted;
    };
    let mut words = line.split_whitespace();
    let hash = words.next().unwrap_or_default().to_owned();
    let has_parent = words.next().is_some();
    if shallow && !has_parent {
        // The clone's boundary commit: git shows it as adding every file it holds.
        Start::AllPresent
    } else {
        Start::After(hash)
    }
}

/// Reads `git log --format=%H%x00%s` and returns the commits whose subject is too long.
fn too_long(log: &str) -> (usize, Vec<(&str, &str)>) {
    let mut examined = 0;
    let mut offenders = Vec::new();
    for line in log.lines().filter(|line| !line.is_empty()) {
        examined += 1;
        let (hash, subject) = line.split_once('\0').unwrap_or((line, ""));
        if !subject_fits(subject) {
            offenders.push((hash, subject));
        }
    }
    (examined, offenders)
}

fn git(env: &Env, args: &[&str]) -> Result<String, String> {
    let output = Command::new("git")
        .args(args)
        .current_dir(&env.root)
        .output()
        .map_err(|e| format!("git {}: {e}", args.join(" ")))?;
    if !output.status.success() {
        return Err(format!(
            "git {}: {}",
            args.join(" "),
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

fn short(hash: &str) -> &str {
    hash.get(..10).unwrap_or(hash)
}

/// Checks the subjects of the commits after the one that adds this check.
pub fn check(env: &Env, tally: &mut Tally) -> Result<(), String> {
    if git(env, &["rev-parse", "--git-dir"]).is_err() {
        println!("commit subjects SKIPPED: not a git checkout, 0 commits examined");
        tally.skipped += 1;
        return Ok(());
    }
    let shallow = git(env, &["rev-parse", "--is-shallow-repository"])?.trim() == "true";
    let adders = git(
        env,
        &[
            "log",
            "--reverse",
            "--no-renames",
            "--diff-filter=A",
            "--format=%H %P",
            "--",
            THIS_FILE,
        ],
    )?;
    let format = "--format=%H%x00%s";
    let (log, examined_what) = match start_from(&adders, shallow) {
        Start::NotCommitted => {
            println!(
                "commit subjects SKIPPED: {THIS_FILE} is not committed yet, 0 commits examined"
            );
            tally.skipped += 1;
            return Ok(());
        }
        Start::After(hash) => {
            let range = format!("{hash}..HEAD");
            let log = git(env, &["log", "--ancestry-path", format, &range])?;
            (
                log,
                format!("after {} (the one that adds the check)", short(&hash)),
            )
        }
        Start::AllPresent => {
            let log = git(env, &["log", format, "HEAD"])?;
            let what = "in this shallow clone (it does not reach the commit that adds the check)";
            (log, what.to_owned())
        }
    };
    let (examined, offenders) = too_long(&log);
    if offenders.is_empty() {
        println!(
            "commit subjects ok: {examined} commits {examined_what}, each subject at most {MAX_SUBJECT} characters"
        );
        tally.passed += 1;
        return Ok(());
    }
    println!(
        "commit subjects TOO LONG: {} of {examined} commits {examined_what} have a subject over {MAX_SUBJECT} characters:",
        offenders.len()
    );
    for (hash, subject) in &offenders {
        println!(
            "  {} ({} characters) {subject}",
            short(hash),
            subject.chars().count()
        );
    }
    tally.failed += 1;
    Err(format!(
        "{} commit subjects over {MAX_SUBJECT} characters (reword them; details go in the body)",
        offenders.len()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_subject_fits_up_to_72_characters() {
        assert!(subject_fits(""));
        assert!(subject_fits(&"a".repeat(72)));
        assert!(!subject_fits(&"a".repeat(73)));
    }

    #[test]
    fn a_subject_is_counted_in_characters_not_bytes() {
        // 72 arrows are 216 bytes of UTF-8, and 72 characters.
        assert!(subject_fits(&"→".repeat(72)));
        assert!(!subject_fits(&"→".repeat(73)));
    }

    #[test]
    fn the_oldest_commit_that_adds_the_file_is_the_start() {
        let adders = "aaa ppp\nbbb qqq\n";
        assert_eq!(start_from(adders, false), Start::After("aaa".to_owned()));
        assert_eq!(start_from(adders, true), Start::After("aaa".to_owned()));
    }

    #[test]
    fn a_shallow_boundary_is_not_taken_for_the_start() {
        // In a shallow clone the oldest commit has no parent and "adds" every file.
        assert_eq!(start_from("ccc\n", true), Start::AllPresent);
        // In a full clone a root commit is a real start.
        assert_eq!(start_from("ccc\n", false), Start::After("ccc".to_owned()));
    }

    #[test]
    fn no_commit_adds_the_file_before_it_is_committed() {
        assert_eq!(start_from("", false), Start::NotCommitted);
        assert_eq!(start_from("\n", true), Start::NotCommitted);
    }

    #[test]
    fn the_log_names_each_subject_too_long() {
        let long = "b".repeat(73);
        let log = format!("h1\0short\nh2\0{long}\nh3\0Merge branch 'docs'\n");
        let (examined, offenders) = too_long(&log);
        assert_eq!(examined, 3);
        assert_eq!(offenders, [("h2", long.as_str())]);
        assert_eq!(too_long(""), (0, Vec::new()));
    }
}
