/**
 * pi's `/resume` picker lists every session (`SessionManager.listAll()`). Through the launcher
 * that call answers from the session index; this measures it against pi's own `listAll()` on
 * the same `--files` sessions (default 10,000, averaging `--kb` KB, over 20 projects), in one
 * process, rounds interleaved, medians, wall and CPU. The index is built by a first listing
 * (timed on its own line: the first `/resume` on a machine) and warm after it, as every later
 * `/resume` finds it. The floor of the same run: a `stat` of every session file, the least a
 * listing that must notice changed files can do. Ours reads each session's `allMessagesText`
 * only when read (pi's picker reads it to search); the cost of reading them all after our
 * listing, as a first search does, is timed on its own.
 *
 *   node --expose-gc --conditions=@pi-sessions/source --import tsx packages/cli/bench/resume-listing-bench.ts
 *
 * Flags: `--files=N`, `--kb=N` (default 40), `--rounds=N` (default 5), `--out=path.json`.
 */

import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { REFERENCE_SESSION_MODULE } from "@pi-sessions/test-utils/reference";
import { flagValue, numberFlag } from "../../core/bench/flags.js";
import { sessionTemplates } from "../../core/bench/generate.js";

const files = numberFlag("files", 10_000);
const kb = numberFlag("kb", 40);
const rounds = numberFlag("rounds", 5);
const PROJECTS = 20;

const dir = mkdtempSync(join(tmpdir(), "pi-resume-bench-"));
const agent = join(dir, "agent");
const root = join(agent, "sessions");
process.env.PI_CODING_AGENT_DIR = agent;
process.env.PI_SESSIONS_INDEX = join(dir, "index.sqlite");

console.log(`writing ${files.toLocaleString()} sessions of ~${kb} KB…`);
const templates = sessionTemplates(kb);
let bytes = 0;
for (let p = 0; p < PROJECTS; p++) mkdirSync(join(root, `--work-p${p}--`), { recursive: true });
for (let i = 0; i < files; i++) {
  const t = templates[i % templates.length] as (typeof templates)[number];
  const stamp = new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString();
  const id = `0197resu-${String(i).padStart(4, "0")}-7000-8000-000000000000`.slice(0, 36);
  const text =
    JSON.stringify({ ...t.head, id, timestamp: stamp, cwd: `/work/p${i % PROJECTS}` }) + t.body;
  const path = join(
    root,
    `--work-p${i % PROJECTS}--`,
    `${stamp.replace(/[:.]/g, "-")}_${id}.jsonl`,
  );
  writeFileSync(path, text);
  const mtime = 1_735_000_000 + i * 7;
  utimesSync(path, mtime, mtime);
  bytes += text.length;
}
console.log(`  ${(bytes / 1e6).toFixed(0)} MB`);

// Imported after the environment names the agent dir and index file.
const { LauncherSessionManager } = await import("../src/pi-launcher/launcher-session-manager.js");
const ref = (await import(REFERENCE_SESSION_MODULE.href)) as {
  SessionManager: { listAll(): Promise<{ path: string }[]> };
};

/** `gc()` when Node was started with `--expose-gc` (as `pnpm bench` does). */
const collect = (globalThis as { gc?: () => void }).gc;

/**
 * One timed call: wall and CPU ms, and the paths listed. The heap is collected first (outside
 * the timing) when `gc` is exposed: otherwise each side pays for the other's garbage — pi's
 * listing leaves every session's text behind, tens of MB, and ours always runs right after one.
 */
async function timed(fn: () => Promise<{ path: string }[]>) {
  collect?.();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const listed = await fn();
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { wall, cpu: (cpu.user + cpu.system) / 1000, paths: listed.map((i) => i.path) };
}

/** Stats every session file: the floor of a listing that notices changes. */
function statFloor(): number {
  const t0 = performance.now();
  for (const project of readdirSync(root)) {
    for (const name of readdirSync(join(root, project))) statSync(join(root, project, name));
  }
  return performance.now() - t0;
}

const first = await timed(() => LauncherSessionManager.listAll());
console.log(
  `first listing through the launcher (builds the index): ${(first.wall / 1000).toFixed(2)} s`,
);
const samples = {
  pi: [] as number[],
  piCpu: [] as number[],
  ours: [] as number[],
  oursCpu: [] as number[],
  floor: [] as number[],
  textRead: [] as number[],
  textReadCpu: [] as number[],
};
let textChars = 0;
for (let r = 0; r < rounds; r++) {
  const order = r % 2 === 0 ? ["pi", "ours"] : ["ours", "pi"];
  let piPaths: string[] = [];
  let ourPaths: string[] = [];
  for (const side of order) {
    if (side === "pi") {
      const s = await timed(() => ref.SessionManager.listAll());
      samples.pi.push(s.wall);
      samples.piCpu.push(s.cpu);
      piPaths = s.paths;
    } else {
      let listed: { allMessagesText: string }[] = [];
      const s = await timed(async () => {
        const infos = await LauncherSessionManager.listAll();
        listed = infos;
        return infos;
      });
      samples.ours.push(s.wall);
      samples.oursCpu.push(s.cpu);
      ourPaths = s.paths;
      // What the picker's first search then reads: every session's text (pi's came with its
      // listing).
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      let chars = 0;
      for (const info of listed) chars += info.allMessagesText.length;
      samples.textRead.push(performance.now() - t0);
      const cpu = process.cpuUsage(cpu0);
      samples.textReadCpu.push((cpu.user + cpu.system) / 1000);
      textChars = chars;
    }
  }
  samples.floor.push(statFloor());
  if (
    piPaths.length !== files ||
    JSON.stringify([...piPaths].sort()) !== JSON.stringify([...ourPaths].sort())
  ) {
    throw new Error(`the listings differ: pi ${piPaths.length}, ours ${ourPaths.length}`);
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const result = {
  files,
  megabytes: bytes / 1e6,
  rounds,
  firstListingMs: first.wall,
  piMs: median(samples.pi),
  piCpuMs: median(samples.piCpu),
  oursMs: median(samples.ours),
  oursCpuMs: median(samples.oursCpu),
  statFloorMs: median(samples.floor),
  heapCollectedBetweenSides: collect !== undefined,
  /** After our listing, reading every session's text (a search's first key): not in oursMs. */
  textReadMs: median(samples.textRead),
  textReadCpuMs: median(samples.textReadCpu),
  textChars,
  ratio: median(samples.pi) / median(samples.ours),
  cpuRatio: median(samples.piCpu) / median(samples.oursCpu),
  machine: { cpus: cpus().length, loadAverage: loadavg() },
};
console.log(
  `/resume listing of ${files.toLocaleString()} sessions (medians of ${rounds}): pi listAll ${result.piMs.toFixed(0)} ms (cpu ${result.piCpuMs.toFixed(0)}), through the launcher with a warm index ${result.oursMs.toFixed(0)} ms (cpu ${result.oursCpuMs.toFixed(0)}): ${result.ratio.toFixed(1)}× faster (${result.cpuRatio.toFixed(1)}× less CPU); floor (stat every file) ${result.statFloorMs.toFixed(0)} ms; then reading every text (a first search) ${result.textReadMs.toFixed(0)} ms (cpu ${result.textReadCpuMs.toFixed(0)})`,
);
const out = flagValue("out");
if (out) writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
rmSync(dir, { recursive: true, force: true });
