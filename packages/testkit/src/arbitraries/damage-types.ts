/**
 * What the damaged-file arbitrary injects, and what a conforming loader must report for it.
 */
import type { LoadDiagnosticKind, SessionEntry, SessionHeader } from "@pi-sessions/core";
import type { SessionLog } from "./jsonl.js";

/** The kinds of damage {@link damagedSessionArb} can inject. */
export type DamageKind =
  /** The file ends in a fragment of a line (a writer crashed mid-append). */
  | "torn-tail"
  /** The last line is complete but has no `\n` after it (not damage: nothing is reported). */
  | "missing-final-newline"
  /** A line that is not JSON. */
  | "garbage-line"
  /** A JSON line that is not an object (`42`, `[1]`, `null`, …). */
  | "non-object-line"
  /** An empty or whitespace-only line (ignored; nothing is reported, line numbers shift). */
  | "blank-line"
  /** A second `session` record after the header. */
  | "extra-header"
  /** An entry-like record without an `id`. */
  | "missing-id"
  /** A later line that repeats an existing entry's id (it shadows the earlier entry). */
  | "duplicate-id"
  /** An entry whose `parentId` names no entry. */
  | "dangling-parent"
  /** An entry made its own parent, or the parent of one of its descendants. */
  | "cycle";

/** Every damage kind. */
export const DAMAGE_KINDS: readonly DamageKind[] = [
  "torn-tail",
  "missing-final-newline",
  "garbage-line",
  "non-object-line",
  "blank-line",
  "extra-header",
  "missing-id",
  "duplicate-id",
  "dangling-parent",
  "cycle",
];

/** A diagnostic a loader must report: kind, 1-based line, and the entry when there is one. */
export interface ExpectedDiagnostic {
  readonly kind: LoadDiagnosticKind;
  readonly line: number;
  readonly entryId?: string;
}

/** One injected damage. */
export interface InjectedDamage {
  readonly kind: DamageKind;
  /** 1-based line of the damaged or inserted line in the damaged text. */
  readonly line: number;
  /** The entry concerned (structural damage). */
  readonly entryId?: string;
  /** Human-readable, e.g. `line 4: entry 1a2b3c4d made the parent of its descendant 5e6f…`. */
  readonly description: string;
  /** What a conforming loader reports for it; absent when nothing must be reported. */
  readonly expected?: ExpectedDiagnostic;
}

/** A damaged session file and everything a test needs to judge a loader on it. */
export interface DamagedSession {
  /** The intact log the damage was applied to. */
  readonly base: SessionLog;
  /** The header, unchanged. */
  readonly header: SessionHeader;
  /** The damaged file text. */
  readonly jsonl: string;
  /** What was injected, in file order. */
  readonly damage: readonly InjectedDamage[];
  /**
   * Every diagnostic a conforming loader reports (SPEC W5 malformed lines, W6 non-object lines, W14
   * cycles, W15 duplicate ids), in line order.
   */
  readonly expected: readonly ExpectedDiagnostic[];
  /**
   * The entries a loader must recover, in file order: the base entries (structural damage
   * applied) plus any duplicate lines. Garbage, torn and id-less lines are not among them.
   */
  readonly entries: SessionEntry[];
  /** The leaf after loading: the id of the last recovered entry, or null. */
  readonly leafId: string | null;
}

/** Sort key for diagnostics: by line, then kind, then entry id. */
export function compareDiagnostics(a: ExpectedDiagnostic, b: ExpectedDiagnostic): number {
  return (
    a.line - b.line ||
    a.kind.localeCompare(b.kind) ||
    (a.entryId ?? "").localeCompare(b.entryId ?? "")
  );
}
