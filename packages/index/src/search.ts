/**
 * Full-text search over the indexed transcripts (SQLite FTS5): user, assistant and tool-result
 * text and custom message content, ranked by BM25, with filters on the session's cwd and the
 * entry's role, model and time, and a snippet of each hit that names the entry it is from.
 */

import { cwdMatches } from "@pi-sessions/core/internal";
import type { SearchFilters } from "./search-filters.js";
import { DEFAULT_SEARCH_LIMITS, rankMatches, type SearchLimits } from "./search-rank.js";
import { type Database, inTransaction, prepareNamed, primaryCode, SQLITE } from "./sqlite.js";

export type { SearchFilters } from "./search-filters.js";

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
  /**
   * The BM25 score, lower is a better match (for a broad query, BM25 without word weights:
   * scores compare within one search only).
   */
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
  return ftsPhrases(query).join(" ");
}

/** The words of a query as FTS5 phrases, one each, as {@link ftsQuery} joins them. */
export function ftsPhrases(query: string): string[] {
  const words = query.split(/\s+/).filter((w) => w !== "" && w !== "*");
  if (words.length === 0) throw new SearchQueryError("the search query has no words");
  return words.map((word) => {
    const prefix = word.endsWith("*");
    const bare = prefix ? word.slice(0, -1) : word;
    return `"${bare.replaceAll('"', '""')}"${prefix ? "*" : ""}`;
  });
}

const SNIPPET_WORDS = 16;

/**
 * Runs a search over the rows of the files under `root` (already synced). A query matching at
 * most `limits.exactMax` entries is ranked by BM25 over all its matches; a broader one by
 * BM25's term-frequency and length parts over its `limits.window` newest matches that pass
 * the filters (see `search-rank.ts`). Ties go to the path, then the line.
 */
export function searchIndex(
  db: Database,
  root: string,
  query: string,
  filters: SearchFilters,
  limits: SearchLimits = DEFAULT_SEARCH_LIMITS,
): SearchHit[] {
  const phrases = ftsPhrases(query);
  try {
    // One read transaction: the page is made from the same rows (one WAL snapshot) the
    // ranking saw, whatever another process writes in between.
    return inTransaction(
      db,
      () => {
        const ranking = rankMatches(db, root, phrases, filters, limits, (cwd, wanted) =>
          cwdMatches(cwd, wanted, false),
        );
        const best = ranking.best;
        if (best.length === 0) return [];
        // Snippets for the page only (a snippet in the ranking would be made for every
        // candidate), from one more pass over the same candidates that stops at the last row of
        // the page: looking each row up in the match list by itself costs a seek per word and
        // index segment, a millisecond a row for common words.
        const columns = `entry_text.rowid AS id, f.path AS path, f.session_id AS sessionId,
        coalesce(f.cwd, '') AS cwd, e.id AS entryId, e.line AS line, e.type AS type,
        e.role AS role, e.model AS model, e.timestamp AS timestamp,
        snippet(entry_text, 0, '[', ']', '…', ${SNIPPET_WORDS}) AS snippet`;
        const page = "(SELECT value FROM json_each(@ids))";
        const sql =
          ranking.walk === undefined
            ? `SELECT ${columns} FROM json_each(@ids) AS page
            CROSS JOIN entry_text ON entry_text.rowid = page.value
            CROSS JOIN entries e ON e.rowid = page.value
            CROSS JOIN files f ON f.id = e.file_id
            WHERE entry_text MATCH @match`
            : `SELECT ${columns} ${ranking.walk}
            AND entry_text MATCH @match AND +entry_text.rowid IN ${page}
            ${ranking.newestFirst === true ? "ORDER BY entry_text.rowid DESC" : ""}
            LIMIT @pageSize`;
        const rows = prepareNamed<Omit<SearchHit, "rank"> & { id: number }>(db, sql).all({
          ...ranking.params,
          ids: JSON.stringify(best.map((b) => b.id)),
          pageSize: best.length,
        });
        const byId = new Map(rows.map(({ id, ...hit }) => [id, hit]));
        return best.flatMap(({ id, rank }) => {
          const hit = byId.get(id);
          return hit === undefined ? [] : [{ ...hit, rank }];
        });
      },
      "DEFERRED",
    );
  } catch (error) {
    if (primaryCode(error) === SQLITE.ERROR && /fts5/i.test(String(error))) {
      throw new SearchQueryError(`cannot search for ${JSON.stringify(query)}: ${String(error)}`);
    }
    throw error;
  }
}
