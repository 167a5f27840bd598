/**
 * One session answered from the index: its tree, the path a context is built from, and the
 * records its usage totals are summed over, reading from the file only the lines those need.
 * The file's rows are brought up to date first (the same sync a listing does), and only a
 * file core's shape fold calls regular is answered: one with nothing a full load would report
 * (no damaged line, duplicate id, dangling or late parent, torn tail, legacy header), so its
 * rows are exactly the entries a load keeps, in the same order. Anything else is left to a
 * full read of the file. Every answer is a list of entries handed to core's own functions
 * (`replayState`, `treeOf`, `buildSessionProjection`, the plugins' usage sums): where a record
 * does not change an answer, a stand-in built from its columns takes its place.
 */

import type { SessionEntry, SessionHeader } from "@pi-sessions/core";
import { walkPath } from "@pi-sessions/core";
import type { Database } from "better-sqlite3";
import { FileSync } from "./file-sync.js";
import {
  LineReader,
  type QueryRow,
  readRows,
  rowsStatement,
  StaleLineError,
} from "./session-rows.js";
import type { Statements } from "./statements.js";
import { WriteBatch } from "./write-batch.js";

export { StaleLineError } from "./session-rows.js";

/**
 * Entry types whose records are always read: they carry what the tree and the settings of a
 * context are folded from (labels, the name, model and thinking changes).
 */
const ALWAYS_READ = new Set(["label", "session_info", "model_change", "thinking_level_change"]);

/** Entry types whose records may carry a usage record besides messages. */
const USAGE_TYPES = new Set(["compaction", "branch_summary", "usage"]);

/** A session file read through the index: what a load gives, without reading every line. */
export class IndexedSession {
  /** One entry per row, in file order: the record itself once read, else its stand-in. */
  readonly entries: SessionEntry[];
  private readonly read: boolean[];
  private positions: Map<string, number> | undefined;

  /** @internal Use {@link SessionIndex.session}. */
  constructor(
    readonly path: string,
    /** The header record as the file holds it (a regular file's is current: no migration). */
    readonly header: SessionHeader,
    /** Bytes of the file (all complete lines: a regular file ends with a newline). */
    readonly size: number,
    /** Entries no other entry names as parent, as the shape fold counted them. */
    readonly branchTips: number,
    private readonly rows: readonly QueryRow[],
    private readonly reader: LineReader,
  ) {
    this.entries = rows.map(standIn);
    this.read = rows.map(() => false);
    this.fill(rows.map((row, i) => (needsRecord(row) ? i : -1)).filter((i) => i >= 0));
  }

  /** The header's `version` (a number of at least 3 in a regular file). */
  get version(): number {
    return this.header.version as number;
  }

  /** The leaf a load ends at: the last entry's id, `null` without entries. */
  get leafId(): string | null {
    return this.entries.at(-1)?.id ?? null;
  }

  /** The record of the entry at `position` (file order), read from the file if not yet. */
  entryAt(position: number): SessionEntry {
    this.fill([position]);
    return this.entries[position] as SessionEntry;
  }

  /**
   * The path root → `leafId` over the entries, with the records read from the last compaction
   * on (from its first kept entry when that comes earlier), so core's context builder gives
   * exactly what it gives over the whole file: the entries before only set the model and
   * thinking level, and those changes and every assistant message's model are in the
   * columns or always read. `[]` for `null` or an unknown id.
   */
  contextPath(leafId: string | null): SessionEntry[] {
    const path = this.pathPositions(leafId);
    const compaction = path.findLastIndex((p) => this.rows[p]?.type === "compaction");
    let start = 0;
    if (compaction >= 0) {
      const kept = this.entryAt(path[compaction] as number) as { firstKeptEntryId?: unknown };
      const first = path.findIndex((p) => this.entries[p]?.id === kept.firstKeptEntryId);
      start = first < 0 ? compaction : Math.min(first, compaction);
    }
    this.fill(path.slice(start));
    return path.map((p) => this.entries[p] as SessionEntry);
  }

  /** Positions (file order) on the path root → `leafId`; `[]` for null or an unknown id. */
  private pathPositions(leafId: string | null): number[] {
    if (leafId === null) return [];
    const positions = this.idPositions();
    const leaf = positions.get(leafId);
    if (leaf === undefined) return [];
    const entry = (id: string) => {
      const p = positions.get(id);
      return p === undefined ? undefined : this.entries[p];
    };
    const path = walkPath(this.entries[leaf] as SessionEntry, entry, this.entries.length);
    return path.map((e) => positions.get(e.id) as number);
  }

  /** Where each id is (a regular file has each id once). */
  idPositions(): ReadonlyMap<string, number> {
    if (this.positions === undefined) {
      this.positions = new Map();
      for (const [i, row] of this.rows.entries()) this.positions.set(row.id as string, i);
    }
    return this.positions;
  }

  /**
   * The entries with every record that can hold usage read (assistant and tool-result
   * messages, compactions, branch summaries, usage entries): what the plugins' usage sums need.
   */
  usageEntries(): SessionEntry[] {
    const wanted: number[] = [];
    for (const [i, row] of this.rows.entries()) {
      const usageMessage =
        row.type === "message" && (row.role === "assistant" || row.role === "toolResult");
      if (usageMessage || USAGE_TYPES.has(row.type as string)) wanted.push(i);
    }
    this.fill(wanted);
    return this.entries;
  }

  /** Reads the records at `positions` not read yet. */
  private fill(positions: readonly number[]): void {
    const rows: QueryRow[] = [];
    const at = new Map<QueryRow, number>();
    for (const p of positions) {
      if (this.read[p] === true) continue;
      const row = this.rows[p] as QueryRow;
      rows.push(row);
      at.set(row, p);
    }
    if (rows.length === 0) return;
    for (const [row, record] of this.reader.records(rows)) {
      const p = at.get(row) as number;
      this.entries[p] = record;
      this.read[p] = true;
    }
  }

  /** Closes the file. */
  close(): void {
    this.reader.close();
  }
}

/** Whether a row's columns cannot stand in for its record in the tree or a context's settings. */
function needsRecord(row: QueryRow): boolean {
  if (row.type === null || row.timestamp === null || ALWAYS_READ.has(row.type)) return true;
  if (row.type !== "message") return false;
  if (row.role === null) return true;
  return row.role === "assistant" && (row.provider === null || row.model === null);
}

/** What stands in for a record: its tree links, type and time, and a message's role and model. */
function standIn(row: QueryRow): SessionEntry {
  const head = { type: row.type, id: row.id, parentId: row.parentId, timestamp: row.timestamp };
  if (row.type !== "message") return head as unknown as SessionEntry;
  const message =
    row.role === "assistant"
      ? { role: row.role, provider: row.provider, model: row.model }
      : { role: row.role };
  return { ...head, message } as unknown as SessionEntry;
}

/**
 * Syncs one file's rows and opens it as an {@link IndexedSession}; `null` when the index does
 * not answer for it (gone, not a session, or not regular: see the module comment). SQLite
 * errors are thrown to the caller, which reads the file instead.
 */
export function openIndexedSession(
  db: Database,
  st: Statements,
  path: string,
): IndexedSession | null {
  const batch = new WriteBatch(db);
  let answer: ReturnType<FileSync["run"]>;
  try {
    answer = new FileSync(st, path, batch).run(false, true);
    batch.commit();
  } catch (error) {
    batch.rollback();
    throw error;
  }
  if (answer === null || answer.shape?.regular !== true) return null;
  const row = st.fileByPath.get(path);
  if (row === undefined || row.committed !== answer.shape.size) return null;
  const rows = readRows(rowsStatement(db), row.id);
  if (rows.length !== answer.shape.entries) return null;
  const reader = new LineReader(path, { size: row.size, mtimeMs: row.mtime_ms, ino: row.ino });
  try {
    const header = headerOf(reader, rows[0]?.offset ?? row.committed, path);
    return new IndexedSession(path, header, row.size, answer.shape.branches, rows, reader);
  } catch (error) {
    reader.close();
    throw error;
  }
}

/** The header record: the first non-blank line before the first entry. */
function headerOf(reader: LineReader, end: number, path: string): SessionHeader {
  const text = reader.bytes(0, end).toString("utf8");
  const line = text.split("\n").find((l) => l.trim() !== "");
  let value: unknown;
  try {
    value = JSON.parse(line ?? "");
  } catch {
    throw new StaleLineError(path, 0);
  }
  if (
    typeof value !== "object" ||
    value === null ||
    (value as { type?: unknown }).type !== "session"
  ) {
    throw new StaleLineError(path, 0);
  }
  return value as SessionHeader;
}
