import { createDeterministicEnv } from "@pi-sessions/core";
import { fcOptions } from "@pi-sessions/test-utils";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type JsonRecord, migrateRecords } from "../core-parts.js";
import { deepFreeze } from "./helpers.js";

/** Runs per property; failures print fast-check's seed and path for replay. */
const PARAMS = fcOptions(500);
const NUM_RUNS = PARAMS.numRuns;

/** A small id pool so existing ids collide with each other and with the RNG. */
const existingId = fc.constantFrom("aaaaaaaa", "bbbbbbbb", "x", "");

const entry: fc.Arbitrary<JsonRecord> = fc.record(
  {
    type: fc.constantFrom("message", "compaction", "label", "x"),
    id: fc.oneof(existingId, fc.integer()),
    parentId: fc.oneof(existingId, fc.constant(null), fc.integer()),
    message: fc.record({ role: fc.constantFrom("user", "hookMessage", "custom"), n: fc.nat() }),
    firstKeptEntryIndex: fc.oneof(
      fc.integer({ min: -2, max: 14 }),
      fc.double({ noNaN: true }),
      fc.constantFrom("1", null),
    ),
    extra: fc.string({ maxLength: 3 }),
  },
  { requiredKeys: ["type"] },
);

const header: fc.Arbitrary<JsonRecord> = fc.record(
  {
    type: fc.constant("session"),
    id: fc.string({ maxLength: 4 }),
    version: fc.constantFrom(undefined, null, 0, 1, 2, 2.5, 3, 4, "2", "abc"),
    cwd: fc.constant("/w"),
  },
  { requiredKeys: ["type", "id"] },
);

/** Records with an optional header, usually first but sometimes elsewhere. */
const records: fc.Arbitrary<JsonRecord[]> = fc
  .tuple(
    fc.array(entry, { maxLength: 12 }),
    fc.option(header, { nil: undefined }),
    fc.oneof(fc.constant(0), fc.nat()),
  )
  .map(([entries, h, pos]) => {
    if (h === undefined) return entries;
    const out = [...entries];
    out.splice(pos % (entries.length + 1), 0, h);
    return out;
  });

describe("migrateRecords properties (I7)", () => {
  it(`is idempotent and maps every record to one record (numRuns ${NUM_RUNS})`, () => {
    fc.assert(
      fc.property(records, fc.integer({ min: 1 }), (input, seed) => {
        const snapshot = structuredClone(input);
        deepFreeze(input);
        const once = migrateRecords(input, createDeterministicEnv({ seed }));
        expect(input).toEqual(snapshot);
        expect(once.records).toHaveLength(input.length);
        once.records.forEach((r, i) => {
          expect(r.type).toBe(input[i]?.type);
        });
        const twice = migrateRecords(once.records, createDeterministicEnv({ seed: seed + 1 }));
        expect(twice.changed).toBe(false);
        expect(twice.records).toEqual(once.records);
        twice.records.forEach((r, i) => {
          expect(r).toBe(once.records[i]);
        });
      }),
      PARAMS,
    );
  });

  it(`keeps string ids and assigns fresh unique ids below v2 (numRuns ${NUM_RUNS})`, () => {
    fc.assert(
      fc.property(records, fc.integer({ min: 1 }), (input, seed) => {
        const result = migrateRecords(input, createDeterministicEnv({ seed }));
        const present = new Set(input.map((r) => r.id).filter((id) => typeof id === "string"));
        const assigned = new Set<string>();
        result.records.forEach((r, i) => {
          const before = input[i] as JsonRecord;
          const after = r as unknown as JsonRecord;
          if (before.type === "session") return;
          if (typeof before.id === "string") {
            expect(after.id).toBe(before.id);
          } else if (result.fromVersion < 2) {
            expect(after.id).toMatch(/^[0-9a-f]{8}$/);
            expect(present.has(after.id as string)).toBe(false);
            expect(assigned.has(after.id as string)).toBe(false);
            assigned.add(after.id as string);
            // W11: a fresh id is never its own parent.
            expect(after.parentId).not.toBe(after.id);
          }
          if (result.fromVersion < 2) {
            expect(after.parentId === null || typeof after.parentId === "string").toBe(true);
          }
        });
      }),
      PARAMS,
    );
  });
});
