import { isLeft } from "fp-ts/lib/Either.js";
import * as builtinProjections from "../projections/builtins.js";
import { sanitizeSessionName } from "../projections/session-name.js";
import { decodeWith } from "../schema/codecs/issues.js";
import type { AnyEntryTypeDefinition } from "../schema/entry-type-registry.js";
import { ownEntryTypeProblem } from "../schema/entry-types.js";
import type * as schema from "../schema/types.js";
import { entryOf } from "../state/session-state.js";
import { appendEntry } from "./append-path.js";
import { contextEditReplacement, type EntryBase, EntryNotFoundError } from "./entry-builders.js";
import { EntryRejectedError } from "./entry-validation.js";
import type { ManagedSession } from "./managed-session.js";
import { systemCheckpoint } from "./system-checkpoint.js";

/*
 * The typed appends behind `SessionManager`'s `append*` methods (SPEC §5, §7.2–§7.4): each
 * builds its entry as an object literal in the reference's key order and hands it to the one
 * append path (`append-path.ts`). Payload keys go first where pi writes them first.
 */

/** A `thinking_level_change` entry. */
export function appendThinkingLevelChange(session: ManagedSession, thinkingLevel: string): string {
  return appendEntry(session, (b) => ({ type: "thinking_level_change", ...b, thinkingLevel }));
}

/** A `model_change` entry. */
export function appendModelChange(
  session: ManagedSession,
  provider: string,
  modelId: string,
): string {
  return appendEntry(session, (b) => ({ type: "model_change", ...b, provider, modelId }));
}

/** [R1.6] A `usage` entry: model usage outside the conversation (`note` only when non-empty). */
export function appendUsage(
  session: ManagedSession,
  kind: string,
  provider: string,
  model: string,
  usage: schema.Usage,
  note?: string,
): string {
  const fields = { kind, provider, model, usage, note: note || undefined };
  return appendEntry(session, (b) => ({ type: "usage", ...b, ...fields }));
}

/** What a compaction records besides its checkpoint, in the reference's parameter order. */
export interface CompactionFields {
  readonly summary: string;
  /** null: keep none (the compaction's own id is stored). */
  readonly firstKeptEntryId: string | null;
  readonly tokensBefore: number;
  readonly details?: unknown;
  readonly fromHook?: boolean;
  readonly usage?: schema.Usage;
}

/** A `compaction` entry with the system checkpoint of the context it summarises. */
export function appendCompaction(session: ManagedSession, fields: CompactionFields): string {
  const { summary, firstKeptEntryId, tokensBefore, details, fromHook, usage } = fields;
  return appendEntry(session, (b) => ({
    type: "compaction",
    ...b,
    summary,
    firstKeptEntryId: firstKeptEntryId ?? b.id,
    tokensBefore,
    details,
    usage,
    fromHook,
    // The checkpoint of the context this compaction summarises (`make` runs before the fold).
    systemMessage: systemCheckpoint(
      builtinProjections.systemMessagesOf(session.state),
      Date.parse(b.timestamp),
    ),
  }));
}

/** A `custom` entry: extension state that never reaches the model. */
export function appendCustom(session: ManagedSession, customType: string, data?: unknown): string {
  return appendEntry(session, (b) => ({ type: "custom", customType, data, ...b }));
}

/** A `session_info` entry (CR/LF runs become a space, then trimmed). */
export function appendSessionInfo(session: ManagedSession, name: string): string {
  const clean = sanitizeSessionName(name);
  return appendEntry(session, (b) => ({ type: "session_info", ...b, name: clean }));
}

/** A `custom_message` entry: extension content that reaches the model. */
export function appendCustomMessage(
  session: ManagedSession,
  customType: string,
  content: string | (schema.TextContent | schema.ImageContent)[],
  display: boolean,
  details?: unknown,
): string {
  const fields = { customType, content, display, details };
  return appendEntry(session, (b) => ({ type: "custom_message", ...fields, ...b }));
}

/** A `label` entry of an existing entry (undefined, "", null: kept as given, clearing it). */
export function appendLabel(
  session: ManagedSession,
  targetId: string,
  label: string | undefined,
): string {
  session.catchUp();
  if (!entryOf(session.state, targetId)) throw new EntryNotFoundError(targetId);
  return appendEntry(session, (b) => ({ type: "label", ...b, targetId, label }));
}

/** [R1.6] A `context_edit` entry: a branch-local edit of an earlier entry (SPEC §5.4). */
export function appendContextEdit(
  session: ManagedSession,
  targetId: string,
  replacement: schema.ContextEditEntry["replacement"],
): string {
  session.catchUp();
  const stored = contextEditReplacement(replacement, targetId, session.state);
  return appendEntry(session, (b) => ({
    type: "context_edit",
    ...b,
    targetId,
    replacement: stored,
  }));
}

/** What a branch summary records, in the reference's parameter order. */
export interface BranchSummaryFields {
  readonly summary: string;
  readonly details?: unknown;
  readonly fromHook?: boolean;
  readonly usage?: schema.Usage;
}

/**
 * Moves the leaf to `branchFromId` (null: before the first entry) and appends a
 * `branch_summary` there; a failed append puts the leaf back (W19).
 */
export function appendBranchSummary(
  session: ManagedSession,
  branchFromId: string | null,
  fields: BranchSummaryFields,
): string {
  session.catchUp();
  if (branchFromId !== null && !entryOf(session.state, branchFromId))
    throw new EntryNotFoundError(branchFromId);
  const fromId = session.state.leafId ?? "root";
  const { summary, details, usage, fromHook } = fields;
  const make = (b: EntryBase) =>
    ({ type: "branch_summary", ...b, fromId, summary, details, usage, fromHook }) as const;
  return appendEntry(session, make, undefined, branchFromId);
}

/** The fields an append fills in, which a defined entry's own fields may not set. */
const FILLED_IN = ["type", "id", "parentId", "timestamp"] as const;

/**
 * An entry of a type of one's own (made by `defineEntryType`, not a built-in's): `{ type, id,
 * parentId, timestamp, ...fields }` at the leaf. The line about to be written is checked by the
 * definition's codec before anything is folded or written; a mismatch throws
 * `EntryRejectedError` with the codec's issues. A definition not made by `defineEntryType`, a
 * built-in's name (each has its own append and rules) or fields setting a filled-in key throw
 * a `TypeError`, also before anything changes.
 */
export function appendDefined(
  session: ManagedSession,
  definition: AnyEntryTypeDefinition,
  fields: object,
): string {
  const name = `entry type ${JSON.stringify(String(definition?.type))}`;
  // A built-in type has its own append and rules; anything else is not a checked definition.
  const problem = ownEntryTypeProblem(definition, "append it with its own method");
  if (problem !== undefined) throw new TypeError(problem);
  if (typeof fields !== "object" || fields === null || Array.isArray(fields)) {
    throw new TypeError(`${name}: the fields must be an object`);
  }
  const taken = FILLED_IN.find((key) => Object.hasOwn(fields, key));
  if (taken !== undefined) throw new TypeError(`${name}: "${taken}" is filled in by the append`);
  return appendEntry(session, (b) => {
    const entry = { type: definition.type, ...b, ...fields };
    // The codec checks what the line will say (JSON drops undefined, turns dates to strings).
    const written = JSON.parse(JSON.stringify(entry)) as schema.SessionEntry;
    const decoded = decodeWith(definition.codec, written);
    if (isLeft(decoded)) {
      const rejection = { reason: "it does not match its definition", issues: decoded.left };
      throw new EntryRejectedError(written, { ...rejection, source: name });
    }
    return entry as unknown as schema.SessionEntry;
  });
}
