import { join } from "node:path";
import { type FileEntry, loadEntriesFromFile, SessionManager } from "@pi-sessions/core";
import { renderBranch, renderTree } from "@pi-sessions/plugins";
import { describe, expect, it } from "vitest";
import { CORPUS_DIR, corpusCopy, corpusFiles } from "./usage-fixtures.js";

/** Entry ids in the order their titles appear (a heading or one-liner ending "· `id`"). */
function titleIds(out: string): string[] {
  return [...out.matchAll(/^(?:> )*(?:### |_).*· `([^`]+)`$/gm)].map((m) => m[1] as string);
}

const branched = () => loadEntriesFromFile(join(CORPUS_DIR, "ref-1.6-branched.jsonl"));
const t = (s: number) => `2025-01-01T00:00:${String(s).padStart(2, "0")}.000Z`;
const rec = (id: string, parentId: string | null, s = 0, extra: object = {}) => ({
  type: "custom",
  customType: "n",
  data: id,
  id,
  parentId,
  timestamp: t(s),
  ...extra,
});

describe("renderBranch", () => {
  it("renders exactly the path root → leaf, in order, with branch points and labels", () => {
    const records = branched();
    const { file, dir } = corpusCopy("ref-1.6-branched.jsonl");
    const sm = SessionManager.open(file, dir);
    const out = renderBranch(records);
    expect(titleIds(out)).toEqual(sm.getBranch().map((e) => e.id));
    expect(out).toContain("_1 other branch continues from here_");
    // The manager and its records give the same transcript.
    expect(renderBranch(sm)).toBe(out);
    const other = renderBranch(sm, "37ac9ec8");
    expect(titleIds(other)).toEqual(sm.getBranch("37ac9ec8").map((e) => e.id));
    expect(other).toContain(
      "Added bench/store.bench.ts.\n\n_usage: 25 in · 70 out · 2,600 cache read · $0.0040_\n\n_label: bench added_",
    );
  });

  it("null leaf renders nothing; an unknown leaf is an error", () => {
    expect(renderBranch(branched(), null)).toBe("");
    expect(() => renderBranch(branched(), "nope")).toThrow("Entry nope not found");
    expect(renderBranch([])).toBe("");
  });

  it("a leaf with children says how many branches continue past it", () => {
    const records = [rec("a", null), rec("b", "a"), rec("c", "a")] as FileEntry[];
    expect(renderBranch(records, "a")).toContain("_2 branches continue from here_");
  });

  it("renders every corpus session's branch (v1 files through a migrated copy)", () => {
    for (const name of corpusFiles()) {
      const { file, dir } = corpusCopy(name);
      const sm = SessionManager.open(file, dir);
      const out = renderBranch(sm);
      expect(titleIds(out)).toEqual(sm.getBranch().map((e) => e.id));
    }
  });
});

describe("renderTree", () => {
  it("shows every entry once, branch markers, labels and the current leaf", () => {
    const records = branched();
    const out = renderTree(records);
    const ids = records.slice(1).map((e) => (e as { id: string }).id);
    expect(titleIds(out).sort()).toEqual([...ids].sort());
    expect(out).toContain("> _branch 1 of 2 from `95532bb7`_");
    expect(out).toContain("> _branch 2 of 2 from `95532bb7`_");
    expect(out.match(/current leaf/g)).toHaveLength(1);
    expect(out).toContain("_label: bench added_");
    // Sibling branches are separate quotes: a blank line (not ">") before the second marker.
    expect(out).toContain("_label: bench added_\n\n> _branch 2 of 2");
    const text = renderTree(records, { format: "text" });
    expect(text).toContain("| (branch 1 of 2 from 95532bb7)");
  });

  it("children are ordered by timestamp (stable), unparseable timestamps last", () => {
    const records = [
      rec("root", null, 0),
      rec("late", "root", 9),
      rec("bad", "root", 0, { timestamp: "not a time" }),
      rec("early", "root", 1),
    ] as FileEntry[];
    expect(titleIds(renderTree(records))).toEqual(["root", "early", "late", "bad"]);
  });

  it("damaged records: orphans, cycles, reused ids and id-less records all appear", () => {
    const records = [
      rec("a", null),
      rec("orphan", "missing"),
      rec("x", "y"),
      rec("y", "x"),
      rec("a", null, 1, { data: "shadowed" }),
      { type: "custom", customType: "n", parentId: null, timestamp: t(0) },
      "not an entry",
    ] as unknown as FileEntry[];
    const out = renderTree(records);
    expect(out).toContain("_root 1 of 2_");
    expect(out).toContain("_entries in a parent cycle, shown from its first entry_");
    expect(out).toContain("_3 records outside the tree (reused ids or no id)_");
    expect(out).toContain('"shadowed"');
    expect(out).toContain("Unreadable record");
    // Roots in file order of their indexed (last) occurrence, then the cycle, broken at its
    // first member in file order (SPEC §7.8); the shadowed first "a" is listed at the end.
    expect(titleIds(out)).toEqual(["orphan", "a", "x", "y", "a"]);
  });

  it("deep trees neither overflow the stack nor indent without bound", () => {
    const chain: FileEntry[] = [];
    for (let i = 0; i < 20_000; i++)
      chain.push(rec(`c${i}`, i === 0 ? null : `c${i - 1}`) as FileEntry);
    expect(titleIds(renderTree(chain, { showIds: true }))).toHaveLength(20_000);
    // 2,000 nested branch points: each node has a dead-end child and a continuing child.
    const forked: FileEntry[] = [rec("n0", null) as FileEntry];
    for (let i = 1; i <= 2000; i++) {
      forked.push(
        rec(`d${i}`, `n${i - 1}`, 0) as FileEntry,
        rec(`n${i}`, `n${i - 1}`, 1) as FileEntry,
      );
    }
    const out = renderTree(forked, { maxIndent: 4 });
    expect(titleIds(out)).toHaveLength(forked.length);
    const deepest = Math.max(
      ...out.split("\n").map((l) => (l.match(/^(> )*/)?.[0].length ?? 0) / 2),
    );
    expect(deepest).toBe(4);
    expect(out).toContain("· depth 2,000_");
  });

  it("a manager and its records render the same tree", () => {
    const { file, dir } = corpusCopy("ref-1.6-branched.jsonl");
    const sm = SessionManager.open(file, dir);
    expect(renderTree(sm)).toBe(renderTree(branched()));
  });
});
