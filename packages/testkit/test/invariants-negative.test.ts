/**
 * Each invariant checker catches a hand-broken state (at least one negative case per
 * invariant, I1–I10), passes the same state unbroken, and never throws.
 */
import { createDeterministicEnv, type SessionEntry, SessionManager } from "@pi-sessions/core";
import { migrateRecords } from "@pi-sessions/core/internal";
import { afterAll, describe, expect, it } from "vitest";
import {
  type AppendableSession,
  checkI1Header,
  checkI2UniqueIdsAndParents,
  checkI3BranchPaths,
  checkI4TreeCoverage,
  checkI5ReopenEquals,
  checkI5RoundTrip,
  checkI5TextRoundTrip,
  checkI6FoldLaws,
  checkI7MigrateRecords,
  checkI7MigrationFile,
  checkI8ContextFromPath,
  checkI9SessionSnapshots,
  checkI9Snapshots,
  checkI10DamageRecovery,
  createFileHarness,
  createMemoryHarness,
  type EntryView,
  type SessionHarness,
  type TreeNodeView,
  type Violation,
} from "../src/internal.js";
import { FIXTURE, GARBAGE_FIXTURE, LEGACY_V1, wrap } from "./invariants-fixtures.js";

const files = createFileHarness(SessionManager);
const memory = createMemoryHarness({ SessionManager });
afterAll(() => files.dispose());

const load = (text = FIXTURE) => SessionManager.fromJsonl(text);
const messages = (vs: readonly Violation[]) => vs.map((v) => v.message).join(" | ");
const ids = (vs: readonly Violation[]) => vs.map((v) => v.entryId);

describe("negative: each checker catches a hand-broken state", () => {
  it("I1: garbage before the header, a missing version, a second header", () => {
    expect(checkI1Header(FIXTURE)).toEqual([]);
    expect(checkI1Header(`garbage\n${FIXTURE}`)).toContainEqual(
      expect.objectContaining({ invariant: "I1", line: 1 }),
    );
    const [header = "", ...rest] = FIXTURE.split("\n");
    const noVersion = [header.replace('"version":3,', ""), ...rest].join("\n");
    expect(messages(checkI1Header(noVersion))).toMatch(/numeric version/);
    const twice = `${FIXTURE}${header}\n`;
    expect(checkI1Header(twice)).toEqual([
      { invariant: "I1", message: "a second session header", line: FIXTURE.split("\n").length },
    ]);
  });

  it("I2: a duplicate id, a dangling parent, a self-parent, a two-entry cycle", () => {
    const entries = load().getEntries();
    expect(checkI2UniqueIdsAndParents(entries)).toEqual([]);
    const [first, second] = entries as [SessionEntry, SessionEntry];
    const broken: EntryView[] = [
      ...entries,
      { ...second },
      { type: "custom", id: "dangle", parentId: "nowhere", timestamp: first.timestamp },
      { type: "custom", id: "self", parentId: "self", timestamp: first.timestamp },
      { type: "custom", id: "p", parentId: "q", timestamp: first.timestamp },
      { type: "custom", id: "q", parentId: "p", timestamp: first.timestamp },
    ];
    const found = checkI2UniqueIdsAndParents({ entries: broken });
    expect(ids(found)).toEqual(expect.arrayContaining([second.id, "dangle", "self", "p"]));
    expect(messages(found)).toMatch(
      /used twice.*does not exist.*own parent.*cycle p → q|cycle q → p/,
    );
  });

  it("I3: a branch that skips a step, starts mid-way, or a leaf that does not exist", () => {
    const sm = load();
    expect(checkI3BranchPaths(sm)).toEqual([]);
    const skip = wrap(sm, { getBranch: (id) => sm.getBranch(id).filter((_, i) => i !== 1) });
    expect(messages(checkI3BranchPaths(skip, { ids: ["a2"] }))).toMatch(/is not a child of u1/);
    const headless = wrap(sm, { getBranch: (id) => sm.getBranch(id).slice(1) });
    expect(messages(checkI3BranchPaths(headless, { ids: ["u3"] }))).toMatch(
      /starts at a1, whose parent u1 exists/,
    );
    const lost = wrap(sm, { getLeafId: () => "ghost" });
    expect(checkI3BranchPaths(lost, { ids: [] })).toContainEqual(
      expect.objectContaining({
        entryId: "ghost",
        message: "the leaf ghost is not an existing id",
      }),
    );
  });

  it("I4: a missing node, a node twice, children out of time order, a wrong label", () => {
    const sm = load();
    expect(checkI4TreeCoverage(sm)).toEqual([]);
    const drop = (nodes: readonly TreeNodeView[], id: string): TreeNodeView[] =>
      nodes.filter((n) => n.entry.id !== id).map((n) => ({ ...n, children: drop(n.children, id) }));
    expect(
      checkI4TreeCoverage(wrap(sm, { getTree: () => drop(sm.getTree(), "x1") })),
    ).toContainEqual(
      expect.objectContaining({ entryId: "x1", message: "the entry is missing from the tree" }),
    );
    const root = sm.getTree()[0] as TreeNodeView;
    expect(messages(checkI4TreeCoverage(wrap(sm, { getTree: () => [root, root] })))).toMatch(
      /appears twice/,
    );
    // a1 has two children: u2 (10:00:02) and b1 (10:00:07); reversed they are out of order.
    const reorder = (nodes: readonly TreeNodeView[]): TreeNodeView[] =>
      nodes.map((n) => ({
        ...n,
        children: n.entry.id === "a1" ? [...n.children].reverse() : reorder(n.children),
      }));
    expect(
      messages(checkI4TreeCoverage(wrap(sm, { getTree: () => reorder(sm.getTree()) }))),
    ).toMatch(/children of a1: u2 comes after b1 but sorts before it/);
    expect(checkI4TreeCoverage(wrap(sm, { getLabel: () => "wrong" }))).toContainEqual(
      expect.objectContaining({
        entryId: "u1",
        message: "getLabel disagrees with the labels in the file",
      }),
    );
  });

  it("I5: a changed entry on reopen, a serializer that drops lines, a harness that loses the last line", () => {
    expect(checkI5ReopenEquals(load(), load())).toEqual([]);
    const changed = FIXTURE.replace('"content":"q3"', '"content":"Q3"');
    expect(checkI5ReopenEquals(load(), load(changed))).toContainEqual(
      expect.objectContaining({ invariant: "I5", entryId: "u3" }),
    );
    const recordsOnly = {
      parse: (text: string) => text.split("\n").filter((l) => l.startsWith("{")),
      serialize: (lines: string[]) => lines.map((l) => `${l}\n`).join(""),
    };
    expect(checkI5TextRoundTrip(FIXTURE, recordsOnly)).toEqual([]);
    expect(checkI5TextRoundTrip(GARBAGE_FIXTURE, recordsOnly)).toEqual([
      {
        invariant: "I5",
        message: "serialize(parse(text)) differs from the text at line 3",
        line: 3,
      },
    ]);
    const lossy: SessionHarness = {
      name: "lossy",
      load: (text) => files.load(text.split("\n").slice(0, -2).join("\n")),
      withFile: (text, act) => files.withFile(text, act),
    };
    expect(checkI5RoundTrip(files, FIXTURE)).toEqual([]);
    expect(messages(checkI5RoundTrip(lossy, FIXTURE))).toMatch(/11 entries became 10/);
  });

  it("I6: a fold that mutates its state in place, and a replay that disagrees", () => {
    const entries = load().getEntries();
    const pure = { init: () => [] as string[], apply: (s: string[], e: EntryView) => [...s, e.id] };
    expect(checkI6FoldLaws(pure, entries, { replay: (es) => es.map((e) => e.id) })).toEqual([]);
    const mutating = {
      name: "mutating",
      init: () => [] as string[],
      apply: (s: string[], e: EntryView) => {
        s.push(e.id);
        return s;
      },
    };
    expect(messages(checkI6FoldLaws(mutating, entries))).toMatch(/mutating: /);
    const offByOne = (es: readonly EntryView[]) => es.slice(1).map((e) => e.id);
    expect(messages(checkI6FoldLaws(pure, entries, { replay: offByOne }))).toMatch(
      /replay of the first 1 entries/,
    );
  });

  it("I7: a migration that reuses ids, one that is not idempotent, a rewrite that drops garbage", () => {
    const records = LEGACY_V1;
    const ours = (rs: Record<string, unknown>[]) =>
      migrateRecords(rs, createDeterministicEnv()).records;
    expect(checkI7MigrateRecords(ours, records)).toEqual([]);
    const sameIds = (rs: Record<string, unknown>[]) =>
      ours(rs).map((r) => ((r as { type: string }).type === "session" ? r : { ...r, id: "same" }));
    expect(messages(checkI7MigrateRecords(sameIds, records))).toMatch(/new id same collides/);
    let runs = 0;
    const drifting = (rs: Record<string, unknown>[]) =>
      ours(rs).map((r) => ({ ...r, run: runs++ }));
    expect(messages(checkI7MigrateRecords(drifting, records))).toMatch(
      /migrating twice changes the result/,
    );
    const legacyText = `${JSON.stringify(records[0])}\nnot json\n${records
      .slice(1)
      .map((r) => JSON.stringify(r))
      .join("\n")}\n`;
    expect(checkI7MigrationFile(files, legacyText)).toEqual([]);
    const dropper: SessionHarness = {
      name: "dropper",
      load: (t) => files.load(t),
      withFile: (t, act) => {
        const out = files.withFile(t, act);
        return { ...out, text: out.text.replace("not json\n", "") };
      },
    };
    expect(checkI7MigrationFile(dropper, legacyText)).toContainEqual(
      expect.objectContaining({
        message: "a line that is not a record was not kept verbatim",
        line: 2,
      }),
    );
  });

  it("I8: a context that ignores the compaction, or takes an entry off the path", () => {
    const sm = load();
    sm.branch("u3");
    expect(checkI8ContextFromPath(sm)).toEqual([]);
    const uncompacted = wrap(sm, { buildContextEntries: () => sm.getBranch("u3") });
    expect(checkI8ContextFromPath(uncompacted)).toContainEqual(
      expect.objectContaining({
        entryId: "u1",
        message: expect.stringMatching(/before firstKeptEntryId of k1/),
      }),
    );
    const offPath = wrap(sm, {
      buildContextEntries: () => [...sm.buildContextEntries(), sm.getEntry("x1") as SessionEntry],
    });
    expect(checkI8ContextFromPath(offPath)).toContainEqual(
      expect.objectContaining({ entryId: "x1", message: "leaf u3: x1 is not on the leaf's path" }),
    );
  });

  it("I9: a manager that hands out its live entry array, a snapshot mutated in place", () => {
    expect(
      checkI9SessionSnapshots(load(), (s) =>
        s.appendMessage({ role: "user", content: "x", timestamp: 1 }),
      ),
    ).toEqual([]);
    const sm = load();
    const live = [...sm.getEntries()];
    const sharing: AppendableSession = wrap(sm, {
      getEntries: () => live,
      appendMessage: (m) => {
        const id = sm.appendMessage(m);
        live.push(sm.getEntry(id) as SessionEntry);
        return id;
      },
    });
    const found = checkI9SessionSnapshots(sharing, (s) =>
      s.appendMessage({ role: "user", content: "x", timestamp: 1 }),
    );
    expect(messages(found)).toMatch(/the snapshot changed/);
    const box = { n: 1 };
    expect(
      checkI9Snapshots(
        () => box,
        () => {
          box.n = 2;
        },
      ),
    ).toHaveLength(1);
  });

  it("I10: a loader that stops at the first bad line, one that cannot report, an append that rewrites", () => {
    const damaged = {
      jsonl: GARBAGE_FIXTURE,
      entries: load(GARBAGE_FIXTURE).getEntries(),
      expected: [{ kind: "invalid-json", line: 3 }],
    };
    expect(checkI10DamageRecovery(files, damaged)).toEqual([]);
    const stopsEarly: SessionHarness = {
      name: "stops early",
      load: (t) => load(t.split("\n").slice(0, 2).join("\n")),
    };
    expect(messages(checkI10DamageRecovery(stopsEarly, damaged))).toMatch(
      /recovered 1 entries, expected 11/,
    );
    const silent: SessionHarness = {
      name: "silent",
      load: (t) => wrap(load(t), { getLoadDiagnostics: undefined }),
    };
    expect(messages(checkI10DamageRecovery(silent, damaged))).toMatch(/no getLoadDiagnostics/);
    const rewriter: SessionHarness = {
      name: "rewriter",
      load: (t) => files.load(t),
      withFile: (t, act) => {
        const out = files.withFile(t, act);
        return { ...out, text: out.text.replace("garbage line\n", "") };
      },
    };
    const found = checkI10DamageRecovery(rewriter, damaged);
    expect(messages(found)).toMatch(/the append rewrote or lost part of the damaged file/);
    expect(messages(found)).toMatch(/after append: invalid-json was not reported/);
    expect(checkI10DamageRecovery(memory, damaged)).toEqual([]);
  });
});
