import {
  createDeterministicEnv,
  defineDraftProjection,
  replayProjection,
  SessionManager,
} from "@pi-sessions/core";
import { describe, expect, it } from "vitest";

/** Counts messages per role and remembers the last custom type: a typical small plugin state. */
const roles = defineDraftProjection<{ byRole: Map<string, number>; lastCustom?: string }>({
  name: "roles",
  init: () => ({ byRole: new Map() }),
  apply(draft, entry) {
    if (entry.type === "message") {
      const role = entry.message.role;
      draft.byRole.set(role, (draft.byRole.get(role) ?? 0) + 1);
    } else if (entry.type === "custom") {
      draft.lastCustom = entry.customType;
    }
    return undefined;
  },
});

describe("defineDraftProjection (immer-backed plugin projections)", () => {
  it("folds incrementally in a manager and equals its replay (I6)", () => {
    const sm = SessionManager.inMemory("/tmp/p", {
      env: createDeterministicEnv(),
      projections: [roles],
    });
    sm.appendMessage({ role: "user", content: "a", timestamp: 1 });
    const before = sm.getProjectionState<ReturnType<typeof roles.init>>("roles");
    sm.appendCustomEntry("todo", { n: 1 });
    sm.appendMessage({ role: "user", content: "b", timestamp: 2 });
    const after = sm.getProjectionState<ReturnType<typeof roles.init>>("roles");
    expect(after?.byRole.get("user")).toBe(2);
    expect(after?.lastCustom).toBe("todo");
    // The earlier state is untouched and frozen (I9).
    expect(before?.byRole.get("user")).toBe(1);
    expect(before?.lastCustom).toBeUndefined();
    expect(Object.isFrozen(after)).toBe(true);
    const replayed = replayProjection(roles, sm.getEntries());
    expect([...replayed.byRole]).toEqual([...(after?.byRole ?? [])]);
    expect(replayed.lastCustom).toBe(after?.lastCustom);
  });

  it("loads with the projection folded over the loaded entries", () => {
    const sm = SessionManager.inMemory("/tmp/p");
    sm.appendMessage({ role: "user", content: "a", timestamp: 1 });
    const header = sm.getHeader();
    const again = SessionManager.inMemory("/tmp/p", { projections: [roles] }, [
      ...(header ? [header] : []),
      ...sm.getEntries(),
    ]);
    expect(
      again.getProjectionState<ReturnType<typeof roles.init>>("roles")?.byRole.get("user"),
    ).toBe(1);
  });
});
