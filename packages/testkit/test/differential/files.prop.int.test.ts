/**
 * File conformance (SPEC §6, §9, §13 items 2, 5, 10): random operation sequences run on our
 * `SessionManager.create(cwd, dirA)` and the reference's `SessionManager.create(cwd, dirB)`
 * must leave the same files, byte for byte once ids are normalised.
 *
 * - After every op: everything observable agrees (the testkit's `differentialStep`, with paths
 *   made dir- and id-independent), and on both sides the current session's file exists iff
 *   its entries hold a user or assistant message (no file before the first one, §6.2).
 * - At the end: the same set of files (names normalised), no lock or temporary file left
 *   after `close()`, and every file equal line by line as text after normalising entry ids,
 *   session ids, `parentSession` paths and file names (`e0, e1, …` by first appearance).
 *   Timestamps need no normalisation: `Date` is frozen (vitest fake timers), and both read it.
 *   The only excused difference is W24 [Fix] (see {@link Side.orphanParent}).
 * - I5: every file of ours reopened with `SessionManager.open` equals the manager that wrote
 *   it (entries, labels, name, tree, context at the same leaf; leaf = last entry on reopen).
 *
 * Runs: `FC_RUNS` (default 100); replay with `FC_SEED=<seed> FC_PATH=<path>`.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { SessionManager, systemEnv } from "@pi-sessions/core";
import { fcOptions, loadReference, removeTempDir, tempDir } from "@pi-sessions/test-utils";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  type DifferentialOp,
  type DifferentialWorld,
  differentialOpArb,
  differentialStep,
  expectSameView,
  IdMap,
  observe,
  treeShape,
} from "../../src/internal.js";
import {
  type FileManager,
  isConversation,
  normaliseFiles,
  Side,
  strayFiles,
} from "./files-compare.js";

const settings = fcOptions(100);
const START = Date.UTC(2025, 0, 1);
const CWD = "/tmp/pi-conformance-proj";
let RefSM: { create(cwd: string, dir: string): FileManager };

type FileOp = DifferentialOp | { dt: number; op: "newSession"; parentSession?: string };

const newSessionArb: fc.Arbitrary<FileOp> = fc.record(
  {
    dt: fc.constantFrom(0, 1, 250),
    op: fc.constant("newSession" as const),
    parentSession: fc.constantFrom(undefined, "/elsewhere/parent.jsonl"),
  },
  { requiredKeys: ["dt", "op"] },
);
/** The shared op model plus `newSession` (~4% of ops). */
const fileOpArb: fc.Arbitrary<FileOp> = fc.oneof(
  { arbitrary: differentialOpArb as fc.Arbitrary<FileOp>, weight: 25 },
  { arbitrary: newSessionArb, weight: 1 },
);

beforeAll(async () => {
  RefSM = (await loadReference()).SessionManager as unknown as typeof RefSM;
  vi.useFakeTimers({ now: START, toFake: ["Date"] });
});
afterAll(() => {
  vi.useRealTimers();
});

/** What a session looked like when the manager left it (or at the end), for I5. */
interface Snapshot {
  file: string;
  entries: unknown;
  labels: (string | null)[];
  name: string | null;
  tree: unknown;
  leaf: string | null;
  context: unknown;
}

function snapshot(sm: FileManager): Snapshot {
  const entries = sm.getEntries();
  return {
    file: sm.getSessionFile() as string,
    entries: JSON.parse(JSON.stringify(entries)),
    labels: entries.map((e) => sm.getLabel(e.id) ?? null),
    name: sm.getSessionName() ?? null,
    tree: treeShape(new IdMap(), 0, sm.getTree()),
    leaf: sm.getLeafId(),
    context: JSON.parse(JSON.stringify(sm.buildSessionContext())),
  };
}

/** I5: reopening a file of ours gives back the session that wrote it. */
function expectReopenEqual(s: Snapshot, label: string): void {
  const entries = s.entries as { id: string; type: string; message?: unknown }[];
  expect(existsSync(s.file), `${label}: file exists iff conversation`).toBe(
    entries.some(isConversation),
  );
  if (!existsSync(s.file)) return;
  const again = SessionManager.open(s.file);
  try {
    expect(again.getLoadDiagnostics(), label).toEqual([]);
    expect(JSON.parse(JSON.stringify(again.getEntries())), label).toEqual(s.entries);
    expect(again.getLeafId(), `${label}: leaf = last entry`).toBe(entries.at(-1)?.id ?? null);
    expect(
      again.getEntries().map((e) => again.getLabel(e.id) ?? null),
      label,
    ).toEqual(s.labels);
    expect(again.getSessionName() ?? null, label).toBe(s.name);
    expect(treeShape(new IdMap(), 0, again.getTree()), label).toEqual(s.tree);
    if (s.leaf === null) again.resetLeaf();
    else again.branch(s.leaf);
    expect(JSON.parse(JSON.stringify(again.buildSessionContext())), label).toEqual(s.context);
  } finally {
    again.close();
  }
}

/** The current session's file exists iff its entries hold a conversation message (§6.2). */
function expectFileIffConversation(side: Side, label: string): void {
  const file = side.sm.getSessionFile() as string;
  expect(existsSync(file), `${label}: file exists iff conversation`).toBe(
    side.sm.getEntries().some(isConversation),
  );
}

function runSequence(ops: readonly FileOp[]): void {
  vi.setSystemTime(START);
  const root = tempDir("pi-conf-files-");
  const [dirA, dirB] = [join(root, "a"), join(root, "b")];
  const ours = SessionManager.create(CWD, dirA, { env: systemEnv });
  try {
    const snapshots = new Map<number, Snapshot>();
    const keep = () => snapshots.set(a.sessions.length - 1, snapshot(ours));
    const a: Side = new Side(ours, dirA, false, keep);
    const b = new Side(RefSM.create(CWD, dirB), dirB, true);
    const w: DifferentialWorld = {
      ours: a.view,
      ref: b.view,
      map: new IdMap(),
      clock: START,
      setClock: (ms) => vi.setSystemTime(ms),
    };
    ops.forEach((op, i) => {
      const label = `op #${i} ${op.op}`;
      if (op.op === "newSession") {
        w.clock += op.dt;
        vi.setSystemTime(w.clock);
        keep();
        const opts = op.parentSession ? { parentSession: op.parentSession } : undefined;
        ours.newSession(opts);
        b.sm.newSession(opts);
        a.track();
        b.track();
        expectSameView(w.map, observe(a.view, w.map, 0), observe(b.view, w.map, 1), label);
      } else {
        differentialStep(w, op, label);
      }
      expectFileIffConversation(a, `ours ${label}`);
      expectFileIffConversation(b, `reference ${label}`);
    });
    keep();
    ours.close();
    expect(strayFiles(dirA), "ours: nothing but session files after close()").toEqual([]);
    expect(strayFiles(dirB), "reference: nothing but session files").toEqual([]);
    const created = (side: 0 | 1) => w.map.all.map((c) => w.map.raw(side, c));
    const [na, nb] = [normaliseFiles(a, created(0)), normaliseFiles(b, created(1))];
    expect(na.listing, "file names").toEqual(nb.listing);
    expect(na.texts.length).toBe(nb.texts.length);
    na.texts.forEach((text, k) => {
      expect(text?.split("\n"), `session s${k} file (null: none)`).toEqual(
        nb.texts[k]?.split("\n"),
      );
    });
    for (const [k, s] of snapshots) expectReopenEqual(s, `reopen s${k}`);
  } finally {
    ours.close();
    removeTempDir(root);
  }
}

const user = (content: string): DifferentialOp => ({
  dt: 1,
  op: "appendMessage",
  message: { role: "user", content, timestamp: 1 },
});

describe("file conformance vs reference 1.6.0 (SPEC §6, §9; I5)", () => {
  it(`random op sequences leave identical files (${settings.numRuns} runs, up to 40 ops each)`, () => {
    fc.assert(
      fc.property(fc.array(fileOpArb, { minLength: 1, maxLength: 40, size: "max" }), runSequence),
      settings,
    );
  });

  it("hand-written: setup-only entries, first write, branched sessions written and pending (W24 excused)", () => {
    runSequence([
      { dt: 0, op: "appendModelChange", provider: "anthropic", modelId: "m1" },
      { dt: 1, op: "appendThinkingLevelChange", level: "high" },
      { dt: 1, op: "appendCustomEntry", customType: "ext", data: { a: 1 } },
      // W24: branch a session that was never written; then give the branch a conversation.
      { dt: 1, op: "createBranchedSession", target: { pick: 1 } },
      user("q1"),
      { dt: 1, op: "appendLabelChange", target: { pick: 3 }, label: "start" },
      { dt: 1, op: "appendSessionInfo", name: " Name " },
      user("q2"),
      // Branch of a written session with a conversation: written at once, parentSession set.
      { dt: 1, op: "createBranchedSession", target: { pick: 3 } },
      { dt: 1, op: "newSession", parentSession: "/elsewhere/parent.jsonl" },
      { dt: 1, op: "appendCustomEntry", customType: "x", data: null },
      user("q3"),
      { dt: 1, op: "branchWithSummary", target: { pick: 8 }, summary: "s", extras: {} },
      { dt: 1, op: "resetLeaf" },
      user("q4"),
      { dt: 1, op: "newSession" },
    ]);
  });
});
