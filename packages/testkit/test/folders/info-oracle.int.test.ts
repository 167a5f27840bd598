/**
 * The SessionInfo oracle agrees with core's listing: `SessionManager.listAll(dir)` of every
 * cwd folder of a generated folder (odd values included) lists exactly the files the oracle
 * keeps, with its id, cwd, name, parent path, created time, modified time, message count, first
 * message and text.
 *
 * Runs: `FC_RUNS` (default 150); replay with `FC_SEED` / `FC_PATH`.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { SessionManager } from "@pi-sessions/core";
import { fcOptions, fcRuns, tempDir } from "@pi-sessions/test-utils";
import fc from "fast-check";
import { expect, it } from "vitest";
import {
  entriesOf,
  HOSTILE_VALUE_NAMES,
  resolveParentSession,
  sessionFolderArb,
  sessionInfoOracle,
  writeFolder,
} from "../../src/internal.js";

it(`listAll gives the oracle's SessionInfo for every file (${fcRuns(150)} runs)`, async () => {
  const base = tempDir();
  let n = 0;
  let dropped = 0;
  await fc.assert(
    fc.asyncProperty(
      sessionFolderArb({ values: HOSTILE_VALUE_NAMES, longLineLength: 5_000 }),
      async (folder) => {
        const root = join(base, `r${n++}`);
        writeFolder(folder, root);
        const listed = (
          await Promise.all(readdirSync(root).map((dir) => SessionManager.listAll(join(root, dir))))
        ).flat();
        const byPath = new Map(listed.map((info) => [info.path, info] as const));
        for (const file of folder.files) {
          const expected = sessionInfoOracle(file);
          const info = byPath.get(join(root, file.path));
          if (expected === null) {
            dropped++;
            expect(info, file.path).toBeUndefined();
            continue;
          }
          expect(info, file.path).toBeDefined();
          if (!info) continue;
          expect({
            id: info.id,
            cwd: info.cwd,
            name: info.name,
            parentSessionPath: info.parentSessionPath,
            created: info.created.getTime(),
            modified: info.modified.getTime(),
            messageCount: info.messageCount,
            firstMessage: info.firstMessage,
            allMessagesText: info.allMessagesText,
          }).toEqual({
            id: expected.id,
            cwd: expected.cwd,
            name: expected.name,
            parentSessionPath:
              expected.parentSessionPath === undefined
                ? undefined
                : resolveParentSession(expected.parentSessionPath, root),
            created: Date.parse(expected.created),
            modified: expected.modified ?? info.modified.getTime(),
            messageCount: expected.messageCount,
            firstMessage: expected.firstMessage,
            allMessagesText: expected.allMessagesText,
          });
          expect(entriesOf(file).length).toBe(file.records.length);
        }
        expect(listed.length).toBe(folder.files.filter((f) => sessionInfoOracle(f)).length);
      },
    ),
    fcOptions(150),
  );
  expect(dropped).toBeGreaterThan(0);
});
