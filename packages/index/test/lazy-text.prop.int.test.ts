/**
 * A listing answered from settled rows reads each session's `allMessagesText` only when
 * something reads it (`lazy-text.ts`). These prove it is lazy, that what it reads is the file's
 * text as the listing found it while the file is unchanged, and never a text the file did not
 * have: after the file changed and a later listing re-indexed it, or with the index closed, the
 * file's own text.
 */

import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { SessionInfo } from "@pi-sessions/core";
import { fcOptions, tempDir, userMessage } from "@pi-sessions/test-utils";
import fc from "fast-check";
import { expect, test } from "vitest";
import { openSessionIndex } from "../src/index.js";
import { directListing, indexListing, sessionsFolder } from "./fault-helpers.js";
import { sessionText } from "./session-text.js";

/** Far above this machine's timestamp granule (the kernel's tick, a few ms on Linux). */
const SETTLE_MS = 25;
const settle = () => new Promise((done) => setTimeout(done, 2 * SETTLE_MS + 10));

/** Whether the info's text is read on first use (an accessor), not copied by the listing. */
const lazy = (info: SessionInfo) =>
  Object.getOwnPropertyDescriptor(info, "allMessagesText")?.get !== undefined;

/** The direct listing's text of each path. */
const textsByPath = async (root: string) =>
  new Map((await directListing(root)).map((info) => [info.path, info.allMessagesText]));

test("a settled listing reads no text until one is read, then equals the file listing", async () => {
  const root = sessionsFolder();
  const index = openSessionIndex({ file: join(tempDir(), "index.sqlite"), settleMs: SETTLE_MS });
  let open = true;
  try {
    await indexListing(index, root);
    await settle();
    await indexListing(index, root); // settles the rows: the files are old now
    const before = index.statOnly;
    const listed = (await indexListing(index, root)) as SessionInfo[];
    expect(index.statOnly - before).toBe(listed.length);
    expect(listed.length).toBeGreaterThan(0);
    for (const info of listed) expect(lazy(info)).toBe(true);
    // The keys in the file listing's order, the text among them.
    const direct = await directListing(root);
    expect(listed.map((info) => Object.keys(info))).toEqual(direct.map((i) => Object.keys(i)));
    expect(listed).toEqual(direct);
    // Spread and JSON see the text as a plain field.
    expect(JSON.parse(JSON.stringify(listed))).toEqual(JSON.parse(JSON.stringify(direct)));
    expect(listed.map((info) => ({ ...info }))).toEqual(direct.map((i) => ({ ...i })));

    // An assignment replaces the text, read or not, as on a plain property.
    const again = (await indexListing(index, root)) as SessionInfo[];
    const first = again[0] as SessionInfo;
    first.allMessagesText = "replaced";
    expect(first.allMessagesText).toBe("replaced");
    expect({ ...first }.allMessagesText).toBe("replaced");

    // With the index closed, the text comes from the file.
    const unread = again.slice(1);
    index.close();
    open = false;
    const texts = await textsByPath(root);
    for (const info of unread) expect(info.allMessagesText).toBe(texts.get(info.path));
  } finally {
    if (open) index.close();
  }
});

test("an unread text is the file's as listed while the file is unchanged, else the file's own (numRuns 12)", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(
        fc.record({
          file: fc.nat(2),
          op: fc.constantFrom("append", "append-and-relist", "relist"),
          word: fc.constantFrom("alpha", "beta", "gamma"),
        }),
        { minLength: 1, maxLength: 4 },
      ),
      async (steps) => {
        const root = join(tempDir(), "sessions");
        const dir = join(root, "--p--");
        mkdirSync(dir, { recursive: true });
        const paths = [0, 1, 2].map((i) => join(dir, `s${i}.jsonl`));
        paths.forEach((path, i) => {
          writeFileSync(path, sessionText(`0000000${i}`, "/work/p", [{ user: `first ${i}` }]));
        });
        const index = openSessionIndex({
          file: join(tempDir(), "index.sqlite"),
          settleMs: SETTLE_MS,
        });
        try {
          await index.listAll(dir);
          await settle();
          await index.listAll(dir);
          const listed = await index.listAll(dir);
          expect(listed.every(lazy)).toBe(true);
          const asListed = await textsByPath(root);
          // Files written since the listing, and of those the ones a later listing re-indexed.
          const changed = new Set<string>();
          const reindexed = new Set<string>();
          let n = 0;
          for (const step of steps) {
            const path = paths[step.file] as string;
            if (step.op !== "relist") {
              n++;
              const entry = {
                type: "message",
                id: `n${n}`,
                parentId: "e0",
                timestamp: new Date(Date.UTC(2026, 1, n)).toISOString(),
                message: userMessage(`${step.word} ${n}`, Date.UTC(2026, 1, n)),
              };
              appendFileSync(path, `${JSON.stringify(entry)}\n`);
              changed.add(path);
            }
            if (step.op !== "append") {
              await index.listAll(dir);
              for (const path of changed) reindexed.add(path);
            }
          }
          const now = await textsByPath(root);
          for (const info of listed) {
            // The row the listing read while it stands (the file as listed, though written
            // since), else the file as it is now: never a text the file did not have.
            const expected = reindexed.has(info.path) ? now : asListed;
            expect(info.allMessagesText).toBe(expected.get(info.path));
          }
          expect(
            changed.size === 0 || [...changed].some((p) => now.get(p) !== asListed.get(p)),
          ).toBe(true);
        } finally {
          index.close();
        }
      },
    ),
    {
      ...fcOptions(12),
      // Re-indexed, then written again unseen: the row's newer text is not the file's now.
      examples: [
        [
          [
            { file: 0, op: "append-and-relist", word: "alpha" },
            { file: 0, op: "append", word: "beta" },
            { file: 1, op: "append", word: "gamma" },
          ],
        ],
      ],
    },
  );
});
