/**
 * Corpus conformance: every real session file in fixtures/corpus is parsed with the reference's
 * `parseSessionEntries`, loaded into both in-memory managers, and compared: entries, tree,
 * labels, name, leaf, children and branch of every id, and the context at the default leaf and
 * at sampled entries as leaf. The free context functions of both modules are also run on the
 * very same (reference-migrated) entry arrays, so there no id normalisation is needed.
 *
 * v1 files get random ids during migration, so the managers are compared with ids paired by
 * position (the migration is a linear chain in file order on both sides).
 */
import { readdirSync, readFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";
import {
  buildContextEntries,
  buildSessionContext,
  buildSessionProjection,
  createDeterministicEnv,
  type FileEntry,
  getLatestCompactionEntry,
  parseSessionEntries,
  type SessionEntry,
  SessionManager,
} from "@pi-sessions/core";
import { beforeAll, describe, expect, it, vi } from "vitest";
import {
  differentialStep,
  expectSameModuloIds,
  expectSameView,
  IdMap,
  type DifferentialOp as Op,
  observe,
} from "../../src/internal.js";
import { CORPUS_DIR, loadReferenceModule, type ReferenceModule } from "../conformance-reference.js";

const CORPUS = CORPUS_DIR;
const files = readdirSync(CORPUS)
  .filter((f) => f.endsWith(".jsonl"))
  .sort();

let R: ReferenceModule;
beforeAll(async () => {
  R = await loadReferenceModule();
});

/** Every entry of a small file, every 25th (plus the last) of a big one. */
function sample<T>(items: readonly T[]): T[] {
  if (items.length <= 60) return [...items];
  const out = items.filter((_, i) => i % 25 === 0);
  const last = items.at(-1);
  if (last !== undefined && out.at(-1) !== last) out.push(last);
  return out;
}

/** A JSON value (undefined keys dropped, NaN → null) for comparing same-id results. */
const json = (v: unknown): unknown =>
  v === undefined ? "<undefined>" : JSON.parse(JSON.stringify(v));

/** Both managers loaded from the same parsed records (each gets its own deep copy). */
function load(records: unknown[]): {
  ours: SessionManager;
  ref: ReturnType<ReferenceModule["SessionManager"]["inMemory"]>;
  map: IdMap;
} {
  // Seeded ids; the clock is the global Date, so tests that freeze it see equal timestamps.
  const env = { ...createDeterministicEnv({ seed: 11 }), now: () => new Date() };
  const ours = SessionManager.inMemory("/tmp/x", { env }, structuredClone(records) as FileEntry[]);
  const ref = R.SessionManager.inMemory(
    "/tmp/x",
    undefined,
    structuredClone(records) as FileEntry[],
  );
  const map = new IdMap();
  map.pairByPosition(ours.getEntries(), ref.getEntries());
  return { ours, ref, map };
}

describe.each(files)("corpus %s vs reference 1.6.0", (file) => {
  const text = readFileSync(`${CORPUS}/${file}`, "utf8");

  it("parses to the same records", () => {
    const theirs = R.parseSessionEntries(text);
    expect(theirs.length).toBeGreaterThan(1);
    expect(json(parseSessionEntries(text))).toStrictEqual(json(theirs));
  });

  it("loads into equal managers (entries, tree, labels, name, leaf, children, branches, context)", () => {
    const { ours, ref, map } = load(R.parseSessionEntries(text));
    expect(ours.getEntries().length).toBe(ref.getEntries().length);
    expectSameView(
      map,
      observe(ours, map, 0, { perId: true }),
      observe(ref, map, 1, { perId: true }),
      `${file} loaded`,
    );
  });

  it("builds the same context with every (sampled) entry as leaf", () => {
    const { ours, ref, map } = load(R.parseSessionEntries(text));
    for (const canon of sample(map.all)) {
      ours.branch(map.raw(0, canon));
      ref.branch(map.raw(1, canon));
      const view = (sm: typeof ours | typeof ref, side: 0 | 1) => ({
        leaf: map.canon(side, sm.getLeafId()),
        context: sm.buildSessionContext(),
        projection: sm.buildSessionProjection(),
        contextEntries: sm.buildContextEntries().map((e) => map.canon(side, e.id)),
      });
      expectSameModuloIds(map, view(ours, 0), view(ref, 1), `${file} at leaf ${canon}`);
    }
    ours.resetLeaf();
    ref.resetLeaf();
    expectSameModuloIds(map, ours.buildSessionContext(), ref.buildSessionContext(), "reset leaf");
  });

  it("free functions agree on the same reference-migrated entries", () => {
    const entries = R.SessionManager.inMemory(
      "/tmp/x",
      undefined,
      R.parseSessionEntries(text) as FileEntry[],
    )
      .getEntries()
      .map((e) => JSON.parse(JSON.stringify(e)) as SessionEntry);
    const ids = entries.map((e) => e.id);
    const leaves: (string | null | undefined)[] = [
      undefined,
      null,
      "no-such-entry",
      ...sample(ids),
    ];
    // One copy per side for all calls; afterwards both copies must be unmodified.
    const sameIds = new IdMap(); // both sides see the same ids: compare them as they are
    const mine = JSON.parse(JSON.stringify(entries)) as SessionEntry[];
    const theirs = JSON.parse(JSON.stringify(entries)) as SessionEntry[];
    for (const leaf of leaves) {
      expectSameModuloIds(
        sameIds,
        {
          context: buildSessionContext(mine, leaf),
          projection: buildSessionProjection(mine, leaf),
          entries: buildContextEntries(mine, leaf),
        },
        {
          context: R.buildSessionContext(theirs, leaf),
          projection: R.buildSessionProjection(theirs, leaf),
          entries: R.buildContextEntries(theirs, leaf),
        },
        `${file} free functions at leaf ${String(leaf)}`,
      );
    }
    expect(isDeepStrictEqual(mine, entries)).toBe(true);
    expect(json(getLatestCompactionEntry(entries))).toStrictEqual(
      json(R.getLatestCompactionEntry(entries)),
    );
  });

  it("appends, branching and a branched session on top of the loaded file agree", () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(Date.UTC(2026, 0, 1));
      const { ours, ref, map } = load(R.parseSessionEntries(text));
      const w = {
        ours,
        ref,
        map,
        clock: Date.UTC(2026, 0, 1),
        setClock: (ms: number) => vi.setSystemTime(ms),
      };
      const mid = Math.floor(map.all.length / 2);
      const ops: Op[] = [
        {
          dt: 1,
          op: "appendMessage",
          message: { role: "system", content: "sys", sections: { a: "1" }, timestamp: 1 },
        },
        {
          dt: 1,
          op: "appendCompaction",
          summary: "S",
          keep: { onBranch: mid },
          tokens: 1,
          extras: {},
        },
        { dt: 1, op: "appendLabelChange", target: { pick: mid }, label: "mid" },
        { dt: 1, op: "branchWithSummary", target: { pick: mid }, summary: "back", extras: {} },
        { dt: 1, op: "appendContextEdit", target: { onBranch: 1 }, replacement: null },
        { dt: 1, op: "createBranchedSession", target: { pick: map.all.length } },
        { dt: 1, op: "appendMessage", message: { role: "user", content: "after", timestamp: 2 } },
      ];
      ops.forEach((op, i) => {
        differentialStep(w, op, `${file} op #${i} ${op.op}`, false);
      });
    } finally {
      vi.useRealTimers();
    }
  });
});
