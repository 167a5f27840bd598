import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "@pi-sessions/test-utils";
import { expect, test } from "vitest";
import { IndexUnavailableError, openSessionIndex } from "../src/index.js";
import { directListing, indexListing, sessionsFolder, snapshot } from "./fault-helpers.js";
import { openLook } from "./sqlite-look.js";

test("verify finds an index that disagrees with the files; rebuild makes it agree again", async () => {
  const root = sessionsFolder();
  const before = snapshot(root);
  const file = join(tempDir(), "index.sqlite");
  const index = openSessionIndex({ file });
  expect(index.verify(root)).toMatchObject({ files: 4, fresh: 0, missing: 4, ok: true });
  const synced = await index.sync(root);
  expect(synced).toEqual({
    sessions: 4,
    counts: { indexed: 4, unchanged: 0, "caught-up": 0, gone: 0 },
    unreadable: [],
  });
  expect(index.verify(root)).toEqual({
    files: 4,
    fresh: 4,
    stale: 0,
    missing: 0,
    orphaned: 0,
    problems: [],
    ok: true,
  });

  // Rows that lie: an entry moved off its line, and a listing count changed.
  // A second connection, as another tool writing to the file would be.
  const db = openLook(file);
  db.prepare(
    "UPDATE entries SET offset = offset + 1 WHERE rowid = (SELECT min(e.rowid) FROM entries e JOIN files f ON f.id = e.file_id WHERE f.path LIKE '%large.jsonl')",
  ).run();
  db.prepare(
    "UPDATE files SET answer = json_set(answer, '$.i[6]', 999) WHERE path LIKE '%small.jsonl'",
  ).run();
  db.close();
  const report = index.verify(root);
  expect(report.ok).toBe(false);
  expect(report.problems.map((p) => p.problem)).toEqual(
    expect.arrayContaining([
      expect.stringMatching(/the stored entry is not the line at its offset/),
      "the index's listing info differs from the file's",
    ]),
  );
  expect(await index.rebuild(root)).toMatchObject({ sessions: 4, counts: { indexed: 4 } });
  expect(index.verify(root).ok).toBe(true);
  expect(await indexListing(index, root)).toEqual(await directListing(root));
  index.close();
  expect(snapshot(root)).toEqual(before);
});

test("an index that cannot be opened is refused with a clear error", () => {
  const dir = tempDir();
  mkdirSync(join(dir, "index.sqlite"));
  expect(() => openSessionIndex({ file: join(dir, "index.sqlite") })).toThrow(
    IndexUnavailableError,
  );
});
