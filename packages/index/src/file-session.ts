/**
 * The {@link IndexedSession} of one regular file: its rows, its saved usage state and the open
 * file, reading from the file only the lines a query needs (see `session-query.ts`).
 */

import { entryTypesWithRole, type SessionEntry, type SessionHeader } from "@pi-sessions/core";
import { USAGE_TOTALS_PROJECTION_NAME } from "@pi-sessions/plugins";
import { coreTreeTop, type TreeTop } from "./core-tree-top.js";
import type { IndexedSession, UsageSession } from "./indexed-session.js";
import { rowEntries } from "./row-entries.js";
import { type LineReader, type QueryRow, RowQueries, StaleLineError } from "./session-rows.js";
import type { Database } from "./sqlite.js";
import { treeTop } from "./tree-top.js";
import { savedUsage } from "./usage-fold.js";

/** Entry types the tree's state is folded from (labels and the name): always read for it. */
const TREE_TYPES = new Set<string>(entryTypesWithRole("tree-state"));

/** Records read with a missing one of the tree (see `FileSession.entryAt`). */
const READ_AHEAD = 256;

/**
 * The bytes of a `usage` key, and of a `\u` escape: the only way to spell a letter of a key
 * otherwise (a line with neither cannot have the key).
 */
const USAGE_KEY = Buffer.from('"usage"');
const UNICODE_ESCAPE = Buffer.from("\\u");

/** A file's first and last rowid. */
export interface Span {
  readonly first: number;
  readonly last: number;
}

/** What {@link FileSession} is opened with besides the database and the file. */
export interface FileFacts {
  readonly fileId: number;
  readonly span: Span | null;
  readonly path: string;
  readonly header: SessionHeader;
  readonly size: number;
  readonly entryCount: number;
  readonly branchTips: number;
  readonly name: string | undefined;
  readonly leafId: string | null;
}

/** {@link IndexedSession} over one file's rows and the open file. */
export class FileSession implements IndexedSession {
  private treeRows: QueryRow[] | undefined;
  private treeEntries: SessionEntry[] | undefined;
  private readonly records = new Map<number, SessionEntry>();
  private readonly queries: RowQueries;
  private readonly fileId: number;
  private readonly span: Span | null;
  readonly path: string;
  readonly header: SessionHeader;
  readonly size: number;
  readonly entryCount: number;
  readonly branchTips: number;
  readonly name: string | undefined;
  readonly leafId: string | null;

  constructor(
    private readonly db: Database,
    private readonly reader: LineReader,
    facts: FileFacts,
  ) {
    this.queries = new RowQueries(db);
    this.fileId = facts.fileId;
    this.span = facts.span;
    this.path = facts.path;
    this.header = facts.header;
    this.size = facts.size;
    this.entryCount = facts.entryCount;
    this.branchTips = facts.branchTips;
    this.name = facts.name;
    this.leafId = facts.leafId;
  }

  /** The header's `version` (a number of at least 3 in a regular file). */
  get version(): number {
    return this.header.version as number;
  }

  hasId(id: string): boolean {
    return this.queries.row(this.fileId, id) !== undefined;
  }

  idsStartingWith(prefix: string): string[] {
    return this.queries.idsStartingWith(this.fileId, prefix);
  }

  entries(): SessionEntry[] {
    if (this.treeEntries === undefined) {
      const rows = this.span === null ? [] : this.queries.rows(this.fileId, this.span);
      const ordered = rows.every((r, i) => i === 0 || (rows[i - 1] as QueryRow).line < r.line);
      if (rows.length !== this.entryCount || !ordered) {
        throw new StaleLineError(this.path, 0);
      }
      this.treeRows = rows;
      this.fill(rows.filter((r) => TREE_TYPES.has(r.type as string)));
      this.treeEntries = rowEntries(rows, this.reader, this.records);
    }
    return this.treeEntries;
  }

  /**
   * A tree shown whole asks for every record, and one read of many lines costs little more
   * than one of a single line: the next records in file order are read with a missing one.
   */
  entryAt(position: number): SessionEntry {
    return this.recordIn(this.treeRows ?? [], position);
  }

  treeTop(depth: number): TreeTop {
    const top = treeTop(
      this.db,
      this.fileId,
      this.span,
      this.entryCount,
      depth,
      this.reader,
      this.path,
    );
    const rows = top.entries.map((_, i) => top.rowAt(i));
    return coreTreeTop(this.header, top, (position) => this.recordIn(rows, position));
  }

  /** The record of `rows[position]`, read with the next ones in file order if not yet. */
  private recordIn(rows: readonly QueryRow[], position: number): SessionEntry {
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
   * The path as core's entries: the records from the last compaction on (from its first kept
   * entry when that comes earlier) read at once, in grouped reads, as core's context builder
   * reads them all; an entry before them is read only if the builder reads it (the model and
   * thinking level come from the last changes before the leaf, found walking back).
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
    this.fill(rows.slice(start));
    return rowEntries(rows, this.reader, this.records);
  }

  /**
   * With the usage state saved for these rows, the plugins' sums take the whole tree's totals
   * from it and ask only for a branch it has not cached: the path, every record on it read.
   * Without one (a sum the index could not save), every usage-carrying record is read.
   */
  usageSession(leafId: string | null): UsageSession {
    const state = savedUsage(this.db, this.fileId, this.entryCount);
    if (state === undefined) return this.usageFromRecords(leafId);
    let entries: SessionEntry[] | undefined;
    return {
      getEntries: () => {
        entries ??= this.usageFromRecords(leafId).getEntries();
        return entries;
      },
      getLeafId: () => leafId,
      getBranch: (id?: string) => {
        const rows = this.pathRows(id ?? leafId);
        this.fill(rows);
        return rows.map((r) => this.records.get(r.rowid) as SessionEntry);
      },
      getProjectionState: <S>(name: string) =>
        (name === USAGE_TOTALS_PROJECTION_NAME ? state : undefined) as S | undefined,
    };
  }

  /**
   * The records that hold usage, in file order (assistant and tool-result messages,
   * compactions, branch summaries, usage entries; a line without a `usage` key is not
   * parsed), and the path to any leaf with those records read.
   */
  private usageFromRecords(leafId: string | null): UsageSession {
    const rows = this.span === null ? [] : this.queries.usageRows(this.fileId, this.span);
    // Only a tool result may come without usage: one whose line cannot hold the key is skipped.
    const skip = (row: QueryRow, bytes: Buffer) =>
      row.role === "toolResult" && !bytes.includes(USAGE_KEY) && !bytes.includes(UNICODE_ESCAPE);
    for (const [row, record] of this.reader.records(rows, skip))
      this.records.set(row.rowid, record);
    const withUsage = rows.filter((r) => this.records.has(r.rowid));
    const entries = withUsage.map((r) => this.records.get(r.rowid) as SessionEntry);
    return {
      getEntries: () => entries,
      getLeafId: () => leafId,
      getBranch: (id?: string) =>
        rowEntries(this.pathRows(id ?? leafId), this.reader, this.records),
    };
  }

  /** Reads the records of `rows` not read yet. */
  private fill(rows: readonly QueryRow[]): void {
    const missing = rows.filter((r) => !this.records.has(r.rowid));
    if (missing.length === 0) return;
    for (const [row, record] of this.reader.records(missing)) this.records.set(row.rowid, record);
  }

  close(): void {
    this.reader.close();
  }
}
