/**
 * The model catches broken implementations: each mutant is our SessionManager with one
 * method changed the way a plausible bug would, and the model-based run must fail on it with
 * a shrunk counterexample naming the difference.
 */
import { SessionManager } from "@pi-sessions/core";
import { describe, expect, it } from "vitest";
import { runSessionModel, type SessionManagerLike } from "../src/internal.js";

type Patch = (sm: SessionManagerLike) => Partial<SessionManagerLike>;

/** Our manager with the methods of `patch` replaced (everything else delegates). */
function mutant(patch: Patch): () => SessionManagerLike {
  return () => {
    const sm = SessionManager.inMemory("/work/project") as unknown as SessionManagerLike;
    const over = patch(sm) as Record<string | symbol, unknown>;
    return new Proxy(sm, {
      get(target, key) {
        if (key in over) return over[key];
        const value = Reflect.get(target, key);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
  };
}

const mutants: [string, Patch, RegExp][] = [
  [
    "session name not sanitised",
    (sm) => ({ appendSessionInfo: (n) => sm.appendSessionInfo(`${n}!`) }),
    /entry #/,
  ],
  [
    "a null label does not clear",
    (sm) => ({ appendLabelChange: (t, l) => sm.appendLabelChange(t, l === null ? "kept" : l) }),
    /label/,
  ],
  [
    "custom messages missing from the context",
    (sm) => ({
      buildSessionContext: () => {
        const c = sm.buildSessionContext();
        return {
          ...c,
          messages: c.messages.filter((m) => (m as { role?: string }).role !== "custom"),
        };
      },
    }),
    /buildSessionContext/,
  ],
  ["roots in reverse order", (sm) => ({ getTree: () => [...sm.getTree()].reverse() }), /getTree/],
  [
    "branch() ignores unknown ids",
    (sm) => ({
      branch: (id) => {
        if (sm.getEntry(id)) sm.branch(id);
      },
    }),
    /expected error "Entry .* not found"/,
  ],
  [
    "getChildren sorted by timestamp descending",
    (sm) => ({ getChildren: (id) => [...sm.getChildren(id)].reverse() }),
    /getChildren/,
  ],
  [
    "compaction keeps the given id even when null",
    (sm) => ({ appendCompaction: (s, k, t) => sm.appendCompaction(s, k ?? "none", t) }),
    /entry #|firstKept/,
  ],
];

describe("the model catches broken implementations", () => {
  it.each(mutants)("%s", (_, patch, difference) => {
    const report = runSessionModel(mutant(patch), { numRuns: 300, seed: 1 });
    expect(report.failed).toBe(true);
    expect(report.error).toMatch(difference);
    // Shrinking keeps the counterexample short.
    expect(report.counterexample?.split("),").length ?? 99).toBeLessThanOrEqual(6);
  });

  it("a factory without the API fails with the missing methods named", () => {
    const report = runSessionModel(() => ({ appendMessage: () => "x" }), { numRuns: 5 });
    expect(report.failed).toBe(true);
    expect(report.error).toMatch(/missing appendThinkingLevelChange, .*buildContextEntries/);
  });
});
