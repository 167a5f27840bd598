/**
 * How search ranks: which matches of a query are candidates and in what order, before the
 * page of hits is made. A query of few matches is ranked by FTS5's BM25 over all of them. A
 * broad one (a word in a large share of the entries) would cost a second at a million entries
 * that way, so it is ranked over a window of its newest matches by a BM25 without word weights.
 */

import type { SearchFilters } from "./search-filters.js";
import { type Database, prepare, prepareNamed } from "./sqlite.js";

/**
 * How many matches a query may have and still be ranked by BM25 over all of them. FTS5's
 * bm25() costs a few microseconds per match plus a scan of every query word's whole match
 * list, so one word in a third of a million entries costs most of a second; past this many
 * matches a search ranks a window of them instead (see {@link BROAD_WINDOW}).
 */
export const EXACT_RANK_MAX = 5000;

/**
 * How many of a broad query's matches that pass the filters, newest indexed first, are
 * ranked: enough for a page of good hits, few enough to rank in milliseconds.
 */
export const BROAD_WINDOW = 500;

/**
 * A query word in at least this many entries is left out of the BM25 score of a query that
 * also has rarer words (its matches still must hold it). Weighing it would cost a scan of its
 * whole match list, tens of milliseconds at a million entries, for a weight of little
 * consequence: BM25 weighs a word by how rare it is.
 */
export const FREQUENT_WORD = 20_000;

/** The thresholds of a search (the defaults above; tests use small ones). */
export interface SearchLimits {
  /** Queries with at most this many matches are ranked by BM25 over all of them. */
  readonly exactMax: number;
  /** A broader query is ranked over this many of its newest matches that pass the filters. */
  readonly window: number;
  /** Words in at least this many entries are not weighed when the query has rarer ones. */
  readonly frequent: number;
}

/** The default thresholds. */
export const DEFAULT_SEARCH_LIMITS: SearchLimits = {
  exactMax: EXACT_RANK_MAX,
  window: BROAD_WINDOW,
  frequent: FREQUENT_WORD,
};

/** One ranked candidate: its `entries` rowid and score (lower is better). */
export interface Ranked {
  readonly id: number;
  readonly rank: number;
}

/**
 * A ranking, and how to find its rows again for the page: `walk` is the SQL (FROM and WHERE,
 * with `@match` and `params`) that passes over the same candidates, newest first when
 * `newestFirst`, so that snippets come from one pass over a match list; without it, each row
 * of the page is looked up in the match list by itself (for candidates found through files).
 */
export interface Ranking {
  readonly best: Ranked[];
  readonly params: Record<string, unknown>;
  readonly walk?: string;
  readonly newestFirst?: boolean;
}

const withFunctions = new WeakSet<Database>();

/** A header cwd is matched as core's listing matches it (resolved; a missing one does not). */
function withCwdMatches(db: Database, cwdMatches: (cwd: unknown, wanted: string) => boolean) {
  if (withFunctions.has(db)) return;
  db.function("cwd_matches", { deterministic: true }, (cwd: unknown, wanted: unknown) =>
    cwdMatches(cwd, String(wanted)) ? 1 : 0,
  );
  withFunctions.add(db);
}

/**
 * The filters as SQL conditions on `e` (entries) and `f` (files), with their parameters:
 * `where` all of them, `fileWhere` those on the file alone. The file conditions keep out rows
 * of files outside `root` and of files a sync gave up on.
 */
function filterClauses(root: string, filters: SearchFilters) {
  const where = ["f.stopped = 0", "f.path > @lo", "f.path < @hi"];
  const entryWhere: string[] = [];
  const params: Record<string, unknown> = { lo: `${root}/`, hi: `${root}/\u{10ffff}` };
  if (filters.cwd !== undefined) {
    where.push("cwd_matches(f.cwd, @cwd)");
    params.cwd = filters.cwd;
  }
  if (filters.role !== undefined) {
    const roles = typeof filters.role === "string" ? [filters.role] : [...filters.role];
    entryWhere.push(`e.role IN (${roles.map((_, i) => `@role${i}`).join(", ")})`);
    roles.forEach((role, i) => {
      params[`role${i}`] = role;
    });
  }
  if (filters.model !== undefined) {
    entryWhere.push("e.model = @model");
    params.model = filters.model;
  }
  if (filters.since !== undefined) {
    entryWhere.push("e.time_ms >= @since");
    params.since = filters.since.getTime();
  }
  if (filters.until !== undefined) {
    entryWhere.push("e.time_ms < @until");
    params.until = filters.until.getTime();
  }
  if (filters.session !== undefined) {
    // By the files' indexes (path, session id) alone: a session id stored after the file's
    // text is slow to read from the row. LIKE 'id%' also matches the id itself.
    where.push(
      `f.id IN (SELECT id FROM files WHERE path = @session
        UNION ALL SELECT id FROM files
          WHERE session_id LIKE @sessionPrefix ESCAPE '\\')`,
    );
    params.session = filters.session;
    params.sessionPrefix = `${filters.session.replace(/[%_\\]/g, "\\$&")}%`;
  }
  return { where: [...where, ...entryWhere].join(" AND "), fileWhere: where.join(" AND "), params };
}

// The match list drives the joins (CROSS JOIN keeps it outermost): the cost follows the
// matches looked at, not the size of the table.
const FROM = `FROM entry_text
  CROSS JOIN entries e ON e.rowid = entry_text.rowid
  CROSS JOIN files f ON f.id = e.file_id`;

// The files that pass the filters drive the joins: each of their entries is looked up in the
// match list. For a session or a cwd of few entries among many matches.
const FROM_FILES = `FROM files f
  CROSS JOIN entries e ON e.file_id = f.id
  CROSS JOIN entry_text ON entry_text.rowid = e.rowid`;

/**
 * A broad query whose files (by session or cwd) hold at most this many entries looks each of
 * them up rather than walking the match list for the few matches of those files.
 */
const FILE_DRIVEN_MAX = 10_000;

/** BM25's constants, as FTS5's bm25() uses them. */
const K1 = 1.2;
const B = 0.75;

/**
 * The best `limit` candidates of a broad query: the newest `window` matches that pass the
 * filters (FTS5 walks its match list in descending rowid order and the scan stops there),
 * each scored by BM25's term-frequency and length parts. The frequency is the number of
 * matched tokens (what highlight() marks, one character each); the length is the text's,
 * against the window's mean. BM25's word weights (IDF) are left out: every word of a query
 * this broad is common, and weighing them is the scan of whole match lists this avoids.
 */
function rankBroad(
  db: Database,
  where: string,
  params: Record<string, unknown>,
  limit: number,
  window: number,
  from = FROM,
): Ranked[] {
  const rows = prepareNamed<[number, string, number, number, number]>(
    db,
    `SELECT entry_text.rowid, f.path, e.line,
        length(highlight(entry_text, 0, char(1), '')) - length(entry_text.text),
        length(entry_text.text)
      ${from}
      WHERE entry_text MATCH @match AND ${where}
      ORDER BY entry_text.rowid DESC
      LIMIT @window`,
    true,
  ).all({ ...params, window });
  const meanLength = Math.max(1, rows.reduce((sum, r) => sum + r[4], 0) / (rows.length || 1));
  const scored = rows.map(([id, path, line, tf, length]) => ({
    id,
    path,
    line,
    rank: -((tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * length) / meanLength))),
  }));
  scored.sort(
    (a, b) =>
      a.rank - b.rank || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) || a.line - b.line,
  );
  return scored.slice(0, limit).map(({ id, rank }) => ({ id, rank }));
}

/**
 * The best `limit` candidates of a query of few matches: FTS5's BM25 over every match that
 * passes the filters, ties to the path, then the line. With `scored` (the query without its
 * frequent words) the score is BM25 of that expression over the matches of the whole query.
 */
function rankExact(
  db: Database,
  where: string,
  params: Record<string, unknown>,
  limit: number,
  scored?: string,
): Ranked[] {
  // The unary + keeps SQLite from handing the rowid list to FTS5 as lookups, one per row:
  // the scored words' own (short) match list is walked, and each match checked in the list.
  const restrict =
    scored === undefined
      ? ""
      : "AND +entry_text.rowid IN (SELECT rowid FROM entry_text WHERE entry_text MATCH @match)";
  return prepareNamed<Ranked>(
    db,
    `SELECT entry_text.rowid AS id, bm25(entry_text) AS rank
      ${FROM}
      WHERE entry_text MATCH @scored ${restrict} AND ${where}
      ORDER BY rank, f.path, e.line
      LIMIT @limit`,
  ).all({ ...params, limit, scored: scored ?? params.match });
}

/** How many entries match `match`, counting no further than `cap`. */
function countUpTo(db: Database, match: string, cap: number): number {
  const row = prepare<[string, number], { n: number }>(
    db,
    "SELECT count(*) AS n FROM (SELECT 1 FROM entry_text WHERE entry_text MATCH ? LIMIT ?)",
  ).get(match, cap);
  return row?.n ?? 0;
}

/**
 * The best `limit` matches of the query `phrases` (FTS5 phrases, all required) among the rows
 * of the files under `root` that pass `filters`, best first.
 */
export function rankMatches(
  db: Database,
  root: string,
  phrases: readonly string[],
  filters: SearchFilters,
  limits: SearchLimits,
  cwdMatches: (cwd: unknown, wanted: string) => boolean,
): Ranking {
  withCwdMatches(db, cwdMatches);
  const { where, fileWhere, params } = filterClauses(root, filters);
  const match = phrases.join(" ");
  const all = { ...params, match };
  const limit = Math.max(1, Math.trunc(filters.limit ?? 20));
  // A page longer than the window widens it: a search never returns fewer hits than asked for
  // while more matches pass the filters.
  const window = Math.max(limit, Math.trunc(limits.window));
  const exactMax = Math.max(0, Math.trunc(limits.exactMax));
  // Counting stops one past the threshold, so telling a broad query costs little.
  if (countUpTo(db, match, exactMax + 1) > exactMax) {
    const fewFiles =
      (filters.session !== undefined || filters.cwd !== undefined) &&
      (prepareNamed<{ n: number }>(
        db,
        `SELECT count(*) AS n FROM (SELECT 1 FROM files f CROSS JOIN entries e ON e.file_id = f.id
            WHERE ${fileWhere} LIMIT @cap)`,
      ).get({ ...params, cap: FILE_DRIVEN_MAX + 1 })?.n ?? 0) <= FILE_DRIVEN_MAX;
    if (fewFiles)
      return { best: rankBroad(db, where, all, limit, window, FROM_FILES), params: all };
    const best = rankBroad(db, where, all, limit, window);
    return { best, params: all, walk: `${FROM} WHERE ${where}`, newestFirst: true };
  }
  // A single word of few matches is cheap to weigh; each word of several is counted (up to
  // the threshold) to find the frequent ones.
  const frequent = Math.max(1, Math.trunc(limits.frequent));
  const rare =
    phrases.length === 1 ? phrases : phrases.filter((p) => countUpTo(db, p, frequent) < frequent);
  // The query has at most `exactMax` matches: the page may walk them all.
  const walk = { params: all, walk: `${FROM} WHERE ${where}` };
  if (rare.length === phrases.length) return { best: rankExact(db, where, all, limit), ...walk };
  if (rare.length === 0) return { best: rankBroad(db, where, all, limit, window), ...walk };
  return { best: rankExact(db, where, all, limit, rare.join(" ")), ...walk };
}
