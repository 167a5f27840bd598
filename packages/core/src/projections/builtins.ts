import type {
  AgentMessage,
  SessionContext,
  SessionEntry,
  SessionHeader,
  SessionProjection,
  SessionTreeNode,
} from "../schema/types.js";
import {
  type EntryColumns,
  type EntryLog,
  handleAt,
  logFromColumns,
  logFromEntries,
  positionOf,
} from "../state/entry-log.js";
import { type Projection, replaySlots } from "../state/projection.js";
import type { SessionState } from "../state/session-state.js";
import { logTreeSource, pathInLog, pathPositions, treeIndex } from "../state/tree.js";
import { projectionOfPath } from "./context.js";
import {
  type ContextCache,
  type ContextRole,
  contextEntriesOfSummary,
  contextOfSummary,
  contextProjection,
  type PathSummary,
  projectionOfSummary,
  summarizePath,
  systemMessagesOfSummary,
} from "./context-cache.js";
import { type LabelsRole, labelsProjection, type ResolvedLabel } from "./labels.js";
import { type SessionNameRole, sessionNameProjection } from "./session-name.js";

export type { ContextRole, LeafView } from "./context-cache.js";
export type { LabelsRole } from "./labels.js";
export type { SessionNameRole } from "./session-name.js";

/**
 * The projections the pi API answers from, registered in every session like a plugin's. Each
 * is a role: a projection plus the queries the manager asks of its state; an embedder replaces
 * one by passing a projection with the role's name and queries in `options.projections`.
 */
export const BUILTIN_PROJECTIONS: readonly Projection<unknown>[] = [
  labelsProjection,
  sessionNameProjection,
  contextProjection,
] as readonly Projection<unknown>[];

/** The queries each role must answer, checked when a projection replaces a built-in. */
const ROLE_QUERIES: Readonly<Record<string, readonly string[]>> = {
  labels: ["labelOf", "labels"],
  sessionName: ["nameOf"],
  context: ["context"],
};

/** Whether `name` is a built-in role's (its projection can be replaced, never removed). */
export function isBuiltinName(name: string): boolean {
  return Object.hasOwn(ROLE_QUERIES, name);
}

/** The built-ins, each replaced by a projection of the same name among `extra`, then the rest. */
function sessionProjections(extra: readonly Projection<unknown>[]): Projection<unknown>[] {
  const byName = new Map(extra.map((p) => [p.name, p]));
  const builtins = BUILTIN_PROJECTIONS.map((b) => {
    const replacement = byName.get(b.name);
    if (replacement === undefined) return b;
    const impl = replacement as unknown as Record<string, unknown>;
    const missing = ROLE_QUERIES[b.name]?.filter((q) => typeof impl[q] !== "function");
    if (missing && missing.length > 0) {
      const duty = `the built-in one of that name and must implement ${missing.join(", ")}`;
      throw new Error(`Projection "${b.name}" replaces ${duty}`);
    }
    return replacement;
  });
  return [...builtins, ...extra.filter((p) => !builtins.includes(p))];
}

/** A session with a header and no entries, folded by the built-ins and `extra`. */
export function initialState(
  header: SessionHeader | null,
  extra: readonly Projection<unknown>[] = [],
): SessionState {
  return replayState(header, [], extra);
}

/**
 * Replays a whole session (a load) with the built-ins and `extra`, equal to `foldEntries` (a
 * law the tests check) but indexing the log in one pass. `owned` hands the array over uncopied.
 */
export function replayState(
  header: SessionHeader | null,
  entries: readonly SessionEntry[],
  extra: readonly Projection<unknown>[] = [],
  owned = false,
): SessionState {
  return replayLog(
    header,
    logFromEntries(owned ? (entries as SessionEntry[]) : entries.slice()),
    extra,
  );
}

/**
 * Replays a session loaded as columns (a large file: bodies decoded when read), handed over;
 * the same state as {@link replayState} of its decoded entries.
 */
export function replayColumns(
  header: SessionHeader | null,
  columns: EntryColumns,
  extra: readonly Projection<unknown>[] = [],
): SessionState {
  return replayLog(header, logFromColumns(columns), extra);
}

/** The state of a whole log: every projection replayed, the leaf at the last entry. */
function replayLog(
  header: SessionHeader | null,
  log: EntryLog,
  extra: readonly Projection<unknown>[],
): SessionState {
  const slots = replaySlots(sessionProjections(extra), log);
  const leafId = log.length === 0 ? null : (log.store.ids[log.length - 1] as string);
  return { header, log, slots, leafId };
}

/** A role's projection (the built-in or its replacement) and state. */
function role<R extends Projection<unknown>>(state: SessionState, name: string) {
  const slot = state.slots.find((s) => s.projection.name === name);
  if (!slot) throw new Error(`Session state has no "${name}" projection`);
  return { projection: slot.projection as R, state: slot.state };
}

/** Snapshots whose leaf summary was computed off the tip; weak so states can be freed. */
const leafMemo = new WeakMap<SessionState, PathSummary>();

/** The summary of the path to the entry with `id` (latest occurrence), or of `[]`. */
function summaryOf(log: EntryLog, id: string): PathSummary {
  const pos = positionOf(log, id);
  return summarizePath(log, pos < 0 ? [] : pathPositions(log, pos));
}

/**
 * The built-in context summary at the leaf (undefined when the builder was replaced): the
 * fold's when the leaf is the tip, else computed once per snapshot.
 */
export function leafSummary(state: SessionState): PathSummary | undefined {
  const r = role<ContextRole>(state, "context");
  if (r.projection !== contextProjection) return undefined;
  const cache = r.state as ContextCache;
  if (state.leafId === null) return summarizePath(state.log, []);
  if (cache.tip?.id === state.leafId) {
    cache.summary ??= summaryOf(state.log, cache.tip.id);
    return cache.summary;
  }
  const summary = leafMemo.get(state) ?? summaryOf(state.log, state.leafId);
  leafMemo.set(state, summary);
  return summary;
}

/** `getBranch(fromId?)` (SPEC §7.6): root → start; `[]` when start is falsy or unknown. */
export function branchOf(state: SessionState, fromId?: string | null): SessionEntry[] {
  const start = fromId ?? state.leafId;
  if (!start) return [];
  return start === state.leafId ? leafPath(state) : pathInLog(state.log, start);
}

/** The leaf's path, whatever its id ("" included, unlike `getBranch`). */
export function leafPath(state: SessionState): SessionEntry[] {
  const summary = leafSummary(state);
  if (summary) {
    const { items, length } = summary.path;
    const out = new Array<SessionEntry>(length);
    for (let i = 0; i < length; i++) out[i] = handleAt(state.log, items[i] as number);
    return out;
  }
  return state.leafId === null ? [] : pathInLog(state.log, state.leafId);
}

/** The compaction-aware context entries at the leaf (SPEC §8.3). O(context) from the summary. */
export function contextEntriesOf(state: SessionState): SessionEntry[] {
  const summary = leafSummary(state);
  if (summary) return contextEntriesOfSummary(state.log, summary);
  return projectionOf(state).entries.map((e) => e.sourceEntry);
}

/** What is sent to the model at the leaf, from the context role. */
export function contextOf(state: SessionState): SessionContext {
  const summary = leafSummary(state);
  if (summary) return contextOfSummary(state.log, summary);
  const r = role<ContextRole>(state, "context");
  return r.projection.context(r.state, { leafId: state.leafId, path: () => leafPath(state) });
}

/** The provenance-preserving context at the leaf (SPEC §8.5). */
export function projectionOf(state: SessionState): SessionProjection {
  const summary = leafSummary(state);
  if (summary) return projectionOfSummary(state.log, summary);
  return projectionOfPath(leafPath(state));
}

/** The system messages of the leaf's context (what a compaction checkpoint folds). */
export function systemMessagesOf(state: SessionState): AgentMessage[] {
  const summary = leafSummary(state);
  if (summary) return systemMessagesOfSummary(state.log, summary);
  return contextOf(state).messages.filter((m) => m?.role === "system");
}

/** The current label of an entry, from the labels role. */
export function labelOfId(state: SessionState, id: string): string | undefined {
  const r = role<LabelsRole>(state, "labels");
  return r.projection.labelOf(r.state, id)?.label;
}

/**
 * `getTree()` (SPEC §7.8): new nodes over the stored entries with their labels, each indexed id
 * exactly once (W14: cycles are cut; W15: a duplicate id is one node). O(n log n) for the sorts;
 * iterative, as paths can be long.
 */
export function treeOf(state: SessionState): SessionTreeNode[] {
  const r = role<LabelsRole>(state, "labels");
  const index = treeIndex(logTreeSource(state.log));
  const nodes: SessionTreeNode[] = new Array(state.log.length);
  const node = (pos: number) => nodes[pos] as SessionTreeNode;
  for (const pos of index.indexed) {
    const entry = handleAt(state.log, pos);
    const label = r.projection.labelOf(r.state, entry.id);
    nodes[pos] = label
      ? { entry, children: [], label: label.label, labelTimestamp: label.timestamp }
      : { entry, children: [] };
  }
  for (const pos of index.indexed) node(pos).children = index.children(pos).map(node);
  return index.roots().map(node);
}

/** Every current label in insertion order (for createBranchedSession). */
export function labelMapOf(state: SessionState): Map<string, ResolvedLabel> {
  const r = role<LabelsRole>(state, "labels");
  return r.projection.labels(r.state);
}

/** The display name (SPEC §7.11), from the session name role. */
export function nameOf(state: SessionState): string | undefined {
  const r = role<SessionNameRole>(state, "sessionName");
  return r.projection.nameOf(r.state);
}
