/**
 * The listings pi's session picker calls (`/resume`, `--resume`) through the launcher's
 * SessionManager answer from the session index, and exactly as core's listing of the files
 * does: the same sessions, the same progress calls (`loaded`, `total`, the partial lists), the
 * same abort — on folders with damaged files, after each of a run of changes (growth, a torn
 * line still being written, deletion, new files). The index really answers: its file holds
 * the sessions afterwards. (index-listing-fallback.int.test.ts: an unusable index file.)
 */

import { join } from "node:path";
import { type SessionInfo, type SessionListProgress, SessionManager } from "@pi-sessions/core";
import { defaultSessionInfoCache } from "@pi-sessions/core/internal";
import { openSessionIndex } from "@pi-sessions/index";
import { fcOptions, tempDir } from "@pi-sessions/test-utils";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LauncherSessionManager } from "../../src/pi-launcher/launcher-session-manager.js";
import { applyChange, CWDS, changeArb, fileSpecArb, writeFile } from "./listing-folders.js";

const indexFile = join(tempDir("pi-launcher-index-"), "index.sqlite");
process.env.PI_SESSIONS_INDEX = indexFile;

type Lister = (onProgress: SessionListProgress) => Promise<SessionInfo[]>;

/** A listing's result and every progress call, the partial lists by path. */
async function run(list: Lister): Promise<unknown> {
  const calls: unknown[] = [];
  const result = await list((loaded, total, partial) =>
    calls.push([loaded, total, partial?.map((i) => i.path)]),
  );
  return { result, calls };
}

/** Core's listing read from the files (its in-memory cache cleared: a same-stamp change fools it). */
const direct =
  (list: Lister): Lister =>
  (p) => {
    defaultSessionInfoCache.clear();
    return list(p);
  };

describe("the launcher's listings (pi's /resume)", () => {
  it("answer from the index exactly as core's listing of the files, progress and all (numRuns 40)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fileSpecArb, { minLength: 1, maxLength: 6 }),
        fc.array(changeArb, { minLength: 1, maxLength: 6 }),
        async (specs, changes) => {
          const agent = tempDir("pi-launcher-agent-");
          process.env.PI_CODING_AGENT_DIR = agent;
          const root = join(agent, "sessions");
          let files = specs.map((spec, n) => writeFile(root, spec, n));
          for (let n = 0; n <= changes.length; n++) {
            expect(await run((p) => LauncherSessionManager.listAll(p))).toEqual(
              await run(direct((p) => SessionManager.listAll(p))),
            );
            // The index answered (a listing that fell back to the files would leave it behind).
            const check = openSessionIndex({ file: indexFile });
            const report = check.verify(root);
            check.close();
            expect({ missing: report.missing, stale: report.stale }).toEqual({
              missing: 0,
              stale: 0,
            });
            for (const cwd of CWDS) {
              const dir = join(root, `--${cwd.slice(1).replaceAll("/", "-")}--`);
              expect(await run((p) => LauncherSessionManager.list(cwd, undefined, p))).toEqual(
                await run(direct((p) => SessionManager.list(cwd, undefined, p))),
              );
              expect(await run((p) => LauncherSessionManager.listAll(dir, p))).toEqual(
                await run(direct((p) => SessionManager.listAll(dir, p))),
              );
            }
            const change = changes[n];
            if (change) files = applyChange(root, files, change, specs.length + n);
          }
        },
      ),
      fcOptions(40),
    );
  });

  it("rejects with the abort's reason, as core's listing does", async () => {
    const agent = tempDir("pi-launcher-agent-");
    process.env.PI_CODING_AGENT_DIR = agent;
    writeFile(join(agent, "sessions"), { cwd: 0, kind: "valid", turns: 1, seed: 1 }, 0);
    const reason = new Error("picker closed");
    const signal = AbortSignal.abort(reason);
    await expect(LauncherSessionManager.listAll(undefined, signal)).rejects.toBe(reason);
    await expect(SessionManager.listAll(undefined, signal)).rejects.toBe(reason);
    await expect(LauncherSessionManager.list(CWDS[0], undefined, undefined, signal)).rejects.toBe(
      reason,
    );
  });
});
