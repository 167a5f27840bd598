/**
 * Listing benchmark: N generated session files in a temp directory, listed by our
 * `listSessions` and by the reference's `SessionManager.list(cwd, dir)`, with a raw
 * "read + split + JSON.parse every line" baseline measured in the same run.
 *
 *   node --conditions=@pi-sessions/source --import tsx packages/core/bench/list-bench.ts \
 *     [--files N] [--kb K] [--rounds R] [--keep]
 *
 * Defaults: 2,000 files of about 87 KB and 3 rounds (the issue's target is
 * `--files 10000 --kb 87`, about 870 MB). Two tables:
 * - fresh process per listing: each listing runs in a new node process (cold JIT, empty
 *   cache, clean RSS), which is what a user's first `/resume` costs, and the fair place to
 *   compare peak RSS growth;
 * - same process, interleaved rounds: the reference, ours with an empty cache, and ours again
 *   with that cache warm (the second listing of a session).
 * The files are in the page cache after generation, so "cold" means an empty info cache, not
 * a cold disk. `--keep` leaves the directory in place. Exits 1 if any result differs from
 * the reference's.
 */

import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { SessionInfo } from "../src/schema/types.js";
import { listSessions } from "../src/store/listing.js";
import { SessionInfoCache } from "../src/store/listing-cache.js";
import { numberFlag } from "./flags.js";
import { sessionTemplates } from "./generate.js";

/** The reference call this benchmark makes. */
interface RefListing {
  SessionManager: { list(cwd: string, sessionDir?: string): Promise<SessionInfo[]> };
}

const CWD = "/work/project";

/** Writes `files` sessions averaging `kb` KB, from a pool of generated texts with fresh ids. */
function generate(dir: string, files: number, kb: number): number {
  const templates = sessionTemplates(kb);
  let total = 0;
  for (let i = 0; i < files; i++) {
    const t = templates[i % templates.length];
    if (t === undefined) continue;
    const id = `bench-${String(i).padStart(6, "0")}`;
    const stamp = new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString();
    const text = JSON.stringify({ ...t.head, id, timestamp: stamp }) + t.body;
    const path = join(dir, `${stamp.replace(/[:.]/g, "-")}_${id}.jsonl`);
    writeFileSync(path, text);
    const mtime = 1_735_000_000 + (i % 977) * 60;
    utimesSync(path, mtime, mtime);
    total += Buffer.byteLength(text);
  }
  return total;
}

/** One timed run. */
interface Timed<T> {
  readonly value: T;
  readonly ms: number;
  /** Peak RSS growth during the run, in MiB. */
  readonly peakMb: number;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/** Runs `fn` once, timing it and sampling RSS every 5 ms; returns ms and peak RSS growth. */
async function run<T>(fn: () => Promise<T> | T): Promise<Timed<T>> {
  (globalThis as { gc?: () => void }).gc?.();
  const base = process.memoryUsage().rss;
  let peak = base;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  const start = process.hrtime.bigint();
  const value = await fn();
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().rss);
  return { value, ms, peakMb: (peak - base) / 2 ** 20 };
}

/** The baseline: read each file whole, split it, `JSON.parse` every line, keep nothing. */
function rawParse(dir: string): number {
  let lines = 0;
  for (const name of readdirSync(dir)) {
    for (const line of readFileSync(join(dir, name), "utf8").split("\n")) {
      if (line.length > 0) {
        JSON.parse(line);
        lines++;
      }
    }
  }
  return lines;
}

const plain = (list: readonly SessionInfo[]) =>
  JSON.stringify(
    list.map((i) => ({ ...i, created: i.created.getTime(), modified: i.modified.getTime() })),
  );

/** Where the reference's session module is (its package exports do not expose it). */
const REFERENCE_URL = new URL(
  "../node_modules/@earendil-works/pi-coding-agent/dist/core/session-manager.js",
  import.meta.url,
);

/** One listing of `dir` by `who`; ours with its own fresh cache. */
async function listOnce(who: "ref" | "ours", dir: string, cache = new SessionInfoCache()) {
  if (who === "ours") return listSessions(dir, { filterCwd: CWD, emptyCwdMatches: false, cache });
  const ref = (await import(REFERENCE_URL.href)) as RefListing;
  return ref.SessionManager.list(CWD, dir);
}

/**
 * Child mode (`--child ref|ours --dir D`): one listing in a fresh process, so that "cold"
 * includes a cold JIT and the RSS growth is not blurred by earlier runs. Prints JSON.
 */
async function child(who: "ref" | "ours", dir: string): Promise<void> {
  if (who === "ref") await import(REFERENCE_URL.href); // module loading is not listing time
  const timed = await run(() => listOnce(who, dir));
  console.log(JSON.stringify({ ms: timed.ms, peakMb: timed.peakMb, count: timed.value.length }));
}

/** Runs {@link child} in a new node process with this process's flags. */
function inFreshProcess(who: "ref" | "ours", dir: string): Timed<number> {
  const script = fileURLToPath(import.meta.url);
  const out = execFileSync(
    process.execPath,
    [...process.execArgv, script, "--child", who, "--dir", dir],
    {
      encoding: "utf8",
      maxBuffer: 1 << 20,
    },
  );
  const { ms, peakMb, count } = JSON.parse(out.trim().split("\n").at(-1) ?? "{}") as {
    ms: number;
    peakMb: number;
    count: number;
  };
  return { value: count, ms, peakMb };
}

const column = (s: string, n: number) => s.padStart(n);

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const childOf = args.indexOf("--child");
  if (childOf >= 0) {
    await child(
      args[childOf + 1] === "ref" ? "ref" : "ours",
      args[args.indexOf("--dir") + 1] ?? "",
    );
    return;
  }
  const files = numberFlag("files", 2000);
  const kb = numberFlag("kb", 87);
  const rounds = numberFlag("rounds", 3);
  const dir = mkdtempSync(join(tmpdir(), "pi-sessions-list-bench-"));
  try {
    const genStart = Date.now();
    const bytes = generate(dir, files, kb);
    console.log(
      `${files} files, ${(bytes / 2 ** 20).toFixed(0)} MiB, generated in ${Date.now() - genStart} ms (${dir})`,
    );
    const baseline = await run(() => rawParse(dir));
    // Fresh processes: cold JIT, cold cache, clean RSS.
    const freshRef: Timed<number>[] = [];
    const freshOurs: Timed<number>[] = [];
    for (let r = 0; r < rounds; r++) {
      freshRef.push(inFreshProcess("ref", dir));
      freshOurs.push(inFreshProcess("ours", dir));
    }
    // In this process, interleaved so that machine noise hits both alike.
    const refRuns: Timed<SessionInfo[]>[] = [];
    const coldRuns: Timed<SessionInfo[]>[] = [];
    const warmRuns: Timed<SessionInfo[]>[] = [];
    for (let r = 0; r < rounds; r++) {
      refRuns.push(await run(() => listOnce("ref", dir)));
      const cache = new SessionInfoCache();
      coldRuns.push(await run(() => listOnce("ours", dir, cache)));
      warmRuns.push(await run(() => listOnce("ours", dir, cache)));
    }
    const expected = plain(refRuns[0]?.value ?? []);
    const same = [...coldRuns, ...warmRuns].every((t) => plain(t.value) === expected);
    const counts = [...freshRef, ...freshOurs].every((t) => t.value === refRuns[0]?.value.length);

    const table = (title: string, refMs: number, rows: [string, readonly Timed<unknown>[]][]) => {
      console.log(
        `\n${title.padEnd(34)}${column("median", 9)}${column("ref/this", 10)}${column("this/parse", 12)}${column("peak RSS+", 11)}   each run (ms)`,
      );
      for (const [name, runs] of rows) {
        const ms = median(runs.map((t) => t.ms));
        const peak = Math.max(...runs.map((t) => t.peakMb));
        console.log(
          `${name.padEnd(34)}${column(`${ms.toFixed(0)} ms`, 9)}${column(`${(refMs / ms).toFixed(2)}x`, 10)}${column(`${(ms / baseline.ms).toFixed(2)}x`, 12)}${column(`${peak.toFixed(0)} MB`, 11)}   ${runs.map((t) => t.ms.toFixed(0)).join(" / ")}`,
        );
      }
    };
    table("fresh process per listing", median(freshRef.map((t) => t.ms)), [
      ["reference SessionManager.list", freshRef],
      ["ours listSessions (cold)", freshOurs],
    ]);
    table("same process, interleaved", median(refRuns.map((t) => t.ms)), [
      ["raw read+split+JSON.parse", [baseline]],
      ["reference SessionManager.list", refRuns],
      ["ours listSessions, empty cache", coldRuns],
      ["ours listSessions, warm cache", warmRuns],
    ]);
    console.log(
      `\nsessions listed: ${coldRuns[0]?.value.length}; identical to the reference: ${same && counts}; lines parsed by the baseline: ${baseline.value}`,
    );
    if (!same || !counts) process.exitCode = 1;
  } finally {
    if (!process.argv.includes("--keep")) rmSync(dir, { recursive: true, force: true });
  }
}

await main();
