/**
 * Where `export -o FILE` and `redact -o FILE` write, decided from what is at FILE before anything is written:
 *
 * - **nothing** (a new path): a complete file appears atomically (temp file beside it, named
 *   `.<name>.<hex>.tmp` so it never ends in `.jsonl`, then linked into place: never over a file
 *   that appeared meanwhile);
 * - **a regular file** (or a symlink to one): refused if it is a pi session (its first record
 *   is a session header) or the session being exported, whatever the flags; any other
 *   existing file is replaced only with `--force`, atomically, keeping its mode, owner and
 *   group (through a symlink, the file it names is replaced and the link stays);
 * - **a descriptor of this process** (`/dev/stdout`, `/dev/stderr`, `/dev/fd/N`,
 *   `/proc/self/fd/N`, or a symlink to one): written to as it is — stdout and stderr through
 *   the program's streams, another (`-o >(cmd)` gives `/dev/fd/63`) directly — so a pipe, a
 *   socket or a redirected file gets the bytes where a shell redirect would put them;
 * - **a FIFO or a character device**: opened and written in place — never renamed over, so
 *   `-o /dev/null` leaves `/dev/null` a device;
 * - anything else (a directory, a socket, a block device, a dangling or looping symlink):
 *   refused with one line.
 */

import {
  closeSync,
  constants,
  lstatSync,
  openSync,
  readlinkSync,
  type Stats,
  statSync,
  writeSync,
} from "node:fs";
import { dirname, resolve } from "node:path";
import {
  fileTypeOf,
  fsReason,
  nodeStoreFs,
  readHeader,
  writeAll,
  writeFileAtomic,
} from "@pi-sessions/core/internal";
import { CliError, ExitCode, oneLine, usageError } from "../io/errors.js";
import { attributesOf } from "../repair/commit.js";

/** How the export reaches its target. */
export type OutputTarget =
  | { readonly kind: "new"; readonly path: string }
  | { readonly kind: "replace"; readonly path: string; readonly file: string }
  | { readonly kind: "stream"; readonly path: string; readonly what: string }
  | { readonly kind: "descriptor"; readonly path: string; readonly fd: number };

/** The descriptor a path names in this process: `/dev/stdout`, `/dev/fd/N`, `/proc/self/fd/N`. */
function ownDescriptor(path: string): number | undefined {
  const std = /^\/dev\/std(in|out|err)$/.exec(path);
  if (std !== null) return ["in", "out", "err"].indexOf(std[1] as string);
  const fd = /^\/(?:dev\/fd|proc\/(self|\d+)\/fd)\/(\d+)$/.exec(path);
  if (fd === null) return undefined;
  const owner = fd[1];
  return owner === undefined || owner === "self" || Number(owner) === process.pid
    ? Number(fd[2])
    : undefined;
}

/**
 * The descriptor of this process that `path`, or a symlink on the way from it, names: written
 * to as it is (a pipe, a socket, a file at its own offset), never opened anew or renamed over.
 */
function descriptorOf(path: string): number | undefined {
  let current = path;
  for (let hop = 0; hop < 40; hop++) {
    const fd = ownDescriptor(current);
    if (fd !== undefined) return fd;
    let link: string;
    try {
      if (!lstatSync(current).isSymbolicLink()) return undefined;
      link = readlinkSync(current);
    } catch {
      return undefined;
    }
    current = resolve(dirname(current), link);
  }
  return undefined;
}

/** What is at `path` after symlinks, or why it cannot be written to. */
function statOrRefuse(path: string): Stats | undefined {
  let link: Stats | undefined;
  try {
    link = lstatSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw usageError(`cannot write ${path}: ${fsReason(error)}`);
  }
  try {
    return statSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === "ENOENT" && link.isSymbolicLink() ? "a dangling symbolic link" : fsReason(error);
    throw usageError(`refusing to write ${path}: ${why}`);
  }
}

/**
 * A new file needs its folder: said in words before the export is rendered, rather than as
 * the ENOENT of the temp file the atomic write would open there.
 */
function refuseMissingFolder(path: string): void {
  const folder = dirname(path);
  // (A file on the way is ENOTDIR, refused before this by statOrRefuse: "not a directory".)
  try {
    statSync(folder);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === "ENOENT" ? "does not exist" : `cannot be read (${fsReason(error)})`;
    throw usageError(`cannot write ${path}: its folder ${folder} ${why}`);
  }
}

/**
 * The target for `-o path` (resolved) when exporting the session at `source`. Throws a usage
 * error (exit 2) for every refusal, with the reason and, where one helps, the flag.
 */
export function outputTargetOf(path: string, source: string, force: boolean): OutputTarget {
  const fd = descriptorOf(path);
  if (fd !== undefined) return { kind: "descriptor", path, fd };
  const stats = statOrRefuse(path);
  if (stats === undefined) {
    refuseMissingFolder(path);
    return { kind: "new", path };
  }
  if (stats.isFIFO() || stats.isCharacterDevice()) {
    return { kind: "stream", path, what: fileTypeOf(stats) };
  }
  if (!stats.isFile()) {
    throw usageError(`refusing to write ${path}: it is ${fileTypeOf(stats)}`);
  }
  const sourceStats = statSync(source);
  if (stats.dev === sourceStats.dev && stats.ino === sourceStats.ino) {
    throw usageError(`refusing to overwrite the session itself: ${path}`);
  }
  if (readHeader(path) !== null) {
    throw usageError(
      `refusing to overwrite ${path}: it is a pi session file (give a new path; --force does not replace sessions)`,
    );
  }
  if (!force) {
    throw usageError(`refusing to overwrite the existing file ${path} (add --force to replace it)`);
  }
  // Through a symlink the file it names is replaced, so the link stays a link.
  return { kind: "replace", path, file: realFile(path) };
}

/** The file a symlink chain ends at (the path itself when it is no link). */
function realFile(path: string): string {
  let current = path;
  for (let hop = 0; hop < 40 && lstatSync(current).isSymbolicLink(); hop++) {
    current = resolve(dirname(current), readlinkSync(current));
  }
  return current;
}

/** Opened for writing in place: no create, no truncation (a device or a pipe has neither). */
const STREAM_FLAGS = constants.O_WRONLY | constants.O_APPEND;

/** Where a descriptor target's bytes go: stdout and stderr through the program's own streams. */
export interface Descriptors {
  /** Writes to descriptor `fd` if the program holds it as a stream (1, 2); false otherwise. */
  write(fd: number, content: string | Uint8Array): boolean;
}

/**
 * The program's own descriptors: `-o /dev/stdout` is stdout itself (data, in order with the
 * rest), `-o /dev/stderr` the error stream; any other descriptor is written directly.
 */
export function programDescriptors(
  writeData: (text: string | Uint8Array) => void,
  stderr: { write(text: string | Uint8Array): unknown },
): Descriptors {
  return {
    write: (fd, text) => {
      if (fd === 1) writeData(text);
      else if (fd === 2) stderr.write(text);
      return fd === 1 || fd === 2;
    },
  };
}

/** Writes all of `bytes` to `fd`, waiting while a non-blocking pipe or socket is full. */
function writeToDescriptor(fd: number, bytes: Uint8Array): void {
  let written = 0;
  while (written < bytes.length) {
    try {
      written += writeSync(fd, bytes, written, bytes.length - written);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EAGAIN") throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
    }
  }
}

/**
 * Writes `content` to the target; a failure is a usage error naming the target (exit 2).
 * `descriptors` takes stdout and stderr, so their bytes keep their order with the rest.
 */
export function writeOutput(
  target: OutputTarget,
  content: string | Uint8Array,
  descriptors: Descriptors,
): void {
  const bytes = () => (typeof content === "string" ? Buffer.from(content, "utf8") : content);
  try {
    if (target.kind === "descriptor") {
      if (!descriptors.write(target.fd, content)) {
        writeToDescriptor(target.fd, bytes());
      }
    } else if (target.kind === "new") {
      writeFileAtomic(target.path, content, { exclusive: true });
    } else if (target.kind === "replace") {
      writeFileAtomic(target.file, content, { like: attributesOf(target.file) });
    } else {
      const fd = openSync(target.path, STREAM_FLAGS);
      try {
        writeAll(nodeStoreFs, fd, bytes());
      } finally {
        closeSync(fd);
      }
    }
  } catch (error) {
    if (error instanceof CliError) throw error;
    // fsReason drops the errno prefix and the temp file's name, which the user never gave.
    throw new CliError(`cannot write ${target.path}: ${oneLine(fsReason(error))}`, ExitCode.usage);
  }
}
