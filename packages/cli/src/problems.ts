/**
 * The problems of a loaded session as `check` reports them: core's load diagnostics plus the
 * two file-level facts the loader tracks separately (a legacy version, a missing final
 * newline), each marked with whether `check --repair` can fix it.
 */

import type { LoadDiagnosticKind } from "@pi-sessions/core";
import type { LoadedSession } from "./load-session.js";

/** What is wrong: a core diagnostic kind, or one of the file-level kinds. */
export type ProblemKind = LoadDiagnosticKind | "legacy-version" | "missing-newline";

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
 * lines, entries without ids, extra headers and dangling parents stay: fixing them would
 * mean guessing or dropping data.
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

/** Every problem of a session, sorted by line (file-level ones without a line last). */
export function problemsOf(session: LoadedSession): Problem[] {
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
  return out.sort(
    (a, b) => (a.line ?? Number.POSITIVE_INFINITY) - (b.line ?? Number.POSITIVE_INFINITY),
  );
}
