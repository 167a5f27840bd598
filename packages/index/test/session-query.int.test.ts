/**
 * One session through the index (`SessionIndex.session`) gives core's tree and context what
 * a full read gives them, and refuses files it cannot answer for exactly (damaged, torn,
 * legacy) so that the caller reads them whole.
 */

import { appendFileSync, copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  branchOf,
  buildSessionProjection,
  EntryUnreadableError,
  readSession,
  replayState,
  treeOf,
} from "@pi-sessions/core";
import { corpusFile, fcOptions, tempDir } from "@pi-sessions/test-utils";
import { sessionLogArb } from "@pi-sessions/testkit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { openSessionIndex, type SessionIndex } from "../src/index.js";
import { flatten } from "./tree-ids.js";

describe("a session through the index", () => {
  const PARAMS = fcOptions(40);
  it(`gives core's tree and context what the whole file gives (numRuns ${PARAMS.numRuns})`, async () => {
    const arb = sessionLogArb({ minEntries: 0, maxEntries: 80, shape: "bushy", multiRoot: true });
    await fc.assert(
      fc.asyncProperty(arb, fc.nat(), async (log, pick) => {
        const file = join(tempDir(), "s.jsonl");
        writeFileSync(file, log.jsonl);
        const index = openSessionIndex({ file: ":memory:" });
        try {
          const direct = readSession(file);
          const state = replayState(direct.header, direct.entries);
          const s = index.session(file);
          expect(s).not.toBeNull();
          if (s === null) return;
          try {
            expect(s.header).toEqual(direct.header);
            expect(s.entryCount).toBe(direct.entries.length);
            expect(s.leafId).toBe(state.leafId);
            // Read before anything decodes them: the timestamps the rows give are the records'.
            expect(s.entries().map((e) => e.timestamp)).toEqual(
              direct.entries.map((e) => e.timestamp),
            );
            const tree = treeOf(replayState(s.header, s.entries()));
            expect(flatten(tree)).toEqual(flatten(treeOf(state)));
            const ids = direct.entries.map((e) => e.id);
            // The entries are the file's records, every field of them (nothing made up).
            expect(s.entries()).toEqual(direct.entries);
            for (const leaf of [state.leafId, ids[pick % Math.max(1, ids.length)] ?? null]) {
              expect(buildSessionProjection(s.contextPath(leaf), leaf)).toEqual(
                buildSessionProjection([...direct.entries], leaf),
              );
              expect(s.contextPath(leaf)).toEqual(branchOf(state, leaf));
            }
            for (const [i, e] of direct.entries.entries()) expect(s.entryAt(i)).toEqual(e);
          } finally {
            s.close();
          }
        } finally {
          index.close();
        }
      }),
      PARAMS,
    );
  });

  it("is refused for a torn tail, a damaged line and a legacy file, and caught up after growth", () => {
    withBranchedCopy((index, file, dir) => {
      const before = index.session(file);
      expect(before).not.toBeNull();
      const count = before?.entryCount ?? 0;
      before?.close();
      appendFileSync(file, '{"type":"message","id":"torn1","parentId":null,"mess');
      expect(index.session(file)).toBeNull();
      appendFileSync(
        file,
        'age":{"role":"user","content":"done","timestamp":1},"timestamp":"x"}\n',
      );
      const grown = index.session(file);
      expect(grown?.entryCount).toBe(count + 1);
      expect(grown?.leafId).toBe("torn1");
      grown?.close();
      appendFileSync(file, "not json\n");
      expect(index.session(file)).toBeNull();
      const legacy = join(dir, "legacy.jsonl");
      copyFileSync(corpusFile("large-session.jsonl"), legacy);
      expect(index.session(legacy)).toBeNull();
      expect(index.session(join(dir, "missing.jsonl"))).toBeNull();
    });
  });

  it("refuses an entry whose line no longer holds its record when it is read", () => {
    withBranchedCopy((index, file) => {
      const s = index.session(file);
      expect(s).not.toBeNull();
      if (s === null) return;
      try {
        const entries = s.entries();
        // A message: the label and name records are read at once, a message only when read.
        const last = entries.findLastIndex((e) => e.type === "message");
        const id = entries[last]?.id as string;
        // Another record of the same length in place of the last line (same size, same inode).
        const text = readFileSync(file, "utf8");
        const other = id.replace(/./, (c) => (c === "a" ? "b" : "a"));
        writeFileSync(file, text.replace(`"id":"${id}"`, `"id":"${other}"`));
        expect(() => JSON.stringify(entries[last])).toThrow(EntryUnreadableError);
      } finally {
        s.close();
      }
    });
  });
});

/** Runs `use` over a copy of a branched corpus session and an index file beside it. */
function withBranchedCopy(use: (index: SessionIndex, file: string, dir: string) => void): void {
  const dir = tempDir();
  const file = join(dir, "s.jsonl");
  copyFileSync(corpusFile("ref-1.6-branched.jsonl"), file);
  const index = openSessionIndex({ file: join(dir, "index.sqlite") });
  try {
    use(index, file, dir);
  } finally {
    index.close();
  }
}
