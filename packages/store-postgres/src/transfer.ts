/**
 * Import and export: a pi session file goes into the database line for line, every byte
 * kept (lines we cannot parse, damaged lines before the header, a last line without `\n`),
 * and comes out as the same bytes, a file pi reads. Import checks the file with core's own
 * loader first: what is not a session is refused with its reason, and nothing is written.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  isJsonRecord,
  loadText,
  type SessionEnv,
  sessionFileName,
  systemEnv,
} from "@pi-sessions/core/internal";
import type pg from "pg";
import { foldLines } from "./info-fold.js";
import { fileBytes, type LineRow, type StoredLine, splitFile } from "./lines.js";
import { insertSession, type RetryPolicy, withRetry } from "./writes.js";

/** Where the store's tables are and how writes retry. */
export interface TransferContext {
  readonly pool: pg.Pool;
  /** The quoted schema. */
  readonly s: string;
  readonly dir: string;
  readonly env: SessionEnv;
  readonly retry: RetryPolicy;
}

/** Stores a session file's bytes as a new session; returns its id. */
export async function importBytes(
  c: TransferContext,
  bytes: Buffer,
  label = "<bytes>",
): Promise<string> {
  // Throws InvalidSessionError (empty, no records, no header first) before anything is written.
  // Only the header's place is kept: the ids a legacy load draws are not, so they come from
  // the system's env, and the store's (seeded, in tests) is left for the real load.
  const loaded = loadText(bytes.toString("utf8"), systemEnv, label);
  const { rows, needsNewline } = splitFile(bytes);
  const headerRow = rows[loaded.headerLine - 1] as LineRow;
  const headerText = headerRow.line ?? (headerRow.raw as Buffer).toString("utf8");
  const raw: unknown = JSON.parse(headerText);
  const header = isJsonRecord(raw) ? raw : {};
  const text = (v: unknown) => (typeof v === "string" ? v : null);
  const id = text(header.id);
  if (id === null || id === "" || id.includes("/")) {
    throw new Error(`The session header has no usable id: ${label}`);
  }
  const session = {
    id,
    cwd: text(header.cwd),
    parentSession: text(header.parentSession),
    created: text(header.timestamp),
    header: headerText,
    headerSeq: headerRow.seq,
    needsNewline,
    rows,
    folded: foldLines(rows),
  };
  await withRetry(c.retry, (retrying) =>
    insertSession(c.pool, c.s, session, undefined, `${c.dir}/${id}`, retrying),
  );
  return id;
}

/** Stores the session file at `path`; returns its id. */
export function importFile(c: TransferContext, path: string): Promise<string> {
  return importBytes(c, readFileSync(path), path);
}

/** The session's file, byte for byte what the file store holds for it. */
export async function exportBytes(c: TransferContext, id: string): Promise<Buffer> {
  const session = await c.pool.query<{ needs_newline: boolean }>(
    `SELECT needs_newline FROM ${c.s}.sessions WHERE id = $1`,
    [id],
  );
  const row = session.rows[0];
  if (!row) throw new Error(`No session in the database at ${c.dir}/${id}`);
  const lines = await c.pool.query<StoredLine>(
    `SELECT line, raw FROM ${c.s}.entries WHERE session_id = $1 ORDER BY seq`,
    [id],
  );
  return fileBytes(lines.rows, row.needs_newline);
}

/**
 * Writes the session into `dir` under the name the file store gives it (timestamp and id),
 * so pi and `SessionManager.open` read it there; returns the path.
 */
export async function exportToDir(c: TransferContext, id: string, dir: string): Promise<string> {
  const found = await c.pool.query<{ created: string | null }>(
    `SELECT created FROM ${c.s}.sessions WHERE id = $1`,
    [id],
  );
  const created = found.rows[0]?.created ?? new Date(0).toISOString();
  const path = join(dir, sessionFileName(created, id));
  writeFileSync(path, await exportBytes(c, id), { flag: "wx" });
  return path;
}
