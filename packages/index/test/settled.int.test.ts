import { execFileSync } from "node:child_process";
import { appendFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { listAllSessions } from "@pi-sessions/core/internal";
import { tempDir } from "@pi-sessions/test-utils";
import { expect, test } from "vitest";
import { openSessionIndex } from "../src/index.js";
import { directListing, indexListing, sessionsFolder, snapshot } from "./fault-helpers.js";
import { sessionText } from "./session-text.js";
import { openLook } from "./sqlite-look.js";

/** Far above this machine's timestamp granule (the kernel's tick, a few ms on Linux). */
const SETTLE_MS = 40;
const settle = () => new Promise((done) => setTimeout(done, 2 * SETTLE_MS));

/** The listing `ls` reads (shapes, no text) through the index, and core's direct one. */
const rows = (index: ReturnType<typeof openSessionIndex>, root: string) =>
  index.listProjects(root, { withShape: true, withText: false });
const directRows = async (root: string) =>
  (await listAllSessions(root, { cache: null, withShape: true })).map((info) =>
    Object.assign(info, { allMessagesText: "" }),
  );

/** Rewrites `path` in place with other bytes of the same length and gives it back its mtime. */
function rewriteSameStamp(path: string, other: string): void {
  const { mtime, size } = statSync(path);
  expect(Buffer.byteLength(other)).toBe(size);
  writeFileSync(path, other);
  execFileSync("touch", ["-d", mtime.toISOString(), path]);
  expect(statSync(path).mtimeMs).toBe(mtime.getTime());
}

test("a file its stat vouches for answers without being opened; any write after that is seen", async () => {
  const root = sessionsFolder();
  const before = snapshot(root);
  const file = join(tempDir(), "index.sqlite");
  const index = openSessionIndex({ file, settleMs: SETTLE_MS });
  /** How many files `listing` answered by stat alone. */
  const byStat = async (listing: () => Promise<unknown>) => {
    const before = index.statOnly;
    await listing();
    return index.statOnly - before;
  };
  expect(await rows(index, root)).toEqual(await directRows(root));
  await settle();
  // Checked by hash (unless the first listing came late enough), then settled: the files had
  // not changed for longer than the margin.
  expect(await rows(index, root)).toEqual(await directRows(root));
  const look = openLook(file, { readonly: true });
  const settled = () =>
    (look.prepare("SELECT count(*) AS n FROM files WHERE settled = 1").get() as { n: number }).n;
  expect(settled()).toBe(4);
  expect(
    await byStat(async () => expect(await rows(index, root)).toEqual(await directRows(root))),
  ).toBe(4);
  // With the text: the rows a listing without it made hold none, so the first listing with it
  // reads the files again (and settles them: they are old); from then on the stat vouches for
  // every file, the damaged one with its torn tail's text too.
  expect(await indexListing(index, root)).toEqual(await directListing(root));
  expect(
    await byStat(async () =>
      expect(await indexListing(index, root)).toEqual(await directListing(root)),
    ),
  ).toBe(4);

  // The same size and mtime, in place: the ctime tells, though the file is settled.
  const small = join(root, "--b--", "small.jsonl");
  rewriteSameStamp(
    small,
    sessionText("33333333", "/work/b", [{ user: "HELLO there" }, { assistant: "yo" }]),
  );
  const indexed = index.counts.indexed;
  expect(
    await byStat(async () => expect(await rows(index, root)).toEqual(await directRows(root))),
  ).toBe(3);
  expect(index.counts.indexed).toBe(indexed + 1);

  // Replaced by rename with a file of the same size and mtime (made after the check).
  await settle();
  await rows(index, root);
  const copy = `${small}.new`;
  writeFileSync(
    copy,
    sessionText("33333333", "/work/b", [{ user: "hello there" }, { assistant: "hi" }]),
  );
  execFileSync("touch", ["-d", statSync(small).mtime.toISOString(), copy]);
  renameSync(copy, small);
  expect(await rows(index, root)).toEqual(await directRows(root));
  expect(await indexListing(index, root)).toEqual(await directListing(root));

  // Grown: caught up (its records stored by a sync first), never answered from the stored
  // answer of the shorter file.
  await index.sync(root);
  await settle();
  await rows(index, root);
  const caught = index.counts["caught-up"];
  appendFileSync(small, `${sessionText("x", "/", [{ user: "more" }]).split("\n")[1]}\n`);
  expect(await rows(index, root)).toEqual(await directRows(root));
  expect(index.counts["caught-up"]).toBe(caught + 1);
  expect(index.verify(root)).toMatchObject({ ok: true, fresh: 4 });
  look.close();
  index.close();
  // Only the test wrote to the folder: the large session is as it was.
  const large = join(root, "--a--", "large.jsonl");
  expect(snapshot(root)[large]).toEqual(before[large]);
});

test("files changed within the settle margin are checked by hash every time", async () => {
  const root = sessionsFolder();
  const index = openSessionIndex({ file: join(tempDir(), "index.sqlite"), settleMs: 600_000 });
  for (let i = 0; i < 3; i++) expect(await rows(index, root)).toEqual(await directRows(root));
  expect(index.statOnly).toBe(0);
  expect(index.counts.unchanged).toBe(8);
  index.close();
});

test("verify finds a stored answer that contradicts the file", async () => {
  const root = sessionsFolder();
  const file = join(tempDir(), "index.sqlite");
  const index = openSessionIndex({ file, settleMs: SETTLE_MS });
  await rows(index, root);
  await settle();
  await rows(index, root);
  expect(index.verify(root)).toMatchObject({ ok: true, fresh: 4 });
  // A second connection, as another tool writing to the file would be.
  const db = openLook(file);
  db.prepare(
    "UPDATE files SET answer = replace(answer, '\"hello there\"', '\"bye\"') WHERE path LIKE '%small.jsonl'",
  ).run();
  db.close();
  const report = index.verify(root);
  expect(report.problems).toEqual([
    {
      path: join(root, "--b--", "small.jsonl"),
      problem: "the index's listing info differs from the file's",
    },
  ]);
  index.close();
});
