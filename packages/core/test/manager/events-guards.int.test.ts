import { readFileSync } from "node:fs";
import {
  createDeterministicEnv,
  defineProjection,
  EntryRejectedError,
  type EntryValidator,
  projectionState,
  replayProjection,
  type SessionEntry,
  SessionManager,
} from "@pi-sessions/core";
import { describe, expect, it } from "vitest";
import { tempDir } from "../store/helpers.js";
import { assistant, fresh, user } from "./fixtures.js";

/** Refuses `custom` entries of type "num" whose data is not a number. */
const numbersOnly: EntryValidator = (entry) =>
  entry.type === "custom" && entry.customType === "num" && typeof entry.data !== "number"
    ? {
        reason: 'custom entry "num" needs a number',
        source: "nums",
        issues: [{ path: "data", expected: "number", message: "expected number" }],
      }
    : undefined;

describe("entry validators", () => {
  it("refuse before anything changes, with a clear error", () => {
    const sm = fresh();
    sm.addEntryValidator(numbersOnly);
    const a = sm.appendMessage(user("a"));
    sm.appendCustomEntry("num", 3);
    const before = sm.getState();
    const events: string[] = [];
    sm.events.on("*", (t) => events.push(t));
    let error: unknown;
    try {
      sm.appendCustomEntry("num", "three");
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(EntryRejectedError);
    const rejected = error as EntryRejectedError;
    expect(rejected.message).toBe(
      'Entry of type "custom" rejected by nums: custom entry "num" needs a number: data: expected number',
    );
    expect(rejected.source).toBe("nums");
    expect(rejected.issues.map((i) => i.path)).toEqual(["data"]);
    expect(rejected.entry).toMatchObject({ type: "custom", customType: "num", data: "three" });
    expect(sm.getState()).toBe(before);
    expect(events).toEqual([]);
    // The refused entry's id is free again: nothing remembers it.
    expect(sm.getEntry(rejected.entry.id)).toBeUndefined();
    expect(sm.getEntries().map((e) => e.type)).toEqual(["message", "custom"]);
    expect(sm.getBranch()[0]?.id).toBe(a);
  });

  it("see the stored form: id, parent and the JSON value of the line", () => {
    const sm = fresh();
    const seen: SessionEntry[] = [];
    sm.addEntryValidator((e) => {
      seen.push(e as SessionEntry);
      return undefined;
    });
    const a = sm.appendMessage(user("a"));
    sm.appendCustomEntry("x", { keep: 1, drop: undefined });
    expect(seen[1]).toMatchObject({ type: "custom", parentId: a, data: { keep: 1 } });
    expect(Object.keys((seen[1] as { data: object }).data)).toEqual(["keep"]);
  });

  it("a refused branchWithSummary leaves the leaf where it was", () => {
    const sm = fresh();
    const a = sm.appendMessage(user("a"));
    const b = sm.appendMessage(user("b"));
    sm.addEntryValidator((e) =>
      e.type === "branch_summary" ? { reason: "no summaries here" } : undefined,
    );
    expect(() => sm.branchWithSummary(a, "s")).toThrow(EntryRejectedError);
    expect(sm.getLeafId()).toBe(b);
  });

  it("the remover removes exactly that validator", () => {
    const sm = fresh();
    const remove = sm.addEntryValidator(numbersOnly);
    expect(() => sm.appendCustomEntry("num", "x")).toThrow(EntryRejectedError);
    remove();
    expect(sm.getEntry(sm.appendCustomEntry("num", "x"))).toBeDefined();
  });

  it("a refused append to a persisted session leaves the file byte for byte", () => {
    const dir = tempDir();
    const sm = SessionManager.create("/tmp/proj", dir, {
      env: createDeterministicEnv({ seed: 3 }),
    });
    sm.addEntryValidator(numbersOnly);
    sm.appendMessage(user("hi"));
    sm.appendMessage(assistant("yo"));
    const file = sm.getSessionFile() as string;
    const bytes = readFileSync(file);
    expect(() => sm.appendCustomEntry("num", { n: 1 })).toThrow(EntryRejectedError);
    expect(readFileSync(file).equals(bytes)).toBe(true);
    // And the manager still appends normally afterwards.
    sm.appendCustomEntry("num", 1);
    expect(readFileSync(file, "utf8").split("\n").filter(Boolean)).toHaveLength(4);
  });
});

const countCustom = defineProjection<number>({
  name: "count-custom",
  init: () => 0,
  apply: (n, entry) => (entry.type === "custom" ? n + 1 : n),
});

describe("projections added at run time", () => {
  it("are replayed over the current log, then folded on every append", () => {
    const sm = fresh();
    sm.appendCustomEntry("a");
    sm.appendMessage(user("x"));
    sm.appendCustomEntry("b");
    const snapshot = sm.getState();
    sm.addProjection(countCustom);
    expect(sm.getProjectionState<number>("count-custom")).toBe(2);
    sm.appendCustomEntry("c");
    expect(sm.getProjectionState<number>("count-custom")).toBe(3);
    expect(sm.getProjectionState("count-custom")).toBe(
      replayProjection(countCustom, sm.getEntries()),
    );
    // An earlier snapshot does not grow the new slot.
    expect(projectionState(snapshot, "count-custom")).toBeUndefined();
  });

  it("are replayed when another session is loaded, and can be removed", () => {
    const sm = fresh();
    sm.addProjection(countCustom);
    sm.appendCustomEntry("a");
    sm.newSession();
    expect(sm.getProjectionState<number>("count-custom")).toBe(0);
    // A file with two custom entries, loaded into the same manager.
    const source = SessionManager.create("/tmp/proj", tempDir());
    source.appendCustomEntry("x");
    source.appendMessage(user("hi"));
    source.appendCustomEntry("y");
    source.close();
    sm.setSessionFile(source.getSessionFile() as string);
    expect(sm.getProjectionState<number>("count-custom")).toBe(2);
    expect(sm.removeProjection("count-custom")).toBe(true);
    expect(sm.removeProjection("count-custom")).toBe(false);
    expect(sm.getProjectionState("count-custom")).toBeUndefined();
    sm.appendCustomEntry("b");
    expect(projectionState(sm.getState(), "count-custom")).toBeUndefined();
  });

  it("refuse a second projection with the same name", () => {
    const sm = SessionManager.inMemory("/tmp/proj", { projections: [countCustom] });
    expect(() => sm.addProjection({ ...countCustom })).toThrow(
      'Projection "count-custom" is already registered',
    );
  });
});
