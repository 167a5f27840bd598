/**
 * The progress bar draws only on a terminal and only for big scans, redraws in place, and
 * erases itself; the bin-level test shows a pipe gets nothing.
 */

import { describe, expect, it } from "vitest";
import { noProgress, PROGRESS_MIN_TOTAL, ProgressBar, progressOn } from "../src/io/progress.js";

function sink(isTTY: boolean) {
  const chunks: string[] = [];
  return { isTTY, chunks, write: (text: string) => chunks.push(text) };
}

describe("progress", () => {
  it("is off unless the stream is a terminal", () => {
    expect(progressOn(sink(false), "x")).toBe(noProgress);
    expect(progressOn(sink(true), "x")).toBeInstanceOf(ProgressBar);
  });

  it("stays quiet for small scans and draws, then erases, for big ones", () => {
    const small = sink(true);
    const bar = new ProgressBar(small, "reading");
    bar.update(10, PROGRESS_MIN_TOTAL - 1);
    bar.done();
    expect(small.chunks).toEqual([]);

    const big = sink(true);
    const bigBar = new ProgressBar(big, "reading");
    const total = PROGRESS_MIN_TOTAL * 5;
    bigBar.update(1, total);
    bigBar.update(total, total);
    bigBar.done();
    expect(big.chunks[0]).toBe(`\rreading [${"-".repeat(30)}] 1/${total}`);
    expect(big.chunks[1]).toBe(`\rreading [${"#".repeat(30)}] ${total}/${total}`);
    expect(big.chunks.at(-1)).toBe("\r\u001b[K");
  });
});
