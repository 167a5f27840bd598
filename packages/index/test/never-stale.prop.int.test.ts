/**
 * SPEC §14 F1, as a property: whatever happens to the files behind the index (appends, torn
 * and completed lines, truncation, an earlier line rewritten in place with the size and mtime
 * kept, the last line so rewritten, a rename over a file, a deletion, a `touch`, a new file),
 * the index's answers are the files' own: its listings equal core's direct read, its search
 * finds exactly the entries whose text holds the word, and a session through the index
 * (`tree`, `context`) equals a full read of the file; and `ls --all`'s summaries equal core's
 * listing, settled rows answered by their stat included — both `listAllSummaries` and the
 * CLI's own path, `quickListAll`, which opens the same index file on a connection of its own
 * and answers a warm listing from the stored rows without the per-file step.
 */

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { buildSessionProjection, readSession, replayState, treeOf } from "@pi-sessions/core";
import {
  isJsonRecord,
  isValidHeader,
  listAllSessions,
  type ShapedSessionInfo,
} from "@pi-sessions/core/internal";
import { fcOptions, tempDir } from "@pi-sessions/test-utils";
import fc from "fast-check";
import { expect, test } from "vitest";
import { entryFields } from "../src/entry-fields.js";
import { openSessionIndex, quickListAll, type SessionIndex } from "../src/index.js";
import { SEARCH_TOKENIZER } from "../src/schema.js";
import { applyStep, fileTextArb, stepArb, writeFolder } from "./folder-arbitraries.js";
import { flatten } from "./tree-ids.js";

/**
 * A scratch FTS5 table with the search table's tokenizer, used only to split a text into
 * words. Which characters separate words is SQLite's rule, not this test's to restate: its
 * Unicode tables are older than JavaScript's (seed -1033025054 found "𑑋Ḁ", one word to SQLite,
 * "a" to a \p{L} split). The index's answers are still checked against the files themselves.
 */
const scratch = new DatabaseSync(":memory:");
scratch.exec(
  `CREATE VIRTUAL TABLE words USING fts5(text, tokenize = '${SEARCH_TOKENIZER}');
   CREATE VIRTUAL TABLE vocabulary USING fts5vocab(words, row);`,
);

/** The words of a text as the search table splits and folds them. */
function tokens(text: string): Set<string> {
  scratch.exec("DELETE FROM words");
  scratch.prepare("INSERT INTO words(text) VALUES (?)").run(text);
  const rows = scratch.prepare("SELECT term FROM vocabulary").all();
  return new Set(rows.map((row) => String(row.term)));
}

/**
 * The entries a search for `word` must find, read from the files: in each session file (its
 * first record a valid header), every complete line after the header that is a JSON object
 * whose searchable text holds the word; as `path:line`.
 */
function expectedHits(sessionPaths: readonly string[], word: string): string[] {
  const hits: string[] = [];
  for (const path of sessionPaths) {
    const lines = readFileSync(path, "utf8").split("\n");
    lines.pop(); // what follows the last newline is not a complete line
    let header = false;
    for (const [i, line] of lines.entries()) {
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        continue;
      }
      if (!isJsonRecord(value)) continue;
      if (!header) {
        header = true; // the listing said the first record is a valid header
        expect(isValidHeader(value)).toBe(true);
        continue;
      }
      if (tokens(entryFields(value).text).has(word)) hits.push(`${path}:${i + 1}`);
    }
  }
  return hits.sort();
}

/** A listed info as `listAllSummaries` gives it (plain values, no text). */
function summaryOf(info: ShapedSessionInfo) {
  const time = (date: Date) => (Number.isNaN(date.getTime()) ? null : date.getTime());
  return {
    path: info.path,
    id: info.id,
    cwd: info.cwd,
    name: info.name ?? null,
    parentSessionPath: info.parentSessionPath ?? null,
    created: time(info.created),
    modified: time(info.modified),
    messageCount: info.messageCount,
    firstMessage: info.firstMessage,
    shape: info.shape,
  };
}

/** Every answer of the index equals what the files say now. */
async function answersAreTheFiles(
  index: SessionIndex,
  root: string,
  stored: { readonly file: string; readonly settleMs: number },
): Promise<void> {
  const direct = await listAllSessions(root, { cache: null, withShape: true });
  // `ls --all`'s summaries first (they must not lean on what a listing below just stored):
  // the CLI's path, then the index's own.
  const cli = await quickListAll(root, stored);
  expect(cli?.nested).toEqual(direct.map(summaryOf));
  expect(cli?.flat).toEqual([]);
  const quick = index.listAllSummaries(root);
  expect(quick?.nested).toEqual(direct.map(summaryOf));
  expect(quick?.flat).toEqual([]);
  expect(await index.listProjects(root, { withShape: true })).toEqual(direct);
  const paths = direct.map((info) => info.path);
  // A word of the transcripts: the most frequent one, so that most rounds search for hits.
  const counts = new Map<string, number>();
  for (const info of direct) {
    for (const t of tokens(info.allMessagesText)) counts.set(t, (counts.get(t) ?? 0) + 1);
  }
  const word = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0];
  if (word !== undefined && /^[a-z0-9]+$/.test(word)) {
    const hits = await index.search(word, { dir: root, limit: 100_000 });
    expect(hits.map((h) => `${h.path}:${h.line}`).sort()).toEqual(expectedHits(paths, word));
  }
  for (const path of paths) {
    const s = index.session(path);
    if (s === null) continue; // not answered through the index: the CLI reads the file
    try {
      const file = readSession(path);
      const state = replayState(file.header, file.entries);
      expect(s.entryCount).toBe(file.entries.length);
      expect(s.leafId).toBe(state.leafId);
      expect(flatten(treeOf(replayState(s.header, s.entries())))).toEqual(flatten(treeOf(state)));
      expect(buildSessionProjection(s.contextPath(state.leafId), state.leafId)).toEqual(
        buildSessionProjection([...file.entries], state.leafId),
      );
      for (const [i, e] of file.entries.entries()) expect(s.entryAt(i)).toEqual(e);
    } finally {
      s.close();
    }
  }
}

/** Runs the property; `pauseMs` lets rows settle (`settleMs`) before each round. */
function neverStale(runs: number, settleMs: number, pauseMs: number) {
  return fc.assert(
    fc.asyncProperty(
      fc.array(fileTextArb, { minLength: 1, maxLength: 5 }),
      fc.array(stepArb, { minLength: 1, maxLength: 8 }),
      async (texts, steps) => {
        const root = join(tempDir(), "sessions");
        let paths = writeFolder(root, texts);
        const stored = { file: join(tempDir(), "index.sqlite"), settleMs };
        const index = openSessionIndex(stored);
        try {
          for (let n = 0; n <= steps.length; n++) {
            if (pauseMs > 0) await new Promise((done) => setTimeout(done, pauseMs));
            await answersAreTheFiles(index, root, stored);
            const step = steps[n];
            if (step !== undefined) paths = applyStep(root, paths, step, texts.length + n);
          }
        } finally {
          index.close();
        }
      },
    ),
    fcOptions(runs),
  );
}

const RUNS = fcOptions(40).numRuns;
test(`the index's listings, search and sessions equal the files through every kind of change (numRuns ${RUNS})`, async () => {
  await neverStale(40, 600_000, 0);
});

const SETTLED_RUNS = fcOptions(10).numRuns;
test(`the same with every row settled before each change: a settled row is never trusted after one (numRuns ${SETTLED_RUNS})`, async () => {
  await neverStale(10, 25, 60);
});
