import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "@pi-sessions/test-utils";
import { expect, test } from "vitest";
import { IndexUnavailableError, openSessionIndex } from "../src/index.js";
import { sessionsFolder } from "./fault-helpers.js";
import { sessionText } from "./session-text.js";
import { openLook } from "./sqlite-look.js";

test("a search whose catch-up cannot write refuses the stale rows instead of returning a deleted session", async () => {
  const root = sessionsFolder();
  const session = join(root, "--b--", "zebra.jsonl");
  writeFileSync(session, sessionText("77777777", "/work/b", [{ user: "a zebra crossing" }]));
  const file = join(tempDir(), "index.sqlite");
  const notices: string[] = [];
  const index = openSessionIndex({ file, busyTimeoutMs: 20, onNotice: (m) => notices.push(m) });
  const hits = await index.search("zebra", { dir: root });
  expect(hits.map((h) => h.path)).toEqual([session]);

  rmSync(session);
  // Another process holds the index's write lock: the catch-up cannot drop the deleted file.
  const other = openLook(file);
  other.exec("BEGIN EXCLUSIVE");
  try {
    await expect(index.search("zebra", { dir: root })).rejects.toBeInstanceOf(
      IndexUnavailableError,
    );
    expect(notices).toHaveLength(1);
    expect(notices[0]).toContain("read the session files directly");
  } finally {
    other.exec("ROLLBACK");
    other.close();
  }
  // Once the index can write again, the deleted session is gone from it.
  expect(await index.search("zebra", { dir: root })).toEqual([]);
  index.close();
});
