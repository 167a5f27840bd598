/**
 * The session index against the reference's `SessionManager.listAll()` on the same generated
 * folder, in the same run:
 *
 *   node --conditions=@pi-sessions/source --import tsx packages/index/bench/index-bench.ts \
 *     [--files N] [--kb K] [--projects P] [--rounds R] [--grow G] [--queries Q] [--keep]
 *     [--only build]
 *
 * Defaults: 1,000 files averaging 87 KB (about 85 MiB; the full size is
 * `--files 10000`, about 870 MiB), 20 project directories, 3 rounds; `pnpm bench` runs the
 * defaults, a few minutes at most. It measures:
 * - building the index from nothing (one full listing into an empty index file: every entry
 *   and its search text stored), `--rounds` times, each after one reference `listAll()`;
 *   `--only build` stops there (for the full size, where the rest takes long); beside it, the
 *   write floor: the same rows by bare SQLite inserts (`floors.ts`);
 * - `listAll()` through the warm index in a fresh process, with and without the transcript
 *   text, against the reference's `listAll()` in a fresh process (the time inside the process);
 * - the real command, `pi-sessions ls --all` (the installed `packages/cli/bin/pi-sessions.mjs`, bundled, plain
 *   `node`, its table read through a pipe) in a fresh process with the index warm, from spawn to
 *   exit, against a fresh process that imports the reference and runs its `listAll()`, also
 *   from spawn to exit (module loading included on both sides), and beside it the listing
 *   floor: a plain `node` doing only what any listing from the index must (`spawn-runs.ts`);
 * - after `--grow` sessions (default 10) each gain 20 entries: the next listing, and how many
 *   files it caught up (only those) and re-read in full (none);
 * - `search` p50/p95 over `--queries` one- and three-word queries (default 200 each), of
 *   frequent words and of rare ones, on rows that are up to date (`refresh: false`) and with
 *   the sync every search does by default (see `search-section.ts`).
 * The spawn-to-exit part is in `spawn-section.ts`, the table rows in `bench-table.ts`.
 * The files are in the page cache after generation: "fresh process" means a cold process, not
 * a cold disk. Exits 1 if any listing differs from core's direct one.
 */

import { execFileSync } from "node:child_process";
import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual } from "node:util";
import { SessionManager } from "@pi-sessions/core";
import { defaultSessionInfoCache } from "@pi-sessions/core/internal";
import { REFERENCE_SESSION_MODULE } from "@pi-sessions/test-utils/reference";
import { flagValue, numberFlag } from "../../core/bench/flags.js";
import { messagePool } from "../../core/bench/generate.js";
import { openSessionIndex } from "../src/index.js";
import { openSqlite } from "../src/sqlite.js";
import { costRow, median, row, timed } from "./bench-table.js";
import { writeFloorMs } from "./floors.js";
import { generate } from "./generate-folder.js";
import { searchSection } from "./search-section.js";
import { spawnSection } from "./spawn-section.js";

interface RefModule {
  SessionManager: { listAll(): Promise<{ path: string }[]> };
}

/** Child mode: one listing in this fresh process; prints `{ms, count}`. */
async function child(kind: string, file: string): Promise<void> {
  if (kind === "ref") {
    const ref = (await import(REFERENCE_SESSION_MODULE.href)) as RefModule;
    const { value, ms: t } = await timed(() => ref.SessionManager.listAll());
    process.stdout.write(`${JSON.stringify({ ms: t, count: value.length })}\n`);
    return;
  }
  const { value, ms: t } = await timed(async () => {
    const index = openSessionIndex({ file });
    const root = join(process.env.PI_CODING_AGENT_DIR as string, "sessions");
    const list =
      kind === "text"
        ? await index.listAll()
        : await index.listProjects(root, { withText: false, withShape: true });
    index.close();
    return list;
  });
  process.stdout.write(`${JSON.stringify({ ms: t, count: value.length })}\n`);
}

/** A fresh process's listing: the time inside it (module loading left out). */
function fresh(kind: "ref" | "text" | "rows", file: string, agentDir: string): number {
  const script = fileURLToPath(import.meta.url);
  const out = execFileSync(
    process.execPath,
    [...process.execArgv, script, "--child", kind, "--file", file],
    {
      encoding: "utf8",
      env: { ...process.env, PI_CODING_AGENT_DIR: agentDir },
    },
  );
  return (JSON.parse(out.trim().split("\n").at(-1) ?? "{}") as { ms: number }).ms;
}

/** A word of a transcript to search for: its first word of four letters or more. */
function firstWord(text: string): string {
  return text.match(/[a-z]{4,}/)?.[0] ?? "the";
}

/** Appends `n` user/assistant entries to a session file, chained after its last entry. */
function grow(path: string, n: number, salt: number): void {
  const pool = messagePool(8, salt);
  let parent: string | null = null;
  let text = "";
  for (let i = 0; i < n; i++) {
    const id = `g${salt}x${i}`;
    const message = i % 2 === 0 ? pool.users[i % 8] : pool.assistants[i % 8];
    text += `${JSON.stringify({ type: "message", id, parentId: parent, timestamp: "2025-08-01T00:00:00.000Z", message })}\n`;
    parent = id;
  }
  appendFileSync(path, text);
}

async function main(): Promise<void> {
  const kind = flagValue("child");
  if (kind !== undefined) return child(kind, flagValue("file") as string);
  const files = numberFlag("files", 1000);
  const kb = numberFlag("kb", 87);
  const projects = numberFlag("projects", 20);
  const rounds = numberFlag("rounds", 3);
  const growN = numberFlag("grow", 10);
  const queries = numberFlag("queries", 200);
  const buildOnly = flagValue("only") === "build";
  const agentDir = mkdtempSync(join(tmpdir(), "pi-sessions-index-bench-"));
  const root = join(agentDir, "sessions");
  const file = join(agentDir, "index.sqlite");
  mkdirSync(root);
  process.env.PI_CODING_AGENT_DIR = agentDir;
  let same = true;
  const direct = async () => {
    defaultSessionInfoCache.clear();
    return SessionManager.listAll();
  };
  try {
    const bytes = generate(root, files, kb, projects);
    const ref = (await import(REFERENCE_SESSION_MODULE.href)) as RefModule;
    // Each round, alternating so that every side sees the same machine load: the reference's
    // listAll; a user's first `ls` (the listing, shapes, no text) into an empty index, then the
    // first search after it (which reads every file once more for its records and text); pi's
    // first `/resume` (listAll with the text) into an empty index; and a build of everything
    // from nothing (`sync`: records and search text too). The last build is kept for the rest.
    const refRuns: number[] = [];
    const buildRuns: number[] = [];
    // CPU time (user + system) of the same runs: on a busy machine it says what the work
    // costs when the wall-clock figures mostly say how long the process waited for a core.
    const refCpu: number[] = [];
    const buildCpu: number[] = [];
    const first = { ls: [] as number[], lsCpu: [] as number[], all: [] as number[] };
    const firstAllCpu: number[] = [];
    const firstSearch: number[] = [];
    const firstSearchCpu: number[] = [];
    const word = firstWord((await direct())[0]?.allMessagesText ?? "");
    const emptyIndex = () => {
      for (const suffix of ["", "-wal", "-shm"]) rmSync(`${file}${suffix}`, { force: true });
      return openSessionIndex({ file });
    };
    let index = emptyIndex();
    for (let r = 0; r < rounds; r++) {
      const listed = await timed(() => ref.SessionManager.listAll());
      refRuns.push(listed.ms);
      refCpu.push(listed.cpuMs);
      index.close();
      index = emptyIndex();
      const ls = await timed(() => index.listProjects(root, { withShape: true, withText: false }));
      first.ls.push(ls.ms);
      first.lsCpu.push(ls.cpuMs);
      const searched = await timed(() => index.search(word, { dir: root }));
      firstSearch.push(searched.ms);
      firstSearchCpu.push(searched.cpuMs);
      index.close();
      index = emptyIndex();
      const all = await timed(() => index.listAll());
      first.all.push(all.ms);
      firstAllCpu.push(all.cpuMs);
      same &&= isDeepStrictEqual(all.value, await direct());
      index.close();
      index = emptyIndex();
      const build = await timed(() => index.sync(root));
      buildRuns.push(build.ms);
      buildCpu.push(build.cpuMs);
      same &&= isDeepStrictEqual(await index.listAll(), await direct());
    }
    const refMs = median(refRuns);
    // A second, read-only connection to look at what was built.
    const look = openSqlite(file, { readOnly: true });
    const entries = (
      look.prepare("SELECT count(*) AS n FROM entries").get() as unknown as { n: number }
    ).n;
    console.log(
      `${files} sessions in ${projects} project dirs, ${(bytes / 2 ** 20).toFixed(0)} MiB, ${entries.toLocaleString("en")} entries (${root})`,
    );
    console.log(
      `\n${"".padEnd(58)}${"median".padStart(12)}${"ref/this".padStart(9)}   each run (ms)`,
    );
    row("reference listAll(), same process", refRuns, refMs);
    const refCpuMs = median(refCpu);
    row("  CPU time: reference listAll()", refCpu, refCpuMs);
    costRow("first `ls` into an empty index (listing only)", first.ls, refMs);
    costRow("  CPU time", first.lsCpu, refCpuMs);
    costRow("first listAll() with text (pi's first /resume)", first.all, refMs);
    costRow("  CPU time", firstAllCpu, refCpuMs);
    costRow(`the search right after the first \`ls\` ("${word}")`, firstSearch, refMs);
    costRow("  CPU time", firstSearchCpu, refCpuMs);
    costRow("everything from nothing (sync: records, search text)", buildRuns, refMs);
    costRow("  CPU time", buildCpu, refCpuMs);
    // Once: at the full size it takes about as long as a build.
    const floor = writeFloorMs(root, join(agentDir, "floor.sqlite"));
    row("  floor: the same rows by bare SQLite inserts, no parse", [floor], refMs);
    if (buildOnly) {
      look.close();
      index.close();
      console.log(`\nevery index listing equal to core's direct listing: ${same}`);
      if (!same) process.exitCode = 1;
      return;
    }
    const freshRef: number[] = [];
    const freshText: number[] = [];
    const freshRows: number[] = [];
    for (let r = 0; r < rounds; r++) {
      freshRef.push(fresh("ref", file, agentDir));
      freshText.push(fresh("text", file, agentDir));
      freshRows.push(fresh("rows", file, agentDir));
    }
    row("reference listAll(), fresh process", freshRef, median(freshRef));
    row("index listAll() (full SessionInfo), fresh process, warm", freshText, median(freshRef));
    row("index listing as ls reads it (no text), fresh process, warm", freshRows, median(freshRef));
    spawnSection({ agentDir, root, file, files, rounds });

    const paths = readdirSync(join(root, "--work-p0--")).map((n) => join(root, "--work-p0--", n));
    const grown = paths.slice(0, growN);
    for (const [i, path] of grown.entries()) grow(path, 20, i + 1);
    const before = { ...index.counts };
    const caught = await timed(() => index.listAll());
    same &&= isDeepStrictEqual(caught.value, await direct());
    const caughtUp = index.counts["caught-up"] - before["caught-up"];
    const reread = index.counts.indexed - before.indexed;
    row(`listAll() after ${grown.length} sessions gained 20 entries each`, [caught.ms], refMs);
    console.log(
      `  that listing caught up ${caughtUp} files from their last indexed line, re-read ${reread} in full`,
    );
    if (caughtUp !== grown.length || reread !== 0) same = false;

    await searchSection(index, look, root, queries);
    look.close();
    index.close();
    console.log(`\nevery index listing equal to core's direct listing: ${same}`);
    if (!same) process.exitCode = 1;
  } finally {
    if (!process.argv.includes("--keep")) rmSync(agentDir, { recursive: true, force: true });
  }
}

await main();
