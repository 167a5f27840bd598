/**
 * Session-log arbitraries: every entry decodes, the log is a valid tree with valid references,
 * core loads it without a single diagnostic, options shape it as documented, a seed replays it,
 * and failures shrink to a few entries.
 */
import {
  decodeEntry,
  formatSchemaIssue,
  type SessionEntry,
  SessionManager,
} from "@pi-sessions/core";
import { decodeHeader } from "@pi-sessions/core/internal";
import {
  type SessionLog,
  type SessionLogOptions,
  sessionLogArb,
  sessionToJsonl,
} from "@pi-sessions/testkit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { params, runs } from "./arbitraries-run.js";

const RUNS = runs(500);

/** Root → entry ids, by parent links (the log is acyclic, checked first). */
function pathIds(byId: Map<string, SessionEntry>, id: string | null): string[] {
  const out: string[] = [];
  for (let e = id === null ? undefined : byId.get(id); e; ) {
    out.unshift(e.id);
    e = e.parentId === null ? undefined : byId.get(e.parentId);
  }
  return out;
}

/** Checks every validity promise of a generated log; throws with the first broken one. */
function expectValidLog(log: SessionLog): void {
  const header = decodeHeader(log.header);
  expect(header._tag, "header decodes").toBe("Right");
  const byId = new Map<string, SessionEntry>();
  log.entries.forEach((e, i) => {
    const decoded = decodeEntry(e);
    if (decoded._tag === "Left") {
      throw new Error(`entry ${i} rejected: ${decoded.left.map(formatSchemaIssue).join("; ")}`);
    }
    expect(byId.has(e.id), `id ${e.id} unique`).toBe(false);
    if (e.parentId !== null)
      expect(byId.has(e.parentId), `parent of ${e.id} is earlier`).toBe(true);
    const path = pathIds(byId, e.parentId);
    switch (e.type) {
      case "compaction":
        // On the branch it compacts, or its own id ("keep none").
        expect([...path, e.id]).toContain(e.firstKeptEntryId);
        break;
      case "label":
        expect(byId.has(e.targetId), `label ${e.id} targets an existing entry`).toBe(true);
        break;
      case "context_edit": {
        expect(path).toContain(e.targetId);
        const target = byId.get(e.targetId) as SessionEntry;
        const role = target.type === "message" ? target.message.role : undefined;
        expect(
          target.type === "custom_message" ||
            ["user", "assistant", "toolResult"].includes(role ?? ""),
        ).toBe(true);
        break;
      }
      case "branch_summary":
        expect(e.fromId).toBe(i === 0 ? "root" : log.entries[i - 1]?.id);
        break;
    }
    byId.set(e.id, e);
  });
  expect(log.jsonl).toBe(sessionToJsonl(log.header, log.entries));
  expect(Buffer.from(log.jsonl, "utf8").toString("utf8")).toBe(log.jsonl);
  expect(log.leafId).toBe(log.entries.at(-1)?.id ?? null);
}

describe(`sessionLogArb generates valid trees (numRuns ${RUNS} per variant)`, () => {
  const variants: [string, SessionLogOptions][] = [
    ["defaults", {}],
    ["linear", { shape: "linear", maxEntries: 40 }],
    ["bushy, multi-root", { shape: "bushy", multiRoot: true, maxEntries: 40 }],
    [
      "unknown types, fields, roles, blocks; short ids",
      {
        unknownTypes: true,
        unknownFields: true,
        unknownRoles: true,
        unknownBlocks: true,
        ids: "short",
      },
    ],
    ["uuid ids, skewed clock", { ids: "uuid", clockSkew: true }],
    ["labels and compactions only", { kinds: ["message", "label", "compaction", "context_edit"] }],
  ];
  for (const [name, options] of variants) {
    it(`${name}: decodes, references resolve, core loads it with no diagnostic`, () => {
      fc.assert(
        fc.property(sessionLogArb(options), (log) => {
          expectValidLog(log);
          const sm = SessionManager.fromJsonl(log.jsonl);
          expect(sm.getLoadDiagnostics()).toEqual([]);
          expect(sm.getEntries()).toEqual(log.entries);
          expect(sm.getLeafId()).toBe(log.leafId);
          expect(sm.getHeader()).toEqual(log.header);
        }),
        params(RUNS),
      );
    });
  }

  it("shape and size options are honoured", () => {
    const sizes = new Set<number>();
    // Options drawn first, then a log with them (a test-side chain keeps the seed replayable).
    const cases = fc
      .record({
        shape: fc.constantFrom<SessionLogOptions["shape"]>("linear", "bushy", "any"),
        multiRoot: fc.boolean(),
        minEntries: fc.integer({ min: 0, max: 5 }),
        maxEntries: fc.integer({ min: 5, max: 60 }),
      })
      .chain((o) => sessionLogArb(o).map((log) => ({ o, log })));
    fc.assert(
      fc.property(cases, ({ o, log }) => {
        const n = log.entries.length;
        sizes.add(n);
        expect(n).toBeGreaterThanOrEqual(o.minEntries);
        expect(n).toBeLessThanOrEqual(o.maxEntries);
        const roots = log.entries.filter((e) => e.parentId === null).length;
        if (!o.multiRoot) expect(roots).toBe(n === 0 ? 0 : 1);
        if (o.shape === "linear") {
          log.entries.forEach((e, i) => {
            if (i > 0 && e.parentId !== null) expect(e.parentId).toBe(log.entries[i - 1]?.id);
          });
        }
      }),
      params(runs(200)),
    );
    // With maxEntries given, the whole range is used, not just fast-check's small default.
    expect(Math.max(...sizes)).toBeGreaterThan(20);
  });

  it("bushy logs branch: some entry has two or more children", () => {
    const branched = fc
      .sample(sessionLogArb({ shape: "bushy", minEntries: 10, maxEntries: 20 }), {
        seed: 3,
        numRuns: 50,
      })
      .filter((log) => {
        const parents = log.entries.map((e) => e.parentId).filter((p) => p !== null);
        return new Set(parents).size < parents.length;
      });
    expect(branched.length).toBeGreaterThan(40);
  });

  it("the same seed gives the same logs (ids and timestamps come from generated values)", () => {
    const a = fc.sample(sessionLogArb(), { seed: 42, numRuns: 20 });
    const b = fc.sample(sessionLogArb(), { seed: 42, numRuns: 20 });
    expect(a.map((l) => l.jsonl)).toEqual(b.map((l) => l.jsonl));
  });

  it("a failing property shrinks to the smallest log that shows it", () => {
    // "No log has a label": the smallest counterexample is one entry plus the label on it.
    const result = fc.check(
      fc.property(sessionLogArb({ maxEntries: 60 }), (log) =>
        log.entries.every((e) => e.type !== "label"),
      ),
      { seed: 7, numRuns: 1000 },
    );
    expect(result.failed).toBe(true);
    const [log] = result.counterexample ?? [];
    expect(log?.entries.length).toBe(2);
    expect(log?.entries[1]?.type).toBe("label");
  });
});
