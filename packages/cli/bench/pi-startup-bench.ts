/**
 * pi on a giant session: how soon the real `pi --mode rpc --session <file>` answers its first
 * command (`get_state`: ready for a prompt), started alone (pi's own bin) and through
 * `pi-sessions pi` (the built CLI) with a warm session index (the file indexed and its layout
 * snapshot written before the timed rounds: the open takes the entries' layout from it), and
 * through `pi-sessions pi` with the index's part switched off (`PI_SESSIONS_OPEN_FROM_INDEX=0`:
 * the checked open, every line's bytes read), on a generated session of `--mb` MB (default
 * 1024) with compactions and branches; rounds interleaved, medians reported, with the pi
 * process's CPU time and peak memory. Floors of the same run: each side's start on a one-turn session (what
 * pi costs before any session is read; pi's unbundled entry alone, which the swap runs), reading
 * the file's bytes once (no parsing), and in this process the byte check of every line and
 * core's columns load (open-floors.ts): what an open must do before any manager state.
 * Then the manager calls pi makes from its start to that answer, counted and timed inside the
 * real pi process on the giant session (bench/record-calls.mjs), ours and pi's.
 *
 *   pnpm exec turbo run build --filter=@pi-sessions/cli     (the bench runs the built bin)
 *   cd packages/cli && pnpm exec node --conditions=@pi-sessions/source --import tsx \
 *     bench/pi-startup-bench.ts --rounds=3 --out=bench/startup-results.json
 *
 * Flags: `--mb=N`, `--rounds=N` (default 3), `--out=path.json`.
 */

import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { openSessionIndex } from "@pi-sessions/index";
import { writeGiantSession } from "./giant-session.js";
import { columnsLoadCost, lineCheckCost, type PassCost } from "./open-floors.js";
import { measureReady, type ReadySample } from "./rpc-ready.js";

const flag = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1];
const megabytes = Number(flag("mb") ?? 1024);
const rounds = Number(flag("rounds") ?? 3);

const here = dirname(fileURLToPath(import.meta.url));
const cliRoot = join(here, "..");
const bin = join(cliRoot, "bin", "pi-sessions.mjs");
const piRoot = join(
  dirname(fileURLToPath(import.meta.resolve("@earendil-works/pi-coding-agent"))),
  "..",
);
const piBin = join(piRoot, "dist", "bundle", "cli.js");
const recorder = join(here, "record-calls.mjs");

const dir = mkdtempSync(join(tmpdir(), "pi-startup-bench-"));
const cwd = join(dir, "work");
const agentDir = join(dir, "agent");
const projectDir = join(agentDir, "sessions", `--${cwd.slice(1).replaceAll("/", "-")}--`);
for (const d of [cwd, projectDir, join(dir, "home")]) mkdirSync(d, { recursive: true });

console.log(`generating a ${megabytes} MB session…`);
const t0 = performance.now();
const giant = join(
  projectDir,
  "2025-01-01T00-00-00-000Z_01940000-0000-7000-8000-000000000001.jsonl",
);
const shape = writeGiantSession(giant, megabytes, cwd);
console.log(
  `  ${(shape.bytes / 1e6).toFixed(0)} MB, ${shape.entries.toLocaleString()} entries, ${shape.compactions} compactions, ${shape.branches} branches (${((performance.now() - t0) / 1000).toFixed(0)} s)`,
);
const small = join(
  projectDir,
  "2025-01-02T00-00-00-000Z_01940000-0000-7000-8000-000000000002.jsonl",
);
writeGiantSession(small, 0.001, cwd, 2);

let warmUp = { wallS: 0, cpuS: 0 };
const env: NodeJS.ProcessEnv = {
  ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("PI_"))),
  HOME: join(dir, "home"),
  PI_CODING_AGENT_DIR: agentDir,
  PI_OFFLINE: "1",
  PI_TELEMETRY: "0",
  PI_SKIP_VERSION_CHECK: "1",
  PI_SESSIONS_INDEX: join(dir, "index.sqlite"),
};
// The warm index: every session indexed (what `pi-sessions index` does), then the giant file's
// layout read once through the index, which writes its snapshot (what the first open does).
{
  const t = performance.now();
  const cpu0 = process.cpuUsage();
  const index = openSessionIndex({ file: env.PI_SESSIONS_INDEX, onNotice: () => {} });
  try {
    await index.sync(join(agentDir, "sessions"));
    const layout = index.columnsFor(giant, statSync(giant));
    if (layout?.ids.length !== shape.entries)
      throw new Error("the index did not vouch for the giant session");
  } finally {
    index.close();
  }
  const cpu = process.cpuUsage(cpu0);
  warmUp = { wallS: (performance.now() - t) / 1000, cpuS: (cpu.user + cpu.system) / 1e6 };
  console.log(`  index warmed in ${warmUp.wallS.toFixed(0)} s (cpu ${warmUp.cpuS.toFixed(0)} s)`);
}
const piArgs = (file: string) => [
  "--mode",
  "rpc",
  "--session",
  file,
  "--offline",
  "--no-extensions",
  "--no-skills",
  "--no-prompt-templates",
  "--no-themes",
  "--no-context-files",
  "--no-mcp",
];
const sides = {
  pi: (file: string) => measureReady([piBin, ...piArgs(file)], { cwd, env, viaLauncher: false }),
  // pi's unbundled entry, which the swap must run (its imports are the ones redirected): what
  // starting pi from its modules one by one instead of its one bundle costs, before any of ours loads.
  piUnbundled: (file: string) =>
    measureReady([join(piRoot, "dist", "cli.js"), ...piArgs(file)], {
      cwd,
      env,
      viaLauncher: false,
    }),
  ours: (file: string) =>
    measureReady([bin, "pi", "--pi", piRoot, ...piArgs(file)], { cwd, env, viaLauncher: true }),
  // The launcher's checked open (no index): what the warm index saves.
  oursChecked: (file: string) =>
    measureReady([bin, "pi", "--pi", piRoot, ...piArgs(file)], {
      cwd,
      env: { ...env, PI_SESSIONS_OPEN_FROM_INDEX: "0" },
      viaLauncher: true,
    }),
};

/** Reads the file once in 4 MB pieces, parsing nothing: the floor of any open. */
function readFloorMs(file: string): number {
  const start = performance.now();
  const fd = openSync(file, "r");
  const buffer = Buffer.allocUnsafe(4 << 20);
  while (readSync(fd, buffer, 0, buffer.length, null) > 0);
  closeSync(fd);
  return performance.now() - start;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
type SampleKey = "pi" | "ours" | "oursChecked" | "piSmall" | "oursSmall" | "piUnbundledSmall";
const samples: Record<SampleKey, ReadySample[]> = {
  pi: [],
  ours: [],
  oursChecked: [],
  piSmall: [],
  oursSmall: [],
  piUnbundledSmall: [],
};
const reads: number[] = [];
const loadAtStart = loadavg();
const lineChecks: PassCost[] = [];
const columnLoads: PassCost[] = [];
for (let r = 0; r < rounds; r++) {
  const order = r % 2 === 0 ? (["pi", "ours"] as const) : (["ours", "pi"] as const);
  for (const side of [...order, "oursChecked"] as const) {
    const s = await sides[side](giant);
    samples[side].push(s);
    console.log(
      `  round ${r + 1} ${side.padEnd(11)} ready ${(s.readyMs / 1000).toFixed(2)} s, cpu ${(s.cpuMs / 1000).toFixed(2)} s, peak ${s.peakMb.toFixed(0)} MB`,
    );
  }
  for (const side of order) samples[`${side}Small`].push(await sides[side](small));
  samples.piUnbundledSmall.push(await sides.piUnbundled(small));
  reads.push(readFloorMs(giant));
  lineChecks.push(lineCheckCost(giant));
  columnLoads.push(columnsLoadCost(giant));
}

const summary = (k: keyof typeof samples) => ({
  readyS: median(samples[k].map((s) => s.readyMs)) / 1000,
  cpuS: median(samples[k].map((s) => s.cpuMs)) / 1000,
  peakMb: median(samples[k].map((s) => s.peakMb)),
  launcherPeakMb: samples[k][0]?.launcherPeakMb,
});
const result = {
  session: {
    megabytes: shape.bytes / 1e6,
    entries: shape.entries,
    compactions: shape.compactions,
    branches: shape.branches,
  },
  rounds,
  pi: summary("pi"),
  ours: summary("ours"),
  oursChecked: summary("oursChecked"),
  indexWarmUp: warmUp,
  floors: {
    piOnOneTurn: summary("piSmall"),
    oursOnOneTurn: summary("oursSmall"),
    piUnbundledOnOneTurn: summary("piUnbundledSmall"),
    readBytesS: median(reads) / 1000,
    // In this process: what an open that keeps damaged lines out of the tree must do at least.
    lineCheck: {
      wallS: median(lineChecks.map((c) => c.wallMs)) / 1000,
      cpuS: median(lineChecks.map((c) => c.cpuMs)) / 1000,
    },
    columnsLoad: {
      wallS: median(columnLoads.map((c) => c.wallMs)) / 1000,
      cpuS: median(columnLoads.map((c) => c.cpuMs)) / 1000,
    },
  },
  readyRatio: median(samples.pi.map((s) => s.readyMs)) / median(samples.ours.map((s) => s.readyMs)),
  cpuRatio: median(samples.pi.map((s) => s.cpuMs)) / median(samples.ours.map((s) => s.cpuMs)),
  checkedReadyRatio:
    median(samples.pi.map((s) => s.readyMs)) / median(samples.oursChecked.map((s) => s.readyMs)),
  checkedCpuRatio:
    median(samples.pi.map((s) => s.cpuMs)) / median(samples.oursChecked.map((s) => s.cpuMs)),
  machine: { cpus: cpus().length, loadAtStart, loadAverage: loadavg() },
  // Every round's figures, for the spread behind the medians.
  raw: Object.fromEntries(
    Object.entries(samples).map(([k, v]) => [
      k,
      v.map((s) => ({ readyS: s.readyMs / 1000, cpuS: s.cpuMs / 1000, peakMb: s.peakMb })),
    ]),
  ),
};
console.log(
  `\nready for a prompt (medians of ${rounds}): pi ${result.pi.readyS.toFixed(2)} s (cpu ${result.pi.cpuS.toFixed(2)} s, peak ${result.pi.peakMb.toFixed(0)} MB); pi-sessions pi, warm index ${result.ours.readyS.toFixed(2)} s (cpu ${result.ours.cpuS.toFixed(2)} s, peak ${result.ours.peakMb.toFixed(0)} MB, launcher ${result.ours.launcherPeakMb?.toFixed(0)} MB): ${result.readyRatio.toFixed(1)}× sooner, ${result.cpuRatio.toFixed(1)}× less CPU; checked open (no index) ${result.oursChecked.readyS.toFixed(2)} s (cpu ${result.oursChecked.cpuS.toFixed(2)} s, peak ${result.oursChecked.peakMb.toFixed(0)} MB): ${result.checkedReadyRatio.toFixed(1)}× sooner, ${result.checkedCpuRatio.toFixed(1)}× less CPU`,
);
console.log(
  `floors: pi ready on a one-turn session ${result.floors.piOnOneTurn.readyS.toFixed(2)} s (cpu ${result.floors.piOnOneTurn.cpuS.toFixed(2)} s), pi's unbundled entry alone ${result.floors.piUnbundledOnOneTurn.readyS.toFixed(2)} s (cpu ${result.floors.piUnbundledOnOneTurn.cpuS.toFixed(2)} s), through the launcher ${result.floors.oursOnOneTurn.readyS.toFixed(2)} s (cpu ${result.floors.oursOnOneTurn.cpuS.toFixed(2)} s); reading the file's bytes ${result.floors.readBytesS.toFixed(2)} s, checking every line's bytes (cpu) ${result.floors.lineCheck.cpuS.toFixed(2)} s, core's columns load (cpu) ${result.floors.columnsLoad.cpuS.toFixed(2)} s`,
);

// The manager calls from start to ready, inside the real pi process, with their cost.
const managerModules = {
  pi: pathToFileURL(join(piRoot, "dist", "core", "session-manager.js")).href,
  ours: pathToFileURL(join(cliRoot, "dist", "pi-launcher", "launcher-session-manager.js")).href,
};
const calls: Record<string, unknown> = {};
for (const side of ["ours", "pi"] as const) {
  const out = join(dir, `calls-${side}.json`);
  const callEnv = {
    ...env,
    PI_SESSIONS_BENCH_MODULE: managerModules[side],
    PI_SESSIONS_BENCH_CALLS: out,
  };
  const args =
    side === "pi"
      ? ["--import", recorder, join(piRoot, "dist", "cli.js"), ...piArgs(giant)]
      : ["--import", recorder, bin, "pi", "--pi", piRoot, ...piArgs(giant)];
  await measureReady(args, { cwd, env: callEnv, viaLauncher: side === "ours" });
  const rows = JSON.parse(readFileSync(out, "utf8")) as {
    member: string;
    calls: number;
    ms: number;
    cpuMs: number;
  }[];
  calls[side] = rows;
  console.log(`\nmanager calls from start to ready, ${side}:`);
  for (const row of rows.sort((a, b) => b.ms - a.ms)) {
    console.log(
      `  ${row.member.padEnd(28)} ${String(row.calls).padStart(3)}× ${row.ms.toFixed(1).padStart(9)} ms (cpu ${row.cpuMs.toFixed(1)} ms)`,
    );
  }
}

const outFile = flag("out");
if (outFile) writeFileSync(outFile, `${JSON.stringify({ ...result, calls }, null, 2)}\n`);
rmSync(dir, { recursive: true, force: true });
