import type {
  AgentMessage,
  CompactionEntry,
  ContextEditEntry,
  ModelRef,
  ProjectedSessionEntry,
  SessionContext,
  SessionEntry,
  SessionMessageEntry,
  SessionProjection,
} from "../schema/types.js";
import { walkPath } from "../state/tree.js";
import { projectContextEntry } from "./context-messages.js";

/** Model settings in effect at the end of a path (SPEC §8.2). */
export interface ContextSettings {
  readonly thinkingLevel: string;
  readonly model: ModelRef | null;
}

/** Settings of an empty path. */
export const INITIAL_SETTINGS: ContextSettings = { thinkingLevel: "off", model: null };

/** The settings after one more path entry; the last change on the path wins. */
export function applySetting(settings: ContextSettings, entry: SessionEntry): ContextSettings {
  if (entry.type === "thinking_level_change") {
    return { thinkingLevel: entry.thinkingLevel, model: settings.model };
  }
  if (entry.type === "model_change") {
    const model = { provider: entry.provider, modelId: entry.modelId };
    return { thinkingLevel: settings.thinkingLevel, model };
  }
  const m = entry.type === "message" ? (entry as SessionMessageEntry).message : undefined;
  if (m?.role !== "assistant") return settings;
  // Most turns keep the model: share the settings (callers get a copy of the model).
  const model = settings.model;
  if (model !== null && model.provider === m.provider && model.modelId === m.model) return settings;
  return {
    thinkingLevel: settings.thinkingLevel,
    model: { provider: m.provider, modelId: m.model },
  };
}

/** Settings over a whole path; compactions do not reset them. */
export function settingsOfPath(path: readonly SessionEntry[]): ContextSettings {
  let s = INITIAL_SETTINGS;
  for (const e of path) s = applySetting(s, e);
  return s;
}

function isSystemMessageEntry(entry: SessionEntry): boolean {
  return entry.type === "message" && (entry as SessionMessageEntry).message?.role === "system";
}

/** Index of the last compaction in `path`, or -1. */
export function lastCompactionIndex(path: readonly SessionEntry[]): number {
  for (let i = path.length - 1; i >= 0; i--)
    if ((path[i] as SessionEntry).type === "compaction") return i;
  return -1;
}

/**
 * The compaction-aware entries of a path (SPEC §8.3): the path itself without a compaction;
 * otherwise the last compaction, then the kept entries before it from `firstKeptEntryId`
 * (system messages left out), then everything after it.
 */
export function contextEntriesOfPath(path: readonly SessionEntry[]): SessionEntry[] {
  const c = lastCompactionIndex(path);
  if (c < 0) return path.slice();
  const compaction = path[c] as CompactionEntry;
  const out: SessionEntry[] = [compaction];
  let i = 0;
  while (i < c && (path[i] as SessionEntry).id !== compaction.firstKeptEntryId) i++;
  for (; i < c; i++)
    if (!isSystemMessageEntry(path[i] as SessionEntry)) out.push(path[i] as SessionEntry);
  for (i = c + 1; i < path.length; i++) out.push(path[i] as SessionEntry);
  return out;
}

/** The latest context edit per target among the context entries. */
function editsOf(entries: readonly SessionEntry[]): Map<string, ContextEditEntry> | undefined {
  let edits: Map<string, ContextEditEntry> | undefined;
  for (const e of entries) {
    if (e.type !== "context_edit" || typeof e.targetId !== "string") continue;
    edits ??= new Map();
    edits.set(e.targetId, e);
  }
  return edits;
}

/**
 * What each context entry contributes (SPEC §8.5): only a compaction at index 0 produces a
 * summary, and the latest context edit of a target replaces or removes its content.
 */
function projectContextEntries(entries: readonly SessionEntry[]): ProjectedSessionEntry[] {
  const edits = editsOf(entries);
  return entries.map((sourceEntry, i) => ({
    sourceEntry,
    messages:
      sourceEntry.type === "compaction" && i > 0
        ? []
        : projectContextEntry(sourceEntry, edits?.get(sourceEntry.id)),
  }));
}

/** The projection of a path: context entries, their messages and the settings. */
export function projectionOfPath(path: readonly SessionEntry[]): SessionProjection {
  const entries = projectContextEntries(contextEntriesOfPath(path));
  const messages: AgentMessage[] = [];
  for (const p of entries) for (const m of p.messages) messages.push(m);
  const { thinkingLevel, model } = settingsOfPath(path);
  return { entries, messages, thinkingLevel, model };
}

/**
 * The path a free context function works on (SPEC §8.1): empty for a `null` leaf, from the
 * leaf when it is known, otherwise from the last element of `entries`.
 */
export function selectPath(
  entries: readonly SessionEntry[],
  leafId?: string | null,
  byId?: ReadonlyMap<string, SessionEntry>,
): SessionEntry[] {
  if (leafId === null) return [];
  let index = byId;
  if (!index) {
    const m = new Map<string, SessionEntry>();
    for (const e of entries) if (e && typeof e.id === "string") m.set(e.id, e);
    index = m;
  }
  let leaf = leafId === undefined ? undefined : index.get(leafId);
  leaf ??= entries[entries.length - 1];
  if (!leaf || typeof leaf !== "object") return [];
  const lookup = index;
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
