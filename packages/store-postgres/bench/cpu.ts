/**
 * CPU time, as the bench reports it beside wall time: this process's (the clients: managers,
 * the store, pg's protocol), and the server's (the postmaster and every process it started:
 * backends, WAL writer, checkpointer), read from /proc. The server's is known only for a
 * server this process started (its postmaster's pid); for one `PI_SESSIONS_PG_URL` names it
 * is reported as unknown.
 */
import { readdirSync, readFileSync } from "node:fs";

/** Clock ticks per second of /proc's times (`getconf CLK_TCK`, 100 on Linux). */
const TICKS = 100;

/** utime + stime (+ cutime + cstime when `children`) of a process, in ms; 0 if it is gone. */
function processMs(pid: number, children: boolean): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name (which may hold spaces) in parentheses.
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const own = Number(f[11]) + Number(f[12]);
    const waited = children ? Number(f[13]) + Number(f[14]) : 0;
    return ((own + waited) * 1000) / TICKS;
  } catch {
    return 0;
  }
}

/** The pids whose parent is `pid`. */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === pid) out.push(Number(name));
    } catch {
      // Gone meanwhile.
    }
  }
  return out;
}

/**
 * The server's CPU so far, in ms: the postmaster with the children it reaped, and those alive.
 * A backend that exits between two readings moves from "alive" to "reaped": the sum holds.
 */
export function serverCpuMs(postmaster: number | undefined): number | undefined {
  if (postmaster === undefined) return undefined;
  let ms = processMs(postmaster, true);
  for (const child of childrenOf(postmaster)) ms += processMs(child, false);
  return ms;
}

/** This process's CPU so far, in ms. */
export function clientCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** CPU and wall time spent by `run`, in ms. */
export interface Spent {
  readonly wallMs: number;
  readonly clientMs: number;
  /** Undefined when the server is not this process's child. */
  readonly serverMs: number | undefined;
}

/**
 * Measures the wall, client and server time of `run`: from its start, or from its last call of
 * `start()` (its set-up done: sessions written, connections checked out; see `startingGate`).
 */
export async function measure<T>(
  postmaster: number | undefined,
  run: (start: () => void) => Promise<T>,
): Promise<{ result: T; spent: Spent }> {
  let s0 = serverCpuMs(postmaster);
  let c0 = clientCpuMs();
  let t0 = performance.now();
  const start = () => {
    s0 = serverCpuMs(postmaster);
    c0 = clientCpuMs();
    t0 = performance.now();
  };
  const result = await run(start);
  const wallMs = performance.now() - t0;
  const clientMs = clientCpuMs() - c0;
  const s1 = serverCpuMs(postmaster);
  const serverMs = s0 === undefined || s1 === undefined ? undefined : s1 - s0;
  return { result, spent: { wallMs, clientMs, serverMs } };
}

/**
 * The start of `writers` writers' measured work: each awaits the returned `ready()` once, set
 * up; the last one in calls `start` (the clocks of `measure`) and lets them all go at once. A
 * writer's set-up (its session's first write, a connection) is then no part of what is measured.
 */
export function startingGate(writers: number, start: () => void): () => Promise<void> {
  let waiting = writers;
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return () => {
    waiting--;
    if (waiting === 0) {
      start();
      open();
    }
    return opened;
  };
}
