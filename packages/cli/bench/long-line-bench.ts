/**
 * What one huge line costs `tree` and `context`: a session whose one user message is a 200 MB
 * line, against the same session with that message short (the floor), in the same run.
 *
 *   node --conditions=@pi-sessions/source --import tsx packages/cli/bench/long-line-bench.ts \
 *     [--mb 200] [--rounds 3] [--unbounded-rounds 1] [--keep]
 *
 * Each run is a fresh `pi-sessions` process (the bin's code from the TypeScript sources),
 * `tree <file>` (which reads the whole file) and `context <file> --no-index`, timed by wall
 * clock around the process and by the process's own CPU time and peak RSS (`resourceUsage`,
 * written at exit by `report-usage.mjs`). Four cases:
 * - floor: the same session with a short message;
 * - bounded: the huge line under the default line bound (32 MiB): left unread and reported;
 * - at the bound: a line just under 32 MiB, read whole — the most one line may cost;
 * - unbounded: `PI_SESSIONS_MAX_LINE_BYTES` above the line, so it is read as before the bound
 *   existed (one round by default: it takes gigabytes).
 * Medians of the rounds; ratios against the floor. Exits 1 if a bounded run does not answer
 * (exit 0 with the tree or context printed) or does not say the line was too long.
 */

import { spawnSync } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  assistantMessage,
  textBlock,
  usageRecord,
  userMessage,
} from "@pi-sessions/test-utils/pi-messages";
import { numberFlag } from "../../core/bench/flags.js";
import { DEFAULT_MAX_LINE_BYTES } from "../src/io/line-limit.js";

const MB = 1024 * 1024;
const mb = numberFlag("mb", 200);
const rounds = numberFlag("rounds", 3);
const unboundedRounds = numberFlag("unbounded-rounds", 1);
const keep = process.argv.includes("--keep");

const cliDir = fileURLToPath(new URL("..", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "pi-sessions-long-line-"));

const at = (s: number) => `2026-01-01T00:00:0${s}.000Z`;
const usage = usageRecord({ input: 1, output: 1, cacheRead: 0, cacheWrite: 0 });
/** A message entry line. */
const entry = (id: string, parentId: string | null, message: unknown, s: number) =>
  `${JSON.stringify({ type: "message", id, parentId, timestamp: at(s), message })}\n`;
const assistant = (id: string, parentId: string, text: string, s: number) =>
  entry(id, parentId, assistantMessage({ content: [textBlock(text)], usage, timestamp: s }), s);

/** Writes a session whose third entry is a user message of `textBytes` bytes of text. */
function writeSession(name: string, textBytes: number): string {
  const path = join(dir, name);
  const fd = openSync(path, "w");
  const header = {
    type: "session",
    version: 3,
    id: "0long000-0000-4000-8000-000000000000",
    timestamp: at(0),
    cwd: "/bench",
  };
  writeSync(fd, `${JSON.stringify(header)}\n`);
  writeSync(fd, entry("u1", null, userMessage("Read this file.", 1), 1));
  writeSync(fd, assistant("a1", "u1", "Paste it.", 2));
  // The huge message, written in 1 MiB pieces: the generator never holds it as one string.
  writeSync(
    fd,
    `{"type":"message","id":"big","parentId":"a1","timestamp":"${at(3)}","message":{"role":"user","content":"`,
  );
  const piece = Buffer.alloc(MB, "lorem ipsum ");
  for (let left = textBytes; left > 0; left -= MB) writeSync(fd, piece, 0, Math.min(MB, left));
  writeSync(fd, '","timestamp":3}}\n');
  writeSync(fd, assistant("a2", "big", "Read.", 4));
  closeSync(fd);
  return path;
}

interface Run {
  readonly wallMs: number;
  readonly cpuMs: number;
  readonly rssMb: number;
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** One fresh `pi-sessions` process. */
function runCli(args: readonly string[], env: NodeJS.ProcessEnv = {}): Run {
  const usageFile = join(dir, "usage.json");
  const start = performance.now();
  const r = spawnSync(
    process.execPath,
    [
      "--conditions=@pi-sessions/source",
      "--import",
      "tsx",
      "--import",
      "./bench/report-usage.mjs",
      "src/main.ts",
      ...args,
    ],
    {
      cwd: cliDir,
      env: { ...process.env, ...env, BENCH_USAGE_FILE: usageFile, NO_COLOR: "1" },
      encoding: "utf8",
      maxBuffer: 64 * MB,
    },
  );
  const wallMs = performance.now() - start;
  const usage = JSON.parse(readFileSync(usageFile, "utf8")) as NodeJS.ResourceUsage;
  return {
    wallMs,
    cpuMs: (usage.userCPUTime + usage.systemCPUTime) / 1000,
    rssMb: usage.maxRSS / 1024,
    code: r.status,
    stdout: r.stdout,
    stderr: r.stderr,
  };
}

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};

const floorFile = writeSession("floor.jsonl", 16);
const hugeFile = writeSession("huge.jsonl", mb * MB);
const atBoundFile = writeSession("at-bound.jsonl", DEFAULT_MAX_LINE_BYTES - 4096);
const commands: [string, (file: string) => string[]][] = [
  ["tree", (file) => ["tree", file]],
  ["context --no-index", (file) => ["context", file, "--no-index"]],
];
const cases: [string, string, NodeJS.ProcessEnv, number][] = [
  ["floor (short line)", floorFile, {}, rounds],
  [`${mb} MB line, bounded (default)`, hugeFile, {}, rounds],
  [`${Math.round(DEFAULT_MAX_LINE_BYTES / MB)} MiB line, at the bound`, atBoundFile, {}, rounds],
  [
    `${mb} MB line, unbounded`,
    hugeFile,
    { PI_SESSIONS_MAX_LINE_BYTES: String(2 * mb * MB) },
    unboundedRounds,
  ],
];

let failed = false;
console.log(
  `one huge line: ${mb} MB message line; bound ${DEFAULT_MAX_LINE_BYTES} bytes; medians of the rounds shown`,
);
console.log(
  "| command | case | runs | wall ms | CPU ms | peak RSS MB | wall / floor | RSS / floor |",
);
console.log("|---|---|---:|---:|---:|---:|---:|---:|");
for (const [name, argsOf] of commands) {
  let floor: { wall: number; rss: number } | undefined;
  for (const [label, file, env, n] of cases) {
    if (n < 1) continue;
    const runs: Run[] = [];
    for (let i = 0; i < n; i++) runs.push(runCli(argsOf(file), env));
    const wall = median(runs.map((r) => r.wallMs));
    const cpu = median(runs.map((r) => r.cpuMs));
    const rss = median(runs.map((r) => r.rssMb));
    floor ??= { wall, rss };
    console.log(
      `| ${name} | ${label} | ${n} | ${wall.toFixed(0)} | ${cpu.toFixed(0)} | ${rss.toFixed(0)} | ${(wall / floor.wall).toFixed(2)} | ${(rss / floor.rss).toFixed(2)} |`,
    );
    if (file === hugeFile && env.PI_SESSIONS_MAX_LINE_BYTES === undefined) {
      const r = runs[0] as Run;
      const answered = r.code === 0 && r.stdout.includes("Session 0long000");
      if (
        !answered ||
        !/line 4: line of \d+ bytes is longer than the \d+-byte limit/.test(r.stderr)
      ) {
        failed = true;
        console.log(`  ${name} did not answer as expected (exit ${r.code}): ${r.stderr.trim()}`);
      }
    }
  }
}
if (!keep) rmSync(dir, { recursive: true, force: true });
else console.log(`files kept in ${dir}`);
if (failed) process.exitCode = 1;
