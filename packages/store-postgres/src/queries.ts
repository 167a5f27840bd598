/**
 * Queries over every session of the store. A listing's `SessionInfo` is core's own fold of
 * the listing (`SessionInfoFold`, the one the file store's listing runs) over the session's
 * stored lines, in order, as the file store's reader hands a file over; the session's last
 * write stands in for the file's mtime. Writers save the fold's state now and then
 * (`LineFold`), so a listing resumes the saved state, hands it the texts of the lines it
 * covers, and folds the few lines written after it; a session without a usable state (written
 * by a version that kept none, or saved by another fold) is folded from all its lines here.
 * `list(cwd)` keeps the sessions whose header cwd matches by core's rule (`cwdMatches`).
 */
import type { SessionEntry, SessionHeader, SessionInfo } from "@pi-sessions/core";
import { cwdMatches, resolveCwd } from "@pi-sessions/core/internal";
import type pg from "pg";
import { LineFold, parseTexts } from "./info-fold.js";
import type { StoredLine } from "./lines.js";
import { lastWriteSql, nextSeqSql } from "./session-head.js";

/** Where the store's tables are and how a location is formed. */
export interface QueryContext {
  readonly pool: pg.Pool;
  /** The quoted schema. */
  readonly s: string;
  readonly dir: string;
}

/** The infos of sessions without a usable state, folded from their lines as stored. */
async function foldedInfos(c: QueryContext, ids: readonly string[]): Promise<SessionInfo[]> {
  const result = await c.pool.query<StoredLine & { id: string; updated_at: Date }>(
    // Each session's last write found once (materialised: not once per line of the join).
    `WITH s AS MATERIALIZED (
       SELECT s.id, ${lastWriteSql(c.s, "s")} AS updated_at
         FROM ${c.s}.sessions s WHERE s.id = ANY($1))
     SELECT s.id, s.updated_at, e.line, e.raw
       FROM s JOIN ${c.s}.entries e ON e.session_id = s.id
      ORDER BY s.id, e.seq`,
    [ids],
  );
  const sessions = new Map<string, { updatedAt: Date; lines: StoredLine[] }>();
  for (const row of result.rows) {
    const session = sessions.get(row.id) ?? { updatedAt: row.updated_at, lines: [] };
    session.lines.push(row);
    sessions.set(row.id, session);
  }
  return [...sessions].flatMap(
    ([id, { updatedAt, lines }]) => LineFold.ofLines(lines, `${c.dir}/${id}`, updatedAt) ?? [],
  );
}

/**
 * The infos of the selected sessions, newest activity first: one row per session, its saved
 * state, the texts of the lines the state covers joined by the server into one JSON array body
 * (rows are what a listing costs), and the lines after it; one statement, so one snapshot.
 * The texts fit in one value: the file store's listing holds them as one string too, which is
 * far smaller than PostgreSQL's limit.
 */
async function infos(c: QueryContext, where: string, params: unknown[]): Promise<SessionInfo[]> {
  const result = await c.pool.query<{
    id: string;
    updated_at: Date;
    info_state: Buffer | null;
    texts: string | null;
    tail: (string | null)[] | null;
  }>(
    `SELECT s.id, ${lastWriteSql(c.s, "s")} AS updated_at, s.info_state,
            (SELECT string_agg(e.info_texts, ',' ORDER BY e.seq) FROM ${c.s}.entries e
              WHERE e.session_id = s.id AND e.seq < s.info_seq
                AND e.info_texts IS NOT NULL) AS texts,
            (SELECT array_agg(e.line ORDER BY e.seq) FROM ${c.s}.entries e
              WHERE e.session_id = s.id AND e.seq >= s.info_seq) AS tail
       FROM ${c.s}.sessions s
      WHERE (${where}) AND s.info_state IS NOT NULL AND s.info_seq <= ${nextSeqSql(c.s, "s")}
     UNION ALL
     SELECT s.id, NULL, NULL, NULL, NULL
       FROM ${c.s}.sessions s
      WHERE (${where}) AND (s.info_state IS NULL OR s.info_seq IS NULL
                            OR s.info_seq > ${nextSeqSql(c.s, "s")})`,
    params,
  );
  const out: SessionInfo[] = [];
  const unsaved: string[] = [];
  for (const row of result.rows) {
    const tail = row.tail ?? [];
    // A line kept as bytes after the state (none is written so; a state covers what an import
    // or a rewrite stores) is folded with the rest, from the start.
    if (row.info_state === null || tail.includes(null)) {
      unsaved.push(row.id);
      continue;
    }
    const texts = parseTexts(row.texts);
    const location = `${c.dir}/${row.id}`;
    const info = LineFold.info(row.info_state, texts, tail as string[], location, row.updated_at);
    if (info === undefined) unsaved.push(row.id);
    else if (info !== null) out.push(info);
  }
  if (unsaved.length > 0) out.push(...(await foldedInfos(c, unsaved)));
  return out.sort((a, b) => b.modified.getTime() - a.modified.getTime());
}

/**
 * The sessions of one working directory, newest activity first: those whose header cwd
 * matches `cwd` by core's rule (both resolved, so `/p/` and `/p` are one directory; a header
 * without a cwd belongs to none, as in a session directory other than a cwd's default one).
 */
export async function listSessions(c: QueryContext, cwd: string): Promise<SessionInfo[]> {
  const wanted = resolveCwd(cwd);
  const stored = await c.pool.query<{ cwd: string }>(
    `SELECT DISTINCT cwd FROM ${c.s}.sessions WHERE cwd IS NOT NULL`,
  );
  const matching = stored.rows.map((r) => r.cwd).filter((h) => cwdMatches(h, wanted, false));
  if (matching.length === 0) return [];
  return infos(c, "s.cwd = ANY($1)", [matching]);
}

/** Every session of the store, newest activity first. */
export function listAllSessions(c: QueryContext): Promise<SessionInfo[]> {
  return infos(c, "true", []);
}

/** The info of the session with exactly this id, or undefined. */
export async function findSessionById(
  c: QueryContext,
  id: string,
): Promise<SessionInfo | undefined> {
  return (await infos(c, "s.id = $1", [id]))[0];
}

/** One session's usage-bearing records, in the shape usage totals take (`SessionUsageInput`). */
export interface SessionUsageRecords {
  /** The session's location. */
  readonly path: string;
  readonly header: SessionHeader;
  /** Its records that may carry usage, in log order. */
  readonly entries: SessionEntry[];
}

/**
 * The records of every session that may carry usage (assistant and tool-result messages,
 * compactions, branch summaries, usage entries), selected and ordered by SQL; the arithmetic
 * is left to the one implementation of usage totals,
 * `computeSessionsUsageTotals` of `@pi-sessions/plugins`.
 */
export async function usageRecords(c: QueryContext): Promise<SessionUsageRecords[]> {
  const result = await c.pool.query<{
    id: string;
    header: string;
    line: string | null;
    raw: Buffer | null;
  }>(
    `SELECT s.id, s.header, e.line, e.raw
       FROM ${c.s}.sessions s
       LEFT JOIN ${c.s}.entries e ON e.session_id = s.id AND e.seq > s.header_seq
            AND (e.type IN ('compaction', 'branch_summary', 'usage')
                 OR (e.type = 'message' AND e.role IS DISTINCT FROM 'user'))
      ORDER BY s.id, e.seq`,
  );
  const sessions = new Map<string, SessionUsageRecords>();
  for (const row of result.rows) {
    let session = sessions.get(row.id);
    if (!session) {
      session = { path: `${c.dir}/${row.id}`, header: JSON.parse(row.header), entries: [] };
      sessions.set(row.id, session);
    }
    // A line kept as bytes (invalid UTF-8) is read as the file store reads it: decoded with
    // replacement characters, so its record counts as it does from the file.
    const text = row.line ?? row.raw?.toString("utf8");
    if (text !== undefined) session.entries.push(JSON.parse(text) as SessionEntry);
  }
  return [...sessions.values()];
}
