import type { LineMap } from "../format/line-map.js";
import type { SessionEntry, SessionHeader } from "../schema/types.js";
import type { LoadDiagnostic } from "../state/diagnostics.js";
import type { EntryColumns } from "../state/entry-log.js";

/**
 * Where a `SessionManager` keeps its sessions: the manager folds every change at once and answers
 * from memory; a store only persists. Core ships memory and JSONL files; an asynchronous one (a
 * database) queues appends in its sink and resolves `flush()` when durable.
 */
export interface SessionStore {
  /** Whether sessions outlive the process (pi's `isPersisted()`). */
  readonly persisted: boolean;
  /** The folder (or namespace) of the sessions; `""` in memory. */
  readonly dir: string;
  /** Where a new session with this header will live (a file path), or undefined. */
  locationOf(header: SessionHeader): string | undefined;
  /**
   * Starts a session, written at its first user or assistant message (`"conversation"`: new or
   * branched, SPEC §6.2) or at once (`"now"`: a fork). A failed write throws, changing nothing.
   */
  create(
    header: SessionHeader,
    entries: readonly SessionEntry[],
    when: "conversation" | "now",
  ): SessionSink;
  /**
   * Optional: starts a session written at once from its lines (the header's, then each entry's
   * JSON text without `\n`), for stores of text: a fork of a large session copies its lines
   * without decoding them. Without it the manager decodes them for {@link SessionStore.create}.
   */
  createFromLines?(header: SessionHeader, lines: readonly string[]): SessionSink;
  /** Opens `location` for writing (missing: new, with `freshHeader`); throws `InvalidSessionError`. */
  open(location: string, freshHeader: () => SessionHeader): OpenedSession;
  /** Reads the session at `location` without opening it for writing (a fork source). */
  read(location: string): StoredSession;
}

/** A session as a store gives it back: what to replay, and what the load found. */
export interface StoredSession {
  readonly header: SessionHeader | null;
  /** Entries in file order; handed over to the caller (the log's store). */
  readonly entries: SessionEntry[];
  /**
   * The entries as columns instead (a large file's load: tree fields, bodies decoded when read),
   * handed over; when given, `entries` is empty.
   */
  readonly columns?: EntryColumns;
  readonly diagnostics: LoadDiagnostic[];
  /** File line of each entry, when the session came from text. */
  readonly entryLines?: LineMap;
}

/** A session opened for writing: its content and its sink. */
export interface OpenedSession extends StoredSession {
  readonly sink: SessionSink;
}

/**
 * One session's persistence, as the manager drives it; every call is synchronous, like pi's
 * API. A synchronous store writes before `append` returns and throws on failure (the manager
 * undoes the fold); an asynchronous one queues, and a failed write sets `failure`.
 */
export interface SessionSink {
  /** Where the session lives (its file), or undefined in memory. */
  readonly location: string | undefined;
  /** Whether the session has been written at all (a pending new session has not). */
  readonly written: boolean;
  /** The first failure of a queued write, if one failed. */
  readonly failure: Error | undefined;
  /** Persists one appended entry; `session()` is the whole session, for a first write. */
  append(entry: SessionEntry, session: () => StoredSessionContent): void;
  /**
   * Optional: persists one appended entry given as its JSON text (`entry()` gives the same value
   * as an entry, decoded when read), for stores that write text: the manager serialises each
   * entry once and calls this instead of {@link SessionSink.append} when a sink has it.
   */
  appendLine?(line: string, entry: () => SessionEntry, session: () => StoredSessionContent): void;
  /**
   * Whether someone else of this process appended since this sink last read or wrote; the
   * manager then reloads before writing (W7 allows taking in a foreign writer's complete
   * lines, never a silent fork).
   */
  changedElsewhere(): boolean;
  /** Resolves once every accepted append is durable; rejects with the first failure. */
  flush(): Promise<void>;
  /** Lets other managers and processes write the session; the sink stays usable. */
  release(): void;
  /** Ends the sink for good (the manager switched to another session). */
  close(): void;
}

/** A session's header and entries, for a whole-session write. */
export interface StoredSessionContent {
  readonly header: SessionHeader;
  readonly entries: readonly SessionEntry[];
}

/** Thrown by every write of a manager whose store failed to persist an earlier append. */
export class SessionStoreFailedError extends Error {
  constructor(readonly failure: Error) {
    super(`The session store failed to persist an earlier entry: ${failure.message}`);
    this.name = "SessionStoreFailedError";
  }
}
