/**
 * Properties of the event bus over random operation sequences: the events alone are enough
 * to follow the session (every appended entry, in order, and the leaf), each event is seen
 * after its commit, and a projection added at any point agrees with its replay (I6).
 */
import {
  type AgentMessage,
  createDeterministicEnv,
  defineProjection,
  replayProjection,
  type SessionEntry,
  type SessionEventMap,
  SessionManager,
} from "@pi-sessions/core";
import { fcOptions } from "@pi-sessions/test-utils";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

/** A deterministic env: `stepMs` 0 gives every entry the same timestamp. */
const envSpec = fc.record({
  seed: fc.integer({ min: 1, max: 0x7fffffff }),
  stepMs: fc.constantFrom(0, 1, 1000),
});

/** One manager call as data: `kind` picks the call (branch moves weighted double), `n` a target. */
type Op = { kind: number; n: number };
const ops = (maxLength: number): fc.Arbitrary<Op[]> =>
  fc.array(fc.record({ kind: fc.nat(13), n: fc.nat(60) }), { maxLength, size: "medium" });

/**
 * Runs one call of every entry-appending and leaf-moving kind; a call whose target does not
 * exist yet does nothing. Every kind matters here only through the events it emits.
 */
function applyOp(sm: SessionManager, { kind, n }: Op): void {
  const ids = sm.getEntries().map((e) => e.id);
  const some = ids.length > 0 ? (ids[n % ids.length] as string) : undefined;
  const text = `op ${kind} ${n}`;
  const message = (role: string) => ({ role, content: text, timestamp: n }) as AgentMessage;
  switch (kind) {
    case 0:
      sm.appendMessage(message("user"));
      return;
    case 1:
      sm.appendMessage(message("custom"));
      return;
    case 2:
      sm.appendThinkingLevelChange(n % 2 ? "high" : "off");
      return;
    case 3:
      sm.appendModelChange("anthropic", `m${n % 3}`);
      return;
    case 4:
      sm.appendCompaction(`S ${n}`, n % 4 === 0 ? null : (some ?? null), 100);
      return;
    case 5:
      sm.appendCustomEntry("ext", { n });
      return;
    case 6:
      sm.appendCustomMessageEntry("ext", text, n % 2 === 0);
      return;
    case 7:
      if (some !== undefined) sm.appendLabelChange(some, n % 3 ? `L${n}` : undefined);
      return;
    case 8:
      sm.appendSessionInfo(n % 2 ? " name\none " : "two");
      return;
    case 9: {
      // Only user, assistant and tool-result messages carry editable model content.
      const target = sm.getBranch().find((e) => e.type === "message" && e.message.role === "user");
      if (target) sm.appendContextEdit(target.id, n % 2 ? null : { content: `edited ${n}` });
      return;
    }
    case 10:
    case 11:
      if (some !== undefined) sm.branch(some);
      return;
    case 12:
      sm.resetLeaf();
      return;
    default:
      sm.branchWithSummary(n % 3 === 0 ? null : (some ?? null), `B ${n}`);
  }
}

/** Counts entries per type and remembers the last parent seen (order-sensitive). */
const typeCounts = defineProjection<Readonly<Record<string, number>>>({
  name: "type-counts",
  init: () => ({}),
  apply: (s, e, ctx) => ({
    ...s,
    [e.type]: (s[e.type] ?? 0) + 1,
    parentKnown: (s.parentKnown ?? 0) + (e.parentId && ctx.getEntry(e.parentId) ? 1 : 0),
  }),
});

const settings = fcOptions(300);

describe("bus properties", () => {
  it(`events replay the session: appended entries in order and the leaf after every op (${settings.numRuns} runs)`, () => {
    fc.assert(
      fc.property(envSpec, ops(30), fc.nat(30), (e, list, addAt) => {
        const sm = SessionManager.inMemory("/tmp/p", { env: createDeterministicEnv(e) });
        const appended: SessionEntry[] = [];
        let leaf: string | null = sm.getLeafId();
        const afterCommit: boolean[] = [];
        sm.events.on("entryAppended", ({ entry, leafId }: SessionEventMap["entryAppended"]) => {
          appended.push(entry);
          afterCommit.push(sm.getEntry(entry.id) === entry);
          leaf = leafId;
        });
        // A handler's throw would be isolated by the bus, so mismatches are counted instead.
        let wrongFrom = 0;
        sm.events.on("leafMoved", ({ from, to }) => {
          if (from !== leaf) wrongFrom++;
          leaf = to;
        });
        list.forEach((o, i) => {
          if (i === addAt) sm.addProjection(typeCounts);
          applyOp(sm, o);
          expect(leaf).toBe(sm.getLeafId());
        });
        expect(appended).toEqual(sm.getEntries());
        expect(afterCommit.every(Boolean)).toBe(true);
        expect(wrongFrom).toBe(0);
        if (addAt < list.length) {
          expect(sm.getProjectionState("type-counts")).toEqual(
            replayProjection(typeCounts, sm.getEntries()),
          );
        }
      }),
      settings,
    );
  });
});
