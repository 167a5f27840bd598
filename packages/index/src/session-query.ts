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
import type { Database } from "better-sqlite3";
import { FileSync } from "./file-sync.js";
import { LineReader, type QueryRow, RowQueries, StaleLineError } from "./session-rows.js";
import { needsRecord, needsTreeRecord, standIn } from "./stand-ins.js";
import type { Statements } from "./statements.js";
import { WriteBatch } from "./write-batch.js";

export { StaleLineError } from "./session-rows.js";

/** Entry types the tree's state is folded from (labels and the name): always read for it. */
const TREE_TYPES = new Set(["label", "session_info"]);

/** Entry types that set a context's model and thinking level: always read on its path. */
const SETTING_TYPES = new Set(["model_change", "thinking_level_change"]);

/** Records read with a missing one of the tree (see `FileSession.entryAt`). */
const READ_AHEAD = 256;

/** A file's row count and rowid span. */
interface Span {
  readonly first: number;
  readonly last: number;
}

/**
 * A session file read through the index: what a load gives, reading only what each query
 * needs. Use it before the index is closed; close it when done.
 */
export interface IndexedSession {
  /** The session file. */
  readonly path: string;
  /** The header record as the file holds it (a regular file's is current: no migration). */
  readonly header: SessionHeader;
  /** The header's `version` (a number of at least 3). */
  readonly version: number;
  /** Bytes of the file. */
  readonly size: number;
  /** Entries (each with an id: the file is regular). */
  readonly entryCount: number;
  /** Entries no other entry names as parent. */
  readonly branchTips: number;
  /** The session's name as core's listing and name projection give it. */
  readonly name: string | undefined;
  /** The leaf a load ends at: the last entry's id, `null` without entries. */
  readonly leafId: string | null;
  /** Whether an entry has exactly this id. */
  hasId(id: string): boolean;
  /** The ids that start with `prefix`, in file order. */
  idsStartingWith(prefix: string): string[];
  /**
   * Every entry in file order, for core's `replayState` and `treeOf`: stand-ins built from the
   * columns, with the label and name records read. {@link IndexedSession.entryAt} reads one.
   */
  entries(): SessionEntry[];
  /** The record at `position` of {@link IndexedSession.entries}, read from the file. */
  entryAt(position: number): SessionEntry;
  /** The path root → `leafId` for core's context builder (records read where they count). */
  contextPath(leafId: string | null): SessionEntry[];
  /** The session as the plugins' usage sums ask one, every usage record read. */
  usageSession(leafId: string | null): UsageSession;
  /** Closes the file. */
  close(): void;
}

/** {@link IndexedSession} over one file's rows and the open file. */
class FileSession implements IndexedSession {
  private treeRows: QueryRow[] | undefined;
  private treeEntries: SessionEntry[] | undefined;
  private readonly records = new Map<number, SessionEntry>();

  constructor(
    private readonly queries: RowQueries,
    private readonly fileId: number,
    private readonly span: Span | null,
    private readonly reader: LineReader,
    readonly path: string,
    /** The header record as the file holds it (a regular file's is current: no migration). */
    readonly header: SessionHeader,
    /** Bytes of the file (all complete lines: a regular file ends with a newline). */
    readonly size: number,
    /** Entries (every one has an id in a regular file). */
    readonly entryCount: number,
    /** Entries no other entry names as parent, as the shape fold counted them. */
    readonly branchTips: number,
    /** The session's name as core's listing and name projection give it. */
    readonly name: string | undefined,
    /** The leaf a load ends at: the last entry's id, `null` without entries. */
    readonly leafId: string | null,
  ) {}

  /** The header's `version` (a number of at least 3 in a regular file). */
  get version(): number {
    return this.header.version as number;
  }

  /** Whether the session has an entry with exactly this id. */
  hasId(id: string): boolean {
    return this.queries.row(this.fileId, id) !== undefined;
  }

  /** The ids that start with `prefix`, in file order. */
  idsStartingWith(prefix: string): string[] {
    return this.queries.idsStartingWith(this.fileId, prefix);
  }

  /**
   * Every entry in file order, for core's tree: stand-ins with the label and name records
   * read (and any whose columns are empty). Read the record behind one with {@link entryAt}.
   */
  entries(): SessionEntry[] {
    if (this.treeEntries === undefined) {
      const rows = this.span === null ? [] : this.queries.rows(this.fileId, this.span);
      const ordered = rows.every((r, i) => i === 0 || (rows[i - 1] as QueryRow).line < r.line);
      if (rows.length !== this.entryCount || !ordered) {
        throw new StaleLineError(this.path, 0);
      }
      this.treeRows = rows;
      this.fill(rows.filter((r) => TREE_TYPES.has(r.type as string) || needsTreeRecord(r)));
      this.treeEntries = rows.map((r) => this.records.get(r.rowid) ?? standIn(r));
    }
    return this.treeEntries;
  }

  /**
   * The record of the entry at `position` of {@link entries}, read from the file if not yet,
   * with the next ones in file order: a tree shown whole asks for every record, and one read
   * of many lines costs little more than one of a single line.
   */
  entryAt(position: number): SessionEntry {
    const rows = this.treeRows ?? [];
    const row = rows[position];
    if (row === undefined) throw new RangeError(`no entry at ${position}`);
    if (!this.records.has(row.rowid)) this.fill(rows.slice(position, position + READ_AHEAD));
    return this.records.get(row.rowid) as SessionEntry;
  }

  /** The path root → `leafId` as rows; `[]` for null or an unknown id. */
  private pathRows(leafId: string | null): QueryRow[] {
    if (leafId === null) return [];
    const leaf = this.queries.row(this.fileId, leafId);
    if (leaf === undefined) return [];
    const rows = this.queries.pathTo(this.fileId, leaf.rowid, this.entryCount + 1);
    // A regular file has no cycle: a longer path means the rows no longer match the file.
    if (rows.length > this.entryCount) throw new StaleLineError(this.path, leaf.offset);
    return rows;
  }

  /**
   * The path root → `leafId` with the records read from the last compaction on (from its
   * first kept entry when that comes earlier): core's context builder gives over it exactly
   * what it gives over the whole file, as the entries before only set the model and thinking
   * level, and those changes are read and every assistant message's model is in the
   * columns. `[]` for `null` or an unknown id.
   */
  contextPath(leafId: string | null): SessionEntry[] {
    const rows = this.pathRows(leafId);
    const compaction = rows.findLastIndex((r) => r.type === "compaction");
    let start = 0;
    if (compaction >= 0) {
      const row = rows[compaction] as QueryRow;
      this.fill([row]);
      const kept = (this.records.get(row.rowid) as { firstKeptEntryId?: unknown }).firstKeptEntryId;
      const first = rows.findIndex((r) => r.id === kept);
      start = first < 0 ? compaction : Math.min(first, compaction);
    }
    this.fill(
      rows.filter((r, i) => i >= start || SETTING_TYPES.has(r.type as string) || needsRecord(r)),
    );
    return rows.map((r) => this.records.get(r.rowid) ?? standIn(r));
  }

  /**
   * The records that hold usage, in file order (assistant and tool-result messages,
   * compactions, branch summaries, usage entries; a line without a `usage` key is not
   * parsed), and the path to any leaf with those records read: what the plugins' usage
   * sums need, as a session they can ask (`getEntries`, `getLeafId`, `getBranch`).
   */
  usageSession(leafId: string | null): UsageSession {
    const rows = this.span === null ? [] : this.queries.usageRows(this.fileId, this.span);
    // Only a tool result may come without usage: one whose line cannot hold the key is skipped.
    const skip = (row: QueryRow, bytes: Buffer) =>
      row.role === "toolResult" && !bytes.includes(USAGE_KEY) && !bytes.includes(UNICODE_ESCAPE);
    for (const [row, record] of this.reader.records(rows, skip))
      this.records.set(row.rowid, record);
    const withUsage = rows.filter((r) => this.records.has(r.rowid));
    const isUsageRow = new Set(withUsage.map((r) => r.rowid));
    const entries = withUsage.map((r) => this.records.get(r.rowid) as SessionEntry);
    return {
      getEntries: () => entries,
      getLeafId: () => leafId,
      getBranch: (id?: string) =>
        this.pathRows(id ?? leafId).map((r) =>
          isUsageRow.has(r.rowid) ? (this.records.get(r.rowid) as SessionEntry) : standIn(r),
        ),
    };
  }

  /** Reads the records of `rows` not read yet. */
  private fill(rows: readonly QueryRow[]): void {
    const missing = rows.filter((r) => !this.records.has(r.rowid));
    if (missing.length === 0) return;
    for (const [row, record] of this.reader.records(missing)) this.records.set(row.rowid, record);
  }

  /** Closes the file. */
  close(): void {
    this.reader.close();
  }
}

/** A session as the plugins' `computeUsageTotals` asks one. */
export interface UsageSession {
  getEntries(): SessionEntry[];
  getLeafId(): string | null;
  getBranch(fromId?: string): SessionEntry[];
}

/**
 * The bytes of a `usage` key, and of a `\u` escape: the only way to spell a letter of a key
 * otherwise (a line with neither cannot have the key).
 */
const USAGE_KEY = Buffer.from('"usage"');
const UNICODE_ESCAPE = Buffer.from("\\u");

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
  const queries = new RowQueries(db);
  const span = queries.spanOf(row.id);
  const reader = new LineReader(path, { size: row.size, mtimeMs: row.mtime_ms, ino: row.ino });
  try {
    const last = span === null ? undefined : queries.pathTo(row.id, span.last, 1)[0];
    // The last row must be the file's last line (a regular file's last record is its last
    // entry), else the rows are not the file's: read the file.
    if (span !== null && (last === undefined || last.offset + last.length + 1 !== row.committed)) {
      reader.close();
      return null;
    }
    const header = headerOf(
      reader,
      span === null ? row.committed : firstOffset(queries, row.id, span),
      path,
    );
    return new FileSession(
      queries,
      row.id,
      span,
      reader,
      path,
      header,
      row.size,
      answer.shape.entries,
      answer.shape.branches,
      answer.info.name,
      last?.id ?? null,
    );
  } catch (error) {
    reader.close();
    throw error;
  }
}

/** Where the file's first entry starts (the header ends before it). */
function firstOffset(queries: RowQueries, fileId: number, span: Span): number {
  return (queries.pathTo(fileId, span.first, 1)[0] as QueryRow).offset;
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
