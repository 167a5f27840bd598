import { appendFileSync, closeSync, mkdirSync, openSync, readSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { JsonRecord } from "@pi-sessions/core/internal";
import { tempDir } from "@pi-sessions/test-utils";
import { expect, test } from "vitest";
import { entryFields } from "../src/entry-fields.js";
import { openSessionIndex } from "../src/index.js";
import { directListing, indexListing, sessionsFolder } from "./fault-helpers.js";
import { sessionText } from "./session-text.js";
import { openLook } from "./sqlite-look.js";

/** The names of the `entries` indexes the index file holds now. */
function entryIndexes(file: string): string[] {
  const db = openLook(file, { readonly: true });
  try {
    const rows = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'entries'")
      .all() as { name: string }[];
    return rows.map((r) => r.name).sort();
  } finally {
    db.close();
  }
}

interface StoredEntry {
  path: string;
  offset: number;
  length: number;
  id: string | null;
  parent_id: string | null;
  type: string | null;
  role: string | null;
  time_ms: number | null;
  model: string | null;
  total_tokens: number | null;
  cost: number | null;
  text: string | null;
}

/** Every stored entry with its file and search text, in file order. */
function storedEntries(file: string): StoredEntry[] {
  const db = openLook(file, { readonly: true });
  try {
    return db
      .prepare(
        `SELECT f.path, e.offset, e.length, e.id, e.parent_id, e.type, e.role, e.time_ms, e.model,
           e.total_tokens, e.cost, t.text
         FROM entries e JOIN files f ON f.id = e.file_id
         LEFT JOIN entry_text t ON t.rowid = e.rowid
         ORDER BY f.path, e.line`,
      )
      .all() as unknown as StoredEntry[];
  } finally {
    db.close();
  }
}

/** The record at a stored place, read back from the session file. */
function recordAt(path: string, offset: number, length: number): JsonRecord {
  const fd = openSync(path, "r");
  try {
    const bytes = Buffer.alloc(length);
    readSync(fd, bytes, 0, length, offset);
    return JSON.parse(bytes.toString("utf8")) as JsonRecord;
  } finally {
    closeSync(fd);
  }
}

test("a build from nothing stores every entry where it is, with its columns and text, and ends with the indexes", async () => {
  const root = sessionsFolder();
  const file = join(tempDir(), "index.sqlite");
  const index = openSessionIndex({ file });
  await index.sync(root);
  expect(await indexListing(index, root)).toEqual(await directListing(root));
  index.close();
  expect(entryIndexes(file)).toEqual(["entries_id", "entries_parent"]);
  const stored = storedEntries(file);
  // The corpus session spans many entries (and rowids handed out in a row).
  expect(stored.filter((e) => e.path.endsWith("large.jsonl")).length).toBeGreaterThan(100);
  for (const entry of stored) {
    const fields = entryFields(recordAt(entry.path, entry.offset, entry.length));
    expect(entry).toEqual({
      path: entry.path,
      offset: entry.offset,
      length: entry.length,
      id: fields.id,
      parent_id: fields.parentId,
      type: fields.type,
      role: fields.role,
      time_ms: fields.timeMs,
      model: fields.model,
      total_tokens: fields.totalTokens,
      cost: fields.cost,
      text: fields.text === "" ? null : fields.text,
    });
  }
});

test("a build that did not finish (its indexes dropped) gets them back and a grown file is caught up", async () => {
  const root = sessionsFolder();
  const file = join(tempDir(), "index.sqlite");
  const first = openSessionIndex({ file });
  await first.sync(root);
  first.close();
  // What a build killed between its first and last transaction leaves: rows, no indexes.
  const db = openLook(file);
  db.exec("DROP INDEX entries_id; DROP INDEX entries_parent;");
  db.close();
  appendFileSync(
    join(root, "--b--", "small.jsonl"),
    `${sessionText("x", "/", [{ user: "more" }]).split("\n")[1]}\n`,
  );
  const next = openSessionIndex({ file });
  expect(entryIndexes(file)).toEqual(["entries_id", "entries_parent"]);
  expect(await indexListing(next, root)).toEqual(await directListing(root));
  expect(next.counts["caught-up"]).toBe(1);
  expect(next.verify(root)).toMatchObject({ ok: true });
  next.close();
});

test("a build aborted after some of its transactions committed puts the indexes back", async () => {
  const root = join(tempDir(), "sessions");
  const dir = join(root, "--many--");
  mkdirSync(dir, { recursive: true });
  // More files than one transaction takes, so that the abort comes after a commit.
  for (let i = 0; i < 450; i++) {
    const id = String(i).padStart(8, "0");
    writeFileSync(join(dir, `${id}.jsonl`), sessionText(id, "/work/many", [{ user: `hi ${i}` }]));
  }
  const file = join(tempDir(), "index.sqlite");
  const index = openSessionIndex({ file });
  const abort = new AbortController();
  const reason = new Error("stop");
  const stopLate = (loaded: number) => {
    if (loaded === 440) abort.abort(reason);
  };
  await expect(
    index.listInDir(dir, { records: true, onProgress: stopLate, signal: abort.signal }),
  ).rejects.toBe(reason);
  const partial = openLook(file, { readonly: true });
  const files = (
    partial.prepare("SELECT count(*) AS n FROM files WHERE filled = 2").get() as { n: number }
  ).n;
  partial.close();
  expect(files).toBeGreaterThan(0);
  expect(files).toBeLessThan(450);
  expect(entryIndexes(file)).toEqual(["entries_id", "entries_parent"]);
  expect(await index.listAll(dir)).toEqual(await directListing(root));
  expect(index.verify(root)).toMatchObject({ ok: true });
  index.close();
});
