/**
 * The problems of a loaded session as `check` reports them: core's load diagnostics, the two
 * file-level facts the loader tracks separately (a legacy version, a missing final newline),
 * and the field-level issues the schema codecs find in each record, each marked with whether
 * `check --repair` can fix it.
 */

import { formatSchemaIssue, type LoadDiagnosticKind, recordIssues } from "@pi-sessions/core";
import type { LoadedSession } from "./load-session.js";

/**
 * What is wrong: a core diagnostic kind, one of the file-level kinds, or `invalid-field` (a
 * known field of a record holds a value of the wrong type).
 */
export type ProblemKind =
  | LoadDiagnosticKind
  | "legacy-version"
  | "missing-newline"
  | "invalid-field";

/** One problem, with the file line where it is when one is known. */
export interface Problem {
  readonly kind: ProblemKind;
  /** 1-based line number in the file. */
  readonly line?: number;
  /** The entry concerned, when there is one. */
  readonly entryId?: string;
  readonly message: string;
  /** Whether `check --repair` fixes it (damaged lines never are: they are kept verbatim). */
  readonly fixable: boolean;
}

/**
 * Kinds `--repair` fixes: migration (legacy version and its notes), a missing final newline,
 * duplicate ids (the shadowed copies get fresh ids) and cycles (one link is cut). Damaged
 * lines, entries without ids, extra headers, dangling parents and wrong-typed fields stay:
 * fixing them would mean guessing or dropping data.
 */
const FIXABLE: ReadonlySet<ProblemKind> = new Set<ProblemKind>([
  "legacy-version",
  "migration",
  "missing-newline",
  "duplicate-id",
  "cycle",
]);

/** Whether `--repair` can fix a problem of this kind. */
export function isFixable(kind: ProblemKind): boolean {
  return FIXABLE.has(kind);
}

/** A record (header or entry) to check field by field, with its file line when known. */
export interface LinedRecord {
  readonly record: { readonly type?: unknown; readonly id?: unknown };
  readonly line: number | undefined;
}

/**
 * The field-level problems of records: one per issue, each naming the field path and what
 * was there (`message.usage.input: expected number, got "400"`). Unknown entry types, roles,
 * blocks and fields are not problems (SPEC §2.6: they round-trip unchanged).
 */
export function fieldProblems(records: Iterable<LinedRecord>): Problem[] {
  const out: Problem[] = [];
  for (const { record, line } of records) {
    const header = record.type === "session";
    // Without a line, a header's issue says where it is in words.
    const where = header && line === undefined ? "header: " : "";
    for (const issue of recordIssues(record)) {
      out.push({
        kind: "invalid-field",
        ...(line !== undefined ? { line } : {}),
        ...(!header && typeof record.id === "string" ? { entryId: record.id } : {}),
        message: `${where}${formatSchemaIssue(issue)}`,
        fixable: false,
      });
    }
  }
  return out;
}

/**
 * Every problem of a session, sorted by line (file-level ones without a line last); `fields`
 * are its {@link fieldProblems}, merged in by line after the structural ones of that line.
 */
export function problemsOf(session: LoadedSession, fields: readonly Problem[] = []): Problem[] {
  const out: Problem[] = session.diagnostics.map((d) => ({
    kind: d.kind,
    ...(d.line !== undefined ? { line: d.line } : {}),
    ...(d.entryId !== undefined ? { entryId: d.entryId } : {}),
    message: d.message,
    fixable: isFixable(d.kind),
  }));
  if (session.legacy) {
    out.push({
      kind: "legacy-version",
      ...(session.headerLine !== undefined ? { line: session.headerLine } : {}),
      message: `format version ${session.version}; current is 3 (migrate upgrades it)`,
      fixable: true,
    });
  }
  if (session.needsNewline) {
    out.push({
      kind: "missing-newline",
      message: "the file does not end with a newline (its last line was cut or never finished)",
      fixable: true,
    });
  }
  out.push(...fields);
  return out.sort(
    (a, b) => (a.line ?? Number.POSITIVE_INFINITY) - (b.line ?? Number.POSITIVE_INFINITY),
  );
}
