/**
 * Listing benchmark: N generated session files in a temp directory, listed by our
 * `listSessions` (cold: empty cache; warm: second call) and by the reference's
 * `SessionManager.list(cwd, dir)`, all in one process, with a raw "read + split + JSON.parse
 * every line" baseline. Reports times, ratios and the peak RSS growth of each run.
 *
 *   node --conditions=@pi-sessions/source --import tsx packages/core/bench/list-bench.ts \
 *     [--files N] [--kb K] [--keep]
 *
 * Defaults: 2,000 files of about 87 KB (the target is `--files 10000 --kb 87`, about
 * 870 MB). Every run after generation reads the files from the page cache, so "cold" means
 * "our cache is empty", not "the disk is cold". `--keep` leaves the directory in place.
 */

import { mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { SessionInfo } from "../src/schema/types.js";
import { listSessions } from "../src/store/listing.js";
import { SessionInfoCache } from "../src/store/listing-cache.js";
import { generateSession } from "./generate.js";

/** The reference call this benchmark makes. */
interface RefListing {
  SessionManager: { list(cwd: string, sessionDir?: string): Promise<SessionInfo[]> };
}

const CWD = "/work/project";

function flag(name: string, fallback: number): number {
  const args = process.argv.slice(2);
  const i = args.indexOf(`--${name}`);
  const raw = i >= 0 ? args[i + 1] : args.find((a) => a.startsWith(`--${name}=`))?.split("=")[1];
  const n = Number(raw);
  return raw !== undefined && Number.isFinite(n) && n > 0 ? n : fallback;
}

/** Writes `files` sessions averaging `kb` KB, from a pool of generated texts with fresh ids. */
function generate(dir: string, files: number, kb: number): number {
  const probe = generateSession("bushy", 200, 1);
  const bytesPerEntry = probe.bytes / 200;
  const templates = Array.from({ length: 40 }, (_, k) => {
    const size = Math.max(1, Math.round(((0.5 + k / 40) * kb * 1024) / bytesPerEntry));
    const text = generateSession(k % 2 ? "bushy" : "linear", size, k + 1).text;
    const newline = text.indexOf("\n");
    return { head: JSON.parse(text.slice(0, newline)) as Record<string, unknown>, body: text.slice(newline) };
  });
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

/** Runs `fn` once, timing it and sampling RSS every 5 ms; returns ms and peak RSS growth. */
async function run<T>(fn: () => Promise<T> | T): Promise<{ value: T; ms: number; peakMb: number }> {
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
  JSON.stringify(list.map((i) => ({ ...i, created: i.created.getTime(), modified: i.modified.getTime() })));

async function main(): Promise<void> {
  const files = flag("files", 2000);
  const kb = flag("kb", 87);
  const dir = mkdtempSync(join(tmpdir(), "pi-sessions-list-bench-"));
  try {
    const genStart = Date.now();
    const bytes = generate(dir, files, kb);
    console.log(`${files} files, ${(bytes / 2 ** 20).toFixed(0)} MiB, generated in ${Date.now() - genStart} ms (${dir})`);
    const url = new URL("../node_modules/@earendil-works/pi-coding-agent/dist/core/session-manager.js", import.meta.url);
    const ref = (await import(url.href)) as RefListing;
    const options = (cache: SessionInfoCache) => ({ filterCwd: CWD, emptyCwdMatches: false, cache });

    const baseline = await run(() => rawParse(dir));
    const reference = await run(() => ref.SessionManager.list(CWD, dir));
    const cache = new SessionInfoCache();
    const cold = await run(() => listSessions(dir, options(cache)));
    const warm = await run(() => listSessions(dir, options(cache)));
    // Second rounds, with the JIT warm for both.
    const reference2 = await run(() => ref.SessionManager.list(CWD, dir));
    const cold2 = await run(() => listSessions(dir, options(new SessionInfoCache())));

    const same = plain(cold.value) === plain(reference.value) && plain(warm.value) === plain(reference.value);
    const refMs = Math.min(reference.ms, reference2.ms);
    const coldMs = Math.min(cold.ms, cold2.ms);
    const row = (name: string, ms: number, peakMb: number) =>
      `${name.padEnd(34)} ${ms.toFixed(0).padStart(8)} ms ${(refMs / ms).toFixed(2).padStart(8)}x ${(ms / baseline.ms).toFixed(2).padStart(8)}x ${peakMb.toFixed(0).padStart(8)} MB`;
    console.log(`${"".padEnd(34)} ${"time".padStart(11)} ${"vs ref".padStart(9)} ${"vs parse".padStart(9)} ${"peak RSS+".padStart(11)}`);
    console.log(row("raw read+split+JSON.parse", baseline.ms, baseline.peakMb));
    console.log(row("reference SessionManager.list", refMs, Math.max(reference.peakMb, reference2.peakMb)));
    console.log(row("ours listSessions, cold (1st)", cold.ms, cold.peakMb));
    console.log(row("ours listSessions, cold (2nd)", cold2.ms, cold2.peakMb));
    console.log(row("ours listSessions, warm cache", warm.ms, warm.peakMb));
    console.log(`sessions listed: ${cold.value.length}; identical to the reference: ${same}; baseline lines: ${baseline.value}`);
    if (!same) process.exitCode = 1;
  } finally {
    if (!process.argv.includes("--keep")) rmSync(dir, { recursive: true, force: true });
  }
}

await main();
