/**
 * The README's two-machine `sync` walk-through is real: `scripts/sync-demo.ts` runs it (the
 * bin's `sync` and `tree`, then pi 1.6.0's SessionManager on the synced file) and its output is
 * the README's block, line for line.
 */

import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { CLI_DIR } from "./helpers/run-bin.js";

it("the README's sync walk-through is the demo script's output", () => {
  const run = spawnSync(
    process.execPath,
    [
      "--conditions=@pi-sessions/source",
      "--import",
      import.meta.resolve("tsx"),
      join(CLI_DIR, "scripts", "sync-demo.ts"),
    ],
    { encoding: "utf8" },
  );
  expect(run.status, run.stderr).toBe(0);
  const readme = readFileSync(join(CLI_DIR, "README.md"), "utf8");
  const block = readme.split("<!-- sync-demo -->\n```text\n")[1]?.split("\n```\n")[0];
  expect(block).toBe(run.stdout.trimEnd());
  expect(run.stdout).toContain("← leaf");
});
