/**
 * Full-text search over the indexed transcripts (SQLite FTS5): user, assistant and tool-result
 * text and custom message content, ranked by BM25, with filters on the session's cwd and the
 * entry's role, model and time, and a snippet of each hit that names the entry it is from.
 */

import { cwdMatches } from "@pi-sessions/core/internal";
import type { Database } from "better-sqlite3";

/** Filters of {@link SessionIndex.search} (all optional; they combine with AND). */
export interface SearchFilters {
  /** The sessions root searched (default: pi's, `<agentDir>/sessions`); it is synced first. */
  readonly dir?: string;
  /** Only sessions whose header cwd is this directory. */
  readonly cwd?: string;
  /** Only entries of this role (or these): `user`, `assistant`, `toolResult`, `custom`. */
  readonly role?: string | readonly string[];
  /** Only entries written by this model id (assistant messages, model changes). */
  readonly model?: string;
  /** Only entries at or after this time. */
  readonly since?: Date;
  /** Only entries before this time. */
  readonly until?: Date;
  /** Only this session: its id, a prefix of it, or its file's path. */
  readonly session?: string;
  /** At most this many hits (default 20). */
  readonly limit?: number;
  /**
   * Bring the index up to date with the files first (default true). `false` searches the rows
   * as they are, for a caller that has just synced (a hit may then point at changed text).
   */
  readonly refresh?: boolean;
}

/** One search hit: where it is, and a snippet with the matched words in `[` `]`. */
export interface SearchHit {
  readonly path: string;
  readonly sessionId: string;
  readonly cwd: string;
  /** The entry's id (`null` for an entry without one, as in a legacy file). */
  readonly entryId: string | null;
  /** The entry's 1-based line in the file. */
  readonly line: number;
  readonly type: string | null;
  readonly role: string | null;
  readonly model: string | null;
  readonly timestamp: string | null;
  readonly snippet: string;
  /** BM25 score: lower is a better match. */
  readonly rank: number;
}

/** The query is empty, or not something FTS5 can search for. */
export class SearchQueryError extends Error {
  override readonly name = "SearchQueryError";
}

/**
 * A query of plain words as an FTS5 expression: every word must occur (in any order); a word
 * ending in `*` matches as a prefix. Quoting each word keeps FTS5's operators and punctuation
 * out of the user's way (`a-b`, `c++`, `AND` are searched as written).
 */
export function ftsQuery(query: string): string {
  const words = query.split(/\s+/).filter((w) => w !== "" && w !== "*");
  if (words.length === 0) throw new SearchQueryError("the search query has no words");
  return words
    .map((word) => {
      const prefix = word.endsWith("*");
      const bare = prefix ? word.slice(0, -1) : word;
      return `"${bare.replaceAll('"', '""')}"${prefix ? "*" : ""}`;
    })
    .join(" ");
}

const SNIPPET_WORDS = 16;

const withFunctions = new WeakSet<Database>();

/** A header cwd is matched as core's listing matches it (resolved; a missing one does not). */
function withCwdMatches(db: Database): void {
  if (withFunctions.has(db)) return;
  db.function("cwd_matches", { deterministic: true }, (cwd: unknown, wanted: unknown) =>
    cwdMatches(cwd, String(wanted), false) ? 1 : 0,
  );
  withFunctions.add(db);
}

/** Runs a search over the rows of the files under `root` (already synced). */
export function searchIndex(
  db: Database,
  root: string,
  query: string,
  filters: SearchFilters,
): SearchHit[] {
  const where = ["entry_text MATCH @match", "f.stopped = 0", "f.path > @lo", "f.path < @hi"];
  const params: Record<string, unknown> = {
    match: ftsQuery(query),
    lo: `${root}/`,
    hi: `${root}/\u{10ffff}`,
    limit: Math.max(1, Math.trunc(filters.limit ?? 20)),
  };
  if (filters.cwd !== undefined) {
    where.push("cwd_matches(f.cwd, @cwd)");
    params.cwd = filters.cwd;
  }
  if (filters.role !== undefined) {
    const roles = typeof filters.role === "string" ? [filters.role] : [...filters.role];
    where.push(`e.role IN (${roles.map((_, i) => `@role${i}`).join(", ")})`);
    roles.forEach((role, i) => {
      params[`role${i}`] = role;
    });
  }
  if (filters.model !== undefined) {
    where.push("e.model = @model");
    params.model = filters.model;
  }
  if (filters.since !== undefined) {
    where.push("e.time_ms >= @since");
    params.since = filters.since.getTime();
  }
  if (filters.until !== undefined) {
    where.push("e.time_ms < @until");
    params.until = filters.until.getTime();
  }
  if (filters.session !== undefined) {
    where.push(
      "(f.path = @session OR f.session_id = @session OR f.session_id LIKE @sessionPrefix ESCAPE '\\')",
    );
    params.session = filters.session;
    params.sessionPrefix = `${filters.session.replace(/[%_\\]/g, "\\$&")}%`;
  }
  withCwdMatches(db);
  // Two steps: the best `limit` matches by rank alone, then snippets for those only (a snippet
  // in the ranking query would be computed for every match before the sort).
  const sql = `
    WITH best AS (
      SELECT entry_text.rowid AS id, bm25(entry_text) AS rank
      FROM entry_text
      JOIN entries e ON e.rowid = entry_text.rowid
      JOIN files f ON f.id = e.file_id
      WHERE ${where.join(" AND ")}
      ORDER BY rank, f.path, e.line
      LIMIT @limit
    )
    SELECT f.path AS path, f.session_id AS sessionId, coalesce(f.cwd, '') AS cwd,
      e.id AS entryId, e.line AS line, e.type AS type, e.role AS role, e.model AS model,
      e.timestamp AS timestamp,
      snippet(entry_text, 0, '[', ']', '…', ${SNIPPET_WORDS}) AS snippet,
      best.rank AS rank
    FROM best
    JOIN entry_text ON entry_text.rowid = best.id
    JOIN entries e ON e.rowid = best.id
    JOIN files f ON f.id = e.file_id
    WHERE entry_text MATCH @match
    ORDER BY best.rank, f.path, e.line`;
  try {
    return db.prepare(sql).all(params) as SearchHit[];
  } catch (error) {
    if ((error as { code?: string }).code === "SQLITE_ERROR" && /fts5/i.test(String(error))) {
      throw new SearchQueryError(`cannot search for ${JSON.stringify(query)}: ${String(error)}`);
    }
    throw error;
  }
}
