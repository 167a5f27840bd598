/**
 * The spawn-to-exit part of the index benchmark (see `index-bench.ts`): the real
 * `pi-sessions ls --all` in a fresh process, first into an empty index and then warm, against a
 * fresh process running the reference's `listAll()`, beside the listing floor and Node's (and
 * ls's) own start-up, interleaved round by round.
 */

import { existsSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { costRow, median, row } from "./bench-table.js";
import {
  CLI_MAIN,
  freshLs,
  freshRefWall,
  listingFloor,
  lsStartup,
  nodeStartup,
  type SpawnCost,
} from "./spawn-runs.js";

/** Where the benchmark's folder and index are, and how much it runs. */
export interface SpawnSectionSetup {
  /** The agent directory (`PI_CODING_AGENT_DIR`) holding the sessions folder. */
  readonly agentDir: string;
  /** Its sessions folder. */
  readonly root: string;
  /** The warm index file. */
  readonly file: string;
  /** How many sessions the folder holds (each listing must print them all). */
  readonly files: number;
  readonly rounds: number;
}

/** Measures and prints the section; says how to enable it when the CLI is not built. */
export function spawnSection({ agentDir, root, file, files, rounds }: SpawnSectionSetup): void {
  if (!existsSync(CLI_MAIN)) {
    console.log(`(no ${CLI_MAIN}: build the CLI to measure \`pi-sessions ls --all\`)`);
    return;
  }
  const refSpawn: SpawnCost[] = [];
  const firstLs: SpawnCost[] = [];
  const lsSpawn: SpawnCost[] = [];
  const floorSpawn: SpawnCost[] = [];
  const startSpawn: SpawnCost[] = [];
  const lsEmpty: SpawnCost[] = [];
  // An empty sessions folder of its own, and an index of its own, for ls's start-up.
  const emptyAgent = join(agentDir, "empty-agent");
  mkdirSync(join(emptyAgent, "sessions"), { recursive: true });
  const emptyFile = join(agentDir, "empty.sqlite");
  // A user's first `ls --all`, each into an empty index of its own, beside the reference.
  const firstFile = join(agentDir, "first.sqlite");
  for (let r = 0; r < rounds; r++) {
    for (const suffix of ["", "-wal", "-shm"]) rmSync(`${firstFile}${suffix}`, { force: true });
    refSpawn.push(freshRefWall(agentDir, files));
    firstLs.push(freshLs(firstFile, agentDir, files));
  }
  // One unmeasured run first: it settles the rows of files written moments ago.
  freshLs(file, agentDir, files);
  for (let r = 0; r < Math.max(5, rounds); r++) {
    refSpawn.push(freshRefWall(agentDir, files));
    lsSpawn.push(freshLs(file, agentDir, files));
    floorSpawn.push(listingFloor(file, root, files));
    startSpawn.push(nodeStartup());
    lsEmpty.push(lsStartup(emptyFile, emptyAgent));
  }
  const wall = (runs: SpawnCost[]) => runs.map((c) => c.wallMs);
  const cpu = (runs: SpawnCost[]) => runs.map((c) => c.cpuMs);
  const refWall = median(wall(refSpawn));
  const refCpu = median(cpu(refSpawn));
  row("reference listAll(), fresh process, spawn to exit", wall(refSpawn), refWall);
  row("  CPU time", cpu(refSpawn), refCpu);
  costRow("first `pi-sessions ls --all`, empty index, spawn to exit", wall(firstLs), refWall);
  costRow("  CPU time", cpu(firstLs), refCpu);
  row("pi-sessions ls --all (dist, index warm), spawn to exit", wall(lsSpawn), refWall);
  row("  floor: rows read, files stated, printed (spawn to exit)", wall(floorSpawn), refWall);
  const floorWall = median(wall(floorSpawn));
  const floorCpu = median(cpu(floorSpawn));
  costRow("  warm ls --all against its floor, wall", wall(lsSpawn), floorWall, "floor");
  costRow("  warm ls --all CPU against the floor's CPU", cpu(lsSpawn), floorCpu, "floor");
  // Node's own start-up, beneath both: what is left above it is each side's own work.
  const startWall = median(wall(startSpawn));
  const startCpu = median(cpu(startSpawn));
  console.log(
    `  node start-up alone: wall median ${startWall.toFixed(1)} ms, CPU median ${startCpu.toFixed(1)} ms (${startSpawn.length} spawns)`,
  );
  const above = (runs: SpawnCost[], pick: (c: SpawnCost) => number, base: number) =>
    median(runs.map(pick)) - base;
  const lsWork = above(lsSpawn, (c) => c.wallMs, startWall);
  const floorWork = above(floorSpawn, (c) => c.wallMs, startWall);
  const lsCpuWork = above(lsSpawn, (c) => c.cpuMs, startCpu);
  const floorCpuWork = above(floorSpawn, (c) => c.cpuMs, startCpu);
  console.log(
    `  above start-up: ls ${lsWork.toFixed(1)} / floor ${floorWork.toFixed(1)} ms wall (${(lsWork / floorWork).toFixed(2)}×), ${lsCpuWork.toFixed(1)} / ${floorCpuWork.toFixed(1)} ms CPU (${(lsCpuWork / floorCpuWork).toFixed(2)}×)`,
  );
  // ls's own start-up (the same command on an empty folder): what is left above it is the
  // work that grows with the files, set against the floor's above Node's start-up.
  const lsStartWall = median(wall(lsEmpty));
  const lsStartCpu = median(cpu(lsEmpty));
  const perFileWall = above(lsSpawn, (c) => c.wallMs, lsStartWall);
  const perFileCpu = above(lsSpawn, (c) => c.cpuMs, lsStartCpu);
  console.log(
    `  ls --all on an empty folder (its start-up): wall median ${lsStartWall.toFixed(1)} ms, CPU median ${lsStartCpu.toFixed(1)} ms (${lsEmpty.length} spawns; CPU ${cpu(
      lsEmpty,
    )
      .map((c) => c.toFixed(1))
      .join(" / ")})`,
  );
  console.log(
    `  per-file work, ls above its start-up against the floor above Node's: ${perFileWall.toFixed(1)} / ${floorWork.toFixed(1)} ms wall (${(perFileWall / floorWork).toFixed(2)}×), ${perFileCpu.toFixed(1)} / ${floorCpuWork.toFixed(1)} ms CPU (${(perFileCpu / floorCpuWork).toFixed(2)}×)`,
  );
  console.log(
    `  floor CPU: median ${floorCpu.toFixed(1)} ms (${cpu(floorSpawn)
      .map((c) => c.toFixed(1))
      .join(" / ")})`,
  );
}
