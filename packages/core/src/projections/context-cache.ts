import type {
  AgentMessage,
  ContextEditEntry,
  ProjectedSessionEntry,
  SessionContext,
  SessionEntry,
  SessionProjection,
} from "../schema/types.js";
import {
  type EntryHead,
  type EntryLog,
  entryAt,
  handleAt,
  idAt,
  roleAt,
  typeAt,
} from "../state/entry-log.js";
import type { Projection } from "../state/projection.js";
import { type Vec, vecOwning, vecPush, vecToArray } from "../state/vec.js";
import {
  contextEdits,
  contextIndices,
  contributionOf,
  type PathView,
  projectionOfPath,
  settingsOfPath,
} from "./context.js";
import { projectContextEntry } from "./context-messages.js";

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

/** The context of a path once computed: its context entries' contributions (SPEC §8.5). */
interface ContextMemo {
  readonly entries: Vec<ProjectedSessionEntry>;
  readonly messages: Vec<AgentMessage>;
  /** The latest edit of each target among the context entries. */
  readonly edits: ReadonlyMap<string, ContextEditEntry>;
}

/**
 * What context building knows about the path to one entry: its positions (root → entry) and
 * where the last compaction and the last entry that reshapes earlier contributions (a
 * compaction, a context edit) are. Extended in O(1) per append without reading a body (W21);
 * the context itself is computed when asked, and extended from the last computed one when
 * nothing was reshaped since, so asking after each append costs the new entries.
 */
export interface PathSummary {
  readonly path: Vec<number>;
  /** Index in `path` of the last compaction, or -1. */
  readonly lastCompaction: number;
  /** Index in `path` of the last compaction or context edit, or -1. */
  readonly lastReshape: number;
  /** The nearest earlier summary of this line whose context is known (to extend), if any. */
  base: PathSummary | undefined;
  /** Memo slot: the context once computed. Filling it changes no answer. */
  memo: ContextMemo | undefined;
}

/**
 * The context builder's fold state: the summary of the path to the last appended entry (the
 * tip); an entry not appended at the tip leaves it stale, rebuilt in O(path) when needed.
 */
export interface ContextCache {
  /** The last appended entry's tree fields. */
  readonly tip: EntryHead | undefined;
  /** Memo slot: undefined until computed for a stale tip. Filling it changes no answer. */
  summary: PathSummary | undefined;
}

const reshapes = (type: unknown) => type === "compaction" || type === "context_edit";

/** The summary of a whole path of positions in `log`, in O(path) over the columns. */
export function summarizePath(log: EntryLog, positions: number[]): PathSummary {
  let lastCompaction = -1;
  let lastReshape = -1;
  for (let i = positions.length - 1; i >= 0 && lastCompaction < 0; i--) {
    const type = typeAt(log, positions[i] as number);
    if (lastReshape < 0 && reshapes(type)) lastReshape = i;
    if (type === "compaction") lastCompaction = i;
  }
  return {
    path: vecOwning(positions),
    lastCompaction,
    lastReshape,
    base: undefined,
    memo: undefined,
  };
}

/** The summary of `summary.path + entry` (at `position`), sharing storage: O(1), no body read. */
function extendSummary(summary: PathSummary, entry: EntryHead, position: number): PathSummary {
  const index = summary.path.length;
  return {
    path: vecPush(summary.path, position),
    lastCompaction: entry.type === "compaction" ? index : summary.lastCompaction,
    lastReshape: reshapes(entry.type) ? index : summary.lastReshape,
    base: summary.memo ? summary : summary.base,
    memo: undefined,
  };
}

/** A summary's path in `log` as a {@link PathView}. */
export function summaryView(log: EntryLog, summary: PathSummary): PathView {
  const at = (i: number) => summary.path.items[i] as number;
  return {
    length: summary.path.length,
    typeAt: (i) => typeAt(log, at(i)),
    idAt: (i) => idAt(log, at(i)),
    roleAt: (i) => roleAt(log, at(i)),
    entryAt: (i) => entryAt(log, at(i)),
  };
}

/**
 * The context of the summary's path: extended from its base when no compaction or context edit
 * came since (only the new entries are read), else computed in O(context) (SPEC §8.3–§8.5).
 */
function contextMemo(log: EntryLog, summary: PathSummary): ContextMemo {
  if (summary.memo) return summary.memo;
  const view = summaryView(log, summary);
  const base = summary.base;
  let memo: ContextMemo;
  if (base?.memo && base.lastReshape === summary.lastReshape) {
    let { entries, messages } = base.memo;
    const edits = base.memo.edits;
    for (let i = base.path.length; i < summary.path.length; i++) {
      const e = view.entryAt(i);
      const own = projectContextEntry(e, edits.get(e.id));
      entries = vecPush(entries, {
        sourceEntry: handleAt(log, summary.path.items[i] as number),
        messages: own,
      });
      for (const m of own) messages = vecPush(messages, m);
    }
    memo = { entries, messages, edits };
  } else {
    const indices = contextIndices(view);
    const edits = contextEdits(view, indices);
    const entries: ProjectedSessionEntry[] = [];
    const messages: AgentMessage[] = [];
    for (let k = 0; k < indices.length; k++) {
      const own = contributionOf(view, indices, k, edits);
      const pos = summary.path.items[indices[k] as number] as number;
      entries.push({ sourceEntry: handleAt(log, pos), messages: own });
      for (const m of own) messages.push(m);
    }
    memo = { entries: vecOwning(entries), messages: vecOwning(messages), edits };
  }
  summary.memo = memo;
  summary.base = undefined;
  return memo;
}

/** What is sent to the model at the summary's entry (a new array: callers may change it). */
export function contextOfSummary(log: EntryLog, summary: PathSummary): SessionContext {
  const { thinkingLevel, model } = settingsOfPath(summaryView(log, summary));
  return { messages: vecToArray(contextMemo(log, summary).messages), thinkingLevel, model };
}

/** The provenance-preserving context at the summary's entry (SPEC §8.5). */
export function projectionOfSummary(log: EntryLog, summary: PathSummary): SessionProjection {
  const memo = contextMemo(log, summary);
  const { thinkingLevel, model } = settingsOfPath(summaryView(log, summary));
  return {
    entries: vecToArray(memo.entries),
    messages: vecToArray(memo.messages),
    thinkingLevel,
    model,
  };
}

/** The context entries at the summary's entry (SPEC §8.3), as callers get entries. */
export function contextEntriesOfSummary(log: EntryLog, summary: PathSummary): SessionEntry[] {
  return vecToArray(contextMemo(log, summary).entries).map((p) => p.sourceEntry);
}

/** The system messages of the summary's context (what a compaction checkpoint folds). */
export function systemMessagesOfSummary(log: EntryLog, summary: PathSummary): AgentMessage[] {
  return vecToArray(contextMemo(log, summary).messages).filter((m) => m?.role === "system");
}

/**
 * The built-in context builder. The summary is built on first use (a load, or a session nobody
 * asks for context, pays nothing per entry), then extended while appends stay at the tip. Its
 * replay of a load is the last entry and no summary, from the log's length alone.
 */
export const contextProjection: ContextRole<ContextCache> = {
  name: "context",
  structural: true,
  init: () => ({ tip: undefined, summary: undefined }),
  apply(cache, entry, ctx) {
    // Only a new id extends: a reused one changes what lookups along the path return.
    const atTip =
      cache.summary !== undefined &&
      (cache.tip === undefined ? entry.parentId === null : entry.parentId === cache.tip.id) &&
      ctx.getEntry(entry.id) === undefined;
    return {
      tip: entry,
      summary: atTip ? extendSummary(cache.summary as PathSummary, entry, ctx.position) : undefined,
    };
  },
  replay: (log) => {
    const last = log.length - 1;
    const tip =
      last < 0
        ? undefined
        : { type: log.typeAt(last), id: log.idAt(last), parentId: log.parentIdAt(last) };
    return { tip, summary: undefined };
  },
  context: (_cache, leaf) => {
    const { messages, thinkingLevel, model } = projectionOfPath(leaf.path());
    return { messages, thinkingLevel, model };
  },
};
