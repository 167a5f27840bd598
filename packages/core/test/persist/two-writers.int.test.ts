/**
 * Two writers on one session file in one process (SPEC W7, W8, invariant 4): a second manager,
 * and fast-check's scheduler interleaving two managers' appends and reloads (a second process
 * is in `two-writer-processes.int.test.ts`). A writer that did not get in must throw
 * `SessionLockedError` or `SessionConflictError` and change neither memory nor file; the file
 * never forks silently and holds every successful append exactly once.
 *
 * Scheduler runs: `FC_RUNS` (default 100); replay with `FC_SEED=<seed> FC_PATH=<path>`.
 */
import { readFileSync } from "node:fs";
import { SessionConflictError, SessionLockedError, SessionManager } from "@pi-sessions/core";
import { fcOptions } from "@pi-sessions/test-utils";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { user } from "./helpers.js";
import { baseFile, expectRefused, observeAll } from "./two-writer-fixtures.js";

const settings = fcOptions(100);

describe("two managers in one process (W7)", () => {
  it("the newest manager that writes takes the file over; the older one conflicts and changes nothing", () => {
    const file = baseFile();
    const first = SessionManager.open(file);
    first.appendMessage(user("first takes the lock"));
    const second = SessionManager.open(file);
    second.appendMessage(user("second takes the file over")); // pi never closes `first`
    const err = expectRefused(first, file, () => first.appendMessage(user("first, stale")));
    expect(err).toBeInstanceOf(SessionConflictError);
    expectRefused(first, file, () => first.appendCustomEntry("ext", { n: 1 }));
    second.appendMessage(user("second still writes"));
    const third = SessionManager.open(file);
    const id = third.appendMessage(user("third takes over in turn"));
    expectRefused(second, file, () => second.appendMessage(user("second, stale")));
    const reopened = SessionManager.open(file);
    expect(reopened.getLeafId()).toBe(id);
    expect(reopened.getEntries()).toHaveLength(6);
    expect(reopened.getLoadDiagnostics()).toEqual([]);
    for (const sm of [first, second, third, reopened]) sm.close();
  });

  it("a newer manager reloads what the older one appended after it read the file, then takes over", () => {
    const file = baseFile();
    const older = SessionManager.open(file);
    older.appendMessage(user("older holds the file"));
    const newer = SessionManager.open(file);
    const late = older.appendCustomEntry("ext", { at: "shutdown" }); // after newer read it
    const id = newer.appendMessage(user("newer continues"));
    expect(newer.getEntry(id)?.parentId, "no silent fork: continues from the late entry").toBe(
      late,
    );
    expect(newer.getEntries()).toHaveLength(5);
    const err = expectRefused(older, file, () => older.appendMessage(user("older, stale")));
    expect(err).toBeInstanceOf(SessionConflictError);
    const records = readFileSync(file, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    for (let k = 2; k < records.length; k++) expect(records[k].parentId).toBe(records[k - 1].id);
    older.close();
    newer.close();
  });

  it("close() releases the lock and keeps the manager usable; it conflicts once someone else wrote", () => {
    const file = baseFile();
    const first = SessionManager.open(file);
    first.appendMessage(user("first"));
    first.close();
    const custom = first.appendCustomEntry("ext", { after: "close" }); // lock taken again
    first.close();
    const second = SessionManager.open(file);
    expect(second.getLeafId()).toBe(custom);
    second.appendMessage(user("second, while first is closed"));
    second.close();
    const err = expectRefused(first, file, () => first.appendMessage(user("first, stale")));
    expect(err).toBeInstanceOf(SessionConflictError);
    first.setSessionFile(file);
    const id = first.appendMessage(user("first, reloaded"));
    first.close();
    const again = SessionManager.open(file);
    expect(again.getLeafId()).toBe(id);
    expect(again.getEntryCount()).toBe(6);
    again.close();
  });

  it("a stale manager cannot append even once the lock is free (conflict, nothing written)", () => {
    const file = baseFile();
    const first = SessionManager.open(file);
    const stale = SessionManager.open(file);
    first.appendMessage(user("moves the file on"));
    first.close();
    const err = expectRefused(stale, file, () => stale.appendMessage(user("stale")));
    expect(err).toBeInstanceOf(SessionConflictError);
    stale.close();
  });
});

/** append/custom: one append; close: release the lock, keep the manager; reopen: a new
 * manager on the file; reload: `setSessionFile(file)` on the same manager. */
type Action = "append" | "custom" | "close" | "reopen" | "reload";
const actions = fc.array(
  fc.constantFrom<Action>("append", "append", "custom", "close", "reopen", "reload"),
  { minLength: 1, maxLength: 10 },
);

describe("two managers interleaved by fc.scheduler (W7)", () => {
  it(`the file parses and holds each successful append exactly once, as one chain (${settings.numRuns} runs)`, async () => {
    const tally = { appended: 0, locked: 0, conflict: 0 };
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), actions, actions, async (s, aActs, bActs) => {
        const file = baseFile();
        const succeeded: string[] = [];
        const run = async (name: string, acts: readonly Action[]) => {
          let sm = SessionManager.open(file);
          for (const [i, act] of acts.entries()) {
            await s.schedule(Promise.resolve(), `${name}#${i} ${act}`);
            if (act === "close") {
              sm.close();
            } else if (act === "reopen") {
              sm.close();
              sm = SessionManager.open(file);
            } else if (act === "reload") {
              sm.setSessionFile(file);
            } else {
              const append = () =>
                act === "append"
                  ? sm.appendMessage(user(`${name}${i}`))
                  : sm.appendCustomEntry("ext", { name, i });
              const before = observeAll(sm, file);
              try {
                const id = append();
                succeeded.push(JSON.stringify(sm.getEntry(id)));
                tally.appended++;
              } catch (e) {
                tally[e instanceof SessionLockedError ? "locked" : "conflict"]++;
                expect(e instanceof SessionLockedError || e instanceof SessionConflictError).toBe(
                  true,
                );
                expect(observeAll(sm, file), "a refused append changes nothing").toEqual(before);
              }
            }
          }
          sm.close();
        };
        await s.waitFor(Promise.all([run("a", aActs), run("b", bActs)]));
        const lines = readFileSync(file, "utf8")
          .split("\n")
          .filter((l) => l !== "");
        const records = lines.map((l) => JSON.parse(l) as { id?: string; parentId?: string });
        expect(lines.slice(3).sort()).toEqual([...succeeded].sort());
        for (let k = 2; k < records.length; k++) {
          expect(records[k]?.parentId, "one chain: no silent fork").toBe(records[k - 1]?.id);
        }
        const again = SessionManager.open(file);
        expect(again.getLoadDiagnostics()).toEqual([]);
        expect(again.getEntryCount()).toBe(2 + succeeded.length);
        again.close();
      }),
      settings,
    );
    console.log("scheduled appends:", tally);
  });
});
