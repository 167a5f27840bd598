/**
 * `ls`'s table as `ls-table.ts` prints it from table rows (times in ms, every id shortened in
 * one pass: `formatDateMs`, `shortIdsOf`) is byte for byte the table the renderer before it
 * printed from full rows (a `Date` per row, `toISOString`, `shortIdsAmong` per id), kept here
 * as the oracle, for any rows: names and messages with controls, runs of whitespace and long
 * texts, empty cwds, unknown times, problems, a terminal's width or none, colours on or off.
 */

import { fcOptions } from "@pi-sessions/test-utils";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { printTable } from "../src/commands/ls-table.js";
import type { CliIo } from "../src/io/io.js";
import { formatBytes, formatDateMs, pad, truncate } from "../src/io/output.js";
import { CliRuntime, type CommandContext } from "../src/io/runtime.js";
import { MIN_SHORT_ID, shortIdsAmong, shortIdsOf } from "../src/session/short-ids.js";
import type { SessionRow } from "../src/session/summary-rows.js";
import { tableRowOf } from "../src/session/table-rows.js";

/** The date as the old renderer wrote it. */
function oldDate(date: Date): string {
  if (Number.isNaN(date.getTime())) return "(unknown)";
  return date.toISOString().slice(0, 16).replace("T", " ");
}

/** The old renderer's cell. */
function oldCell(text: string, width: number): string {
  const head = 2 * width + 16;
  if (width > 1 && text.length > head) {
    const start = truncate(text.slice(0, head), width + 1);
    if (start.length > width) return `${start.slice(0, width - 1)}…`;
  }
  return truncate(text, width);
}

/** The renderer `ls` had before table rows (`commands/ls.ts`' `printTable` and summary). */
function oldPrintTable(ctx: CommandContext, rows: readonly SessionRow[], all: boolean): void {
  const shortId = shortIdsAmong(rows.map((row) => row.id));
  const c = ctx.colors;
  const columns = ctx.io.stdout.columns;
  const ids = rows.map((row) => shortId(row.id));
  const idWidth = ids.reduce((width, id) => Math.max(width, id.length), MIN_SHORT_ID);
  const fixed = 16 + 2 + 7 + 2 + 8 + 2 + 8 + 2 + idWidth + 2;
  const textWidth = columns !== undefined ? Math.max(20, columns - fixed - 1) : 60;
  const lines = [
    c.bold(
      `${pad("MODIFIED", 16)}  ${pad("ENTRIES", 7, true)}  ${pad("BRANCHES", 8, true)}  ${pad("SIZE", 8, true)}  ${pad("ID", idWidth)}  NAME / FIRST MESSAGE`,
    ),
  ];
  const indent = " ".repeat(fixed);
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i] as SessionRow;
    const text =
      row.name !== undefined
        ? c.cyan(oldCell(row.name, textWidth))
        : oldCell(row.firstMessage, textWidth);
    const warn =
      row.problems > 0
        ? c.yellow(` [${row.problems} problem${row.problems === 1 ? "" : "s"}]`)
        : "";
    lines.push(
      `${oldDate(row.modified)}  ${pad(String(row.entries), 7, true)}  ${pad(String(row.branches), 8, true)}  ${pad(formatBytes(row.size), 8, true)}  ${c.dim(pad(ids[i] as string, idWidth))}  ${text}${warn}`,
    );
    if (all) lines.push(c.dim(`${indent}${row.cwd || "(no cwd)"}`));
  }
  ctx.outLines(lines);
  const bytes = rows.reduce((sum, r) => sum + r.size, 0);
  ctx.out(c.dim(`${rows.length} session${rows.length === 1 ? "" : "s"}, ${formatBytes(bytes)}`));
}

/** A command context whose stdout is collected. */
function contextOf(colors: boolean, columns: number | undefined) {
  let written = "";
  const stdout = { write: (text: string | Uint8Array) => (written += String(text)), columns };
  const io: CliIo = {
    stdout,
    stderr: { write: () => true },
    env: colors ? { FORCE_COLOR: "1" } : {},
    cwd: "/",
  };
  const ctx = new CliRuntime(io).context({});
  return { ctx, written: () => written };
}

/** Text with what a table must flatten, cut or make visible. */
const textArb = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({
    unit: fc.constantFrom("a", " ", "\n", "\t", "\u001b", "\u202e", "é", "字"),
    maxLength: 200,
  }),
);

/** Times: ordinary ones, either side of the epoch, fractional, out of range, unknown. */
const timeArb = fc.oneof(
  fc.integer({ min: 0, max: 4_102_444_800_000 }),
  fc.double({ min: -8.7e15, max: 8.7e15, noNaN: true }),
  fc.constantFrom(Number.NaN, -0.5, 8.64e15, -8.64e15, -62_198_755_200_000),
);

const rowArb: fc.Arbitrary<SessionRow> = fc.record({
  path: fc.constant("/s.jsonl"),
  // Ids over a small alphabet after a shared start: long shared prefixes (past the eight
  // characters always shown), ids that prefix one another, repeats.
  id: fc
    .tuple(
      fc.constantFrom("", "01a24370-", "01a24370-1c2d"),
      fc.string({ unit: fc.constantFrom("0", "1", "-"), minLength: 1, maxLength: 6 }),
    )
    .map(([start, rest]) => start + rest),
  cwd: fc.oneof(fc.constant(""), textArb),
  name: fc.option(textArb, { nil: undefined }),
  created: fc.constant(new Date(0)),
  modified: timeArb.map((ms) => new Date(ms)),
  messageCount: fc.nat(50),
  firstMessage: textArb,
  entries: fc.nat(100_000),
  branches: fc.nat(1000),
  size: fc.oneof(fc.nat(2000), fc.nat(Number.MAX_SAFE_INTEGER)),
  problems: fc.nat(3),
});

describe("ls table", () => {
  it("prints what the renderer of full rows printed, byte for byte (numRuns 300)", () => {
    fc.assert(
      fc.property(
        fc.array(rowArb, { minLength: 1, maxLength: 25 }),
        fc.boolean(),
        fc.boolean(),
        fc.option(fc.integer({ min: 1, max: 240 }), { nil: undefined }),
        (rows, all, colors, columns) => {
          const before = contextOf(colors, columns);
          oldPrintTable(before.ctx, rows, all);
          const now = contextOf(colors, columns);
          const table = rows.map(tableRowOf);
          printTable(now.ctx, table, shortIdsOf(table.map((row) => row.id)), all);
          // The colour markers carry a nonce of each run: compare what reaches the terminal.
          expect(now.written()).toBe(before.written());
        },
      ),
      fcOptions(300),
    );
  });

  it("formats a time in ms as a Date's ISO string says it, alone and in a sorted run (numRuns 2000)", () => {
    // A sorted run puts many times on one day: the day's date, made once, is reused.
    const runArb = fc.oneof(
      timeArb.map((ms) => [ms]),
      fc
        .array(fc.integer({ min: -3 * 86_400_000, max: 3 * 86_400_000 }), { maxLength: 30 })
        .chain((steps) =>
          timeArb.map((start) => steps.map((step) => start + step).sort((a, b) => b - a)),
        ),
    );
    fc.assert(
      fc.property(runArb, (times) => {
        for (const ms of times) expect(formatDateMs(ms)).toBe(oldDate(new Date(ms)));
      }),
      fcOptions(2000),
    );
  });
});
