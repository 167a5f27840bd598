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

/**
 * A path root → leaf as context building reads it: tree fields by index, and an entry (its
 * body decoded) only where the rules need one. A manager's path reads the entry log's columns;
 * the reference-compatible free functions wrap an array.
 */
export interface PathView {
  readonly length: number;
  typeAt(index: number): unknown;
  idAt(index: number): unknown;
  /** A message entry's `message.role` (without decoding it when known). */
  roleAt(index: number): unknown;
  /** The entry at an index, for its body. */
  entryAt(index: number): SessionEntry;
}

/** An array of entries (any objects a caller passes) as a {@link PathView}. */
export function arrayPath(path: readonly SessionEntry[]): PathView {
  return {
    length: path.length,
    typeAt: (i) => path[i]?.type,
    idAt: (i) => path[i]?.id,
    roleAt: (i) => (path[i] as SessionMessageEntry | undefined)?.message?.role,
    entryAt: (i) => path[i] as SessionEntry,
  };
}

/**
 * The settings after a whole path (SPEC §8.2): the last thinking-level change wins, and the
 * model of the last model change or assistant message, whichever is later. Read from the leaf
 * backwards, so it costs the distance to those entries, not the path: the same answer as
 * applying every entry from the root.
 */
export function settingsOfPath(view: PathView): ContextSettings {
  let thinkingLevel: unknown = INITIAL_SETTINGS.thinkingLevel;
  let model: SessionContext["model"] = null;
  let [thinkingFound, modelFound] = [false, false];
  for (let i = view.length - 1; i >= 0 && !(thinkingFound && modelFound); i--) {
    const type = view.typeAt(i);
    if (!thinkingFound && type === "thinking_level_change") {
      thinkingLevel = (view.entryAt(i) as { thinkingLevel?: unknown }).thinkingLevel;
      thinkingFound = true;
    } else if (!modelFound && type === "model_change") {
      const { provider, modelId } = view.entryAt(i) as { provider: string; modelId: string };
      model = { provider, modelId };
      modelFound = true;
    } else if (!modelFound && type === "message" && view.roleAt(i) === "assistant") {
      const m = (view.entryAt(i) as SessionMessageEntry).message;
      if (m?.role === "assistant") {
        model = { provider: m.provider, modelId: m.model };
        modelFound = true;
      }
    }
  }
  return { thinkingLevel: thinkingLevel as SessionContext["thinkingLevel"], model };
}

/**
 * The indices of a path's context entries (SPEC §8.3): without a compaction, all of them; else
 * the last compaction, the kept entries from its `firstKeptEntryId` (system messages left out)
 * and everything after it. O(path) over ids, decoding only the compaction and the kept range.
 */
export function contextIndices(view: PathView): number[] {
  let c = view.length - 1;
  while (c >= 0 && view.typeAt(c) !== "compaction") c--;
  if (c < 0) return Array.from({ length: view.length }, (_, i) => i);
  const firstKept = (view.entryAt(c) as CompactionEntry).firstKeptEntryId;
  let first = 0;
  while (first < view.length && view.idAt(first) !== firstKept) first++;
  if (first >= view.length) first = c;
  const out = [c];
  for (let i = first; i < c; i++) {
    const system = view.typeAt(i) === "message" && view.roleAt(i) === "system";
    if (!system) out.push(i);
  }
  for (let i = c + 1; i < view.length; i++) out.push(i);
  return out;
}

/** The latest context edit of each target among the context entries (SPEC §8.5). */
export function contextEdits(
  view: PathView,
  indices: readonly number[],
): Map<string, ContextEditEntry> {
  const edits = new Map<string, ContextEditEntry>();
  for (const i of indices) {
    if (view.typeAt(i) !== "context_edit") continue;
    const e = view.entryAt(i) as ContextEditEntry;
    if (typeof e.targetId === "string") edits.set(e.targetId, e);
  }
  return edits;
}

/**
 * What the context entry at `indices[k]` contributes: only a compaction at the head gives a
 * summary (SPEC §8.5); a target's latest edit replaces or removes its content.
 */
export function contributionOf(
  view: PathView,
  indices: readonly number[],
  k: number,
  edits: ReadonlyMap<string, ContextEditEntry>,
): AgentMessage[] {
  const i = indices[k] as number;
  if (k > 0 && view.typeAt(i) === "compaction") return [];
  const e = view.entryAt(i);
  return projectContextEntry(e, edits.get(e.id));
}

/** The compaction-aware entries of a path (SPEC §8.3), kept system messages left out. */
export function contextEntriesOfPath(path: readonly SessionEntry[]): SessionEntry[] {
  return contextIndices(arrayPath(path)).map((i) => path[i] as SessionEntry);
}

/**
 * The projection of a path: its context entries with what each contributes (SPEC §8.5: only a
 * compaction at index 0 gives a summary; a target's latest context edit replaces or removes its
 * content), their messages, and the settings over the whole path (compactions keep them).
 */
export function projectionOfPath(path: readonly SessionEntry[]): SessionProjection {
  const view = arrayPath(path);
  const indices = contextIndices(view);
  const edits = contextEdits(view, indices);
  const messages: AgentMessage[] = [];
  const entries = indices.map((i, k): ProjectedSessionEntry => {
    const own = contributionOf(view, indices, k, edits);
    for (const m of own) messages.push(m);
    return { sourceEntry: path[i] as SessionEntry, messages: own };
  });
  const { thinkingLevel, model } = settingsOfPath(view);
  return { entries, messages, thinkingLevel, model };
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
