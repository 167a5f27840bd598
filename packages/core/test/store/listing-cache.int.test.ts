/**
 * The per-file SessionInfo cache on real files: a second listing reads nothing, changed or
 * replaced files are read again, callers get copies, and the least recently used entry goes.
 */
import { appendFileSync, renameSync, unlinkSync, utimesSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { listSessionsInDir } from "../../src/store/listing.js";
import { SessionInfoCache } from "../../src/store/listing-cache.js";
import {
  generateSessions,
  header,
  messageEntry,
  plainInfos,
  useTempDirs,
  writeLines,
} from "./listing-fixtures.js";

const { root, fresh } = useTempDirs("listing-cache");

describe("cache", () => {
  it("a second listing reads nothing; changed files are read again", async () => {
    const dir = fresh();
    generateSessions(dir, 60, 5);
    const cache = new SessionInfoCache();
    const cold = await listSessionsInDir(dir, { cache });
    expect([cache.hits, cache.misses]).toEqual([0, 60]);
    const warm = await listSessionsInDir(dir, { cache });
    expect([cache.hits, cache.misses]).toEqual([60, 60]);
    expect(plainInfos(warm)).toEqual(plainInfos(cold));

    // Appended: size and mtime change.
    const grown = writeLines(dir, "grown.jsonl", [
      header("g", "/w"),
      messageEntry("m", { role: "user", content: "one" }),
    ]);
    await listSessionsInDir(dir, { cache });
    appendFileSync(
      grown,
      `${JSON.stringify(messageEntry("n", { role: "user", content: "two" }))}\n`,
    );
    const after = await listSessionsInDir(dir, { cache });
    expect(after.find((i) => i.path === grown)?.messageCount).toBe(2);

    // Replaced by rename with the same size and mtime: the inode differs.
    const same = writeLines(dir, "same.jsonl", [header("s1", "/w")], { mtime: 1_700_000_000 });
    await listSessionsInDir(dir, { cache });
    const tmp = writeLines(root(), "tmp.jsonl", [header("s2", "/w")], { mtime: 1_700_000_000 });
    renameSync(tmp, same);
    utimesSync(same, 1_700_000_000, 1_700_000_000);
    expect((await listSessionsInDir(dir, { cache })).find((i) => i.path === same)?.id).toBe("s2");
  });

  it("hands out copies, remembers non-sessions, evicts the least recently used", async () => {
    const dir = fresh();
    const a = writeLines(dir, "a.jsonl", [header("a", "/w")]);
    writeLines(dir, "junk.jsonl", ["junk"]);
    const cache = new SessionInfoCache(2);
    const [first] = await listSessionsInDir(dir, { cache });
    first?.modified.setTime(0);
    if (first) first.id = "changed";
    const [again] = await listSessionsInDir(dir, { cache });
    expect(again?.id).toBe("a");
    expect(again?.modified.getTime()).toBe(Date.parse("2024-03-01T10:00:00.000Z"));
    expect(cache.hits).toBe(2); // the session and the junk file
    unlinkSync(a);
    expect(await listSessionsInDir(dir, { cache })).toEqual([]);

    // Least recently used goes first: `get` refreshes an entry.
    const lru = new SessionInfoCache(2);
    const stamp = { size: 1, mtimeMs: 1, ino: 1 };
    lru.set("p", stamp, null);
    lru.set("q", stamp, null);
    expect(lru.get("p", stamp)).toBeNull();
    lru.set("r", stamp, null);
    expect([lru.get("p", stamp), lru.get("q", stamp), lru.get("r", stamp)]).toEqual([
      null,
      undefined,
      null,
    ]);
    expect(lru.get("p", { ...stamp, mtimeMs: 1.5 })).toBeUndefined();
    cache.clear();
    expect([cache.size, cache.hits, cache.misses]).toEqual([0, 0, 0]);
  });
});
