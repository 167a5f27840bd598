/**
 * Listing against R1.6 (black box): a few hundred generated session files, listed by both
 * implementations; the SessionInfo arrays and the progress sequences must agree. Which files
 * have finished when a `partial` snapshot is taken depends on I/O timing (ten files are read
 * at once in both), so snapshots are compared by shape, order and content rules, and in full
 * at the last call.
 */
import { mkdirSync, symlinkSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SessionInfo } from "../../src/schema/types.js";
import { listAllSessions, listSessions, listSessionsInDir } from "../../src/store/listing.js";
import { SessionInfoCache } from "../../src/store/listing-cache.js";
import {
  generateSessions,
  header,
  loadReferenceDiscovery,
  makeTempDir,
  messageEntry,
  type ProgressCall,
  plainInfos,
  progressShape,
  type ReferenceDiscovery,
  recordProgress,
  removeDir,
  writeLines,
} from "./listing-fixtures.js";

let ref: ReferenceDiscovery;
let agentDir: string;
let dir: string;
let root: string;
let newestPath: string;
let outside: string;
const savedAgentDir = process.env.PI_CODING_AGENT_DIR;

beforeAll(async () => {
  agentDir = makeTempDir("agent");
  process.env.PI_CODING_AGENT_DIR = agentDir;
  ref = await loadReferenceDiscovery();
  dir = join(makeTempDir("list"), "sessions-here");
  generateSessions(dir, 320, 7);

  // A sessions root: project directories, a symlinked one, and things listAll ignores.
  root = join(agentDir, "sessions");
  generateSessions(join(root, "--w-a--"), 150, 11);
  generateSessions(join(root, "--w-b--"), 110, 12);
  outside = makeTempDir("linked");
  generateSessions(outside, 30, 13);
  symlinkSync(outside, join(root, "--linked--"));
  mkdirSync(join(root, "--empty--"));
  const loose = writeLines(root, "loose.jsonl", [header("loose", "/w/a")]);
  symlinkSync(loose, join(root, "file-link"));
  symlinkSync(join(agentDir, "nowhere"), join(root, "broken-link"));
  // The newest candidate is big, so it usually finishes after others (listAll's partial rule).
  const big = Array.from({ length: 4000 }, (_, k) =>
    messageEntry(`b${k}`, { role: "user", content: `big ${k} ${"x".repeat(400)}` }),
  );
  newestPath = writeLines(join(root, "--w-a--"), "newest.jsonl", [
    header("newest", "/w/a"),
    ...big,
  ]);
  utimesSync(newestPath, 1_800_000_000, 1_800_000_000);
});

afterAll(() => {
  if (savedAgentDir === undefined) delete process.env.PI_CODING_AGENT_DIR;
  else process.env.PI_CODING_AGENT_DIR = savedAgentDir;
  removeDir(agentDir);
  removeDir(outside);
  removeDir(join(dir, ".."));
});

/** Paths of infos, sorted: the content of a snapshot regardless of tie order. */
function pathSet(infos: readonly SessionInfo[]): string[] {
  return infos.map((i) => i.path).sort();
}

/** Checks what holds for every snapshot whatever the completion order. */
function checkSnapshots(calls: readonly ProgressCall[], result: readonly SessionInfo[]): void {
  const all = new Set(result.map((i) => i.path));
  for (const call of calls) {
    if (call.partial === undefined) continue;
    expect(call.partial.length).toBeLessThanOrEqual(call.loaded);
    const times = call.partial.map((i) => i.modified.getTime());
    expect(times).toEqual([...times].sort((a, b) => b - a));
    for (const info of call.partial) expect(all.has(info.path)).toBe(true);
  }
  const last = calls.at(-1);
  if (last !== undefined) expect(pathSet(last.partial ?? [])).toEqual(pathSet(result));
}

/** listAll()'s rule: snapshots only from the call where the first candidate finished on. */
function checkListAllRule(calls: readonly ProgressCall[], firstPath: string): void {
  const first = calls.findIndex((c) => c.partial !== undefined);
  expect(first).toBeGreaterThanOrEqual(0);
  expect(calls[first]?.partial?.some((i) => i.path === firstPath)).toBe(true);
  calls.forEach((c, i) => {
    if (i < first) expect(c.partial).toBeUndefined();
    if (i > first) {
      const expected = c.loaded % 100 === 0 || c.loaded === c.total;
      expect(c.partial !== undefined).toBe(expected);
    }
  });
}

describe("list against R1.6", () => {
  it.each(["/w/a", "/w/b", "/w/a-b", "/w/x/../a/", "/nowhere"])(
    "custom directory, cwd %s: same sessions, order and progress",
    async (cwd) => {
      const theirs = recordProgress();
      const expected = await ref.SessionManager.list(cwd, dir, theirs.callback);
      const ours = recordProgress();
      const actual = await listSessions(dir, {
        filterCwd: cwd,
        emptyCwdMatches: false,
        onProgress: ours.callback,
        cache: null,
      });
      expect(plainInfos(actual)).toEqual(plainInfos(expected));
      expect(progressShape(ours.calls)).toEqual(progressShape(theirs.calls));
      checkSnapshots(ours.calls, actual);
      checkSnapshots(theirs.calls, expected);
    },
  );

  it("listAll(dir): every session of the directory, no filter", async () => {
    const theirs = recordProgress();
    const expected = await ref.SessionManager.listAll(dir, theirs.callback);
    expect(expected.length).toBeGreaterThan(250);
    const ours = recordProgress();
    const actual = await listSessionsInDir(dir, { onProgress: ours.callback, cache: null });
    expect(plainInfos(actual)).toEqual(plainInfos(expected));
    expect(progressShape(ours.calls)).toEqual(progressShape(theirs.calls));
    checkSnapshots(ours.calls, actual);
  });

  it("the cache changes nothing: cold and warm listings equal R1.6's", async () => {
    const expected = plainInfos(await ref.SessionManager.list("/w/a", dir));
    const cache = new SessionInfoCache();
    const options = { filterCwd: "/w/a", emptyCwdMatches: false, cache };
    expect(plainInfos(await listSessions(dir, options))).toEqual(expected);
    const misses = cache.misses;
    const warm = recordProgress();
    expect(plainInfos(await listSessions(dir, { ...options, onProgress: warm.callback }))).toEqual(
      expected,
    );
    expect(cache.misses).toBe(misses);
    expect(cache.hits).toBe(320);
    // Cache hits complete in start order, so even the snapshots are determined.
    const theirs = recordProgress();
    await ref.SessionManager.list("/w/a", dir, theirs.callback);
    expect(progressShape(warm.calls)).toEqual(progressShape(theirs.calls));
  });
});

describe("listAll() against R1.6", () => {
  it("every project directory under the root: same sessions, order and progress rule", async () => {
    const theirs = recordProgress();
    const expected = await ref.SessionManager.listAll(theirs.callback);
    expect(expected.length).toBeGreaterThan(250);
    expect(expected.some((i) => i.id === "loose")).toBe(false);
    const ours = recordProgress();
    const actual = await listAllSessions(root, { onProgress: ours.callback, cache: null });
    expect(plainInfos(actual)).toEqual(plainInfos(expected));
    expect(ours.calls.map((c) => [c.loaded, c.total])).toEqual(
      theirs.calls.map((c) => [c.loaded, c.total]),
    );
    checkListAllRule(ours.calls, newestPath);
    checkListAllRule(theirs.calls, newestPath);
    checkSnapshots(ours.calls, actual);
  });

  it("warm listAll() equals R1.6's too", async () => {
    const expected = plainInfos(await ref.SessionManager.listAll());
    const cache = new SessionInfoCache();
    await listAllSessions(root, { cache });
    const ours = recordProgress();
    expect(plainInfos(await listAllSessions(root, { cache, onProgress: ours.callback }))).toEqual(
      expected,
    );
    // Warm, the newest candidate finishes first: snapshots at 1, every 100th and the last.
    expect(ours.calls.filter((c) => c.partial).map((c) => c.loaded)).toEqual([1, 100, 200, 291]);
  });
});
