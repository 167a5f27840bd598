/**
 * Warm `pi-sessions ls --all` against the listing floor (issue 26, target 2), spawn to exit, in
 * the same run, at each folder size asked for:
 *
 *   node --conditions=@pi-sessions/source --import tsx packages/index/bench/ls-warm-bench.ts \
 *     [--files 1000,10000] [--rounds 5] [--out FILE] [--keep] [--base-bin BIN]
 *
 * Needs the built command (`pnpm --filter @pi-sessions/cli build`). For each size it writes the
 * index benchmark's generated folder, builds the index by one `ls --all`, settles it by a
 * second, then runs `--rounds` interleaved rounds of: the warm `ls --all`; the listing floor
 * (`listingFloor`: walk, one query, a stat per file, decode, sort, print); `ls --all` on an
 * empty folder (the command's own start-up); Node's bare start-up; Node with `node:sqlite`
 * loaded and the index opened (the least any listing from the index pays). It prints medians of
 * CPU (user + system, start-up included) and wall time, each run, the ratios and the load
 * average before and after, and how many of our modules (and bytes) `ls --all` loads on the
 * empty folder. `--base-bin` names another build of the command (another checkout's
 * `packages/cli/bin/pi-sessions.mjs`, built): its warm `ls --all`, its `ls --all` on the empty
 * folder and its module count join the same rounds, for a before/after in one run. `--out`
 * writes all of it as JSON.
 */

import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { flagValue, numberFlag } from "../../core/bench/flags.js";
import { DEFAULT_SETTLE_MS } from "../src/settled.js";
import { generate } from "./generate-folder.js";
import {
  CLI_MAIN,
  freshLs,
  listingFloor,
  lsStartup,
  nodeStartup,
  type SpawnCost,
  sqliteStartup,
} from "./spawn-runs.js";

const median = (values: readonly number[]): number => {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1
    ? (s[mid] as number)
    : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
};

/**
 * Loaded first (`--import`) into the module count's child: counts every module Node loads from
 * a file and its bytes, and the built-ins, and prints them on stderr at exit.
 */
const COUNT_PRELOAD = `data:text/javascript,${encodeURIComponent(
  `import { registerHooks } from "node:module";
let files = 0, bytes = 0; const builtins = new Set();
registerHooks({ load(url, context, next) {
  const loaded = next(url, context);
  if (url.startsWith("file:")) { files++; bytes += loaded.source?.length ?? 0; }
  else if (url.startsWith("node:")) builtins.add(url);
  return loaded;
} });
process.on("exit", () => process.stderr.write("\\n" + JSON.stringify({ files, bytes, builtins: builtins.size })));`,
)}`;

/** What `ls --all` on an empty folder loads: module files (the bin itself included), bytes. */
function modulesOfLs(file: string, agentDir: string, bin = CLI_MAIN) {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PI_CODING_AGENT_DIR: agentDir,
    PI_SESSIONS_INDEX: file,
  };
  delete env.NODE_OPTIONS;
  const run = spawnSync(process.execPath, ["--import", COUNT_PRELOAD, bin, "ls", "--all"], {
    env,
    encoding: "utf8",
  });
  const last = run.stderr.trim().split("\n").at(-1) ?? "{}";
  return JSON.parse(last) as { files: number; bytes: number; builtins: number };
}

/** One side's runs as the JSON keeps them: medians and each run. */
function summary(runs: readonly SpawnCost[]) {
  const cpu = runs.map((r) => r.cpuMs);
  const wall = runs.map((r) => r.wallMs);
  return { cpuMs: median(cpu), wallMs: median(wall), cpuRuns: cpu, wallRuns: wall };
}

const fmt = (n: number) => n.toFixed(1);

/** The interleaved rounds at one folder size. */
async function measure(files: number, rounds: number, base: string, baseBin?: string) {
  const agentDir = join(base, `agent-${files}`);
  const root = join(agentDir, "sessions");
  const file = join(agentDir, "index.sqlite");
  mkdirSync(root, { recursive: true });
  generate(root, files, 87, 20);
  const emptyAgent = join(base, "empty-agent");
  mkdirSync(join(emptyAgent, "sessions"), { recursive: true });
  const emptyFile = join(base, "empty.sqlite");
  const written = Date.now();
  // The first `ls --all` builds the index; the second, once every file's last change is older
  // than the settle margin (`DEFAULT_SETTLE_MS`), settles their rows (as a user's listing a
  // while later finds them). Neither is measured.
  freshLs(file, agentDir, files);
  await delay(Math.max(0, written + DEFAULT_SETTLE_MS + 500 - Date.now()));
  freshLs(file, agentDir, files);
  const sides = {
    ls: [],
    floor: [],
    lsEmpty: [],
    node: [],
    sqlite: [],
    baseLs: [],
    baseLsEmpty: [],
  } as Record<
    "ls" | "floor" | "lsEmpty" | "node" | "sqlite" | "baseLs" | "baseLsEmpty",
    SpawnCost[]
  >;
  const loadBefore = loadavg();
  for (let r = 0; r < rounds; r++) {
    sides.ls.push(freshLs(file, agentDir, files));
    sides.floor.push(listingFloor(file, root, files));
    sides.lsEmpty.push(lsStartup(emptyFile, emptyAgent));
    sides.node.push(nodeStartup());
    sides.sqlite.push(sqliteStartup(file));
    if (baseBin !== undefined) {
      sides.baseLs.push(freshLs(file, agentDir, files, baseBin));
      sides.baseLsEmpty.push(lsStartup(emptyFile, emptyAgent, baseBin));
    }
  }
  const loadAfter = loadavg();
  const s = {
    ls: summary(sides.ls),
    floor: summary(sides.floor),
    lsEmpty: summary(sides.lsEmpty),
    node: summary(sides.node),
    sqlite: summary(sides.sqlite),
    ...(baseBin === undefined
      ? {}
      : { baseLs: summary(sides.baseLs), baseLsEmpty: summary(sides.baseLsEmpty) }),
  };
  const ratio = { cpu: s.ls.cpuMs / s.floor.cpuMs, wall: s.ls.wallMs / s.floor.wallMs };
  console.log(
    `\n${files} sessions, ${rounds} rounds interleaved; load average ${loadBefore.map(fmt).join(" ")} -> ${loadAfter.map(fmt).join(" ")}`,
  );
  console.log(`${"".padEnd(52)}${"CPU ms".padStart(9)}${"wall ms".padStart(9)}   CPU each run`);
  const line = (name: string, side: ReturnType<typeof summary>) =>
    console.log(
      `${name.padEnd(52)}${fmt(side.cpuMs).padStart(9)}${fmt(side.wallMs).padStart(9)}   ${side.cpuRuns.map(fmt).join(" / ")}`,
    );
  line("pi-sessions ls --all, index warm", s.ls);
  line("listing floor (walk, query, stat, decode, print)", s.floor);
  line("pi-sessions ls --all on an empty folder", s.lsEmpty);
  line("node start-up alone", s.node);
  line("node + node:sqlite + the index opened, one row", s.sqlite);
  if (s.baseLs !== undefined && s.baseLsEmpty !== undefined) {
    line("--base-bin: ls --all, index warm", s.baseLs);
    line("--base-bin: ls --all on an empty folder", s.baseLsEmpty);
    console.log(
      `--base-bin warm ls --all / floor: ${(s.baseLs.cpuMs / s.floor.cpuMs).toFixed(2)}x CPU, ${(s.baseLs.wallMs / s.floor.wallMs).toFixed(2)}x wall`,
    );
  }
  console.log(
    `warm ls --all / floor: ${ratio.cpu.toFixed(2)}x CPU, ${ratio.wall.toFixed(2)}x wall (target <= 1.3x)`,
  );
  return { files, rounds, loadAverage: { before: loadBefore, after: loadAfter }, ...s, ratio };
}

async function main(): Promise<void> {
  const sizes = (flagValue("files") ?? "1000,10000").split(",").map(Number);
  const rounds = numberFlag("rounds", 5);
  const out = flagValue("out");
  const baseBin = flagValue("base-bin");
  const base = mkdtempSync(join(tmpdir(), "pi-sessions-ls-warm-"));
  try {
    const emptyAgent = join(base, "empty-agent");
    mkdirSync(join(emptyAgent, "sessions"), { recursive: true });
    const modules = modulesOfLs(join(base, "empty.sqlite"), emptyAgent);
    const baseModules =
      baseBin === undefined
        ? undefined
        : modulesOfLs(join(base, "empty.sqlite"), emptyAgent, baseBin);
    const said = (m: typeof modules) =>
      `${m.files} module files (${(m.bytes / 1024).toFixed(0)} KiB) and ${m.builtins} built-ins`;
    console.log(`ls --all on an empty folder loads ${said(modules)}`);
    if (baseModules !== undefined) console.log(`  --base-bin: ${said(baseModules)}`);
    const results = [];
    for (const files of sizes) results.push(await measure(files, rounds, base, baseBin));
    const result = {
      date: new Date().toISOString(),
      node: process.version,
      machine: { cpus: cpus().length },
      modules,
      ...(baseBin === undefined ? {} : { baseBin, baseModules }),
      results,
    };
    if (out !== undefined) writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
  } finally {
    if (!process.argv.includes("--keep")) rmSync(base, { recursive: true, force: true });
  }
}

await main();
