/**
 * One copy of a session, read for a merge: its lines as bytes (so a line that is copied through
 * keeps every byte, invalid UTF-8 included), the header, and every later line as an entry or an
 * opaque line (damaged, not an object, no string id, a second header). A legacy copy (v1/v2) is
 * migrated first, with ids drawn from a stream seeded by the session id, so two copies of one
 * legacy file migrate to the same ids and their common part merges as one.
 */

import { createHash } from "node:crypto";
import { createDeterministicEnv } from "../env/env.js";
import { InvalidSessionError } from "../format/load-text.js";
import { migrateDocument } from "../format/migrate.js";
import { type JsonRecord, parseJsonl } from "../format/parse.js";
import {
  describeNotASession,
  isCurrentHeader,
  recordKind,
  resolveHeader,
} from "../format/record-rules.js";

/** A copy of a session as the merge takes it: the file's text or its bytes. */
export type MergeInput = string | Uint8Array;

/** One line of a copy after the header. */
export interface CopyLine {
  /** `entry`: a record with a string id; `opaque`: kept as it is, never interpreted. */
  readonly kind: "entry" | "opaque";
  /** The line's bytes as read, without its `\n`. */
  readonly raw: Buffer;
  /** The record of an entry (migrated for a legacy copy); later, its ids renamed. */
  record?: JsonRecord;
  /** Whether `record` differs from what `raw` says (migrated or renamed): written anew. */
  changed: boolean;
  /** Whether the entry's id was minted by our migration (a v1 line had none): ours to choose. */
  minted?: boolean;
  /** `raw` as latin1 text (one character per byte), once it was needed. */
  text?: string;
}

/** A line's bytes as latin1 text: a string key that tells any two byte sequences apart. */
export function rawText(line: CopyLine): string {
  line.text ??= line.raw.toString("latin1");
  return line.text;
}

/** A parsed copy. */
export interface SessionCopy {
  readonly bytes: Buffer;
  /** Damaged lines before the header (a load skips them; a rewrite keeps them first). */
  readonly beforeHeader: readonly CopyLine[];
  readonly header: CopyLine & { record: JsonRecord };
  readonly sessionId: string;
  /** The version the header declared (below 3: migrated here). */
  readonly fromVersion: number;
  /** Every line after the header, in file order; blank lines are not lines. */
  readonly lines: CopyLine[];
}

/** The bytes of each `\n`-separated line, without the `\n`; the last may be a fragment. */
export function splitByteLines(bytes: Buffer): Buffer[] {
  const lines: Buffer[] = [];
  let start = 0;
  for (let nl = bytes.indexOf(0x0a); nl !== -1; nl = bytes.indexOf(0x0a, start)) {
    lines.push(bytes.subarray(start, nl));
    start = nl + 1;
  }
  lines.push(bytes.subarray(start));
  return lines;
}

/** A seed for legacy migration's id stream: the same session id always gives the same ids. */
function seedOf(sessionId: string): number {
  return createHash("sha256").update(sessionId).digest().readUInt32BE(0);
}

/** The bytes of a copy given as text or bytes. */
export function inputBytes(input: MergeInput): Buffer {
  return typeof input === "string" ? Buffer.from(input, "utf8") : Buffer.from(input);
}

/**
 * Reads one copy (`label` names it in errors). Throws {@link InvalidSessionError}, as a load
 * does, when the copy has no valid header first.
 */
export function readCopy(input: MergeInput, label: string): SessionCopy {
  const bytes = inputBytes(input);
  const doc = parseJsonl(bytes.toString("utf8"));
  const located = resolveHeader(doc);
  if (located._tag === "Left") {
    const reason = located.left;
    const message = `Session file is not a valid pi session: ${label}`;
    throw new InvalidSessionError(message, describeNotASession(reason), reason.kind);
  }
  const sessionId = located.right.header.id;
  const legacy = !isCurrentHeader(located.right.header as unknown as JsonRecord);
  const migration = legacy
    ? migrateDocument(doc, createDeterministicEnv({ seed: seedOf(sessionId) }))
    : undefined;
  const lines = migration?.document.lines ?? doc.lines;
  const byteLines = splitByteLines(bytes);
  const beforeHeader: CopyLine[] = [];
  const after: CopyLine[] = [];
  let header: SessionCopy["header"] | undefined;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i] as (typeof lines)[number];
    const raw = byteLines[l.line - 1] as Buffer;
    if (l.value._tag === "Left") {
      (header ? after : beforeHeader).push({ kind: "opaque", raw, changed: false });
      continue;
    }
    const record = l.value.right;
    const before = doc.lines[i]?.value;
    const changed = before?._tag !== "Right" || record !== before.right;
    if (!header) {
      header = { kind: "opaque", raw, record, changed };
      continue;
    }
    if (recordKind(record, true) !== "entry") {
      after.push({ kind: "opaque", raw, changed: false });
      continue;
    }
    const minted = legacy && before?._tag === "Right" && typeof before.right.id !== "string";
    after.push({ kind: "entry", raw, record, changed, ...(minted ? { minted } : {}) });
  }
  return {
    bytes,
    beforeHeader,
    header: header as SessionCopy["header"],
    sessionId,
    fromVersion: migration?.fromVersion ?? 3,
    lines: after,
  };
}
