/**
 * A writer reads an appended line's query columns from the record the listing fold parsed
 * (`LineFold.lastRecord`) instead of parsing the line again: the row must be the row parsing
 * the line gives, whatever the line holds, and whether the fold is folding or has stopped.
 */
import { fcOptions } from "@pi-sessions/test-utils";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { appendedRows, LineFold } from "../src/info-fold.js";
import { serialisedRow } from "../src/lines.js";

/** The property's run count (`FC_RUNS` honoured), named in its title. */
const RUNS = fcOptions(300);

/** Texts with what a key column cannot hold (NUL, lone surrogates) among ordinary ones. */
const text = fc.oneof(
  fc.string(),
  fc.constantFrom("user", "assistant", "message", "\u0000", "a\uD800b", "\uDC00", ""),
);
const value = fc.oneof(text, fc.integer(), fc.constant(null), fc.boolean());

/** An entry's line: tree fields and a message, each maybe missing or of another type. */
const entryLine = fc
  .record(
    {
      type: fc.oneof(fc.constantFrom("message", "session_info", "custom"), value),
      id: value,
      parentId: value,
      timestamp: value,
      name: value,
      message: fc.oneof(fc.record({ role: value, content: value }), value),
    },
    { requiredKeys: [] },
  )
  .map((entry) => JSON.stringify(entry));

const header = JSON.stringify({
  type: "session",
  version: 3,
  id: "s",
  timestamp: "2026-01-01T00:00:00.000Z",
  cwd: "/w",
});

describe("the columns of an appended row", () => {
  it(`are the parsed line's, read from the fold's record (numRuns ${RUNS.numRuns})`, () => {
    fc.assert(
      fc.property(fc.boolean(), fc.array(entryLine, { maxLength: 12 }), (valid, lines) => {
        // A fold whose first record is no header stops there: it parses nothing after it.
        const fold = LineFold.fresh();
        fold.line(valid ? header : "{}");
        lines.forEach((line, i) => {
          fold.line(line);
          const record = fold.lastRecord;
          expect(record === undefined).toBe(!valid);
          expect(serialisedRow(i + 1, line, record)).toEqual(serialisedRow(i + 1, line));
        });
      }),
      RUNS,
    );
  });

  it(`are the parsed line's as the sink and the bench floor make them, with a fold or without (numRuns ${RUNS.numRuns})`, () => {
    fc.assert(
      fc.property(fc.boolean(), fc.array(entryLine, { maxLength: 12 }), (folded, lines) => {
        const fold = folded ? LineFold.fresh() : undefined;
        fold?.line(header);
        const made = appendedRows(fold, 1, lines);
        expect(made.rows).toEqual(lines.map((line, i) => serialisedRow(i + 1, line)));
        expect(made.texts.length).toBe(lines.length);
        if (!fold) expect(made.texts.every((t) => t === null)).toBe(true);
      }),
      RUNS,
    );
  });
});
