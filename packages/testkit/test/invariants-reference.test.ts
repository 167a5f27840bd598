/**
 * The checkers run unchanged against the reference implementation (npm
 * `@earendil-works/pi-coding-agent` 1.6.0, loaded by file path): valid logs pass I2, I3, I4
 * and I8; on damaged files I10 names the reference's known gap (SPEC W5: malformed lines are
 * dropped without a report) and nothing else, for the damage kinds it handles.
 */

import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  checkI10DamageRecovery,
  checkSessionInvariants,
  createFileHarness,
  createMemoryHarness,
  damagedSessionArb,
  type EntryView,
  type FileFactory,
  formatViolation,
  type HarnessModule,
  sessionLogArb,
} from "../src/internal.js";
import { params, runs } from "./arbitraries-run.js";

/** The part of the reference's session module these tests use. */
type ReferenceModule = HarnessModule & {
  SessionManager: FileFactory;
  buildContextEntries(entries: EntryView[], leafId?: string | null): EntryView[];
};

const url = new URL(
  "../node_modules/@earendil-works/pi-coding-agent/dist/core/session-manager.js",
  import.meta.url,
);

let ref: ReferenceModule;
let files: ReturnType<typeof createFileHarness>;
beforeAll(async () => {
  ref = (await import(url.href)) as ReferenceModule;
  files = createFileHarness(ref.SessionManager, { name: "reference files" });
});
afterAll(() => files.dispose());

const RUNS = runs(200);
const UNREPORTED = "I10: the damage is not reported: the session has no getLoadDiagnostics()";

describe("the checkers on the reference implementation", () => {
  it(`valid logs: I2, I3, I4, I8 hold at every leaf (numRuns ${RUNS})`, () => {
    const memory = createMemoryHarness(ref, "reference in memory");
    fc.assert(
      fc.property(sessionLogArb({ maxEntries: 30, multiRoot: true }), (log) => {
        const sm = memory.load(log.jsonl);
        const found = checkSessionInvariants(sm, { buildContextEntries: ref.buildContextEntries });
        expect(found.map(formatViolation)).toEqual([]);
      }),
      params(RUNS),
    );
  });

  it(`damaged files: I10 reports only the missing damage report (numRuns ${runs(100)})`, () => {
    const arb = damagedSessionArb({
      damage: ["garbage-line", "torn-tail", "blank-line", "missing-final-newline"],
      maxEntries: 10,
    });
    let unreported = 0;
    fc.assert(
      fc.property(arb, (d) => {
        const found = checkI10DamageRecovery(files, d);
        const expected = d.expected.length > 0 ? [UNREPORTED] : [];
        expect(found.map(formatViolation)).toEqual(expected);
        unreported += expected.length;
      }),
      params(runs(100)),
    );
    expect(unreported).toBeGreaterThan(0);
  });

  it(`non-object JSON lines: I10 catches the reference's W6 "entries" (numRuns ${runs(100)})`, () => {
    const arb = damagedSessionArb({ damage: ["non-object-line"], maxEntries: 10 });
    fc.assert(
      fc.property(arb, (d) => {
        const found = checkI10DamageRecovery(files, d).map(formatViolation);
        const lines = d.jsonl.split("\n");
        const truthy = d.damage.some((x) => Boolean(JSON.parse(lines[x.line - 1] ?? "null")));
        // R1.6 keeps a truthy `42` or `[1]` as an "entry" (before the header: refuses the
        // file); falsy ones it drops silently, like garbage.
        const lost = found.some((v) => /recovered \d+ entries|threw|leaf/.test(v));
        expect(lost).toBe(truthy);
        if (!truthy) expect(found).toEqual([UNREPORTED]);
      }),
      params(runs(100)),
    );
  });
});
