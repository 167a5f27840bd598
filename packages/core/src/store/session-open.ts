import type { SessionEnv } from "../env/env.js";
import type { LoadDiagnostic } from "../manager/diagnostics.js";
import type { LineMap } from "../manager/line-map.js";
import { InvalidSessionError } from "../manager/load-text.js";
import type { SessionEntry, SessionHeader } from "../schema/types.js";
import { writeFileAtomic } from "./atomic-write.js";
import { readSessionFile } from "./read-session.js";
import { sessionLines } from "./session-files.js";
import { type Durability, SessionFileWriter } from "./session-writer.js";

/** A session file opened for use: what to replay, and the writer if the file exists. */
export interface OpenedSession {
  readonly header: SessionHeader | null;
  readonly entries: SessionEntry[];
  readonly diagnostics: LoadDiagnostic[];
  /** File line of each entry, for diagnostics. */
  readonly entryLines?: LineMap;
  /** The file's writer; undefined when the file does not exist yet (pending). */
  readonly writer: SessionFileWriter | undefined;
}

/**
 * Opens a session path by SPEC §6.5: a missing file gives a pending session with a fresh
 * header (nothing written); a 0-byte file gets a fresh header written at once (atomically);
 * a session file is replayed, and rewritten atomically if it needed migration (W3, W4).
 * Reading never writes otherwise: a missing final newline is repaired at the next append
 * (W13). Throws `InvalidSessionError` for a file that is not a session, leaving it unchanged.
 */
export function openSessionFile(
  path: string,
  env: SessionEnv,
  freshHeader: () => SessionHeader,
  durability: Durability,
): OpenedSession {
  const read = readSessionFile(path, env, path);
  switch (read.kind) {
    case "missing":
      return { header: freshHeader(), entries: [], diagnostics: [], writer: undefined };
    case "empty": {
      const header = freshHeader();
      const lines = sessionLines(header, []);
      writeFileAtomic(path, lines);
      const size = Buffer.byteLength(lines[0] as string);
      const writer = SessionFileWriter.attach(
        path,
        { size, endsWithNewline: true },
        { durability },
      );
      return { header, entries: [], diagnostics: [], writer };
    }
    case "loaded": {
      const { loaded } = read;
      const writer = SessionFileWriter.attach(
        path,
        { size: read.size, endsWithNewline: !loaded.needsNewline },
        { durability },
      );
      if (loaded.rewrite) writer.rewrite(loaded.rewrite);
      return {
        header: loaded.header,
        entries: loaded.entries,
        diagnostics: loaded.diagnostics,
        entryLines: loaded.entryLines,
        writer,
      };
    }
  }
}

/** The reference's message when a fork source is missing, empty or not a session (§5.5). */
export function cannotFork(path: string): Error {
  return new Error(`Cannot fork: source session file is empty or invalid: ${path}`);
}

/**
 * Reads a fork source without writing to it (W13), migrated to v3 in memory (W12). Throws
 * the reference's "Cannot fork" error when it is missing, empty or not a session.
 */
export function readForkSource(path: string, env: SessionEnv): SessionEntry[] {
  let read: ReturnType<typeof readSessionFile>;
  try {
    read = readSessionFile(path, env, path);
  } catch (error) {
    if (error instanceof InvalidSessionError) throw cannotFork(path);
    throw error;
  }
  if (read.kind !== "loaded") throw cannotFork(path);
  return read.loaded.entries;
}

/**
 * Writes a whole new session file (fork, branched session) atomically with exclusive
 * create, and returns its writer.
 */
export function writeNewSession(
  path: string,
  header: SessionHeader,
  entries: readonly SessionEntry[],
  durability: Durability,
): SessionFileWriter {
  return SessionFileWriter.createNew(path, sessionLines(header, entries), { durability });
}
