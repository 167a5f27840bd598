/**
 * The file line of each loaded entry (for diagnostics), stored as runs: a clean file needs one
 * run, so a 100 MB session keeps a few numbers instead of one per entry.
 */
export class LineMap {
  /** Entry positions where a run starts, ascending. */
  private readonly starts: number[] = [];
  /** The line of the entry that starts each run. */
  private readonly lines: number[] = [];
  private count = 0;
  private lastLine = Number.NaN;

  /** Records the line of the next entry (entries arrive in file order). */
  push(line: number): void {
    if (line !== this.lastLine + 1) {
      this.starts.push(this.count);
      this.lines.push(line);
    }
    this.lastLine = line;
    this.count++;
  }

  /** The line of the entry at `position`, or undefined past the loaded entries. */
  lineOf(position: number): number | undefined {
    if (position < 0 || position >= this.count) return undefined;
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.starts[mid] as number) <= position) lo = mid;
      else hi = mid - 1;
    }
    return (this.lines[lo] as number) + (position - (this.starts[lo] as number));
  }
}
