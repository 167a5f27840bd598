/**
 * `ls` rows from the index's summaries (`ListedSummary`: plain values, no `SessionInfo`): a
 * regular file's counts come from its stored shape; an irregular one needs a full load of the
 * file to count its problems as `check` does (`session-rows.ts`' `rowOfSummary`, which
 * `quick-rows.ts` loads only when such a file is listed).
 */

import type { SessionInfo } from "@pi-sessions/core";
import type { ListingSummary } from "@pi-sessions/core/internal";

/** One session as `ls` shows it; `ls --json` prints an array of these. */
export interface SessionRow {
  readonly path: string;
  readonly id: string;
  readonly cwd: string;
  readonly name?: string;
  readonly parentSessionPath?: string;
  readonly created: Date;
  readonly modified: Date;
  /** Message entries (core's `messageCount`). */
  readonly messageCount: number;
  /** The first user message, or `(no messages)`. */
  readonly firstMessage: string;
  /** Entries with an id (every type). */
  readonly entries: number;
  /** Branch tips: entries no other entry names as parent. */
  readonly branches: number;
  /** File size in bytes. */
  readonly size: number;
  /** How many problems `check` would report (0 for a healthy file). */
  readonly problems: number;
}

/** `ls`'s rows, with how many `*.jsonl` files the listing met when it counted them. */
export interface ListedRows {
  readonly rows: SessionRow[];
  readonly files: number | undefined;
}

/** A summary with its file's path, as the index lists it. */
export type PathSummary = ListingSummary & { readonly path: string };

/** The summary's info fields, as core's listing builds them (an unknown time as Invalid Date). */
export function infoOfSummary(summary: PathSummary): Omit<SessionInfo, "allMessagesText"> {
  return {
    path: summary.path,
    id: summary.id,
    cwd: summary.cwd,
    name: summary.name ?? undefined,
    parentSessionPath: summary.parentSessionPath ?? undefined,
    created: new Date(summary.created ?? Number.NaN),
    modified: new Date(summary.modified ?? Number.NaN),
    messageCount: summary.messageCount,
    firstMessage: summary.firstMessage,
  };
}

/** The row of a regular file's summary; `undefined` for an irregular file (see the module). */
export function regularRowOfSummary(summary: PathSummary): SessionRow | undefined {
  const shape = summary.shape;
  if (!shape.regular) return undefined;
  // The info's own object made the row, not the info spread into a new one: ten thousand
  // rows are held to the end.
  return Object.assign(infoOfSummary(summary), {
    entries: shape.entries,
    branches: shape.branches,
    size: shape.size,
    problems: 0,
  });
}
