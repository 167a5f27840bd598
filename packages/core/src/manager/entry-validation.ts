import * as E from "fp-ts/lib/Either.js";
import { decodeEntry } from "../schema/codecs/decode.js";
import { formatSchemaIssue, type SchemaIssue } from "../schema/codecs/issues.js";
import type { SessionEntry } from "../schema/types.js";

/** Why a validator refuses an entry. */
export interface EntryRejection {
  /** Human-readable reason, e.g. `custom entry "todo" has invalid data`. */
  readonly reason: string;
  /** Schema issues with their paths, when the reason is a codec mismatch. */
  readonly issues?: readonly SchemaIssue[];
  /** Who refused (a plugin name), for the message. */
  readonly source?: string;
}

/**
 * A guard run on every entry about to be appended, once it is built (id, parent, timestamp,
 * the exact JSON value of its line) and before anything is folded or written: a rejection
 * refuses the append. Must be pure and cheap (once per append); one that throws refuses the
 * append with its own error.
 */
export type EntryValidator = (entry: Readonly<SessionEntry>) => EntryRejection | undefined;

/** Thrown by an append a validator refused: nothing was written or committed. */
export class EntryRejectedError extends Error {
  /** The validator's reason. */
  readonly reason: string;
  /** Schema issues with their paths (empty when the validator gave none). */
  readonly issues: readonly SchemaIssue[];
  /** Who refused, when the validator said. */
  readonly source: string | undefined;

  /** `entry` is the refused entry (never stored). */
  constructor(
    readonly entry: Readonly<SessionEntry>,
    rejection: EntryRejection,
  ) {
    const by = rejection.source ? ` by ${rejection.source}` : "";
    const issues = rejection.issues ?? [];
    const detail = issues.length === 0 ? "" : `: ${issues.map(formatSchemaIssue).join("; ")}`;
    super(`Entry of type "${String(entry.type)}" rejected${by}: ${rejection.reason}${detail}`);
    this.name = "EntryRejectedError";
    this.reason = rejection.reason;
    this.issues = issues;
    this.source = rejection.source;
  }
}

/**
 * The guard of a strict manager (`options.strict`): an entry must match its io-ts codec, so
 * `usage.input: "400"` is refused at the append, with the field's path, not found by `check`
 * later. Unknown entry types, fields, roles and blocks pass (they round-trip, DESIGN rule 3).
 */
export const schemaValidator: EntryValidator = (entry) => {
  const decoded = decodeEntry(entry);
  if (E.isRight(decoded)) return undefined;
  return { reason: "it does not match its schema", issues: decoded.left, source: "strict append" };
};
