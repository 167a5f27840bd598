import {
  createDeterministicEnv,
  defineDraftProjection,
  replayProjection,
  type SessionEntry,
  SessionManager,
} from "@pi-sessions/core";
import { produce } from "immer";
import { describe, expect, it } from "vitest";

/** Counts messages per role, keeps the custom entries seen: a typical small plugin state. */
const roles = defineDraftProjection<{
  byRole: Record<string, number>;
  lastCustom?: string;
  customs: SessionEntry[];
}>({
  name: "roles",
  init: () => ({ byRole: {}, customs: [] }),
  apply(draft, entry) {
    if (entry.type === "message") {
      const role = entry.message.role;
      draft.byRole[role] = (draft.byRole[role] ?? 0) + 1;
    } else if (entry.type === "custom") {
      draft.lastCustom = entry.customType;
      draft.customs.push(entry);
    }
    return undefined;
  },
});

describe("defineDraftProjection (immer-backed plugin projections)", () => {
  it("folds incrementally in a manager and equals its replay (I6: incremental state = replay)", () => {
    const sm = SessionManager.inMemory("/tmp/p", {
      env: createDeterministicEnv(),
      projections: [roles],
    });
    sm.appendMessage({ role: "user", content: "a", timestamp: 1 });
    const before = sm.getProjectionState<ReturnType<typeof roles.init>>("roles");
    sm.appendCustomEntry("todo", { n: 1 });
    sm.appendMessage({ role: "user", content: "b", timestamp: 2 });
    const after = sm.getProjectionState<ReturnType<typeof roles.init>>("roles");
    expect(after?.byRole.user).toBe(2);
    expect(after?.lastCustom).toBe("todo");
    // The earlier state is untouched (I9: a snapshot before an append is unchanged after it).
    expect(before?.byRole.user).toBe(1);
    expect(before?.lastCustom).toBeUndefined();
    expect(before?.customs).toEqual([]);
    // Nothing is frozen: not the state, not the stored entry it holds.
    expect(Object.isFrozen(after)).toBe(false);
    expect(after?.customs[0]).toBe(sm.getEntries()[1]);
    expect(Object.isFrozen(sm.getEntries()[1])).toBe(false);
    const replayed = replayProjection(roles, sm.getEntries());
    expect(replayed).toEqual(after);
  });

  it("importing core changes nothing in the host's immer: Maps need its own enableMapSet()", () => {
    // Core is imported above; had it called immer's global enableMapSet(), this would pass.
    expect(() =>
      produce(new Map([["a", 1]]), (draft) => {
        draft.set("b", 2);
      }),
    ).toThrow(/enableMapSet/);
  });

  it("loads with the projection folded over the loaded entries", () => {
    const sm = SessionManager.inMemory("/tmp/p");
    sm.appendMessage({ role: "user", content: "a", timestamp: 1 });
    const header = sm.getHeader();
    const again = SessionManager.inMemory("/tmp/p", { projections: [roles] }, [
      ...(header ? [header] : []),
      ...sm.getEntries(),
    ]);
    expect(again.getProjectionState<ReturnType<typeof roles.init>>("roles")?.byRole.user).toBe(1);
  });
});
