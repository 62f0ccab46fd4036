//! The shapes the API returns, and their TypeScript declarations.
//!
//! Every output is core's own serialization; `Timeline` only picks the parts
//! of a run a course page needs and adds the verdict's sentence. The
//! TypeScript below must follow core's serde attributes: when a serialized
//! core type changes, change its declaration here too.

#[cfg(feature = "simulate")]
pub use simulation::{SimVerdict, Timeline};
use wasm_bindgen::prelude::wasm_bindgen;

#[cfg(feature = "simulate")]
mod simulation {
    use reconcile_sim::{LogEntry, PassRecord, Verdict};
    use serde::Serialize;

    /// What `simulate` returns.
    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    pub struct Timeline<'a> {
        pub passes: &'a [PassRecord],
        pub log: &'a [LogEntry],
        pub verdict: &'a Verdict,
        /// "Converged after 2 passes (t = 25 ms)", "Not converging: ...".
        pub verdict_text: String,
    }

    impl<'a> Timeline<'a> {
        pub fn of(timeline: &'a reconcile_sim::Timeline) -> Self {
            Self {
                passes: &timeline.passes,
                log: &timeline.log,
                verdict: &timeline.verdict,
                verdict_text: timeline.verdict.to_string(),
            }
        }
    }

    /// What `simulateVerdict` returns: the end of a run without its passes.
    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    pub struct SimVerdict<'a> {
        /// How many passes ran.
        pub passes: usize,
        pub verdict: &'a Verdict,
        pub verdict_text: String,
    }

    impl<'a> SimVerdict<'a> {
        pub fn of(timeline: &'a reconcile_sim::Timeline) -> Self {
            Self {
                passes: timeline.passes.len(),
                verdict: &timeline.verdict,
                verdict_text: timeline.verdict.to_string(),
            }
        }
    }
}

/// The simulation starts from the same three documents `reconcile` takes.

#[wasm_bindgen(typescript_custom_section)]
const TYPESCRIPT: &str = r#"
/** Any JSON value. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** The desired or the observed state: `{name: spec}`. A spec may be any JSON value. */
export type Resources = { [name: string]: Json };

/** Pending finalizers per object name: `{name: ["finalizer", ...]}`. */
export type Finalizers = { [name: string]: string[] };

/** The three documents together, as `simulate` (and the CLI) take them. */
export interface Scenario {
  desired: Resources;
  observed: Resources;
  finalizers?: Finalizers | null;
}

/**
 * One action of the reconcile contract: `["CREATE","a",{"replicas":1}]`,
 * `["UPDATE","b",{"replicas":3}]`, `["FINALIZE","svc",null]`, `["DELETE","c",null]`.
 * CREATE and UPDATE carry the desired spec.
 */
export type Action =
  | [kind: "CREATE" | "UPDATE", name: string, spec: Json]
  | [kind: "FINALIZE" | "DELETE", name: string, spec: null];

export type ActionKind = Action[0];

/** Why `reconcile` chose an action: one variant per rule of the contract. */
export type Reason =
  /** CREATE: desired, but not observed. */
  | { rule: "not-observed" }
  /** UPDATE: the observed spec differs from the desired one in `fields` places. */
  | { rule: "drifted"; fields: number }
  /** FINALIZE: no longer desired, but these finalizers are pending. */
  | { rule: "finalizers-pending"; finalizers: string[] }
  /** DELETE: no longer desired and nothing pending; `hadEntry` tells `[]` from no entry. */
  | { rule: "no-finalizers-pending"; hadEntry: boolean };

/** One field that differs, from observed to desired. `null` also stands for "absent on that side". */
export interface Drift {
  /** Where, e.g. `$.spec.replicas` or `$["my app"][0]`. */
  path: string;
  observed: Json;
  desired: Json;
}

export interface ExplainedAction {
  action: Action;
  reason: Reason;
  /** Field-level drift; non-empty exactly for UPDATE. */
  drift: Drift[];
}

export interface Summary {
  create: number;
  update: number;
  finalize: number;
  delete: number;
}

export interface Plan {
  actions: ExplainedAction[];
  summary: Summary;
  /** "1 to create, 1 to update, 0 to finalize, 1 to delete", or "Converged: nothing to do". */
  summaryText: string;
}

/** How a failed pass is requeued. Defaults to client-go's `DefaultControllerRateLimiter`. */
export type BackoffPolicy =
  | { policy: "client-go"; base_ms: number; max_ms: number; qps: number; burst: number }
  | { policy: "fixed-delay"; delay_ms: number };

/** Something another actor does to the world. */
export type WorldEvent =
  | { kind: "delete"; name: string }
  | { kind: "drift"; name: string; path: string[]; value: Json }
  | { kind: "stray-create"; name: string; spec: Json }
  | { kind: "add-finalizer"; name: string; finalizer: string }
  | { kind: "set-desired"; desired: Resources };

/**
 * Simulation settings; every one is optional and defaults as shown.
 * An unknown option name is an error. Times are simulated milliseconds.
 */
export interface SimOptions {
  /** Seed of the simulation's own random numbers (a safe integer). Default 1. */
  seed?: number;
  /** Stop with "pass limit" after this many passes. Default 100. */
  maxPasses?: number;
  /** Probability that one action fails transiently. Default 0. */
  failureRate?: number;
  /** Probability that one watch event never reaches the controller. Default 0. */
  dropRate?: number;
  /** Periodic resync; `null` (the default) turns it off. */
  resyncPeriodMs?: number | null;
  /** Whether the controller watches the objects it owns. Default true. */
  watchOwned?: boolean;
  backoff?: BackoffPolicy;
  /** How long one action (one API call) takes. Default 10. */
  actionMs?: number;
  /** Delay from a write to its watch event reaching the controller. Default 5. */
  watchLatencyMs?: number;
  /** Delay from a pass ending to finalizer owners removing an entry each. Default 50. */
  finalizerOwnerDelayMs?: number;
  /** Delay from a crash to the restarted controller listing the world again. Default 500. */
  restartDelayMs?: number;
  /** Finalizers whose owner never removes them. */
  stuckFinalizers?: { object: string; finalizer: string }[];
  /** Crash in pass `atPass` (1-based) after `afterActions` of its actions. */
  crash?: { atPass: number; afterActions: number } | null;
  /** Things other actors do, each right after pass `afterPass` (0 = before the first). */
  script?: { afterPass: number; event: WorldEvent }[];
  /** Other controllers that write a field whenever it differs from their value. */
  otherWriters?: { name: string; object: string; path: string[]; value: Json; reactionMs: number }[];
}

export type Change = "added" | "updated" | "deleted";

/** Why a pass ran. `reconcile` itself never sees it. */
export type Trigger =
  | { kind: "custom-resource"; change: Change; after_restart: boolean }
  | { kind: "owned-object"; name: string; change: Change }
  | { kind: "resync" }
  | { kind: "requeue"; failures: number };

/** What became of one action of a pass. */
export type ActionResult =
  | { result: "applied" }
  | { result: "already-terminating" }
  | { result: "failed"; requeued_at: number }
  | { result: "not-attempted" }
  | { result: "lost-in-crash" };

export type ActionOutcome = { action: Action } & ActionResult;

/** The cluster as the API server holds it. */
export interface World {
  observed: Resources;
  finalizers: Finalizers;
  /** Objects being deleted, with the time their deletion began. */
  terminating: { [name: string]: number };
}

/** One pass of the loop: reconcile, then apply each action. */
export interface PassRecord {
  /** 1-based. */
  index: number;
  startedAt: number;
  finishedAt: number;
  trigger: Trigger;
  actions: ActionOutcome[];
  crashed: boolean;
  worldAfter: World;
  /** How many actions `reconcile` would return right after the pass. */
  outOfSync: number;
  terminating: number;
}

/** Something that happened between passes. */
export type Happening =
  | { kind: "watch-event-dropped"; name: string; change: Change }
  | { kind: "deferred"; trigger: Trigger }
  | { kind: "external-event"; event: WorldEvent; effect: string }
  | { kind: "finalizer-removed"; object: string; finalizer: string }
  | { kind: "rejected"; object: string; reason: string }
  | { kind: "other-writer-wrote"; writer: string; object: string; path: string; value: Json }
  | { kind: "crashed"; pass: number }
  | { kind: "restarted" };

/** `after_pass`: how many passes had finished when it happened. */
export type LogEntry = { at: number; after_pass: number } & Happening;

export type NotConvergingReason =
  | { kind: "stuck-finalizer"; object: string; finalizer: string }
  | { kind: "oscillation"; object: string; field: string; other_writer: string | null }
  | { kind: "pass-limit"; limit: number }
  | { kind: "no-trigger"; out_of_sync: number };

export type Verdict =
  | { verdict: "converged"; passes: number; time: number }
  | { verdict: "not-converging"; reason: NotConvergingReason };

/** A whole simulated run. */
export interface Timeline {
  passes: PassRecord[];
  log: LogEntry[];
  verdict: Verdict;
  /** "Converged after 2 passes (t = 25 ms)", "Not converging: ...". */
  verdictText: string;
}

/** How a run ended, as `simulateVerdict` returns it: a `Timeline` without its passes and log. */
export interface SimVerdict {
  /** How many passes ran. */
  passes: number;
  verdict: Verdict;
  /** The verdict as a sentence, as in `Timeline`. */
  verdictText: string;
}
"#;
