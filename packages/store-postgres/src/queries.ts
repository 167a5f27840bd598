/**
 * Queries over every session of the store, answered by SQL over the columns each line's write
 * filled in: the listing's counts, times, first message, texts and name are selected and
 * aggregated by the server, one row per session; the client only decodes the texts (kept as
 * JSON literals) and shapes the header as the file store's listing does (SPEC §10.5), so both
 * give the same `SessionInfo` for the same session.
 */
import type { SessionEntry, SessionHeader, SessionInfo } from "@pi-sessions/core";
import { isJsonRecord } from "@pi-sessions/core/internal";
import type pg from "pg";

/** Where the store's tables are and how a location is formed. */
export interface QueryContext {
  readonly pool: pg.Pool;
  /** The quoted schema. */
  readonly s: string;
  readonly dir: string;
}

interface InfoRow {
  id: string;
  header: string;
  updated_at: Date;
  message_count: number;
  last_activity: number | null;
  first_message: string | null;
  texts: string[] | null;
  name: string | null;
}

/** One row per session: the aggregates of its lines after the header. */
const INFO_SQL = (s: string, where: string) => `
  SELECT s.id, s.header, s.updated_at,
         count(e.seq) FILTER (WHERE e.type = 'message')::int AS message_count,
         max(e.activity_ms) AS last_activity,
         (array_agg(e.msg_json ORDER BY e.seq)
            FILTER (WHERE e.role = 'user' AND e.msg_json IS NOT NULL))[1] AS first_message,
         array_agg(e.msg_json ORDER BY e.seq) FILTER (WHERE e.msg_json IS NOT NULL) AS texts,
         (array_agg(e.name_json ORDER BY e.seq DESC) FILTER (WHERE e.type = 'session_info'))[1]
           AS name
    FROM ${s}.sessions s
    LEFT JOIN ${s}.entries e ON e.session_id = s.id AND e.seq > s.header_seq
   WHERE ${where}
   GROUP BY s.id`;

/** A row as the file store's listing gives it (the session's last write stands in for mtime). */
function infoOf(c: QueryContext, row: InfoRow): SessionInfo {
  const parsed: unknown = JSON.parse(row.header);
  const raw = isJsonRecord(parsed) ? parsed : {};
  const created = Date.parse(String(raw.timestamp));
  const fallback = Number.isNaN(created) ? row.updated_at.getTime() : created;
  const last = row.last_activity ?? 0;
  return {
    path: `${c.dir}/${row.id}`,
    id: row.id,
    cwd: typeof raw.cwd === "string" ? raw.cwd : "",
    name: (row.name === null ? undefined : (JSON.parse(row.name) as string).trim()) || undefined,
    parentSessionPath: typeof raw.parentSession === "string" ? raw.parentSession : undefined,
    created: new Date(raw.timestamp as string | number),
    modified: new Date(last > 0 ? last : fallback),
    messageCount: row.message_count,
    firstMessage: row.first_message === null ? "(no messages)" : JSON.parse(row.first_message),
    allMessagesText: (row.texts ?? []).map((t) => JSON.parse(t) as string).join(" "),
  };
}

/** The infos of the selected sessions, newest activity first. */
async function infos(c: QueryContext, where: string, params: unknown[]): Promise<SessionInfo[]> {
  const result = await c.pool.query<InfoRow>(INFO_SQL(c.s, where), params);
  return result.rows
    .map((row) => infoOf(c, row))
    .sort((a, b) => b.modified.getTime() - a.modified.getTime());
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
