import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import { basename, dirname, join } from "node:path";
import { FILE_MODE } from "./paths.js";
import { closeQuietly, errorCode, nodeStoreFs, type StoreFs, writeAll } from "./store-fs.js";

/** Options of {@link writeFileAtomic}. */
export interface AtomicWriteOptions {
  /** Mode of the new file (default 0600, SPEC §1.5); the process umask still applies. */
  mode?: number;
  /**
   * Fail with EEXIST if the target exists (first write of a session, fork: SPEC §6.2, §6.4).
   * The complete temp file is hard-linked into place, so the target never exists half-written.
   */
  exclusive?: boolean;
  /** File-system calls (test seam; default `node:fs`). */
  fs?: StoreFs;
}

/** Longest part of the target's base name kept in a temp name; keeps it far below 255 bytes. */
const TEMP_BASE_BYTES = 64;

/** Strings are encoded and written in batches of about this many UTF-16 units. */
const CHUNK_UNITS = 64 * 1024;

/**
 * Errors from `fsync` on a directory that mean "not supported here" (some file systems and
 * platforms), not "data lost"; the rename is already visible, so these are not failures.
 */
const DIR_FSYNC_UNSUPPORTED = new Set(["EINVAL", "ENOTSUP", "EISDIR", "EPERM", "EBADF"]);

/** Errors from `link` that mean the file system has no hard links. */
const LINK_UNSUPPORTED = new Set(["EPERM", "ENOTSUP", "EOPNOTSUPP", "ENOSYS", "EXDEV"]);

/**
 * Cuts `text` to at most `maxBytes` UTF-8 bytes without splitting a character, so the derived
 * name stays valid UTF-8 however long or non-ASCII the session id is (W18).
 */
function truncateUtf8(text: string, maxBytes: number): string {
  let bytes = 0;
  let end = 0;
  for (const ch of text) {
    const size = Buffer.byteLength(ch);
    if (bytes + size > maxBytes) break;
    bytes += size;
    end += ch.length;
  }
  return text.slice(0, end);
}

/**
 * The temp name for `path`: `.<base, ≤64 bytes>.<8 hex>.tmp` in the same directory, so the
 * rename stays on one file system, discovery (which looks for `.jsonl`) ignores it, and it fits
 * in 255 bytes whatever the target's name length.
 */
export function tempPathFor(path: string): string {
  const base = truncateUtf8(basename(path), TEMP_BASE_BYTES);
  return join(dirname(path), `.${base}.${randomBytes(4).toString("hex")}.tmp`);
}

/**
 * What {@link writeFileAtomic} writes: text (encoded as UTF-8), text in chunks (one JSONL line
 * each, typically), or raw bytes written exactly as they are — for content that must survive
 * byte for byte, such as a damaged line that is not valid UTF-8.
 */
export type AtomicContent = string | readonly string[] | Uint8Array;

/** Writes `content` to `fd` without joining an array into one string. */
function writeContent(fsApi: StoreFs, fd: number, content: AtomicContent): void {
  // Checked first: bytes are written untouched (a Buffer is a Uint8Array too).
  if (content instanceof Uint8Array) {
    writeAll(fsApi, fd, content);
    return;
  }
  if (typeof content === "string") {
    writeAll(fsApi, fd, Buffer.from(content, "utf8"));
    return;
  }
  // Batch small chunks (one JSONL line each, typically) to keep the syscall count low while
  // never holding more than ~one batch of encoded bytes at a time.
  let batch: string[] = [];
  let units = 0;
  const flush = (): void => {
    if (batch.length === 0) return;
    writeAll(
      fsApi,
      fd,
      Buffer.from(batch.length === 1 ? (batch[0] ?? "") : batch.join(""), "utf8"),
    );
    batch = [];
    units = 0;
  };
  for (const chunk of content) {
    if (units + chunk.length > CHUNK_UNITS) flush();
    batch.push(chunk);
    units += chunk.length;
  }
  flush();
}

/**
 * fsyncs the directory so a rename or link inside it survives power loss. Platforms and file
 * systems that cannot fsync a directory are skipped; other errors propagate.
 */
export function fsyncDir(fsApi: StoreFs, dir: string): void {
  let fd: number;
  try {
    fd = fsApi.openSync(dir, constants.O_RDONLY);
  } catch (error) {
    if (DIR_FSYNC_UNSUPPORTED.has(errorCode(error) ?? "")) return;
    throw error;
  }
  try {
    fsApi.fsyncSync(fd);
  } catch (error) {
    if (!DIR_FSYNC_UNSUPPORTED.has(errorCode(error) ?? "")) throw error;
  } finally {
    closeQuietly(fsApi, fd);
  }
}

/** Removes `path`, ignoring errors: cleanup on a path that is already failing. */
function unlinkQuietly(fsApi: StoreFs, path: string): void {
  try {
    fsApi.unlinkSync(path);
  } catch {
    // Nothing more to do: the temp name cannot be mistaken for a session (not `.jsonl`).
  }
}

/**
 * Puts the complete temp file at `path` only if nothing is there: `link` fails with EEXIST
 * instead of replacing. Without hard links, an O_EXCL placeholder claims the name first and the
 * temp is renamed over it; a crash between the two leaves a 0-byte file, which `open` treats
 * as a new session (SPEC §6.5), never a half-written one.
 */
function commitExclusive(fsApi: StoreFs, temp: string, path: string, mode: number): void {
  try {
    fsApi.linkSync(temp, path);
  } catch (error) {
    if (!LINK_UNSUPPORTED.has(errorCode(error) ?? "")) throw error;
    const fd = fsApi.openSync(
      path,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL,
      mode,
    );
    closeQuietly(fsApi, fd);
    try {
      fsApi.renameSync(temp, path);
    } catch (renameError) {
      unlinkQuietly(fsApi, path); // our own empty placeholder: leave nothing behind
      throw renameError;
    }
    return;
  }
  // The target is complete and linked; a leftover temp is harmless, so this cannot fail the write.
  unlinkQuietly(fsApi, temp);
}

/**
 * Replaces (or, with `exclusive`, creates) `path` atomically (W3): writes a temp file in the same
 * directory, fsyncs it, renames (or links) it into place and fsyncs the directory. Readers see
 * the old content or the new, never a mix. On any failure before the commit the temp file is
 * removed, the target is untouched and the error is rethrown. `content` is text (written as
 * UTF-8), text chunks, or bytes (a `Buffer`/`Uint8Array`, written exactly as given).
 */
export function writeFileAtomic(
  path: string,
  content: AtomicContent,
  options: AtomicWriteOptions = {},
): void {
  const fsApi = options.fs ?? nodeStoreFs;
  const mode = options.mode ?? FILE_MODE;
  const temp = tempPathFor(path);
  const fd = fsApi.openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, mode);
  let committed = false;
  try {
    try {
      writeContent(fsApi, fd, content);
      fsApi.fsyncSync(fd);
    } finally {
      closeQuietly(fsApi, fd);
    }
    if (options.exclusive) commitExclusive(fsApi, temp, path, mode);
    else fsApi.renameSync(temp, path);
    committed = true;
  } finally {
    if (!committed) unlinkQuietly(fsApi, temp);
  }
  try {
    fsyncDir(fsApi, dirname(path));
  } catch {
    // The new content is in place and the file data is fsynced; only the directory entry's
    // durability is uncertain. Failing here would tell the caller "not written" about a file
    // that exists — a first write would then roll back and every later one hit EEXIST.
  }
}
