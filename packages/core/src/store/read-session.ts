import { closeSync, fstatSync, openSync, readFileSync } from "node:fs";
import { StringDecoder } from "node:string_decoder";
import type { SessionEnv } from "../env/env.js";
import { JsonlScanner } from "../format/scan.js";
import { CurrentLoader, type LoadedText, loadText } from "../manager/load-text.js";
import { readChunks } from "./read-chunks.js";

/** What is on disk at a session path (SPEC §6.5 steps 1–3). */
export type SessionFileRead =
  /** No file: a new session will be written there once the conversation starts. */
  | { readonly kind: "missing" }
  /** A 0-byte file: the load writes a fresh header into it. */
  | { readonly kind: "empty" }
  /** A session, parsed (and migrated in memory if it was older than v3). */
  | {
      readonly kind: "loaded";
      readonly loaded: LoadedText;
      /** Bytes read: where the next append goes. */
      readonly size: number;
    };

/** Read size for streaming loads: big enough to amortise syscalls, small next to memory. */
const CHUNK_BYTES = 4 * 1024 * 1024;

/**
 * Reads a session file without writing anything (W13). A current file is streamed through
 * the line scanner in 4 MiB chunks, so even a file of hundreds of MB never becomes one
 * string; a legacy file (v1/v2, small in practice) is read whole for migration. Throws
 * `InvalidSessionError` when the file is not a session (it is left unchanged), and the fs
 * error for anything but a missing file.
 */
export function readSessionFile(path: string, env: SessionEnv, label = path): SessionFileRead {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { kind: "missing" };
    throw error;
  }
  try {
    const size = fstatSync(fd).size;
    if (size === 0) return { kind: "empty" };
    const loader = new CurrentLoader(label);
    const scanner = new JsonlScanner(loader);
    const decoder = new StringDecoder("utf8");
    const buffer = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, size));
    const { bytes: read, stopped } = readChunks(fd, buffer, (chunk) =>
      scanner.push(decoder.write(chunk)),
    );
    let going = !stopped;
    if (going) {
      going = scanner.push(decoder.end()) && scanner.end();
      if (going)
        return {
          kind: "loaded",
          loaded: loader.finish(scanner.endsWithNewline, false),
          size: read,
        };
    }
    // The header asked for migration: take the whole-document path.
    const bytes = readFileSync(path);
    return {
      kind: "loaded",
      loaded: loadText(bytes.toString("utf8"), env, label),
      size: bytes.length,
    };
  } finally {
    closeSync(fd);
  }
}
