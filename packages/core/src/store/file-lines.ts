/**
 * Reads the entries of a session file loaded as columns back from the file, by the byte span
 * each line had at load (the bodies a columns load left on disk). The file is opened by its path
 * for each read and closed at once: no descriptor stays behind a session nobody reads (SPEC W7
 * allows one per file, the writer's). pi only ever appends to a session, which leaves every
 * loaded line where it was; a tool that replaced the file with the same lines (a copy renamed
 * over it) changes nothing either. A file rewritten otherwise, or deleted, can no longer give
 * the lines not read yet: decoding one then fails with a clear error (entry-log.ts checks each
 * entry's id and type), never with another entry. Reads go through one window of file bytes
 * shared by every source, so reading a path or a whole file in order costs few reads.
 */

import { closeSync, openSync, readSync } from "node:fs";
import type { EntrySource } from "../state/entry-log.js";

const WINDOW_BYTES = 1024 * 1024;

/** The one window of file bytes shared by all sources: whose, where, and the bytes. */
const window = { owner: undefined as object | undefined, start: 0, end: 0, bytes: Buffer.alloc(0) };

/** The entries of a loaded file, by line span (see the module comment). */
export class FileLines implements EntrySource {
  /** Identifies this source in the shared window without keeping it alive. */
  private readonly key = {};

  /**
   * @param path the loaded file
   * @param size the bytes the load read (the file may only grow after it)
   */
  constructor(
    private readonly path: string,
    private readonly size: number,
    private readonly offsets: ArrayLike<number>,
    private readonly lengths: ArrayLike<number>,
  ) {}

  line(position: number): string {
    const start = this.offsets[position] as number;
    const length = this.lengths[position] as number;
    const end = start + length;
    if (window.owner !== this.key || start < window.start || end > window.end)
      this.fill(start, length);
    const stop = Math.min(end, window.end);
    return window.bytes.toString("utf8", start - window.start, stop - window.start);
  }

  /** Reads the file from `start` into the window: `length` bytes at least, a window's worth. */
  private fill(start: number, length: number): void {
    const want = Math.max(length, Math.min(WINDOW_BYTES, this.size - start));
    const bytes =
      want <= window.bytes.length ? window.bytes : Buffer.allocUnsafe(Math.max(want, WINDOW_BYTES));
    window.owner = undefined;
    let got = 0;
    const fd = openSync(this.path, "r");
    try {
      while (got < want) {
        const n = readSync(fd, bytes, got, want - got, start + got);
        if (n === 0) break;
        got += n;
      }
    } finally {
      closeSync(fd);
    }
    // A file cut short since the load leaves the rest of the line out: decoding then fails.
    Object.assign(window, { owner: this.key, start, end: start + got, bytes });
  }
}
