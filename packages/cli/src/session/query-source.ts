/**
 * Where `tree`, `context` and `usage` get one session from: the session index by default,
 * which reads only the lines a command needs (the labels and the rows a `--depth` shows, the
 * context's path, a branch's path beside the usage totals it saved), or the whole file
 * (`--no-index`, a file the index does not answer for, or any trouble with the index, said in
 * one line on stderr). Core and the plugins compute every answer from what either source
 * gives, so the output is the same.
 */

import {
  branchOf,
  EntryUnreadableError,
  type ReadSessionOptions,
  replayState,
  type SessionEntry,
  type SessionState,
  type SessionTreeNode,
  treeOf,
} from "@pi-sessions/core";
import { type IndexedSession, StaleLineError, type UsageSession } from "@pi-sessions/index";
import { openIndexFor } from "../io/index-access.js";
import type { IndexOption } from "../io/index-file.js";
import type { CommandContext } from "../io/runtime.js";
import { type EntryIds, idsOf } from "./entry-ref.js";
import { entrySummary } from "./entry-summary.js";
import { type LoadedSession, loadSession, longLineNotes } from "./load-session.js";
import { problemsOf } from "./problems.js";
import { factsOf, type SessionFacts } from "./session-header.js";

/** What `tree`, `context` and `usage` ask of one session. */
export interface QuerySource {
  readonly facts: SessionFacts;
  /** The leaf the file ends at (`null` without entries). */
  readonly leafId: string | null;
  /** The ids `--leaf` is looked up in. */
  readonly ids: EntryIds;
  /** Problems `check` would report (a file read through the index has none). */
  readonly problems: number;
  /** Core's load diagnostics (what `usage` warns about). */
  readonly diagnostics: number;
  /** Lines the read left unread (over the line bound), one stderr line each to print. */
  readonly notes: readonly string[];
  /**
   * Core's tree down to `depth` levels (all without it), with what `treeRows` asks; each row's
   * summary is `summarize` of the entry's record as the file holds it (default: `entrySummary`).
   */
  tree(leafId: string | null, depth: number | undefined, summarize?: Summarize): SourceTree;
  /** Entries that give core's context builder, from `leafId`, what the whole file gives. */
  contextEntries(leafId: string | null): SessionEntry[];
  /**
   * What the plugins' usage sums take (records, or a session), and for a split of the sums
   * the usage records and the path to `leafId` (read only when asked).
   */
  usage(leafId: string | null): {
    source: readonly SessionEntry[] | UsageSession;
    entries(): readonly SessionEntry[];
    branch(): readonly SessionEntry[];
  };
}

/** The one-line summary of an entry's record (`entrySummary`, or a plugin's first). */
export type Summarize = (record: SessionEntry) => string;

/** A session's tree as `treeRows` takes it. */
export interface SourceTree {
  /** The roots; with a depth, entries deeper than one level below it are left out. */
  readonly roots: SessionTreeNode[];
  /** The ids on the path root → leaf (those in `roots`' tree at least). */
  readonly onPath: ReadonlySet<string>;
  readonly summaryOf: (entry: SessionEntry) => string;
  /** Entries below a node, when `roots` leaves some out. */
  readonly hiddenBelow?: (node: SessionTreeNode) => number;
}

/** Ids of the path root → `leafId` in a replayed state. */
const pathIds = (state: SessionState, leafId: string | null) =>
  new Set(branchOf(state, leafId).map((e) => e.id));

/** The source of a session read from the whole file (`options`: the line bound). */
export function fileSource(path: string, options: ReadSessionOptions = {}): QuerySource {
  const session: LoadedSession = loadSession(path, undefined, options);
  return {
    facts: factsOf(session),
    leafId: session.state.leafId,
    ids: idsOf(session),
    problems: problemsOf(session).length,
    diagnostics: session.diagnostics.length,
    notes: longLineNotes(path, session.diagnostics),
    tree: (leafId, _depth, summarize = entrySummary) => ({
      roots: treeOf(session.state),
      onPath: pathIds(session.state, leafId),
      summaryOf: summarize,
    }),
    contextEntries: () => session.entries as SessionEntry[],
    usage: (leafId) => ({
      source: session.entries,
      entries: () => session.entries,
      branch: () => (leafId === null ? [] : branchOf(session.state, leafId)),
    }),
  };
}

/** The source of a session answered by the index. */
function indexSource(indexed: IndexedSession): QuerySource {
  return {
    facts: {
      path: indexed.path,
      header: indexed.header,
      name: indexed.name,
      version: indexed.version,
      legacy: false,
      entries: indexed.entryCount,
      branchTips: indexed.branchTips,
      size: indexed.size,
    },
    leafId: indexed.leafId,
    ids: { has: (id) => indexed.hasId(id), startingWith: (p) => indexed.idsStartingWith(p) },
    problems: 0,
    diagnostics: 0,
    notes: [],
    tree: (leafId, depth, summarize = entrySummary) =>
      depth === undefined
        ? wholeTree(indexed, leafId, summarize)
        : topOfTree(indexed, leafId, depth, summarize),
    contextEntries: (leafId) => indexed.contextPath(leafId),
    usage: (leafId) => {
      // `computeUsageTotals` walks a branch over an entry list itself when the leaf id is ""
      // (it cannot ask a session for that id): only the whole file has that list.
      if (leafId === "") throw new FileNeeded();
      const session = indexed.usageSession(leafId);
      return {
        source: session,
        entries: () => session.getEntries(),
        branch: () => (leafId === null ? [] : session.getBranch(leafId)),
      };
    },
  };
}

/** The whole tree through the index: entries read when read, records read for summaries. */
function wholeTree(
  indexed: IndexedSession,
  leafId: string | null,
  summarize: Summarize,
): SourceTree {
  const entries = indexed.entries();
  const state = replayState(indexed.header, entries);
  const positions = new Map(entries.map((e, i) => [e, i]));
  const summaryOf = (entry: SessionEntry) => {
    const position = positions.get(entry);
    return summarize(position === undefined ? entry : indexed.entryAt(position));
  };
  return { roots: treeOf(state), onPath: pathIds(state, leafId), summaryOf };
}

/** The tree's top `depth` levels through the index, with its counts of what is left out. */
function topOfTree(
  indexed: IndexedSession,
  leafId: string | null,
  depth: number,
  summarize: Summarize,
): SourceTree {
  const top = indexed.treeTop(depth);
  return {
    roots: top.roots,
    onPath: top.pathIds(leafId),
    summaryOf: (entry) => summarize(top.recordOf(entry)),
    hiddenBelow: (node) => top.below(node),
  };
}

/** Thrown by a query the index cannot answer exactly: the whole file is read instead. */
class FileNeeded extends Error {}

/**
 * Whether an error is the index's trouble (a line moved, a file error while reading one; core's
 * refusal of an entry whose line no longer holds what the index's row said).
 */
function isIndexTrouble(error: unknown): error is Error {
  if (error instanceof StaleLineError || error instanceof EntryUnreadableError) return true;
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).code === "string";
}

/**
 * Runs `use` over the session at `path`, through the index unless `option` is `false`. When
 * reading through the index fails midway (the file changed under it), `use` runs again over
 * the whole file; `use` must therefore compute everything before it prints anything.
 */
export function withQuerySource<T>(
  ctx: CommandContext,
  path: string,
  option: IndexOption,
  use: (source: QuerySource) => T,
): T {
  const index = openIndexFor(ctx, option);
  if (index === undefined) return use(fileSource(path, ctx.readOptions));
  let indexed: IndexedSession | null = null;
  try {
    try {
      indexed = index.session(path);
    } catch (error) {
      // A file the index cannot open (unreadable, gone): the full read says why.
      if (!isIndexTrouble(error)) throw error;
    }
    if (indexed === null) return use(fileSource(path, ctx.readOptions));
    try {
      return use(indexSource(indexed));
    } catch (error) {
      if (error instanceof FileNeeded) return use(fileSource(path, ctx.readOptions));
      if (!isIndexTrouble(error)) throw error;
      ctx.err(`pi-sessions: index could not read ${path} (${error.message}); reading the file`);
      return use(fileSource(path, ctx.readOptions));
    }
  } finally {
    indexed?.close();
    index.close();
  }
}
