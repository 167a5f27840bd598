/**
 * The spawn-to-exit measurements of the index benchmark: the reference's `listAll()` in a
 * plain `node`, the real `pi-sessions ls --all`, and the listing floor: a plain `node` that
 * does only what any listing from the index must (walk the folder for its files, read every
 * file's row in one query, stat each file against its row, decode each stored answer, sort
 * newest first, print a line per session), with no table layout. Each fails unless its output
 * has the expected shape. The plain `node` scripts turn on Node's compile cache, as the
 * installed command does, so that no side is compiled anew at each run.
 */

import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { REFERENCE_SESSION_MODULE } from "@pi-sessions/test-utils/reference";

/** Milliseconds since `start` (a `process.hrtime.bigint()`). */
export const ms = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;

/** What a spawn cost: from spawn to exit, and the child's CPU time (user + system). */
export interface SpawnCost {
  readonly wallMs: number;
  readonly cpuMs: number;
}

/** Where each child writes its CPU time at exit (read by {@link spawnCost}). */
const CPU_FILE = join(mkdtempSync(join(tmpdir(), "pi-sessions-bench-cpu-")), "cpu");

/**
 * Loaded first into every measured child (`--import`): at exit it writes the process's CPU
 * time (user + system, all threads, start-up included) to `PI_BENCH_CPU_FILE`. The same few
 * lines run in every child, so they cost every side alike.
 */
const CPU_PRELOAD = `data:text/javascript,${encodeURIComponent(
  `import { writeFileSync } from "node:fs";
process.on("exit", () => {
  const u = process.cpuUsage();
  writeFileSync(process.env.PI_BENCH_CPU_FILE, String((u.user + u.system) / 1000));
});`,
)}`;

/** Spawns `node args`, timed; returns its run and its cost. */
function spawnCost(args: readonly string[], env: NodeJS.ProcessEnv) {
  rmSync(CPU_FILE, { force: true });
  const start = process.hrtime.bigint();
  const run = spawnSync(process.execPath, ["--import", CPU_PRELOAD, ...args], {
    env: { ...env, PI_BENCH_CPU_FILE: CPU_FILE },
    encoding: "utf8",
    maxBuffer: 1 << 30,
  });
  const wallMs = ms(start);
  const cpuMs = existsSync(CPU_FILE) ? Number(readFileSync(CPU_FILE, "utf8")) : Number.NaN;
  return { run, cost: { wallMs, cpuMs } };
}

/** The first line of each plain `node` script: what `bin/pi-sessions.mjs` does first. */
const COMPILE_CACHE = `(await import("node:module")).enableCompileCache?.();`;

/**
 * The reference's `listAll()` in a fresh plain `node` that loads nothing else, from spawn to
 * exit: what a command built on it would pay at the least.
 */
export function freshRefWall(agentDir: string, sessions: number): SpawnCost {
  const script = `${COMPILE_CACHE}
const { SessionManager } = await import(${JSON.stringify(REFERENCE_SESSION_MODULE.href)});
const list = await SessionManager.listAll();
process.stdout.write(String(list.length));`;
  const env: NodeJS.ProcessEnv = { ...process.env, PI_CODING_AGENT_DIR: agentDir };
  delete env.NODE_OPTIONS;
  const { run, cost } = spawnCost(["--input-type=module", "-e", script], env);
  if (run.status !== 0 || run.stdout !== String(sessions)) {
    throw new Error(`reference listAll: exit ${run.status}: ${run.stderr.slice(0, 500)}`);
  }
  return cost;
}

/** The installed command (`pnpm --filter @pi-sessions/cli build` bundles what it runs). */
export const CLI_MAIN = fileURLToPath(new URL("../../cli/bin/pi-sessions.mjs", import.meta.url));

/**
 * `pi-sessions ls --all` in a fresh plain `node`, from spawn to exit, its table read through a
 * pipe; fails unless it exits 0 and prints one table line (and one cwd line) per session.
 */
export function freshLs(
  file: string,
  agentDir: string,
  sessions: number,
  bin = CLI_MAIN,
): SpawnCost {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PI_CODING_AGENT_DIR: agentDir,
    PI_SESSIONS_INDEX: file,
  };
  delete env.NODE_OPTIONS;
  const { run, cost } = spawnCost([bin, "ls", "--all"], env);
  const lines = run.stdout.split("\n").length;
  // A header, two lines per session, the summary, and the final newline's empty string.
  if (run.status !== 0 || lines !== 2 * sessions + 3) {
    throw new Error(`ls --all: exit ${run.status}, ${lines} lines: ${run.stderr.slice(0, 500)}`);
  }
  return cost;
}

/**
 * The listing floor from spawn to exit (ms): a plain `node` walks the project directories of
 * `root`, reads the rows of `indexFile`, checks each file's stat against its row by the
 * settled rule, decodes each answer, sorts and prints a line per session; fails unless it
 * printed `sessions` sessions and every file's stat vouched for its row (as in a warm `ls`).
 */
export function listingFloor(indexFile: string, root: string, sessions: number): SpawnCost {
  const script = `${COMPILE_CACHE}
import { DatabaseSync } from "node:sqlite";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
const db = new DatabaseSync(${JSON.stringify(indexFile)}, { readOnly: true });
const query = db.prepare("SELECT path, settled, dev, ino, size, mtime_ms, ctime_ms, answer FROM files");
query.setReturnArrays(true);
const rows = new Map(query.all().map((r) => [r[0], r]));
const root = ${JSON.stringify(root)};
const files = [];
for (const dir of readdirSync(root, { withFileTypes: true })) {
  if (!dir.isDirectory()) continue;
  for (const name of readdirSync(join(root, dir.name))) {
    if (name.endsWith(".jsonl")) files.push(join(root, dir.name, name));
  }
}
const infos = [];
let vouched = 0;
for (const path of files) {
  const row = rows.get(path);
  const s = statSync(path);
  if (row === undefined) continue;
  const [, settled, dev, ino, size, mtime, ctime, answer] = row;
  if (settled === 1 && s.dev === dev && s.ino === ino && s.size === size && s.mtimeMs === mtime && s.ctimeMs === ctime) vouched++;
  const a = JSON.parse(answer);
  if (a !== null) infos.push(a);
}
infos.sort((x, y) => y.i[5] - x.i[5]);
const lines = [];
for (const a of infos) {
  const [id, cwd, name, , , modified, count, first] = a.i;
  const when = new Date(modified).toISOString().slice(0, 16);
  lines.push(when + "  " + count + "  " + a.s.branches + "  " + id.slice(0, 8) + "  " + (name ?? first).slice(0, 60), "    " + cwd);
}
process.stdout.write(lines.join("\\n") + "\\n");
process.stderr.write(vouched + "/" + files.length);`;
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.NODE_OPTIONS;
  // Node's one warning that SQLite is experimental is silenced, as the CLI does.
  const { run, cost } = spawnCost(["--no-warnings", "--input-type=module", "-e", script], env);
  const printed = run.stdout.split("\n").length - 1;
  if (run.status !== 0 || printed !== 2 * sessions || run.stderr !== `${sessions}/${sessions}`) {
    throw new Error(
      `listing floor: exit ${run.status}, ${printed} lines, ${run.stderr.slice(0, 500)}`,
    );
  }
  return cost;
}

/**
 * Node's own start-up from spawn to exit: a plain `node` that turns on the compile cache and
 * does nothing else, the floor under every spawned side (what neither a listing nor its floor
 * can go below). Fails unless it exits 0.
 */
export function nodeStartup(): SpawnCost {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.NODE_OPTIONS;
  const { run, cost } = spawnCost(
    ["--no-warnings", "--input-type=module", "-e", COMPILE_CACHE],
    env,
  );
  if (run.status !== 0) throw new Error(`node start-up: exit ${run.status}: ${run.stderr}`);
  return cost;
}

/**
 * Node's start-up with `node:sqlite` loaded and the index file opened, one row read and closed,
 * from spawn to exit: the least any listing from the index pays before its first file (what
 * neither `ls` nor its floor can go below). Fails unless it exits 0 and read a row.
 */
export function sqliteStartup(indexFile: string): SpawnCost {
  const script = `${COMPILE_CACHE}
import { DatabaseSync } from "node:sqlite";
const db = new DatabaseSync(${JSON.stringify(indexFile)}, { readOnly: true });
process.stdout.write(String(db.prepare("SELECT count(*) AS n FROM files").get().n));
db.close();`;
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.NODE_OPTIONS;
  const { run, cost } = spawnCost(["--no-warnings", "--input-type=module", "-e", script], env);
  if (run.status !== 0 || !/^\d+$/.test(run.stdout)) {
    throw new Error(`sqlite start-up: exit ${run.status}: ${run.stderr.slice(0, 500)}`);
  }
  return cost;
}

/**
 * `pi-sessions ls --all` on an empty sessions folder, from spawn to exit: the command's own
 * start-up (Node, the bundle's modules for `ls`, the index opened and closed), the part of a
 * warm `ls --all` that does not grow with the files. Fails unless it says "no sessions" and
 * exits 1, as `ls` does on an empty folder.
 */
export function lsStartup(file: string, agentDir: string, bin = CLI_MAIN): SpawnCost {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PI_CODING_AGENT_DIR: agentDir,
    PI_SESSIONS_INDEX: file,
  };
  delete env.NODE_OPTIONS;
  const { run, cost } = spawnCost([bin, "ls", "--all"], env);
  if (run.status !== 1 || !run.stderr.includes("no sessions")) {
    throw new Error(`ls --all (empty): exit ${run.status}: ${run.stderr.slice(0, 500)}`);
  }
  return cost;
}
