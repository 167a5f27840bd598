/**
 * The record rules of a session file (SPEC §2.2–§2.4, W5), in one place for every reader —
 * the loader, the migration split, the listing's info and shape folds: what makes a file a
 * session (a valid header as its first record), which version it is and whether it is read
 * as it is or migrated, and what becomes of each later record: a second `session` record or
 * an entry without a string id is reported and kept in the file but not in the tree. The
 * texts of those diagnostics are here too.
 */

import type { Either } from "fp-ts/lib/Either.js";
import { left, right } from "fp-ts/lib/Either.js";
import type { SessionHeader } from "../schema/types.js";
import type { JsonRecord, ParsedDocument } from "./parse.js";

/** The format version this package writes (SPEC §2.3). */
export const CURRENT_SESSION_VERSION = 3;

/**
 * True if `record` is a valid header: an object with `type === "session"` and a string `id`
 * (SPEC §2.2). Nothing else is checked; readers tolerate a missing `cwd` or a bad `timestamp`.
 */
export function isValidHeader(record: unknown): record is SessionHeader {
  if (typeof record !== "object" || record === null) return false;
  const r = record as JsonRecord;
  return r.type === "session" && typeof r.id === "string";
}

/**
 * Index of the record migration treats as the header: the first with `type === "session"`,
 * wherever it is (SPEC §2.4), or `-1`. This is not the load rule; see {@link resolveHeader}.
 */
export function findHeaderIndex(records: readonly unknown[]): number {
  for (let i = 0; i < records.length; i++) {
    const r = records[i];
    if (typeof r === "object" && r !== null && (r as JsonRecord).type === "session") return i;
  }
  return -1;
}

/**
 * The version a header declares, as migration reads it (SPEC §2.3): `1` when there is no
 * header or no `version` (or it is `null`). Other values are converted with `Number`, which is
 * what R1.6's `<` comparisons do: `"2"` counts as 2, and a value that is not numeric gives
 * `NaN`, which compares as neither below 2 nor below 3, so such a file is left alone.
 */
export function headerVersion(header: JsonRecord | undefined): number {
  const v = header?.version;
  if (v === undefined || v === null) return 1;
  return typeof v === "number" ? v : Number(v);
}

/**
 * Whether a file with this header is read as it is (SPEC §2.3): only a numeric version ≥ 3
 * is. A missing, lower or non-numeric version (even `"3"`) goes through migration, which
 * reads it with {@link headerVersion}.
 */
export function isCurrentHeader(header: JsonRecord): boolean {
  const v = header.version;
  return typeof v === "number" && v >= CURRENT_SESSION_VERSION;
}

/**
 * What a record is, given whether an earlier record was already taken as the header: the
 * first `session` record is the header; a later one is an extra header; any other record is
 * an entry if it has a string id, else it cannot join the tree (`missing-id`).
 */
export type RecordKind = "header" | "extra-header" | "missing-id" | "entry";

/** The {@link RecordKind} of `record`; see there. */
export function recordKind(record: JsonRecord, headerSeen: boolean): RecordKind {
  if (record.type === "session") return headerSeen ? "extra-header" : "header";
  return typeof record.id === "string" ? "entry" : "missing-id";
}

/** A record kept in the file but not in the tree, as a load reports it (W5). */
export interface RecordProblem {
  readonly kind: "extra-header" | "invalid-entry";
  /** 1-based line number, when the records came from text. */
  readonly line: number | undefined;
  readonly message: string;
}

/** The report of an `extra-header` or `missing-id` record at `line`. */
export function recordProblem(
  kind: "extra-header" | "missing-id",
  record: JsonRecord,
  line: number | undefined,
): RecordProblem {
  if (kind === "extra-header") {
    return {
      kind,
      line,
      message: "a second session header; it is kept in the file but not used",
    };
  }
  return {
    kind: "invalid-entry",
    line,
    message: `entry of type ${JSON.stringify(record.type)} has no string id; it is kept in the file but not in the tree`,
  };
}

/** Why a parsed document is not a session file (SPEC §6.5 steps 3–4). */
export type NotASession =
  /** The text is 0 bytes long; a load initialises it with a new header (§6.4). */
  | { readonly kind: "empty" }
  /** The text is not empty but holds no record (only blank or malformed lines). */
  | { readonly kind: "no-records" }
  /** The first record is not a valid header (headerless, or the header is not first). */
  | { readonly kind: "invalid-header"; readonly line: number; readonly record: JsonRecord };

/** Where the header of a document is. */
export interface HeaderLocation {
  /** The header record. */
  readonly header: SessionHeader;
  /** Its index in `doc.lines`; lines before it are malformed and are kept. */
  readonly index: number;
  /** Its 1-based line number in the text. */
  readonly line: number;
}

/**
 * Finds the header of a document as a load does (SPEC §2.2): the first *parsed* record,
 * skipping malformed and non-object lines before it (which stay in `doc.lines`). Returns why
 * the file is not a session otherwise.
 */
export function resolveHeader(doc: ParsedDocument): Either<NotASession, HeaderLocation> {
  for (let i = 0; i < doc.lines.length; i++) {
    const l = doc.lines[i];
    if (l === undefined || l.value._tag === "Left") continue;
    const record = l.value.right;
    if (isValidHeader(record)) return right({ header: record, index: i, line: l.line });
    return left({ kind: "invalid-header", line: l.line, record });
  }
  return left(doc.textLength === 0 ? { kind: "empty" } : { kind: "no-records" });
}

/** Short human description of a {@link NotASession} reason, for diagnostics. */
export function describeNotASession(reason: NotASession): string {
  switch (reason.kind) {
    case "empty":
      return "the file is empty";
    case "no-records":
      return "the file holds no JSON records";
    case "invalid-header":
      return `line ${reason.line}: the first record is not a session header`;
  }
}
