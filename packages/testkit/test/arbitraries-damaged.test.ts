/**
 * Damaged-file arbitraries: core's loader reports exactly the injected damage (diagnostic
 * kinds, line numbers and entries), recovers exactly the intact entries, and the line-level
 * parser agrees on the lines that are not records.
 */
import { type LoadDiagnostic, SessionManager } from "@pi-sessions/core";
import { documentIssues, parseJsonl } from "@pi-sessions/core/internal";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  compareDiagnostics,
  DAMAGE_KINDS,
  type DamagedSession,
  type DamageKind,
  damagedSessionArb,
  type ExpectedDiagnostic,
} from "../src/internal.js";
import { params, runs } from "./arbitraries-run.js";

const RUNS = runs(500);
const PER_KIND_RUNS = runs(200);

/** What a diagnostic says, in the shape of the expectation. */
function reported(d: LoadDiagnostic): ExpectedDiagnostic {
  return {
    kind: d.kind,
    line: d.line ?? -1,
    ...(d.entryId !== undefined ? { entryId: d.entryId } : {}),
  };
}

/** Loads the damaged text with core and compares everything the value promises. */
function expectLoaderAgrees(d: DamagedSession): void {
  // Writable as UTF-8 unchanged (no lone surrogate), so file-based loaders see the same text.
  expect(Buffer.from(d.jsonl, "utf8").toString("utf8")).toBe(d.jsonl);
  const sm = SessionManager.fromJsonl(d.jsonl);
  const diagnostics = sm.getLoadDiagnostics().map(reported).sort(compareDiagnostics);
  expect(diagnostics).toEqual(d.expected);
  expect(sm.getEntries()).toEqual(d.entries);
  expect(sm.getLeafId()).toBe(d.leafId);
  expect(sm.getHeader()).toEqual(d.header);
  // The line-level parser reports exactly the injected non-record lines.
  const issues = documentIssues(parseJsonl(d.jsonl)).map((i) => ({ kind: i.kind, line: i.line }));
  const lineLevel = d.expected.filter(
    (e) => e.kind === "invalid-json" || e.kind === "not-an-object",
  );
  expect(issues).toEqual(lineLevel.map(({ kind, line }) => ({ kind, line })));
}

describe("damagedSessionArb: core reports exactly the injected damage", () => {
  it(`any mix of damage (numRuns ${RUNS})`, () => {
    fc.assert(fc.property(damagedSessionArb({ maxDamage: 5 }), expectLoaderAgrees), params(RUNS));
  });

  it(`any mix of damage on bushy multi-root logs with unknown data (numRuns ${RUNS})`, () => {
    const arb = damagedSessionArb({
      shape: "bushy",
      multiRoot: true,
      unknownTypes: true,
      unknownFields: true,
      maxDamage: 6,
    });
    fc.assert(fc.property(arb, expectLoaderAgrees), params(RUNS));
  });

  for (const kind of DAMAGE_KINDS) {
    it(`${kind} alone (numRuns ${PER_KIND_RUNS})`, () => {
      fc.assert(
        fc.property(damagedSessionArb({ damage: [kind], maxDamage: 2 }), (d) => {
          expect(d.damage.length).toBeGreaterThan(0);
          for (const x of d.damage) expect(x.kind).toBe(kind);
          expectLoaderAgrees(d);
          checkKind(kind, d);
        }),
        params(PER_KIND_RUNS),
      );
    });
  }
});

describe("damagedSessionArb shrinks", () => {
  it("to a one-entry log with the damage that matters", () => {
    // "No file has a cycle": the smallest counterexample is a one-entry log made its own parent.
    const result = fc.check(
      fc.property(damagedSessionArb({ maxDamage: 5, maxEntries: 40 }), (d) =>
        d.damage.every((x) => x.kind !== "cycle"),
      ),
      { seed: 11, numRuns: 1000 },
    );
    expect(result.failed).toBe(true);
    const [d] = result.counterexample ?? [];
    expect(d?.base.entries).toHaveLength(1);
    expect(d?.damage.filter((x) => x.kind === "cycle")).toHaveLength(1);
    expect(d?.damage.length).toBeLessThanOrEqual(2);
  });
});

/** Per-kind facts about the damaged text itself. */
function checkKind(kind: DamageKind, d: DamagedSession): void {
  const doc = parseJsonl(d.jsonl);
  switch (kind) {
    case "torn-tail":
      expect(doc.tornTail).toBe(true);
      expect(d.expected.at(-1)?.kind).toBe("invalid-json");
      break;
    case "missing-final-newline":
      expect(doc.endsWithNewline).toBe(false);
      expect(doc.tornTail).toBe(false);
      expect(d.expected).toEqual([]);
      break;
    case "blank-line":
      expect(d.expected).toEqual([]);
      expect(d.jsonl.split("\n").some((l) => l.trim() === "")).toBe(true);
      break;
    case "cycle":
    case "dangling-parent":
    case "duplicate-id":
      for (const x of d.damage) expect(x.entryId).toBeDefined();
      expect(d.entries.length).toBe(
        d.base.entries.length + (kind === "duplicate-id" ? d.damage.length : 0),
      );
      break;
    default:
      expect(d.entries).toEqual(d.base.entries);
  }
  for (const x of d.damage) expect(x.description).toMatch(new RegExp(`^line ${x.line}: `));
}
