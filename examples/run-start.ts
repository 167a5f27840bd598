/**
 * Runs an example's `src/main.ts` the way its README's `start` script does (`node
 * --conditions=@pi-sessions/source --import tsx src/main.ts ...args`), for the examples'
 * tests. Shared so every example checks its README command the same way.
 */
import { type SpawnSyncReturns, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

/**
 * Runs the `start` script of the example whose test file is `testUrl` (pass
 * `import.meta.url`), with `args`, and returns the finished process (stdout as text).
 */
export function runStart(testUrl: string, ...args: string[]): SpawnSyncReturns<string> {
  const cwd = fileURLToPath(new URL("..", testUrl));
  return spawnSync(
    process.execPath,
    ["--conditions=@pi-sessions/source", "--import", "tsx", "src/main.ts", ...args],
    { cwd, encoding: "utf8" },
  );
}
