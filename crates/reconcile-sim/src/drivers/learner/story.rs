//! A fault schedule told as a short story, from what fired in the run.
//! Start at [`tell`].

use super::faulted::Fired;
use super::schedule::{Fault, Schedule, CACHE_LAG_MS};

/// One sentence a fault, in the order they fired; then those that never
/// fired, because the run did not reach their point.
pub fn tell(schedule: &Schedule, fired: &[Fired]) -> Vec<String> {
    let mut story: Vec<String> = fired.iter().map(sentence).collect();
    let mut left = schedule.0.clone();
    for f in fired {
        if let Some(i) = left.iter().position(|p| *p == f.placed) {
            left.remove(i);
        }
    }
    for placed in left {
        story.push(format!(
            "{} at request {} never happened: the controller sent fewer requests.",
            name(placed.fault),
            placed.at + 1
        ));
    }
    story
}

/// The fault's name in plain words.
pub fn name(fault: Fault) -> &'static str {
    match fault {
        Fault::CrashBefore => "a crash before a request",
        Fault::CrashAfterApplied => "a crash after the server applied a request",
        Fault::CrashAfterResponse => "a crash after a response",
        Fault::Unavailable => "a 503",
        Fault::LostResponse => "a lost response",
        Fault::WatchBroken => "a broken watch",
        Fault::ApiServerRestart => "an API server restart",
        Fault::CacheLag => "a lagging cache",
        Fault::OtherWriter => "another writer's update",
        Fault::CustomResourceDeleted => "a deleted custom resource",
    }
}

fn sentence(fired: &Fired) -> String {
    let n = fired.placed.at + 1;
    let Some(request) = fired.request.as_deref() else {
        return at_the_end(fired);
    };
    let restart = "on restart it listed the world again and reconciled from scratch";
    match fired.placed.fault {
        Fault::CrashBefore => format!(
            "The controller crashed just before request {n} ({request}), which never went out; {restart}."
        ),
        Fault::CrashAfterApplied => format!(
            "The server applied request {n} ({request}), but the controller crashed before it saw the answer; {restart}."
        ),
        Fault::CrashAfterResponse => format!(
            "The controller crashed right after it saw the answer to request {n} ({request}); {restart}."
        ),
        Fault::Unavailable => format!(
            "The API server answered request {n} ({request}) with 503 and changed nothing."
        ),
        Fault::LostResponse => format!(
            "The server applied request {n} ({request}), but the answer was lost: the controller saw 504 Timeout."
        ),
        Fault::WatchBroken => format!(
            "Right after request {n} ({request}), the watches broke; they resumed from the last resourceVersion."
        ),
        Fault::ApiServerRestart => format!(
            "Right after request {n} ({request}), the API server restarted: the watches got 410 Gone and the informers listed again."
        ),
        Fault::CacheLag => format!(
            "The cache saw the result of request {n} ({request}) {} ms late.",
            CACHE_LAG_MS
        ),
        Fault::OtherWriter => format!(
            "Just before request {n} ({request}), another writer updated that object."
        ),
        Fault::CustomResourceDeleted => format!(
            "Just before request {n} ({request}), someone deleted custom resource {}.",
            fired.reconciling
        ),
    }
}

/// A world fault that fired when the run had settled.
fn at_the_end(fired: &Fired) -> String {
    let when = "Once the controller had settled";
    match fired.placed.fault {
        Fault::CrashAfterResponse => format!("{when}, it crashed and restarted."),
        Fault::WatchBroken => format!("{when}, the watches broke and resumed."),
        Fault::ApiServerRestart => {
            format!("{when}, the API server restarted: 410 Gone, then a re-list.")
        }
        Fault::CustomResourceDeleted => format!(
            "{when}, someone deleted custom resource {}.",
            fired.reconciling
        ),
        fault => format!("{when}, {} happened.", name(fault)),
    }
}
