/**
 * The record rules of a session file (SPEC §2.2–§2.4; W5: malformed lines are reported), one module
 * for every reader (the loader, the migration split, the listing's folds): what makes a file a
 * session, which version it is, and what becomes of each later record.
 */

import { type Either, left, right } from "fp-ts/lib/Either.js";
import { HEADER_TYPE } from "../schema/header-type.js";
import type { SessionHeader } from "../schema/types.js";
import type { LoadDiagnostic } from "../state/diagnostics.js";
import type { JsonRecord, ParsedDocument } from "./parse.js";

/** The format version this package writes (SPEC §2.3). */
export const CURRENT_SESSION_VERSION = 3;

/** A valid header: `type: "session"` with a string `id` (SPEC §2.2); readers tolerate the rest. */
export function isValidHeader(record: unknown): record is SessionHeader {
  const r = record as JsonRecord | null | undefined;
  return r?.type === HEADER_TYPE && typeof r.id === "string";
}

/** Index of migration's header, the first `session` record wherever it is (SPEC §2.4), or -1. */
export function findHeaderIndex(records: readonly unknown[]): number {
  return records.findIndex((r) => (r as JsonRecord | null | undefined)?.type === HEADER_TYPE);
}

/**
 * The version a header declares, as migration reads it (SPEC §2.3): `1` without a header or a
 * `version` (or `null`), else `Number(version)`, which is what R1.6's `<` comparisons do: `"2"`
 * counts as 2, and a non-numeric value gives `NaN`, below neither 2 nor 3, so it is left alone.
 */
export function headerVersion(header: JsonRecord | undefined): number {
  const v = header?.version;
  return v === undefined || v === null ? 1 : Number(v);
}

/** Whether a file is read as it is (SPEC §2.3): only at a numeric version ≥ 3 (not `"3"`). */
export function isCurrentHeader(header: JsonRecord): boolean {
  const v = header.version;
  return typeof v === "number" && v >= CURRENT_SESSION_VERSION;
}

/** The first `session` record is the header, a later one extra; others with a string id entries. */
export function recordKind(
  record: JsonRecord,
  headerSeen: boolean,
): "header" | "extra-header" | "missing-id" | "entry" {
  if (record.type === HEADER_TYPE) return headerSeen ? "extra-header" : "header";
  return typeof record.id === "string" ? "entry" : "missing-id";
}

/** The load report (W5) of an `extra-header` or `missing-id` record at `line`. */
export function recordProblem(
  kind: "extra-header" | "missing-id",
  record: JsonRecord,
  line: number | undefined,
): LoadDiagnostic {
  const extra = "a second session header; it is kept in the file but not used";
  if (kind === "extra-header") return { kind, line, message: extra };
  const type = JSON.stringify(record.type);
  const message = `entry of type ${type} has no string id; it is kept in the file but not in the tree`;
  return { kind: "invalid-entry", line, message };
}

/** Why a parsed document is not a session file (SPEC §6.5 steps 3–4). */
export type NotASession =
  /** The text is 0 bytes long; a load initialises it with a new header (§6.4). */
  | { readonly kind: "empty" }
  /** The text is not empty but holds no record (only blank or malformed lines). */
  | { readonly kind: "no-records" }
  /** The first record is not a valid header (headerless, or the header is not first). */
  | { readonly kind: "invalid-header"; readonly line: number; readonly record: JsonRecord };

/**
 * Finds the header of a document as a load does (SPEC §2.2): the first *parsed* record,
 * skipping malformed lines before it, with its index in `doc.lines` and its line; or why not.
 */
export function resolveHeader(
  doc: ParsedDocument,
): Either<NotASession, { header: SessionHeader; index: number; line: number }> {
  const index = doc.lines.findIndex((l) => l.value._tag === "Right");
  const l = doc.lines[index];
  if (l === undefined || l.value._tag === "Left") {
    return left(doc.textLength === 0 ? { kind: "empty" } : { kind: "no-records" });
  }
  const record = l.value.right;
  if (isValidHeader(record)) return right({ header: record, index, line: l.line });
  return left({ kind: "invalid-header", line: l.line, record });
}

/** Short human description of a {@link NotASession} reason, for diagnostics. */
export function describeNotASession(reason: NotASession): string {
  if (reason.kind === "empty") return "the file is empty";
  if (reason.kind === "no-records") return "the file holds no JSON records";
  return `line ${reason.line}: the first record is not a session header`;
}
