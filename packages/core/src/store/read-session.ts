import { readSync } from "node:fs";
import { type SessionEnv, systemEnv } from "../env/env.js";
import { ColumnLoader, LegacyFileError, type LoadedColumns } from "../format/column-load.js";
import { InvalidSessionError, type LoadedText, SessionLoader } from "../format/load-text.js";
import { describeNotASession } from "../format/record-rules.js";
import type { SessionEntry, SessionHeader } from "../schema/types.js";
import { type LoadDiagnostic, structuralDiagnostics } from "../state/diagnostics.js";
import { logFromEntries } from "../state/entry-log.js";
import { FileLines } from "./file-lines.js";
import { readText, withFile } from "./read-chunks.js";
import { errorCode } from "./store-fs.js";
import { type ColumnsFor, vouchedColumns } from "./vouched-columns.js";

/**
 * What is on disk at a session path (SPEC §6.5 steps 1–3): no file, a 0-byte file (the load
 * writes a fresh header into it), or a session, parsed and migrated in memory if older than
 * v3, with the bytes read (where the next append goes).
 */
export type SessionFileRead =
  | { readonly kind: "missing" }
  | { readonly kind: "empty" }
  | { readonly kind: "loaded"; readonly loaded: LoadedText; readonly size: number };

const CHUNK_BYTES = 4 * 1024 * 1024;

/** Options of the read-only readers ({@link readSession}, {@link readSessionFile}). */
export interface ReadSessionOptions {
  /**
   * Lines longer than this many bytes are not read: each becomes a `line-too-long` diagnostic
   * with its size, so one huge line costs a reader at most about this much text (default: no
   * bound, as a writing load must keep every line). Only for loads that never write back.
   */
  readonly maxLineBytes?: number;
}

/**
 * Reads a session file without writing anything (W13), in one pass (see {@link SessionLoader}).
 * Throws `InvalidSessionError` when the file is not a session, `NotRegularFileError` (unopened)
 * when it is a FIFO, socket, device or directory, and fs errors but a missing file.
 */
export function readSessionFile(
  path: string,
  env: SessionEnv,
  label = path,
  options: ReadSessionOptions = {},
): SessionFileRead {
  try {
    return readExisting(path, env, label, options);
  } catch (error) {
    if (errorCode(error) === "ENOENT") return { kind: "missing" };
    throw error;
  }
}

/** {@link readSessionFile} of a file that must exist (else the fs error, `ENOENT`). */
function readExisting(
  path: string,
  env: SessionEnv,
  label: string,
  options: ReadSessionOptions,
): SessionFileRead {
  return withFile(path, (fd, stats): SessionFileRead => {
    const size = stats.size;
    if (size === 0) return { kind: "empty" };
    const loader = new SessionLoader(env, label);
    const buffer = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, size));
    const maxBytes = options.maxLineBytes;
    const long =
      maxBytes === undefined
        ? undefined
        : {
            maxBytes,
            onLongLine: (bytes: number, newline: boolean) =>
              loader.skipLine(bytes, maxBytes, newline),
          };
    const read = readText(
      fd,
      buffer,
      (text) => {
        loader.push(text);
        return true;
      },
      Number.POSITIVE_INFINITY,
      long,
    );
    return { kind: "loaded", loaded: loader.finish(), size: read.bytes };
  });
}

/** What is on disk at a session path, a current file loaded as columns (its bodies left there). */
export type SessionFileColumns =
  | Exclude<SessionFileRead, { kind: "loaded" }>
  | { readonly kind: "loaded"; readonly loaded: LoadedText; readonly size: number }
  | {
      readonly kind: "columns";
      readonly columns: LoadedColumns;
      /** Reads the bodies back from the file, by line span. */
      readonly source: FileLines;
    };

/** The environment variable that sets {@link columnsFromBytes} (a whole number of bytes). */
export const COLUMNS_FROM_BYTES_ENV = "PI_SESSIONS_COLUMNS_FROM_BYTES";

/** Files at least this big load as columns by default (8 MiB: smaller ones load in milliseconds). */
export const DEFAULT_COLUMNS_FROM_BYTES = 8 * 1024 * 1024;

/** The size from which a session file loads as columns ({@link COLUMNS_FROM_BYTES_ENV}, else 8 MiB). */
export function columnsFromBytes(env: NodeJS.ProcessEnv = process.env): number {
  const value = Number(env[COLUMNS_FROM_BYTES_ENV]);
  return env[COLUMNS_FROM_BYTES_ENV] !== undefined && Number.isSafeInteger(value) && value >= 0
    ? value
    : DEFAULT_COLUMNS_FROM_BYTES;
}

/**
 * Reads a session file for writing: a current (v3+) one of at least {@link columnsFromBytes}
 * as columns, its entries decoded only when read (column-load.ts, file-lines.ts); a smaller or legacy one whole, as text ({@link readSessionFile}). The
 * result is the same session either way. Writes nothing (W13). `columnsFor` (the session
 * index, through pi's launcher) may vouch for a big file's columns, which are then taken
 * without reading the whole file (vouched-columns.ts); when it vouches for nothing, the file
 * is read and checked as without it.
 */
export function readSessionColumns(
  path: string,
  env: SessionEnv,
  label = path,
  columnsFor?: ColumnsFor,
): SessionFileColumns {
  try {
    // withFile refuses a FIFO, socket, device or directory before reading (as readSessionFile).
    return withFile(path, (fd, stats): SessionFileColumns => {
      const size = stats.size;
      if (size === 0) return { kind: "empty" };
      if (size < columnsFromBytes()) return readSessionFile(path, env, label);
      const vouched = columnsFor && vouchedColumns(columnsFor, path, fd, stats);
      if (vouched) return { kind: "columns", ...vouched };
      const loader = new ColumnLoader(label);
      const buffer = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, size));
      for (let position = 0; ; ) {
        const n = readSync(fd, buffer, 0, buffer.length, position);
        if (n === 0) break;
        loader.push(buffer, n);
        position += n;
      }
      const columns = loader.finish();
      const source = new FileLines(path, columns.size, columns.offsets, columns.lengths);
      return { kind: "columns", columns, source };
    });
  } catch (error) {
    if (error instanceof LegacyFileError) return readSessionFile(path, env, label);
    if (errorCode(error) === "ENOENT") return { kind: "missing" };
    throw error;
  }
}

/** A session file as {@link readSession} found it; nothing was written. */
export interface SessionOnDisk {
  readonly path: string;
  /** The header (migrated in memory when the file is older than v3). */
  readonly header: SessionHeader;
  /** Entries with a string id, in file order (migrated in memory when the file is legacy). */
  readonly entries: readonly SessionEntry[];
  /** Every problem (record rules, migration notes, then structure), with its line if known. */
  readonly diagnostics: readonly LoadDiagnostic[];
  /** The header's version as the file declares it (absent means 1). */
  readonly version: number;
  /** Whether the file is older than v3: its entries were migrated in memory only. */
  readonly needsMigration: boolean;
  /** The header's 1-based line (damaged lines may precede it). */
  readonly headerLine: number;
  /** Whether the file does not end with a newline (a torn or unterminated last line). */
  readonly needsNewline: boolean;
  readonly size: number;
}

/**
 * Opens a session file read-only (W13): unlike `SessionManager.open`, it neither rewrites a
 * legacy file nor initialises an empty one. A legacy file's entries get ids from `env` (seed
 * it for the same ids on every run). Throws `InvalidSessionError` when the file is empty
 * (`kind: "empty"`) or not a session, `NotRegularFileError` when it is not a regular file, and
 * the fs error (`ENOENT` if missing) otherwise. `options.maxLineBytes` bounds what one line
 * may cost (see {@link ReadSessionOptions}).
 */
export function readSession(
  path: string,
  env: SessionEnv = systemEnv,
  options: ReadSessionOptions = {},
): SessionOnDisk {
  const read = readExisting(path, env, path, options);
  if (read.kind !== "loaded") {
    const reason = describeNotASession({ kind: "empty" });
    throw new InvalidSessionError(`Session file is empty: ${path}`, reason, "empty");
  }
  const { loaded } = read;
  const header = loaded.header as SessionHeader;
  const lines = loaded.entryLines;
  return {
    path,
    header,
    entries: loaded.entries,
    diagnostics: [
      ...loaded.diagnostics,
      ...structuralDiagnostics(logFromEntries(loaded.entries.slice()), (p) => lines?.lineOf(p)),
    ],
    version: loaded.version,
    needsMigration: loaded.migrated,
    headerLine: loaded.headerLine,
    needsNewline: loaded.needsNewline,
    size: read.size,
  };
}
