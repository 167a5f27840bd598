/**
 * Where `tree`, `context` and `usage` get one session from: the session index by default,
 * which reads only the lines a command needs (labels and names, the context's path, the
 * records that carry usage), or the whole file (`--no-index`, a file the index does not answer
 * for, or any trouble with the index, said in one line on stderr). Both give the command the
 * same {@link LoadedSession} shape and core computes every answer from it, so the output is
 * the same either way.
 */

import { replayState, type SessionEntry } from "@pi-sessions/core";
import { type IndexedSession, StaleLineError } from "@pi-sessions/index";
import { type IndexOption, openIndexFor } from "../io/index-access.js";
import type { CommandContext } from "../io/runtime.js";
import { entrySummary } from "./entry-summary.js";
import { type LoadedSession, loadSession } from "./load-session.js";

/** What a command needs beyond the loaded session: summaries and the context's entries. */
export interface QuerySource {
  readonly session: LoadedSession;
  /** Whether the session was read through the index. */
  readonly indexed: boolean;
  /** The one-line description of an entry of `session.entries` (its record read if needed). */
  summaryOf(entry: SessionEntry): string;
  /** Entries that give core's context builder, from `leafId`, what the whole file gives. */
  contextEntries(leafId: string | null): SessionEntry[];
}

/** Which command asks: `usage` needs every usage record read before the state is replayed. */
export type QueryKind = "tree" | "context" | "usage";

/** The source of a session read from the whole file. */
function fileSource(path: string): QuerySource {
  const session = loadSession(path);
  return {
    session,
    indexed: false,
    summaryOf: entrySummary,
    contextEntries: () => session.entries as SessionEntry[],
  };
}

/** The source of a session answered by the index. */
function indexSource(indexed: IndexedSession, kind: QueryKind): QuerySource {
  const entries = kind === "usage" ? indexed.usageEntries() : indexed.entries;
  const session: LoadedSession = {
    path: indexed.path,
    header: indexed.header,
    entries,
    diagnostics: [],
    version: indexed.version,
    headerLine: 1,
    needsNewline: false,
    size: indexed.size,
    state: replayState(indexed.header, entries),
    legacy: false,
  };
  return {
    session,
    indexed: true,
    summaryOf: (entry) => {
      const position = indexed.idPositions().get(entry.id);
      return entrySummary(position === undefined ? entry : indexed.entryAt(position));
    },
    contextEntries: (leafId) => indexed.contextPath(leafId),
  };
}

/** Whether an error is the index's trouble (a line moved, a file error while reading one). */
function isIndexTrouble(error: unknown): error is Error {
  if (error instanceof StaleLineError) return true;
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
  kind: QueryKind,
  use: (source: QuerySource) => T,
): T {
  const index = openIndexFor(ctx, option);
  if (index === undefined) return use(fileSource(path));
  let indexed: IndexedSession | null = null;
  try {
    try {
      indexed = index.session(path);
    } catch (error) {
      // A file the index cannot open (unreadable, gone): the full read says why.
      if (!isIndexTrouble(error)) throw error;
    }
    if (indexed === null) return use(fileSource(path));
    try {
      return use(indexSource(indexed, kind));
    } catch (error) {
      if (!isIndexTrouble(error)) throw error;
      ctx.err(`pi-sessions: index could not read ${path} (${error.message}); reading the file`);
      return use(fileSource(path));
    }
  } finally {
    indexed?.close();
    index.close();
  }
}
