import type { AgentMessage, SessionEntry, SessionMessageEntry } from "../schema/types.js";
import { defineProjection } from "../state/projection.js";
import { emptyVec, type Vec, vecOwning, vecPush, vecToArray } from "../state/vec.js";
import {
  applySetting,
  type ContextSettings,
  contextEntriesOfPath,
  flattenMessages,
  INITIAL_SETTINGS,
  lastCompactionIndex,
  projectContextEntries,
  settingsOfPath,
} from "./context.js";
import { contextMessageOf, sessionEntryToContextMessages } from "./context-messages.js";

/**
 * Everything context building needs about the path that ends at one entry, kept up to date
 * as entries are appended at that entry (SPEC W21: context costs the path, not the file, and
 * appending at the leaf extends it in O(1)).
 */
export interface PathSummary {
  /** Entries from the root to the tip. */
  readonly path: Vec<SessionEntry>;
  readonly settings: ContextSettings;
  /** Index in `path` of the last compaction, or -1. */
  readonly compactionIndex: number;
  /** The flattened context messages, context edits applied. */
  readonly messages: Vec<AgentMessage>;
  /**
   * The system messages among `messages`, in order: what a compaction's prompt checkpoint
   * folds (SPEC §5.4), kept so that `appendCompaction` costs their number, not the context's
   * (W21).
   */
  readonly systemMessages: Vec<AgentMessage>;
}

/**
 * The context builder's fold state: the path summary of the most recently appended entry
 * (the tip; every append moves the leaf there). When an entry is not appended at the tip
 * the summary goes stale and is rebuilt lazily, in O(path), the first time it is needed.
 */
export interface ContextCache {
  readonly tip: SessionEntry | undefined;
  /** Memo slot: undefined until computed for a stale tip. Filling it changes no answer. */
  summary: PathSummary | undefined;
}

/** Builds the summary of a whole path in O(path). */
export function summarizePath(path: SessionEntry[]): PathSummary {
  const messages = flattenMessages(projectContextEntries(contextEntriesOfPath(path)));
  return {
    path: vecOwning(path),
    settings: settingsOfPath(path),
    compactionIndex: lastCompactionIndex(path),
    messages: vecOwning(messages),
    systemMessages: vecOwning(messages.filter(isSystem)),
  };
}

function isSystem(message: AgentMessage): boolean {
  return message?.role === "system";
}

/**
 * The summary of `summary.path + entry`, sharing storage with `summary`. A compaction or a
 * context edit changes what earlier entries contribute, so the messages are rebuilt from the
 * path (O(context), once per such entry); any other entry only adds its own messages — it
 * cannot be the target of an earlier edit, because extension only happens for new ids. This
 * runs on every append, so the common case (one message) allocates only the new vectors.
 */
export function extendSummary(summary: PathSummary, entry: SessionEntry): PathSummary {
  const path = vecPush(summary.path, entry);
  if (entry.type === "compaction" || entry.type === "context_edit") {
    return summarizePath(vecToArray(path));
  }
  let messages = summary.messages;
  let systemMessages = summary.systemMessages;
  if (entry.type === "message") {
    const message = contextMessageOf(entry as SessionMessageEntry);
    messages = vecPush(messages, message);
    if (isSystem(message)) systemMessages = vecPush(systemMessages, message);
  } else {
    for (const message of sessionEntryToContextMessages(entry)) {
      messages = vecPush(messages, message);
      if (isSystem(message)) systemMessages = vecPush(systemMessages, message);
    }
  }
  return {
    path,
    settings: applySetting(summary.settings, entry),
    compactionIndex: summary.compactionIndex,
    messages,
    systemMessages,
  };
}

/**
 * The empty path's summary (leaf `null`). Fresh every time: vectors grow in place when they
 * are the newest snapshot of their array, so a shared empty one would keep the first entry
 * ever appended alive (and make unrelated sessions share storage).
 */
export function emptySummary(): PathSummary {
  return {
    path: emptyVec(),
    settings: INITIAL_SETTINGS,
    compactionIndex: -1,
    messages: emptyVec(),
    systemMessages: emptyVec(),
  };
}

/**
 * The context cache after `entry`, given whether its id is new to the log (`isNewId`): the
 * summary is extended when the entry hangs off the tip, else it goes stale. A reused id
 * changes what lookups along the path return, so then extension would be unsafe.
 */
export function advanceContext(
  cache: ContextCache,
  entry: SessionEntry,
  isNewId: boolean,
): ContextCache {
  const atTip =
    cache.summary !== undefined &&
    isNewId &&
    (cache.tip === undefined ? entry.parentId === null : entry.parentId === cache.tip.id);
  return {
    tip: entry,
    summary: atTip ? extendSummary(cache.summary as PathSummary, entry) : undefined,
  };
}

/** Context builder projection: follows appends at the tip, goes stale otherwise. */
export const contextProjection = defineProjection<ContextCache>({
  name: "context",
  // The summary is built on first use (a load or a session nobody asks for context pays
  // nothing per entry) and extended from then on while appends stay at the tip.
  init: () => ({ tip: undefined, summary: undefined }),
  apply: (cache, entry, ctx) => advanceContext(cache, entry, ctx.getEntry(entry.id) === undefined),
});

/** The flattened context messages of a summary, as a new array. */
export function summaryMessages(summary: PathSummary): AgentMessage[] {
  return vecToArray(summary.messages);
}
