/**
 * Starts one side of the pi-runtime test as a child process and reads its log. Each side
 * runs in its own process so that the module redirect, the stopped clock and pi's
 * process-wide state (the faux provider, model runtime, settings) cannot leak between them.
 */
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { CLOCK_START_ENV, type FlowName, SIDE_ENV, type Side } from "./child-env.js";
import type { SideLog } from "./run-side.js";

const here = dirname(fileURLToPath(import.meta.url));
/** packages/core: `--import tsx` resolves from the child's cwd, and tsx is core's devDependency. */
const CORE_DIR = join(here, "..", "..");

/** What a side's process did. */
export interface SideRun {
  readonly side: Side;
  readonly code: number | null;
  readonly stderr: string;
  readonly ms: number;
  /** The side's log, when the process wrote one. */
  readonly log?: SideLog;
}

/** The parent's environment without pi's own variables, which would change what pi does. */
function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("PI_")));
}

/**
 * Runs `run-side.ts <root> <flow>` for `side` with this Node (`process.execPath`), TypeScript via
 * tsx, `@pi-sessions/core` from its sources (`--conditions=@pi-sessions/source`) and
 * child-preload.ts. HOME and PI_CODING_AGENT_DIR point into `root`, so ~/.pi is never read
 * or written, and pi is told to stay offline.
 */
export function runSide(
  side: Side,
  flow: FlowName,
  root: string,
  clockStart: number,
): Promise<SideRun> {
  const home = join(root, "home");
  mkdirSync(home, { recursive: true });
  const args = [
    "--conditions=@pi-sessions/source",
    "--import",
    "tsx",
    "--import",
    join(here, "child-preload.ts"),
    join(here, "run-side.ts"),
    root,
    flow,
  ];
  const env = {
    ...cleanEnv(),
    HOME: home,
    PI_CODING_AGENT_DIR: join(root, "agent"),
    PI_OFFLINE: "1",
    PI_TELEMETRY: "0",
    PI_SKIP_VERSION_CHECK: "1",
    [SIDE_ENV]: side,
    [CLOCK_START_ENV]: String(clockStart),
  };
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: CORE_DIR, env, stdio: "pipe" });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    // Drained so a chatty child never blocks on a full pipe.
    child.stdout.resume();
    child.on("error", reject);
    child.on("close", (code) => {
      let log: SideLog | undefined;
      try {
        log = JSON.parse(readFileSync(join(root, "log.json"), "utf8")) as SideLog;
      } catch {
        log = undefined;
      }
      const ms = Math.round(performance.now() - started);
      resolve({ side, code, stderr, ms, ...(log ? { log } : {}) });
    });
  });
}
