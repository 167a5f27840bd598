import type { AgentMessage, SessionEntry } from "../schema/types.js";
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
import { sessionEntryToContextMessages } from "./context-messages.js";
import { defineProjection } from "./define-projection.js";

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
  /** Whether the context entries contain a context_edit (then messages are rebuilt). */
  readonly hasEdits: boolean;
  /** The flattened context messages, or undefined when they must be rebuilt. */
  readonly messages: Vec<AgentMessage> | undefined;
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
  const compactionIndex = lastCompactionIndex(path);
  const contextEntries = contextEntriesOfPath(path);
  const hasEdits = contextEntries.some((e) => e.type === "context_edit");
  return {
    path: vecOwning(path),
    settings: settingsOfPath(path),
    compactionIndex,
    hasEdits,
    messages: hasEdits
      ? undefined
      : vecOwning(flattenMessages(projectContextEntries(contextEntries))),
  };
}

/** The summary of `summary.path + entry`, sharing storage with `summary`. */
export function extendSummary(summary: PathSummary, entry: SessionEntry): PathSummary {
  const path = vecPush(summary.path, entry);
  if (entry.type === "compaction") return summarizePath(vecToArray(path));
  const hasEdits = summary.hasEdits || entry.type === "context_edit";
  let messages: Vec<AgentMessage> | undefined;
  if (!hasEdits && summary.messages) {
    const added = sessionEntryToContextMessages(entry);
    messages = added.length === 0 ? summary.messages : vecPush(summary.messages, ...added);
  }
  return {
    path,
    settings: applySetting(summary.settings, entry),
    compactionIndex: summary.compactionIndex,
    hasEdits,
    messages,
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
    hasEdits: false,
    messages: emptyVec(),
  };
}

/** Context builder projection: follows appends at the tip, goes stale otherwise. */
export const contextProjection = defineProjection<ContextCache>({
  name: "context",
  init: () => ({ tip: undefined, summary: emptySummary() }),
  apply(cache, entry, ctx) {
    // A reused id changes what lookups along the path return, so extension would be unsafe.
    const atTip =
      cache.summary !== undefined &&
      ctx.getEntry(entry.id) === undefined &&
      (cache.tip === undefined ? entry.parentId === null : entry.parentId === cache.tip.id);
    return {
      tip: entry,
      summary: atTip ? extendSummary(cache.summary as PathSummary, entry) : undefined,
    };
  },
});

/** The flattened messages of a summary, rebuilding them when edits made them stale. */
export function summaryMessages(summary: PathSummary): AgentMessage[] {
  if (summary.messages) return vecToArray(summary.messages);
  return flattenMessages(projectContextEntries(contextEntriesOfPath(vecToArray(summary.path))));
}
