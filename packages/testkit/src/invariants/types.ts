/**
 * What the invariant checkers read and return. The shapes are loose on purpose: any object with
 * the reference SessionManager's read methods qualifies (ours, the reference npm package, or a
 * third-party implementation), and entries need only the common fields (SPEC §3.1).
 */
import type { AgentMessage, SessionEntryBase } from "@pi-sessions/core";

/** The invariants of DESIGN §4. */
export type InvariantId = "I1" | "I2" | "I3" | "I4" | "I5" | "I6" | "I7" | "I8" | "I9" | "I10";

/** One broken promise, found by a checker. Checkers return lists of these and never throw. */
export interface Violation {
  readonly invariant: InvariantId;
  /** What is wrong, in words. */
  readonly message: string;
  /** The entry concerned, when there is one. */
  readonly entryId?: string;
  /** The 1-based file line concerned, when the check read text. */
  readonly line?: number;
}

/** An entry as every implementation has it: `type`, `id`, `parentId`, `timestamp`, and more. */
export type EntryView = SessionEntryBase;

/** A node of `getTree()`. */
export interface TreeNodeView {
  readonly entry: EntryView;
  readonly children: readonly TreeNodeView[];
  readonly label?: string;
  readonly labelTimestamp?: string;
}

/** A load diagnostic as ours reports it (`getLoadDiagnostics()`); the reference has none. */
export interface DiagnosticView {
  readonly kind: string;
  readonly line?: number;
  readonly entryId?: string;
  readonly message?: string;
}

/**
 * The read API of a session manager the checkers use. `getLabel`, `getSessionName`,
 * `buildContextEntries`, `buildSessionContext` and `getLoadDiagnostics` are optional: checks
 * that need a missing one report it (or skip, where documented).
 */
export interface SessionView {
  getHeader(): object | null;
  getEntries(): readonly EntryView[];
  getEntry(id: string): EntryView | undefined;
  getLeafId(): string | null;
  getBranch(fromId?: string): readonly EntryView[];
  getTree(): readonly TreeNodeView[];
  getLabel?(id: string): string | undefined;
  getSessionName?(): string | undefined;
  buildContextEntries?(): readonly EntryView[];
  buildSessionContext?(): unknown;
  getLoadDiagnostics?(): readonly DiagnosticView[];
}

/**
 * A session that can also be appended to (what I9, earlier snapshots unchanged, and I10, damage,
 * drive).
 */
export interface AppendableSession extends SessionView {
  appendMessage(message: AgentMessage): string;
}

/** A plain log: what a checker of data (I2: ids and parents) accepts instead of a manager. */
export interface SessionData {
  readonly header?: object | null;
  readonly entries: readonly EntryView[];
}

/** The error text of anything thrown. */
export function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/**
 * Runs a check and turns anything the implementation throws into a violation, so a checker
 * never throws for a failing implementation.
 */
export function guard(invariant: InvariantId, run: (out: Violation[]) => void): Violation[] {
  const out: Violation[] = [];
  try {
    run(out);
  } catch (error) {
    out.push({
      invariant,
      message: `check stopped: the implementation threw ${describeError(error)}`,
    });
  }
  return out;
}

/** A violation without `undefined`-valued optional fields (so `toEqual` reads cleanly). */
export function violation(
  invariant: InvariantId,
  message: string,
  at: { entryId?: string | undefined; line?: number | undefined } = {},
): Violation {
  return {
    invariant,
    message,
    ...(at.entryId !== undefined ? { entryId: at.entryId } : {}),
    ...(at.line !== undefined ? { line: at.line } : {}),
  };
}

/** One line per violation: `I3 [entry ab12cd34]: …`, for assertion messages and logs. */
export function formatViolation(v: Violation): string {
  const where = [
    v.line !== undefined ? `line ${v.line}` : undefined,
    v.entryId !== undefined ? `entry ${v.entryId}` : undefined,
  ].filter(Boolean);
  return `${v.invariant}${where.length > 0 ? ` [${where.join(", ")}]` : ""}: ${v.message}`;
}
