/**
 * The spawn-to-exit measurements of the index benchmark: the reference's `listAll()` in a
 * plain `node`, the real `pi-sessions ls --all`, and the listing floor: a plain `node` that
 * does only what any listing from the index must (read every file's row in one query, stat
 * each file, decode each stored answer, print a line per session), no check beyond the stat
 * and no table layout. Each fails unless its output has the expected shape.
 */

import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { REFERENCE_SESSION_MODULE } from "@pi-sessions/test-utils/reference";

const ms = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;

/**
 * The reference's `listAll()` in a fresh plain `node` that loads nothing else, from spawn to
 * exit: what a command built on it would pay at the least.
 */
export function freshRefWall(agentDir: string, sessions: number): number {
  const script = `const { SessionManager } = await import(${JSON.stringify(REFERENCE_SESSION_MODULE.href)});
const list = await SessionManager.listAll();
process.stdout.write(String(list.length));`;
  const env: NodeJS.ProcessEnv = { ...process.env, PI_CODING_AGENT_DIR: agentDir };
  delete env.NODE_OPTIONS;
  const start = process.hrtime.bigint();
  const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
    env,
    encoding: "utf8",
  });
  const wallMs = ms(start);
  if (run.status !== 0 || run.stdout !== String(sessions)) {
    throw new Error(`reference listAll: exit ${run.status}: ${run.stderr.slice(0, 500)}`);
  }
  return wallMs;
}

/** The installed command (`pnpm --filter @pi-sessions/cli build` bundles what it runs). */
export const CLI_MAIN = fileURLToPath(new URL("../../cli/bin/pi-sessions.mjs", import.meta.url));

/**
 * `pi-sessions ls --all` in a fresh plain `node`, from spawn to exit, its table read through a
 * pipe; fails unless it exits 0 and prints one table line (and one cwd line) per session.
 */
export function freshLs(file: string, agentDir: string, sessions: number): number {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PI_CODING_AGENT_DIR: agentDir,
    PI_SESSIONS_INDEX: file,
  };
  delete env.NODE_OPTIONS;
  const start = process.hrtime.bigint();
  const run = spawnSync(process.execPath, [CLI_MAIN, "ls", "--all"], {
    env,
    encoding: "utf8",
    maxBuffer: 1 << 30,
  });
  const wallMs = ms(start);
  const lines = run.stdout.split("\n").length;
  // A header, two lines per session, the summary, and the final newline's empty string.
  if (run.status !== 0 || lines !== 2 * sessions + 3) {
    throw new Error(`ls --all: exit ${run.status}, ${lines} lines: ${run.stderr.slice(0, 500)}`);
  }
  return wallMs;
}

/**
 * The listing floor from spawn to exit (ms): a plain `node` reads the rows of `indexFile`,
 * stats each file, decodes each answer and prints a line per session; fails unless it printed
 * `sessions` lines and found every row vouched for by its file's stat.
 */
export function listingFloorWallMs(indexFile: string, sessions: number): number {
  const addon = createRequire(import.meta.url).resolve("better-sqlite3");
  const script = `import { createRequire } from "node:module";
import { statSync } from "node:fs";
const Database = createRequire(import.meta.url)(${JSON.stringify(addon)});
const db = new Database(${JSON.stringify(indexFile)}, { readonly: true });
const rows = db.prepare("SELECT path, size, mtime_ms, ctime_ms, answer FROM files").raw(true).all();
const lines = [];
let vouched = 0;
for (const [path, size, mtime, ctime, answer] of rows) {
  const s = statSync(path);
  if (s.size === size && s.mtimeMs === mtime && s.ctimeMs === ctime) vouched++;
  const a = JSON.parse(answer);
  if (a === null) continue;
  const [id, cwd, name, , , modified, count, first] = a.i;
  const when = new Date(modified).toISOString().slice(0, 16);
  lines.push(when + "  " + count + "  " + a.s.branches + "  " + id.slice(0, 8) + "  " + (name ?? first).slice(0, 60), "    " + cwd);
}
process.stdout.write(lines.join("\\n") + "\\n");
process.stderr.write(vouched + "/" + rows.length);`;
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.NODE_OPTIONS;
  const start = process.hrtime.bigint();
  const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
    env,
    encoding: "utf8",
    maxBuffer: 1 << 30,
  });
  const wallMs = ms(start);
  const printed = run.stdout.split("\n").length - 1;
  if (run.status !== 0 || printed !== 2 * sessions || run.stderr !== `${sessions}/${sessions}`) {
    throw new Error(
      `listing floor: exit ${run.status}, ${printed} lines, ${run.stderr.slice(0, 500)}`,
    );
  }
  return wallMs;
}
