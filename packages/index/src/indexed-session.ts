/**
 * What one session read through the index offers (`SessionIndex.session`): the facts a load
 * gives, and each query reading only the lines it needs (see `session-query.ts`).
 */

import type { SessionEntry, SessionHeader } from "@pi-sessions/core";
import type { TreeTop } from "./core-tree-top.js";

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
   * Every entry in file order, for core's `replayState` and `treeOf`: core's entries over the
   * rows, each read from its line when more than its tree fields is read (the label and name
   * records at once). {@link IndexedSession.entryAt} reads one with the next ones.
   */
  entries(): SessionEntry[];
  /** The record at `position` of {@link IndexedSession.entries}, read from the file. */
  entryAt(position: number): SessionEntry;
  /**
   * Core's tree down to `depth` levels and the level under them, for `tree --depth`, with
   * {@link TreeTop.below} counting what it leaves out: no stand-in for the entries deeper.
   */
  treeTop(depth: number): TreeTop;
  /** The path root → `leafId` for core's context builder (records read where they count). */
  contextPath(leafId: string | null): SessionEntry[];
  /**
   * The session as the plugins' usage sums ask one: with the usage state the index saved for
   * the file, the records on a branch's path are read only when the sums ask for that path,
   * and every usage record only when asked for the entries.
   */
  usageSession(leafId: string | null): UsageSession;
  /** Closes the file. */
  close(): void;
}

/** A session as the plugins' `computeUsageTotals` asks one. */
export interface UsageSession {
  getEntries(): SessionEntry[];
  getLeafId(): string | null;
  getBranch(fromId?: string): SessionEntry[];
  /** The plugins' usage-totals state when the index saved it for these entries. */
  getProjectionState?<S = unknown>(name: string): S | undefined;
}
