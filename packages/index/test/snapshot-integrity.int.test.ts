/**
 * A column snapshot never answers for rows it was not made of (`ReadLayout.save`): one saved
 * from rows read before another process indexed the file again — under the same file id and
 * rowids, which SQLite hands out again when they were the highest — would pass every later
 * check (its last row still matches) and give the old parents to `tree` and to pi's open for
 * good. And a damaged snapshot is read as none (and written again), not as a failed query.
 */

import { readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readSession, replayState, type SessionTreeNode, treeOf } from "@pi-sessions/core";
import { tempDir, withEnv } from "@pi-sessions/test-utils";
import { expect, it } from "vitest";
import { readLayoutRows } from "../src/column-snapshot.js";
import { openSessionIndex } from "../src/index.js";
import { TREE_SNAPSHOT_FROM_ROWS_ENV } from "../src/snapshot-links.js";
import { type Database, inReadTransaction } from "../src/sqlite.js";
import { HEADER } from "./session-header.js";
import { openLook } from "./sqlite-look.js";

withEnv(TREE_SNAPSHOT_FROM_ROWS_ENV, "0");

/** Runs `look` on a second connection to the index file (as another process would). */
function looking<T>(indexFile: string, look: (db: Database) => T): T {
  const db = openLook(indexFile);
  try {
    return look(db);
  } finally {
    db.close();
  }
}
const idOf = (i: number) => `a000000${i}`;

/** A chain of `n` user messages. */
function chain(n: number): string {
  const entries = Array.from({ length: n }, (_, k) => ({
    type: "message",
    id: idOf(k + 1),
    parentId: k === 0 ? null : idOf(k),
    timestamp: "2026-01-01T00:00:01.000Z",
    message: { role: "user", content: "hi", timestamp: 1 },
  }));
  return [HEADER, ...entries].map((r) => `${JSON.stringify(r)}\n`).join("");
}

/** A tree's shape as text: `id(children)`. */
const shape = (nodes: readonly SessionTreeNode[]): string =>
  nodes.map((n) => `${n.entry.id}(${shape(n.children)})`).join(",");

/** The file's tree by core, and by the index (through a fresh open of it). */
function trees(indexFile: string, file: string) {
  const direct = readSession(file);
  const index = openSessionIndex({ file: indexFile });
  try {
    const s = index.session(file);
    if (s === null) throw new Error("the index did not answer");
    try {
      return {
        core: shape(treeOf(replayState(direct.header, direct.entries))),
        index: shape(s.treeTop(9).roots),
      };
    } finally {
      s.close();
    }
  } finally {
    index.close();
  }
}

/** Indexes `file` in another connection (as another process would). */
function indexAgain(indexFile: string, file: string): void {
  const index = openSessionIndex({ file: indexFile });
  index.session(file)?.close();
  index.close();
}

it("a snapshot of rows another process replaced meanwhile is not saved", () => {
  const dir = tempDir();
  const file = join(dir, "s.jsonl");
  const indexFile = join(dir, "index.sqlite");
  writeFileSync(file, chain(8));
  indexAgain(indexFile, file);
  looking(indexFile, (a) => {
    // Outside the transaction that read them, the rows are never saved.
    readLayoutRows(a, 1).save();
    expect(a.prepare("SELECT count(*) AS n FROM file_columns").get()).toEqual({ n: 0 });
    inReadTransaction(a, () => {
      const layout = readLayoutRows(a, 1);
      // Meanwhile the file is rewritten in place (entry 6 moved under entry 3; same size and
      // mtime, last line kept) and indexed again from the start by another connection.
      const before = statSync(file);
      const moved = readFileSync(file, "utf8").replace(
        `"id":"${idOf(6)}","parentId":"${idOf(5)}"`,
        `"id":"${idOf(6)}","parentId":"${idOf(3)}"`,
      );
      writeFileSync(file, moved);
      utimesSync(file, before.atime, before.mtime);
      indexAgain(indexFile, file);
      layout.save();
    });
  });
  const { core, index } = trees(indexFile, file);
  expect(core).toContain(`${idOf(3)}(${idOf(4)}(${idOf(5)}()),${idOf(6)}(`);
  expect(index).toBe(core);
  const { parents } = looking(indexFile, (b) =>
    inReadTransaction(b, () => readLayoutRows(b, 1).rows),
  );
  expect(parents[5]).toBe(idOf(3));
});

it("a damaged snapshot is read as none: the tree is the file's, and a whole snapshot is written", () => {
  const dir = tempDir();
  const file = join(dir, "s.jsonl");
  const indexFile = join(dir, "index.sqlite");
  writeFileSync(file, chain(3));
  expect(trees(indexFile, file).index).toBe(trees(indexFile, file).core);
  for (const junk of [[200, 0, 0, 0, 1, 2], [2, 0, 0, 0, 123, 125, 9, 9], []]) {
    looking(indexFile, (d) => d.prepare("UPDATE file_columns SET data = ?").run(Buffer.from(junk)));
    const { core, index } = trees(indexFile, file);
    expect(index).toBe(core);
    const stored = looking(indexFile, (d) => d.prepare("SELECT rows FROM file_columns").get());
    expect(stored).toEqual({ rows: 3 });
  }
});
