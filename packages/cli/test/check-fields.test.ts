/**
 * The field-level half of `check` without the disk: {@link fieldProblems} over what the
 * testkit's arbitraries generate. A valid session (unknown entry types and fields included,
 * SPEC §2.6) has no field problem; a wrong-typed field is reported once, with its path, value
 * and line.
 */

import { fcOptions } from "@pi-sessions/test-utils";
import { sessionLogArb } from "@pi-sessions/testkit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fieldProblems, type LinedRecord } from "../src/session/problems.js";

/** A log's records as a file holds them: the header on line 1, entry i on line i + 2. */
function linedRecords(log: {
  header: LinedRecord["record"];
  entries: readonly LinedRecord["record"][];
}): LinedRecord[] {
  return [log.header, ...log.entries].map((record, i) => ({ record, line: i + 1 }));
}

const logs = sessionLogArb({ unknownTypes: true, unknownFields: true, maxEntries: 25 });
const PARAMS = fcOptions(200);

describe(`fieldProblems over testkit sessions (numRuns ${PARAMS.numRuns} each)`, () => {
  it("finds nothing in a valid session, unknown types and fields included", () => {
    fc.assert(
      fc.property(logs, (log) => {
        expect(fieldProblems(linedRecords(log))).toEqual([]);
      }),
      PARAMS,
    );
  });

  it("reports a wrong-typed timestamp once, on its entry's line, by path and value", () => {
    const damaged = logs
      .filter((log) => log.entries.length > 0)
      .chain((log) => fc.nat({ max: log.entries.length - 1 }).map((at) => ({ log, at })));
    fc.assert(
      fc.property(damaged, ({ log, at }) => {
        const entries = log.entries.map((e, i) => (i === at ? { ...e, timestamp: 400 } : e));
        const problems = fieldProblems(linedRecords({ header: log.header, entries }));
        expect(problems).toEqual([
          {
            kind: "invalid-field",
            line: at + 2,
            entryId: entries[at]?.id,
            message: "timestamp: expected string, got number 400",
            fixable: false,
          },
        ]);
      }),
      PARAMS,
    );
  });
});

describe("fieldProblems on a header", () => {
  it("says 'header' when the load did not track the header's line", () => {
    const header = { type: "session", version: 3, id: "s", timestamp: "t", cwd: 7 };
    expect(fieldProblems([{ record: header, line: undefined }])).toEqual([
      {
        kind: "invalid-field",
        message: "header: cwd: expected string, got number 7",
        fixable: false,
      },
    ]);
  });
});
