/**
 * Model-based conformance: random sequences of SessionManager operations are run on our
 * in-memory manager and on the reference's, and after every operation everything observable
 * through the read API must agree (SPEC §4–§9): entries (JSON value and key order), leaf,
 * branch, tree (ids, labels, label timestamps, child order), labels and children of every id,
 * session name, entry count, header shape, context, projection, context entries, return
 * values and thrown messages. At the end the free context functions are compared too.
 *
 * Both implementations read the global `Date`, which is frozen and moved by each op's `dt`
 * (sometimes backwards, so getTree's timestamp sort is exercised), so timestamps are compared
 * exactly. Ids are random and compared through {@link IdMap}.
 *
 * Replay a failure with `FC_SEED=<seed> FC_PATH=<path>`; scale with `FC_RUNS=<n>`.
 */
import * as core from "@pi-sessions/core";
import { createDeterministicEnv, SessionManager } from "@pi-sessions/core";
import fc from "fast-check";
import { afterAll, beforeAll, describe, it, vi } from "vitest";
import {
  compareFreeFunctions,
  IdMap,
  type DifferentialOp as Op,
  differentialOpArb as opArb,
  runDifferentialOps,
  type DifferentialWorld as World,
} from "../../src/internal.js";
import { params, runs } from "../arbitraries-run.js";
import { loadReferenceModule, type ReferenceModule } from "../conformance-reference.js";

const settings = params(runs(300));
const START = Date.UTC(2025, 0, 1);
let R: ReferenceModule;

beforeAll(async () => {
  R = await loadReferenceModule();
  vi.useFakeTimers({ toFake: ["Date"] });
});
afterAll(() => {
  vi.useRealTimers();
});

/** Two fresh managers on the same frozen clock; ours draws ids from a seeded stream. */
function newWorld(seed: number): World {
  vi.setSystemTime(START);
  const env = { ...createDeterministicEnv({ seed }), now: () => new Date() };
  return {
    ours: SessionManager.inMemory("/tmp/x", { env }),
    ref: R.SessionManager.inMemory("/tmp/x"),
    map: new IdMap(),
    clock: START,
    setClock: (ms) => vi.setSystemTime(ms),
  };
}

/** Runs a whole sequence, comparing after every op, then the free functions of both modules. */
function runSequence(seed: number, ops: readonly Op[]): void {
  const w = newWorld(seed);
  runDifferentialOps(w, ops);
  compareFreeFunctions(w, core, R);
}

describe("conformance: random operation sequences vs reference 1.6.0", () => {
  it(`agree after every op (${settings.numRuns} runs, up to 40 ops each)`, () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 0x7fffffff }),
        fc.array(opArb, { minLength: 1, maxLength: 40, size: "max" }),
        runSequence,
      ),
      settings,
    );
  });

  it("agree on a hand-written sequence touching every op (deterministic smoke test)", () => {
    const ops: Op[] = [
      { dt: 0, op: "appendSessionInfo", name: "  My\r\nSession \n name  " },
      { dt: 1, op: "appendMessage", message: { role: "user", content: "q1", timestamp: 1 } },
      {
        dt: 1,
        op: "appendMessage",
        message: { role: "system", content: "sys", sections: { a: "x" }, timestamp: 2 },
      },
      { dt: 1, op: "appendLabelChange", target: { pick: 1 }, label: "start" },
      {
        dt: -5,
        op: "appendCompaction",
        summary: "S",
        keep: { onBranch: 1 },
        tokens: 9,
        extras: {},
      },
      { dt: 1, op: "appendContextEdit", target: { pick: 1 }, replacement: { content: "edited" } },
      {
        dt: 1,
        op: "branchWithSummary",
        target: { pick: 1 },
        summary: "side",
        extras: { fromHook: true },
      },
      { dt: 1, op: "appendUsage", kind: "k", provider: "p", model: "m", usage: {}, note: "n" },
      { dt: 1, op: "branch", target: { unknown: "missing1" } },
      { dt: 1, op: "resetLeaf" },
      { dt: 1, op: "branchWithSummary", target: null, summary: "", extras: {} },
      { dt: 1, op: "appendLabelChange", target: { pick: 3 }, label: null },
      { dt: 1, op: "createBranchedSession", target: { pick: 6 } },
    ];
    runSequence(7, ops);
  });

  it("agree when createBranchedSession drops a label that a compaction keeps from (SPEC §9 step 2)", () => {
    const ops: Op[] = [
      { dt: 0, op: "appendMessage", message: { role: "user", content: "q1", timestamp: 1 } },
      { dt: 5, op: "appendLabelChange", target: { pick: 0 }, label: "first" },
      { dt: 5, op: "appendMessage", message: { role: "user", content: "q2", timestamp: 2 } },
      { dt: -20, op: "appendLabelChange", target: { pick: 2 }, label: "second" },
      // keep from the first label entry (index 1 on the branch), and a keep-none compaction
      {
        dt: 5,
        op: "appendCompaction",
        summary: "S1",
        keep: { onBranch: 1 },
        tokens: 1,
        extras: {},
      },
      { dt: 5, op: "appendCompaction", summary: "S2", keep: null, tokens: 2, extras: {} },
      {
        dt: 5,
        op: "appendCompaction",
        summary: "S3",
        keep: { onBranch: 3 },
        tokens: 3,
        extras: {},
      },
      { dt: 5, op: "appendMessage", message: { role: "user", content: "q3", timestamp: 3 } },
      { dt: 5, op: "createBranchedSession", target: { pick: 7 } },
      { dt: 5, op: "createBranchedSession", target: { onBranch: 2 } },
    ];
    runSequence(3, ops);
  });
});
