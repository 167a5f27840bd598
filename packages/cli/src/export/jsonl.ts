/**
 * `export --format jsonl`: the branch or the tree as a new, valid pi session file. The result
 * is what pi itself would write when it splits a session off: the whole tree is a fork
 * (SPEC §10.1: every entry in file order), one branch is a branched session (SPEC §9: the
 * path with labels dropped, re-linked, and the labels on kept entries recreated). Either way
 * the header gets a fresh id and `parentSession` names the source, so the copy is a fork of
 * it and directory-wide usage totals do not count its entries twice.
 */
import {
  type FileEntry,
  type SessionEntry,
  type SessionEnv,
  type SessionHeader,
  SessionManager,
} from "@pi-sessions/core";
import { createHeader } from "@pi-sessions/core/internal";

/** What to export and where it came from. */
export interface JsonlExportInput {
  readonly header: SessionHeader | null;
  /** Every entry of the session, in file order. */
  readonly entries: readonly SessionEntry[];
  /** `branch`: the path to `leafId`; `tree`: every entry. */
  readonly scope: "branch" | "tree";
  /** The leaf the branch ends at (ignored for `tree`); null exports no entries. */
  readonly leafId: string | null;
  /** The source file, written as `parentSession`. */
  readonly source: string | undefined;
  /** Working directory for the header when the source header has none. */
  readonly fallbackCwd: string;
  /** Id and time source for the new header and recreated label ids. */
  readonly env: SessionEnv;
}

/** The records of the exported file: the new header, then the entries. */
export function jsonlExportRecords(input: JsonlExportInput): [SessionHeader, ...SessionEntry[]] {
  const cwd = typeof input.header?.cwd === "string" ? input.header.cwd : input.fallbackCwd;
  let entries: SessionEntry[];
  if (input.scope === "tree") {
    entries = input.entries.slice();
  } else if (input.leafId === null) {
    entries = [];
  } else {
    // Reuse the engine's own branched-session extraction on a private in-memory copy, so
    // the export follows exactly the rules pi uses (labels, compaction targets).
    const records: FileEntry[] = [
      createHeader({ id: "export-source", timestamp: input.env.now().toISOString(), cwd }),
      ...input.entries,
    ];
    const copy = SessionManager.inMemory(cwd, { env: input.env }, records);
    copy.createBranchedSession(input.leafId);
    entries = copy.getEntries();
  }
  const header = createHeader({
    id: input.env.uuidv7(),
    timestamp: input.env.now().toISOString(),
    cwd,
    parentSession: input.source,
  });
  return [header, ...entries];
}
