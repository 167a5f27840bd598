/**
 * How long the real `pi --mode rpc` takes to be ready for a prompt — its first command, a
 * `get_state`, answered — started alone (its own bin) or through `pi-sessions pi` (the built
 * bin), and what the pi process used until then: CPU time and peak memory (VmHWM), read from
 * /proc (Linux). Through the launcher, pi is the launcher's child; both are reported.
 */

import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";

/** One start of pi, measured when its first answer came. */
export interface ReadySample {
  /** Spawn to the `get_state` answer, ms. */
  readonly readyMs: number;
  /** CPU time (user + system) of the pi process until then, ms. */
  readonly cpuMs: number;
  /** Peak resident memory of the pi process until then, MB. */
  readonly peakMb: number;
  /** The launcher's own peak, MB (through the launcher only). */
  readonly launcherPeakMb?: number;
  /** What `get_state` answered (the session it opened). */
  readonly state: Record<string, unknown>;
}

const TICKS_PER_SECOND = 100;

function procStatus(pid: number, field: string): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").match(
    new RegExp(`^${field}:\\s+(\\d+)`, "m"),
  );
  return line ? Number(line[1]) / 1024 : Number.NaN;
}

function procCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8")
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

/**
 * Starts `node <args>` in `cwd` with `env`, sends `get_state` at once, and measures when the
 * answer comes; `viaLauncher` says pi is the started process's child.
 */
export function measureReady(
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; viaLauncher: boolean },
): Promise<ReadySample> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    let done = false;
    child.stderr.setEncoding("utf8").on("data", (c: string) => {
      err += c;
    });
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
      if (done) return;
      for (const line of out.split("\n")) {
        if (!line.includes('"id":"ready"')) continue;
        done = true;
        const readyMs = performance.now() - started;
        const launcher = child.pid as number;
        const pid = options.viaLauncher ? (childrenOf(launcher)[0] ?? launcher) : launcher;
        const sample: ReadySample = {
          readyMs,
          cpuMs: procCpuMs(pid),
          peakMb: procStatus(pid, "VmHWM"),
          ...(options.viaLauncher ? { launcherPeakMb: procStatus(launcher, "VmHWM") } : {}),
          state: (JSON.parse(line) as { data: Record<string, unknown> }).data,
        };
        child.stdin.end();
        child.on("close", () => resolve(sample));
        return;
      }
    });
    child.on("error", reject);
    child.on("close", (code) => {
      if (!done) reject(new Error(`pi ended (${code}) before answering:\n${err.slice(-2000)}`));
    });
    child.stdin.write(`${JSON.stringify({ type: "get_state", id: "ready" })}\n`);
  });
}
