import { join } from "node:path";
import { type SessionEnv, systemEnv } from "../env/env.js";
import { InvalidSessionError } from "../format/load-text.js";
import type { SessionEntry, SessionHeader } from "../schema/types.js";
import { writeFileAtomic } from "./atomic-write.js";
import { sessionFileName } from "./paths.js";
import { readSessionFile, type SessionFileRead } from "./read-session.js";
import { isConversationEntry, sessionLines } from "./session-files.js";
import type {
  OpenedSession,
  SessionSink,
  SessionStore,
  StoredSession,
  StoredSessionContent,
} from "./session-store.js";
import { type Durability, SessionFileWriter } from "./session-writer.js";

/**
 * The sink of one JSONL session file. Pending (no writer) until the session first holds a
 * user or assistant message, which writes the header and every entry so far with exclusive
 * create (SPEC §6.2); then one line per append through the writer, which holds the lock,
 * checks the tail and undoes a failed write (W1, W2, W7, W8). Synchronous: a failed write
 * throws, so `failure` stays unset.
 */
class FileSink implements SessionSink {
  readonly failure = undefined;

  constructor(
    readonly location: string,
    private writer: SessionFileWriter | undefined,
    private readonly durability: Durability,
  ) {}

  get written(): boolean {
    return this.writer !== undefined;
  }

  append(entry: SessionEntry, session: () => StoredSessionContent): void {
    if (this.writer) this.writer.appendRecord(JSON.stringify(entry));
    else if (isConversationEntry(entry)) {
      const { header, entries } = session();
      this.writer = createFile(this.location, header, entries, this.durability);
    }
  }

  changedElsewhere(): boolean {
    return this.writer?.grownByThisProcess() ?? false;
  }

  flush(): Promise<void> {
    return Promise.resolve();
  }

  release(): void {
    this.writer?.release();
  }

  close(): void {
    this.writer?.close();
    this.writer = undefined;
  }
}

/** Writes a whole new session file atomically with exclusive create; returns its writer. */
function createFile(
  path: string,
  header: SessionHeader,
  entries: readonly SessionEntry[],
  durability: Durability,
): SessionFileWriter {
  return SessionFileWriter.createNew(path, sessionLines(header, entries), { durability });
}

/** The replay part of a load (a `LoadedText` carries more). */
function stored({ header, entries, diagnostics, entryLines }: StoredSession): StoredSession {
  return { header, entries, diagnostics, entryLines };
}

/** Options of {@link fileStore}. */
export interface FileStoreOptions {
  /** When appends reach the disk (W9; default `"never"`, like pi). */
  readonly durability?: Durability;
  /** Clock and ids for migrating legacy files (default: the system's). */
  readonly env?: SessionEnv;
}

/**
 * The JSONL file store of one session directory: files named after their header (SPEC
 * §6.1), read without writing (W13) except what a load must write — a fresh header into a
 * 0-byte file, the atomic rewrite of a migrated one (W3, W4) — and written through one
 * {@link SessionFileWriter} per open session. The directory must exist.
 */
export function fileStore(dir: string, options: FileStoreOptions = {}): SessionStore {
  const durability = options.durability ?? "never";
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
      const writer = writeNow ? createFile(path, header, entries, durability) : undefined;
      return new FileSink(path, writer, durability);
    },
    open(path, freshHeader): OpenedSession {
      const read = readSessionFile(path, env);
      const attach = (size: number, endsWithNewline: boolean) =>
        SessionFileWriter.attach(path, { size, endsWithNewline }, { durability });
      const sink = (writer?: SessionFileWriter) => new FileSink(path, writer, durability);
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
      const writer = attach(read.size, !read.loaded.needsNewline);
      if (read.loaded.rewrite) writer.rewrite(read.loaded.rewrite);
      return { ...stored(read.loaded), sink: sink(writer) };
    },
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
      return stored(read.loaded);
    },
  };
}
