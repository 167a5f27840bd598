import { randomBytes } from "node:crypto";
import { constants } from "node:fs";
import { basename, dirname, join } from "node:path";
import { FILE_MODE } from "./paths.js";
import {
  CREATE_EXCLUSIVE,
  errorCode,
  nodeStoreFs,
  quietly,
  type StoreFs,
  writeAll,
} from "./store-fs.js";

/** Options of {@link writeFileAtomic}. */
export interface AtomicWriteOptions {
  /** Mode of the new file (default 0600, SPEC §1.5); the process umask still applies. */
  mode?: number;
  /** Fail with EEXIST if the target exists (a session's first write, a fork: SPEC §6.2, §6.4). */
  exclusive?: boolean;
  /**
   * Give the new file these exact attributes before it takes the name (a rewrite that must
   * not change who may read the file): the mode bits (`mode` and the umask are then ignored),
   * the owner and the group. A process that may not give the file away (`EPERM`) fails before
   * the commit, so the target is left as it was.
   */
  like?: { readonly mode: number; readonly uid: number; readonly gid: number };
  /** File-system calls (test seam; default `node:fs`). */
  fs?: StoreFs;
}

/** Text chunks are encoded and written in batches of about this many UTF-16 units. */
const CHUNK_UNITS = 64 * 1024;

/** Errors from `link` that mean the file system has no hard links. */
const LINK_UNSUPPORTED = new Set(["EPERM", "ENOTSUP", "EOPNOTSUPP", "ENOSYS", "EXDEV"]);

/**
 * The temp name for `path`: `.<base, ≤64 bytes>.<8 hex>.tmp` in the same directory, so the
 * rename stays on one file system, discovery (which looks for `.jsonl`) ignores it, and it fits
 * in 255 bytes, cut between characters so it stays valid UTF-8 (W18).
 */
export function tempPathFor(path: string): string {
  let base = "";
  let bytes = 0;
  for (const ch of basename(path)) {
    bytes += Buffer.byteLength(ch);
    if (bytes > 64) break;
    base += ch;
  }
  return join(dirname(path), `.${base}.${randomBytes(4).toString("hex")}.tmp`);
}

/** UTF-8 text, text in chunks (a JSONL line each), or bytes (so invalid UTF-8 survives). */
export type AtomicContent = string | readonly string[] | Uint8Array;

/** Writes `content` to `fd`, chunks in batches: few syscalls, one batch of bytes held at once. */
function writeContent(fsApi: StoreFs, fd: number, content: AtomicContent) {
  if (content instanceof Uint8Array) return writeAll(fsApi, fd, content);
  if (typeof content === "string") return writeAll(fsApi, fd, Buffer.from(content, "utf8"));
  let batch: string[] = [];
  let units = 0;
  const flush = (): void => {
    if (batch.length > 0) writeAll(fsApi, fd, Buffer.from(batch.join(""), "utf8"));
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

/** fsyncs the directory so a rename or link inside it survives power loss. */
function fsyncDir(fsApi: StoreFs, dir: string): void {
  const fd = fsApi.openSync(dir, constants.O_RDONLY);
  try {
    fsApi.fsyncSync(fd);
  } finally {
    quietly(() => fsApi.closeSync(fd));
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
    const placeholder = fsApi.openSync(path, CREATE_EXCLUSIVE, mode);
    quietly(() => fsApi.closeSync(placeholder));
    try {
      fsApi.renameSync(temp, path);
    } catch (renameError) {
      quietly(() => fsApi.unlinkSync(path)); // our own empty placeholder: leave nothing behind
      throw renameError;
    }
    return;
  }
  // The target is complete and linked; a leftover temp is harmless, so this cannot fail the write.
  quietly(() => fsApi.unlinkSync(temp));
}

/**
 * Replaces (or, with `exclusive`, creates) `path` atomically (W3): a temp file in the same
 * directory, fsynced, renamed (or linked) into place, then the directory fsynced. Readers see
 * the old content or the new; on a failure before the commit the target is untouched.
 */
export function writeFileAtomic(
  path: string,
  content: AtomicContent,
  options: AtomicWriteOptions = {},
): void {
  const fsApi = options.fs ?? nodeStoreFs;
  const mode = options.mode ?? FILE_MODE;
  const temp = tempPathFor(path);
  const fd = fsApi.openSync(temp, CREATE_EXCLUSIVE, mode);
  let committed = false;
  try {
    try {
      const like = options.like;
      if (like !== undefined) {
        fsApi.fchownSync(fd, like.uid, like.gid);
        // After the chown, which may clear set-id bits: the mode comes out exactly as asked.
        fsApi.fchmodSync(fd, like.mode & 0o7777);
      }
      writeContent(fsApi, fd, content);
      fsApi.fsyncSync(fd);
    } finally {
      quietly(() => fsApi.closeSync(fd));
    }
    if (options.exclusive) commitExclusive(fsApi, temp, path, mode);
    else fsApi.renameSync(temp, path);
    committed = true;
  } finally {
    if (!committed) quietly(() => fsApi.unlinkSync(temp));
  }
  try {
    fsyncDir(fsApi, dirname(path));
  } catch {
    // Not supported here (EINVAL, EISDIR, …) or failed: the fsynced content is in place, only the
    // entry's durability is uncertain. Failing would tell the caller "not written" about a file
    // that exists: a first write would roll back, and every later one hit EEXIST.
  }
}
