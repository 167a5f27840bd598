/**
 * Queries over every session of the store. A listing's `SessionInfo` is core's own fold of
 * the listing (`SessionInfoFold`, the one the file store's listing runs) over the session's
 * stored lines, in order, as the file store's reader hands a file over; the session's last
 * write stands in for the file's mtime. SQL only gathers each session's lines.
 */
import type { SessionEntry, SessionHeader, SessionInfo } from "@pi-sessions/core";
import { JsonlScanner, SessionInfoFold } from "@pi-sessions/core/internal";
import type pg from "pg";
import { fileText, type StoredLine } from "./lines.js";

/** Where the store's tables are and how a location is formed. */
export interface QueryContext {
  readonly pool: pg.Pool;
  /** The quoted schema. */
  readonly s: string;
  readonly dir: string;
}

/** Core's listing fold over a session's text; undefined when it does not start with a header. */
function foldInfo(
  c: QueryContext,
  id: string,
  text: string,
  updatedAt: Date,
): SessionInfo | undefined {
  const fold = new SessionInfoFold();
  const scanner = new JsonlScanner(fold);
  if (!scanner.push(text) || !scanner.end()) return undefined;
  return fold.finish(`${c.dir}/${id}`, updatedAt) ?? undefined;
}

/**
 * The infos of sessions read line by line, as the loader reads them (`fileText`), each
 * session from one snapshot with its last write.
 */
async function lineByLineInfos(c: QueryContext, ids: readonly string[]): Promise<SessionInfo[]> {
  const result = await c.pool.query<StoredLine & { id: string; updated_at: Date }>(
    `SELECT s.id, s.updated_at, e.line, e.raw
       FROM ${c.s}.sessions s JOIN ${c.s}.entries e ON e.session_id = s.id
      WHERE s.id = ANY($1) ORDER BY s.id, e.seq`,
    [ids],
  );
  const sessions = new Map<string, { updatedAt: Date; lines: StoredLine[] }>();
  for (const row of result.rows) {
    const session = sessions.get(row.id) ?? { updatedAt: row.updated_at, lines: [] };
    session.lines.push(row);
    sessions.set(row.id, session);
  }
  // Whether the last line ends with a newline changes nothing the fold reads.
  return [...sessions].flatMap(
    ([id, { updatedAt, lines }]) => foldInfo(c, id, fileText(lines, false), updatedAt) ?? [],
  );
}

/**
 * Up to how many bytes of lines the server joins into one text, well under PostgreSQL's 1 GB
 * limit of a value; a bigger session is read line by line, as its load reads it.
 */
const JOIN_BYTES = 256 * 1024 * 1024;

/**
 * The infos of the selected sessions, newest activity first. The server joins each session's
 * lines into its text (one row per session, not per line: rows are what a listing costs);
 * a session with a line kept as bytes, which only the client decodes, or a huge one is read
 * line by line.
 */
async function infos(c: QueryContext, where: string, params: unknown[]): Promise<SessionInfo[]> {
  const result = await c.pool.query<{
    id: string;
    updated_at: Date;
    by_line: boolean;
    text: string | null;
  }>(
    `WITH picked AS (
       SELECT s.id, s.updated_at,
              bool_or(e.raw IS NOT NULL)
                OR coalesce(sum(octet_length(e.line)), 0) > ${JOIN_BYTES} AS by_line
         FROM ${c.s}.sessions s
         LEFT JOIN ${c.s}.entries e ON e.session_id = s.id
        WHERE ${where}
        GROUP BY s.id)
     SELECT p.id, p.updated_at, p.by_line,
            CASE WHEN p.by_line THEN NULL ELSE
              (SELECT string_agg(e.line, E'\n' ORDER BY e.seq)
                 FROM ${c.s}.entries e WHERE e.session_id = p.id) END AS text
       FROM picked p`,
    params,
  );
  const out: SessionInfo[] = [];
  const byLine: string[] = [];
  for (const row of result.rows) {
    if (row.by_line) {
      byLine.push(row.id);
      continue;
    }
    const info = foldInfo(c, row.id, row.text ?? "", row.updated_at);
    if (info) out.push(info);
  }
  if (byLine.length > 0) out.push(...(await lineByLineInfos(c, byLine)));
  return out.sort((a, b) => b.modified.getTime() - a.modified.getTime());
}

/** The sessions of one working directory (its header's `cwd`), newest activity first. */
export function listSessions(c: QueryContext, cwd: string): Promise<SessionInfo[]> {
  return infos(c, "s.cwd = $1", [cwd]);
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
