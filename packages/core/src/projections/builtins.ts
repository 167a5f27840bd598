import type {
  SessionContext,
  SessionEntry,
  SessionHeader,
  SessionTreeNode,
} from "../schema/types.js";
import { getLogEntry } from "../state/entry-log.js";
import type { Projection } from "../state/projection.js";
import {
  emptyState,
  projectionState,
  replayLog,
  type SessionState,
} from "../state/session-state.js";
import { buildTree, pathInLog } from "../state/tree.js";
import { vecToArray } from "../state/vec.js";
import {
  type ContextCache,
  contextProjection,
  emptySummary,
  type PathSummary,
  summarizePath,
  summaryMessages,
} from "./context-cache.js";
import { labelOf, labelsProjection, type ResolvedLabel, resolve } from "./labels.js";
import { sessionNameOf, sessionNameProjection } from "./session-name.js";

/**
 * The three projections the pi API answers from — label index, session name, context
 * builder — registered in every session like a plugin's, through the same runner. Each is a
 * role: a projection plus the queries the manager asks of its state. An embedder replaces
 * one by passing a projection with the role's name and queries in `options.projections`.
 */

/** The label index role (`getLabel`, labels in `getTree`, labels kept by a branched session). */
export interface LabelsRole<S = unknown> extends Projection<S> {
  readonly name: "labels";
  /** The current label of an entry. */
  labelOf(state: S, id: string): ResolvedLabel | undefined;
  /** Every current label, in the order a branched session recreates them (SPEC §9). */
  labels(state: S): Map<string, ResolvedLabel>;
}

/** The session name role (`getSessionName`). */
export interface SessionNameRole<S = unknown> extends Projection<S> {
  readonly name: "sessionName";
  /** The display name, or undefined. */
  nameOf(state: S): string | undefined;
}

/** What a context builder is asked about the leaf. */
export interface LeafView {
  readonly leafId: string | null;
  /** The path root → leaf. O(path) unless the builder keeps it. */
  path(): SessionEntry[];
}

/** The context builder role (`buildSessionContext`, and the compaction's prompt checkpoint). */
export interface ContextRole<S = unknown> extends Projection<S> {
  readonly name: "context";
  /** What is sent to the model at the leaf. */
  context(state: S, leaf: LeafView): SessionContext;
}

/** The built-in context builder; it also keeps the leaf's path, which `getBranch` reuses. */
interface BuiltinContextRole extends ContextRole<ContextCache> {
  summary(state: SessionState): PathSummary;
}

const builtinLabels: LabelsRole<ReturnType<typeof labelsProjection.init>> = {
  ...labelsProjection,
  name: "labels",
  types: ["label"],
  labelOf,
  labels: resolve,
};

const builtinName: SessionNameRole<ReturnType<typeof sessionNameProjection.init>> = {
  ...sessionNameProjection,
  name: "sessionName",
  types: ["session_info"],
  nameOf: sessionNameOf,
};

/** Snapshots whose leaf summary was computed off the tip; weak so states can be freed. */
const leafMemo = new WeakMap<SessionState, PathSummary>();

const builtinContext: BuiltinContextRole = {
  ...contextProjection,
  name: "context",
  context(_cache, leaf) {
    return contextOfSummary(summarizePath(leaf.path()));
  },
  /**
   * The leaf's path summary: the fold's cached tip summary when the leaf is the tip (O(1)
   * amortised while appending at the leaf), otherwise computed once per snapshot.
   */
  summary(state) {
    const leafId = state.leafId;
    if (leafId === null) return emptySummary();
    const cache = projectionState(state, "context") as ContextCache;
    if (cache.tip !== undefined && cache.tip.id === leafId) {
      cache.summary ??= summarizePath(pathOf(state, cache.tip));
      return cache.summary;
    }
    let summary = leafMemo.get(state);
    if (!summary) {
      const leaf = getLogEntry(state.log, leafId);
      summary = leaf ? summarizePath(pathOf(state, leaf)) : emptySummary();
      leafMemo.set(state, summary);
    }
    return summary;
  },
};

function contextOfSummary(summary: PathSummary): SessionContext {
  const { thinkingLevel, model } = summary.settings;
  return { messages: summaryMessages(summary), thinkingLevel, model: model && { ...model } };
}

/** The built-in roles, in registration order. */
export const BUILTIN_PROJECTIONS: readonly Projection<unknown>[] = [
  builtinLabels,
  builtinName,
  builtinContext,
] as readonly Projection<unknown>[];

/** The queries each role must answer, checked when a projection replaces a built-in. */
const ROLE_QUERIES: Readonly<Record<string, readonly string[]>> = {
  labels: ["labelOf", "labels"],
  sessionName: ["nameOf"],
  context: ["context"],
};

/** Whether `name` is a built-in role's (its projection can be replaced, never removed). */
export function isBuiltinName(name: string): boolean {
  return BUILTIN_PROJECTIONS.some((b) => b.name === name);
}

/**
 * The projections of a session: the built-ins, each replaced by a projection of the same
 * name among `extra`, then the rest of `extra`.
 */
export function sessionProjections(
  extra: readonly Projection<unknown>[] = [],
): Projection<unknown>[] {
  const byName = new Map(extra.map((p) => [p.name, p]));
  const builtins = BUILTIN_PROJECTIONS.map((b) => {
    const replacement = byName.get(b.name);
    if (replacement === undefined) return b;
    const missing = ROLE_QUERIES[b.name]?.filter(
      (q) => typeof (replacement as unknown as Record<string, unknown>)[q] !== "function",
    );
    if (missing && missing.length > 0) {
      throw new Error(
        `Projection "${b.name}" replaces the built-in one of that name and must implement ${missing.join(", ")}`,
      );
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
  return emptyState(header, sessionProjections(extra));
}

/**
 * Replays a whole session (see `replayLog`) with the built-ins and `extra`; `owned` hands
 * the entry array over instead of copying it.
 */
export function replayState(
  header: SessionHeader | null,
  entries: readonly SessionEntry[],
  extra: readonly Projection<unknown>[] = [],
  owned = false,
): SessionState {
  return replayLog(header, entries, sessionProjections(extra), owned);
}

/** The slot of a role in a state, with its projection (the built-in or its replacement). */
function role<R extends Projection<unknown>>(state: SessionState, name: string) {
  const slot = state.slots.find((s) => s.projection.name === name);
  if (!slot) throw new Error(`Session state has no "${name}" projection`);
  return { projection: slot.projection as R, state: slot.state };
}

/** Path from the root to `entry` (cycle-safe). O(path). */
export function pathOf(state: SessionState, entry: SessionEntry): SessionEntry[] {
  return pathInLog(state.log, entry);
}

/** The built-in context summary at the leaf, or undefined when the builder was replaced. */
export function leafSummary(state: SessionState): PathSummary | undefined {
  const r = role<ContextRole>(state, "context");
  return r.projection === builtinContext ? builtinContext.summary(state) : undefined;
}

/** `getBranch(fromId?)` (SPEC §7.6): root → start; `[]` when start is falsy or unknown. */
export function branchOf(state: SessionState, fromId?: string | null): SessionEntry[] {
  const start = fromId ?? state.leafId;
  if (!start) return [];
  const summary = start === state.leafId ? leafSummary(state) : undefined;
  if (summary) return vecToArray(summary.path);
  const entry = getLogEntry(state.log, start);
  return entry ? pathOf(state, entry) : [];
}

/** The leaf's path, whatever its id ("" included, unlike `getBranch`). */
export function leafPath(state: SessionState): SessionEntry[] {
  const summary = leafSummary(state);
  if (summary) return vecToArray(summary.path);
  const leaf = state.leafId === null ? undefined : getLogEntry(state.log, state.leafId);
  return leaf ? pathOf(state, leaf) : [];
}

/** What is sent to the model at the leaf, from the context role. */
export function contextOf(state: SessionState): SessionContext {
  const summary = leafSummary(state);
  if (summary) return contextOfSummary(summary);
  const r = role<ContextRole>(state, "context");
  return r.projection.context(r.state, { leafId: state.leafId, path: () => leafPath(state) });
}

/** The system messages of the leaf's context (what a compaction checkpoint folds). */
export function systemMessagesOf(state: SessionState): SessionContext["messages"] {
  const summary = leafSummary(state);
  if (summary) return vecToArray(summary.systemMessages);
  return contextOf(state).messages.filter((m) => m?.role === "system");
}

/** The current label of an entry and when it was set, from the labels role. */
export function resolvedLabelOf(state: SessionState, id: string): ResolvedLabel | undefined {
  const r = role<LabelsRole>(state, "labels");
  return r.projection.labelOf(r.state, id);
}

/** The current label of an entry. */
export function labelOfId(state: SessionState, id: string): string | undefined {
  return resolvedLabelOf(state, id)?.label;
}

/** The tree with labels (SPEC §7.8). */
export function treeOf(state: SessionState): SessionTreeNode[] {
  return buildTree(state.log, (id) => resolvedLabelOf(state, id));
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
