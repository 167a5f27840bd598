/**
 * I2 (ids unique, parents exist, no cycles; walks are guarded) and I3 (getBranch runs
 * root → x; the leaf is null or an existing id), DESIGN §4 and SPEC §7.1–§7.6.
 */
import {
  buildSessionContext,
  type LoadDiagnostic,
  type SessionEntry,
  type SessionManager,
} from "@pi-sessions/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { params, runs } from "../arbitraries-run.js";
import { damagedLog, ID_POOL, MISSING_ID, validLog } from "./arbitraries.js";
import { applyOp, envSpec, loadManager, newManager, ops } from "./operations.js";
import { cyclesOf, indexById, walkIds } from "./oracles.js";

const RUNS = runs(1000);

/** I2 on a manager whose entries should be well formed. */
function expectWellFormed(sm: SessionManager): void {
  const entries = sm.getEntries();
  const position = new Map<string, number>();
  entries.forEach((e, i) => {
    expect(position.has(e.id), `duplicate id ${e.id}`).toBe(false);
    position.set(e.id, i);
  });
  // A parent earlier in file order: it exists and no cycle can form.
  const late = entries.filter(
    (e, i) => e.parentId !== null && !((position.get(e.parentId) ?? i) < i),
  );
  expect(late).toEqual([]);
  expect(sm.getEntryCount()).toBe(entries.length);
  expect(sm.getLoadDiagnostics()).toEqual([]);
}

/** I3 for one start id: the path of SPEC §7.6 (guarded against cycles). */
function expectBranch(sm: SessionManager, byId: Map<string, SessionEntry>, x: string): void {
  const path = sm.getBranch(x);
  const target = sm.getEntry(x);
  if (!target) {
    expect(path).toEqual([]);
    return;
  }
  expect(path.at(-1)).toBe(target);
  const ids = path.map((e) => e.id);
  const steps = path.slice(1).map((e) => e.parentId);
  expect(steps, "each step parent → child").toEqual(ids.slice(0, -1));
  expect(
    path.every((e) => sm.getEntry(e.id) === e),
    "indexed entries",
  ).toBe(true);
  expect(new Set(ids).size).toBe(ids.length);
  const rootParent = path[0]?.parentId;
  const stops = typeof rootParent !== "string" || !byId.has(rootParent) || ids.includes(rootParent);
  expect(stops, `walk stopped early at ${ids[0]}`).toBe(true);
  expect(ids).toEqual(walkIds(byId, x));
}

function expectLeaf(sm: SessionManager): void {
  const leaf = sm.getLeafId();
  if (leaf !== null) expect(sm.getEntry(leaf)).toBeDefined();
  expect(sm.getBranch()).toEqual(leaf === null ? [] : sm.getBranch(leaf));
}

/** The structural diagnostics a damaged log must produce (SPEC W14, W15). */
function expectDiagnostics(entries: readonly SessionEntry[], got: LoadDiagnostic[]): void {
  const byId = indexById(entries);
  const seen = new Set<string>();
  const duplicates: string[] = [];
  for (const e of entries) {
    if (seen.has(e.id)) duplicates.push(e.id);
    seen.add(e.id);
  }
  const dangling = [...byId.values()]
    .filter((e) => typeof e.parentId === "string" && e.parentId !== e.id && !byId.has(e.parentId))
    .map((e) => e.id);
  const cycles = cyclesOf(byId);
  const of = (kind: string): string[] =>
    got.filter((d) => d.kind === kind).map((d) => d.entryId ?? "");
  expect(got.every((d) => ["duplicate-id", "dangling-parent", "cycle"].includes(d.kind))).toBe(
    true,
  );
  expect(of("duplicate-id").sort()).toEqual(duplicates.sort());
  expect(of("dangling-parent").sort()).toEqual(dangling.sort());
  const reported = of("cycle").map((id) => cycles.findIndex((c) => c.includes(id)));
  expect(reported.every((i) => i >= 0)).toBe(true);
  expect(new Set(reported).size).toBe(reported.length);
  expect(reported.length).toBe(cycles.length);
}

describe("I2: unique ids, existing parents, no cycles", () => {
  it(`holds after random manager operations (numRuns ${RUNS})`, () => {
    fc.assert(
      fc.property(envSpec, ops(), (env, list) => {
        const sm = newManager(env);
        for (const o of list) applyOp(sm, o);
        expectWellFormed(sm);
      }),
      params(RUNS),
    );
  });

  it(`holds for loaded valid logs and appends after them (numRuns ${RUNS})`, () => {
    fc.assert(
      fc.property(validLog(), ops(8), (entries, list) => {
        const sm = loadManager(entries);
        expect(sm.getEntries()).toEqual(entries);
        for (const o of list) applyOp(sm, o);
        expectWellFormed(sm);
      }),
      params(RUNS),
    );
  });

  it(`damaged logs: every walk terminates and each problem is reported (numRuns ${RUNS})`, () => {
    const logs = fc.oneof(damagedLog(), damagedLog(true));
    fc.assert(
      fc.property(logs, (entries) => {
        const sm = loadManager(entries);
        expectDiagnostics(entries, sm.getLoadDiagnostics());
        const stored = sm.getEntries();
        const byId = indexById(stored);
        for (const id of ID_POOL) sm.getBranch(id);
        sm.getTree();
        for (const id of byId.keys()) {
          sm.branch(id);
          expect(sm.buildSessionContext()).toEqual(buildSessionContext(stored, id));
          expect(sm.buildContextEntries().length).toBeGreaterThan(0);
        }
        // Appending to a damaged session still draws fresh ids under the leaf.
        const leaf = sm.getLeafId();
        const id = sm.appendMessage({ role: "user", content: "more", timestamp: 0 });
        expect(byId.has(id)).toBe(false);
        expect(sm.getEntry(id)?.parentId).toBe(leaf);
      }),
      params(RUNS),
    );
  });
});

describe("I3: getBranch runs root → x; the leaf is null or existing", () => {
  it(`after every random manager operation (numRuns ${RUNS})`, () => {
    fc.assert(
      fc.property(envSpec, ops(), (env, list) => {
        const sm = newManager(env);
        for (const o of list) {
          applyOp(sm, o);
          expectLeaf(sm);
        }
        const byId = indexById(sm.getEntries());
        for (const id of byId.keys()) {
          expectBranch(sm, byId, id);
          expect(sm.getBranch(id)[0]?.parentId).toBeNull();
        }
        expectBranch(sm, byId, MISSING_ID);
        expect(sm.getBranch("")).toEqual([]);
      }),
      params(RUNS),
    );
  });

  it(`for damaged logs, from every id (numRuns ${RUNS})`, () => {
    const logs = fc.oneof(damagedLog(), damagedLog(true));
    fc.assert(
      fc.property(logs, (entries) => {
        const sm = loadManager(entries);
        expect(sm.getLeafId()).toBe(entries.at(-1)?.id ?? null);
        expectLeaf(sm);
        const byId = indexById(sm.getEntries());
        for (const id of ID_POOL) expectBranch(sm, byId, id);
      }),
      params(RUNS),
    );
  });
});
