/**
 * What opening a giant session costs at least, in this process, for the bench's floors: the
 * byte check that vouches every line is a JSON object `JSON.parse` would accept (core's
 * `scanObjectLine`, which keeps damaged lines diagnostics instead of entries: SPEC W5), and
 * core's whole columns load (`ColumnLoader`: that check plus the tree fields and byte spans of
 * every entry, no manager state). Each reads the file in 4 MB pieces; CPU and wall are timed.
 */

import { closeSync, openSync, readSync } from "node:fs";
import { ColumnLoader, newLineHead, scanObjectLine } from "@pi-sessions/core/internal";

/** Wall and CPU time of one pass, ms. */
export interface PassCost {
  readonly wallMs: number;
  readonly cpuMs: number;
}

function timed(pass: () => void): PassCost {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  pass();
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { wallMs, cpuMs: (cpu.user + cpu.system) / 1000 };
}

/** Feeds the file to `take` in 4 MB pieces (the same buffer each time). */
function eachPiece(file: string, take: (piece: Buffer, n: number) => void): void {
  const fd = openSync(file, "r");
  try {
    const buffer = Buffer.allocUnsafe(4 << 20);
    for (let n = readSync(fd, buffer, 0, buffer.length, null); n > 0; ) {
      take(buffer, n);
      n = readSync(fd, buffer, 0, buffer.length, null);
    }
  } finally {
    closeSync(fd);
  }
}

/** The byte check of every whole line of the file (a line cut by a piece's end is skipped). */
export function lineCheckCost(file: string): PassCost & { readonly vouched: number } {
  let vouched = 0;
  const cost = timed(() => {
    const head = newLineHead();
    eachPiece(file, (piece, n) => {
      let start = 0;
      for (let end = piece.indexOf(10, 0); end >= 0 && end < n; end = piece.indexOf(10, start)) {
        if (scanObjectLine(piece, start, end, head)) vouched++;
        start = end + 1;
      }
    });
  });
  return { ...cost, vouched };
}

/** Core's columns load of the file, without a manager. */
export function columnsLoadCost(file: string): PassCost & { readonly entries: number } {
  let entries = 0;
  const cost = timed(() => {
    const loader = new ColumnLoader(file);
    eachPiece(file, (piece, n) => loader.push(piece, n));
    entries = loader.finish().ids.length;
  });
  return { ...cost, entries };
}
