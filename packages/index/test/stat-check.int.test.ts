/**
 * The sync's stat check: a sync may look only at the files it names, so every change to the
 * folder (an append, a new file, a file not yet settled) must be among them, a deleted file must
 * make the full sync run, a failure while syncing them must too, and a search after each change
 * must find what the files say.
 */

import { appendFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "@pi-sessions/test-utils";
import { expect, test } from "vitest";
import { IndexUnavailableError, openSessionIndex } from "../src/index.js";
import { statCheck } from "../src/stat-check.js";
import { directListing, sessionsFolder } from "./fault-helpers.js";
import { sessionText } from "./session-text.js";
import { openLook } from "./sqlite-look.js";

/** Far above this machine's timestamp granule (the kernel's tick, a few ms on Linux). */
const SETTLE_MS = 40;
const settle = () => new Promise((done) => setTimeout(done, 2 * SETTLE_MS));

/** The fault tests' folder plus eight small sessions: enough that one pending file is few. */
function folder(): { root: string; files: number } {
  const root = sessionsFolder();
  for (let i = 0; i < 8; i++) {
    const text = sessionText(`7777777${i}`, "/work/a", [{ user: `extra ${i}` }]);
    writeFileSync(join(root, "--a--", `extra-${i}.jsonl`), text);
  }
  return { root, files: 12 };
}

/** A user message line continuing entry `parentId` (the hand-made sessions' ids are `e<i>`). */
const userLine = (id: string, parentId: string, text: string) =>
  `${JSON.stringify({ type: "message", id, parentId, timestamp: "2025-08-01T00:00:00.000Z", message: { role: "user", content: text, timestamp: 1 } })}\n`;

const counts = (unchanged: number, caughtUp = 0, indexed = 0, gone = 0) => ({
  unchanged,
  "caught-up": caughtUp,
  indexed,
  gone,
});

test("a sync looks only at the files their stat does not vouch for", async () => {
  const { root, files } = folder();
  const file = join(tempDir(), "index.sqlite");
  // The index under test never settles a row itself (a file is only settled an hour after its
  // last change), so what is pending after a change does not depend on how fast the machine
  // gets to the next check; a second connection settles rows when the test says so.
  const index = openSessionIndex({ file, settleMs: 3_600_000 });
  const settler = openSessionIndex({ file, settleMs: SETTLE_MS });
  const settleRows = async () => {
    await settle();
    await settler.sync(root);
  };
  const look = openLook(file, { readonly: true });
  const check = () => statCheck(look, root);
  const pending = () =>
    check()
      .pending.map((p) => p.slice(root.length + 1))
      .sort();
  const hits = async (word: string) =>
    (await index.search(word, { dir: root })).map((h) => `${h.path}:${h.line}`).sort();

  // Not indexed yet: every file is pending (so the full sync runs).
  expect(check()).toMatchObject({ files, lost: false });
  expect(pending()).toHaveLength(files);
  expect((await index.sync(root)).counts).toEqual(counts(0, 0, files));
  await settleRows(); // checked against the files long after their last change: settled
  const first = check();
  expect(first).toMatchObject({ files, pending: [], lost: false });
  const sessions = (await index.listProjects(root, { withText: false })).length;
  expect(first.sessions).toBe(sessions);

  // Nothing pending: every file unchanged, by stat alone.
  const statOnly = index.statOnly;
  expect(await index.sync(root)).toEqual({ sessions, counts: counts(files), unreadable: [] });
  expect(index.statOnly - statOnly).toBe(files);

  // A row of a deeper directory (listed with --dir) is no file a sync of the root covers.
  const deep = join(root, "--a--", "nested");
  mkdirSync(deep);
  writeFileSync(join(deep, "deep.jsonl"), sessionText("66666666", "/work/deep", [{ user: "x" }]));
  await index.listAll(deep);
  expect(check()).toMatchObject({ files, pending: [], lost: false });

  // An append: only that file is synced (caught up from its last line), and found at once.
  const small = join(root, "--b--", "small.jsonl");
  expect(await hits("zebracorn")).toEqual([]);
  appendFileSync(small, userLine("z1", "e1", "zebracorn"));
  expect(pending()).toEqual(["--b--/small.jsonl"]);
  expect(await index.sync(root)).toEqual({
    sessions,
    counts: counts(files - 1, 1),
    unreadable: [],
  });
  expect(await hits("zebracorn")).toEqual([`${small}:4`]);
  expect(pending()).toEqual(["--b--/small.jsonl"]); // caught up, not yet settled
  await settleRows();
  expect((await index.sync(root)).counts).toEqual(counts(files));
  expect(check()).toMatchObject({ pending: [] });

  // A new file: only that one is indexed.
  const added = join(root, "--a--", "added.jsonl");
  writeFileSync(added, sessionText("55555555", "/work/a", [{ user: "quokkanaut" }]));
  expect(pending()).toEqual(["--a--/added.jsonl"]);
  expect(await index.sync(root)).toEqual({
    sessions: sessions + 1,
    counts: counts(files, 0, 1),
    unreadable: [],
  });
  expect(await hits("quokkanaut")).toEqual([`${added}:2`]);

  // A deleted file: its row has no file any more, so the full sync runs and drops it.
  await settleRows();
  expect(check()).toMatchObject({ files: files + 1, pending: [], lost: false });
  rmSync(added);
  expect(check()).toMatchObject({ files, pending: [], lost: true });
  expect(await index.sync(root)).toEqual({
    sessions,
    counts: counts(files, 0, 0, 1),
    unreadable: [],
  });
  expect(await hits("quokkanaut")).toEqual([]);
  expect(check()).toMatchObject({ files, pending: [], lost: false });
  look.close();
  settler.close();
  index.close();
});

test("when syncing the pending files fails, the full sync reads what the files say", async () => {
  const { root, files } = folder();
  const file = join(tempDir(), "index.sqlite");
  const index = openSessionIndex({ file, settleMs: SETTLE_MS, busyTimeoutMs: 20 });
  await index.sync(root);
  await settle();
  await index.sync(root);
  const sessions = (await directListing(root)).length;
  appendFileSync(join(root, "--b--", "small.jsonl"), userLine("z1", "e1", "wombatique"));
  const lock = openLook(file);
  expect(statCheck(lock, root)).toMatchObject({ files, lost: false });
  expect(statCheck(lock, root).pending).toHaveLength(1);
  // Another process holds the write lock longer than the index waits: its writes fail.
  lock.exec("BEGIN IMMEDIATE");
  try {
    expect((await index.sync(root)).sessions).toBe(sessions);
    await expect(index.search("wombatique", { dir: root })).rejects.toBeInstanceOf(
      IndexUnavailableError,
    );
  } finally {
    lock.exec("ROLLBACK");
  }
  expect((await index.search("wombatique", { dir: root })).length).toBe(1);
  lock.close();
  index.close();
});
