import { join } from "node:path";
import { type SessionEnv, systemEnv } from "../env/env.js";
import { InvalidSessionError } from "../format/load-text.js";
import type { SessionEntry, SessionHeader } from "../schema/types.js";
import { writeFileAtomic } from "./atomic-write.js";
import { listSessions, listSessionsInDir } from "./listing.js";
import { sessionFileName } from "./paths.js";
import { readSessionColumns, readSessionFile, type SessionFileRead } from "./read-session.js";
import type {
  OpenedSession,
  SessionSink,
  SessionStore,
  StoredSession,
  StoredSessionContent,
} from "./session-store.js";
import { type Durability, SessionFileWriter, type SessionWriterOptions } from "./session-writer.js";
import { isConversationEntry, sessionLines } from "./store-helpers.js";
import type { ColumnsFor } from "./vouched-columns.js";

/** One JSONL file's sink: created whole at the first conversation entry (§6.2), then by line. */
class FileSink implements SessionSink {
  readonly failure = undefined;

  constructor(
    readonly location: string,
    private writer: SessionFileWriter | undefined,
    private readonly options: SessionWriterOptions,
  ) {}

  get written(): boolean {
    return this.writer !== undefined;
  }

  append(entry: SessionEntry, session: () => StoredSessionContent): void {
    this.appendLine(JSON.stringify(entry), () => entry, session);
  }

  appendLine(line: string, entry: () => SessionEntry, session: () => StoredSessionContent): void {
    if (this.writer) this.writer.appendRecord(line);
    else if (isConversationEntry(entry())) {
      const { header, entries } = session();
      const lines = sessionLines(header, entries);
      this.writer = SessionFileWriter.createNew(this.location, lines, this.options);
    }
  }

  changedElsewhere(): boolean {
    return this.writer?.grownByThisProcess() ?? false;
  }

  flush = (): Promise<void> => Promise.resolve();

  release(): void {
    this.writer?.release();
  }

  close(): void {
    this.writer?.close();
    this.writer = undefined;
  }
}

/** Options of {@link fileStore}. */
export interface FileStoreOptions {
  /** When appends reach the disk (W9; default `"never"`, like pi). */
  readonly durability?: Durability;
  /** Clock and ids for migrating legacy files (default: the system's). */
  readonly env?: SessionEnv;
  /** Vouches for a big file's columns so its open need not read it (vouched-columns.ts). */
  readonly columnsFor?: ColumnsFor;
}

/**
 * The JSONL file store of one (existing) session directory: files named after their header (SPEC
 * §6.1); a load writes only a fresh header into a 0-byte file or the atomic rewrite of a migrated
 * one (W3: atomic; W4: unparseable lines kept; W13: nothing else a read writes); one {@link
 * SessionFileWriter} per open session.
 */
export function fileStore(dir: string, options: FileStoreOptions = {}): SessionStore {
  const writing: SessionWriterOptions = { durability: options.durability ?? "never" };
  const env = options.env ?? systemEnv;
  const locationOf = (header: SessionHeader) =>
    join(dir, sessionFileName(header.timestamp, header.id));
  return {
    persisted: true,
    dir,
    locationOf,
    create(header, entries, when) {
      const path = locationOf(header);
      const writeNow = when === "now" || entries.some(isConversationEntry);
      const lines = writeNow ? sessionLines(header, entries) : undefined;
      const writer = lines && SessionFileWriter.createNew(path, lines, writing);
      return new FileSink(path, writer, writing);
    },
    createFromLines(header, lines) {
      const path = locationOf(header);
      const all = lines.map((line) => `${line}\n`);
      return new FileSink(path, SessionFileWriter.createNew(path, all, writing), writing);
    },
    open(path, freshHeader): OpenedSession {
      const read = readSessionColumns(path, env, path, options.columnsFor);
      const attach = (size: number, endsWithNewline: boolean) =>
        SessionFileWriter.attach(path, { size, endsWithNewline }, writing);
      const sink = (writer?: SessionFileWriter) => new FileSink(path, writer, writing);
      if (read.kind === "missing") {
        return { header: freshHeader(), entries: [], diagnostics: [], sink: sink() };
      }
      if (read.kind === "empty") {
        const header = freshHeader();
        const lines = sessionLines(header, []);
        writeFileAtomic(path, lines);
        const writer = attach(Buffer.byteLength(lines[0] as string), true);
        return { header, entries: [], diagnostics: [], sink: sink(writer) };
      }
      if (read.kind === "columns") {
        const { columns, source } = read;
        const { header, diagnostics, entryLines, ids, parents, types, roles, slots } = columns;
        const writer = attach(columns.size, !columns.needsNewline);
        return {
          header,
          entries: [],
          columns: { ids, parents, types, roles, slots, source },
          diagnostics,
          entryLines,
          sink: sink(writer),
        };
      }
      const writer = attach(read.size, !read.loaded.needsNewline);
      if (read.loaded.rewrite) writer.rewrite(read.loaded.rewrite);
      return { ...read.loaded, sink: sink(writer) };
    },
    // A folder given to the store is a custom one: a header without a cwd matches no cwd.
    list: (cwd) => listSessions(dir, { filterCwd: cwd, emptyCwdMatches: false }),
    listAll: () => listSessionsInDir(dir),
    read(path): StoredSession {
      let read: SessionFileRead | undefined;
      try {
        read = readSessionFile(path, env);
      } catch (error) {
        if (!(error instanceof InvalidSessionError)) throw error;
      }
      // The reference's message for a missing, empty or invalid fork source (§5.5).
      if (read?.kind !== "loaded") {
        throw new Error(`Cannot fork: source session file is empty or invalid: ${path}`);
      }
      return read.loaded;
    },
  };
}
