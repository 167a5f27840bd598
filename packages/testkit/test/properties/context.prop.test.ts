/**
 * I8 context (SPEC §8): `buildContextEntries` is drawn from the leaf's path in path order and
 * nothing before `firstKeptEntryId` survives the last compaction; the manager's incrementally
 * cached context equals the pure recomputation `buildSessionContext(getEntries(), leafId)`
 * after any sequence of appends, branches and resets, whether or not it was queried between.
 */
import {
  buildContextEntries,
  buildSessionContext,
  type CompactionEntry,
  type ContextEditEntry,
  type SessionEntry,
  type SessionManager,
  sessionEntryToContextMessages,
} from "@pi-sessions/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { params, runs } from "../arbitraries-run.js";
import { anyLog, damagedLog, ID_POOL, validLog } from "./arbitraries.js";
import { applyOp, envSpec, loadManager, newManager, type Op, ops } from "./operations.js";
import { indexById, walkIds } from "./oracles.js";

const RUNS = runs(300);

const isSystem = (e: SessionEntry): boolean => e.type === "message" && e.message?.role === "system";

/** I8 for one path: the context entries are path entries in order, cut at the last compaction. */
function expectDrawnFromPath(out: readonly SessionEntry[], path: readonly SessionEntry[]): void {
  let c = -1;
  for (let i = 0; i < path.length; i++) if (path[i]?.type === "compaction") c = i;
  const rest = c < 0 ? out : out.slice(1);
  if (c >= 0) expect(out[0]).toBe(path[c]);
  // Drawn from the path, in path order.
  const positions = rest.map((e) => path.indexOf(e));
  expect(positions.every((p) => p >= 0)).toBe(true);
  for (let i = 1; i < positions.length; i++) {
    expect(positions[i]).toBeGreaterThan(positions[i - 1] as number);
  }
  if (c < 0) {
    expect(out).toEqual(path);
    return;
  }
  // Nothing before firstKeptEntryId (by path position) survives; everything after C stays.
  const compaction = path[c] as CompactionEntry;
  const kept = path.slice(0, c).findIndex((e) => e.id === compaction.firstKeptEntryId);
  for (const p of positions) if (p < c) expect(kept >= 0 && p >= kept).toBe(true);
  const before = kept < 0 ? [] : path.slice(kept, c).filter((e) => !isSystem(e));
  expect(rest).toEqual([...before, ...path.slice(c + 1)]);
}

const EDITABLE = ["user", "assistant", "toolResult", "custom"];

/**
 * SPEC §8.2 and §8.5 written plainly: settings over the whole path; each context entry's
 * messages, a compaction past index 0 giving none, the last edit of a target winning.
 */
function contextOracle(path: readonly SessionEntry[], contextEntries: readonly SessionEntry[]) {
  let thinkingLevel = "off";
  let model: { provider: string; modelId: string } | null = null;
  for (const e of path) {
    if (e.type === "thinking_level_change") thinkingLevel = e.thinkingLevel;
    if (e.type === "model_change") model = { provider: e.provider, modelId: e.modelId };
    if (e.type === "message" && e.message.role === "assistant") {
      model = { provider: e.message.provider, modelId: e.message.model };
    }
  }
  const edits = new Map<string, ContextEditEntry>();
  for (const e of contextEntries) if (e.type === "context_edit") edits.set(e.targetId, e);
  const messages = contextEntries.flatMap((e, i) => {
    if (e.type === "compaction" && i > 0) return [];
    const ms = sessionEntryToContextMessages(e);
    const edit = edits.get(e.id);
    if (!edit) return ms;
    if (edit.replacement === null) return [];
    const content = edit.replacement.content;
    return ms.map((m) => {
      if (!EDITABLE.includes(m.role)) return m;
      const blocks = typeof content === "string" && ["assistant", "toolResult"].includes(m.role);
      return { ...m, content: blocks ? [{ type: "text", text: content }] : content };
    });
  });
  return { messages, thinkingLevel, model };
}

/** The manager's context at its leaf equals the pure functions over its entries. */
function expectManagerContext(sm: SessionManager): void {
  const entries = sm.getEntries();
  const leaf = sm.getLeafId();
  expect(sm.buildSessionContext()).toEqual(buildSessionContext(entries, leaf));
  const contextEntries = sm.buildContextEntries();
  expect(contextEntries).toEqual(buildContextEntries(entries, leaf));
  const path = sm.getBranch();
  expectDrawnFromPath(contextEntries, path);
  expect(sm.buildSessionContext()).toEqual(contextOracle(path, contextEntries));
}

/** Runs the operations, comparing the context after each one that asks for it. */
function run(sm: SessionManager, list: readonly Op[]): void {
  for (const o of list) {
    applyOp(sm, o);
    if (o.query) expectManagerContext(sm);
  }
  expectManagerContext(sm);
  for (const id of indexById(sm.getEntries()).keys()) {
    sm.branch(id);
    expectManagerContext(sm);
  }
  sm.resetLeaf();
  expect(sm.buildSessionContext()).toEqual({ messages: [], thinkingLevel: "off", model: null });
}

describe("I8: context is drawn from the leaf's path and the cache agrees with a recomputation", () => {
  it(`fresh manager, random operations (numRuns ${RUNS})`, () => {
    fc.assert(
      fc.property(envSpec, ops(30), (env, list) => run(newManager(env), list)),
      params(RUNS),
    );
  });

  it(`loaded session (valid or damaged), random operations (numRuns ${RUNS})`, () => {
    const logs = fc.oneof(validLog(20), damagedLog(), damagedLog(true));
    fc.assert(
      fc.property(envSpec, logs, ops(20), (env, entries, list) => {
        run(loadManager(entries, env), list);
      }),
      params(RUNS),
    );
  });

  // The empty string is a valid JSON id that pi never writes but a hand-edited file may hold.
  it(`the manager's context methods agree at every leaf, the id "" included (numRuns ${RUNS})`, () => {
    fc.assert(
      fc.property(damagedLog(false, 8, [""]), (entries) => {
        const sm = loadManager(entries);
        const stored = sm.getEntries();
        for (const id of indexById(stored).keys()) {
          sm.branch(id);
          const contextEntries = buildContextEntries(stored, id);
          expect(sm.buildContextEntries()).toEqual(contextEntries);
          expect(sm.buildSessionProjection().entries.map((p) => p.sourceEntry)).toEqual(
            contextEntries,
          );
          expect(sm.buildSessionContext()).toEqual(buildSessionContext(stored, id));
        }
      }),
      params(RUNS),
    );
  });

  it(`the free functions follow §8.1 and §8.3 for any leaf (numRuns ${RUNS})`, () => {
    fc.assert(
      fc.property(anyLog, (entries) => {
        const byId = indexById(entries);
        const last = entries.at(-1);
        for (const leaf of [...ID_POOL, undefined, null]) {
          const start = leaf === null ? undefined : leaf && byId.has(leaf) ? leaf : last?.id;
          // §8.1: an unknown or undefined leaf walks from the last element (always indexed).
          const path = start === undefined ? [] : walkIds(byId, start).map((id) => byId.get(id));
          const out = buildContextEntries(entries, leaf);
          expectDrawnFromPath(out, path as SessionEntry[]);
          const expected = contextOracle(path as SessionEntry[], out);
          expect(buildSessionContext(entries, leaf)).toEqual(expected);
        }
      }),
      params(RUNS),
    );
  });
});
