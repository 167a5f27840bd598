/**
 * Planning a repair or a migration of one session file, in memory: which lines change and
 * what the new file is. Every line that is not changed keeps its exact bytes; changed lines
 * are records re-serialised from their (migrated or fixed) JSON value. Nothing is written here.
 */

import {
  replayState,
  type SessionEntry,
  type SessionEnv,
  type SessionHeader,
} from "@pi-sessions/core";
import {
  generateEntryId,
  type JsonRecord,
  migrateDocument,
  parseJsonl,
  resolveHeader,
  serializeRecord,
  structuralDiagnostics,
} from "@pi-sessions/core/internal";
import { joinLines, splitLines } from "./lines.js";

/** What a repair did (or, for a dry run, would do). */
export interface RepairAction {
  readonly kind: "migrated" | "migration-note" | "duplicate-id" | "cycle" | "missing-newline";
  /** The line changed, when the action is about one. */
  readonly line?: number;
  readonly message: string;
}

/** The outcome of planning: the new bytes and why they differ. */
export interface RepairPlan {
  readonly original: Buffer;
  readonly output: Buffer;
  /** Whether `output` differs from `original` (a write is needed). */
  readonly changed: boolean;
  readonly actions: readonly RepairAction[];
  /** The version the header had (absent = 1). */
  readonly fromVersion: number;
}

/** Which fixes to plan. `migrate` alone is what the `migrate` command does. */
export interface RepairOptions {
  /** v1/v2 → v3 (SPEC §2.4). */
  readonly migrate: boolean;
  /** Duplicate ids and parent cycles. */
  readonly structural: boolean;
  /** Ids for migrated entries and renamed duplicates. */
  readonly env: SessionEnv;
}

/** Thrown when the bytes are not a session at all; nothing can be planned. */
export class NotRepairableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "NotRepairableError";
  }
}

/** An entry-like record and the line it is on. */
interface Placed {
  readonly line: number;
  readonly record: JsonRecord;
}

/** The working copy: each record by line, and which lines changed. */
class Draft {
  readonly records = new Map<number, JsonRecord>();
  readonly changed = new Set<number>();
  readonly actions: RepairAction[] = [];

  set(line: number, record: JsonRecord): void {
    this.records.set(line, record);
    this.changed.add(line);
  }

  /** Entry-like records (a string id, not a `session` record) in file order. */
  entries(): Placed[] {
    const out: Placed[] = [];
    for (const [line, record] of [...this.records].sort((a, b) => a[0] - b[0])) {
      if (record.type !== "session" && typeof record.id === "string") out.push({ line, record });
    }
    return out;
  }
}

/** Gives every shadowed copy of a duplicated id a fresh id; the last copy keeps it (W15). */
function renameDuplicates(draft: Draft, env: SessionEnv): void {
  const placed = draft.entries();
  const taken = new Set(placed.map((p) => p.record.id as string));
  const lastLine = new Map<string, number>();
  for (const p of placed) lastLine.set(p.record.id as string, p.line);
  for (const { line, record } of placed) {
    const id = record.id as string;
    const last = lastLine.get(id) as number;
    if (last === line) continue;
    const fresh = generateEntryId(env, (candidate) => taken.has(candidate));
    taken.add(fresh);
    draft.set(line, { ...record, id: fresh });
    draft.actions.push({
      kind: "duplicate-id",
      line,
      message: `entry ${id} was shadowed by line ${last}; renamed to ${fresh} (lookups already went to line ${last})`,
    });
  }
}

/** Cuts every parent cycle (W14) by making its first member a root. Bounded by the entries. */
function breakCycles(draft: Draft, header: SessionHeader): void {
  for (let round = 0; round <= draft.records.size; round++) {
    const placed = draft.entries();
    const state = replayState(
      header,
      placed.map((p) => p.record as unknown as SessionEntry),
    );
    const cycles = structuralDiagnostics(state.log, (pos) => placed[pos]?.line).filter(
      (d) => d.kind === "cycle" && d.line !== undefined,
    );
    if (cycles.length === 0) return;
    const line = cycles[0]?.line as number;
    const record = draft.records.get(line) as JsonRecord;
    draft.set(line, { ...record, parentId: null });
    draft.actions.push({
      kind: "cycle",
      line,
      message: `entry ${String(record.id)} closed a parent cycle (parent ${String(record.parentId)}); it is now a root`,
    });
  }
}

/**
 * Plans the repair of a session file's bytes. Throws {@link NotRepairableError} when the
 * bytes hold no session header first (there is nothing safe to do with such a file).
 */
export function planRepair(original: Buffer, options: RepairOptions): RepairPlan {
  const doc = parseJsonl(original.toString("utf8"));
  const located = resolveHeader(doc);
  if (located._tag === "Left") {
    throw new NotRepairableError(
      located.left.kind === "empty"
        ? "the file is empty"
        : located.left.kind === "no-records"
          ? "the file holds no JSON records"
          : `line ${located.left.line}: the first record is not a session header`,
    );
  }
  const draft = new Draft();
  for (const l of doc.lines) if (l.value._tag === "Right") draft.records.set(l.line, l.value.right);
  const headerLine = located.right.line;
  let header = located.right.header;
  const migration = migrateDocument(doc, options.env);
  if (options.migrate && migration.changed) {
    let count = 0;
    for (const l of migration.document.lines) {
      if (l.value._tag === "Right" && l.value.right !== draft.records.get(l.line)) {
        draft.set(l.line, l.value.right);
        count++;
      }
    }
    header = draft.records.get(headerLine) as unknown as SessionHeader;
    draft.actions.push({
      kind: "migrated",
      message: `format v${migration.fromVersion} → v3: ${count} record(s) rewritten`,
    });
    for (const d of migration.diagnostics) {
      draft.actions.push({
        kind: "migration-note",
        ...(d.line !== undefined ? { line: d.line } : {}),
        message: d.message,
      });
    }
  }
  const legacyLeft = !options.migrate && migration.changed;
  // A legacy file's ids are not final until it is migrated, so structure waits for that.
  if (options.structural && !legacyLeft) {
    renameDuplicates(draft, options.env);
    breakCycles(draft, header);
  }
  const lines = splitLines(original);
  const last = lines[lines.length - 1] as Buffer;
  if (last.length > 0) {
    draft.actions.push({
      kind: "missing-newline",
      line: lines.length,
      message: "added the missing final newline (the last line itself is kept as it was)",
    });
  }
  const out = lines.map((bytes, i) => {
    const record = draft.changed.has(i + 1) ? draft.records.get(i + 1) : undefined;
    return record === undefined ? bytes : Buffer.from(serializeRecord(record).slice(0, -1));
  });
  const output = joinLines(out);
  return {
    original,
    output,
    changed: !output.equals(original),
    actions: draft.actions,
    fromVersion: migration.fromVersion,
  };
}
