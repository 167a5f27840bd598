import * as E from "fp-ts/lib/Either.js";
import { pipe } from "fp-ts/lib/function.js";
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
 * A guard run on every entry about to be appended, after it is built (id, parent, timestamp,
 * and the exact JSON value of its line) and before anything is folded or written. Returns a
 * rejection to refuse the append, or undefined to accept it. Must be pure and cheap: it runs
 * once per append. A validator that throws refuses the append with its own error.
 */
export type EntryValidator = (entry: Readonly<SessionEntry>) => EntryRejection | undefined;

function rejectionMessage(entry: Readonly<SessionEntry>, rejection: EntryRejection): string {
  const by = rejection.source ? ` by ${rejection.source}` : "";
  const issues = rejection.issues ?? [];
  const detail = issues.length === 0 ? "" : `: ${issues.map(formatSchemaIssue).join("; ")}`;
  return `Entry of type "${String(entry.type)}" rejected${by}: ${rejection.reason}${detail}`;
}

/**
 * Thrown by an append that an entry validator refused. Nothing was written or committed: the
 * session, its leaf and its file are exactly as before the call.
 */
export class EntryRejectedError extends Error {
  /** The entry that was refused (never stored). */
  readonly entry: Readonly<SessionEntry>;
  /** The validator's reason. */
  readonly reason: string;
  /** Schema issues with their paths (empty when the validator gave none). */
  readonly issues: readonly SchemaIssue[];
  /** Who refused, when the validator said. */
  readonly source: string | undefined;

  constructor(entry: Readonly<SessionEntry>, rejection: EntryRejection) {
    super(rejectionMessage(entry, rejection));
    this.name = "EntryRejectedError";
    this.entry = entry;
    this.reason = rejection.reason;
    this.issues = rejection.issues ?? [];
    this.source = rejection.source;
  }
}

/**
 * The guard of a strict manager (`options.strict`): every appended entry must match its
 * io-ts codec, so a caller that passes `usage.input: "400"` hears it at the append, with
 * the field's path, instead of from `check` later. Unknown entry types, fields, roles and
 * blocks pass (they round-trip, DESIGN rule 3).
 */
export const schemaValidator: EntryValidator = (entry) =>
  pipe(
    decodeEntry(entry),
    E.fold(
      (issues) => ({ reason: "it does not match its schema", issues, source: "strict append" }),
      () => undefined,
    ),
  );
