/**
 * Properties of the event bus over random operation sequences: the events alone are enough
 * to follow the session (every appended entry, in order, and the leaf), each event is seen
 * after its commit, and a projection added at any point agrees with its replay (I6).
 */
import {
  defineProjection,
  replayProjection,
  type SessionEntry,
  type SessionEventMap,
} from "@pi-sessions/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { params, runs } from "../properties/arbitraries.js";
import { applyOp, envSpec, newManager, ops } from "../properties/operations.js";

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

describe("bus properties", () => {
  it("events replay the session: appended entries in order and the leaf after every op", () => {
    fc.assert(
      fc.property(envSpec, ops(30), fc.nat(30), (e, list, addAt) => {
        const sm = newManager(e);
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
      params(runs(300)),
    );
  });
});
