import type { AgentMessage, SessionContext, SessionEntry } from "../schema/types.js";
import type { Projection } from "../state/projection.js";
import { type Vec, vecOwning, vecPush, vecToArray } from "../state/vec.js";
import { applySetting, type ContextSettings, projectionOfPath } from "./context.js";
import { sessionEntryToContextMessages } from "./context-messages.js";

/** What a context builder is asked about the leaf; `path()` is root → leaf, O(path). */
export interface LeafView {
  readonly leafId: string | null;
  path(): SessionEntry[];
}

/** The context builder role (`buildSessionContext`, and the compaction's prompt checkpoint). */
export interface ContextRole<S = unknown> extends Projection<S> {
  readonly name: "context";
  context(state: S, leaf: LeafView): SessionContext;
}

/** What context building needs about the path to one entry; extended in O(1) per append (W21). */
export interface PathSummary {
  readonly path: Vec<SessionEntry>;
  readonly settings: ContextSettings;
  /** The flattened context messages, context edits applied. */
  readonly messages: Vec<AgentMessage>;
  /** The system messages among `messages`: a compaction checkpoint (§5.4) costs their number. */
  readonly systemMessages: Vec<AgentMessage>;
}

/**
 * The context builder's fold state: the summary of the path to the last appended entry (the
 * tip); an entry not appended at the tip leaves it stale, rebuilt in O(path) when needed.
 */
export interface ContextCache {
  readonly tip: SessionEntry | undefined;
  /** Memo slot: undefined until computed for a stale tip. Filling it changes no answer. */
  summary: PathSummary | undefined;
}

/** The summary of a whole path, in O(path). */
export function summarizePath(path: SessionEntry[]): PathSummary {
  const { messages, thinkingLevel, model } = projectionOfPath(path);
  return {
    path: vecOwning(path),
    settings: { thinkingLevel, model },
    messages: vecOwning(messages),
    systemMessages: vecOwning(messages.filter((m) => m?.role === "system")),
  };
}

/**
 * The summary of `summary.path + entry`, sharing storage. A compaction or context edit changes
 * what earlier entries contribute, so the messages are rebuilt; any other entry only adds its
 * own (it cannot be an earlier edit's target: only new ids extend). Runs on every append.
 */
function extendSummary(summary: PathSummary, entry: SessionEntry): PathSummary {
  const path = vecPush(summary.path, entry);
  const reshapes = entry.type === "compaction" || entry.type === "context_edit";
  if (reshapes) return summarizePath(vecToArray(path));
  let { messages, systemMessages } = summary;
  for (const message of sessionEntryToContextMessages(entry)) {
    messages = vecPush(messages, message);
    if (message?.role === "system") systemMessages = vecPush(systemMessages, message);
  }
  const settings = applySetting(summary.settings, entry);
  return { path, settings, messages, systemMessages };
}

/** What is sent to the model, from a summary (a copy: callers may change it). */
export function contextOfSummary(summary: PathSummary): SessionContext {
  const { thinkingLevel, model } = summary.settings;
  return { messages: vecToArray(summary.messages), thinkingLevel, model: model && { ...model } };
}

/**
 * The built-in context builder. The summary is built on first use (a load, or a session nobody
 * asks for context, pays nothing per entry), then extended while appends stay at the tip.
 */
export const contextProjection: ContextRole<ContextCache> = {
  name: "context",
  init: () => ({ tip: undefined, summary: undefined }),
  apply(cache, entry, ctx) {
    // Only a new id extends: a reused one changes what lookups along the path return.
    const atTip =
      cache.summary !== undefined &&
      (cache.tip === undefined ? entry.parentId === null : entry.parentId === cache.tip.id) &&
      ctx.getEntry(entry.id) === undefined;
    return {
      tip: entry,
      summary: atTip ? extendSummary(cache.summary as PathSummary, entry) : undefined,
    };
  },
  context: (_cache, leaf) => contextOfSummary(summarizePath(leaf.path())),
};
