/**
 * Two writers on one session file (SPEC W7, W8, invariant 4): a second manager in this process,
 * a second process (plain `fs` calls, or our own SessionManager through tsx), and fast-check's
 * scheduler interleaving two managers' appends and reloads. A writer that did not get in must
 * throw `SessionLockedError` or `SessionConflictError` and change neither memory nor file; the
 * file never forks silently and holds every successful append exactly once.
 *
 * Scheduler runs: `FC_RUNS` (default 100); replay with `FC_SEED=<seed> FC_PATH=<path>`.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { SessionConflictError, SessionLockedError, SessionManager } from "@pi-sessions/core";
import { fcOptions } from "@pi-sessions/test-utils";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { assistant, tempDir, user } from "./helpers.js";

const settings = fcOptions(100);
const PACKAGE_DIR = fileURLToPath(new URL("../..", import.meta.url));

/** A flushed session file with two entries, its writer closed. */
function baseFile(): string {
  const sm = SessionManager.create("/tmp/two-writers", tempDir());
  sm.appendMessage(user("q"));
  sm.appendMessage(assistant("r"));
  sm.close();
  return sm.getSessionFile() as string;
}

/** What an append that did not get in must leave alone. */
function observeAll(sm: SessionManager, file: string) {
  return {
    entries: JSON.stringify(sm.getEntries()),
    leaf: sm.getLeafId(),
    count: sm.getEntryCount(),
    bytes: readFileSync(file).toString("base64"),
  };
}

/** Runs `append` expecting a lock or conflict error, and checks nothing changed. */
function expectRefused(sm: SessionManager, file: string, append: () => unknown): Error {
  const before = observeAll(sm, file);
  let error: unknown;
  try {
    append();
  } catch (e) {
    error = e;
  }
  expect(
    error instanceof SessionLockedError || error instanceof SessionConflictError,
    `expected a lock or conflict error, got ${String(error)}`,
  ).toBe(true);
  expect(observeAll(sm, file), "memory and file unchanged").toEqual(before);
  return error as Error;
}

/** Runs an ES module in a second Node process (our sources through tsx); returns stdout. */
/** Core's lock module, which the child imports directly (it is no part of the package's entries). */
const LOCK_MODULE = new URL("../../src/store/lock.ts", import.meta.url).href;

function inChild(script: string, file: string): string {
  const r = spawnSync(
    process.execPath,
    ["--conditions=@pi-sessions/source", "--import", "tsx", "--input-type=module", "-e", script],
    {
      cwd: PACKAGE_DIR,
      env: { ...process.env, SESSION_FILE: file },
      encoding: "utf8",
    },
  );
  if (r.error) throw r.error;
  return `${r.stdout}${r.status === 0 ? "" : `\n[exit ${r.status} ${r.signal ?? ""}] ${r.stderr}`}`;
}

const foreignLine = (parentId: string) =>
  `${JSON.stringify({ type: "custom", customType: "foreign", id: "f0reign1", parentId, timestamp: "2025-01-01T00:00:00.000Z" })}\n`;

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

describe("a second process writes behind our back (W7)", () => {
  it("plain appendFileSync while we hold the file: our next append conflicts and writes nothing", () => {
    const file = baseFile();
    const sm = SessionManager.open(file);
    sm.appendMessage(user("ours, holding the lock"));
    const line = foreignLine(sm.getLeafId() as string);
    inChild(
      `import { appendFileSync } from "node:fs"; appendFileSync(process.env.SESSION_FILE, ${JSON.stringify(line)});`,
      file,
    );
    const err = expectRefused(sm, file, () => sm.appendMessage(user("after the foreign line")));
    expect(err).toBeInstanceOf(SessionConflictError);
    expect(readFileSync(file, "utf8").endsWith(line)).toBe(true);
    sm.close();
    const again = SessionManager.open(file);
    expect(again.getLeafId()).toBe("f0reign1");
    again.close();
  });

  it("another tool replaces the file by rename (same bytes): our next append conflicts", () => {
    const file = baseFile();
    const sm = SessionManager.open(file);
    sm.appendMessage(user("ours"));
    const ino = statSync(file).ino;
    inChild(
      `import { readFileSync, writeFileSync, renameSync } from "node:fs";
       const f = process.env.SESSION_FILE; writeFileSync(f + ".new", readFileSync(f)); renameSync(f + ".new", f);`,
      file,
    );
    expect(statSync(file).ino).not.toBe(ino);
    const err = expectRefused(sm, file, () => sm.appendMessage(user("into the old inode?")));
    expect(err).toBeInstanceOf(SessionConflictError);
    sm.close();
  });

  it("our SessionManager in a child is locked out while we hold the lock, and the file is untouched", () => {
    const file = baseFile();
    const sm = SessionManager.open(file);
    sm.appendMessage(user("ours, holding the lock"));
    const before = readFileSync(file);
    const out = inChild(
      `import { SessionManager } from "@pi-sessions/core";
       const sm = SessionManager.open(process.env.SESSION_FILE);
       try { sm.appendMessage({ role: "user", content: "child", timestamp: 1 }); console.log("appended"); }
       catch (e) { console.log(e.name); }`,
      file,
    );
    expect(out.trim()).toBe("SessionLockedError");
    expect(readFileSync(file).equals(before)).toBe(true);
    sm.appendMessage(user("ours, still fine"));
    sm.close();
  });

  it("a child appends through our SessionManager before we take the lock: our append conflicts", () => {
    const file = baseFile();
    const sm = SessionManager.open(file); // loaded, not locked yet (reads never lock)
    const out = inChild(
      `import { SessionManager } from "@pi-sessions/core";
       const sm = SessionManager.open(process.env.SESSION_FILE);
       console.log(sm.appendMessage({ role: "user", content: "child", timestamp: 1 })); sm.close();`,
      file,
    );
    const childId = out.trim();
    expect(childId).toMatch(/^[0-9a-f]{8}$/);
    const err = expectRefused(sm, file, () => sm.appendMessage(user("ours, stale")));
    expect(err).toBeInstanceOf(SessionConflictError);
    sm.close();
    const again = SessionManager.open(file);
    expect(again.getLeafId()).toBe(childId);
    again.close();
  });

  it("a lock left by a killed process is recovered (dead pid) and our append goes through", () => {
    const file = baseFile();
    const sm = SessionManager.open(file);
    const out = inChild(
      `import { acquireLock } from ${JSON.stringify(LOCK_MODULE)};
       acquireLock(process.env.SESSION_FILE); process.kill(process.pid, "SIGKILL");`,
      file,
    );
    expect(out).toContain("SIGKILL");
    expect(statSync(`${file}.lock`).isFile()).toBe(true);
    const id = sm.appendMessage(user("after the crash"));
    sm.close();
    const again = SessionManager.open(file);
    expect(again.getLeafId()).toBe(id);
    again.close();
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
