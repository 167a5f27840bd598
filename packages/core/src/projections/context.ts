import type {
  AgentMessage,
  CompactionEntry,
  ContextEditEntry,
  ProjectedSessionEntry,
  SessionContext,
  SessionEntry,
  SessionMessageEntry,
  SessionProjection,
} from "../schema/types.js";
import { walkPath } from "../state/tree.js";
import { projectContextEntry } from "./context-messages.js";

/** Model settings in effect at the end of a path (SPEC §8.2). */
export type ContextSettings = Readonly<Pick<SessionContext, "thinkingLevel" | "model">>;

/** Settings of an empty path. */
export const INITIAL_SETTINGS: ContextSettings = { thinkingLevel: "off", model: null };

/** The settings after one more path entry; the last change on the path wins. */
export function applySetting(settings: ContextSettings, entry: SessionEntry): ContextSettings {
  if (entry.type === "thinking_level_change") {
    return { thinkingLevel: entry.thinkingLevel, model: settings.model };
  }
  if (entry.type === "model_change") {
    return { ...settings, model: { provider: entry.provider, modelId: entry.modelId } };
  }
  const m = entry.type === "message" ? (entry as SessionMessageEntry).message : undefined;
  if (m?.role !== "assistant") return settings;
  // Most turns keep the model: share the settings (callers get a copy of the model).
  const model = settings.model;
  if (model !== null && model.provider === m.provider && model.modelId === m.model) return settings;
  return { ...settings, model: { provider: m.provider, modelId: m.model } };
}

/** The compaction-aware entries of a path (SPEC §8.3), kept system messages left out. */
export function contextEntriesOfPath(path: readonly SessionEntry[]): SessionEntry[] {
  const c = path.findLastIndex((e) => e.type === "compaction");
  if (c < 0) return path.slice();
  const compaction = path[c] as CompactionEntry;
  const first = path.findIndex((e) => e.id === compaction.firstKeptEntryId);
  const kept = path
    .slice(first < 0 ? c : first, c)
    .filter((e) => e.type !== "message" || (e as SessionMessageEntry).message?.role !== "system");
  return [compaction, ...kept, ...path.slice(c + 1)];
}

/**
 * The projection of a path: its context entries with what each contributes (SPEC §8.5: only a
 * compaction at index 0 gives a summary; a target's latest context edit replaces or removes its
 * content), their messages, and the settings over the whole path (compactions keep them).
 */
export function projectionOfPath(path: readonly SessionEntry[]): SessionProjection {
  const context = contextEntriesOfPath(path);
  const edits = new Map<string, ContextEditEntry>();
  for (const e of context) {
    if (e.type === "context_edit" && typeof e.targetId === "string") edits.set(e.targetId, e);
  }
  const messages: AgentMessage[] = [];
  const entries = context.map((e, i): ProjectedSessionEntry => {
    const own = e.type === "compaction" && i > 0 ? [] : projectContextEntry(e, edits.get(e.id));
    for (const m of own) messages.push(m);
    return { sourceEntry: e, messages: own };
  });
  let settings = INITIAL_SETTINGS;
  for (const e of path) settings = applySetting(settings, e);
  return { entries, messages, thinkingLevel: settings.thinkingLevel, model: settings.model };
}

/** The path a free context function works on (SPEC §8.1): to the leaf, else to the last entry. */
export function selectPath(
  entries: readonly SessionEntry[],
  leafId?: string | null,
  byId?: ReadonlyMap<string, SessionEntry>,
): SessionEntry[] {
  if (leafId === null) return [];
  const lookup =
    byId ?? new Map(entries.filter((e) => e && typeof e.id === "string").map((e) => [e.id, e]));
  const leaf = (leafId === undefined ? undefined : lookup.get(leafId)) ?? entries.at(-1);
  if (!leaf || typeof leaf !== "object") return [];
  return walkPath(leaf, (id) => lookup.get(id), Math.max(entries.length, lookup.size));
}

/** Compaction-aware context entries for `leafId` (reference-compatible free function). */
export function buildContextEntries(
  entries: SessionEntry[],
  leafId?: string | null,
  byId?: Map<string, SessionEntry>,
): SessionEntry[] {
  return contextEntriesOfPath(selectPath(entries, leafId, byId));
}

/** Provenance-preserving context for `leafId` (reference-compatible free function). */
export function buildSessionProjection(
  entries: SessionEntry[],
  leafId?: string | null,
  byId?: Map<string, SessionEntry>,
): SessionProjection {
  return projectionOfPath(selectPath(entries, leafId, byId));
}

/** What is sent to the model for `leafId` (reference-compatible free function). */
export function buildSessionContext(
  entries: SessionEntry[],
  leafId?: string | null,
  byId?: Map<string, SessionEntry>,
): SessionContext {
  const { messages, thinkingLevel, model } = buildSessionProjection(entries, leafId, byId);
  return { messages, thinkingLevel, model };
}

/** The last compaction in array order, ignoring paths (SPEC §8.6). */
export function getLatestCompactionEntry(entries: SessionEntry[]): CompactionEntry | null {
  return (entries.findLast((e) => e?.type === "compaction") as CompactionEntry) ?? null;
}
