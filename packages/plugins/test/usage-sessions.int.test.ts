import { readdirSync } from "node:fs";
import { join } from "node:path";
import { loadEntriesFromFile, type SessionEntry, SessionManager } from "@pi-sessions/core";
import { computeSessionsUsageTotals, computeUsageTotals } from "@pi-sessions/plugins";
import { describe, expect, it } from "vitest";
import { assistant, tempDir, usage, user } from "./usage-fixtures.js";
import { naiveTotals } from "./usage-oracle.js";

function loadDir(dir: string) {
  return readdirSync(dir)
    .filter((f) => f.endsWith(".jsonl"))
    .map((f) => ({ path: join(dir, f), entries: loadEntriesFromFile(join(dir, f)) }));
}

/** The records a manager appended after `before` entries (its own new work). */
function appendedSince(sm: SessionManager, before: number): SessionEntry[] {
  return sm.getEntries().slice(before);
}

describe("computeSessionsUsageTotals over a directory with forks (real forkFrom / createBranchedSession files)", () => {
  it("counts each copied record once and every new record once", () => {
    const dir = tempDir();
    const sm = SessionManager.create("/proj", dir);
    const q = sm.appendMessage(user("q"));
    sm.appendMessage(assistant("a1", usage(1)));
    sm.appendUsage("warm", "openai", "gpt-5", usage(2));
    const mid = sm.getLeafId() as string;
    sm.appendMessage(assistant("a2", usage(3)));
    sm.branchWithSummary(q, "left", undefined, false, usage(4));
    sm.appendMessage(assistant("a3", usage(5)));
    const source = sm.getSessionFile() as string;
    const original = sm.getEntries();

    // A fork copies every record with the same ids, then does its own work.
    const fork = SessionManager.forkFrom(source, "/proj", dir);
    const forkBefore = fork.getEntries().length;
    fork.appendMessage(assistant("f1", usage(6)));
    const forkNew = appendedSince(fork, forkBefore);

    // createBranchedSession copies one path with new parentIds, then the manager goes on.
    sm.createBranchedSession(mid);
    const branchedBefore = sm.getEntries().length;
    sm.appendMessage(assistant("b1", usage(7)));
    const branchedNew = appendedSince(sm, branchedBefore);
    sm.close();
    fork.close();

    const sessions = loadDir(dir);
    expect(sessions).toHaveLength(3);
    const result = computeSessionsUsageTotals(sessions);
    const expected = naiveTotals([...original, ...forkNew, ...branchedNew]);
    expect(result.total.records).toBe(expected.records);
    expect(result.total.input).toBe(expected.input);
    expect(result.total.cacheWrite).toBe(expected.cacheWrite);
    expect(result.total.cost.total).toBeCloseTo(expected.cost.total, 12);
    expect(Object.keys(result.total.byModel).sort()).toEqual(Object.keys(expected.byModel).sort());

    // Without the dedupe the copies would count again: the naive per-file sum is larger.
    const naivePerFile = naiveTotals(sessions.flatMap((s) => s.entries));
    expect(naivePerFile.records).toBe(expected.records + 5 + 2);
    const copied = result.sessions.map((s) => s.copiedRecords).sort();
    expect(copied).toEqual([0, 2, 5]);
    // Each file's own totals are what computeUsageTotals gives for it alone.
    for (const s of result.sessions) {
      const alone = sessions.find((x) => x.path === s.path)?.entries ?? [];
      expect(s.own).toEqual(computeUsageTotals(alone).tree);
    }
    // Parents come first (header timestamp), and the source counts all its records.
    const first = result.sessions[0];
    expect(first?.path).toBe(source);
    expect(first?.unique.records).toBe(5);
    expect(result.sessions.slice(1).every((s) => s.parentSession === source)).toBe(true);
  });

  it("the total does not depend on the input order", () => {
    const dir = tempDir();
    const sm = SessionManager.create("/proj", dir);
    sm.appendMessage(user("q"));
    sm.appendMessage(assistant("a", usage(1)));
    const fork = SessionManager.forkFrom(sm.getSessionFile() as string, "/proj", dir);
    fork.appendMessage(assistant("f", usage(2)));
    sm.close();
    fork.close();
    const sessions = loadDir(dir);
    const a = computeSessionsUsageTotals(sessions).total;
    const b = computeSessionsUsageTotals([...sessions].reverse()).total;
    expect(a.records).toBe(2);
    expect(b.records).toBe(2);
    expect(b.input).toBe(a.input);
    expect(b.cost.total).toBeCloseTo(a.cost.total, 12);
  });

  it("unrelated sessions with identical usage are not taken for copies", () => {
    const dir = tempDir();
    for (let i = 0; i < 2; i++) {
      const sm = SessionManager.create("/proj", dir);
      sm.appendMessage(user("same"));
      sm.appendMessage(assistant("same", usage(1)));
      sm.close();
    }
    const result = computeSessionsUsageTotals(loadDir(dir));
    expect(result.total.records).toBe(2);
    expect(result.sessions.map((s) => s.copiedRecords)).toEqual([0, 0]);
  });

  it("records repeated inside one file all count (the rule dedupes across files only)", () => {
    const e = {
      type: "usage",
      id: "u1",
      parentId: null,
      timestamp: "2025-01-01T00:00:00.000Z",
      kind: "k",
      provider: "p",
      model: "m",
      usage: usage(1),
    };
    const header = { type: "session", id: "s", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/" };
    const result = computeSessionsUsageTotals([
      { path: "a", entries: [header, e, e] as never },
      { path: "b", entries: [{ ...header, id: "t" }, e] as never },
    ]);
    expect(result.sessions.map((s) => [s.unique.records, s.copiedRecords])).toEqual([
      [2, 0],
      [0, 1],
    ]);
  });
});
