/**
 * Where the index must not vouch inside pi's start even though it could: while another process
 * holds the index's write lock (busy answers at once, not after the busy timeout), and when the
 * file grew by more than a sixteenth and a mebibyte since it was indexed (catching it up would
 * cost more than the checked open it saves). Each case is checked against the unchanged case,
 * which vouches.
 */

import { appendFileSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { tempDir } from "@pi-sessions/test-utils";
import { expect, test } from "vitest";
import { openSessionIndex } from "../src/index.js";

const header = (id: string) =>
  `${JSON.stringify({ type: "session", version: 3, id, timestamp: "2026-01-01T00:00:00.000Z", cwd: "/p" })}\n`;

/** `n` user messages in one chain, ids from `first` on. */
function messages(first: number, n: number): string {
  let text = "";
  for (let i = first; i < first + n; i++) {
    const entry = {
      type: "message",
      id: `e${i}`,
      parentId: i === 0 ? null : `e${i - 1}`,
      timestamp: "2026-01-01T00:00:00.000Z",
      message: { role: "user", content: `message number ${i}`, timestamp: 1767225600000 },
    };
    text += `${JSON.stringify(entry)}\n`;
  }
  return text;
}

/** A sessions root with one indexed session of 64 messages; its path and the index file. */
async function indexedSession() {
  const root = join(tempDir(), "sessions");
  const dir = join(root, "--p--");
  mkdirSync(dir, { recursive: true });
  const path = join(dir, "s.jsonl");
  writeFileSync(path, header("01a00000-0000-7000-8000-000000000000") + messages(0, 64));
  const file = join(tempDir(), "index.sqlite");
  const index = openSessionIndex({ file, onNotice: () => {} });
  await index.sync(root);
  return { path, file, index };
}

test("a file grown by more than a sixteenth and a mebibyte is not vouched for; a smaller growth is caught up", async () => {
  const { path, index } = await indexedSession();
  try {
    expect(index.columnsFor(path, statSync(path))?.ids.length).toBe(64);
    appendFileSync(path, messages(64, 2)); // about 3 % more
    expect(index.columnsFor(path, statSync(path))?.ids.length).toBe(66);
    appendFileSync(path, messages(66, 10)); // about 15 % more, but under a mebibyte
    expect(index.columnsFor(path, statSync(path))?.ids.length).toBe(76);
    appendFileSync(path, messages(76, 7_000)); // more than a mebibyte and a sixteenth
    expect(statSync(path).size).toBeGreaterThan(1024 * 1024 + 15_000);
    expect(index.columnsFor(path, statSync(path))).toBeUndefined();
  } finally {
    index.close();
  }
});

test("while another connection holds the write lock, a grown file is answered at once, not vouched", async () => {
  const { path, file, index } = await indexedSession();
  index.close();
  // SQLite's wait for a lock is synchronous, so no test timeout can cut it short: the call is
  // asserted to return well inside the index's busy timeout (a minute) instead of after it.
  const busyTimeoutMs = 60_000;
  const waiting = openSessionIndex({ file, onNotice: () => {}, busyTimeoutMs });
  const holder = new DatabaseSync(file);
  try {
    appendFileSync(path, messages(64, 1));
    holder.exec("BEGIN IMMEDIATE");
    const asked = Date.now();
    expect(waiting.columnsFor(path, statSync(path))).toBeUndefined();
    expect(Date.now() - asked).toBeLessThan(busyTimeoutMs / 2);
    holder.exec("ROLLBACK");
    // The lock gone, the same file is vouched for (and its busy timeout is its own again).
    expect(waiting.columnsFor(path, statSync(path))?.ids.length).toBe(65);
  } finally {
    holder.close();
    waiting.close();
  }
}, 120_000);
