/**
 * The sync's stat check: a sync may look only at the files it names, so every change to the
 * folder (an append, a new file, a file not yet settled) must be among them, a deleted file must
 * make the full sync run, and a search after each change must find what the files say.
 */

import { appendFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "@pi-sessions/test-utils";
import Database from "better-sqlite3";
import { expect, test } from "vitest";
import { openSessionIndex } from "../src/index.js";
import { statCheck } from "../src/stat-check.js";
import { sessionsFolder } from "./fault-helpers.js";
import { sessionText } from "./session-text.js";

/** Far above this machine's timestamp granule (the kernel's tick, a few ms on Linux). */
const SETTLE_MS = 40;
const settle = () => new Promise((done) => setTimeout(done, 2 * SETTLE_MS));

test("a sync looks only at the files their stat does not vouch for", async () => {
  const root = sessionsFolder();
  const file = join(tempDir(), "index.sqlite");
  const index = openSessionIndex({ file, settleMs: SETTLE_MS });
  const look = new Database(file, { readonly: true });
  const check = () => statCheck(look, root);
  const pending = () =>
    check()
      .pending.map((p) => p.slice(root.length + 1))
      .sort();
  const hits = async (word: string) =>
    (await index.search(word, { dir: root })).map((h) => `${h.path}:${h.line}`).sort();

  // Not indexed yet, then indexed but not settled: the full sync must run.
  expect(check()).toMatchObject({ files: 4, lost: false });
  expect(pending()).toEqual([
    "--a--/large.jsonl",
    "--b--/branched.jsonl",
    "--b--/damaged.jsonl",
    "--b--/small.jsonl",
  ]);
  await index.sync(root);
  await settle();
  await index.sync(root); // checked against the files long after their last change: settled
  const first = check();
  expect(first).toMatchObject({ files: 4, pending: [], lost: false });
  expect(first.sessions).toBe((await index.listProjects(root, { withText: false })).length);

  // A skipped sync still reports what a full one would: every file unchanged, by stat.
  const statOnly = index.statOnly;
  const synced = await index.sync(root);
  expect(synced.counts).toEqual({ unchanged: 4, "caught-up": 0, indexed: 0, gone: 0 });
  expect(synced.sessions).toBe(first.sessions);
  expect(index.statOnly - statOnly).toBe(4);

  // A row of a deeper directory (listed with --dir) is no file a sync of the root covers.
  const deep = join(root, "--a--", "nested");
  mkdirSync(deep);
  writeFileSync(join(deep, "deep.jsonl"), sessionText("66666666", "/work/deep", [{ user: "x" }]));
  await index.listAll(deep);
  expect(check()).toMatchObject({ files: 4, pending: [], lost: false });

  // An append: the check steps aside, and the search finds the new text at once.
  const small = join(root, "--b--", "small.jsonl");
  expect(await hits("zebracorn")).toEqual([]);
  appendFileSync(
    small,
    `${JSON.stringify({ type: "message", id: "z1", parentId: "e1", timestamp: "2025-08-01T00:00:00.000Z", message: { role: "user", content: "zebracorn", timestamp: 1 } })}\n`,
  );
  expect(pending()).toEqual(["--b--/small.jsonl"]);
  const grown = await index.sync(root); // the three others by stat, this one from its last line
  expect(grown.counts).toEqual({ unchanged: 3, "caught-up": 1, indexed: 0, gone: 0 });
  expect(await hits("zebracorn")).toEqual([`${small}:4`]);
  expect(pending()).toEqual(["--b--/small.jsonl"]); // caught up, not yet settled

  // A new file: the same.
  await settle();
  expect((await index.sync(root)).counts).toEqual({
    unchanged: 4,
    "caught-up": 0,
    indexed: 0,
    gone: 0,
  });
  expect(check()).toMatchObject({ files: 4, pending: [] });
  const added = join(root, "--a--", "added.jsonl");
  writeFileSync(added, sessionText("55555555", "/work/a", [{ user: "quokkanaut" }]));
  expect(pending()).toEqual(["--a--/added.jsonl"]);
  expect(await hits("quokkanaut")).toEqual([`${added}:2`]);

  // A deleted file: its row has no file any more, and its text must not be found.
  await settle();
  await index.sync(root);
  expect(check()).toMatchObject({ files: 5, pending: [], lost: false });
  rmSync(added);
  expect(check()).toMatchObject({ files: 4, pending: [], lost: true });
  expect(await hits("quokkanaut")).toEqual([]);
  expect(check()).toMatchObject({ files: 4, pending: [], lost: false });
  look.close();
  index.close();
});
