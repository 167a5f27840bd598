/**
 * Legacy-file arbitraries: v1 and v2 records are what those versions hold (messages and the
 * header decode, v1 entries have no ids), and core's migration gives what each value promises
 * (v2: exactly `expected`; v1: a chain, compactions resolved as classified).
 */
import { createDeterministicEnv, decodeEntry, SessionManager } from "@pi-sessions/core";
import {
  decodeHeader,
  decodeMessage,
  documentIssues,
  migrateRecords,
  parseJsonl,
} from "@pi-sessions/core/internal";
import { type LegacySession, legacySessionArb } from "@pi-sessions/testkit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { params, runs } from "./arbitraries-run.js";

const RUNS = runs(500);

/** The parsed records of the file text equal `records`; garbage lines are reported in place. */
function expectTextMatches(s: LegacySession): void {
  const doc = parseJsonl(s.jsonl);
  const records = doc.lines.flatMap((l) => (l.value._tag === "Right" ? [l.value.right] : []));
  expect(records).toEqual(s.records);
  expect(documentIssues(doc).map((i) => i.raw)).toEqual(s.garbageLines);
}

describe("legacySessionArb", () => {
  it(`v1: header without a version or version 1, entries without ids (numRuns ${RUNS})`, () => {
    fc.assert(
      fc.property(legacySessionArb({ version: 1, garbageLines: true }), (s) => {
        expectTextMatches(s);
        const [header, ...entries] = s.records;
        expect(decodeHeader(header)._tag).toBe("Right");
        expect([undefined, 1]).toContain(header?.version);
        for (const e of entries) {
          expect(e.id).toBeUndefined();
          expect(e.parentId).toBeUndefined();
          if (e.type === "message") expect(decodeMessage(e.message)._tag).toBe("Right");
        }
        expect(s.compactions.map((c) => c.recordIndex)).toEqual(
          s.records.flatMap((r, i) => (r.type === "compaction" ? [i] : [])),
        );
      }),
      params(RUNS),
    );
  });

  it(`v1: migration links a chain and resolves firstKeptEntryIndex as classified (numRuns ${RUNS})`, () => {
    const points = new Set<string>();
    fc.assert(
      fc.property(legacySessionArb({ version: 1 }), fc.nat(), (s, seed) => {
        const result = migrateRecords(s.records, createDeterministicEnv({ seed: seed + 1 }));
        const out = result.records as unknown as Record<string, unknown>[];
        expect(out[0]?.version).toBe(3);
        out.slice(1).forEach((r, i) => {
          expect(decodeEntry(r)._tag).toBe("Right");
          expect(r.parentId).toBe(i === 0 ? null : out[i]?.id);
        });
        for (const c of s.compactions) {
          points.add(c.points);
          const migrated = out[c.recordIndex] as Record<string, unknown>;
          expect(migrated.firstKeptEntryIndex).toBeUndefined();
          if (c.points === "entry") {
            expect(migrated.firstKeptEntryId).toBe(out[c.firstKeptEntryIndex]?.id);
          } else {
            expect(migrated.firstKeptEntryId).toBeUndefined();
            const kind =
              c.points === "header"
                ? "first-kept-entry-index-header"
                : "first-kept-entry-index-out-of-range";
            expect(result.diagnostics.map((d) => [d.kind, d.recordIndex])).toContainEqual([
              kind,
              c.recordIndex,
            ]);
          }
        }
      }),
      params(RUNS),
    );
    expect([...points].sort()).toEqual(["entry", "header", "out-of-range"]);
  });

  it(`v2 (with and without a version key): migration gives exactly \`expected\` (numRuns ${RUNS})`, () => {
    let hooks = 0;
    let versionless = 0;
    fc.assert(
      fc.property(legacySessionArb({ version: 2, versionless: true, garbageLines: true }), (s) => {
        expectTextMatches(s);
        hooks += s.hookMessages.length;
        if (s.records[0]?.version === undefined) versionless++;
        for (const i of s.hookMessages) {
          expect((s.records[i]?.message as { role?: string } | undefined)?.role).toBe(
            "hookMessage",
          );
        }
        const result = migrateRecords(s.records, createDeterministicEnv());
        // JSON text equality: same values and the same key order.
        expect(JSON.stringify(result.records)).toBe(JSON.stringify(s.expected));
        const sm = SessionManager.fromJsonl(s.jsonl);
        expect(sm.getEntries()).toEqual(s.expected?.slice(1));
        expect(sm.getHeader()?.version).toBe(3);
      }),
      params(RUNS),
    );
    expect(hooks).toBeGreaterThan(0);
    expect(versionless).toBeGreaterThan(0);
  });
});
