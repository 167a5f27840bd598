/**
 * Index trouble inside pi: when the session index cannot be opened (here its file is a
 * directory), the launcher's listings read the files, as core's do, with the same answers.
 */

import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { SessionManager } from "@pi-sessions/core";
import { tempDir } from "@pi-sessions/test-utils";
import { describe, expect, it } from "vitest";
import { LauncherSessionManager } from "../../src/pi-launcher/launcher-session-manager.js";
import { CWDS, writeFile } from "./listing-folders.js";

const unusable = join(tempDir("pi-launcher-index-"), "index.sqlite");
mkdirSync(unusable);
process.env.PI_SESSIONS_INDEX = unusable;

describe("the launcher's listings without a usable index", () => {
  it("read the files and answer as core does", async () => {
    const agent = tempDir("pi-launcher-agent-");
    process.env.PI_CODING_AGENT_DIR = agent;
    for (let n = 0; n < 4; n++) {
      writeFile(
        join(agent, "sessions"),
        { cwd: (n % 2) as 0 | 1, kind: "valid", turns: 2, seed: n },
        n,
      );
    }
    expect(await LauncherSessionManager.listAll()).toEqual(await SessionManager.listAll());
    expect(await LauncherSessionManager.list(CWDS[1])).toEqual(await SessionManager.list(CWDS[1]));
    expect((await LauncherSessionManager.listAll()).length).toBe(4);
  });
});
