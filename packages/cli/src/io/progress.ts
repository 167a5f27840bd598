/**
 * A progress bar on stderr for long scans. Drawn only when stderr is a terminal (a pipe or a
 * log file must not fill with carriage returns) and only for scans big enough to notice.
 */

import type { OutputStream } from "./io.js";
import { rawStream } from "./terminal-output.js";

/** Scans smaller than this finish before a bar would be readable. */
export const PROGRESS_MIN_TOTAL = 200;

/** Redraws at most this often, so a fast scan does not spend its time drawing. */
const REDRAW_MS = 50;

const BAR_WIDTH = 30;

/** Something told how far a scan is; {@link ProgressBar.done} clears it. */
export interface Progress {
  update(done: number, total: number): void;
  done(): void;
}

/** A progress that draws nothing (stderr not a TTY, or a small scan). */
export const noProgress: Progress = { update: () => {}, done: () => {} };

/** The bar itself: `label [#######-------] 1,234/10,000`, redrawn in place with `\r`. */
export class ProgressBar implements Progress {
  private lastDraw = 0;
  private drawn = false;

  constructor(
    private readonly stream: OutputStream,
    private readonly label: string,
  ) {}

  update(done: number, total: number): void {
    if (total < PROGRESS_MIN_TOTAL) return;
    const now = Date.now();
    if (done < total && now - this.lastDraw < REDRAW_MS) return;
    this.lastDraw = now;
    const filled = total === 0 ? BAR_WIDTH : Math.round((done / total) * BAR_WIDTH);
    const bar = "#".repeat(filled) + "-".repeat(BAR_WIDTH - filled);
    this.stream.write(`\r${this.label} [${bar}] ${done}/${total}`);
    this.drawn = true;
  }

  done(): void {
    // Erase the line so the listing that follows starts clean.
    if (this.drawn) this.stream.write("\r\x1b[K");
    this.drawn = false;
  }
}

/**
 * A bar on `stream` when it is a terminal, else {@link noProgress}. The bar is our own bytes
 * (its `\r` and erase sequence included), so it writes to the raw stream under a
 * terminal-safe one; its label must never hold data.
 */
export function progressOn(stream: OutputStream, label: string): Progress {
  return stream.isTTY === true ? new ProgressBar(rawStream(stream), label) : noProgress;
}
