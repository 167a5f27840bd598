/**
 * `pi-sessions ls --all --json` over many generated session files, against the reference's
 * `SessionManager.listAll()` on the same directory, in the same run.
 *
 *   node --conditions=@pi-sessions/source --import tsx packages/cli/bench/ls-bench.ts \
 *     [--files N] [--kb K] [--projects P] [--rounds R] [--keep]
 *
 * Defaults: 10,000 files averaging 87 KB (about 870 MB) spread over 20 project directories,
 * 3 rounds; `pnpm bench` passes `--files 2000` to stay within a few minutes. Two tables:
 * - fresh process per listing ("cold"): a new node process per run. For ours it runs the
 *   CLI's own `runCli` (the bin's code path) with stdout captured; for the reference it calls
 *   `listAll()` and `JSON.stringify`s the result, as a script would. Both time only the call
 *   (module loading excluded), and the wall clock of the whole process is shown beside it.
 * - same process, interleaved rounds ("warm"): the reference's `listAll()` + stringify, and
 *   our `runCli` twice in a row (the second call finds whatever the first left warm: JIT and
 *   any listing cache of the command).
 * The files are in the page cache after generation, so "cold" means a cold process, not a
 * cold disk. `ls` reads through the session index, kept in the temp directory: it is built
 * once before the rounds (timed on its own line), so every listing after finds it warm, as a
 * user's second `ls` does. Exits 1 if our listing does not name the same sessions as the
 * reference's.
 */

import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { REFERENCE_SESSION_MODULE } from "@pi-sessions/test-utils/reference";
import { flagValue, numberFlag } from "../../core/bench/flags.js";
import { sessionTemplates } from "../../core/bench/generate.js";
import type { CliIo } from "../src/index.js";

/** The part of the reference's API this benchmark calls. */
interface RefModule {
  SessionManager: { listAll(): Promise<{ path: string }[]> };
}

/**
 * Writes `files` sessions averaging `kb` KB into `<root>/--work-project-<k>--/`, the layout pi
 * uses, from core's pool of generated sessions ({@link sessionTemplates}), each with a fresh
 * id, time, cwd and mtime.
 */
function generate(root: string, files: number, kb: number, projects: number): number {
  const templates = sessionTemplates(kb);
  for (let p = 0; p < projects; p++) mkdirSync(join(root, `--work-project-${p}--`));
  let total = 0;
  for (let i = 0; i < files; i++) {
    const t = templates[i % templates.length];
    if (t === undefined) continue;
    const project = i % projects;
    const id = `0197bench-${String(i).padStart(6, "0")}`;
    const stamp = new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString();
    const header = { ...t.head, id, timestamp: stamp, cwd: `/work/project-${project}` };
    const text = JSON.stringify(header) + t.body;
    const path = join(
      root,
      `--work-project-${project}--`,
      `${stamp.replace(/[:.]/g, "-")}_${id}.jsonl`,
    );
    writeFileSync(path, text);
    const mtime = 1_735_000_000 + (i % 977) * 60;
    utimesSync(path, mtime, mtime);
    total += Buffer.byteLength(text);
  }
  return total;
}

/** An io that keeps stdout in memory and drops stderr (not a TTY: no progress bar). */
function captureIo(env: NodeJS.ProcessEnv): { io: CliIo; text: () => string } {
  const chunks: string[] = [];
  const io: CliIo = {
    stdout: { write: (s: string) => chunks.push(s), isTTY: false },
    stderr: { write: () => true, isTTY: false },
    env,
    cwd: process.cwd(),
  };
  return { io, text: () => chunks.join("") };
}

/** One `ls --all --json` through the CLI's code path; returns the listed paths. */
async function oursOnce(): Promise<string[]> {
  // Imported on first use, so a reference child process never loads our code.
  const { runCli } = await import("../src/index.js");
  const { io, text } = captureIo(process.env);
  const code = await runCli(["ls", "--all", "--json"], io);
  if (code !== 0) throw new Error(`ls exited ${code}`);
  return (JSON.parse(text()) as { path: string }[]).map((s) => s.path);
}

/** One reference `listAll()` serialised as a script would print it; returns the paths. */
async function refOnce(): Promise<string[]> {
  const ref = (await import(REFERENCE_SESSION_MODULE.href)) as RefModule;
  const list = await ref.SessionManager.listAll();
  JSON.stringify(list);
  return list.map((s) => s.path);
}

async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = process.hrtime.bigint();
  const value = await fn();
  return { value, ms: Number(process.hrtime.bigint() - start) / 1e6 };
}

/** Child mode: one listing by `who` in this fresh process; prints `{ms, paths}` as JSON. */
async function child(who: string): Promise<void> {
  // Module loading is not listing time.
  await (who === "ref" ? import(REFERENCE_SESSION_MODULE.href) : import("../src/index.js"));
  const { value, ms } = await timed(who === "ref" ? refOnce : oursOnce);
  process.stdout.write(`${JSON.stringify({ ms, count: value.length })}\n`);
}

interface FreshRun {
  readonly ms: number;
  readonly wallMs: number;
  readonly count: number;
}

function inFreshProcess(who: "ref" | "ours", agentDir: string): FreshRun {
  const script = fileURLToPath(import.meta.url);
  const start = process.hrtime.bigint();
  const out = execFileSync(process.execPath, [...process.execArgv, script, "--child", who], {
    encoding: "utf8",
    env: { ...process.env, PI_CODING_AGENT_DIR: agentDir },
    maxBuffer: 1 << 20,
  });
  const wallMs = Number(process.hrtime.bigint() - start) / 1e6;
  const { ms, count } = JSON.parse(out.trim().split("\n").at(-1) ?? "{}") as FreshRun;
  return { ms, wallMs, count };
}

/** Where the package is; the built bin is used when `dist/` exists (no transpiling at start). */
const CLI_DIR = fileURLToPath(new URL("..", import.meta.url));

/** The real `pi-sessions ls --all --json` as a user runs it; returns wall ms and session count. */
function binProcess(agentDir: string): { wallMs: number; count: number } {
  const built = existsSync(join(CLI_DIR, "dist", "main.js"));
  const args = built
    ? [join(CLI_DIR, "bin", "pi-sessions.mjs")]
    : ["--conditions=@pi-sessions/source", "--import", "tsx", join(CLI_DIR, "src", "main.ts")];
  const start = process.hrtime.bigint();
  const out = execFileSync(process.execPath, [...args, "ls", "--all", "--json"], {
    encoding: "utf8",
    env: { ...process.env, PI_CODING_AGENT_DIR: agentDir },
    maxBuffer: 1 << 30,
  });
  const wallMs = Number(process.hrtime.bigint() - start) / 1e6;
  return { wallMs, count: (JSON.parse(out) as unknown[]).length };
}

const median = (values: readonly number[]): number => {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? (s[m] ?? 0) : ((s[m - 1] ?? 0) + (s[m] ?? 0)) / 2;
};

/** Prints a table whose first row is the reference: median, ref/this ratio, every run. */
function table(title: string, rows: readonly [string, readonly number[]][]): void {
  const refMs = median(rows[0]?.[1] ?? []);
  console.log(
    `\n${title.padEnd(50)}${"median".padStart(10)}${"ref/this".padStart(10)}   each run (ms)`,
  );
  for (const [name, runs] of rows) {
    const ms = median(runs);
    const ratio = `${(refMs / ms).toFixed(2)}x`;
    const each = runs.map((r) => r.toFixed(0)).join(" / ");
    console.log(
      `${name.padEnd(50)}${`${ms.toFixed(0)} ms`.padStart(10)}${ratio.padStart(10)}   ${each}`,
    );
  }
}

async function main(): Promise<void> {
  const who = flagValue("child");
  if (who !== undefined) return child(who);
  const files = numberFlag("files", 10_000);
  const kb = numberFlag("kb", 87);
  const projects = numberFlag("projects", 20);
  const rounds = numberFlag("rounds", 3);
  const agentDir = mkdtempSync(join(tmpdir(), "pi-sessions-ls-bench-"));
  const root = join(agentDir, "sessions");
  mkdirSync(root);
  process.env.PI_CODING_AGENT_DIR = agentDir;
  // The index of the generated folder lives with it (children inherit the environment).
  process.env.PI_SESSIONS_INDEX = join(agentDir, "index.sqlite");
  try {
    const genStart = Date.now();
    const bytes = generate(root, files, kb, projects);
    console.log(
      `${files} files in ${projects} project dirs, ${(bytes / 2 ** 20).toFixed(0)} MiB, generated in ${Date.now() - genStart} ms (${root})`,
    );
    const build = await timed(oursOnce);
    console.log(`session index built by the first ls in ${build.ms.toFixed(0)} ms`);
    const freshRef: FreshRun[] = [];
    const freshOurs: FreshRun[] = [];
    const bins: { wallMs: number; count: number }[] = [];
    for (let r = 0; r < rounds; r++) {
      freshRef.push(inFreshProcess("ref", agentDir));
      freshOurs.push(inFreshProcess("ours", agentDir));
      bins.push(binProcess(agentDir));
    }
    const ref: number[] = [];
    const first: number[] = [];
    const second: number[] = [];
    let expected: string[] = [];
    let same = true;
    for (let r = 0; r < rounds; r++) {
      const a = await timed(refOnce);
      const b = await timed(oursOnce);
      const c = await timed(oursOnce);
      ref.push(a.ms);
      first.push(b.ms);
      second.push(c.ms);
      expected = [...a.value].sort();
      const got = [b.value, c.value].map((v) => [...v].sort().join("\n"));
      same &&= got.every((g) => g === expected.join("\n"));
    }
    const counts = [...freshRef, ...freshOurs, ...bins].every((f) => f.count === expected.length);

    const binKind = existsSync(join(CLI_DIR, "dist", "main.js")) ? "built bin" : "tsx sources";
    table("fresh process per listing (cold process, warm index)", [
      ["reference listAll + stringify", freshRef.map((f) => f.ms)],
      ["ours: runCli ls --all --json", freshOurs.map((f) => f.ms)],
    ]);
    table("whole process, start to exit", [
      ["reference: node script, listAll", freshRef.map((f) => f.wallMs)],
      [`ours: pi-sessions ls --all --json (${binKind})`, bins.map((f) => f.wallMs)],
    ]);
    table("same process, interleaved", [
      ["reference listAll + stringify", ref],
      ["ours: ls --all --json, 1st call", first],
      ["ours: ls --all --json, 2nd call (warm)", second],
    ]);
    console.log(
      `\nsessions listed: ${expected.length}; same sessions as the reference: ${same && counts}`,
    );
    if (!same || !counts) process.exitCode = 1;
  } finally {
    if (!process.argv.includes("--keep")) rmSync(agentDir, { recursive: true, force: true });
  }
}

await main();
